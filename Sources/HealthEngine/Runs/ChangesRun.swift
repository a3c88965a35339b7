import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// What changed since an anchor (HealthKit: `HKAnchoredObjectQuery`), in batches of at most
/// `limit` changes, over either input (`healthport changes`, and the second half of `diff`):
/// - an export: the objects the anchor has not seen are added, those it holds and the export
///   does not are deleted (`ExportChanges`); the anchor holds what the query saw;
/// - the store: its change sequence after the anchor, one snapshot per batch, and with
///   `follow` the changes of every later import (`StoreChanges`); the anchor is an opaque
///   token, the last change the query saw, never the store's position.
///
/// Added objects are streamed, deletions and the new anchor come at the end; the new anchor is
/// written to `anchorOutput` after the changes, so a consumer whose write failed gets the same
/// batch again rather than missing it.
public struct ChangesRun: Sendable {
    public var input: ObjectInput
    public var query: ObjectQuery
    /// What was already seen; `nil` is the origin (every object is added). It must be of the
    /// input's kind (`ChangesAnchor.parse`), and an export's must be this run's query's.
    public var anchor: ChangesAnchor?
    /// Where the anchor came from, for the message when it belongs to another query.
    public var anchorName: String?
    public var limit: Int?
    public var format: ObjectFormat
    /// How Parquet files are written (`--format parquet`).
    public var parquet = ParquetOptions()
    /// How an export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    public var output: String
    /// Also write the new anchor to this file (atomically, after the changes).
    public var anchorOutput: String?
    /// Keep running (HealthKit's anchored query monitoring for changes), the store only: after
    /// the changes since the anchor, wait, and write the changes of every import another
    /// process commits, batch by batch, until cancelled. NDJSON to standard output only.
    public var follow = false
    /// With `follow`: the policy file behind `query.policy`, read again when it changes, so
    /// that a revoked permission takes effect at the next batch.
    public var policyFile: String? = nil

    public init(
        input: ObjectInput, query: ObjectQuery = ObjectQuery(), anchor: ChangesAnchor? = nil, limit: Int? = nil,
        format: ObjectFormat = .ndjson, output: String = "-", anchorOutput: String? = nil
    ) {
        self.input = input
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
        public var newAnchor: ChangesAnchor
        /// Whether the batch returned every change the query sees now.
        public var complete: Bool
        /// What the export's reader warned of (none for the store).
        public var warnings: [RepeatedWarning] = []
        /// With `--format fhir`: how the resources were coded, per kind, and what was left out
        /// (the store keeps no clinical record's FHIR resource, so those are counted, not written).
        public var fhir: FHIRCodingTally? = nil
    }

    /// One batch of changes as values (HealthKit: `HKAnchoredObjectQueryDescriptor.Result`).
    public struct Changes: Sendable {
        /// Objects the anchor has not seen: an export's in document order, the store's in
        /// change order.
        public var added: [HealthObject]
        /// The uuid and type of each deleted object: an export's by uuid, the store's in
        /// change order.
        public var deleted: [(uuid: ObjectUUID, type: String)]
        /// The anchor after this batch.
        public var newAnchor: ChangesAnchor
        /// Whether the batch returned every change the query sees now (`newAnchor` is caught up).
        public var complete: Bool
    }

    /// Writes one batch (with `follow`, returns only by throwing: cancelled, or the reader of
    /// the output gone).
    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> Summary {
        try OutputInputGuard.check(outputs: [output, anchorOutput], inputs: [input.path], query: query)
        switch input {
        case .export(let export):
            if follow { throw Self.followNeedsAStore }
            return try ExportChanges(run: self, export: export).write(reporter: reporter, cancellation: cancellation)
        case .store(let store):
            return try StoreChanges(run: self, store: store).write(cancellation: cancellation)
        }
    }

    /// The changes after `anchor`, at most `limit` of them, as values: the batch `run` writes,
    /// through the same gate, so the objects, their order and the new anchor are the command
    /// line's. `format`, `output`, `anchorOutput` and `follow` are not used, and an export
    /// reader's warnings are not reported (the caller has no channel for them).
    ///
    /// Over an export each batch reads the whole export again: a batch loop over an export
    /// costs one read per batch, against a store's one indexed query.
    ///
    /// - Throws: `RunError`: `.invalidRequest` for an anchor of another kind, made for another
    ///   query or another export, or what reading the input throws.
    public func changes(cancellation: RunCancellation? = nil) throws(RunError) -> Changes {
        try RunError.wrapping {
            switch input {
            case .export(let export): return try ExportChanges(run: self, export: export).collect(cancellation: cancellation)
            case .store(let store): return try StoreChanges(run: self, store: store).collect(cancellation: cancellation)
            }
        }
    }

    /// Follows the store as `run` does with `follow` (the changes since the anchor, then those
    /// of every import another process commits), handing each batch to `body` as values: the
    /// first batch even when empty, later ones only when they hold changes. Returns only by
    /// throwing: `RunError.Category.cancelled` when `cancellation` is cancelled, or what
    /// `body` throws; `.invalidRequest` over an export, which never changes (`changes`).
    public func follow(cancellation: RunCancellation? = nil, _ body: (Changes) throws -> Void) throws(RunError) {
        try RunError.wrapping {
            switch input {
            case .export:
                throw Self.followNeedsAStore
            case .store(let store):
                try StoreChanges(run: self, store: store).follow(cancellation: cancellation, body)
            }
        }
    }

    /// `follow` reads the store: an export never changes.
    static let followNeedsAStore = RunError(
        .invalidRequest, "\(argument: .follow) needs a store: an export never changes; import new exports into a store and follow it",
        argument: .follow)
}
