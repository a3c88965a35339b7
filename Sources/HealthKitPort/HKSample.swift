import Foundation
import HealthModel

/// A sample: an object with a type and a time interval (HealthKit: `HKSample`).
public class HKSample: HKObject, @unchecked Sendable {
    /// When the sample's interval begins (the export's instant; its printed UTC offset is not
    /// part of a `Date`).
    public let startDate: Date
    /// When it ends; equal to `startDate` for an instant.
    public let endDate: Date
    /// The sample's type, of the type's class (`HKQuantityType`, …).
    public let sampleType: HKSampleType

    override init(_ object: HealthObject) {
        let start = object.startDate.map { Date(timeIntervalSince1970: TimeInterval($0.secondsSince1970)) } ?? .distantPast
        startDate = start
        endDate = object.endDate.map { Date(timeIntervalSince1970: TimeInterval($0.secondsSince1970)) } ?? start
        sampleType = (HKObjectType.make(identifier: object.objectType.identifier) as? HKSampleType)
            ?? HKSampleType(identifier: object.objectType.identifier)
        super.init(object)
    }

    /// Whether the end is unknown (HealthKit: `hasUndeterminedDuration`): exports always have one.
    public var hasUndeterminedDuration: Bool { endDate == .distantFuture }
}

/// A numeric sample (HealthKit: `HKQuantitySample`): steps, heart rate, body mass.
public final class HKQuantitySample: HKSample, @unchecked Sendable {
    /// The value and unit as exported.
    public let quantity: HKQuantity
    /// Individual quantities represented: always 1 in exports (series are not exported).
    public let count: Int

    init(_ object: HealthObject, _ sample: QuantitySample) {
        quantity = HKQuantity(sample.quantity)
        count = sample.count
        super.init(object)
    }

    /// The sample's quantity type.
    public var quantityType: HKQuantityType {
        sampleType as? HKQuantityType ?? HKQuantityType(HKQuantityTypeIdentifier(rawValue: sampleType.identifier))
    }
}

/// A sample with an enumerated value (HealthKit: `HKCategorySample`): sleep stages, events.
public final class HKCategorySample: HKSample, @unchecked Sendable {
    /// The raw value of the category's enum (`HKCategoryValueSleepAnalysis…`); exports print
    /// the case name, mapped back to its raw value; 0 when the export printed none.
    public let value: Int

    init(_ object: HealthObject, _ sample: CategorySample) {
        value = sample.value.rawValue ?? 0
        super.init(object)
    }

    /// The sample's category type.
    public var categoryType: HKCategoryType {
        sampleType as? HKCategoryType ?? HKCategoryType(HKCategoryTypeIdentifier(rawValue: sampleType.identifier))
    }
}

/// Samples recorded together (HealthKit: `HKCorrelation`): blood pressure, food.
public final class HKCorrelation: HKSample, @unchecked Sendable {
    /// The member samples (the same uuids as their top-level copies in the export).
    public let objects: Set<HKSample>

    init(_ object: HealthObject, _ correlation: Correlation) {
        var members = Set<HKSample>()
        for member in correlation.objects {
            switch member {
            case .quantity(let q): members.insert(HKQuantitySample(.quantitySample(q), q))
            case .category(let c): members.insert(HKCategorySample(.categorySample(c), c))
            }
        }
        objects = members
        super.init(object)
    }

    /// The correlation's type.
    public var correlationType: HKCorrelationType {
        sampleType as? HKCorrelationType ?? HKCorrelationType(identifier: sampleType.identifier)
    }
}

/// A workout (HealthKit: `HKWorkout`).
public final class HKWorkout: HKSample, @unchecked Sendable {
    /// The activity type's raw value (HealthKit's `HKWorkoutActivityType`).
    public let workoutActivityType: HKWorkoutActivityType
    /// The duration in seconds (the export's, else end − start).
    public let duration: TimeInterval
    /// The distance: the export's total, else the workout's distance statistic.
    public let totalDistance: HKQuantity?
    /// The active energy: the export's total, else the workout's energy statistic.
    public let totalEnergyBurned: HKQuantity?

