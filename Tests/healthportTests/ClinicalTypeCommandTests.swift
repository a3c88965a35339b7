import Foundation
import Testing
import HealthTestSupport

/// Clinical records get HealthKit's clinical types: an Observation is a vital sign or a lab
/// result by the category inside its FHIR resource, and a Patient resource (which HealthKit
/// gives no app) has no HealthKit type at all.
@Suite struct ClinicalTypeCommandTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2026-01-05 10:00:00 +0100"/>
         <ClinicalRecord type="Patient" identifier="1" sourceName="Clinic" fhirVersion="1.0.2" receivedDate="2025-12-19 15:50:00 +0100" resourceFilePath="/clinical-records/Patient-A.json"/>
         <ClinicalRecord type="Observation" identifier="2" sourceName="Clinic" fhirVersion="1.0.2" receivedDate="2025-12-19 15:50:00 +0100" resourceFilePath="/clinical-records/Observation-V.json"/>
         <ClinicalRecord type="Observation" identifier="3" sourceName="Clinic" fhirVersion="4.0.1" receivedDate="2025-12-19 15:50:00 +0100" resourceFilePath="/clinical-records/Observation-L.json"/>
         <ClinicalRecord type="Observation" identifier="4" sourceName="Clinic" fhirVersion="4.0.1" receivedDate="2025-12-19 15:50:00 +0100" resourceFilePath="/clinical-records/Observation-R4V.json"/>
         <ClinicalRecord type="DiagnosticReport" identifier="5" sourceName="Clinic" fhirVersion="1.0.2" receivedDate="2025-12-19 15:50:00 +0100" resourceFilePath="/clinical-records/DiagnosticReport-D.json"/>
        </HealthData>

        """
    static let resources: [String: String] = [
        "Patient-A.json": #"{"resourceType":"Patient","id":"1","name":[{"family":"Doe"}]}"#,
        // DSTU2: one CodeableConcept.
        "Observation-V.json": #"{"resourceType":"Observation","id":"2","category":{"coding":[{"system":"http://hl7.org/fhir/observation-category","code":"vital-signs"}]}}"#,
        "Observation-L.json": #"{"resourceType":"Observation","id":"3","category":[{"coding":[{"code":"laboratory"}]}]}"#,
        // R4: an array of them.
        "Observation-R4V.json": #"{"resourceType":"Observation","id":"4","category":[{"text":"x"},{"coding":[{"code":"vital-signs"}]}]}"#,
        "DiagnosticReport-D.json": #"{"resourceType":"DiagnosticReport","id":"5"}"#,
    ]

    static func makeExport() throws -> URL {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("apple_health_export")
        let records = folder.appendingPathComponent("clinical-records")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        try Data(document.utf8).write(to: folder.appendingPathComponent("export.xml"))
        for (name, json) in resources { try Data(json.utf8).write(to: records.appendingPathComponent(name)) }
        return folder
    }

    static func types(_ result: CommandRunner.Result) throws -> [String: String] {
        var types: [String: String] = [:]
        for object in try ndjsonObjects(result.stdout) where object["kind"] as? String == "clinicalRecord" {
            let resource = object["fhirResource"] as! [String: Any]
            types[resource["identifier"] as! String] = object["clinicalType"] as? String ?? "none"
        }
        return types
    }

    @Test func everyRecordHasHealthKitsTypeOrNone() throws {
        let export = try Self.makeExport()
        let expected = [
            "1": "none", "2": "HKClinicalTypeIdentifierVitalSignRecord", "3": "HKClinicalTypeIdentifierLabResultRecord",
            "4": "HKClinicalTypeIdentifierVitalSignRecord", "5": "HKClinicalTypeIdentifierLabResultRecord",
        ]
        for jobs in ["1", "2"] {
            let result = try healthport("convert", export.path, "--format", "ndjson", "--jobs", jobs, "-q")
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(try Self.types(result) == expected, "--jobs \(jobs)")
        }
        // A type filter sees the resolved types.
        let vital = try healthport("query", export.path, "--type", "VitalSignRecord", "-q")
        #expect(vital.status == 0, "\(vital.stderrText)")
        #expect(try Self.types(vital) == ["2": "HKClinicalTypeIdentifierVitalSignRecord", "4": "HKClinicalTypeIdentifierVitalSignRecord"])
        // The CSV table leaves the clinical type empty for the patient.
        let csv = try healthport("convert", export.path, "--format", "csv", "--type", "LabResultRecord", "-q")
        #expect(csv.status == 0, "\(csv.stderrText)")
        let rows = parseCSV(csv.stdoutText)
        #expect(rows.count == 3)
        // Read back, the NDJSON gives the same types.
        let ndjson = try Fixtures.temporaryDirectory().appendingPathComponent("records.ndjson")
        try healthport("convert", export.path, "--format", "ndjson", "-q").stdout.write(to: ndjson)
        #expect(try Self.types(try healthport("convert", ndjson.path, "--format", "ndjson", "-q")) == expected)
    }

    @Test func withoutTheResourcesObservationsAreLabResultsAndThatIsSaid() throws {
        let export = try Self.makeExport()
        let xml = try Data(contentsOf: export.appendingPathComponent("export.xml"))
        let result = try healthport("convert", "-", "--format", "ndjson", stdin: xml)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(try Self.types(result)["2"] == "HKClinicalTypeIdentifierLabResultRecord")
        #expect(result.stderrText.contains("FHIR resources"))
    }

    @Test func noPolicyGrantsThePatientResource() throws {
        let export = try Self.makeExport()
        let policy = try Fixtures.temporaryDirectory().appendingPathComponent("policy.json")
        let read = ["AllergyRecord", "ClinicalNoteRecord", "ConditionRecord", "ImmunizationRecord", "LabResultRecord", "MedicationRecord",
            "ProcedureRecord", "VitalSignRecord", "CoverageRecord"].map { "\"HKClinicalTypeIdentifier\($0)\": \"granted\"" }.joined(separator: ",")
        try Data(#"{"version": 1, "consumer": {"name": "Records"}, "read": {\#(read)}}"#.utf8).write(to: policy)
        let result = try healthport("clinical", export.path, "--policy", policy.path, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(try Set(Self.types(result).keys) == ["2", "3", "4", "5"])
        #expect(!result.stdoutText.contains("Doe"))
        // A policy naming the old made-up type is refused, not silently obeyed.
        try Data(#"{"version": 1, "consumer": {"name": "x"}, "read": {"Patient": "granted"}}"#.utf8).write(to: policy)
        #expect(try healthport("clinical", export.path, "--policy", policy.path, "-q").status != 0)
        // Without a policy, the person's own patient resource is written by `clinical`.
        let own = try healthport("clinical", export.path, "-q")
        #expect(try Self.types(own)["1"] == "none")
        #expect(own.stdoutText.contains("Doe"))
    }
}
