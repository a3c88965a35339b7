/// An index entry for a Health Records resource (HealthKit: `HKClinicalRecord`).
///
/// The FHIR JSON itself is in `clinical-records/`, named by `resourceFilePath`. `identifier` is
/// the provider's id and is unique only per source.
public struct ClinicalRecord: Hashable, Sendable {
    public var uuid: ObjectUUID
    public var clinicalType: ObjectType
    /// The FHIR resource type as exported (`Observation`, `DiagnosticReport`, …).
    public var fhirResourceType: String
    public var identifier: String?
    public var sourceName: String?
    public var sourceURL: String?
    /// `1.0.2` (DSTU2) or `4.0.1` (R4).
    public var fhirVersion: String?
    /// When the phone downloaded the record; the clinical date is inside the JSON.
    public var receivedDate: ExportTimestamp?
    public var resourceFilePath: String?
    public var extensions: Extensions

    public init(uuid: ObjectUUID = ObjectUUID(high: 0, low: 0), fhirResourceType: String) {
        self.uuid = uuid
        self.fhirResourceType = fhirResourceType
        self.clinicalType = ObjectType.clinical(fhirResourceType: fhirResourceType)
        self.extensions = .none
    }
}
