import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery

/// One batch of changes in memory, each added object already healthport's JSON, for a face that
/// answers in messages rather than files (the assistant interface): what `ChangesRun` writes,
/// as values.
public struct EncodedChanges: Sendable {
    public struct Deletion: Sendable, Equatable {
        public var uuid: String
        public var type: String
    }

    /// Each added object as one line of healthport's JSON (without the newline).
    public var added: [[UInt8]]
    public var deleted: [Deletion]
    /// The anchor to pass next time.
    public var newAnchor: ChangesAnchor
    /// Whether the batch returned every change the query sees now.
    public var complete: Bool
}

extension ChangesRun {
    /// The changes after `anchor` that the query admits, at most `limit` of them, through the
    /// same gate as `run()` (deletions judged by the object as it was), encoded as NDJSON
    /// lines are.
    public func encodedChanges(cancellation: RunCancellation? = nil) throws(RunError) -> EncodedChanges {
        let changes = try changes(cancellation: cancellation)
        return try RunError.wrapping {
            let codec = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
            return EncodedChanges(
                added: try changes.added.map { Array(try codec.encode($0).dropLast()) },
                deleted: changes.deleted.map { .init(uuid: $0.uuid.uuidString, type: $0.type) },
                newAnchor: changes.newAnchor, complete: changes.complete)
        }
    }
}
