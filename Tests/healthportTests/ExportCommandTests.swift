import Foundation
import HealthTestSupport
import Testing
import ZIPFoundation

/// `convert --format export`: exports written back, as files, archives and streams.
@Suite struct ExportCommandTests {
    static func entries(_ zip: String) throws -> [String: Data] {
        let archive = try Archive(url: URL(fileURLWithPath: zip), accessMode: .read)
        var result: [String: Data] = [:]
        for entry in archive {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            result[entry.path] = data
        }
        return result
    }

    @Test func anUnfilteredArchiveCarriesEverythingAndReadsBackTheSame() throws {
        let directory = try Fixtures.temporaryDirectory()
        let zip = directory.appendingPathComponent("copy.zip").path
        let written = try healthport("convert", sampleZip, "-q", "--format", "export", "--output", zip)
        #expect(written.status == 0, "\(written.stderrText)")
        let mode = try FileManager.default.attributesOfItem(atPath: zip)[.posixPermissions] as! Int
        #expect(mode == 0o600)
        let original = try Self.entries(sampleZip)
        let copy = try Self.entries(zip)
        #expect(Set(copy.keys) == Set(original.keys))
        for (path, data) in original where path != "apple_health_export/export.xml" {
            #expect(copy[path] == data, "\(path)")
        }
        // The same objects, uuids included, as NDJSON shows them.
        #expect(try healthport("convert", zip, "-q").stdout == (try healthport("convert", sampleZip, "-q")).stdout)
        #expect(try healthport("routes", zip, "-q").stdout == (try healthport("routes", sampleZip, "-q")).stdout)
        #expect(try healthport("ecg", zip, "-q").stdout == (try healthport("ecg", sampleZip, "-q")).stdout)
        // Nothing left behind but the archive.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["copy.zip"])
    }

