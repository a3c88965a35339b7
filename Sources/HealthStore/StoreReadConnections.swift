import Foundation
import GRDBSQLite
import HealthModel

/// Read-only connections to a store, lent to the reading threads of one import
/// (`StoreIdentityCursor`), each with the two statements a cursor runs: opened as they are
/// first needed, kept for the next chunk, closed with the import.
///
/// Raw SQLite handles, not the store's GRDB pool, as the import's other hot reads are
/// (`StoreIdentities`: a GRDB `Row` per object cost more than the read), and so that each
/// chunk's thread keeps its statements prepared. Each connection is used by one thread at a
/// time (the lock hands it over), so it is opened without SQLite's own mutex.
final class StoreReadConnections: @unchecked Sendable {
    /// SQLite copies the bytes before `bind` returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// Each connection's page cache, in KiB: a cursor reads each page of the table once, and
    /// the uuid index's pages at random; a larger cache would only grow the import's memory.
    static let cacheKiB = 512

    /// One connection and its statements.
    final class Connection {
        let handle: OpaquePointer
        /// The run of objects after an anchor.
        let run: OpaquePointer
        /// The run of objects from the one with a uuid (none when the store does not hold it).
        let jump: OpaquePointer
        private let path: String

        fileprivate init(path: String) throws {
            self.path = path
            var handle: OpaquePointer?
            let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
            guard opened == SQLITE_OK, let handle else {
                let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
                sqlite3_close_v2(handle)
                throw StoreError(.database, "\(path): \(message)")
            }
            sqlite3_busy_timeout(handle, 30_000)
            var run: OpaquePointer?
            var jump: OpaquePointer?
            let prepared =
                sqlite3_exec(handle, "PRAGMA cache_size = -\(StoreReadConnections.cacheKiB)", nil, nil, nil) == SQLITE_OK
                && sqlite3_prepare_v2(handle, "SELECT uuid, anchor FROM objects WHERE anchor > ?1 ORDER BY anchor LIMIT ?2", -1, &run, nil)
                    == SQLITE_OK
                && sqlite3_prepare_v2(
                    handle, "SELECT uuid, anchor FROM objects WHERE anchor >= (SELECT anchor FROM objects WHERE uuid = ?1) ORDER BY anchor LIMIT ?2",
                    -1, &jump, nil) == SQLITE_OK
            guard prepared, let run, let jump else {
                let message = String(cString: sqlite3_errmsg(handle))
                sqlite3_finalize(run)
                sqlite3_finalize(jump)
                sqlite3_close_v2(handle)
                throw StoreError(.database, "\(path): \(message)")
            }
            self.handle = handle
            self.run = run
            self.jump = jump
        }

        deinit {
            sqlite3_finalize(run)
            sqlite3_finalize(jump)
            sqlite3_close_v2(handle)
        }

        /// Runs `statement` (`run` or `jump`) for at most `rows` rows, replacing the contents of
        /// `uuids` and `anchors` with them.
        ///
        /// - Throws: `StoreError.database`; `.incompatible` for a uuid that is not 16 bytes.
        func read(
            _ statement: OpaquePointer, binding bind: (OpaquePointer) -> Void, rows: Int32, into uuids: inout [ObjectUUID],
            _ anchors: inout [Int64]
        ) throws {
            defer { sqlite3_reset(statement) }
            bind(statement)
            sqlite3_bind_int(statement, 2, rows)
            uuids.removeAll(keepingCapacity: true)
            anchors.removeAll(keepingCapacity: true)
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { return }
                guard code == SQLITE_ROW else { throw StoreError(.database, "\(path): \(String(cString: sqlite3_errmsg(handle)))") }
                guard let uuid = StoreIdentities.uuid(statement, column: 0) else {
                    throw StoreError(.incompatible, "\(path): the store is damaged (object \(sqlite3_column_int64(statement, 1)) has no valid uuid)")
                }
                uuids.append(uuid)
                anchors.append(sqlite3_column_int64(statement, 1))
            }
        }
    }

    private let path: String
    private let lock = NSLock()
    private var idle: [Connection] = []

    init(path: String) { self.path = path }

    /// An idle connection, or a new one.
    func acquire() throws -> Connection {
        lock.lock()
        let connection = idle.popLast()
        lock.unlock()
        return try connection ?? Connection(path: path)
    }

    /// Gives a connection back, for another chunk.
    func release(_ connection: Connection) {
        lock.lock()
        idle.append(connection)
        lock.unlock()
    }
}
