import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// What changed in an export since an anchor (HealthKit: `HKAnchoredObjectQuery`), in
/// batches of at most `limit` changes: added objects streamed, deletions and the new anchor at
/// the end (`healthport changes EXPORT`, and the second half of `diff`).
public struct ChangesRun: Sendable {
    public var export: String
    public var query: ObjectQuery
    /// What was already seen; `nil` is the origin (every object is added). Its query must be
    /// this run's.
    public var anchor: QueryAnchor?
    /// Where the anchor came from, for the message when it belongs to another query.
    public var anchorName: String?
    public var limit: Int?
    public var format: ObjectFormat
    /// How Parquet files are written (`--format parquet`).
    public var parquet = ParquetOptions()
    /// How the export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    public var output: String
    /// Also write the new anchor to this file (atomically, after the changes).
    public var anchorOutput: String?

    public init(
        export: String, query: ObjectQuery = ObjectQuery(), anchor: QueryAnchor? = nil, limit: Int? = nil,
        format: ObjectFormat = .ndjson, output: String = "-", anchorOutput: String? = nil
    ) {
        self.export = export
        self.query = query
        self.anchor = anchor
        self.limit = limit
        self.format = format
        self.output = output
        self.anchorOutput = anchorOutput
    }

    public struct Summary: Sendable {
        public var added: Int
        public var deleted: Int
        public var newAnchor: QueryAnchor
        public var warnings: [RepeatedWarning]
        /// With `--format fhir`: how the resources were coded, per kind, and what was left out.
        public var fhir: FHIRCodingTally? = nil
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> Summary {
        try OutputInputGuard.check(outputs: [output, anchorOutput], inputs: [export])
        let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
        let reporter = context.reporter
        let hash = query.identityHash
        let base = anchor ?? .origin(queryHash: hash)
        guard base.queryHash == hash else {
            throw AnchorError("\(anchorName ?? "the anchor"): the anchor was made for another query (types, predicate, dates, sources or policy)")
        }
        let reader = try ExportReader.open(export, reading: reading, cancellation: cancellation)
        let writer = try ChangeWriter.make(
            format, to: OutputDestination(output), parquet: parquet,
            // An anchor from another export is known only at the end: hold standard output until
            // then, so a refused anchor prints nothing (a file output is never put in place).
            holdingStandardOutput: base.base.count > 0, clinicalResource: { try reader.sideFile($0) })
        let tracker = ChangeTracker(anchor: base, limit: limit, keepsNewAnchor: anchorOutput != nil)
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
                anchor: .returned(newAnchor.position), anchorFile: anchorOutput)
            if let anchorOutput { try newAnchor.save(to: anchorOutput) }
            return Summary(
                added: tracker.emittedAdded, deleted: tracker.emittedDeleted, newAnchor: newAnchor,
                warnings: context.warnings(of: summary), fhir: writer.fhirTally)
        } catch {
            writer.abandon()
            throw error
        }
    }
}

extension ChangesRun {
    /// One batch of changes as values (HealthKit: `HKAnchoredObjectQueryDescriptor.Result`
    /// over an export).
    public struct Changes: Sendable {
        /// Objects the anchor has not seen, in the export's document order.
        public var added: [HealthObject]
        /// The uuid and type of each object the anchor holds and the export does not, by uuid.
        public var deleted: [(uuid: ObjectUUID, type: String)]
        /// The anchor after this batch: caught up with the export, or, when `limit` cut the
        /// batch short, in the middle of a batch loop over this export.
        public var newAnchor: QueryAnchor
        /// Whether the batch returned the last change (`newAnchor` is caught up).
        public var complete: Bool
    }

    /// The changes after `anchor`, at most `limit` of them, as values: the batch `run` writes
    /// (`healthport changes EXPORT --anchor FILE --limit N`), through the same gate and the same
    /// `ChangeTracker`, so the objects, their order and the new anchor are the command line's.
    /// `format`, `output` and `anchorOutput` are not used, and the reader's warnings are not
    /// reported (the caller has no channel for them).
    ///
    /// Each batch reads the whole export again: a batch loop over an export costs one read per
    /// batch, against a store's one indexed query.
    ///
    /// - Throws: `RunError`: `.invalidRequest` for an anchor made for another query or another
    ///   export (the same checks as `run`), or what reading the export throws.
    public func changes(cancellation: RunCancellation? = nil) throws(RunError) -> Changes {
        try RunError.wrapping {
            let context = try RunContext(query: query, reporter: .silent, cancellation: cancellation)
            let hash = query.identityHash
            let base = anchor ?? .origin(queryHash: hash)
            guard base.queryHash == hash else {
                throw AnchorError("\(anchorName ?? "the anchor"): the anchor was made for another query (types, predicate, dates, sources or policy)")
            }
            let tracker = ChangeTracker(anchor: base, limit: limit)
            let sink = ChangeCollector(tracker: tracker)
            _ = try context.read(try ExportReader.open(export, reading: reading, cancellation: cancellation)).run(into: sink)
            var deleted: [(uuid: ObjectUUID, type: String)] = []
            let newAnchor = try tracker.finish(exportDate: sink.header.exportDate?.secondsSince1970) { uuid, type in
                deleted.append((uuid, type))
            }
            return Changes(added: sink.added, deleted: deleted, newAnchor: newAnchor, complete: newAnchor.target == nil)
        }
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
