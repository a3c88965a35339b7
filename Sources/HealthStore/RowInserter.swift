import GRDB
import GRDBSQLite

/// The insert of an import's hot path, bound through SQLite's C API: GRDB's argument arrays
/// box every value, which cost about a fifth of an import (perf, `Benchmarks/store.sh`).
///
/// Trades safety for speed as `setUncheckedArguments` does: the columns are fixed here, and
/// each value's type is the column's by construction (`StoredRow`).
final class RowInserter {
    private let db: Database
    private var statement: OpaquePointer?
    private let table: String
    private var insertType: Statement?
    private var insertSource: Statement?
    private var insertDevice: Statement?
    /// SQLite copies the bytes before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// - Parameter table: `objects`, or `deleted_objects` (whose rows carry `addedAnchor`).
    init(db: Database, table: String = "objects") throws {
        self.db = db
        self.table = table
        let deleted = table == "deleted_objects"
        let sql = """
            INSERT INTO \(table) (anchor, uuid, kind, type_id, start_date, end_date, zone, creation_date, value, unit, source_id, device_id, import_id, body\(deleted ? ", added_anchor" : ""))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?\(deleted ? ", ?" : ""))
            """
        guard sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &statement, nil) == SQLITE_OK else {
            throw StoreError(.database, "cannot prepare the insert: \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
    }

    deinit { sqlite3_finalize(statement) }

    /// Inserts the row, after the type, source and device it is the first to use.
    func insert(_ row: StoredRow) throws {
        if let type = row.newType {
            if insertType == nil { insertType = try db.makeStatement(sql: "INSERT INTO sample_types (id, identifier) VALUES (?, ?)") }
            try insertType!.execute(arguments: [row.typeID, type])
        }
        if let source = row.newSource, let id = row.sourceID {
            if insertSource == nil {
                insertSource = try db.makeStatement(sql: "INSERT INTO sources (id, name, version, bundle_identifier, key) VALUES (?, ?, ?, ?, ?)")
            }
            try insertSource!.execute(arguments: [id, source.name, source.version, source.bundle, source.key])
        }
        if let device = row.newDevice, let id = row.deviceID {
            if insertDevice == nil { insertDevice = try db.makeStatement(sql: "INSERT INTO devices (id, body) VALUES (?, ?)") }
            try insertDevice!.execute(arguments: [id, String(decoding: device, as: UTF8.self)])
        }
        let s = statement
        sqlite3_reset(s)
        sqlite3_bind_int64(s, 1, row.anchor)
        withUnsafeBytes(of: (row.uuid.high.bigEndian, row.uuid.low.bigEndian)) { uuid in
            _ = sqlite3_bind_blob(s, 2, uuid.baseAddress, 16, Self.transient)
        }
        sqlite3_bind_int64(s, 3, row.kind)
        sqlite3_bind_int64(s, 4, row.typeID)
        bind(row.start, 5)
        bind(row.end, 6)
        bind(row.zone.map(Int64.init), 7)
        bind(row.creation, 8)
        if let value = row.value { sqlite3_bind_double(s, 9, value) } else { sqlite3_bind_null(s, 9) }
        bind(row.unit, 10)
        bind(row.sourceID, 11)
        bind(row.deviceID, 12)
        sqlite3_bind_int64(s, 13, row.importID)
        if let body = row.body {
            body.withUnsafeBufferPointer { body in
                _ = sqlite3_bind_text(
                    s, 14, UnsafeRawPointer(body.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(body.count), Self.transient)
            }
        } else {
            sqlite3_bind_null(s, 14)
        }
        if table == "deleted_objects" { bind(row.addedAnchor, 15) }
        let code = sqlite3_step(s)
        guard code == SQLITE_DONE else {
            throw StoreError(.database, "cannot insert object \(row.uuid): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
    }

    private func bind(_ value: Int64?, _ index: Int32) {
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
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
