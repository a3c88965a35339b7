import Foundation
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

/// What changed in the store since an anchor (HealthKit: `HKAnchoredObjectQuery`): anchors are
/// opaque tokens of the store's change sequence (`StoreAnchor`: the last change the query saw,
/// never the store's position, so nothing hidden shows in them), and a batch reads one snapshot
/// of it (`healthport changes --store`).
public struct StoreChangesRun: Sendable {
    public var store: String
    public var query: ObjectQuery
    /// The anchor after which changes are returned: a token the store printed, or `nil` (or
    /// `StoreAnchor.originText`) for the origin.
    public var anchor: String?
    public var limit: Int?
    public var format: ObjectFormat
    /// How Parquet files are written (`--format parquet`).
    public var parquet = ParquetOptions()
    public var output: String
    /// Also write the new anchor (a number) to this file, atomically, after the changes.
    public var anchorOutput: String?
    /// Keep running (HealthKit's anchored query monitoring for changes): after the changes
    /// since the anchor, wait, and write the changes of every import another process commits,
    /// batch by batch, until cancelled. NDJSON to standard output only.
    public var follow = false
    /// With `follow`: the policy file behind `query.policy`, read again when it changes, so
    /// that a revoked permission takes effect at the next batch.
    public var policyFile: String? = nil

    public init(
        store: String, query: ObjectQuery = ObjectQuery(), anchor: String? = nil, limit: Int? = nil, format: ObjectFormat = .ndjson,
        output: String = "-", anchorOutput: String? = nil
    ) {
        self.store = store
        self.query = query
        self.anchor = anchor
        self.limit = limit
        self.format = format
        self.output = output
        self.anchorOutput = anchorOutput
    }

    public struct Summary: Sendable, Equatable {
        public var added: Int
        public var deleted: Int
        public var newAnchor: StoreAnchor
        /// Whether the batch returned every change the query sees now.
        public var complete: Bool
        /// With `--format fhir`: how the resources were coded, per kind, and what was left out
        /// (the store keeps no clinical record's FHIR resource, so those are counted, not written).
        public var fhir: FHIRCodingTally? = nil
    }

    /// An anchor given as a token (or `0`, the origin), or as a file holding one (what
    /// `anchorOutput` writes) or holding the JSON a change stream ended with (its `end` line or
    /// its `newAnchor` object), whose token is `"anchor"`; `nil` is the origin. The token is
    /// checked against the store when the run opens it.
    ///
    /// - Throws: `StoreError.invalidAnchor` for anything else, a number other than 0 among
    ///   them (anchors are no longer positions in the clear).
    public static func parseAnchor(_ text: String?) throws(RunError) -> String? {
        try RunError.wrapping {
            guard let text else { return nil }
            if let anchor = anchorText(text) { return anchor }
            if Int(text) != nil {
                throw StoreError(
                    .invalidAnchor,
                    "\(argument: .anchor): a store's anchors are the tokens its changes print (or 0 for the beginning), not numbers")
            }
            guard FileManager.default.fileExists(atPath: text) else {
                throw StoreError(.invalidAnchor, "\(argument: .anchor): '\(text.prefix(80))' is neither a store anchor nor a file")
            }
            let notAnAnchor = StoreError(
                .invalidAnchor, "\(text): not a store anchor (the store's anchors are tokens; anchor files of exports belong to exports)")
            // An anchor file or an end line is short: a file of 4 KiB or more is not one.
            guard let handle = FileHandle(forReadingAtPath: text) else { throw notAnAnchor }
            defer { try? handle.close() }
            let data = try handle.read(upToCount: 4096) ?? Data()
            let content = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if let anchor = anchorText(content) { return anchor }
            guard data.count < 4096, let anchor = anchorToken(inJSON: Data(content.utf8)) else { throw notAnAnchor }
            return anchor
        }
    }

    /// A token, or the origin's `0`.
    static func anchorText(_ text: String) -> String? {
        text == StoreAnchor.originText || StoreAnchor.looksLikeToken(text) ? text : nil
    }

