import GRDB
import GRDBSQLite

/// The insert of an import's hot path, bound through SQLite's C API: GRDB's argument arrays
/// box every value, which cost about a fifth of an import (perf, `Benchmarks/store.sh`).
final class RowInserter {
    private let db: Database
    private var statement: OpaquePointer?
    private let importID: Int64
    /// SQLite copies the bytes before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(db: Database, importID: Int64) throws {
        self.db = db
        self.importID = importID
        let sql = """
            INSERT INTO objects (anchor, uuid, kind, type, start_date, end_date, value, unit, source, source_key, device, device_id, import_id, body)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        guard sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &statement, nil) == SQLITE_OK else {
            throw StoreError(.database, "cannot prepare the insert: \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
    }

    deinit { sqlite3_finalize(statement) }

    func insert(_ row: PendingRow) throws {
        let s = statement
        sqlite3_reset(s)
        sqlite3_bind_int64(s, 1, row.anchor)
        bind(row.uuid, 2)
        bind(row.kind, 3)
        bind(row.type, 4)
        if let start = row.start { sqlite3_bind_int64(s, 5, start) } else { sqlite3_bind_null(s, 5) }
        if let end = row.end { sqlite3_bind_int64(s, 6, end) } else { sqlite3_bind_null(s, 6) }
        if let value = row.value { sqlite3_bind_double(s, 7, value) } else { sqlite3_bind_null(s, 7) }
        bind(row.unit, 8)
        bind(row.source, 9)
        bind(row.sourceKey, 10)
        bind(row.device, 11)
        if let id = row.deviceID { sqlite3_bind_int64(s, 12, id) } else { sqlite3_bind_null(s, 12) }
        sqlite3_bind_int64(s, 13, importID)
        row.body.withUnsafeBufferPointer { body in
            _ = sqlite3_bind_text(s, 14, UnsafeRawPointer(body.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(body.count), Self.transient)
        }
        let code = sqlite3_step(s)
        guard code == SQLITE_DONE else {
            throw StoreError(.database, "cannot insert object \(row.uuid): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
    }

    /// A device met for the first time, before the row that refers to it.
    func insertDevice(id: Int64, body: [UInt8]) throws {
        try db.execute(sql: "INSERT INTO devices (id, body) VALUES (?, ?)", arguments: [id, String(decoding: body, as: UTF8.self)])
    }

    private func bind(_ text: String?, _ index: Int32) {
        guard var text else {
            sqlite3_bind_null(statement, index)
            return
        }
        text.withUTF8 { utf8 in
            _ = sqlite3_bind_text(
                statement, index, UnsafeRawPointer(utf8.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(utf8.count), Self.transient)
        }
    }
}
