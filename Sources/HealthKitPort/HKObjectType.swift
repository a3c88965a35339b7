import Foundation
import HealthModel
import HealthQuery

/// A type of data (HealthKit: `HKObjectType`), named by HealthKit's identifier string
/// (`HKQuantityTypeIdentifierStepCount`).
///
/// A class hierarchy as in HealthKit (`HKSampleType`, `HKQuantityType`, …), so that code
/// written against HealthKit (`.visionPrescriptionType()` where an `HKObjectType` is expected,
/// `Set<HKSampleType>`) compiles unchanged. Two type objects are equal when their identifiers
/// are. Immutable, hence `Sendable`.
public class HKObjectType: NSObject, @unchecked Sendable {
    /// HealthKit's identifier, e.g. `HKQuantityTypeIdentifierStepCount`.
    public let identifier: String

    init(identifier: String) {
        self.identifier = identifier
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKObjectType)?.identifier == identifier
    }

    public override var hash: Int { identifier.hashValue }

    public override var description: String { identifier }

    /// Whether the type's objects are authorized one by one (HealthKit:
    /// `requiresPerObjectAuthorization()`): vision prescriptions. Such a type is requested with
    /// `HKHealthStore.requestPerObjectReadAuthorization(for:predicate:)`, never through
    /// `requestAuthorization(toShare:read:)` (which fails with `errorInvalidArgument`).
    public func requiresPerObjectAuthorization() -> Bool {
        AuthorizationPolicy.perObjectTypes.contains(identifier)
    }

    /// The quantity type, or `nil` for an identifier healthport does not know.
    public class func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier) -> HKQuantityType? {
        TypeCatalogue.entry(for: identifier.rawValue)?.kind == .quantity ? HKQuantityType(identifier) : nil
    }

    /// The category type, or `nil` for an identifier healthport does not know.
    public class func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? {
        TypeCatalogue.entry(for: identifier.rawValue)?.kind == .category ? HKCategoryType(identifier) : nil
    }

    /// The workout type (`HKWorkoutTypeIdentifier`).
    public class func workoutType() -> HKWorkoutType { HKWorkoutType(identifier: ObjectType.workout.identifier) }

    /// The vision prescription type (`HKVisionPrescriptionTypeIdentifier`), authorized per object.
    public class func visionPrescriptionType() -> HKPrescriptionType {
        HKPrescriptionType(identifier: ObjectType.visionPrescription.identifier)
    }

    /// The type object for an identifier string, of the right class.
    static func make(identifier: String) -> HKObjectType {
        let kind = TypeCatalogue.entry(for: identifier)?.kind ?? ObjectType(recordType: identifier).kind
        switch kind {
        case .quantity: return HKQuantityType(HKQuantityTypeIdentifier(rawValue: identifier))
        case .category: return HKCategoryType(HKCategoryTypeIdentifier(rawValue: identifier))
        case .workout: return HKWorkoutType(identifier: identifier)
        case .visionPrescription: return HKPrescriptionType(identifier: identifier)
        case .correlation: return HKCorrelationType(identifier: identifier)
        case .characteristic, .activitySummary: return HKObjectType(identifier: identifier)
        default: return HKSampleType(identifier: identifier)
        }
    }
}

/// A type of sample (HealthKit: `HKSampleType`): what can be queried by date and shared.
public class HKSampleType: HKObjectType, @unchecked Sendable {}

/// A quantity type (HealthKit: `HKQuantityType`): `HKQuantityType(.stepCount)`.
public final class HKQuantityType: HKSampleType, @unchecked Sendable {
    /// The quantity type with this identifier (HealthKit: `HKQuantityType(_:)`).
    public init(_ identifier: HKQuantityTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }

    /// Whether quantities of this type can be expressed in `unit` (HealthKit:
    /// `is(compatibleWith:)`), judged by the type's canonical unit.
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        guard let canonical = TypeCatalogue.entry(for: identifier)?.canonicalUnit else { return false }
        return HKUnit(from: canonical).isCompatible(with: unit)
    }
}

/// A category type (HealthKit: `HKCategoryType`): `HKCategoryType(.sleepAnalysis)`.
public final class HKCategoryType: HKSampleType, @unchecked Sendable {
    /// The category type with this identifier (HealthKit: `HKCategoryType(_:)`).
    public init(_ identifier: HKCategoryTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }
}

/// The workout type (HealthKit: `HKWorkoutType`).
public final class HKWorkoutType: HKSampleType, @unchecked Sendable {}

/// A correlation type (HealthKit: `HKCorrelationType`): blood pressure, food. Correlation
/// types cannot be authorized; authorize their member types.
public final class HKCorrelationType: HKSampleType, @unchecked Sendable {}

/// A prescription type (HealthKit: `HKPrescriptionType`): vision prescriptions.
public final class HKPrescriptionType: HKSampleType, @unchecked Sendable {}
