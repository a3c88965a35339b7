import Foundation
import HealthModel

/// An object read from a store or an export (HealthKit: `HKObject`): immutable, identified by
/// its uuid.
///
/// Exports carry no uuids: healthport derives each object's uuid from its content
/// (`ObjectIdentity`), so the same object has the same uuid in every export and in the store,
/// and `healthport query` prints the same uuid. Two objects are equal when their uuids are.
public class HKObject: NSObject, @unchecked Sendable {
    /// The object's uuid, derived from its content (the one `healthport query` prints).
    public let uuid: UUID
    /// Metadata values: `String`, `Double` (numbers), `Date` or `HKQuantity`, as HealthKit
    /// holds them; `nil` when the object has none.
    public let metadata: [String: Any]?
    /// The app or device that saved the object. Exports name the source and its version only
    /// (no bundle identifier, product type or OS version).
    public let sourceRevision: HKSourceRevision
    /// The device that generated the data, when the export names one.
    public let device: HKDevice?
    /// The model value behind this object.
    let object: HealthObject

    init(_ object: HealthObject) {
        self.object = object
        uuid = UUID(uuidString: object.uuid.uuidString) ?? UUID()
        let attributes = object.sampleAttributes
        let metadata: Metadata
        switch object {
        case .visionPrescription(let v): metadata = v.metadata
        default: metadata = attributes?.metadata ?? Metadata()
        }
        self.metadata = metadata.isEmpty ? nil : Self.values(metadata)
        sourceRevision = HKSourceRevision(attributes?.sourceRevision ?? SourceRevision(source: Source(name: "")))
        device = attributes?.device.map(HKDevice.init)
        super.init()
    }

    static func values(_ metadata: Metadata) -> [String: Any] {
        var values: [String: Any] = [:]
        for entry in metadata.entries {
            switch entry.value {
            case .string(let s): values[entry.key] = s
            case .number(let n): values[entry.key] = n.value
            case .date(let d): values[entry.key] = Date(timeIntervalSince1970: TimeInterval(d.secondsSince1970))
            case .quantity(let q): values[entry.key] = HKQuantity(q)
            }
        }
        return values
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKObject)?.uuid == uuid
    }

    public override var hash: Int { uuid.hashValue }

    /// The kind of object and its uuid, e.g. `HKQuantitySample 5F1C…`.
    public override var description: String { "\(type(of: self)) \(uuid.uuidString)" }

    /// The object of the right class for a model value; `nil` for kinds this library does not
    /// model yet (activity summaries, clinical records, ECGs, unknown elements).
    static func make(_ object: HealthObject) -> HKObject? {
        switch object {
        case .quantitySample(let q): return HKQuantitySample(object, q)
        case .categorySample(let c): return HKCategorySample(object, c)
        case .correlation(let c): return HKCorrelation(object, c)
        case .workout(let w): return HKWorkout(object, w)
        case .visionPrescription(let v): return HKVisionPrescription(object, v)
        case .audiogram: return HKSample(object)
        case .activitySummary, .clinicalRecord, .electrocardiogram, .unknown: return nil
        }
    }
}

/// The app or device that saved objects (HealthKit: `HKSource`).
public final class HKSource: NSObject, @unchecked Sendable {
    /// The name as exported (e.g. `Simon’s Apple Watch`).
    public let name: String
    /// Exports carry no bundle identifiers: always empty here.
    public let bundleIdentifier: String

    init(name: String, bundleIdentifier: String) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKSource else { return false }
        return other.name == name && other.bundleIdentifier == bundleIdentifier
    }

    public override var hash: Int { name.hashValue }
}

/// A source at a version (HealthKit: `HKSourceRevision`).
public final class HKSourceRevision: NSObject, @unchecked Sendable {
    /// The source (its name as exported).
    public let source: HKSource
    /// The source's version (`sourceVersion` in the export).
    public let version: String?
    /// Not exported: always `nil` for exported data.
    public let productType: String?

    init(_ revision: SourceRevision) {
        source = HKSource(name: revision.source.name, bundleIdentifier: revision.source.bundleIdentifier ?? "")
        version = revision.version
        productType = revision.productType
        super.init()
    }
}

/// The hardware that generated data (HealthKit: `HKDevice`), parsed from the export's device
/// description (never its object address).
public final class HKDevice: NSObject, @unchecked Sendable {
    /// The device fields HealthKit defines, each `nil` when the export does not print it.
    public let name: String?
    public let manufacturer: String?
    public let model: String?
    public let hardwareVersion: String?
    public let firmwareVersion: String?
    public let softwareVersion: String?
    public let localIdentifier: String?
    public let udiDeviceIdentifier: String?

    init(_ device: Device) {
        name = device.name
        manufacturer = device.manufacturer
        model = device.model
        hardwareVersion = device.hardwareVersion
        firmwareVersion = device.firmwareVersion
        softwareVersion = device.softwareVersion
        localIdentifier = device.localIdentifier
        udiDeviceIdentifier = device.udiDeviceIdentifier
        super.init()
    }
}
