import Foundation
import HealthModel

/// Tells an `Observation`'s HealthKit clinical type from its FHIR resource.
///
/// The export's `ClinicalRecord` index entry names only the FHIR resource type. HealthKit files
/// an `Observation` under `HKClinicalTypeIdentifierVitalSignRecord` when the resource's category
/// is `vital-signs` and under `…LabResultRecord` otherwise; that category is inside the JSON in
/// `clinical-records/`, so the resolver reads it there. Exports hold a few hundred clinical
/// records at most, so a read per Observation costs nothing next to the document.
///
/// Shared by the parallel read's worker threads: `readResource` must be safe to call from any
/// thread (`ExportReader.attachment` is).
final class ClinicalTypeResolver: @unchecked Sendable {
    private let readResource: (String) throws -> Data?

    /// - Parameter readResource: the bytes of a side file named by `resourceFilePath`, `nil`
    ///   when the export does not hold it.
    init(readResource: @escaping (String) throws -> Data?) {
        self.readResource = readResource
    }

    /// The record's HealthKit clinical type read from its resource, or `nil` when the index
    /// entry's type stands (not an Observation) or the resource cannot be read.
    func clinicalType(of record: ClinicalRecord) -> ObjectType? {
        guard record.fhirResourceType == "Observation", let path = record.resourceFilePath else { return nil }
        guard let data = try? readResource(path), let resource = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        return ObjectType.clinical(fhirResourceType: "Observation", categoryCodes: Self.categoryCodes(of: resource))
    }

    /// The codes of a resource's `category`: one CodeableConcept in DSTU2, an array of them in R4.
    static func categoryCodes(of resource: [String: Any]) -> [String] {
        let concepts: [[String: Any]]
        if let one = resource["category"] as? [String: Any] {
            concepts = [one]
        } else {
            concepts = resource["category"] as? [[String: Any]] ?? []
        }
        return concepts.flatMap { concept in
            (concept["coding"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        }
    }
}
