import Foundation
import GRDB

/// Waits for another process to commit to a store (`healthport changes --follow`).
///
/// SQLite's `PRAGMA data_version` on one connection changes whenever another connection commits
/// to the database; the monitor keeps one read-only connection and asks it five times a second,
/// a statement of microseconds, so an idle follower costs no CPU worth measuring and sees a
/// commit within a fifth of a second. Every look also checks that the path still names the file
/// it opened: a store deleted or replaced under a follower is an error, not a silent wait on a
/// file nobody writes any more.
public final class StoreChangeMonitor {
    public let path: String
    private let queue: DatabaseQueue
    private let identity: (device: UInt64, inode: UInt64)
    private var version: Int
    /// Between two looks at the store.
    public static let interval: TimeInterval = 0.2

    /// Opens the store read-only and notes its current version.
    public init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        guard let identity = Self.identity(of: path) else {
            throw StoreError(.notFound, "\(path): the store is gone")
        }
        self.identity = identity
        queue = try HealthStore.wrap(path) { try DatabaseQueue(path: path, configuration: configuration) }
        version = 0
        version = try currentVersion()
    }

    /// Returns when another process has committed since the last call (or since `init`), or
    /// `false` when `isCancelled` turned true first.
    ///
    /// - Throws: `StoreError.notFound` when the store was deleted or replaced meanwhile.
    public func waitForCommit(isCancelled: () -> Bool) throws -> Bool {
        while true {
            if isCancelled() { return false }
            guard let now = Self.identity(of: path), now == identity else {
                throw StoreError(.notFound, "\(path): the store was deleted or replaced while it was followed")
            }
            let latest = try currentVersion()
            if latest != version {
                version = latest
                return true
            }
            Thread.sleep(forTimeInterval: Self.interval)
        }
    }

    private func currentVersion() throws -> Int {
        try HealthStore.wrap(path) { try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 } }
    }

    static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }
}
