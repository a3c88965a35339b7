import Foundation
import Testing
import HealthTestSupport

/// `--format fhir` through the binary, against the NDJSON of the same export: the same objects
/// (count and uuids), the same times, the same values (converted to the table's unit with
/// factors written here by hand), and the policy gate leaving no trace.
@Suite struct FHIRCommandTests {
    /// A folder's NDJSON files, parsed, by file name.
    static func folder(_ url: URL) throws -> [String: [[String: Any]]] {
        var files: [String: [[String: Any]]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".ndjson") {
            files[name] = try ndjsonObjects(Data(contentsOf: url.appendingPathComponent(name)))
        }
        return files
    }

    /// HealthKitOnFHIR's own table, in ../shared (never in the repository).
    static var sharedTable: URL { Fixtures.shared.appendingPathComponent("data/healthkitonfhir/HKSampleMapping.json") }
    static var hasSharedTable: Bool { FileManager.default.fileExists(atPath: sharedTable.path) }

    /// HealthKitOnFHIR's unit per quantity type, read from its own table.
    static func tableUnits() throws -> [String: String] {
        let data = try Data(contentsOf: sharedTable)
        let table = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let quantities = try #require(table["HKQuantitySamples"] as? [String: [String: Any]])
        return quantities.compactMapValues { ($0["unit"] as? [String: String])?["hkunit"] }
    }

    /// Conversions of the units the exports here print to the table's, by hand: value × factor
    /// (+ offset).
    static let conversions: [String: (Double, Double)] = [
        "kg>lb": (1 / 0.45359237, 0), "g>lb": (0.001 / 0.45359237, 0), "km>m": (1000, 0), "mi>m": (1609.344, 0),
        "cm>in": (1 / 2.54, 0), "m>in": (100 / 2.54, 0), "ft>in": (12, 0), "degF>degC": (5.0 / 9.0, -32 * 5.0 / 9.0),
        "mL>l": (0.001, 0), "L>l": (1, 0), "mg>g": (0.001, 0), "g>mg": (1000, 0), "Cal>kcal": (1, 0), "kJ>kcal": (1 / 4.184, 0),
        "mL/min·kg>mL/kg*min": (1, 0), "s>min": (1 / 60.0, 0), "hr>min": (60, 0), "km/hr>m/s": (1 / 3.6, 0), "m/s>km/hr": (3.6, 0),
        "count/s>count/min": (60, 0),
    ]

    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    @Test(.enabled(if: hasSharedTable, "needs HealthKitOnFHIR's table in ../shared/data/healthkitonfhir"))
    func theSampleBecomesOneResourcePerObjectWithNDJSONsUuidsTimesAndValues() throws {
        let ndjson = try healthport("convert", sampleZip, "--format", "ndjson", "-q")
        #expect(ndjson.status == 0)
        let objects = try ndjsonObjects(ndjson.stdout).filter { $0["kind"] as? String != "export" }
        let ecg = try ndjsonObjects(try healthport("ecg", sampleZip, "-q").stdout)
        let out = try Fixtures.temporaryDirectory().appendingPathComponent("fhir")
        let run = try healthport("convert", sampleZip, "--format", "fhir", "--output", out.path)
        #expect(run.status == 0, "\(run.stderrText)")
        let files = try Self.folder(out)
        #expect(Set(files.keys) == ["Observation.ndjson", "Device.ndjson", "Patient.ndjson", "DocumentReference.ndjson"])

        // One resource per object, with its uuid as the id: the NDJSON's objects and the ECGs.
        let observations = files["Observation.ndjson"] ?? []
        let resources = observations + (files["DocumentReference.ndjson"] ?? [])
        let expected = objects.map { $0["uuid"] as! String } + ecg.map { $0["uuid"] as! String }
        #expect(resources.count == expected.count)
        #expect(Set(resources.map { $0["id"] as! String }) == Set(expected))
        #expect((files["DocumentReference.ndjson"] ?? []).count == objects.filter { $0["kind"] as? String == "clinicalRecord" }.count)

        let byID = Dictionary(uniqueKeysWithValues: observations.map { ($0["id"] as! String, $0) })
        let units = try Self.tableUnits()
        var checked = (quantities: 0, converted: 0, times: 0)
        for object in objects {
            let uuid = object["uuid"] as! String
            guard let observation = byID[uuid] else { continue }
            #expect(observation["status"] as? String == "final")
            // Times as the export wrote them, offset included.
            if let start = object["startDate"] as? String, let end = object["endDate"] as? String {
                if start == end {
                    #expect(observation["effectiveDateTime"] as? String == start, "\(uuid)")
                } else {
                    #expect(observation["effectivePeriod"] as? [String: String] == ["start": start, "end": end], "\(uuid)")
                }
                checked.times += 1
            }
            guard object["kind"] as? String == "quantitySample", let quantity = object["quantity"] as? [String: Any] else { continue }
            let value = try #require(Self.number(quantity["value"]))
            let unit = quantity["unit"] as? String ?? ""
            let written = try #require(observation["valueQuantity"] as? [String: Any], "\(uuid)")
            let writtenValue = try #require(Self.number(written["value"]))
            checked.quantities += 1
            guard let target = units[object["sampleType"] as! String], target != unit else {
                // A percentage: HealthKit's fraction, written in UCUM's hundredths (0.95 is 95 %).
                let expected = unit == "%" ? value * 100 : value
                #expect(abs(writtenValue - expected) <= 1e-9 * max(1, abs(expected)), "\(uuid): \(writtenValue) against \(value) \(unit)")
                continue
            }
            let factor = try #require(Self.conversions[unit + ">" + target], "no conversion written here for \(unit) to \(target)")
            let converted = value * factor.0 + factor.1
            #expect(abs(writtenValue - converted) <= abs(converted) * 1e-12, "\(uuid): \(writtenValue) against \(converted)")
            checked.converted += 1
        }
        // The sample's every quantity sample and dated object was compared.
        #expect(checked.quantities == objects.filter { $0["kind"] as? String == "quantitySample" }.count)
        #expect(checked.converted > 0)
        #expect(checked.times > 5000)

        // Standard output is the folder's Observations, byte for byte.
        let stdout = try healthport("convert", sampleZip, "--format", "fhir", "-q")
        #expect(stdout.status == 0)
        #expect(stdout.stdout == (try Data(contentsOf: out.appendingPathComponent("Observation.ndjson"))))
        // The run says how each kind was coded.
        #expect(run.stderrText.contains("healthport: fhir: correlation: 10 LOINC\n"))
        #expect(run.stderrText.contains("healthport: fhir: clinicalRecord: 3 clinical resource\n"))
    }

