import Foundation
import HealthJSON
import Testing
import HealthModel
import HealthTestSupport
@testable import HealthOutput

/// The Bulk Data folder and standard output: which resources go where, written once, referred
/// to correctly; the Patient; clinical records; deletions.
@Suite struct FHIRBulkWriterTests {
    static func lines(_ url: URL) throws -> [[String: Any]] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,2", softwareVersion: "10.2")

    static func heartRate(_ n: UInt64, source: String = "Watch", device: Device? = watch) -> HealthObject {
        let start = ExportTimestamp.parse("2024-03-01 08:00:00 +0100")!
        return .quantitySample(
            QuantitySample(
                sample: SampleAttributes(
                    uuid: ObjectUUID(high: 1, low: n), sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierHeartRate"),
                    sourceRevision: SourceRevision(source: Source(name: source), version: "10.2"), device: device,
                    startDate: start, endDate: start),
                quantity: Quantity(value: ExportNumber.parse("60")!, unit: "count/min")))
    }

    static func header(sex: String? = "HKBiologicalSexFemale", birth: String? = "1985-06-15") -> ExportHeader {
        var me = Characteristics()
        me.biologicalSex = sex
        me.dateOfBirth = birth
        me.bloodType = "HKBloodTypeONegative"
        return ExportHeader(locale: "en_US", exportDate: ExportTimestamp.parse("2024-03-02 09:00:00 +0100"), characteristics: me)
    }

