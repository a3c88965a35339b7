import Foundation
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

/// `ChangesRun` over the store: anchors are opaque tokens of the store's change sequence
/// (`StoreAnchor`: the last change the query saw, never the store's position, so nothing
/// hidden shows in them), and a batch reads one snapshot of it.
struct StoreChanges {
    let run: ChangesRun
    let store: String

    /// The store, its anchor's token checked against it, and the query's executor.
    func open() throws -> (HealthStore, StoreAnchor, QueryExecutor) {
        let executor = QueryExecutor(run.query)
        try executor.validate()
        let token: String
        switch run.anchor {
        case nil: token = StoreAnchor.originText
        case .store(let value)?: token = value
        case .export?:
            throw StoreError(
                .invalidAnchor, "\(argument: .anchor): an export's anchor; a store's anchors are the tokens its changes print (or 0 for the beginning)")
        }
        let store = try HealthStore.openForReading(at: self.store)
        // The owner may resume from a numeric anchor of healthport before 0.3.0.
        return (store, try store.anchor(token: token, allowsPosition: executor.disclosure.storeHistory), executor)
    }

    func write(cancellation: RunCancellation?) throws -> ChangesRun.Summary {
        if run.follow {
            guard run.format == .ndjson, run.output == "-" else {
                throw RunError(
                    .invalidRequest,
                    "\(argument: .follow) writes NDJSON to standard output, a batch after another (use \(argument: .format, "ndjson", neutral: "NDJSON") and no \(argument: .output, neutral: "output file"))",
                    argument: .follow)
            }
        }
        let (store, start, executor) = try open()
        guard run.follow else { return try batch(of: store, executor: executor, since: start, cancellation: cancellation).summary }
        // A follower writing to a pipe ends when its reader goes, even while idle (`| head -n 1`
        // once waited forever): as a write would end it, with `EPIPE`, a quiet stop.
        try following(store: store, from: start, cancellation: cancellation, outputClosed: OutputDestination.standardOutputReaderIsGone) {
            executor, anchor, first in
            // The first batch is written even when empty (HealthKit's first result); later
            // ones only when an import brought changes this query sees.
            let written = try batch(of: store, executor: executor, since: anchor, cancellation: cancellation, writeEmpty: first)
            return (written.newAnchor, written.summary.complete)
        }
    }

    func collect(cancellation: RunCancellation?) throws -> ChangesRun.Changes {
        let (store, start, executor) = try open()
        return try collect(of: store, executor: executor, since: start, cancellation: cancellation).changes
    }

    func follow(cancellation: RunCancellation?, _ body: (ChangesRun.Changes) throws -> Void) throws -> Never {
        let (store, start, _) = try open()
        try following(store: store, from: start, cancellation: cancellation) { executor, anchor, first in
            let (changes, newAnchor) = try collect(of: store, executor: executor, since: anchor, cancellation: cancellation)
            if first || !changes.added.isEmpty || !changes.deleted.isEmpty { try body(changes) }
            return (newAnchor, changes.complete)
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
        batch: (_ executor: QueryExecutor, _ anchor: StoreAnchor, _ first: Bool) throws -> (newAnchor: StoreAnchor, complete: Bool)
    ) throws -> Never {
        var query = run.query
        let monitor = try StoreChangeMonitor(path: self.store)
        var policy = PolicyFileWatch(path: run.policyFile)
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

    /// One batch as values, and the anchor after it.
    func collect(
        of store: HealthStore, executor: QueryExecutor, since anchor: StoreAnchor, cancellation: RunCancellation?
    ) throws -> (changes: ChangesRun.Changes, newAnchor: StoreAnchor) {
        var added: [HealthObject] = []
        var deleted: [(uuid: ObjectUUID, type: String)] = []
        let batch = try store.changes(
            since: anchor, query: executor, limit: run.limit,
            added: { object in
                if cancellation?.isCancelled == true { throw CancellationError() }
                added.append(object)
            },
            deleted: { uuid, type in deleted.append((uuid, type)) })
        let changes = ChangesRun.Changes(added: added, deleted: deleted, newAnchor: .store(batch.newAnchor.token), complete: batch.complete)
        return (changes, batch.newAnchor)
    }

    /// One batch: the changes after `anchor`, then the anchor file, written after the changes
    /// are out (flushed), so a follower killed at any point resumes where its output stopped.
    func batch(
        of store: HealthStore, executor: QueryExecutor, since anchor: StoreAnchor, cancellation: RunCancellation?, writeEmpty: Bool = true
    ) throws -> (summary: ChangesRun.Summary, newAnchor: StoreAnchor) {
        let writer = try ChangeWriter.make(run.format, to: OutputDestination(run.output), parquet: run.parquet)
        var began = false
        var header: ExportHeader? = nil
        do {
            let batch = try store.changes(
                since: anchor, query: executor, limit: run.limit,
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
                    anchorFile: run.anchorOutput)
            } else {
                writer.abandon()
            }
            if let anchorOutput = run.anchorOutput, began || batch.newAnchor != anchor {
                let file = try AtomicFile(destination: anchorOutput)
                file.buffer.appendRaw("\(batch.newAnchor.token)\n")
                try file.commit()
            }
            let summary = ChangesRun.Summary(
                added: batch.added, deleted: batch.deleted, newAnchor: .store(batch.newAnchor.token), complete: batch.complete,
                fhir: writer.fhirTally)
            return (summary, batch.newAnchor)
        } catch {
            writer.abandon()
            throw error
        }
    }
}
