import HealthModel

/// The HealthKit key paths a predicate can name (docs/reference/healthkit.md §4.3), with healthport's
/// documented extensions. Both the runtime string (`startDate`) and, where HealthKit has one,
/// the constant's name (`HKPredicateKeyPathStartDate`) are accepted.
public enum PredicateKeyPath: Sendable, Hashable {
    case uuid, sampleType, startDate, endDate, creationDate
    case quantity, count, categoryValue
    case sourceName, sourceBundleIdentifier, sourceVersion, sourceProductType
    case device(String)
    case metadata(String)
    case workoutActivityType, workoutDuration, totalDistance, totalEnergyBurned
    case workoutEventTypes, workoutEventCount, workoutActivityUUIDs, workoutActivityCount, statisticsTypes
    case dateComponents
    case activeEnergyBurned, activeEnergyBurnedGoal, appleMoveTime, appleMoveTimeGoal, appleExerciseTime
    case appleExerciseTimeGoal, appleStandHours, appleStandHoursGoal
    case fhirResourceType, fhirIdentifier, fhirVersion, clinicalType, fhirSourceURL
    case prescriptionType, dateIssued, expirationDate, brand
    case elementName

    static let deviceFields = [
        "name", "manufacturer", "model", "hardwareVersion", "firmwareVersion", "softwareVersion", "localIdentifier",
        "udiDeviceIdentifier",
    ]

    /// Resolves the dotted text of a key path; `nil` if it names nothing healthport knows.
    public static func resolve(_ text: String) -> PredicateKeyPath? {
        if text.hasPrefix("metadata.") { return .metadata(String(text.dropFirst("metadata.".count))) }
        for prefix in ["device.", "HKPredicateKeyPathDevice."] where text.hasPrefix(prefix) {
            let field = String(text.dropFirst(prefix.count))
            let aliases = ["hardware": "hardwareVersion", "software": "softwareVersion", "firmware": "firmwareVersion"]
            let name = aliases[field] ?? field
            return deviceFields.contains(name) ? .device(name) : nil
        }
        switch text {
        case "UUID", "uuid", "HKPredicateKeyPathUUID": return .uuid
        case "sampleType", "type": return .sampleType
        case "startDate", "HKPredicateKeyPathStartDate": return .startDate
        case "endDate", "HKPredicateKeyPathEndDate": return .endDate
        case "creationDate": return .creationDate
        case "quantity", "HKPredicateKeyPathQuantity", "HKPredicateKeyPathSum", "HKPredicateKeyPathAverage": return .quantity
        case "count", "HKPredicateKeyPathCount": return .count
        case "value", "HKPredicateKeyPathCategoryValue": return .categoryValue
        case "source", "source.name", "sourceRevision.source.name", "sourceName", "HKPredicateKeyPathSource": return .sourceName
        case "source.bundleIdentifier", "sourceRevision.source.bundleIdentifier": return .sourceBundleIdentifier
        case "sourceRevision.version", "sourceVersion": return .sourceVersion
        case "sourceRevision.productType": return .sourceProductType
        case "workoutActivityType", "workoutType", "HKPredicateKeyPathWorkoutType": return .workoutActivityType
        case "duration", "HKPredicateKeyPathWorkoutDuration": return .workoutDuration
        case "totalDistance", "HKPredicateKeyPathWorkoutTotalDistance": return .totalDistance
        case "totalEnergyBurned", "HKPredicateKeyPathWorkoutTotalEnergyBurned": return .totalEnergyBurned
        case "workoutEvents.type": return .workoutEventTypes
        case "workoutEvents.@count": return .workoutEventCount
        case "workoutActivities.uuid": return .workoutActivityUUIDs
        case "workoutActivities.@count": return .workoutActivityCount
        case "statistics.quantityType": return .statisticsTypes
        case "dateComponents", "HKPredicateKeyPathDateComponents": return .dateComponents
        case "activeEnergyBurned": return .activeEnergyBurned
        case "activeEnergyBurnedGoal": return .activeEnergyBurnedGoal
        case "appleMoveTime": return .appleMoveTime
        case "appleMoveTimeGoal": return .appleMoveTimeGoal
        case "appleExerciseTime": return .appleExerciseTime
        case "appleExerciseTimeGoal": return .appleExerciseTimeGoal
        case "appleStandHours": return .appleStandHours
        case "appleStandHoursGoal": return .appleStandHoursGoal
        case "FHIRResource.resourceType", "fhirResource.resourceType", "HKPredicateKeyPathClinicalRecordFHIRResourceType":
            return .fhirResourceType
        case "FHIRResource.identifier", "fhirResource.identifier", "HKPredicateKeyPathClinicalRecordFHIRResourceIdentifier":
            return .fhirIdentifier
        case "fhirResource.fhirVersion", "FHIRResource.fhirVersion": return .fhirVersion
        case "fhirResource.sourceURL", "FHIRResource.sourceURL": return .fhirSourceURL
        case "clinicalType": return .clinicalType
        case "prescriptionType": return .prescriptionType
        case "dateIssued": return .dateIssued
        case "expirationDate": return .expirationDate
        case "brand": return .brand
        case "element.name": return .elementName
        default: return nil
        }
    }

