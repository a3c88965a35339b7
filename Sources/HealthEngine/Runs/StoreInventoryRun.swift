import HealthModel
import HealthQuery
import HealthStore

/// What the store holds as the query sees it (the assistant interface's `describe`): the
/// inventory of `healthport info` — types with counts and date ranges, sources, devices — and
/// the characteristics, all through the one gate, so that under a policy a type the consumer
/// may not read is absent, exactly as a type without data.
public struct StoreInventoryRun: Sendable {
    public var store: String
    public var query: ObjectQuery

    public init(store: String, query: ObjectQuery = ObjectQuery()) {
        self.store = store
        self.query = query
    }

    public struct Result: Sendable {
        public var inventory: ExportInventory
        /// The characteristics the query lets through (all of them in owner mode).
        public var characteristics: Characteristics?
    }

    public func run(cancellation: RunCancellation? = nil) throws(RunError) -> Result {
        try RunError.wrapping {
            let executor = QueryExecutor(query)
            try executor.validate()
            let store = try HealthStore.openForReading(at: self.store)
            let sink = StoreInventorySink()
            try store.read(query: executor, into: sink, isCancelled: cancellation?.check)
            sink.inventory.sort()
            return Result(inventory: sink.inventory, characteristics: sink.characteristics)
        }
    }
}

/// After the gate: the inventory's tallies and the (redacted) header's characteristics.
final class StoreInventorySink: ObjectSink {
    var inventory = ExportInventory()
    var characteristics: Characteristics?
    func exportDidBegin(_ header: ExportHeader) throws { characteristics = header.characteristics }
    func consume(_ object: HealthObject) throws { inventory.add(object) }
}

extension StoreInventoryRun {
    /// Checks that a store or an export exists and can be opened, before a long-running face
    /// (a server) starts serving it.
    public static func checkInput(_ input: ObjectInput, reading: ReadOptions = ReadOptions()) throws(RunError) {
        try RunError.wrapping { _ = try OpenedInput(input, reading: reading) }
    }
}
