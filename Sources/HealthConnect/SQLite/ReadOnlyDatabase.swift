import GRDBSQLite

/// An SQLite database opened read-only and immutable, through SQLite's C API (the binding the
/// store uses, GRDB's SQLite): the file is a stranger's, so nothing is ever written beside it
/// (no journal, no `-shm`), no extension can be loaded, and every query is one of the reader's
/// own, never text from the file.
final class ReadOnlyDatabase {
    private var handle: OpaquePointer?

    /// Opens `path` with `SQLITE_OPEN_READONLY` and `immutable=1` (SQLite then takes no locks
    /// and reads no WAL: the export is a finished copy).
    init(path: String) throws(HealthConnectError) {
        let uri = "file:" + Self.percentEncoded(path) + "?immutable=1"
        let status = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let text = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            self.handle = nil
            throw HealthConnectError(.notADatabase, "SQLite cannot open it: \(text)")
        }
        // No value SQLite hands back may be larger than this (a row's text or blob): a file that
        // claims a gigabyte-long value is an error (SQLITE_TOOBIG), not an allocation.
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Self.largestValue)
        // The file's schema is not trusted: no function in it (a view's, a generated column's)
        // runs with side effects; damaged cells are checked as they are read.
        for pragma in ["PRAGMA trusted_schema = OFF", "PRAGMA cell_size_check = ON"] {
            sqlite3_exec(handle, pragma, nil, nil, nil)
        }
    }

    /// The largest value SQLite may hand back: 16 MiB.
    static let largestValue: Int32 = 16 << 20

    deinit { sqlite3_close(handle) }

    /// Prepares one of the reader's queries.
    func prepare(_ sql: String, table: String?) throws(HealthConnectError) -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            let text = String(cString: sqlite3_errmsg(handle))
            sqlite3_finalize(statement)
            // A query of the reader's own fails only on a missing table or column, or a file
            // that is not a database after all.
            let code: HealthConnectError.Code = text.contains("file is not a database") ? .notADatabase : .notHealthConnect
            throw HealthConnectError(code, "not Health Connect's layout (\(text))", table: table)
        }
        return Statement(statement, database: handle, table: table)
    }

    /// The columns of `table` (`PRAGMA table_info`, generated columns included), empty when
    /// there is no such table.
    func columns(of table: String) throws(HealthConnectError) -> Set<String> {
        let statement = try prepare("SELECT name FROM pragma_table_xinfo(?1)", table: table)
        statement.bind(1, table)
        var names: Set<String> = []
        while try statement.step() {
            if let name = statement.text(0, limit: 1024) { names.insert(name) }
            guard names.count <= 10_000 else { throw HealthConnectError(.limitExceeded, "more than 10,000 columns", table: table) }
        }
        return names
    }

    /// `PRAGMA user_version`: the schema version Android's `SQLiteOpenHelper` keeps there.
    func userVersion() throws(HealthConnectError) -> Int64 {
        let statement = try prepare("PRAGMA user_version", table: nil)
        return try statement.step() ? statement.int64(0) : 0
    }

    /// `%`-encodes everything in a path but letters, digits, `-._~/`, so that no `?` or `#` of
    /// a file name is read as part of the URI.
    static func percentEncoded(_ path: String) -> String {
        var text = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".utf8)
                text += "%" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return text
    }

    /// One prepared query, stepped row by row; its values are read by column index.
    final class Statement {
        private let statement: OpaquePointer
        private let database: OpaquePointer?
        let table: String?

        init(_ statement: OpaquePointer, database: OpaquePointer?, table: String?) {
            self.statement = statement
            self.database = database
            self.table = table
        }

        deinit { sqlite3_finalize(statement) }

        /// Binds one of the reader's own table names (held by the caller for the statement's life).
        func bind(_ index: Int32, _ text: String) {
            let transient = unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
            sqlite3_bind_text(statement, index, text, -1, transient)
        }

        /// Moves to the next row: `false` after the last.
        func step() throws(HealthConnectError) -> Bool {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            case SQLITE_NOTADB:
                // SQLite reads the file's header at the first step, not at the opening.
                throw HealthConnectError(.notADatabase, "not an SQLite database", table: table)
            default:
                throw HealthConnectError(.readFailed, "SQLite failed: \(String(cString: sqlite3_errmsg(database)))", table: table)
            }
        }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

        /// An integer column; `nil` when NULL. A REAL or TEXT value is SQLite's conversion.
        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

        func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(statement, column) }

        /// What a column holds where Health Connect stores a number (a `REAL` value column).
        enum StoredNumber: Equatable {
            case null
            case value(Double)
            /// Text, a BLOB, or a number that is not finite: nothing a record's value can be.
            case notANumber
        }

        /// A number column, checked: an INTEGER or a finite REAL is its value. SQLite's own
        /// conversion would read text or a BLOB as 0, a damaged value passed off as a reading.
        func number(_ column: Int32) -> StoredNumber {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_NULL: return .null
            case SQLITE_INTEGER, SQLITE_FLOAT:
                let value = sqlite3_column_double(statement, column)
                return value.isFinite ? .value(value) : .notANumber
            default: return .notANumber
            }
        }

        /// What a column holds where Health Connect stores a code (one of the platform's
        /// `IntDef` constants).
        enum StoredCode: Equatable {
            case null
            case value(Int64)
            /// A fraction, a BLOB, or text that is not a whole number.
            case notACode
        }

        /// A code column, checked: an INTEGER, or TEXT that spells a whole number. AOSP declares
        /// some code columns `TEXT` (blood glucose's specimen source and meal, blood pressure's
        /// location and position) and writes integers into them, which SQLite then keeps as
        /// their digits; SQLite's own conversion would read any other text as 0, a real code.
        func code(_ column: Int32) -> StoredCode {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_NULL: return .null
            case SQLITE_INTEGER: return .value(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT:
                let value = sqlite3_column_double(statement, column)
                guard value.rounded() == value, abs(value) < 1e15 else { return .notACode }
                return .value(Int64(value))
            case SQLITE_TEXT:
                // 20 bytes hold any Int64; longer text is no code.
                return text(column, limit: 20).flatMap { Int64($0) }.map { .value($0) } ?? .notACode
            default: return .notACode
            }
        }

        /// A text column, or `nil` when NULL or longer than `limit` bytes (the caller decides
        /// whether that is an error: `textLength` tells them apart).
        func text(_ column: Int32, limit: Int) -> String? {
            guard !isNull(column) else { return nil }
            guard textLength(column) <= limit, let bytes = sqlite3_column_text(statement, column) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }

        /// The length in bytes a text column would have (0 for NULL).
        func textLength(_ column: Int32) -> Int {
            // Asking for the text first makes SQLite convert a BLOB or number; the length is then the text's.
            _ = sqlite3_column_text(statement, column)
            return Int(sqlite3_column_bytes(statement, column))
        }

        /// A BLOB column's bytes when it is exactly `count` bytes long; `nil` otherwise.
        func blob(_ column: Int32, exactly count: Int) -> [UInt8]? {
            guard sqlite3_column_type(statement, column) == SQLITE_BLOB else { return nil }
            let length = Int(sqlite3_column_bytes(statement, column))
            guard length == count, let pointer = sqlite3_column_blob(statement, column) else { return nil }
            return Array(UnsafeRawBufferPointer(start: pointer, count: length))
        }
    }
}
