import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// `ChangesRun` over an export: the objects the anchor has not seen are added, the uuids it
/// holds and the export does not are deleted (`ChangeTracker`), and the new anchor holds what
/// the query saw of this export.
struct ExportChanges {
    let run: ChangesRun
    let export: String

    /// The anchor to compare with: the origin of this query, or the run's, which must be an
    /// export's made for this query.
    func base() throws -> QueryAnchor {
        let hash = run.query.identityHash
        guard let anchor = run.anchor else { return .origin(queryHash: hash) }
        guard case .export(let base) = anchor else {
            throw AnchorError("\(run.anchorName ?? "the anchor"): a store's anchor; over an export, the anchor is one an export's changes or anchor wrote")
        }
        guard base.queryHash == hash else {
            throw AnchorError("\(run.anchorName ?? "the anchor"): the anchor was made for another query (types, predicate, dates, sources or policy)")
        }
        return base
    }

    func write(reporter: RunReporter, cancellation: RunCancellation?) throws -> ChangesRun.Summary {
        let context = try RunContext(query: run.query, reporter: reporter, cancellation: cancellation)
        let reporter = context.reporter
        let base = try base()
        let reader = try ExportReader.open(export, reading: run.reading, cancellation: cancellation)
        let writer = try ChangeWriter.make(
            run.format, to: OutputDestination(run.output), parquet: run.parquet,
            // An anchor from another export is known only at the end: hold standard output until
            // then, so a refused anchor prints nothing (a file output is never put in place).
            holdingStandardOutput: base.base.count > 0, clinicalResource: { try reader.sideFile($0) })
        let tracker = ChangeTracker(anchor: base, limit: run.limit, keepsNewAnchor: run.anchorOutput != nil)
        let sink = ChangeSink(tracker: tracker, writer: writer, baseExportDate: base.baseExportDate, reporter: reporter)
        do {
            let read = context.read(reader)
            let summary = try read.run(into: sink)
            try tracker.verify()
            try sink.flush()
            let newAnchor = try tracker.finish(exportDate: sink.header.exportDate?.secondsSince1970) { uuid, type in
                try writer.deleted(uuid, type: type)
            }
            // The changes first, then the anchor: if writing the anchor fails, the consumer gets
            // the same batch again rather than missing it.
            try writer.finish(
                added: tracker.emittedAdded, deleted: tracker.emittedDeleted, complete: newAnchor.target == nil,
                anchor: .returned(newAnchor.position), anchorFile: run.anchorOutput)
            if let anchorOutput = run.anchorOutput { try newAnchor.save(to: anchorOutput) }
            return ChangesRun.Summary(
                added: tracker.emittedAdded, deleted: tracker.emittedDeleted, newAnchor: .export(newAnchor),
                complete: newAnchor.target == nil, warnings: context.warnings(of: summary), fhir: writer.fhirTally)
        } catch {
            writer.abandon()
            throw error
        }
    }

    func collect(cancellation: RunCancellation?) throws -> ChangesRun.Changes {
        let context = try RunContext(query: run.query, reporter: .silent, cancellation: cancellation)
        let tracker = ChangeTracker(anchor: try base(), limit: run.limit)
        let sink = ChangeCollector(tracker: tracker)
        _ = try context.read(try ExportReader.open(export, reading: run.reading, cancellation: cancellation)).run(into: sink)
        var deleted: [(uuid: ObjectUUID, type: String)] = []
        let newAnchor = try tracker.finish(exportDate: sink.header.exportDate?.secondsSince1970) { uuid, type in
            deleted.append((uuid, type))
        }
        return ChangesRun.Changes(added: sink.added, deleted: deleted, newAnchor: .export(newAnchor), complete: newAnchor.target == nil)
    }
}

/// After the gate: objects the anchor has not seen are kept as added (`ChangesRun.changes`).
final class ChangeCollector: ObjectSink {
    let tracker: ChangeTracker
    var header = ExportHeader()
    var added: [HealthObject] = []

    init(tracker: ChangeTracker) {
        self.tracker = tracker
    }

    func exportDidBegin(_ header: ExportHeader) throws {
        self.header = header
        try tracker.checkTarget(exportDate: header.exportDate?.secondsSince1970)
    }

    func consume(_ object: HealthObject) throws {
        tracker.consume(object) { added.append($0) }
    }
}

/// After the gate: objects the anchor has not seen are written as added.
final class ChangeSink: ObjectSink {
    let tracker: ChangeTracker
    let writer: ChangeWriter
    let baseExportDate: Int64?
    let reporter: RunReporter
    var header = ExportHeader()
    /// Added objects held back until the anchor is seen to belong to this export (one of its
    /// objects met), so that a foreign anchor usually fails before anything is written.
    var pending: [HealthObject] = []
    var confirmed = false
    static let pendingLimit = 5000

    init(tracker: ChangeTracker, writer: ChangeWriter, baseExportDate: Int64?, reporter: RunReporter) {
        self.tracker = tracker
        self.writer = writer
        self.baseExportDate = baseExportDate
        self.reporter = reporter
    }

    func flush() throws {
        confirmed = true
        for object in pending { try writer.added(object) }
        pending.removeAll()
    }

    func exportDidBegin(_ header: ExportHeader) throws {
        self.header = header
        try tracker.checkTarget(exportDate: header.exportDate?.secondsSince1970)
        if let base = baseExportDate, let new = header.exportDate?.secondsSince1970, new < base {
            reporter.warning(
                ExportWarning(
                    key: "older-export", message: "the new export is older than the anchor's (or the exports are given in the wrong order)",
                    location: nil))
        }
        try writer.begin(header)
    }

    func consume(_ object: HealthObject) throws {
        try tracker.consume(object) { added in
            if confirmed {
                try writer.added(added)
            } else {
                pending.append(added)
                if pending.count >= Self.pendingLimit { try flush() }
            }
        }
        if !confirmed && tracker.hasMatchedBase { try flush() }
    }
}
