import Foundation
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

/// What changed in the store since an anchor (HealthKit: `HKAnchoredObjectQuery`): anchors are
/// positions in the store's change sequence (numbers), and a batch reads one snapshot of it
/// (`healthport changes --store`).
public struct StoreChangesRun: Sendable {
    public var store: String
    public var query: ObjectQuery
    /// The position after which changes are returned; 0 is the origin.
    public var anchor: Int
    public var limit: Int?
    public var format: ObjectFormat
    public var output: String
    /// Also write the new anchor (a number) to this file, atomically, after the changes.
    public var anchorOutput: String?

    public init(
        store: String, query: ObjectQuery = ObjectQuery(), anchor: Int = 0, limit: Int? = nil, format: ObjectFormat = .ndjson,
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
        public var newAnchor: Int
        /// Whether the batch reached the store's current anchor.
        public var complete: Bool
    }

    /// An anchor given as a number, or as a file holding one (what `anchorOutput` writes) or
    /// holding the JSON a change stream ended with (its `end` line or its `newAnchor` object),
    /// whose number is `"anchor"` (`"position"` in earlier versions'
    /// export changes is accepted as well); `nil` is the origin.
    public static func parseAnchor(_ text: String?) throws(RunError) -> Int {
        try RunError.wrapping {
            guard let text else { return 0 }
            if let value = Int(text), value >= 0 { return value }
            guard FileManager.default.fileExists(atPath: text) else {
                throw StoreError(.invalidAnchor, "--anchor: '\(text.prefix(80))' is neither a store anchor (a number) nor a file")
            }
            let notAnAnchor = StoreError(
                .invalidAnchor, "\(text): not a store anchor (the store's anchors are numbers; file anchors belong to exports)")
            // An anchor file or an end line is short: a file of 4 KiB or more is not one.
            guard let handle = FileHandle(forReadingAtPath: text) else { throw notAnAnchor }
            defer { try? handle.close() }
            let data = try handle.read(upToCount: 4096) ?? Data()
            let content = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if let value = Int(content), value >= 0 { return value }
            guard data.count < 4096, let value = anchorNumber(inJSON: Data(content.utf8)) else { throw notAnAnchor }
            return value
        }
    }

    /// The anchor number in a change stream's `end` line or `newAnchor` object.
    static func anchorNumber(inJSON data: Data) -> Int? {
        guard var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        if let nested = object["newAnchor"] as? [String: Any] { object = nested }
        for key in ["anchor", "position"] {
            if let number = object[key] as? NSNumber, let value = Int(exactly: number.doubleValue), value >= 0,
                !(object[key] is Bool)
            {
                return value
            }
        }
        return nil
    }

    public func run(cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(cancellation: cancellation) }
    }

    func execute(cancellation: RunCancellation?) throws -> Summary {
        let executor = QueryExecutor(query)
        try executor.validate()
        let store = try HealthStore.openForReading(at: self.store)
        let writer = try ChangeWriter.make(format, to: OutputDestination(output))
        do {
            let batch = try store.changes(
                since: anchor, query: executor, limit: limit, header: { try writer.begin($0) },
                added: { object in
                    if cancellation?.isCancelled == true { throw CancellationError() }
                    try writer.added(object)
                }, deleted: { try writer.deleted($0, type: $1) })
            try writer.finish(
                added: batch.added, deleted: batch.deleted, complete: batch.complete, anchor: batch.newAnchor,
                anchorFile: anchorOutput)
            if let anchorOutput {
                let file = try AtomicFile(destination: anchorOutput)
                file.buffer.appendRaw("\(batch.newAnchor)\n")
                try file.commit()
            }
            return Summary(added: batch.added, deleted: batch.deleted, newAnchor: batch.newAnchor, complete: batch.complete)
        } catch {
            writer.abandon()
            throw error
        }
    }
}
