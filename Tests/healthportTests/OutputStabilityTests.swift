import Crypto
import Foundation
import HealthTestSupport
import Testing

/// Speed work must not change a byte: every conversion below is checked against the SHA-256 of
/// the output healthport gave before the optimisations of issue 11 (recorded in
/// `Tests/Fixtures/output-digests.tsv`), on every real sample and on generated exports, in every
/// format, read sequentially and in parallel.
///
/// A deliberate change of output re-records the file:
/// `HEALTHPORT_RECORD_OUTPUT_DIGESTS=1 swift test --filter OutputStabilityTests` — and the diff of
/// that file then shows in review which conversions changed.
@Suite(.serialized) struct OutputStabilityTests {
    static let digestFile = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/output-digests.tsv")
    static var recording: Bool { ProcessInfo.processInfo.environment["HEALTHPORT_RECORD_OUTPUT_DIGESTS"] == "1" }

    /// The inputs: every export document and archive among the real samples, healthport's own
    /// sample archive, and generated exports of three seeds (one with iOS 16's broken DTD, all
    /// with bytes XML forbids, two with exact duplicates across a long run).
    static func inputs(in directory: URL) throws -> [(name: String, path: String)] {
        var inputs: [(String, String)] = []
        // The real exports of ../shared/samples, when they are here.
        let samples = Fixtures.samples
        let relative = Fixtures.sampleFiles(endingWith: [".xml", ".zip"])
        for item in relative.sorted() { inputs.append(("samples/" + item, samples.appendingPathComponent(item).path)) }
        inputs.append(("SampleData/export.zip", Fixtures.sampleData.appendingPathComponent("export.zip").path))
        for seed in [UInt64(1), 2, 3] {
            var options = ExportGenerator.Options()
            options.seed = seed
            options.days = 40
            options.brokenDTD = seed == 3
            options.density = seed == 2 ? 2 : 1
            let path = directory.appendingPathComponent("generated-\(seed).xml").path
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            _ = ExportGenerator(options: options).writeDocument(to: handle)
            try handle.close()
            inputs.append(("generated seed \(seed)", path))
        }
        return inputs
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The digest of one conversion: exit status, then stdout (or the CSV folder's files, by
    /// name). Standard error is left out: it names temporary paths.
    static func digest(
        _ input: String, format: String, extra: [String], scratch: URL, environment: [String: String] = [:]
    ) throws -> String {
        var hasher = SHA256()
        if format == "csv" {
            let folder = scratch.appendingPathComponent("csv-\(UUID().uuidString)")
            let result = try CommandRunner.run(
                healthportBinary, ["convert", input, "-q", "--format", "csv", "--output", folder.path] + extra, environment: environment)
            hasher.update(data: Data("status \(result.status)\n".utf8))
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            for name in names {
                hasher.update(data: Data("\(name)\n".utf8))
                hasher.update(data: try Data(contentsOf: folder.appendingPathComponent(name)))
            }
            try? FileManager.default.removeItem(at: folder)
        } else {
            let result = try CommandRunner.run(
                healthportBinary, ["convert", input, "-q", "--format", format] + extra, environment: environment)
            hasher.update(data: Data("status \(result.status)\n".utf8))
            hasher.update(data: result.stdout)
        }
        return hex(hasher.finalize())
    }

    static let formats = ["ndjson", "json", "csv", "export"]

    @Test func everyFormatGivesTheBytesItGaveBeforeTheSpeedWork() throws {
        let scratch = try Fixtures.temporaryDirectory()
        var recorded: [String: String] = [:]
        if !Self.recording {
            let text = try String(contentsOf: Self.digestFile, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                if fields.count == 3 { recorded["\(fields[0])\t\(fields[1])"] = String(fields[2]) }
            }
        }
        var lines = ["# input\tformat\tsha256 of the exit status and output (OutputStabilityTests)"]
        var checked = 0
        for (name, path) in try Self.inputs(in: scratch) {
            for format in Self.formats {
                let key = "\(name)\t\(format)"
                let sequential = try Self.digest(path, format: format, extra: ["--jobs", "1"], scratch: scratch)
                lines.append("\(key)\t\(sequential)")
                if Self.recording { continue }
                #expect(recorded[key] != nil, "no recorded digest for \(key)")
                #expect(sequential == recorded[key], "\(key) changed")
                // Both cores, with chunks small enough that every input is cut into many (some
                // cuts fall between exact duplicates, which a chunk cannot number alone): the
                // same bytes.
                for chunkBytes in ["4096", "65536"] {
                    let parallel = try Self.digest(
                        path, format: format, extra: ["--jobs", "2"], scratch: scratch,
                        environment: ["HEALTHPORT_PARALLEL_CHUNK_BYTES": chunkBytes])
                    #expect(parallel == sequential, "\(key) differs with --jobs 2 and \(chunkBytes)-byte chunks")
                }
                checked += 1
            }
        }
        if Self.recording {
            try (lines.joined(separator: "\n") + "\n").write(to: Self.digestFile, atomically: true, encoding: .utf8)
        } else {
            // Without ../shared, the real samples' digests are not checked (the test says so).
            let expected = recorded.keys.filter { Fixtures.hasSamples || !$0.hasPrefix("samples/") }.count
            #expect(checked == expected, "inputs were added or removed: re-record the digests")
            if !Fixtures.hasSamples { print("OutputStabilityTests: ../shared/samples is absent: the real exports' digests were skipped") }
        }
    }
}