    @Test func aFolderHoldsOneFilePerResourceTypeEachDeviceOnceAndAManifest() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("fhir")
        let writer = try FHIRBulkWriter(folder: folder.path)
        try writer.begin(Self.header())
        for n: UInt64 in 1...3 { try writer.write(Self.heartRate(n)) }
        try writer.write(Self.heartRate(4, source: "Health", device: nil))
        try writer.finish()

        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["Device.ndjson", "Observation.ndjson", "Patient.ndjson", "manifest.json"])
        let patients = try Self.lines(folder.appendingPathComponent("Patient.ndjson"))
        // Birth date and gender, nothing else about the person (no blood type).
        #expect(patients.count == 1)
        #expect(Set(patients[0].keys) == ["resourceType", "id", "gender", "birthDate"])
        #expect(patients[0]["gender"] as? String == "female")
        #expect(patients[0]["birthDate"] as? String == "1985-06-15")
        let patientID = try #require(patients[0]["id"] as? String)

        // The watch's source, its hardware, and the Health app's source (no hardware): three.
        let devices = try Self.lines(folder.appendingPathComponent("Device.ndjson"))
        #expect(devices.count == 3)
        let byID = Dictionary(uniqueKeysWithValues: devices.map { ($0["id"] as! String, $0) })
        let observations = try Self.lines(folder.appendingPathComponent("Observation.ndjson"))
        #expect(observations.count == 4)
        for observation in observations {
            #expect((observation["subject"] as? [String: String])?["reference"] == "Patient/" + patientID)
        }
        let watchSource = try #require((observations[0]["device"] as? [String: String])?["reference"]?.dropFirst("Device/".count))
        #expect(observations[1..<3].allSatisfy { ($0["device"] as? [String: String])?["reference"] == "Device/" + watchSource })
        let source = try #require(byID[String(watchSource)])
        #expect((source["deviceName"] as? [[String: String]])?.first?["name"] == "Watch")
        let parent = try #require((source["parent"] as? [String: String])?["reference"]?.dropFirst("Device/".count))
        let hardware = try #require(byID[String(parent)])
        #expect(hardware["manufacturer"] as? String == "Apple Inc.")
        #expect(hardware["modelNumber"] as? String == "Watch")
        let healthSource = try #require((observations[3]["device"] as? [String: String])?["reference"]?.dropFirst("Device/".count))
        #expect(byID[String(healthSource)]?["parent"] == nil)

        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("manifest.json"))) as? [String: Any])
        #expect(manifest["transactionTime"] as? String == "2024-03-02T09:00:00+01:00")
        let outputs = (manifest["output"] as? [[String: Any]] ?? []).map { "\($0["url"]!)=\($0["count"]!)" }
        #expect(Set(outputs) == ["Patient.ndjson=1", "Observation.ndjson=4", "Device.ndjson=3"])
        let coding = ((manifest["extension"] as? [String: Any])?["healthport"] as? [String: Any])?["coding"] as? [String: [String: Int]]
        #expect(coding == ["quantitySample": ["loinc": 4]])
    }

    @Test func withoutCharacteristicsThePatientShowsNothingAndEveryObservationStillRefersToIt() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("fhir")
        let writer = try FHIRBulkWriter(folder: folder.path)
        try writer.begin(Self.header(sex: "HKBiologicalSexNotSet", birth: nil))
        try writer.write(Self.heartRate(1))
        try writer.finish()
        let patients = try Self.lines(folder.appendingPathComponent("Patient.ndjson"))
        #expect(patients.count == 1)
        #expect(Set(try #require(patients.first).keys) == ["resourceType", "id"])
        // The id every Patient showing nothing has, worked by hand (Python's hashlib): SHA-256 of
        // "healthport FHIR Patient" and two absent fields (00 00), its first 16 bytes with the
        // version nibble 8 and the variant bits 10.
        #expect(patients.first?["id"] as? String == "D6568933-1984-8699-8A74-AD094ED81941")
        #expect(FHIRPatient.noCharacteristicsID == "D6568933-1984-8699-8A74-AD094ED81941")
        let observation = try #require(try Self.lines(folder.appendingPathComponent("Observation.ndjson")).first)
        #expect((observation["subject"] as? [String: String])?["reference"] == "Patient/D6568933-1984-8699-8A74-AD094ED81941")
    }

    @Test func thePatientsIdShowsNothingTheResourceDoesNot() throws {
        // The same sex with and without a birth date the policy hides: the id changes with what
        // is shown only, so it cannot be used to try birth dates.
        let shown = FHIRPatient(Self.header(birth: nil).characteristics)
        var hidden = Characteristics()
        hidden.biologicalSex = "HKBiologicalSexFemale"
        #expect(FHIRPatient(hidden).id == shown.id)
        #expect(FHIRPatient(Self.header().characteristics).id != shown.id)
        #expect(FHIRPatient.gender("2") == "male")
    }

    @Test func aDeidentifiedHeadersPersonIsThePatientsIdWhateverItShows() throws {
        var header = Self.header(birth: "1985")
        header.personID = "person-74da8f5ba603"
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("fhir")
        let writer = try FHIRBulkWriter(folder: folder.path)
        try writer.begin(header)
        try writer.write(Self.heartRate(1))
        try writer.finish()
        let patients = try Self.lines(folder.appendingPathComponent("Patient.ndjson"))
        #expect(patients.count == 1)
        #expect(patients.first?["id"] as? String == "person-74da8f5ba603")
        #expect(patients.first?["birthDate"] as? String == "1985")
        let observation = try #require(try Self.lines(folder.appendingPathComponent("Observation.ndjson")).first)
        #expect((observation["subject"] as? [String: String])?["reference"] == "Patient/person-74da8f5ba603")
        // The same pseudonym with another birth year: the same id. An id FHIR refuses is not taken.
        #expect(FHIRPatient(Self.header(birth: "1950").characteristics, personID: "person-74da8f5ba603").id == "person-74da8f5ba603")
        #expect(FHIRPatient(nil, personID: "person/1").id == FHIRPatient.noCharacteristicsID)
        #expect(FHIRPatient(nil, personID: String(repeating: "a", count: 65)).id == FHIRPatient.noCharacteristicsID)
    }

    @Test func standardOutputCarriesObservationsAlone() throws {
        let out = OutputBuffer(descriptor: -1, capacity: 1 << 16)
        let writer = FHIRBulkWriter(standardOutput: out)
        writer.clinicalResource = { _ in Data("{\"resourceType\":\"Condition\",\"id\":\"x\"}".utf8) }
        try writer.begin(Self.header())
        try writer.write(Self.heartRate(1))
        var record = ClinicalRecord(uuid: ObjectUUID(high: 9, low: 9), fhirResourceType: "Condition")
        record.fhirVersion = "4.0.1"
        record.resourceFilePath = "/clinical-records/Condition-1.json"
        try writer.write(.clinicalRecord(record))
        let text = String(decoding: out.takeBytes(), as: UTF8.self)
        #expect(text.split(separator: "\n").count == 1)
        #expect(text.hasPrefix("{\"resourceType\":\"Observation\""))
        // The Patient is not written here, but the Observation still says whose it is.
        #expect(text.contains("\"subject\":{\"reference\":\"Patient/\(FHIRPatient(Self.header()).id)\"}"))
        #expect(writer.tally.leftOut.values.reduce(0, +) == 2)  // the Patient and the Condition
    }

    static func clinical(_ version: String, type: String = "Observation", json: String) throws -> (FHIRBulkWriter, URL, ClinicalRecord) {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("fhir")
        let writer = try FHIRBulkWriter(folder: folder.path)
        writer.clinicalResource = { path in path == "clinical-records/r.json" ? Data(json.utf8) : nil }
        var record = ClinicalRecord(uuid: ObjectUUID(high: 0xABC, low: 0xDEF), fhirResourceType: type)
        record.fhirVersion = version
        record.sourceURL = "https://fhir.example.org/R4/\(type)/obs-1"
        record.resourceFilePath = "/clinical-records/r.json"
        record.receivedDate = ExportTimestamp.parse("2024-01-02 00:00:00 +0100")
        return (writer, folder, record)
    }

    @Test func anR4RecordIsPassedThroughWithItsUuidAsId() throws {
        let json = """
            {"resourceType": "Observation", "id": "obs-1", "status": "final",
             "code": {"text": "Hemoglobin"}, "valueQuantity": {"value": 13.50, "unit": "g/dL"}}
            """
        let (writer, folder, record) = try Self.clinical("4.0.1", json: json)
        try writer.begin(Self.header())
        try writer.write(.clinicalRecord(record))
        try writer.finish()
        let text = try String(contentsOf: folder.appendingPathComponent("Observation.ndjson"), encoding: .utf8)
        // Key order and the number's spelling (13.50) as received; the id replaced; the source
        // (which names the provider's id) in meta.source.
        #expect(
            text == """
                {"resourceType":"Observation","id":"00000000-0000-0ABC-0000-000000000DEF","meta":{"source":"https://fhir.example.org/R4/Observation/obs-1"},"status":"final","code":{"text":"Hemoglobin"},"valueQuantity":{"value":13.50,"unit":"g/dL"}}

                """)
        #expect(writer.tally.counts == ["clinicalRecord": [.clinical: 1]])
    }

    @Test func aDSTU2RecordIsCarriedWholeInADocumentReference() throws {
        let json = "{\n  \"resourceType\" : \"Condition\",\n  \"id\" : \"1\"\n}"
        let (writer, folder, record) = try Self.clinical("1.0.2", type: "Condition", json: json)
        try writer.begin(Self.header())
        try writer.write(.clinicalRecord(record))
        try writer.finish()
        let document = try #require(try Self.lines(folder.appendingPathComponent("DocumentReference.ndjson")).first)
        #expect(document["id"] as? String == "00000000-0000-0ABC-0000-000000000DEF")
        #expect(document["date"] as? String == "2024-01-02T00:00:00+01:00")
        let attachment = try #require(((document["content"] as? [[String: Any]])?.first?["attachment"]) as? [String: Any])
        #expect(attachment["contentType"] as? String == "application/fhir+json; fhirVersion=1.0")
        #expect(Data(base64Encoded: attachment["data"] as? String ?? "") == Data(json.utf8))
    }

    @Test func aMissingResourceIsLeftOutAndCounted() throws {
        let (writer, folder, record) = try Self.clinical("4.0.1", json: "not json")
        try writer.begin(Self.header())
        try writer.write(.clinicalRecord(record))
        var missing = record
        missing.resourceFilePath = "/clinical-records/absent.json"
        try writer.write(.clinicalRecord(missing))
        try writer.finish()
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Observation.ndjson").path))
        #expect(writer.tally.leftOut == [
            "clinical records whose FHIR resource is not a JSON object": 1, "clinical records whose FHIR resource file is missing": 1,
        ])
    }

    @Test func deletionsAreTransactionBundlesOfDeleteRequests() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("fhir")
        let writer = try FHIRBulkWriter(folder: folder.path)
        try writer.begin(ExportHeader())
        try writer.writeDeleted(ObjectUUID(high: 1, low: 2), type: "HKQuantityTypeIdentifierStepCount")
        try writer.writeDeleted(ObjectUUID(high: 3, low: 4), type: "HKClinicalTypeIdentifierLabResultRecord")
        try writer.finish()
        let urls = try Self.lines(folder.appendingPathComponent("deleted.ndjson")).map { bundle -> String in
            #expect(bundle["type"] as? String == "transaction")
            let request = ((bundle["entry"] as? [[String: Any]])?.first?["request"]) as? [String: String]
            #expect(request?["method"] == "DELETE")
            return request?["url"] ?? ""
        }
        // A lab result is an Observation or a DiagnosticReport (R4), or a DocumentReference (DSTU2).
        #expect(urls == [
            "Observation/00000000-0000-0001-0000-000000000002",
            "DiagnosticReport/00000000-0000-0003-0000-000000000004", "Observation/00000000-0000-0003-0000-000000000004",
            "DocumentReference/00000000-0000-0003-0000-000000000004",
        ])
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("manifest.json"))) as? [String: Any])
        #expect((manifest["deleted"] as? [[String: Any]])?.first?["count"] as? Int == 4)
    }

    @Test func anAbandonedOutputLeavesTheFolderAsItWas() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("fhir")
        let writer = try FHIRBulkWriter(folder: folder.path)
        try writer.begin(Self.header())
        try writer.write(Self.heartRate(1))
        writer.abandon()
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