    /// The anchor token in a change stream's `end` line or `newAnchor` object.
    static func anchorToken(inJSON data: Data) -> String? {
        guard var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        if let nested = object["newAnchor"] as? [String: Any] { object = nested }
        return (object["anchor"] as? String).flatMap(anchorText)
    }

    public func run(cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(cancellation: cancellation) }
    }

    func execute(cancellation: RunCancellation?) throws -> Summary {
        try OutputInputGuard.check(outputs: [output, anchorOutput], inputs: [store])
        if follow {
            guard format == .ndjson, output == "-" else {
                throw RunError(
                    .invalidRequest,
                    "\(argument: .follow) writes NDJSON to standard output, a batch after another (use \(argument: .format, "ndjson", neutral: "NDJSON") and no \(argument: .output, neutral: "output file"))",
                    argument: .follow)
            }
        }
        let executor = QueryExecutor(query)
        try executor.validate()
        let store = try HealthStore.openForReading(at: self.store)
        let start = try store.anchor(token: anchor ?? StoreAnchor.originText)
        guard follow else { return try batch(of: store, executor: executor, since: start, cancellation: cancellation) }
        // A follower writing to a pipe ends when its reader goes, even while idle (`| head -n 1`
        // once waited forever): as a write would end it, with `EPIPE`, a quiet stop.
        try following(store: store, from: start, cancellation: cancellation, outputClosed: OutputDestination.standardOutputReaderIsGone) {
            executor, anchor, first in
            // The first batch is written even when empty (HealthKit's first result); later
            // ones only when an import brought changes this query sees.
            try batch(of: store, executor: executor, since: anchor, cancellation: cancellation, writeEmpty: first)
        }
    }

    /// The follow loop: `batch` for the changes since the anchor, again at once while a batch
    /// leaves changes for the next (a `limit`), then again after every import another process
    /// commits, until cancelled (`CancellationError`). The policy file is read again before
    /// each batch when it changed.
    ///
    /// - Parameter outputClosed: asked while waiting; true ends the follow as a closed output
    ///   does (`OutputError.brokenPipe`).
    func following(
        store: HealthStore, from start: StoreAnchor, cancellation: RunCancellation?, outputClosed: (() -> Bool)? = nil,
        batch: (_ executor: QueryExecutor, _ anchor: StoreAnchor, _ first: Bool) throws -> Summary
    ) throws -> Never {
        var query = self.query
        let monitor = try StoreChangeMonitor(path: self.store)
        var policy = PolicyFileWatch(path: policyFile)
        var anchor = start
        var first = true
        while true {
            if let reloaded = try policy.reloadIfChanged() { query.policy = reloaded }
            let summary = try batch(QueryExecutor(query), anchor, first)
            first = false
            anchor = summary.newAnchor
            if !summary.complete { continue }
            var closed = false
            let committed = try monitor.waitForCommit(isCancelled: {
                closed = outputClosed?() == true
                return closed || cancellation?.isCancelled == true
            })
            if closed { throw OutputError(.brokenPipe, "the reader of the output went away") }
            guard committed else { throw CancellationError() }
        }
    }

    /// One batch of changes as values (HealthKit: `HKAnchoredObjectQueryDescriptor.Result`).
    public struct Changes: Sendable {
        public var added: [HealthObject]
        /// The uuid and type of each deleted object, in change order.
        public var deleted: [(uuid: ObjectUUID, type: String)]
        public var newAnchor: StoreAnchor
        /// Whether the batch returned every change the query sees now.
        public var complete: Bool
    }

    /// The changes after `anchor`, at most `limit` of them, as values: the batch `run` writes,
    /// through the same gate (`HealthStore.changes`). `format`, `output`, `anchorOutput` and
    /// `follow` are not used.
    public func changes(cancellation: RunCancellation? = nil) throws(RunError) -> Changes {
        try RunError.wrapping {
            let executor = QueryExecutor(query)
            try executor.validate()
            let store = try HealthStore.openForReading(at: store)
            return try collect(
                of: store, executor: executor, since: try store.anchor(token: anchor ?? StoreAnchor.originText), cancellation: cancellation)
        }
    }

    /// Follows the store as `run` does with `follow` (the changes since the anchor, then those
    /// of every import another process commits), handing each batch to `body` as values: the
    /// first batch even when empty, later ones only when they hold changes. Returns only by
    /// throwing: `RunError.Category.cancelled` when `cancellation` is cancelled, or what
    /// `body` throws.
    public func follow(cancellation: RunCancellation? = nil, _ body: (Changes) throws -> Void) throws(RunError) {
        try RunError.wrapping {
            let executor = QueryExecutor(query)
            try executor.validate()
            let store = try HealthStore.openForReading(at: self.store)
            let start = try store.anchor(token: anchor ?? StoreAnchor.originText)
            try following(store: store, from: start, cancellation: cancellation) { executor, anchor, first in
                let changes = try collect(of: store, executor: executor, since: anchor, cancellation: cancellation)
                if first || !changes.added.isEmpty || !changes.deleted.isEmpty { try body(changes) }
                return Summary(added: changes.added.count, deleted: changes.deleted.count, newAnchor: changes.newAnchor, complete: changes.complete)
            }
        }
    }

    func collect(of store: HealthStore, executor: QueryExecutor, since anchor: StoreAnchor, cancellation: RunCancellation?) throws -> Changes {
        var added: [HealthObject] = []
        var deleted: [(uuid: ObjectUUID, type: String)] = []
        let batch = try store.changes(
            since: anchor, query: executor, limit: limit,
            added: { object in
                if cancellation?.isCancelled == true { throw CancellationError() }
                added.append(object)
            },
            deleted: { uuid, type in deleted.append((uuid, type)) })
        return Changes(added: added, deleted: deleted, newAnchor: batch.newAnchor, complete: batch.complete)
    }

    /// One batch: the changes after `anchor`, then the anchor file, written after the changes
    /// are out (flushed), so a follower killed at any point resumes where its output stopped.
    func batch(
        of store: HealthStore, executor: QueryExecutor, since anchor: StoreAnchor, cancellation: RunCancellation?, writeEmpty: Bool = true
    ) throws -> Summary {
        let writer = try ChangeWriter.make(format, to: OutputDestination(output), parquet: parquet)
        var began = false
        var header: ExportHeader? = nil
        do {
            let batch = try store.changes(
                since: anchor, query: executor, limit: limit,
                header: { value in
                    header = value
                    if writeEmpty {
                        began = true
                        try writer.begin(value)
                    }
                },
                added: { object in
                    if cancellation?.isCancelled == true { throw CancellationError() }
                    if !began, let header {
                        began = true
                        try writer.begin(header)
                    }
                    try writer.added(object)
                },
                deleted: { uuid, type in
                    if !began, let header {
                        began = true
                        try writer.begin(header)
                    }
                    try writer.deleted(uuid, type: type)
                })
            if began {
                try writer.finish(
                    added: batch.added, deleted: batch.deleted, complete: batch.complete, anchor: .token(batch.newAnchor.token),
                    anchorFile: anchorOutput)
            } else {
                writer.abandon()
            }
            if let anchorOutput, began || batch.newAnchor != anchor {
                let file = try AtomicFile(destination: anchorOutput)
                file.buffer.appendRaw("\(batch.newAnchor.token)\n")
                try file.commit()
            }
            return Summary(
                added: batch.added, deleted: batch.deleted, newAnchor: batch.newAnchor, complete: batch.complete, fhir: writer.fhirTally)
        } catch {
            writer.abandon()
            throw error
        }
    }
}

/// A policy file read again when it changes (its size or modification time), for a follower.
struct PolicyFileWatch {
    let path: String?
    private var seen: (size: Int64, modified: Double)? = nil

    init(path: String?) {
        self.path = path
        if let path { seen = Self.stamp(path) }
    }

    /// The policy, when the file changed since last time; `nil` when it did not.
    mutating func reloadIfChanged() throws -> AuthorizationPolicy? {
        guard let path else { return nil }
        let now = Self.stamp(path)
        if let now, let seen, now == seen { return nil }
        seen = now
        return try AuthorizationPolicy.load(from: path)
    }

    static func stamp(_ path: String) -> (size: Int64, modified: Double)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return (size, modified)
    }
}
