import Crypto
import Foundation
import HealthTestSupport
import Testing

/// `convert --partition`: many exports into Hive-style partitions, with a manifest, resumable.
@Suite struct BatchCommandTests {
    struct Manifest: Decodable {
        struct Output: Decodable {
            var path: String
            var rows: Int
            var bytes: Int64
            var sha256: String
        }
        struct Input: Decodable {
            var input: String
            var person: String
            var status: String
            var error: String?
            var objects: Int
            var outputs: [Output]
        }
        var format: String
        var partition: [String]
        var inputs: [Input]
    }

    static func manifest(_ lake: URL) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: lake.appendingPathComponent("_manifest.json")))
    }

    /// alice and bob (the two sample exports), and carol, who is not an export.
    static func exports() throws -> URL {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sampleZip, toPath: folder.appendingPathComponent("alice.zip").path)
        try FileManager.default.copyItem(
            atPath: Fixtures.sampleData.appendingPathComponent("export-older.zip").path, toPath: folder.appendingPathComponent("bob.zip").path)
        try Data("not a zip".utf8).write(to: folder.appendingPathComponent("carol.zip"))
        return folder
    }

    static func hidden(_ lake: URL) -> [String] {
        (FileManager.default.enumerator(atPath: lake.path)?.allObjects as? [String] ?? []).filter { $0.contains(".healthport") }
    }

    @Test func aBatchWritesPartitionsAManifestAndReportsTheBadExport() throws {
        let exports = try Self.exports()
        let lake = exports.deletingLastPathComponent().appendingPathComponent("lake")
        let inputs = ["alice", "bob", "carol"].map { exports.appendingPathComponent("\($0).zip").path }
        let result = try CommandRunner.run(
            healthportBinary, ["convert"] + inputs + ["--format", "csv", "--partition", "person,type", "--output", lake.path, "--jobs", "2"])
        #expect(result.status == 65)
        #expect(result.stderrText.contains("carol.zip: error: not an Apple Health export"))
        #expect(result.stderrText.contains("1 of 3 exports failed"))
        let manifest = try Self.manifest(lake)
        #expect(manifest.format == "csv" && manifest.partition == ["person", "type"])
        let byPerson = Dictionary(uniqueKeysWithValues: manifest.inputs.map { ($0.person, $0) })
        #expect(byPerson["carol"]?.status == "failed" && byPerson["carol"]?.outputs.isEmpty == true)
        let sample = try sampleManifest()
        #expect(byPerson["alice"]?.status == "complete" && byPerson["alice"]?.objects == sample.objectCount)
        // Every output is where the manifest says, with its size, rows and checksum.
        for input in manifest.inputs {
            for output in input.outputs {
                let data = try Data(contentsOf: lake.appendingPathComponent(output.path))
                #expect(Int64(data.count) == output.bytes)
                #expect(SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() == output.sha256)
                #expect(output.path.hasPrefix("person=\(input.person)/type="))
            }
        }
        let heart = try #require(byPerson["alice"]?.outputs.first { $0.path == "person=alice/type=HeartRate/part-0.csv" })
        #expect(heart.rows == sample.objectsByType["HKQuantityTypeIdentifierHeartRate"])
        // The partition holds exactly what a plain conversion of that export writes.
        let plain = exports.deletingLastPathComponent().appendingPathComponent("plain")
        #expect(try healthport("convert", inputs[0], "-q", "--format", "csv", "--output", plain.path).status == 0)
        #expect(try Data(contentsOf: lake.appendingPathComponent(heart.path)) == Data(contentsOf: plain.appendingPathComponent("HeartRate.csv")))
        #expect(Self.hidden(lake).isEmpty)
        let mode = try FileManager.default.attributesOfItem(atPath: lake.appendingPathComponent(heart.path).path)[.posixPermissions] as! Int
        #expect(mode == 0o600)
    }

    @Test func resumeSkipsWhatIsCompleteAndRedoesWhatFailedOrChanged() throws {
        let exports = try Self.exports()
        let lake = exports.deletingLastPathComponent().appendingPathComponent("lake")
        let inputs = ["alice", "bob", "carol"].map { exports.appendingPathComponent("\($0).zip").path }
        let arguments = ["convert"] + inputs + ["--format", "ndjson", "--partition", "type", "--output", lake.path, "--resume"]
        #expect(try CommandRunner.run(healthportBinary, arguments).status == 65)
        let alicePart = lake.appendingPathComponent("type=HeartRate/part-alice.ndjson")
        let before = try FileManager.default.attributesOfItem(atPath: alicePart.path)[.modificationDate] as! Date
        // carol's export arrives; bob's is replaced by a newer one.
        try FileManager.default.removeItem(atPath: inputs[2])
        try FileManager.default.copyItem(atPath: sampleZip, toPath: inputs[2])
        try FileManager.default.removeItem(atPath: inputs[1])
        try FileManager.default.copyItem(atPath: sampleZip, toPath: inputs[1])
        let again = try CommandRunner.run(healthportBinary, arguments)
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(again.stderrText.contains("alice.zip: already converted"))
        #expect(!again.stderrText.contains("bob.zip: already converted") && !again.stderrText.contains("carol.zip: already converted"))
        #expect(try FileManager.default.attributesOfItem(atPath: alicePart.path)[.modificationDate] as! Date == before)
        let manifest = try Self.manifest(lake)
        #expect(manifest.inputs.allSatisfy { $0.status == "complete" } && manifest.inputs.count == 3)
        // Type-only partitions: one file per person, object lines only, the type's objects.
        let lines = try String(contentsOf: alicePart, encoding: .utf8).split(separator: "\n")
        let expected = try healthport("convert", sampleZip, "-q", "--type", "HeartRate").stdoutText.split(separator: "\n").dropFirst()
        #expect(lines == Array(expected))
        #expect(try FileManager.default.contentsOfDirectory(atPath: lake.appendingPathComponent("type=HeartRate").path).sorted()
            == ["part-alice.ndjson", "part-bob.ndjson", "part-carol.ndjson"])
        // Resuming with other filters would mix conversions: refused.
        let other = try CommandRunner.run(healthportBinary, arguments + ["--type", "StepCount"])
        #expect(other.status == 64 && other.stderrText.contains("use a new folder"))
        #expect(Self.hidden(lake).isEmpty)
    }

    @Test func aKilledBatchResumesWhereItStopped() throws {
        let exports = try Self.exports()
        try FileManager.default.removeItem(atPath: exports.appendingPathComponent("carol.zip").path)
        for name in ["dan", "eve", "fay"] {
            try FileManager.default.copyItem(atPath: sampleZip, toPath: exports.appendingPathComponent("\(name).zip").path)
        }
        let inputs = ["alice", "bob", "dan", "eve", "fay"].map { exports.appendingPathComponent("\($0).zip").path }
        let lake = exports.deletingLastPathComponent().appendingPathComponent("lake")
        let arguments = ["convert"] + inputs + ["-q", "--format", "csv", "--partition", "person,type", "--output", lake.path, "--jobs", "1", "--resume"]
        let process = Process()
        process.executableURL = healthportBinary
        process.arguments = arguments
        try process.run()
        // Killed once the first export is recorded.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, (try? Self.manifest(lake))?.inputs.isEmpty ?? true { usleep(2000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let partial = try Self.manifest(lake)
        #expect(partial.inputs.count < 5 && partial.inputs.allSatisfy { $0.status == "complete" })
        let resumed = try CommandRunner.run(healthportBinary, arguments.filter { $0 != "-q" })
        #expect(resumed.status == 0, "\(resumed.stderrText)")
        #expect(resumed.stderrText.components(separatedBy: "already converted").count - 1 >= partial.inputs.count)
        let manifest = try Self.manifest(lake)
        #expect(manifest.inputs.count == 5 && manifest.inputs.allSatisfy { $0.status == "complete" })
        // Same files as a batch that was never interrupted.
        let clean = lake.deletingLastPathComponent().appendingPathComponent("clean")
        let cleanArguments = ["convert"] + inputs + ["-q", "--format", "csv", "--partition", "person,type", "--output", clean.path]
        #expect(try CommandRunner.run(healthportBinary, cleanArguments).status == 0)
        let cleanManifest = try Self.manifest(clean)
        func checksums(_ m: Manifest) -> [String: String] {
            Dictionary(uniqueKeysWithValues: m.inputs.flatMap { $0.outputs.map { ($0.path, $0.sha256) } })
        }
        #expect(checksums(manifest) == checksums(cleanManifest))
        #expect(Self.hidden(lake).isEmpty)
    }

    /// Under a policy the manifest counts only what was written: the size of what the policy
    /// hides never leaves.
    @Test func underAPolicyTheManifestCountsOnlyWhatWasWritten() throws {
        let exports = try Self.exports()
        let root = exports.deletingLastPathComponent()
        let policy = root.appendingPathComponent("policy.json")
        try Data(#"{"version": 1, "consumer": {"name": "Steps"}, "read": {"StepCount": "granted"}}"#.utf8).write(to: policy)
        let lake = root.appendingPathComponent("lake")
        let result = try healthport(
            "convert", exports.appendingPathComponent("alice.zip").path, "--partition", "person,type", "--format", "ndjson",
            "--policy", policy.path, "--output", lake.path)
        #expect(result.status == 0, "\(result.stderrText)")
        let manifest = try Self.manifest(lake)
        let steps = try sampleManifest().objectsByType["HKQuantityTypeIdentifierStepCount"]
        #expect(manifest.inputs.first?.objects == steps)
        #expect(manifest.inputs.first?.outputs.map(\.path) == ["person=alice/type=StepCount/part-0.ndjson"])
    }

    @Test func personKeysComeFromFileNamesOrAMappingAndMustBeDistinct() throws {
        let exports = try Self.exports()
        let root = exports.deletingLastPathComponent()
        let mapping = root.appendingPathComponent("persons.csv")
        try Data("input,person\nalice.zip,P001\n\(exports.path)/bob.zip,P002\n".utf8).write(to: mapping)
        let lake = root.appendingPathComponent("lake")
        let mapped = try healthport(
            "convert", exports.appendingPathComponent("alice.zip").path, exports.appendingPathComponent("bob.zip").path, "-q",
            "--format", "csv", "--partition", "person,type", "--person-id", mapping.path, "--output", lake.path)
        #expect(mapped.status == 0, "\(mapped.stderrText)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: lake.path)) == ["_manifest.json", "person=P001", "person=P002"])
        // Two exports with one person key.
        let twin = root.appendingPathComponent("twin")
        try FileManager.default.createDirectory(at: twin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sampleZip, toPath: twin.appendingPathComponent("alice.zip").path)
        let clash = try healthport(
            "convert", exports.appendingPathComponent("alice.zip").path, twin.appendingPathComponent("alice.zip").path,
            "--partition", "person,type", "--format", "csv", "--output", root.appendingPathComponent("lake2").path)
        #expect(clash.status == 64 && clash.stderrText.contains("both give person 'alice'"))
        // Usage errors.
        let csvWithoutType = try healthport("convert", sampleZip, "--partition", "person", "--format", "csv", "--output", root.appendingPathComponent("x").path)
        #expect(csvWithoutType.status == 64)
        #expect(try healthport("convert", sampleZip, sampleZip).status == 64)
        #expect(try healthport("convert", sampleZip, "--resume").status == 64)
        #expect(try healthport("convert", sampleZip, "--jobs", "0").status == 64)
        #expect(try healthport("convert", sampleZip, "--partition", "person,colour", "--output", root.appendingPathComponent("y").path).status == 64)
    }

    /// A lake with summary tables records the rules that made them (`summaryRules` in
    /// `_manifest.json`); resuming it under other rules would put days made two ways side by
    /// side, so it is refused, and a lake made without summaries is not resumed with them.
    @Test func aLakeIsResumedOnlyUnderTheRulesThatMadeItsSummaries() throws {
        let exports = try Self.exports()
        let lake = exports.deletingLastPathComponent().appendingPathComponent("lake")
        let inputs = ["alice", "bob"].map { exports.appendingPathComponent("\($0).zip").path }
        let arguments = ["convert"] + inputs + ["-q", "--format", "csv", "--partition", "person,type", "--output", lake.path, "--summaries", "--tz", "UTC", "--resume"]
        let first = try CommandRunner.run(healthportBinary, arguments)
        #expect(first.status == 0, "\(first.stderrText)")
        let manifestURL = lake.appendingPathComponent("_manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        #expect(manifest["summaryRules"] as? Int == 2)
        #expect(try CommandRunner.run(healthportBinary, arguments).status == 0)

        // The same lake as an older healthport's rules made it.
        manifest["summaryRules"] = 1
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        let older = try CommandRunner.run(healthportBinary, arguments)
        #expect(older.status == 64 && older.stderrText.contains("summary rules"), "\(older.stderrText)")

        // A lake without summary tables records no rules, and is not resumed with them.
        let plain = exports.deletingLastPathComponent().appendingPathComponent("plain")
        let plainArguments = ["convert"] + inputs + ["-q", "--format", "csv", "--partition", "person,type", "--output", plain.path, "--tz", "UTC", "--resume"]
        #expect(try CommandRunner.run(healthportBinary, plainArguments).status == 0)
        let plainManifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: plain.appendingPathComponent("_manifest.json"))) as? [String: Any])
        #expect(plainManifest["summaryRules"] == nil)
        #expect(try CommandRunner.run(healthportBinary, plainArguments + ["--summaries"]).status == 64)
    }
}