    /// What kind of value the key path yields, which decides how literals compared with it are
    /// read (`"5 km"` as a quantity, `"2024-01-01"` as a date, a category value's name as its raw
    /// value).
    enum ValueKind { case string, date, quantity, number, enumeration, metadata, collection, durationQuantity }

    var valueKind: ValueKind {
        switch self {
        case .uuid, .sampleType, .sourceName, .sourceBundleIdentifier, .sourceVersion, .sourceProductType, .device,
            .fhirResourceType, .fhirIdentifier, .fhirVersion, .clinicalType, .fhirSourceURL, .prescriptionType, .brand,
            .elementName:
            return .string
        case .startDate, .endDate, .creationDate, .dateIssued, .expirationDate, .dateComponents: return .date
        case .quantity, .totalDistance, .totalEnergyBurned, .activeEnergyBurned, .activeEnergyBurnedGoal, .appleMoveTime,
            .appleMoveTimeGoal, .appleExerciseTime, .appleExerciseTimeGoal, .appleStandHours, .appleStandHoursGoal:
            return .quantity
        case .workoutDuration: return .durationQuantity
        case .count, .workoutEventCount, .workoutActivityCount: return .number
        case .categoryValue, .workoutActivityType: return .enumeration
        case .metadata: return .metadata
        case .workoutEventTypes, .workoutActivityUUIDs, .statisticsTypes: return .collection
        }
    }

    /// Whether objects of a kind can have this key path at all.
    public func applies(to kind: ObjectType.Kind) -> Bool {
        let samples: Set<ObjectType.Kind> = [.quantity, .category, .correlation, .workout, .audiogram, .other]
        switch self {
        case .uuid, .sampleType: return true
        case .startDate, .endDate: return samples.contains(kind) || kind == .clinicalRecord || kind == .visionPrescription
        case .creationDate, .sourceBundleIdentifier, .sourceVersion, .sourceProductType, .device, .metadata:
            return samples.contains(kind) || (kind == .visionPrescription && self.isMetadata)
        case .sourceName: return samples.contains(kind) || kind == .clinicalRecord
        case .quantity, .count: return kind == .quantity || kind == .other
        case .categoryValue: return kind == .category || kind == .other
        case .workoutActivityType, .workoutDuration, .totalDistance, .totalEnergyBurned, .workoutEventTypes,
            .workoutEventCount, .workoutActivityUUIDs, .workoutActivityCount, .statisticsTypes:
            return kind == .workout
        case .dateComponents, .activeEnergyBurned, .activeEnergyBurnedGoal, .appleMoveTime, .appleMoveTimeGoal,
            .appleExerciseTime, .appleExerciseTimeGoal, .appleStandHours, .appleStandHoursGoal:
            return kind == .activitySummary
        case .fhirResourceType, .fhirIdentifier, .fhirVersion, .clinicalType, .fhirSourceURL: return kind == .clinicalRecord
        case .prescriptionType, .dateIssued, .expirationDate, .brand: return kind == .visionPrescription
        case .elementName: return kind == .other
        }
    }

    private var isMetadata: Bool {
        if case .metadata = self { return true }
        return false
    }