    @Test func aTypeThePolicyDeniesLeavesNoResourceNoDeviceAndNoCount() throws {
        let directory = try Fixtures.temporaryDirectory()
        let policy = directory.appendingPathComponent("policy.json")
        try Data(
            """
            {"version": 1, "consumer": {"name": "Heart Study"},
             "read": {"HKQuantityTypeIdentifierHeartRate": "granted", "HKCharacteristicTypeIdentifierBiologicalSex": "granted"}}
            """.utf8
        ).write(to: policy)
        let out = directory.appendingPathComponent("fhir")
        let run = try healthport("convert", sampleZip, "--format", "fhir", "--output", out.path, "--policy", policy.path)
        #expect(run.status == 0, "\(run.stderrText)")
        let ndjson = try ndjsonObjects(try healthport("convert", sampleZip, "--policy", policy.path, "-q").stdout).filter { $0["kind"] as? String != "export" }
        let files = try Self.folder(out)
        #expect(Set(files.keys) == ["Observation.ndjson", "Device.ndjson", "Patient.ndjson"])
        let observations = files["Observation.ndjson"] ?? []
        #expect(observations.count == ndjson.count)
        #expect(observations.allSatisfy { obs in
            ((obs["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String == "8867-4"
        })
        // Gender, not the birth date the policy does not grant.
        #expect(files["Patient.ndjson"]?.first?["gender"] as? String == "female")
        #expect(files["Patient.ndjson"]?.first?["birthDate"] == nil)
        // Every Device is the source of a written Observation or that source's hardware.
        let referenced = Set(observations.compactMap { ($0["device"] as? [String: String])?["reference"] })
        let devices = files["Device.ndjson"] ?? []
        let parents = Set(devices.compactMap { ($0["parent"] as? [String: String])?["reference"] })
        #expect(Set(devices.map { "Device/" + ($0["id"] as! String) }) == referenced.union(parents))
        // Only what was written is counted.
        #expect(run.stderrText.contains("healthport: fhir: quantitySample: \(ndjson.count) LOINC\n"))
        #expect(!run.stderrText.contains("categorySample"))
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(!manifest.contains("categorySample") && !manifest.contains("DocumentReference"))
    }

    /// Issue 53, item 3: whatever the characteristics show, there is a Patient and every
    /// Observation (per sample, per day, per night) refers to it. Identified with the sample's
    /// characteristics, its id is derived from them, the same in `convert`, `convert --type`,
    /// `days` and `sleep`;
    /// under a policy that hides them, the Patient shows nothing and has the id every such
    /// Patient has (healthport-formats(5)); Open mHealth's `user_id` is the same id.
    @Test func everyObservationHasASubjectEvenWhenAPolicyHidesTheCharacteristics() throws {
        let directory = try Fixtures.temporaryDirectory()
        let policy = directory.appendingPathComponent("policy.json")
        try Data(
            """
            {"version": 1, "consumer": {"name": "Sleep Study"},
             "read": {"HKQuantityTypeIdentifierStepCount": "granted", "HKCategoryTypeIdentifierSleepAnalysis": "granted"}}
            """.utf8
        ).write(to: policy)
        for (arguments, expected) in [([String](), nil), (["--policy", policy.path], "D6568933-1984-8699-8A74-AD094ED81941")] {
            let out = directory.appendingPathComponent("fhir-\(arguments.count)")
            let run = try healthport(["convert", sampleZip, "--format", "fhir", "--output", out.path, "-q"] + arguments)
            #expect(run.status == 0, "\(run.stderrText)")
            let patients = try ndjsonObjects(Data(contentsOf: out.appendingPathComponent("Patient.ndjson")))
            #expect(patients.count == 1)
            let id = try #require(patients.first?["id"] as? String)
            if let expected {
                #expect(id == expected)
                #expect(Set(patients[0].keys) == ["resourceType", "id"])
            } else {
                #expect(id != "D6568933-1984-8699-8A74-AD094ED81941" && patients[0]["birthDate"] != nil)
            }
            let reference = "Patient/" + id
            let observations = try ndjsonObjects(Data(contentsOf: out.appendingPathComponent("Observation.ndjson")))
            #expect(!observations.isEmpty && observations.allSatisfy { ($0["subject"] as? [String: String])?["reference"] == reference })
            for command in ["days", "sleep"] {
                let table = try healthport([command, sampleZip, "--format", "fhir", "-q"] + arguments)
                #expect(table.status == 0, "\(command): \(table.stderrText)")
                let lines = try ndjsonObjects(table.stdout)
                #expect(!lines.isEmpty && lines.allSatisfy { ($0["subject"] as? [String: String])?["reference"] == reference }, "\(command)")
                let points = try ndjsonObjects(try healthport([command, sampleZip, "--format", "omh", "-q"] + arguments).stdout)
                #expect(!points.isEmpty && points.allSatisfy { ($0["header"] as? [String: Any])?["user_id"] as? String == id }, "\(command)")
            }
            let points = try ndjsonObjects(try healthport(["convert", sampleZip, "--format", "omh", "-q"] + arguments).stdout)
            #expect(!points.isEmpty && points.allSatisfy { ($0["header"] as? [String: Any])?["user_id"] as? String == id })
            // A type filter leaves the characteristics out of the output, not the person: the
            // same Patient, on standard output too.
            let steps = try healthport(["convert", sampleZip, "--type", "StepCount", "--format", "fhir", "-q"] + arguments)
            let stepLines = try ndjsonObjects(steps.stdout)
            #expect(!stepLines.isEmpty && stepLines.allSatisfy { ($0["subject"] as? [String: String])?["reference"] == reference })
        }
    }

    @Test func diffsAreUpdatesAndDeletionsOfTheSameUuids() throws {
        let older = Fixtures.sampleData.appendingPathComponent("export-older.zip").path
        let directory = try Fixtures.temporaryDirectory()
        let added = directory.appendingPathComponent("added")
        #expect(try healthport("diff", older, sampleZip, "--format", "fhir", "--output", added.path, "-q").status == 0)
        let ndjsonAdded = try ndjsonObjects(try healthport("diff", older, sampleZip, "-q").stdout).filter { $0["type"] as? String == "added" }
        let addedIDs = (try Self.folder(added)["Observation.ndjson"] ?? []).map { $0["id"] as! String }
        #expect(Set(addedIDs) == Set(ndjsonAdded.map { ($0["object"] as! [String: Any])["uuid"] as! String }))
        #expect(!addedIDs.isEmpty)

        let deleted = directory.appendingPathComponent("deleted")
        #expect(try healthport("diff", sampleZip, older, "--format", "fhir", "--output", deleted.path, "-q").status == 0)
        let ndjsonDeleted = try ndjsonObjects(try healthport("diff", sampleZip, older, "-q").stdout).filter { $0["type"] as? String == "deleted" }
        let urls = (try Self.folder(deleted)["deleted.ndjson"] ?? []).map { bundle in
            (((bundle["entry"] as? [[String: Any]])?.first?["request"]) as? [String: String])?["url"] ?? ""
        }
        #expect(urls.count == ndjsonDeleted.count)
        #expect(Set(urls) == Set(ndjsonDeleted.map { "Observation/" + ($0["uuid"] as! String) }))
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples")) func everyRealSampleConvertsToOneResourcePerObject() throws {
        let samples = Fixtures.samples
        guard FileManager.default.fileExists(atPath: samples.path) else {
            Issue.record("no real samples at \(samples.path): not checked")
            return
        }
        var inputs: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: samples.path)
        while let name = enumerator?.nextObject() as? String {
            if (name.hasSuffix(".xml") || name.hasSuffix(".zip")) && !name.hasSuffix(".dtd") { inputs.append(samples.appendingPathComponent(name).path) }
        }
        #expect(inputs.count >= 6)
        for input in inputs.sorted() {
            let ndjson = try healthport("convert", input, "-q")
            #expect(ndjson.status == 0, "\(input): \(ndjson.stderrText)")
            let objects = try ndjsonObjects(ndjson.stdout).filter { $0["kind"] as? String != "export" }
            let out = try Fixtures.temporaryDirectory().appendingPathComponent("fhir")
            // Not quiet: the warning that counts what was left out is part of what is checked.
            let run = try healthport("convert", input, "--format", "fhir", "--output", out.path)
            #expect(run.status == 0, "\(input): \(run.stderrText)")
            let files = try Self.folder(out)
            let ids = files.filter { $0.key != "Device.ndjson" && $0.key != "Patient.ndjson" }.values.flatMap { $0 }.map { $0["id"] as! String }
            // A bare export.xml names clinical records whose resource files were not shipped
            // with it (opendroid-hk): those alone are left out, and the run counts them.
            let written = Set(ids)
            let missing = objects.filter { !written.contains($0["uuid"] as! String) }
            #expect(missing.allSatisfy { $0["kind"] as? String == "clinicalRecord" }, "\(input)")
            #expect(written.isSubset(of: Set(objects.map { $0["uuid"] as! String })), "\(input)")
            #expect(ids.count + missing.count == objects.count, "\(input)")
            if !missing.isEmpty {
                #expect(
                    run.stderrText.contains(
                        "healthport: warning: fhir: \(missing.count) left out: clinical records whose FHIR resource file is missing\n"),
                    "\(input): \(run.stderrText)")
            }
        }
    }

    /// The hand-written clinical fixture (Tests/Fixtures/clinical-records): each R4 record's own
    /// resource in the file of its type, its id the record's uuid and the provider's URL in
    /// `meta.source`, the rest as the provider wrote it (the lab result's `13.50` keeps its
    /// spelling); the DSTU2 record whole in a DocumentReference; the record whose file is missing
    /// left out and counted.
    @Test func clinicalRecordsArePassedThroughCarriedOrCounted() throws {
        let export = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/clinical-records/apple_health_export")
        let records = try ndjsonObjects(try healthport("convert", export.path, "-q").stdout)
            .filter { $0["kind"] as? String == "clinicalRecord" }
        #expect(records.count == 11)
        let out = try Fixtures.temporaryDirectory().appendingPathComponent("fhir")
        let run = try healthport("convert", export.path, "--format", "fhir", "--output", out.path)
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(run.stderrText.contains("healthport: fhir: clinicalRecord: 10 clinical resource\n"))
        #expect(run.stderrText.contains("healthport: warning: fhir: 1 left out: clinical records whose FHIR resource file is missing\n"))
        let files = try Self.folder(out)
        var byID: [String: (file: String, resource: [String: Any])] = [:]
        for (name, resources) in files {
            for resource in resources { byID[resource["id"] as! String] = (name, resource) }
        }
        for record in records {
            let uuid = record["uuid"] as! String
            let fhir = try #require(record["fhirResource"] as? [String: Any])
            let identifier = fhir["identifier"] as! String
            guard identifier != "proc-2" else {
                #expect(byID[uuid] == nil, "the record without its file")
                continue
            }
            let written = try #require(byID[uuid], "\(identifier)")
            #expect((written.resource["meta"] as? [String: Any])?["source"] as? String == fhir["sourceURL"] as? String)
            if fhir["fhirVersion"] as? String == "1.0.2" {
                #expect(written.file == "DocumentReference.ndjson")
                let content = try #require((written.resource["content"] as? [[String: Any]])?.first?["attachment"] as? [String: Any])
                #expect(content["contentType"] as? String == "application/fhir+json; fhirVersion=1.0")
                let original = try Data(contentsOf: export.appendingPathComponent("clinical-records/Condition-old-1.json"))
                #expect(Data(base64Encoded: content["data"] as? String ?? "") == original)
            } else {
                let type = fhir["resourceType"] as! String
                #expect(written.file == type + ".ndjson", "\(identifier)")
                // Everything but the id (and meta.source, added) is the provider's resource.
                let original = try #require(
                    try JSONSerialization.jsonObject(
                        with: Data(contentsOf: export.appendingPathComponent("clinical-records/\(type)-\(identifier).json"))) as? [String: Any])
                var stripped = written.resource
                stripped["id"] = original["id"]
                if original["meta"] == nil { stripped["meta"] = nil }
                // Compared as canonical JSON: the same parser read both, so equal values print alike.
                func canonical(_ object: [String: Any]) throws -> String {
                    String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
                }
                #expect(try canonical(stripped) == canonical(original), "\(identifier)")
            }
        }
        // A passed-through number keeps its spelling.
        let lab = try String(contentsOf: out.appendingPathComponent("Observation.ndjson"), encoding: .utf8)
        #expect(lab.contains("\"value\":13.50,"))
    }

    /// The store keeps no clinical record's FHIR resource: what a store-fed run leaves out is
    /// counted on standard error (changes printed nothing of the kind before), as a partitioned
    /// conversion counts, in its export's line, the records whose file is missing.
    @Test func whatTheStoreOrAMissingFileLeavesOutIsCounted() throws {
        let export = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/clinical-records/apple_health_export")
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", export.path, "--store", store, "-q").status == 0)
        let left = "healthport: warning: fhir: 11 left out: clinical records without their FHIR resource (it is read from the export, not the store)\n"
        let changes = try healthport("changes", "--store", store, "--format", "fhir", "--output", directory.appendingPathComponent("changes").path)
        #expect(changes.status == 0, "\(changes.stderrText)")
        #expect(changes.stderrText.contains("healthport: fhir: quantitySample: 2 LOINC\n"), "\(changes.stderrText)")
        #expect(changes.stderrText.contains(left), "\(changes.stderrText)")
        let query = try healthport("query", "--store", store, "--format", "fhir", "--output", directory.appendingPathComponent("query").path)
        #expect(query.status == 0, "\(query.stderrText)")
        #expect(query.stderrText.contains(left), "\(query.stderrText)")

        let lake = directory.appendingPathComponent("lake")
        let batch = try healthport("convert", export.path, "--partition", "person,type", "--format", "fhir", "--output", lake.path)
        #expect(batch.status == 0, "\(batch.stderrText)")
        #expect(
            batch.stderrText.contains(
                ": 12 objects into person=apple_health_export (11 files); 1 left out: clinical records whose FHIR resource file is missing\n"),
            "\(batch.stderrText)")
    }

    @Test func partitionsHoldOneResourceTypePerFile() throws {
        let out = try Fixtures.temporaryDirectory().appendingPathComponent("lake")
        let run = try healthport("convert", sampleZip, "--partition", "person,type", "--format", "fhir", "--output", out.path, "-q")
        #expect(run.status == 0, "\(run.stderrText)")
        for type in ["Observation", "Device", "Patient", "DocumentReference"] {
            let file = out.appendingPathComponent("person=export/type=\(type)/part-0.ndjson")
            let lines = try ndjsonObjects(Data(contentsOf: file))
            #expect(!lines.isEmpty && lines.allSatisfy { $0["resourceType"] as? String == type }, "\(type)")
        }
        let refused = try healthport("convert", sampleZip, "--partition", "person", "--format", "fhir", "--output", out.path + "2", "-q")
        #expect(refused.status == 64)
        #expect(refused.stderrText.contains("partition by type too"))
    }

    @Test func aFileWhereTheFolderShouldBeIsRefused() throws {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("taken")
        try Data("x".utf8).write(to: file)
        let run = try healthport("convert", sampleZip, "--format", "fhir", "--output", file.path, "-q")
        #expect(run.status == 73)
        #expect(try Data(contentsOf: file) == Data("x".utf8))
    }
}

