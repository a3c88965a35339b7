import HealthExport
import HealthModel
import HealthQuery

/// An anchor standing for everything an export holds that the query admits, so the export
/// itself can go (`healthport anchor`, and the first half of `diff`).
///
/// The anchor file is written by the run, after the output-is-input check every writing run
/// makes: `healthport anchor e.zip --output e.zip` once replaced the export with its anchor.
public struct AnchorRun: Sendable {
    public var export: String
    /// How the export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    public var query: ObjectQuery
    /// Where the anchor is written (atomically, mode 0600); `nil` only returns it (`diff`
    /// keeps it in memory).
    public var output: String?

    public init(export: String, query: ObjectQuery = ObjectQuery(), output: String? = nil) {
        self.export = export
        self.query = query
        self.output = output
    }

    public struct Summary: Sendable {
        public var anchor: QueryAnchor
        public var warnings: [RepeatedWarning]
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> Summary {
        try OutputInputGuard.check(outputs: [output], inputs: [export], query: query)
        let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
        let reader = try ExportReader.open(export, reading: reading, cancellation: cancellation)
        let sink = IdentityCollector()
        let read = context.read(reader)
        let summary = try read.run(into: sink, objects: { sink.set.count })
        sink.set.finish()
        let anchor = QueryAnchor(
            base: sink.set, baseExportDate: sink.header.exportDate?.secondsSince1970, queryHash: query.identityHash)
        if let output { try anchor.save(to: output) }
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