    /// What the key path yields for one object; `.null` where it does not apply.
    func value(of object: HealthObject) -> PredicateValue {
        switch self {
        case .uuid: return .string(object.uuid.uuidString)
        case .sampleType: return .string(object.objectType.identifier)
        case .startDate: return object.startDate.map { .date(Double($0.secondsSince1970)) } ?? .null
        case .endDate: return object.endDate.map { .date(Double($0.secondsSince1970)) } ?? .null
        case .creationDate: return object.sampleAttributes?.creationDate.map { .date(Double($0.secondsSince1970)) } ?? .null
        case .sourceName:
            if let sample = object.sampleAttributes { return .string(sample.sourceRevision.source.name) }
            if case .clinicalRecord(let c) = object { return c.sourceName.map { .string($0) } ?? .null }
            return .null
        case .sourceBundleIdentifier: return object.sampleAttributes?.sourceRevision.source.bundleIdentifier.map { .string($0) } ?? .null
        case .sourceVersion: return object.sampleAttributes?.sourceRevision.version.map { .string($0) } ?? .null
        case .sourceProductType: return object.sampleAttributes?.sourceRevision.productType.map { .string($0) } ?? .null
        case .device(let field): return object.sampleAttributes?.device?[descriptionKey: Self.descriptionKey(field)].map { .string($0) } ?? .null
        case .metadata(let key):
            let metadata: Metadata?
            if case .visionPrescription(let v) = object { metadata = v.metadata } else { metadata = object.sampleAttributes?.metadata }
            return metadata?[key].map { .metadata($0) } ?? .null
        case .quantity:
            guard case .quantitySample(let q) = object else { return .null }
            return Self.quantity(q.quantity)
        case .count:
            guard case .quantitySample(let q) = object else { return .null }
            return .number(Double(q.count))
        case .categoryValue:
            guard case .categorySample(let c) = object else { return .null }
            return .enumerated(raw: c.value.rawValue, name: c.value.name)
        case .workoutActivityType:
            guard case .workout(let w) = object else { return .null }
            return .enumerated(raw: w.workoutActivityType.rawValue, name: w.workoutActivityType.name)
        case .workoutDuration:
            guard case .workout(let w) = object, let d = w.duration else { return .null }
            return Self.quantity(d)
        case .totalDistance:
            guard case .workout(let w) = object, let total = w.effectiveTotalDistance else { return .null }
            return Self.quantity(total)
        case .totalEnergyBurned:
            guard case .workout(let w) = object, let total = w.effectiveTotalEnergyBurned else { return .null }
            return Self.quantity(total)
        case .workoutEventTypes:
            guard case .workout(let w) = object else { return .null }
            return .collection(w.workoutEvents.map { .enumerated(raw: $0.type.rawValue, name: $0.type.name) })
        case .workoutEventCount:
            guard case .workout(let w) = object else { return .null }
            return .number(Double(w.workoutEvents.count))
        case .workoutActivityUUIDs:
            guard case .workout(let w) = object else { return .null }
            return .collection(w.workoutActivities.map { .string($0.uuid) })
        case .workoutActivityCount:
            guard case .workout(let w) = object else { return .null }
            return .number(Double(w.workoutActivities.count))
        case .statisticsTypes:
            guard case .workout(let w) = object else { return .null }
            return .collection(w.statistics.map { .string($0.quantityType.identifier) })
        case .dateComponents:
            guard case .activitySummary(let a) = object, let day = a.dateComponents else { return .null }
            return .date(Double(CalendarDate.daysFromCivil(year: day.year, month: day.month, day: day.day)) * 86_400)
        case .activeEnergyBurned, .activeEnergyBurnedGoal, .appleMoveTime, .appleMoveTimeGoal, .appleExerciseTime,
            .appleExerciseTimeGoal, .appleStandHours, .appleStandHoursGoal:
            guard case .activitySummary(let a) = object else { return .null }
            let (number, unit): (ExportNumber?, String) = {
                switch self {
                case .activeEnergyBurned: return (a.activeEnergyBurned, a.activeEnergyBurnedUnit ?? "kcal")
                case .activeEnergyBurnedGoal: return (a.activeEnergyBurnedGoal, a.activeEnergyBurnedUnit ?? "kcal")
                case .appleMoveTime: return (a.appleMoveTime, "min")
                case .appleMoveTimeGoal: return (a.appleMoveTimeGoal, "min")
                case .appleExerciseTime: return (a.appleExerciseTime, "min")
                case .appleExerciseTimeGoal: return (a.appleExerciseTimeGoal, "min")
                case .appleStandHours: return (a.appleStandHours, "count")
                default: return (a.appleStandHoursGoal, "count")
                }
            }()
            return number.map { Self.quantity(Quantity(value: $0, unit: unit)) } ?? .null
        case .fhirResourceType, .fhirIdentifier, .fhirVersion, .clinicalType, .fhirSourceURL:
            guard case .clinicalRecord(let c) = object else { return .null }
            switch self {
            case .fhirResourceType: return .string(c.fhirResourceType)
            case .fhirIdentifier: return c.identifier.map { .string($0) } ?? .null
            case .fhirVersion: return c.fhirVersion.map { .string($0) } ?? .null
            case .fhirSourceURL: return c.sourceURL.map { .string($0) } ?? .null
            default: return .string(c.clinicalType.identifier)
            }
        case .prescriptionType, .dateIssued, .expirationDate, .brand:
            guard case .visionPrescription(let v) = object else { return .null }
            switch self {
            case .prescriptionType: return v.prescriptionType.map { .string($0) } ?? .null
            case .dateIssued: return v.dateIssued.map { .date(Double($0.secondsSince1970)) } ?? .null
            case .expirationDate: return v.expirationDate.map { .date(Double($0.secondsSince1970)) } ?? .null
            default: return v.brand.map { .string($0) } ?? .null
            }
        case .elementName:
            guard case .unknown(let u) = object else { return .null }
            return .string(u.element.name)
        }
    }

    static func descriptionKey(_ field: String) -> String {
        switch field {
        case "hardwareVersion": return "hardware"
        case "firmwareVersion": return "firmware"
        case "softwareVersion": return "software"
        case "udiDeviceIdentifier": return "UDIDeviceIdentifier"
        default: return field
        }
    }

    static func quantity(_ q: Quantity) -> PredicateValue {
        guard let unit = try? HealthUnit.cached(q.unit) else { return .null }
        return .quantity(q.value.value, unit)
    }
}
