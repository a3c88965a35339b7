import Foundation
import HealthTestSupport
import Testing
import ZIPFoundation

/// `--deidentify KEYFILE`: every output format of convert, the `--partition` lake and query,
/// searched for the originals it must not contain; the same key gives the same shift and
/// pseudonyms across two exports of one person, another key others; durations, order and daily
/// counts survive the shift.
@Suite struct DeidentifyCommandTests {
    /// One person's export with every kind of original a de-identification must remove: names
    /// in sources and devices, a serial, a UDI, free-text metadata, a time zone, an external id,
    /// coordinates, a clinical record, a date of birth. Days 1 to `days` of June 2024.
    static func document(days: Int = 3, birth: String = "1985-06-15") -> String {
        var body = ""
        let device = "&lt;&lt;HKDevice: 0x28&gt;, name:Simon’s Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.2, localIdentifier:SERIAL-XYZ-123, UDIDeviceIdentifier:UDI-0004711, creation date:2024-02-11 10:46:10 +0000&gt;"
        for day in 1...days {
            let d = String(format: "2024-06-%02d", day)
            for hour in [0, 7, 8, 13, 22] {
                let t = String(format: "%@ %02d:15:00 +0200", d, hour)
                body += """
                     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Simon’s Apple Watch" sourceVersion="10.2" device="\(device)" unit="count/min" creationDate="\(t)" startDate="\(t)" endDate="\(t)" value="\(60 + hour)">
                      <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>
                      <MetadataEntry key="HKTimeZone" value="Europe/Paris"/>
                      <MetadataEntry key="HKExternalUUID" value="EXT-UUID-42"/>
                      <MetadataEntry key="HKDeviceSerialNumber" value="SER-777"/>
                      <MetadataEntry key="My Note" value="Met Dr. Watson at 5 Baker Street"/>
                     </Record>
                     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Simon’s iPhone" sourceVersion="17.2" unit="count" creationDate="\(t)" startDate="\(t)" endDate="\(String(format: "%@ %02d:45:00 +0200", d, hour))" value="\(100 * day + hour)"/>

                    """
            }
            body += """
                 <Record type="HKQuantityTypeIdentifierDietaryEnergyConsumed" sourceName="Health" sourceVersion="17.2" unit="kcal" creationDate="\(d) 12:00:00 +0200" startDate="\(d) 12:00:00 +0200" endDate="\(d) 12:00:00 +0200" value="512">
                  <MetadataEntry key="HKFoodType" value="Grandma’s secret soup"/>
                  <MetadataEntry key="HKWasUserEntered" value="1"/>
                 </Record>
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Simon’s Apple Watch" sourceVersion="10.2" device="\(device)" creationDate="\(d) 18:40:00 +0200" startDate="\(d) 18:00:00 +0200" endDate="\(d) 18:35:00 +0200">
                  <MetadataEntry key="HKIndoorWorkout" value="0"/>
                  <MetadataEntry key="HKWorkoutBrandName" value="Simon’s running club"/>
                  <WorkoutEvent type="HKWorkoutEventTypePause" date="\(d) 18:10:00 +0200"/>
                  <WorkoutRoute sourceName="Simon’s Apple Watch" sourceVersion="10.2" creationDate="\(d) 18:40:00 +0200" startDate="\(d) 18:00:00 +0200" endDate="\(d) 18:35:00 +0200">
                   <Location date="\(d) 18:00:00 +0200" latitude="48.8566" longitude="2.3522" altitude="35" horizontalAccuracy="3" verticalAccuracy="2" course="90" speed="3"/>
                  </WorkoutRoute>
                 </Workout>

                """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-06-\(String(format: "%02d", days)) 23:00:00 +0200"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="\(birth)" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeAPositive" HKCharacteristicTypeIdentifierFitzpatrickSkinType="" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=""/>
            \(body) <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="MRN-99" sourceName="St. Mary Hospital" fhirVersion="1.0.2" receivedDate="2024-06-01 15:50:00 +0200" resourceFilePath="/clinical-records/Observation-1.json"/>
            </HealthData>

            """
    }

    /// What must never be in a de-identified output.
    static let originals = [
        "Simon", "SERIAL-XYZ-123", "UDI-0004711", "Europe/Paris", "EXT-UUID-42", "SER-777", "Baker Street", "Grandma",
        "running club", "48.8566", "2.3522", "St. Mary", "MRN-99", "1985-06-15", "2024-06", "2024-02-11", "HKTimeZone",
    ]

    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("deidentify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func write(_ text: String, _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Every file under `path` (or the file), a zip's members unpacked.
    func contents(_ path: String) throws -> [(String, Data)] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else {
            if path.hasSuffix(".zip") {
                let unpacked = URL(fileURLWithPath: path + ".unpacked")
                try FileManager.default.unzipItem(at: URL(fileURLWithPath: path), to: unpacked)
                return try contents(unpacked.path)
            }
            return [(path, try Data(contentsOf: URL(fileURLWithPath: path)))]
        }
        var files: [(String, Data)] = []
        for name in try FileManager.default.subpathsOfDirectory(atPath: path).sorted() {
            var inner: ObjCBool = false
            let full = path + "/" + name
            if FileManager.default.fileExists(atPath: full, isDirectory: &inner), !inner.boolValue {
                files.append((full, try Data(contentsOf: URL(fileURLWithPath: full))))
            }
        }
        return files
    }

    func expectNoOriginals(in path: String, also extra: [String] = [], binary: [(String, [UInt8])] = [], _ what: String) throws {
        let files = try contents(path)
        #expect(!files.isEmpty, "\(what): nothing written")
        for (file, data) in files {
            let text = String(decoding: data, as: UTF8.self)
            for original in Self.originals + extra where text.contains(original) {
                Issue.record("\(what): '\(original)' survives in \(file)")
            }
            // What a text search cannot see: Parquet's binary columns (a uuid's 16 bytes, an
            // instant's microseconds, a coordinate's double), searched for as bytes.
            for (name, bytes) in binary where data.range(of: Data(bytes)) != nil {
                Issue.record("\(what): \(name) survives in binary in \(file)")
            }
        }
    }

    /// The originals as Parquet stores them (plain encoding, little-endian): each uuid's 16
    /// bytes, each sample's start and end as microseconds since 1970, and the coordinates as
    /// doubles. None may be in a de-identified output, whatever its encoding.
    func binaryOriginals(_ export: String) throws -> [(String, [UInt8])] {
        var forms: [(String, [UInt8])] = []
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime]
        var instants: [(String, Int64)] = []
        for object in try ndjsonObjects(try healthport("convert", export, "-q").stdout) {
            if let text = object["uuid"] as? String, let uuid = UUID(uuidString: text) {
                forms.append(("uuid \(text)", withUnsafeBytes(of: uuid.uuid) { Array($0) }))
            }
            for key in ["startDate", "endDate"] {
                guard let text = object[key] as? String, let date = parser.date(from: text) else { continue }
                instants.append(("\(key) \(text)", Int64(date.timeIntervalSince1970) * 1_000_000))
            }
        }
        // The shift is whole weeks: an instant a whole number of weeks from another original
        // one may rightly be that one shifted, so only the others are looked for.
        let week: Int64 = 7 * 86_400 * 1_000_000
        for (name, micros) in instants where !instants.contains(where: { $0.1 != micros && ($0.1 - micros) % week == 0 }) {
            forms.append((name, withUnsafeBytes(of: micros.littleEndian) { Array($0) }))
        }
        for coordinate in [48.8566, 2.3522] {
            forms.append(("coordinate \(coordinate)", withUnsafeBytes(of: coordinate.bitPattern.littleEndian) { Array($0) }))
        }
        return forms
    }

    /// The plain conversion's uuids: none may be in a de-identified output.
    func originalUUIDs(_ export: String) throws -> [String] {
        try ndjsonObjects(try healthport("convert", export, "-q").stdout).compactMap { $0["uuid"] as? String }
    }

    @Test func noOriginalSurvivesInAnyFormat() throws {
        let export = try write(Self.document(), "person.xml")
        let key = folder.appendingPathComponent("study.key").path
        let uuids = try originalUUIDs(export)
        #expect(uuids.count > 30)
        let binary = try binaryOriginals(export)
        #expect(binary.count > 60)
        // The byte search can see what it looks for: the plain Parquet holds the uuids, the
        // instants and the coordinates, in binary.
        let plainParquet = folder.appendingPathComponent("plain-parquet").path
        #expect(try healthport("convert", export, "-q", "--format", "parquet", "--compression", "none", "--output", plainParquet).status == 0)
        let plainBytes = try contents(plainParquet).map(\.1)
        for kind in ["uuid ", "startDate ", "coordinate "] {
            #expect(binary.contains { name, bytes in name.hasPrefix(kind) && plainBytes.contains { $0.range(of: Data(bytes)) != nil } }, "no \(kind)in the plain Parquet")
        }
        try FileManager.default.removeItem(atPath: plainParquet)
        let outputs: [(String, [String])] = [
            ("out.ndjson", ["--format", "ndjson"]), ("out.json", ["--format", "json"]), ("csv", ["--format", "csv"]),
            ("parquet", ["--format", "parquet", "--compression", "none"]), ("fhir", ["--format", "fhir"]),
            ("export.xml", ["--format", "export"]), ("archive.zip", ["--format", "export"]), ("points.ndjson", ["--format", "omh"]),
        ]
        for (name, arguments) in outputs {
            let output = folder.appendingPathComponent(name).path
            let result = try healthport(["convert", export, "-q", "--deidentify", key, "--output", output] + arguments)
            #expect(result.status == 0, "\(name): \(result.stderrText)")
            try expectNoOriginals(in: output, also: uuids, binary: binary, name)
            let manifest = name.contains(".") ? output + ".deidentification.json" : output + "/_deidentification.json"
            #expect(FileManager.default.fileExists(atPath: manifest), "\(name): no manifest")
        }
        // The key file: made once, mode 0600, never in an output.
        let attributes = try FileManager.default.attributesOfItem(atPath: key)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let keyObject = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: key))) as? [String: Any]
        let secret = try #require(keyObject?["secret"] as? String)
        for (_, data) in try contents(folder.path) where !String(decoding: data, as: UTF8.self).hasPrefix("{\"format\":\"healthport-deidentification-key\"") {
            #expect(!String(decoding: data, as: UTF8.self).contains(secret))
        }
        // Query, sorted, from the export.
        let query = try healthport("query", export, "-q", "--deidentify", key, "--sort", "startDate:desc")
        #expect(query.status == 0)
        #expect(!query.stdoutText.isEmpty)
        for original in Self.originals + uuids { #expect(!query.stdoutText.contains(original), "query: \(original)") }
        // Characteristics: none without a policy.
        let header = try ndjsonObjects(try healthport("convert", export, "-q", "--deidentify", key).stdout)[0]
        #expect(header["characteristics"] == nil)
    }

    @Test func everyLakeFormatHoldsNoOriginal() throws {
        let exports = folder.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let a = exports.appendingPathComponent("simon.xml").path
        try Data(Self.document().utf8).write(to: URL(fileURLWithPath: a))
        let key = folder.appendingPathComponent("study.key").path
        let uuids = try originalUUIDs(a)
        let binary = try binaryOriginals(a)
        for format in ["csv", "parquet", "ndjson", "fhir"] {
            let lake = folder.appendingPathComponent("lake-\(format)").path
            var arguments = ["convert", a, "-q", "--format", format, "--partition", "person,type", "--deidentify", key, "--output", lake]
            if format == "parquet" { arguments += ["--compression", "none"] }
            let result = try healthport(arguments)
            #expect(result.status == 0, "\(format): \(result.stderrText)")
            // The batch manifest is shared with the lake: no input name, no real time in it.
            try expectNoOriginals(in: lake, also: uuids + ["person=simon", "simon.xml", "exports/"], binary: binary, "lake \(format)")
            #expect(FileManager.default.fileExists(atPath: lake + "/_deidentification.json"))
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: lake + "/_manifest.json"))) as? [String: Any]
            let input = try #require((manifest?["inputs"] as? [[String: Any]])?.first)
            #expect((input["modified"] as? NSNumber)?.doubleValue == 0 && (input["size"] as? NSNumber)?.intValue == 0)
            #expect((input["input"] as? String)?.hasPrefix("file-") == true, "\(input["input"] ?? "")")
            #expect((manifest?["updated"] as? String)?.contains("20") == false)
        }
        let csvLake = folder.appendingPathComponent("lake-csv").path
        let people = try FileManager.default.contentsOfDirectory(atPath: csvLake).filter { $0.hasPrefix("person=") }
        #expect(people.count == 1 && people[0].hasPrefix("person=person-"))
        #expect(FileManager.default.fileExists(atPath: csvLake + "/" + people[0] + "/type=coverage/part-0.csv"))
    }

    /// ECG recordings (the voltages, and the note the person typed) are in no de-identified
    /// output: FHIR writes them without de-identification, and none with it, alone or in a lake.
    @Test func noElectrocardiogramInADeidentifiedOutput() throws {
        let sample = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let key = folder.appendingPathComponent("ecg.key").path
        let plain = try healthport("convert", sample, "--format", "fhir", "-q")
        #expect(plain.stdoutText.contains("valueSampledData"))
        let shared = try healthport("convert", sample, "--format", "fhir", "--deidentify", key, "-q")
        #expect(shared.status == 0, "\(shared.stderrText)")
        #expect(!shared.stdoutText.isEmpty && !shared.stdoutText.contains("valueSampledData"))
        let lake = folder.appendingPathComponent("ecg-lake").path
        #expect(try healthport("convert", sample, "--format", "fhir", "--partition", "person,type", "--deidentify", key, "--output", lake, "-q").status == 0)
        for (file, data) in try contents(lake) { #expect(!String(decoding: data, as: UTF8.self).contains("valueSampledData"), "\(file)") }
    }

    /// Issue 53, item 3: every resource says whose data it is. A de-identified FHIR conversion
    /// of a generated export (born 1985-06-15, female) has one Patient, whose id is the keyed
    /// pseudonym of the person, and every Observation's subject is that Patient, in the folder
    /// and on standard output; every Open mHealth point's `user_id` is that id. The same key
    /// gives the same id for two exports of the person; another key another; a policy that
    /// grants the birth date changes what the Patient shows, never its id; no birth date, and
    /// not the id the identified Patient has (derived from the birth date), is anywhere.
    @Test func everyDeidentifiedObservationAndDataPointRefersToThePseudonymousPatient() throws {
        let early = try writeGeneratedExport(days: 3, to: folder.appendingPathComponent("early.xml"))
        let later = try writeGeneratedExport(days: 5, to: folder.appendingPathComponent("later.xml"))
        let key = folder.appendingPathComponent("one.key").path
        let other = folder.appendingPathComponent("other.key").path
        let policy = folder.appendingPathComponent("policy.json")
        try Data(#"{"version": 1, "consumer": {"name": "Study"}, "read": {"StepCount": "granted", "HeartRate": "granted", "DateOfBirth": "granted", "BiologicalSex": "granted"}}"#.utf8).write(to: policy)
        // The identified Patient's id, derived from the birth date and sex it shows.
        let plainFolder = folder.appendingPathComponent("plain-fhir")
        #expect(try healthport("convert", early, "--format", "fhir", "--output", plainFolder.path, "-q").status == 0)
        let plainPatients = try ndjsonObjects(Data(contentsOf: plainFolder.appendingPathComponent("Patient.ndjson")))
        #expect(plainPatients.first?["birthDate"] as? String == "1985-06-15")
        let identified = try #require(plainPatients.first?["id"] as? String)

        func patient(_ export: String, _ key: String, policy: [String] = []) throws -> (id: String, patient: [String: Any]) {
            let out = folder.appendingPathComponent("fhir-\(UUID().uuidString)")
            let run = try healthport(["convert", export, "--format", "fhir", "--deidentify", key, "--output", out.path, "-q"] + policy)
            #expect(run.status == 0, "\(run.stderrText)")
            let patients = try ndjsonObjects(Data(contentsOf: out.appendingPathComponent("Patient.ndjson")))
            #expect(patients.count == 1)
            let id = try #require(patients.first?["id"] as? String)
            #expect(id.hasPrefix("person-") && id.count == "person-".count + 12, "\(id)")
            let observations = try ndjsonObjects(Data(contentsOf: out.appendingPathComponent("Observation.ndjson")))
            #expect(observations.count > 50)
            #expect(observations.allSatisfy { ($0["subject"] as? [String: String])?["reference"] == "Patient/" + id })
            for (file, data) in try contents(out.path) {
                let text = String(decoding: data, as: UTF8.self)
                #expect(!text.contains("1985-06-15") && !text.contains(identified), "\(file)")
            }
            // Standard output carries the Observations alone, each still naming the Patient.
            let stdout = try healthport(["convert", export, "--format", "fhir", "--deidentify", key, "-q"] + policy)
            #expect(stdout.status == 0, "\(stdout.stderrText)")
            let lines = try ndjsonObjects(stdout.stdout)
            #expect(lines.count == observations.count)
            #expect(lines.allSatisfy { ($0["subject"] as? [String: String])?["reference"] == "Patient/" + id })
            // Open mHealth: every data point's header names the same id.
            let points = try ndjsonObjects(try healthport(["convert", export, "--format", "omh", "--deidentify", key, "-q"] + policy).stdout)
            #expect(!points.isEmpty)
            #expect(points.allSatisfy { ($0["header"] as? [String: Any])?["user_id"] as? String == id })
            return (id, patients[0])
        }
        let first = try patient(early, key)
        // Without a policy no characteristic: the Patient is its id alone.
        #expect(Set(first.patient.keys) == ["resourceType", "id"])
        #expect(try patient(later, key).id == first.id)
        #expect(try patient(early, other).id != first.id)
        let granted = try patient(early, key, policy: ["--policy", policy.path])
        #expect(granted.id == first.id)
        #expect(granted.patient["gender"] as? String == "female")
        let year = try #require(Int(granted.patient["birthDate"] as? String ?? ""))
        #expect((1964...1985).contains(year))
    }

    /// In a lake whose person keys are file names, the Patient's id is the person's folder name.
    @Test func aLakesPatientIsNamedAsThePersonsFolder() throws {
        let exports = folder.appendingPathComponent("people")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let simon = try writeGeneratedExport(days: 2, to: exports.appendingPathComponent("simon.xml"))
        let key = folder.appendingPathComponent("lake.key").path
        let lake = folder.appendingPathComponent("lake").path
        let run = try healthport("convert", simon, "--format", "fhir", "--partition", "person,type", "--deidentify", key, "--output", lake, "-q")
        #expect(run.status == 0, "\(run.stderrText)")
        let person = try #require(try FileManager.default.contentsOfDirectory(atPath: lake).first { $0.hasPrefix("person=") })
        let patients = try ndjsonObjects(Data(contentsOf: URL(fileURLWithPath: lake + "/" + person + "/type=Patient/part-0.ndjson")))
        #expect(patients.count == 1 && patients.first?["id"] as? String == String(person.dropFirst("person=".count)))
        let observations = try ndjsonObjects(Data(contentsOf: URL(fileURLWithPath: lake + "/" + person + "/type=Observation/part-0.ndjson")))
        #expect(!observations.isEmpty && observations.allSatisfy { ($0["subject"] as? [String: String])?["reference"] == "Patient/" + person.dropFirst("person=".count) })
    }

    @Test func theSameKeyGivesTheSameShiftAndPseudonymsAcrossExportsAndAnotherKeyOthers() throws {
        let early = try write(Self.document(days: 2), "early.xml")
        let later = try write(Self.document(days: 4), "later.xml")
        let key = folder.appendingPathComponent("one.key").path
        let other = folder.appendingPathComponent("other.key").path
        func lines(_ export: String, _ key: String) throws -> [String] {
            let result = try healthport("convert", export, "-q", "--deidentify", key)
            #expect(result.status == 0, "\(result.stderrText)")
            return result.stdoutText.split(separator: "\n").dropFirst().map(String.init)
        }
        let first = try lines(early, key)
        let second = Set(try lines(later, key))
        // Every object of the early export is, byte for byte, in the later one: the same uuid,
        // dates and pseudonyms.
        #expect(!first.isEmpty)
        #expect(first.allSatisfy(second.contains))
        let another = try lines(early, other)
        #expect(another.count == first.count)
        #expect(zip(first, another).allSatisfy { $0 != $1 })
        let names = { (lines: [String]) in Set(try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
            .compactMap { (($0["sourceRevision"] as? [String: Any])?["source"] as? [String: Any])?["name"] as? String }) }
        #expect(try names(first) != names(another))
    }

    @Test func durationsOrderAndDailyCountsAreKept() throws {
        let export = try write(Self.document(days: 3), "export.xml")
        let key = folder.appendingPathComponent("k.key").path
        func objects(_ arguments: String...) throws -> [[String: Any]] {
            Array(try ndjsonObjects(try healthport(["convert", export, "-q", "--type", "HeartRate,StepCount,Workout"] + arguments).stdout).dropFirst())
        }
        let plain = try objects()
        let shifted = try objects("--deidentify", key)
        #expect(plain.count == shifted.count && plain.count == 33)
        func instant(_ text: Any?) throws -> Double {
            let formatter = ISO8601DateFormatter()
            let string = try #require(text as? String)
            return try #require(formatter.date(from: string)).timeIntervalSince1970
        }
        var shift: Double? = nil
        for (p, s) in zip(plain, shifted) {
            #expect(p["sampleType"] as? String == s["sampleType"] as? String)  // order
            let delta = try instant(s["startDate"]) - instant(p["startDate"])
            #expect(shift == nil || shift == delta)  // one shift for the person
            shift = delta
            #expect(try instant(s["endDate"]) - instant(s["startDate"]) == instant(p["endDate"]) - instant(p["startDate"]))  // durations
            // The UTC time of day, and UTC: no offset that would mark a change of clock.
            #expect(try instant(s["startDate"]).truncatingRemainder(dividingBy: 86_400) == instant(p["startDate"]).truncatingRemainder(dividingBy: 86_400))
            let text = s["startDate"] as! String
            #expect(text.hasSuffix("Z") || text.hasSuffix("+00:00"), "\(text)")
        }
        let weeks = try #require(shift) / (7 * 86_400)
        #expect(weeks == weeks.rounded() && weeks <= -52 && weeks >= -1_043)
        // Daily counts: per UTC day, the same counts in the same order of days.
        func daily(_ objects: [[String: Any]]) throws -> [Int] {
            var counts: [Int: Int] = [:]
            for o in objects { counts[Int((try instant(o["startDate"]) / 86_400).rounded(.down)), default: 0] += 1 }
            return counts.keys.sorted().map { counts[$0]! }
        }
        #expect(try daily(plain) == daily(shifted))
    }

    @Test func characteristicsAreCutToSafeHarborAndOnlyWhenAPolicyGrantsThem() throws {
        let policy = folder.appendingPathComponent("policy.json")
        try Data(#"{"version": 1, "consumer": {"name": "Study"}, "read": {"HeartRate": "granted", "DateOfBirth": "granted", "BiologicalSex": "granted"}}"#.utf8).write(to: policy)
        let key = folder.appendingPathComponent("k.key").path
        func characteristics(_ birth: String) throws -> [String: Any]? {
            let export = try write(Self.document(days: 1, birth: birth), "export-\(birth).xml")
            let result = try healthport("convert", export, "-q", "--deidentify", key, "--policy", policy.path)
            #expect(result.status == 0, "\(result.stderrText)")
            return try ndjsonObjects(result.stdout)[0]["characteristics"] as? [String: Any]
        }
        let young = try #require(try characteristics("1985-06-15"))
        let birth = try #require(young["dateOfBirth"] as? String)
        let year = try #require(Int(birth))
        #expect((1964...1985).contains(year))
        #expect(young["biologicalSex"] as? String == "HKBiologicalSexFemale")
        #expect(young["bloodType"] == nil)  // not granted
        let old = try #require(try characteristics("1930-02-01"))
        #expect(old["dateOfBirth"] as? String == "90+")
    }

    @Test func routesCannotBeAskedForAndABadKeyFileIsAConfigurationError() throws {
        let export = try write(Self.document(days: 1), "export.xml")
        let key = folder.appendingPathComponent("k.key").path
        let routes = try healthport("convert", export, "-q", "--deidentify", key, "--include-routes")
        #expect(routes.status == 64)
        #expect(routes.stderrText.contains("--include-routes"))
        let bad = try write("{\"format\":\"something else\"}", "bad.key")
        let refused = try healthport("convert", export, "-q", "--deidentify", bad)
        #expect(refused.status == 78)
        #expect(refused.stderrText.contains("bad.key"))
        // The refused run made no key (a failed run leaves none behind).
        #expect(!FileManager.default.fileExists(atPath: key))
        // An existing key file is never replaced.
        #expect(try healthport("convert", export, "-q", "--deidentify", key).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: key))
        #expect(try healthport("convert", export, "-q", "--deidentify", key).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: key)) == before)
    }

    /// The key links a person's exports for years: no output may replace it, whatever names it
    /// (the output, the anchor, the manifest beside the output, a folder output around it), and
    /// no manifest may replace an input. Each is refused (64) before anything is written, and the
    /// key and the input are byte for byte as before.
    @Test func noOutputReplacesTheKeyOrAnInput() throws {
        let export = try write(Self.document(days: 1), "export.xml")
        let key = folder.appendingPathComponent("study.key").path
        #expect(try healthport("convert", export, "-q", "--deidentify", key, "--output", folder.appendingPathComponent("first.ndjson").path).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: key))
        let outputFolder = folder.appendingPathComponent("lake")
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        let keyInFolder = outputFolder.appendingPathComponent("key.json").path
        try before.write(to: URL(fileURLWithPath: keyInFolder))
        let attempts: [(String, [String])] = [
            ("convert --output KEY", ["convert", export, "--deidentify", key, "--output", key]),
            ("convert --format export --output KEY", ["convert", export, "--deidentify", key, "--format", "export", "--output", key]),
            ("query --output KEY", ["query", export, "--deidentify", key, "--output", key]),
            ("changes --anchor-output KEY", ["changes", export, "--deidentify", key, "--anchor-output", key]),
            ("a CSV folder holding the key", ["convert", export, "--deidentify", keyInFolder, "--format", "csv", "--output", outputFolder.path]),
        ]
        for (what, arguments) in attempts {
            let result = try healthport(arguments + ["-q"])
            #expect(result.status == 64, "\(what): \(result.status) \(result.stderrText)")
            #expect(result.stderrText.contains("replace an input"), "\(what): \(result.stderrText)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: key)) == before, "\(what) changed the key")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: keyInFolder)) == before)
        // The manifest named like the key: the key is named `X.deidentification.json`.
        let manifestNamedKey = folder.appendingPathComponent("out.deidentification.json").path
        try before.write(to: URL(fileURLWithPath: manifestNamedKey))
        let output = folder.appendingPathComponent("out").path
        let refused = try healthport("convert", export, "-q", "--deidentify", manifestNamedKey, "--output", output)
        #expect(refused.status == 64, "\(refused.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: manifestNamedKey)) == before)
        #expect(!FileManager.default.fileExists(atPath: output))
        // An input named like the manifest of the output.
        let input = try write(Self.document(days: 1), "o.deidentification.json")
        let inputBefore = try Data(contentsOf: URL(fileURLWithPath: input))
        let o = folder.appendingPathComponent("o").path
        let overInput = try healthport("convert", input, "-q", "--deidentify", key, "--output", o)
        #expect(overInput.status == 64, "\(overInput.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == inputBefore)
    }

    /// A key others can read is used with a warning (whoever reads it undoes the pseudonyms);
    /// a key made for a run that fails is not left behind as if it had been used.
    @Test func aReadableKeyIsWarnedOfAndAFailedRunLeavesNoNewKey() throws {
        let export = try write(Self.document(days: 1), "export.xml")
        let key = folder.appendingPathComponent("shared.key").path
        #expect(try healthport("convert", export, "-q", "--deidentify", key).status == 0)
        chmod(key, 0o644)
        let warned = try healthport("convert", export, "--deidentify", key)
        #expect(warned.status == 0)
        #expect(warned.stderrText.contains("shared.key") && warned.stderrText.contains("chmod 600"), "\(warned.stderrText)")
        chmod(key, 0o600)
        #expect(!(try healthport("convert", export, "--deidentify", key)).stderrText.contains("chmod"))
        let fresh = folder.appendingPathComponent("fresh.key").path
        let failed = try healthport("convert", folder.appendingPathComponent("missing.xml").path, "-q", "--deidentify", fresh)
        #expect(failed.status == 66, "\(failed.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    /// Anchored changes keep working within a study: what a de-identified consumer is told was
    /// deleted names the objects by the uuids it was given them by, from the store (which judges
    /// a deletion by the object as it was, through the gate) and from two exports (`diff`)
    /// alike; no original uuid is said. The sample's newer export holds 783 objects its older
    /// one lacks: importing the older one with --force deletes them.
    @Test func deletionsNameTheDeidentifiedUUIDs() throws {
        let newer = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let older = Fixtures.sampleData.appendingPathComponent("export-older.zip").path
        // A one-character key file name: Foundation's NSString path functions trap on it.
        let key = "k"
        func uuids(_ result: CommandRunner.Result, _ type: String) -> Set<String> {
            Set(result.stdoutText.split(separator: "\n").compactMap { line -> String? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], object["type"] as? String == type else {
                    return nil
                }
                return (object["uuid"] as? String) ?? ((object["object"] as? [String: Any])?["uuid"] as? String)
            })
        }
        let store = folder.appendingPathComponent("s.sqlite").path
        let anchor = folder.appendingPathComponent("anchor").path
        #expect(try healthport("import", newer, "--store", store, "-q").status == 0)
        let first = try healthport("changes", "--store", store, "--deidentify", key, "--anchor-output", anchor, "-q", in: folder)
        #expect(first.status == 0, "\(first.stderrText)")
        let given = uuids(first, "added")
        // Every object but the clinical records and unknown elements, which are removed whole.
        let manifest = try sampleManifest()
        #expect(given.count > manifest.objectCount - 100 && given.count < manifest.objectCount)
        #expect(try healthport("import", older, "--store", store, "--force", "-q").status == 0)
        let token = try String(contentsOfFile: anchor, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let later = try healthport("changes", "--store", store, "--deidentify", key, "--anchor", token, "-q", in: folder)
        let deleted = uuids(later, "deleted")
        // The older export is the first twelve of the same fourteen days: what it lacks is deleted.
        let olderManifest = ExportGenerator(options: .sample(days: 12)).writeDocument(to: FileHandle(forWritingAtPath: "/dev/null")!)
        #expect(deleted.count == manifest.objectCount - olderManifest.objectCount && deleted.isSubset(of: given))
        let diff = try healthport("diff", newer, older, "--deidentify", key, "-q", in: folder)
        #expect(uuids(diff, "deleted") == deleted)
        let originals = Set(try ndjsonObjects(try healthport("convert", newer, "-q").stdout).compactMap { $0["uuid"] as? String })
        #expect(originals.count == manifest.objectCount && originals.isDisjoint(with: deleted) && originals.isDisjoint(with: given))
    }
}
