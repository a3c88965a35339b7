import Foundation
import FuzzStoreSupport
import FuzzSupport
import GRDB

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
/// Edits are made in one store opened once, which each input's transaction first puts back as
/// the template holds it: opening a store (its connections, each parsing the schema) costs
/// several times an input's reads and import, and a file's input pays it only when its bytes
/// make an SQLite database (`docs/benchmarks.md`).
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, count)
    guard let first = bytes.first else { return 0 }
    if first % 2 == 1 {
        CurrentStore.test(edits: bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false))
        return 0
    }
    let path = FuzzDriver.scratchFolder + "/store.sqlite"
    StoreFuzzing.remove(path)
    FuzzDriver.write(data.map { $0 + 1 }, count - 1, to: path)
    let before = Data(bytes.dropFirst())
    let readable = (try? StoreFuzzing.read(path).get()) != nil
    let (opened, imported) = StoreFuzzing.openAndImport(path)
    if let imported, case .failure(let error) = StoreFuzzing.read(imported) {
        // A damaged store may stay damaged (refused with a StoreError, as before the import).
        StoreFuzzing.expect(!readable, "a store that took an import cannot be read: \(error.message)")
    }
    // A file that is not a store (nor an empty one) is left exactly as it was.
    if !opened, !readable, !before.isEmpty, !StoreFuzzing.claimsToBeAStore(before) {
        StoreFuzzing.expect((try? Data(contentsOf: URL(fileURLWithPath: path))) == before, "a refused file was changed")
    }
    return 0
}

enum CurrentStore {
    /// A store of today's layout that took the tiny export: made once, in 1 KB pages.
    static let template: [UInt8] = StoreFuzzing.template(named: "current", pageSize: 1024) { path in
        _ = try HealthStore.openForWriting(at: path).importObjects(from: StoreFuzzing.Source(), inputName: "template")
    }

    /// The store every edit is made in, opened once (opening a store, its connections and
    /// their schema, costs five times an input's reads and import), with the template
    /// attached to its writing connection, from which each input starts again.
    nonisolated(unsafe) static let store: HealthStore = {
        let path = FuzzDriver.scratchFolder + "/edited.sqlite"
        let original = FuzzDriver.scratchFolder + "/template.sqlite"
        StoreFuzzing.remove(path)
        FuzzDriver.write(template, to: path)
        FuzzDriver.write(template, to: original)
        do {
            let store = try HealthStore.openForWriting(at: path)
            try store.database.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS original", arguments: [original])
            }
            return store
        } catch {
            fatalError("cannot open the store to edit: \(error)")
        }
    }()

    /// The store as the template holds it, then the input's edits, in one transaction (its
    /// rows, not its file: an input's store differs from the template in its rows alone);
    /// then read, imported into and read again.
    static func test(edits: [ArraySlice<UInt8>]) {
        do {
            try store.database.writeWithoutTransaction { db in
                // A damaged store may hold rows that refer to nothing.
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                try db.inTransaction {
                    for table in tables {
                        try db.execute(
                            sql:
                                "DELETE FROM main.\"\(table.name)\"; INSERT INTO main.\"\(table.name)\" SELECT * FROM original.\"\(table.name)\""
                        )
                    }
                    edit(db, fields: edits)
                    return .commit
                }
            }
        } catch {
            fatalError("cannot start an input from the template: \(error)")
        }
        let readable = (try? StoreFuzzing.read(store).get()) != nil
        do {
            _ = try store.importObjects(from: StoreFuzzing.Source(), inputName: "fuzz", force: true)
        } catch is StoreError {
            return
        } catch {
            fatalError("not a StoreError: \(type(of: error)): \(error)")
        }
        if case .failure(let error) = StoreFuzzing.read(store) {
            // A damaged store may stay damaged (refused with a StoreError, as before the import).
            StoreFuzzing.expect(!readable, "a store that took an import cannot be read: \(error.message)")
        }
    }

    /// The template's tables and their number of columns, in `sqlite_master`'s order.
    static let tables: [(name: String, columns: Int)] = {
        let path = FuzzDriver.scratchFolder + "/tables.sqlite"
        FuzzDriver.write(template, to: path)
        defer { StoreFuzzing.remove(path) }
        do {
            return try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid").map { name in
                    (name, try Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_table_info(?)", arguments: [name]) ?? 0)
                }
            }
        } catch {
            fatalError("cannot list the template's tables: \(error)")
        }
    }()

    /// Applies the input's edits, each in a savepoint of its own: an edit SQLite refuses (a
    /// constraint) is skipped, the others kept.
    static func edit(_ db: Database, fields: [ArraySlice<UInt8>]) {
        var index = 0
        while index < fields.count {
            let edit = fields[index]
            index += 1
            guard edit.count >= 2 else { continue }
            let table = tables[Int(edit[edit.startIndex]) % tables.count]
            let sql: String
            let values: [Value]
            if edit[edit.startIndex + 1] % 2 == 0 {
                values = (0..<table.columns).map { column in
                    Value(index + column < fields.count ? fields[index + column] : [])
                }
                index += table.columns
                sql =
                    "INSERT OR REPLACE INTO main.\"\(table.name)\" VALUES (\(Array(repeating: "?", count: table.columns).joined(separator: ", ")))"
            } else {
                values = [Value(index < fields.count ? fields[index] : [])]
                index += 1
                sql = "DELETE FROM main.\"\(table.name)\" WHERE rowid = ?"
            }
            try? db.inSavepoint {
                try db.execute(sql: sql, arguments: StatementArguments(values.map(\.databaseValue)))
                return .commit
            }
        }
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

        var databaseValue: DatabaseValue {
            switch self {
            case .null: return .null
            case .integer(let number): return number.databaseValue
            case .real(let number): return number.databaseValue
            case .blob(let bytes): return Data(bytes).databaseValue
            case .text(let text): return text.databaseValue
            }
        }
    }
}

FuzzDriver.run(test)
