import Foundation
import HealthTestSupport
import Testing

/// `--diagnostics json` (healthport(1), DIAGNOSTICS): every line of standard error is one JSON
/// object, and its fields say what the text form says, so a program (the Python package, the
/// Spark job) reads fields, never wording. Each test runs the command both ways and checks the
/// JSON against the text line the same failure prints, or against what the test itself built.
@Suite struct DiagnosticsJSONTests {
    /// Every line of standard error as a JSON object; a line that is not one fails the test.
    static func records(_ result: CommandRunner.Result) throws -> [[String: Any]] {
        try result.stderrText.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    @Test func aBadPredicateIsItsArgumentAndColumn() throws {
        let predicate = "quantity >= AND x"
        let json = try healthport("query", sampleZip, "--where", predicate, "--diagnostics", "json")
        let text = try healthport("query", sampleZip, "--where", predicate)
        #expect(json.status == 64 && text.status == 64)
        let records = try Self.records(json)
        #expect(records.count == 1)
        let error = try #require(records.first)
        #expect(error["type"] as? String == "error")
        #expect(error["category"] as? String == "invalidRequest")
        #expect(error["status"] as? Int == 64)
        #expect(error["argument"] as? String == "predicate")
        #expect(error["option"] as? String == "--where")
        #expect(error["healthKitCode"] as? String == "errorInvalidArgument")
        #expect(error["healthKitCodeValue"] as? Int == 3)
        #expect(error["location"] == nil)
        // The column the text form prints after `--where:1:`, and its context lines.
        let lines = text.stderrText.split(separator: "\n").map(String.init)
        let first = try #require(lines.first)
        let prefix = "healthport: --where:1:"
        #expect(first.hasPrefix(prefix))
        let column = Int(first.dropFirst(prefix.count).prefix { $0.isNumber })
        #expect(column != nil && error["column"] as? Int == column)
        #expect(first.hasSuffix("error: " + (error["message"] as? String ?? "?")))
        #expect(error["context"] as? [String] == Array(lines.dropFirst()))
        // The caret sits under the column: counted by hand from the predicate as typed.
        let caret = try #require((error["context"] as? [String])?.last)
        let predicateLine = try #require((error["context"] as? [String])?.first)
        let offset = predicateLine.distance(from: predicateLine.startIndex, to: try #require(predicateLine.range(of: predicate)).lowerBound)
        #expect(caret.firstIndex(of: "^").map { caret.distance(from: caret.startIndex, to: $0) } == offset + "quantity >= ".count)
    }

    @Test func aMalformedExportIsItsFileLineAndColumn() throws {
        // A folder whose name looks like a line and a column: the file is still the whole path.
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("x:7:9")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("export.xml").path
        // The bad date is on line 3; its attribute value starts after `startDate="`.
        let record = #"<Record type="HKQuantityTypeIdentifierStepCount" unit="count" value="1" startDate="not a date"/>"#
        try ("<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n" + record + "\n</HealthData>\n").write(toFile: path, atomically: true, encoding: .utf8)
        let json = try healthport("convert", path, "--diagnostics", "json")
        let text = try healthport("convert", path)
        #expect(json.status == 65 && text.status == 65)
        let error = try #require(try Self.records(json).last)
        #expect(error["category"] as? String == "malformedInput")
        #expect(error["status"] as? Int == 65)
        let location = try #require(error["location"] as? [String: Any])
        #expect(location["file"] as? String == path)
        #expect(location["line"] as? Int == 3)
        let column = try #require(location["column"] as? Int)
        #expect(text.stderrText.hasPrefix("healthport: \(path):3:\(column): error: \(error["message"] as? String ?? "?")"))
    }

    @Test func warningsAndProgressAreRecordsToo() throws {
        let json = try healthport("convert", sampleZip, "--progress", "--diagnostics", "json", "--output",
            try Fixtures.temporaryDirectory().appendingPathComponent("out.ndjson").path)
        #expect(json.status == 0)
        let records = try Self.records(json)
        let progress = records.filter { $0["type"] as? String == "progress" }
        let objects = progress.compactMap { $0["objects"] as? Int }
        #expect(objects.count == progress.count)
        #expect(objects == objects.sorted())
        let total = try #require(FileManager.default.attributesOfItem(atPath: sampleZip)[.size] as? Int)
        // The document inside the zip is larger than the zip; every report is within it.
        for report in progress {
            let read = try #require(report["bytesRead"] as? Int)
            let of = try #require(report["totalBytes"] as? Int)
            #expect(read <= of && of >= total)
        }
        // The sample carries a type unknown to healthport: one warning, at its first place.
        let warnings = records.filter { $0["type"] as? String == "warning" }
        #expect(!warnings.isEmpty)
        let text = try healthport("convert", sampleZip, "--output",
            try Fixtures.temporaryDirectory().appendingPathComponent("out.ndjson").path)
        // Each is a line of the text form: at its place, or (a count of repeats) at none.
        #expect(warnings.contains { $0["location"] != nil })
        for warning in warnings {
            let message = warning["message"] as? String ?? "?"
            if let location = warning["location"] as? [String: Any] {
                let place = ([location["file"] as? String ?? "?"] + [location["line"], location["column"]].compactMap { ($0 as? Int).map(String.init) })
                    .joined(separator: ":")
                #expect(text.stderrText.contains("healthport: \(place): warning: \(message)"))
            } else {
                #expect(text.stderrText.contains("healthport: warning: \(message)"))
            }
        }
        // Without --progress, a program gets no progress records, terminal or not.
        let quiet = try healthport("convert", sampleZip, "--diagnostics", "json", "-q", "--output",
            try Fixtures.temporaryDirectory().appendingPathComponent("out.ndjson").path)
        #expect(quiet.status == 0 && quiet.stderrText.isEmpty)
    }

    @Test func anUnknownOptionIsOneRecordWithTheUsageAsContext() throws {
        let json = try healthport("convert", sampleZip, "--no-such-option", "--diagnostics", "json")
        #expect(json.status == 64)
        let records = try Self.records(json)
        #expect(records.count == 1)
        #expect(records.first?["message"] as? String == "unknown option '--no-such-option'")
        #expect(records.first?["category"] as? String == "invalidRequest")
        #expect((records.first?["context"] as? [String])?.contains { $0.hasPrefix("Usage: healthport convert") } == true)
        // `--diagnostics=json` is read the same way, and the last one given wins.
        #expect(try Self.records(try healthport("convert", "--no-such-option", "--diagnostics=json")).count == 1)
        #expect(try healthport("convert", "--no-such-option", "--diagnostics", "json", "--diagnostics", "text").stderrText.hasPrefix("Error: "))
    }

    @Test func aMissingExportAndABadPolicyAreTheirCategories() throws {
        let missing = try healthport("convert", "no-such-export.zip", "--diagnostics", "json")
        #expect(missing.status == 66)
        let noInput = try #require(try Self.records(missing).first)
        #expect(noInput["category"] as? String == "inputNotFound")
        #expect((noInput["location"] as? [String: Any])?["file"] as? String == "no-such-export.zip")
        let folder = try Fixtures.temporaryDirectory()
        let policy = folder.appendingPathComponent("policy.json").path
        try "{not json".write(toFile: policy, atomically: true, encoding: .utf8)
        let auth = try healthport("auth", "status", "--policy", policy, "StepCount", "--diagnostics", "json")
        #expect(auth.status == 78)
        let records = try Self.records(auth)
        #expect(records.count == 1)
        #expect(records.first?["category"] as? String == "invalidConfiguration")
        #expect(records.first?["argument"] as? String == "policyFile")
    }

    /// A batch goes on past a broken export: that input's failure is an error record at its
    /// file, with its category and status, and the batch ends with one that has the category and
    /// status it exits with.
    @Test func aBatchsFailuresAreRecordsAndTheLastHasTheStatus() throws {
        let folder = try Fixtures.temporaryDirectory()
        let broken = folder.appendingPathComponent("broken.zip").path
        try Data("PK\u{03}\u{04}not a zip".utf8).write(to: URL(fileURLWithPath: broken))
        let lake = folder.appendingPathComponent("lake").path
        let result = try healthport(
            "convert", sampleZip, broken, "--format", "csv", "--partition", "person,type", "--output", lake, "-q", "--diagnostics", "json")
        #expect(result.status == 65)
        let errors = try Self.records(result).filter { $0["type"] as? String == "error" }
        #expect(errors.count == 2)
        #expect((errors.first?["location"] as? [String: Any])?["file"] as? String == broken)
        // The input's own failure carries its error's fields too, not only its words.
        #expect(errors.first?["category"] as? String == "malformedInput", "\(errors)")
        #expect(errors.first?["status"] as? Int == 65)
        #expect(errors.last?["category"] as? String == "malformedInput")
        #expect(errors.last?["status"] as? Int == 65)
        #expect((errors.last?["message"] as? String)?.hasPrefix("1 of 2 exports failed") == true)
    }

    /// A per-object request with nothing to offer says so as a note record, not as a text line.
    @Test func anEmptyOfferIsANoteRecord() throws {
        let folder = try Fixtures.temporaryDirectory()
        let policy = folder.appendingPathComponent("policy.json").path
        try #"{"version": 1, "consumer": {"name": "Optician"}}"#.write(toFile: policy, atomically: true, encoding: .utf8)
        let export = folder.appendingPathComponent("export.xml").path
        try "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n</HealthData>\n".write(toFile: export, atomically: true, encoding: .utf8)
        let result = try healthport(
            "auth", "request-per-object", "--policy", policy, export, "--type", "VisionPrescription", "--grant", "--diagnostics", "json")
        #expect(result.status == 0)
        let records = try Self.records(result)
        #expect(records.count == 1)
        #expect(records.first?["type"] as? String == "note")
        #expect(records.first?["message"] as? String == "no VisionPrescription objects to offer")
    }

    @Test func aNameWithControlCharactersStaysOneLine() throws {
        let name = "export\u{1B}]0;title\u{07}\nsecond line.zip"
        let json = try healthport("convert", name, "--diagnostics", "json")
        #expect(json.status == 66)
        let records = try Self.records(json)
        #expect(records.count == 1)
        #expect((records.first?["location"] as? [String: Any])?["file"] as? String == name)
        #expect(!json.stderr.contains(0x1B) && !json.stderr.contains(0x07))
    }
}