    init(_ object: HealthObject, _ workout: Workout) {
        workoutActivityType = HKWorkoutActivityType(rawValue: UInt(max(0, workout.workoutActivityType.rawValue ?? 3000)))
            ?? .other
        let start = workout.sample.startDate.secondsSince1970, end = workout.sample.endDate.secondsSince1970
        if let d = workout.duration, let unit = try? HealthUnit.cached(d.unit.isEmpty ? "min" : d.unit),
            let seconds = try? unit.convert(d.value.value, to: HealthUnit.cached("s"))
        {
            duration = seconds
        } else {
            duration = TimeInterval(end - start)
        }
        totalDistance = workout.effectiveTotalDistance.map(HKQuantity.init)
        totalEnergyBurned = workout.effectiveTotalEnergyBurned.map(HKQuantity.init)
        super.init(object)
    }
}

/// HealthKit's workout activity type, by raw value (`HKWorkoutActivityType`); `.other` is 3000.
public struct HKWorkoutActivityType: RawRepresentable, Hashable, Sendable {
    /// HealthKit's raw value.
    public let rawValue: UInt
    /// The activity type with this raw value.
    public init?(rawValue: UInt) { self.rawValue = rawValue }

    /// A few common activity types; any raw value is accepted.
    public static let running = HKWorkoutActivityType(rawValue: 37)!
    public static let walking = HKWorkoutActivityType(rawValue: 52)!
    public static let cycling = HKWorkoutActivityType(rawValue: 13)!
    public static let swimming = HKWorkoutActivityType(rawValue: 46)!
    public static let hiking = HKWorkoutActivityType(rawValue: 24)!
    public static let yoga = HKWorkoutActivityType(rawValue: 57)!
    public static let traditionalStrengthTraining = HKWorkoutActivityType(rawValue: 50)!
    public static let other = HKWorkoutActivityType(rawValue: 3000)!
}

/// A glasses or contacts prescription (HealthKit: `HKVisionPrescription`), read object by
/// object: a consumer sees only the prescriptions granted to it (or its own).
public final class HKVisionPrescription: HKSample, @unchecked Sendable {
    /// Glasses (1) or contacts (2), when the export's spelling is recognized.
    public let prescriptionType: HKVisionPrescriptionType
    /// When the prescription was issued (also its `startDate`).
    public let dateIssued: Date
    /// When it expires, if exported (also its `endDate`).
    public let expirationDate: Date?

    init(_ object: HealthObject, _ prescription: VisionPrescription) {
        prescriptionType = HKVisionPrescriptionType(exported: prescription.prescriptionType)
        dateIssued = prescription.dateIssued.map { Date(timeIntervalSince1970: TimeInterval($0.secondsSince1970)) } ?? .distantPast
        expirationDate = prescription.expirationDate.map { Date(timeIntervalSince1970: TimeInterval($0.secondsSince1970)) }
        super.init(object)
    }
}

/// HealthKit's `HKVisionPrescriptionType`.
public enum HKVisionPrescriptionType: UInt, Sendable {
    case glasses = 1
    case contacts = 2

    /// The export's spelling, whose form is unknown: a name, a bare name or an integer.
    init(exported text: String?) {
        let lowered = text?.lowercased() ?? ""
        if lowered.contains("contact") || lowered == "2" { self = .contacts } else { self = .glasses }
    }
}

/// An object deleted from the store, or absent from a later export (HealthKit:
/// `HKDeletedObject`): its uuid only (and no metadata: none is kept for a deletion).
public final class HKDeletedObject: NSObject, @unchecked Sendable {
    /// The deleted object's uuid, the one `healthport changes` reports as deleted.
    public let uuid: UUID
    /// Always `nil`: a deletion found by comparing exports or imports carries no metadata (on a
    /// phone it holds at most the sync identifier and version an app saved; exports have none).
    public let metadata: [String: Any]?

    init(uuid: UUID) {
        self.uuid = uuid
        self.metadata = nil
        super.init()
    }

    /// Two deleted objects are equal when their uuids are, as `HKObject`s are.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKDeletedObject)?.uuid == uuid }
    /// The uuid's hash, consistent with `isEqual(_:)`.
    public override var hash: Int { uuid.hashValue }

    /// `HKDeletedObject 5F1C…`, as `HKObject` describes itself, so that printing a result (the
    /// seed's `print(update)`) shows which objects went, not memory addresses.
    public override var description: String { "HKDeletedObject \(uuid.uuidString)" }
}
