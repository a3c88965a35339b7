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

    /// The type a `Record@type` names, decided by prefix (export-format.md §4.6).
    public init(recordType identifier: String) {
        let canonical = TypeCatalogue.canonicalIdentifier(identifier)
        self.identifier = canonical
        if canonical.hasPrefix("HKQuantityTypeIdentifier") {
            self.kind = .quantity
        } else if canonical.hasPrefix("HKCategoryTypeIdentifier") {
            self.kind = .category
        } else if canonical.hasPrefix("HKCorrelationTypeIdentifier") {
            self.kind = .correlation
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

    /// The clinical type of an export's `ClinicalRecord`, whose `type` is a FHIR resource type.
    ///
    /// The mapping is HealthKit's where it is one-to-one. An `Observation` is a lab result or a
    /// vital sign depending on its JSON, which the index entry does not carry: it maps to
    /// `LabResultRecord` until the resource is read. Resource types HealthKit has no clinical type
    /// for (`Patient`) map to `HKClinicalTypeIdentifier<Type>Record`, so they stay distinguishable.
    public static func clinical(fhirResourceType: String) -> ObjectType {
        let suffix: String
        switch fhirResourceType {
        case "AllergyIntolerance": suffix = "AllergyRecord"
        case "Condition": suffix = "ConditionRecord"
        case "Immunization": suffix = "ImmunizationRecord"
        case "Observation", "DiagnosticReport": suffix = "LabResultRecord"
        case "MedicationOrder", "MedicationStatement", "MedicationRequest", "MedicationDispense":
            suffix = "MedicationRecord"
        case "Procedure": suffix = "ProcedureRecord"
        case "DocumentReference": suffix = "ClinicalNoteRecord"
        case "Coverage": suffix = "CoverageRecord"
        default: suffix = fhirResourceType + "Record"
        }
        return ObjectType(identifier: "HKClinicalTypeIdentifier" + suffix, kind: .clinicalRecord)
    }
}
