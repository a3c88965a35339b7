import HealthExport
import HealthModel
import HealthQuery

/// An anchor standing for everything an export holds that the query admits, so the export
/// itself can go (`healthport anchor`, and the first half of `diff`).
public struct AnchorRun: Sendable {
    public var export: String
    public var query: ObjectQuery

    public init(export: String, query: ObjectQuery = ObjectQuery()) {
        self.export = export
        self.query = query
    }

    public struct Summary: Sendable {
        public var anchor: QueryAnchor
        public var warnings: [RepeatedWarning]
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> Summary {
        let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
        let reader = try ExportReader.open(export)
        let sink = IdentityCollector()
        let read = context.read(reader)
        let (summary, _) = try read.run(into: sink, objects: { sink.set.count })
        sink.set.finish()
        let anchor = QueryAnchor(
            base: sink.set, baseExportDate: sink.header.exportDate?.secondsSince1970, queryHash: query.identityHash)
        return Summary(anchor: anchor, warnings: context.warnings(of: summary))
    }
}

/// The identity set of what passed the gate.
final class IdentityCollector: ObjectSink {
    var set = IdentitySet()
    var header = ExportHeader()

    func exportDidBegin(_ header: ExportHeader) throws { self.header = header }

    func consume(_ object: HealthObject) throws {
        set.insert(object.uuid, type: object.objectType.identifier)
    }
}
