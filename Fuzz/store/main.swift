import Foundation
import FuzzStoreSupport
import FuzzSupport
import GRDBSQLite
@testable import HealthStore

/// A store of today's layout, damaged or hand-edited, whatever its bytes or rows: it is read as
/// every consumer reads it (objects, changes, anchor), then imported into and read again; every
/// failure is a `StoreError`, never a crash or a hang; a store readable before an import stays
/// readable after it; a file that is not a store is left exactly as it was.
///
/// The first byte picks the shape of the input:
/// - even: the bytes are the store file itself (damaged pages, truncated headers, a file that is
///   not SQLite);
/// - odd: edits of a store healthport made once (`template`, three objects imported), each of
///   one row of one of its tables, so that every column of every table meets values of every
///   kind SQLite has: the objects' typed columns and bodies, the tombstones, the kinds, types,
///   sources and devices they refer to, the imports' headers, `store_info`'s anchor, key, zone
///   and rules, the summary tables, the migrations recorded. The rest of the input is fields
///   split at `0x00`: an edit's first field names its table (first byte, modulo the tables) and
///   what to do (second byte: even, a row inserted or replaced from the next fields, one a
///   column; odd, the row whose rowid the next field holds deleted). A field's first byte is its
///   value's kind (0 an integer, 1 a real, 2 a blob, 3 text, of the bytes after it, big-endian
///   for numbers; an empty field is NULL); `0x01 n` inside a field is the byte `n - 1`, so a
///   value may hold `0x00`. An edit SQLite refuses (a constraint) is skipped.
///
/// One store opened for reading and one for writing an input, nothing made per input that can be
/// made once: well over a thousand inputs a second on a core (`docs/benchmarks.md`).
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, count)
    guard let first = bytes.first else { return 0 }
    let path = FuzzDriver.scratchFolder + "/store.sqlite"
    StoreFuzzing.remove(path)
    var before: Data? = nil
    if first % 2 == 0 {
        FuzzDriver.write(data.map { $0 + 1 }, count - 1, to: path)
        before = Data(bytes.dropFirst())
    } else {
        FuzzDriver.write(CurrentStore.template, to: path)
        guard CurrentStore.edit(path, fields: bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false)) else { return 0 }
    }
    let readable = (try? StoreFuzzing.read(path).get()) != nil
    let (opened, imported) = StoreFuzzing.openAndImport(path)
    if let imported, case .failure(let error) = StoreFuzzing.read(imported) {
        // A damaged store may stay damaged (refused with a StoreError, as before the import).
        StoreFuzzing.expect(!readable, "a store that took an import cannot be read: \(error.message)")
    }
    // A file that is not a store (nor an empty one) is left exactly as it was.
    if !opened, !readable, let before, !before.isEmpty, !StoreFuzzing.claimsToBeAStore(before) {
        StoreFuzzing.expect((try? Data(contentsOf: URL(fileURLWithPath: path))) == before, "a refused file was changed")
    }
    return 0
}

enum CurrentStore {
    /// A store of today's layout that took the tiny export: made once, in 1 KB pages.
    static let template: [UInt8] = StoreFuzzing.template(named: "current", pageSize: 1024) { path in
        _ = try HealthStore.openForWriting(at: path).importObjects(from: StoreFuzzing.Source(), inputName: "template")
    }

    /// The template's tables and their number of columns, in `sqlite_master`'s order.
    static let tables: [(name: String, columns: Int)] = {
        let path = FuzzDriver.scratchFolder + "/tables.sqlite"
        FuzzDriver.write(template, to: path)
        defer { StoreFuzzing.remove(path) }
        var tables: [(String, Int)] = []
        let connection = Connection(path)
        for name in connection.texts("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid") {
            tables.append((name, connection.texts("SELECT name FROM pragma_table_info('\(name)')").count))
        }
        return tables
    }()

    /// Applies the input's edits to the store at `path` (the template, just written). `false`
    /// when the file cannot be opened.
    static func edit(_ path: String, fields: [ArraySlice<UInt8>]) -> Bool {
        let connection = Connection(path)
        guard connection.handle != nil else { return false }
        var index = 0
        while index < fields.count {
            let edit = fields[index]
            index += 1
            guard edit.count >= 2 else { continue }
            let table = tables[Int(edit[edit.startIndex]) % tables.count]
            if edit[edit.startIndex + 1] % 2 == 0 {
                let values = (0..<table.columns).map { column in index + column < fields.count ? fields[index + column] : [] }
                index += table.columns
                let marks = Array(repeating: "?", count: table.columns).joined(separator: ", ")
                connection.run("INSERT OR REPLACE INTO \"\(table.name)\" VALUES (\(marks))", values.map(Value.init))
            } else {
                let rowid = index < fields.count ? fields[index] : []
                index += 1
                connection.run("DELETE FROM \"\(table.name)\" WHERE rowid = ?", [Value(rowid)])
            }
        }
        return true
    }

    /// A value of an edit: its kind from the field's first byte, `0x01 n` unescaped to `n - 1`.
    enum Value {
        case null, integer(Int64), real(Double), blob([UInt8]), text(String)

        init(_ field: ArraySlice<UInt8>) {
            guard let kind = field.first else { self = .null; return }
            var bytes: [UInt8] = []
            var escaped = false
            for byte in field.dropFirst() {
                if escaped {
                    bytes.append(byte &- 1)
                    escaped = false
                } else if byte == 1 {
                    escaped = true
                } else {
                    bytes.append(byte)
                }
            }
            let number = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            switch kind % 4 {
            case 0: self = .integer(Int64(bitPattern: number))
            case 1: self = .real(Double(bitPattern: number))
            case 2: self = .blob(bytes)
            default: self = .text(String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    /// One SQLite connection through its C interface: cheaper than a GRDB queue to open for
    /// every input, and without GRDB's checks (foreign keys off: a damaged store may hold rows
    /// that refer to nothing).
    final class Connection {
        private(set) var handle: OpaquePointer?

        init(_ path: String) {
            if sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) != SQLITE_OK {
                sqlite3_close(handle)
                handle = nil
            }
        }

        deinit { sqlite3_close(handle) }

        /// Runs one statement with `values` bound; a refusal (a constraint, a damaged file) is
        /// ignored: the edit is skipped.
        func run(_ sql: String, _ values: [Value]) {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return }
            defer { sqlite3_finalize(statement) }
            let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                switch value {
                case .null: sqlite3_bind_null(statement, index)
                case .integer(let number): sqlite3_bind_int64(statement, index, number)
                case .real(let number): sqlite3_bind_double(statement, index, number)
                case .blob(let bytes): sqlite3_bind_blob(statement, index, bytes, Int32(bytes.count), transient)
                case .text(let text): sqlite3_bind_text(statement, index, text, -1, transient)
                }
            }
            _ = sqlite3_step(statement)
        }

        /// The first column of every row of a query, as text.
        func texts(_ sql: String) -> [String] {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
            defer { sqlite3_finalize(statement) }
            var rows: [String] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
            }
            return rows
        }
    }
}

FuzzDriver.run(test)
