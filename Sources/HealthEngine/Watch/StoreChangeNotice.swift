import HealthQuery
import HealthStore

/// Tells a face that an import brought something a query sees, and nothing more: no anchor, no
/// count, no position (HealthKit's observer queries say only "something changed").
///
/// What the assistant's store notifications stand on. It once found the store's position by
/// asking for the changes of no types, which answered with the store's global anchor; anchors no
/// longer carry it (`StoreAnchor`), so the position is kept here, inside the engine, and the
/// consumer learns only whether a commit touched what it may read.
public final class StoreChangeNotice {
    private let store: HealthStore
    private let monitor: StoreChangeMonitor
    /// The store's position at the last look: private to the engine, never shown.
    private var position: Int

    /// Opens the store and notes where it is now: only later commits count.
    ///
    /// - Throws: `RunError` (no store, not a store).
    public init(store path: String) throws(RunError) {
        (store, monitor, position) = try RunError.wrapping {
            let store = try HealthStore.openForReading(at: path)
            return (store, try StoreChangeMonitor(path: path), try store.position())
        }
    }

    /// Returns when another process has committed to the store, or `false` when `isCancelled`
    /// turned true first.
    public func waitForCommit(isCancelled: () -> Bool) throws(RunError) -> Bool {
        try RunError.wrapping { try monitor.waitForCommit(isCancelled: isCancelled) }
    }

    /// Whether a change since the last look is one `query` sees (through its gate, policy
    /// included); the next look starts from here either way. `nil` (no one to tell) only moves
    /// the look on.
    public func changedSinceLastLook(visibleTo query: ObjectQuery?) throws(RunError) -> Bool {
        try RunError.wrapping {
            guard let query else {
                position = try store.position()
                return false
            }
            let executor = QueryExecutor(query)
            try executor.validate()
            let (visible, now) = try store.hasVisibleChange(after: position, query: executor)
            position = now
            return visible
        }
    }
}
