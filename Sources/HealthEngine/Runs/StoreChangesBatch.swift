import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

/// One batch of a store's changes, in memory, for a face that answers in messages rather than
/// files (the assistant interface): what `StoreChangesRun` writes, as values.
public struct StoreChangesBatch: Sendable {
    public struct Deletion: Sendable, Equatable {
        public var uuid: String
        public var type: String
    }

    /// Each added object as one line of healthport's JSON (without the newline).
    public var added: [[UInt8]]
    public var deleted: [Deletion]
    /// The anchor to pass next time (a token, `StoreAnchor`).
    public var newAnchor: String
    /// Whether the batch returned every change the query sees now.
    public var complete: Bool
}

extension StoreChangesRun {
    /// The changes after `anchor` that the query admits, at most `limit` of them, through the
    /// same gate as `run()` (deletions judged by the object as it was).
    public func batch(cancellation: RunCancellation? = nil) throws(RunError) -> StoreChangesBatch {
        try RunError.wrapping {
            let executor = QueryExecutor(query)
            try executor.validate()
            let store = try HealthStore.openForReading(at: self.store)
            let start = try store.anchor(token: anchor ?? StoreAnchor.originText)
            let codec = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
            var added: [[UInt8]] = []
            var deleted: [StoreChangesBatch.Deletion] = []
            let batch = try store.changes(
                since: start, query: executor, limit: limit,
                added: { object in
                    if cancellation?.isCancelled == true { throw CancellationError() }
                    added.append(Array(try codec.encode(object).dropLast()))
                },
                deleted: { uuid, type in deleted.append(.init(uuid: uuid.uuidString, type: type)) })
            return StoreChangesBatch(added: added, deleted: deleted, newAnchor: batch.newAnchor.token, complete: batch.complete)
        }
    }
}
