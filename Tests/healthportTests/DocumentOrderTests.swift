import Foundation
import Testing
import HealthTestSupport

/// Identity does not depend on document order: the same export in Apple's grouped order and
/// with its top-level elements shuffled (as another tool's merge or edit would leave it) gives
/// the same uuids, sequentially and in parallel, and `diff` between the two finds nothing.
@Suite struct DocumentOrderTests {
    /// Apple's export and a copy whose top-level elements after `Me` are shuffled.
    static func makePair() throws -> (grouped: URL, shuffled: URL) {
        let root = try Fixtures.temporaryDirectory()
        var options = ExportGenerator.Options()
        options.days = 6
        _ = try ExportGenerator(options: options).writeFolder(at: root.appendingPathComponent("grouped"))
        let grouped = root.appendingPathComponent("grouped/apple_health_export")
        let shuffled = root.appendingPathComponent("shuffled/apple_health_export")
        try FileManager.default.createDirectory(at: shuffled.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: grouped, to: shuffled)
        let document = try String(contentsOf: grouped.appendingPathComponent("export.xml"), encoding: .utf8)
        var head: [String] = []
        var elements: [[String]] = []
        var open: [String]? = nil
        var tail: [String] = []
        var seenMe = false
        for line in document.components(separatedBy: "\n") {
            if var element = open {
                element.append(line)
                if line.hasPrefix(" </") {
                    elements.append(element)
                    open = nil
                } else {
                    open = element
                }
            } else if !seenMe {
                head.append(line)
                if line.hasPrefix(" <Me") {
                    seenMe = true
                    if !line.hasSuffix("/>") { Issue.record("Me with children: adjust the test") }
                }
            } else if line.hasPrefix(" <") {
                if line.hasSuffix("/>") { elements.append([line]) } else { open = [line] }
            } else {
                tail.append(line)
            }
        }
        #expect(elements.count > 500)
        var rng = SplitMix64(seed: 22)
        let mixed = elements.shuffled(using: &rng)
        #expect(mixed.map { $0[0] } != elements.map { $0[0] })
        let text = (head + mixed.flatMap { $0 } + tail).joined(separator: "\n")
        try Data(text.utf8).write(to: shuffled.appendingPathComponent("export.xml"))
        return (grouped, shuffled)
    }

    static func uuids(_ result: CommandRunner.Result) throws -> [String: String] {
        var uuids: [String: String] = [:]
        for object in try ndjsonObjects(result.stdout).dropFirst() {
            let uuid = try #require(object["uuid"] as? String)
            #expect(uuids[uuid] == nil, "uuid \(uuid) twice")
            uuids[uuid] = (object["sampleType"] ?? object["kind"]) as? String
        }
        return uuids
    }

    @Test func shuffledAndGroupedExportsGiveTheSameUUIDs() throws {
        let pair = try Self.makePair()
        let grouped = try healthport("convert", pair.grouped.path, "--format", "ndjson", "--jobs", "1", "-q")
        #expect(grouped.status == 0, "\(grouped.stderrText)")
        let expected = try Self.uuids(grouped)
        for jobs in ["1", "2"] {
            let shuffled = try healthport("convert", pair.shuffled.path, "--format", "ndjson", "--jobs", jobs, "-q")
            #expect(shuffled.status == 0, "\(shuffled.stderrText)")
            #expect(try Self.uuids(shuffled) == expected, "--jobs \(jobs)")
        }
        let diff = try healthport("diff", pair.grouped.path, pair.shuffled.path, "-q")
        #expect(diff.status == 0, "\(diff.stderrText)")
        let end = try #require(try ndjsonObjects(diff.stdout).last)
        #expect(end["added"] as? Int == 0)
        #expect(end["deleted"] as? Int == 0)
    }
}