/// Third audit, item 16: FHIR has no empty strings (R4B refuses `""`): a source exported with an
/// empty name and a metadata entry with an empty value leave those elements out.
@Suite struct FHIREmptyStringTests {
    @Test func anEmptySourceNameOrMetadataValueWritesNoEmptyString() throws {
        let folder = try Fixtures.temporaryDirectory()
        let export = folder.appendingPathComponent("export.xml")
        let xml = """
            <HealthData locale="en_US">
             <ExportDate value="2024-03-10 09:00:00 +0000"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="" sourceVersion="" unit="count/min" startDate="2024-03-01 08:00:00 +0000" endDate="2024-03-01 08:00:00 +0000" value="62">
              <MetadataEntry key="Note" value=""/>
             </Record>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-01 09:00:00 +0000" endDate="2024-03-01 09:00:00 +0000" value="64">
              <MetadataEntry key="Note" value=""/>
              <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
             </Record>
            </HealthData>

            """
        try Data(xml.utf8).write(to: export)
        let output = folder.appendingPathComponent("fhir").path
        let result = try healthport("convert", export.path, "--format", "fhir", "--output", output, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        var observations = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: output) where name.hasSuffix(".ndjson") {
            let text = try String(contentsOfFile: output + "/" + name, encoding: .utf8)
            #expect(!text.contains(":\"\""), "\(name): \(text)")
            if name.hasPrefix("Observation") { observations += text.split(separator: "\n").count }
        }
        #expect(observations == 2)
    }
}

