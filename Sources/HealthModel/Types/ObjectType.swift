/// A HealthKit type, named by its identifier string exactly as the export writes it.
///
/// Identifiers stay verbatim (`HKQuantityTypeIdentifierStepCount`): stripping prefixes is a
/// presentation choice (`shortName`). A type healthport does not know still parses, round-trips
/// and filters by its string; it just has no catalogue entry.
public struct ObjectType: Hashable, Sendable, CustomStringConvertible {
    /// What HealthKit class an object of this type is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case quantity, category, correlation, workout, workoutRoute, activitySummary
        case clinicalRecord, audiogram, visionPrescription, characteristic
        /// A `Record` whose identifier has none of HealthKit's sample prefixes
        /// (`HKDataTypeSleepDurationGoal`, hand-edited `type="c"`).
        case other
    }

    public let identifier: String
    public let kind: Kind

    public init(identifier: String, kind: Kind) {
        self.identifier = identifier
        self.kind = kind
    }

    /// The type a `Record@type` names, decided by prefix (docs/reference/export-format.md §4.6).
    /// Health Connect's own types (`HealthConnect…`, which healthport writes into Apple's format
    /// for a Health Connect export) have no HealthKit prefix: their kind is the catalogue's, so
    /// that a category sample of one (an activity intensity, a plan) reads back as the category
    /// sample it was written as, not as a record passed through unmodelled.
    public init(recordType identifier: String) {
        let canonical = TypeCatalogue.canonicalIdentifier(identifier)
        self.identifier = canonical
        if canonical.hasPrefix("HKQuantityTypeIdentifier") {
            self.kind = .quantity
        } else if canonical.hasPrefix("HKCategoryTypeIdentifier") {
            self.kind = .category
        } else if canonical.hasPrefix("HKCorrelationTypeIdentifier") {
            self.kind = .correlation
        } else if canonical.hasPrefix("HealthConnect"), let entry = TypeCatalogue.entry(for: canonical) {
            self.kind = entry.kind
        } else {
            self.kind = .other
        }
    }

    public var description: String { identifier }

    /// The identifier without HealthKit's prefix (`StepCount`), for file names and display.
    public var shortName: String { TypeCatalogue.shortName(of: identifier) }

    /// Whether the catalogue knows this identifier.
    public var isKnown: Bool { TypeCatalogue.entry(for: identifier) != nil }

    public static let workout = ObjectType(identifier: "HKWorkoutTypeIdentifier", kind: .workout)
    public static let workoutRoute = ObjectType(identifier: "HKWorkoutRouteTypeIdentifier", kind: .workoutRoute)
    public static let activitySummary = ObjectType(
        identifier: "HKActivitySummaryTypeIdentifier", kind: .activitySummary)
    public static let visionPrescription = ObjectType(
        identifier: "HKVisionPrescriptionTypeIdentifier", kind: .visionPrescription)
    public static let audiogram = ObjectType(identifier: "HKDataTypeIdentifierAudiogram", kind: .audiogram)

    /// The clinical type of an export's `ClinicalRecord`, whose `type` is a FHIR resource type,
    /// as HealthKit files it (docs/reference/healthkit.md §1.11).
    ///
    /// An `Observation` is a vital sign when its category (inside the resource's JSON, which the
    /// index entry does not carry) is `vital-signs`, else a lab result; without the categories it
    /// is a lab result. A resource type HealthKit has no clinical type for (`Patient`: HealthKit
    /// gives no app the patient resource) keeps its FHIR name as its type, so it is never taken
    /// for a HealthKit type: no policy can grant it, and ``isHealthKitClinicalType`` is false.
    public static func clinical(fhirResourceType: String, categoryCodes: [String] = []) -> ObjectType {
        let suffix: String
        switch fhirResourceType {
        case "AllergyIntolerance": suffix = "AllergyRecord"
        case "Condition": suffix = "ConditionRecord"
        case "Immunization": suffix = "ImmunizationRecord"
        case "Observation": suffix = categoryCodes.contains("vital-signs") ? "VitalSignRecord" : "LabResultRecord"
        case "DiagnosticReport": suffix = "LabResultRecord"
        case "MedicationOrder", "MedicationStatement", "MedicationRequest", "MedicationDispense":
            suffix = "MedicationRecord"
        case "Procedure": suffix = "ProcedureRecord"
        case "DocumentReference": suffix = "ClinicalNoteRecord"
        case "Coverage": suffix = "CoverageRecord"
        default: return ObjectType(identifier: fhirResourceType, kind: .clinicalRecord)
        }
        return ObjectType(identifier: "HKClinicalTypeIdentifier" + suffix, kind: .clinicalRecord)
    }

    /// The clinical types an export's records of this FHIR resource type can have: both of an
    /// `Observation`'s, one for the others. A type filter keeps the record when it wants any.
    public static func clinicalCandidates(fhirResourceType: String) -> [ObjectType] {
        if fhirResourceType == "Observation" {
            return [clinical(fhirResourceType: "Observation"), clinical(fhirResourceType: "Observation", categoryCodes: ["vital-signs"])]
        }
        return [clinical(fhirResourceType: fhirResourceType)]
    }

    /// Whether this is one of HealthKit's clinical types (`HKClinicalTypeIdentifier…`).
    public var isHealthKitClinicalType: Bool {
        kind == .clinicalRecord && identifier.hasPrefix("HKClinicalTypeIdentifier")
    }
}
