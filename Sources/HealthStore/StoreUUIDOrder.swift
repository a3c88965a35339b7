import GRDB
import GRDBSQLite
import HealthModel

/// The store's objects in uuid order, read from the uuid index (`objects_by_uuid`, which holds
/// each uuid's anchor) a page at a time: how an import finds the objects it turns into
/// tombstones, in the order `diff` reports deletions, without the store's uuids in memory.
///
/// Each page is read whole before the caller changes the table, and the next one starts after
/// its last uuid: rows the caller deletes meanwhile are behind the read, never under it.
final class StoreUUIDOrder {
    /// Rows of the index read in one page.
    static let pageRows: Int32 = 4096

    private let db: Database
    private let path: String
    private let lastAnchor: Int64
    private var statement: OpaquePointer?
    /// The last uuid read, big-endian; empty before the first page (every blob is after it).
    private var after: [UInt8] = []
    private var done = false

    /// - Parameter lastAnchor: objects after it (the running import's own) are not read.
    init(db: Database, path: String, lastAnchor: Int64) throws {
        self.db = db
        self.path = path
        self.lastAnchor = lastAnchor
        guard
            sqlite3_prepare_v2(
                db.sqliteConnection, "SELECT uuid, anchor FROM objects WHERE uuid > ?1 AND anchor <= ?2 ORDER BY uuid LIMIT ?3", -1, &statement,
                nil) == SQLITE_OK
        else {
            throw StoreError(.database, "\(path): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
    }

    deinit { sqlite3_finalize(statement) }

    /// The anchors of the next page's objects that `included` accepts, in uuid order (possibly
    /// none); `nil` once every object was read.
    func next(where included: (Int64) -> Bool) throws -> [Int64]? {
        guard !done else { return nil }
        defer { sqlite3_reset(statement) }
        after.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(statement, 1, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), StoreReadConnections.transient)
        }
        sqlite3_bind_int64(statement, 2, lastAnchor)
        sqlite3_bind_int(statement, 3, Self.pageRows)
        var anchors: [Int64] = []
        var rows: Int32 = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw StoreError(.database, "\(path): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))") }
            guard let uuid = StoreIdentities.uuid(statement, column: 0) else {
                throw StoreError(.incompatible, "\(path): the store is damaged (object \(sqlite3_column_int64(statement, 1)) has no valid uuid)")
            }
            rows += 1
            after = StoredRow.bytes(uuid)
            let anchor = sqlite3_column_int64(statement, 1)
            if included(anchor) { anchors.append(anchor) }
        }
        if rows < Self.pageRows { done = true }
        return anchors
    }
}