/// `days --format fhir` and `sleep --format fhir`: the day table's figures as Physical Activity IG
/// Observations, and each night as one Observation with its stages as components.
@Suite struct DailyFHIRCommandTests {
    @Test func everyDaysStepsAreAnObservationOfThatDayWithTheTablesValue() throws {
        let table = try ndjsonObjects(try healthport("days", sampleZip, "--format", "ndjson", "-q").stdout)
        let run = try healthport("days", sampleZip, "--format", "fhir")
        #expect(run.status == 0, "\(run.stderrText)")
        let observations = try ndjsonObjects(run.stdout)
        let steps = observations.filter { ((($0["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String) == "41950-7" }
        let days = table.filter { $0["steps"] is NSNumber }
        #expect(!days.isEmpty && steps.count == days.count)
        for observation in steps {
            let date = try #require(observation["effectiveDateTime"] as? String)
            let day = try #require(days.first { $0["date"] as? String == date })
            #expect(((observation["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue == (day["steps"] as? NSNumber)?.doubleValue)
        }
        #expect(Set(observations.compactMap { $0["id"] as? String }).count == observations.count)
        #expect(run.stderrText.contains("left out: days' hrv_sdnn_ms (no Physical Activity IG code)"))
        // Weeks and the other tables have no daily Observations.
        for arguments in [["days", sampleZip, "--period", "week"], ["summary", sampleZip], ["workouts", sampleZip]] {
            let refused = try healthport(arguments + ["--format", "fhir", "-q"])
            #expect(refused.status == 64, "\(arguments[0]): \(refused.stderrText)")
        }
    }

    /// `convert --format fhir --summaries` writes the days' and nights' Observations into the
    /// same `Observation.ndjson` as the samples' (Bulk Data: one resource type per file), through
    /// the same policy: the file is, line for line, the conversion's Observations,
    /// `days --format fhir`'s and `sleep --format fhir`'s with the same options.
    @Test(arguments: [false, true])
    func convertSummariesWritesTheDaysAndNightsBesideTheSamples(underPolicy: Bool) throws {
        let folder = try Fixtures.temporaryDirectory()
        var options: [String] = []
        if underPolicy {
            let policy = folder.appendingPathComponent("steps.json")
            try Data(
                #"{"version": 1, "consumer": {"name": "Steps"}, "read": {"HKQuantityTypeIdentifierStepCount": "granted", "HKCategoryTypeIdentifierSleepAnalysis": "granted"}}"#
                    .utf8
            ).write(to: policy)
            options = ["--policy", policy.path]
        }
        let out = folder.appendingPathComponent("fhir")
        let (written, samples, days, nights) = try Self.summaries(out, options: options)
        #expect(!days.isEmpty && !nights.isEmpty)
        #expect(written.count == samples.count + days.count + nights.count)
        let same = Set(written) == Set(samples + days + nights)
        #expect(same)
        // The manifest counts them; the folder's one Patient is every day's subject.
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let observations = (manifest["output"] as? [[String: Any]])?.first { $0["type"] as? String == "Observation" }
        #expect((observations?["count"] as? NSNumber)?.intValue == written.count)
        let patient = try #require(try ndjsonObjects(Data(contentsOf: out.appendingPathComponent("Patient.ndjson"))).first?["id"] as? String)
        #expect(days.allSatisfy { $0.contains("\"subject\":{\"reference\":\"Patient/\(patient)\"}") })
        if underPolicy {
            // The policy grants steps and sleep alone: the days hold steps and nothing else.
            #expect(days.allSatisfy { $0.contains("\"41950-7\"") })
        }
    }

    /// The Observations `convert --format fhir --summaries` writes into `out`, and the lines of
    /// the conversion without `--summaries`, of `days` and of `sleep`, each with `options`.
    static func summaries(_ out: URL, options: [String]) throws -> (written: [Substring], samples: [Substring], days: [Substring], nights: [Substring]) {
        func lines(_ arguments: [String], _ extra: [String]) throws -> [Substring] {
            let run = try healthport(arguments + extra + ["-q"])
            #expect(run.status == 0, "\(arguments): \(run.stderrText)")
            return run.stdoutText.split(separator: "\n")
        }
        let run = try healthport(["convert", sampleZip, "--format", "fhir", "--summaries", "--output", out.path] + options + ["-q"])
        #expect(run.status == 0, "\(run.stderrText)")
        let written = try String(contentsOf: out.appendingPathComponent("Observation.ndjson"), encoding: .utf8).split(separator: "\n")
        return (
            written, try lines(["convert", sampleZip, "--format", "fhir"], options), try lines(["days", sampleZip, "--format", "fhir"], options),
            try lines(["sleep", sampleZip, "--format", "fhir"], options)
        )
    }

    /// De-identified (which `days` and `sleep` do not offer), the days and nights are those of
    /// the day and sleep tables a CSV conversion with the same key writes (`--summaries`: dates
    /// moved by the person's shift, days cut in UTC since de-identification drops `HKTimeZone`),
    /// and name the person's pseudonymous Patient.
    @Test func deidentifiedSummariesAreTheDeidentifiedTables() throws {
        let folder = try Fixtures.temporaryDirectory()
        let key = folder.appendingPathComponent("study.key").path
        let out = folder.appendingPathComponent("fhir")
        let run = try healthport("convert", sampleZip, "--format", "fhir", "--summaries", "--deidentify", key, "--output", out.path, "-q")
        #expect(run.status == 0, "\(run.stderrText)")
        let tables = folder.appendingPathComponent("csv")
        let csv = try healthport("convert", sampleZip, "--format", "csv", "--summaries", "--deidentify", key, "--output", tables.path, "-q")
        #expect(csv.status == 0, "\(csv.stderrText)")
        let observations = try ndjsonObjects(Data(contentsOf: out.appendingPathComponent("Observation.ndjson")))
        let patient = try #require(try ndjsonObjects(Data(contentsOf: out.appendingPathComponent("Patient.ndjson"))).first?["id"] as? String)
        #expect(patient.hasPrefix("person-"))
        func code(_ observation: [String: Any]) -> String? {
            ((observation["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String
        }
        func value(_ observation: [String: Any]) -> Double? {
            ((observation["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue
        }
        var steps: [String: Double] = [:]
        for observation in observations where code(observation) == "41950-7" {
            #expect((observation["subject"] as? [String: String])?["reference"] == "Patient/" + patient)
            steps[observation["effectiveDateTime"] as? String ?? "?"] = value(observation)
        }
        let days = parseCSV(try String(contentsOf: tables.appendingPathComponent("days.csv"), encoding: .utf8))
        let header = try #require(days.first)
        let column = try #require(header.firstIndex(of: "steps"))
        var table: [String: Double] = [:]
        for row in days.dropFirst() where !row[column].isEmpty { table[row[0]] = Double(row[column]) }
        #expect(!table.isEmpty && steps == table)
        // The nights: one Observation per night of the table with an onset, the same time asleep.
        let nights = parseCSV(try String(contentsOf: tables.appendingPathComponent("sleep-nights.csv"), encoding: .utf8))
        let nightHeader = try #require(nights.first)
        let asleep = try #require(nightHeader.firstIndex(of: "asleep"))
        let onset = try #require(nightHeader.firstIndex(of: "sleepStart"))
        let expected = nights.dropFirst().filter { !$0[onset].isEmpty }.compactMap { Double($0[asleep]) }.sorted()
        let written = observations.filter { $0["component"] != nil }.compactMap(value).sorted()
        #expect(!expected.isEmpty && written == expected)
    }

    /// On standard output, the days and nights follow the samples' Observations; a FHIR lake
    /// holds them in each person's `type=Observation`.
    @Test func summariesInFHIROnStandardOutputAndInALake() throws {
        let days = try healthport("days", sampleZip, "--format", "fhir", "-q").stdoutText.split(separator: "\n")
        let nights = try healthport("sleep", sampleZip, "--format", "fhir", "-q").stdoutText.split(separator: "\n")
        let samples = try healthport("convert", sampleZip, "--format", "fhir", "-q").stdoutText.split(separator: "\n")
        let stdout = try healthport("convert", sampleZip, "--format", "fhir", "--summaries", "-q")
        #expect(stdout.status == 0, "\(stdout.stderrText)")
        let written = stdout.stdoutText.split(separator: "\n")
        let samplesFirst = Array(written.prefix(samples.count)) == samples
        let summariesAfter = Set(written.dropFirst(samples.count)) == Set(days + nights)
        #expect(samplesFirst && summariesAfter && written.count == samples.count + days.count + nights.count)

        let lake = try Fixtures.temporaryDirectory().appendingPathComponent("lake")
        let batch = try healthport(
            "convert", sampleZip, Fixtures.sampleData.appendingPathComponent("export-older.zip").path, "--partition", "person,type", "--format", "fhir", "--summaries", "--output", lake.path, "-q")
        #expect(batch.status == 0, "\(batch.stderrText)")
        let file = try String(
            contentsOf: lake.appendingPathComponent("person=export/type=Observation/part-0.ndjson"), encoding: .utf8
        ).split(separator: "\n")
        let same = Set(file) == Set(samples + days + nights)
        #expect(same && file.count == samples.count + days.count + nights.count)
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: lake.appendingPathComponent("_manifest.json"))) as? [String: Any])
        #expect(manifest["summaryRules"] != nil)
    }

    @Test func everyNightIsAnObservationWithItsStagesAsComponents() throws {
        let table = try ndjsonObjects(try healthport("sleep", sampleZip, "--format", "ndjson", "-q").stdout)
        let run = try healthport("sleep", sampleZip, "--format", "fhir", "-q")
        #expect(run.status == 0, "\(run.stderrText)")
        let observations = try ndjsonObjects(run.stdout)
        let nights = table.filter { $0["sleepStart"] is String }
        #expect(!nights.isEmpty && observations.count == nights.count)
        for (night, observation) in zip(nights, observations) {
            #expect((observation["effectivePeriod"] as? [String: String]) == ["start": night["sleepStart"] as! String, "end": night["sleepEnd"] as! String])
            #expect(((observation["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue == (night["asleep"] as? NSNumber)?.doubleValue)
            var components: [String: Double] = [:]
            for component in observation["component"] as? [[String: Any]] ?? [] {
                let code = (((component["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String) ?? ""
                components[code] = ((component["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue
            }
            // HKCategoryValueSleepAnalysis: 3 core, 4 deep, 5 REM, 2 awake.
            #expect(components["3"] == (night["asleepCore"] as? NSNumber)?.doubleValue)
            #expect(components["4"] == (night["asleepDeep"] as? NSNumber)?.doubleValue)
            #expect(components["5"] == (night["asleepREM"] as? NSNumber)?.doubleValue)
            #expect(components["2"] == (night["awake"] as? NSNumber)?.doubleValue)
        }
    }
}
