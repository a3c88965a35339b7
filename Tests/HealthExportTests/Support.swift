import Foundation
import HealthExport
import HealthModel
import HealthQuery
import HealthTestSupport

/// Keeps every object read (tests only: real sinks keep nothing).
final class CollectingSink: ObjectSink {
    var header: ExportHeader?
    var objects: [HealthObject] = []

    func exportDidBegin(_ header: ExportHeader) throws { self.header = header }
    func consume(_ object: HealthObject) throws { objects.append(object) }

    var countsByType: [String: Int] {
        var counts: [String: Int] = [:]
        for object in objects { counts[object.objectType.identifier, default: 0] += 1 }
        return counts
    }
}

struct ReadResult {
    var sink: CollectingSink
    var summary: ExportReader.Summary
}

func read(_ input: ExportInput, parser: ExportXMLParser = .scanner) throws -> ReadResult {
    let sink = CollectingSink()
    let reader = try ExportReader(input)
    reader.parser = parser
    let summary = try reader.read(.everything, into: sink)
    return ReadResult(sink: sink, summary: summary)
}

func read(xml: String, parser: ExportXMLParser = .scanner) throws -> ReadResult {
    let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
    try Data(xml.utf8).write(to: url)
    return try read(.path(url.path), parser: parser)
}

func sample(_ path: String) -> String { Fixtures.samples.appendingPathComponent(path).path }