    @Test func aPolicyFilteredArchiveHoldsNothingThePolicyDenies() throws {
        let directory = try Fixtures.temporaryDirectory()
        let policy = directory.appendingPathComponent("study.json").path
        try Data(#"{"version": 1, "consumer": {"name": "Study"}, "read": {"StepCount": "granted", "Workout": "granted"}}"#.utf8)
            .write(to: URL(fileURLWithPath: policy))
        let zip = directory.appendingPathComponent("study.zip").path
        let written = try healthport("convert", sampleZip, "--policy", policy, "--format", "export", "--output", zip)
        #expect(written.status == 0, "\(written.stderrText)")
        let entries = try Self.entries(zip)
        // Routes need their own type (HealthKit: HKSeriesType.workoutRoute()), not granted here;
        // no ECG, clinical record or CDA document either.
        #expect(!entries.keys.contains { $0.contains("workout-routes/") })
        #expect(!entries.keys.contains { $0.contains("electrocardiograms/") || $0.contains("clinical-records/") || $0.contains("export_cda") })
        let xml = String(decoding: entries["apple_health_export/export.xml"]!, as: UTF8.self)
        #expect(!xml.contains("HKCharacteristicTypeIdentifierDateOfBirth=\"1"))
        // Read back: only the granted types.
        let objects = try ndjsonObjects(try healthport("convert", zip, "-q").stdout).dropFirst()
        let types = Set(objects.compactMap { $0["sampleType"] as? String })
        #expect(types == ["HKQuantityTypeIdentifierStepCount", "HKWorkoutTypeIdentifier"])
        // Granting routes carries the route files of the workouts it may read.
        let withRoutes = directory.appendingPathComponent("routes.json").path
        try Data(#"{"version": 1, "consumer": {"name": "Study"}, "read": {"Workout": "granted", "HKWorkoutRouteTypeIdentifier": "granted"}}"#.utf8)
            .write(to: URL(fileURLWithPath: withRoutes))
        let routesZip = directory.appendingPathComponent("routes.zip").path
        #expect(try healthport("convert", sampleZip, "--policy", withRoutes, "--format", "export", "--output", routesZip).status == 0)
        #expect(try Self.entries(routesZip).keys.filter { $0.contains("workout-routes/") }.count == (try sampleManifest()).routeFiles.count)
        let manifest = try sampleManifest()
        #expect(objects.count == (manifest.objectsByType["HKQuantityTypeIdentifierStepCount"] ?? 0) + (manifest.objectsByType["HKWorkoutTypeIdentifier"] ?? 0))
    }

    /// Issue 36 (4): an archive for a consumer granted ECGs carries each ECG file without the
    /// person's name, and without the date of birth unless that is granted too; the voltages
    /// and the recording's own fields are as Apple wrote them.
    @Test func ecgFilesInAnArchiveLoseTheNameAndTheDateOfBirthTheConsumerMayNotSee() throws {
        let directory = try Fixtures.temporaryDirectory()
        let original = try #require(Self.entries(sampleZip).first { $0.key.contains("electrocardiograms/") })
        let originalText = String(decoding: original.value, as: UTF8.self)
        #expect(originalText.contains("Name,") && originalText.contains("Date of Birth,"), "the fixture has both")
        // What must remain, computed here from the original: every line but those two.
        let lines = originalText.components(separatedBy: "\n")
        let withoutName = lines.filter { !$0.hasPrefix("Name,") }.joined(separator: "\n")
        let withoutBoth = lines.filter { !$0.hasPrefix("Name,") && !$0.hasPrefix("Date of Birth,") }.joined(separator: "\n")
        func ecgFile(policy read: String) throws -> String {
            let policy = directory.appendingPathComponent("policy-\(read.count).json").path
            try Data(#"{"version": 1, "consumer": {"name": "Cardiology"}, "read": {\#(read)}}"#.utf8).write(to: URL(fileURLWithPath: policy))
            let zip = directory.appendingPathComponent("ecg-\(read.count).zip").path
            let written = try healthport("convert", sampleZip, "--policy", policy, "--format", "export", "--output", zip, "-q")
            #expect(written.status == 0, "\(written.stderrText)")
            let data = try #require(try Self.entries(zip)[original.key])
            return String(decoding: data, as: UTF8.self)
        }
        #expect(try ecgFile(policy: #""Electrocardiogram": "granted""#) == withoutBoth)
        #expect(try ecgFile(policy: #""Electrocardiogram": "granted", "DateOfBirth": "granted""#) == withoutName)
        // The owner, without a type filter, gets Apple's file; with one that leaves the date of
        // birth out, neither line.
        let owner = directory.appendingPathComponent("owner.zip").path
        #expect(try healthport("convert", sampleZip, "--type", "Electrocardiogram", "--format", "export", "--output", owner, "-q").status == 0)
        #expect(String(decoding: try #require(try Self.entries(owner)[original.key]), as: UTF8.self) == withoutBoth)
        // healthport ecg reads the carried file as it reads the original.
        #expect(try healthport("ecg", owner, "-q").stdout == (try healthport("ecg", sampleZip, "-q")).stdout)
    }

    /// Issue 36 (5): characteristics are HealthKit types: a type filter that does not name
    /// them leaves them out of every format (the date of birth, sex and blood type went into
    /// `doctor.zip` with `--type StepCount,SleepAnalysis`); naming one keeps that one.
    @Test func aTypeFilterThatDoesNotNameTheCharacteristicsLeavesThemOut() throws {
        let directory = try Fixtures.temporaryDirectory()
        let zip = directory.appendingPathComponent("doctor.zip").path
        #expect(try healthport("convert", sampleZip, "--type", "StepCount,SleepAnalysis", "--format", "export", "--output", zip, "-q").status == 0)
        let xml = String(decoding: try #require(try Self.entries(zip)["apple_health_export/export.xml"]), as: UTF8.self)
        // `Me` stays (the DTD requires it), every characteristic unset.
        #expect(xml.contains(#"<Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="" HKCharacteristicTypeIdentifierBloodType="""#))
        #expect(!xml.contains("1985-06-15"))
        let unfiltered = try healthport("convert", sampleZip, "-q", "--format", "export")
        #expect(unfiltered.stdoutText.contains("HKCharacteristicTypeIdentifierDateOfBirth=\"1985-06-15\""), "the sample has them")
        for format in ["ndjson", "json", "export"] {
            let out = try healthport("convert", sampleZip, "--type", "StepCount", "--format", format, "-q")
            #expect(out.status == 0)
            #expect(!out.stdoutText.contains("1985-06-15"), "\(format)")
            #expect(!out.stdoutText.contains("characteristics"), "\(format)")
        }
        let csv = directory.appendingPathComponent("csv")
        #expect(try healthport("convert", sampleZip, "--type", "StepCount", "--format", "csv", "--output", csv.path, "-q").status == 0)
        #expect(!(try String(contentsOf: csv.appendingPathComponent("export.csv"), encoding: .utf8)).contains("1985-06-15"))
        // Named, it stays, alone.
        let named = try healthport("convert", sampleZip, "--type", "StepCount,DateOfBirth", "--format", "export", "-q")
        #expect(named.stdoutText.contains("HKCharacteristicTypeIdentifierDateOfBirth=\"1985-06-15\""))
        #expect(!named.stdoutText.contains("HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSex"))
        let header = try #require(try ndjsonObjects(try healthport("convert", sampleZip, "--type", "StepCount,DateOfBirth", "-q").stdout).first)
        #expect((header["characteristics"] as? [String: Any])?.keys.sorted() == ["dateOfBirth"])
    }

    @Test func filteredBareXMLStreamsAndEditedNDJSONBecomesAnExport() throws {
        let directory = try Fixtures.temporaryDirectory()
        // A bare export.xml of one type and window, to standard output.
        let heart = try healthport("convert", sampleZip, "-q", "--format", "export", "--type", "HeartRate", "--start", "2024-01-03", "--end", "2024-01-04")
        #expect(heart.status == 0)
        let text = heart.stdoutText
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n<!-- HealthKit Export Version: 14 -->"))
        #expect(text.hasSuffix("</HealthData>\n"))
        let hr = try healthport("convert", "-", "-q", stdin: heart.stdout)
        let expected = try healthport("convert", sampleZip, "-q", "--type", "HeartRate", "--start", "2024-01-03", "--end", "2024-01-04")
        #expect(hr.stdout == expected.stdout)
        // NDJSON edited with a filter, written back as an archive.
        let ndjson = try healthport("convert", sampleZip, "-q").stdoutText.split(separator: "\n")
        let kept = ndjson.filter { !$0.contains("\"kind\":\"workout\"") }
        let edited = directory.appendingPathComponent("edited.ndjson")
        try Data((kept.joined(separator: "\n") + "\n").utf8).write(to: edited)
        let zip = directory.appendingPathComponent("edited.zip").path
        #expect(try healthport("convert", edited.path, "--format", "export", "--output", zip).status == 0)
        let entries = try Self.entries(zip)
        #expect(!entries.keys.contains { $0.contains("workout-routes/") })
        #expect(try healthport("convert", zip, "-q").stdoutText.split(separator: "\n") == kept)
    }

    @Test func queryWritesSortedExportsAndChangesRefuseTheFormat() throws {
        let sorted = try healthport("query", sampleZip, "-q", "--type", "BodyMass", "--sort", "quantity:desc", "--limit", "3", "--format", "export")
        #expect(sorted.status == 0)
        let values = try ndjsonObjects(try healthport("convert", "-", "-q", stdin: sorted.stdout).stdout).dropFirst()
            .compactMap { ($0["quantity"] as? [String: Any])?["value"] as? Double }
        #expect(values.count == 3 && values == values.sorted(by: >))
        let zip = try healthport("query", sampleZip, "-q", "--format", "export", "--output", "/tmp/healthport-never.zip")
        #expect(zip.status == 64 && !FileManager.default.fileExists(atPath: "/tmp/healthport-never.zip"))
        let changes = try healthport("changes", sampleZip, "-q", "--format", "export")
        #expect(changes.status == 64 && changes.stderrText.contains("--format export"))
    }
}
