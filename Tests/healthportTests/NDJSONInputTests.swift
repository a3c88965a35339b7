import Foundation
import HealthTestSupport
import Testing

/// healthport's own NDJSON as input: every command that reads an export reads it, by content.
@Suite struct NDJSONInputTests {
    static func ndjsonOfSample() throws -> URL {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("health.ndjson")
        let converted = try healthport("convert", sampleZip, "-q", "--output", file.path)
        #expect(converted.status == 0)
        return file
    }

    @Test func convertingNDJSONGivesTheSameBytesInEveryFormat() throws {
        let file = try Self.ndjsonOfSample()
        #expect(try healthport("convert", file.path).stdout == Data(contentsOf: file))
        #expect(try healthport("convert", "-", stdin: Data(contentsOf: file)).stdout == Data(contentsOf: file))
        for format in ["json"] {
            #expect(try healthport("convert", file.path, "--format", format).stdout
                == (try healthport("convert", sampleZip, "-q", "--format", format)).stdout)
        }
        let csv = try healthport("query", file.path, "--type", "HeartRate", "--format", "csv", "--sort", "quantity:desc", "--limit", "50")
        #expect(csv.stdout == (try healthport("query", sampleZip, "-q", "--type", "HeartRate", "--format", "csv", "--sort", "quantity:desc", "--limit", "50")).stdout)
    }

    @Test func objectsKeepTheirUUIDsThroughAnEditingPipeline() throws {
        let file = try Self.ndjsonOfSample()
        // Nothing changed between an export and its NDJSON.
        let diff = try healthport("diff", sampleZip, file.path, "-q")
        #expect(diff.status == 0)
        #expect(try ndjsonObjects(diff.stdout).filter { ($0["type"] as? String) == "added" || ($0["type"] as? String) == "deleted" }.isEmpty)
        // Drop the header and all step counts, as `jq 'select(…)'` would: the diff names exactly those.
        let lines = String(decoding: try Data(contentsOf: file), as: UTF8.self).split(separator: "\n")
        let kept = lines.dropFirst().filter { !$0.contains("\"sampleType\":\"HKQuantityTypeIdentifierStepCount\"") }
        let steps = lines.count - 1 - kept.count
        #expect(steps > 100)
        let edited = try Fixtures.temporaryDirectory().appendingPathComponent("edited.ndjson")
        try Data((kept.joined(separator: "\n") + "\n").utf8).write(to: edited)
        let editedDiff = try ndjsonObjects(try healthport("diff", file.path, edited.path).stdout)
        let deleted = editedDiff.filter { ($0["type"] as? String) == "deleted" }
        #expect(deleted.count == steps && deleted.allSatisfy { ($0["sampleType"] as? String) == "HKQuantityTypeIdentifierStepCount" })
        #expect(!editedDiff.contains { ($0["type"] as? String) == "added" })
        // And the edited file imports into a store like any export.
        let store = edited.deletingLastPathComponent().appendingPathComponent("health.sqlite").path
        let imported = try healthport("import", edited.path, "--store", store)
        #expect(imported.status == 0)
        #expect(imported.stdoutText.hasPrefix("\(kept.count) objects, \(kept.count) added"))
    }

    @Test func aLineThatIsNotASchemaObjectIsALocatedError() throws {
        let header = #"{"kind":"export","formatVersion":1}"#
        let good = try String(contentsOf: try Self.ndjsonOfSample(), encoding: .utf8).split(separator: "\n")[1]
        let cases: [(String, String)] = [
            ("\(header)\n\(good)\n{\"kind\":\"quantitySample\",\n", "<stdin>:3:26: error: invalid JSON"),
            ("\(header)\n\(good)\n{\"kind\":\"quantitySample\",\"uuid\":\"x\"}\n", "<stdin>:3:1: error: not a healthport object: sampleType: missing"),
            ("\(header)\n{\"kind\":\"spaceship\"}\n", "<stdin>:2:1: error: not a healthport object: unknown kind 'spaceship'"),
            ("\(header)\n\(header)\n", "<stdin>:2:1: error: not a healthport object: a second export header"),
        ]
        for (input, message) in cases {
            let result = try healthport("convert", "-", stdin: Data(input.utf8))
            #expect(result.status == 65, "\(message)")
            #expect(result.stderrText.hasPrefix("healthport: \(message)"), "\(result.stderrText)")
            #expect(result.stderrText.split(separator: "\n").count == 1)
        }
    }
}
