import Foundation
import FuzzStoreSupport
import FuzzSupport
import GRDB

@testable import HealthStore

/// The store's upgrade path: a store written by an older healthport (schema v2, before anchor
/// keys and the compact layout), whatever its rows hold, is read (which upgrades it), imported
/// into and read again; every failure is a `StoreError`, never a crash or a hang, and a store
/// readable before the import stays readable after it.
///
/// The input's first byte is not used (it kept the inputs of the harness before this one, whose
/// odd first byte chose this shape, valid); the rest is fields split at `0x00`: the anchor, an
/// import's export date and header, a device's body, then objects of six fields (uuid, kind,
/// type, start, end, JSON body). This reaches the migrations' row moves (`StoreLayoutMigration`,
/// `LegacyRowMove`) and the decoding of stored rows by the import and the readers.
///
/// Each input is an upgrade, which is most of its time (every migration's tables made, the rows
/// moved, the file vacuumed, the summary tables built): about 150 inputs a second on a core,
/// where the current layout's harness (`store`) runs about ten times as many.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, count)
    guard !bytes.isEmpty else { return 0 }
    let path = FuzzDriver.scratchFolder + "/store.sqlite"
    StoreFuzzing.remove(path)
    guard OlderStore.write(at: path, fields: bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false))
    else { return 0 }
    let readable = (try? StoreFuzzing.read(path).get()) != nil
    let (_, imported) = StoreFuzzing.openAndImport(path)
    guard let imported else { return 0 }
    if case .failure(let error) = StoreFuzzing.read(imported) {
        // A store that could be read before the import can be read after it (a damaged one may
        // stay damaged: it is refused with a StoreError, as before).
        StoreFuzzing.expect(!readable, "an upgraded store that took an import cannot be read: \(error.message)")
        // An older store's objects are all gone from the export imported over it (tombstones,
        // whatever their rows held), so its objects now are the three imported, and read.
        if !StoreFuzzing.sharesUUIDs(bytes), case .failure(let error) = StoreFuzzing.readObjects(path) {
            fatalError("the objects an upgraded store imported cannot be read: \(error.message)")
        }
    }
    return 0
}

enum OlderStore {
    /// An empty store as healthport 0.1 before anchor keys wrote it (migrations v1 and v2), its
    /// file's bytes: made once, since making its tables costs more than the rest of an input.
    static let template: [UInt8] = StoreFuzzing.template(named: "v2", pageSize: 1024) { path in
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA application_id = \(StoreSchema.applicationID)")
        }
        try StoreSchema.migrator.migrate(queue, upTo: "v2")
        try queue.close()
    }

    /// A store as healthport 0.1 before anchor keys wrote it, its rows made of `fields`.
    /// `false` when SQLite refuses the rows (constraints): not a store.
    static func write(at path: String, fields: [ArraySlice<UInt8>]) -> Bool {
        func text(_ index: Int) -> String {
            index < fields.count ? String(decoding: fields[index], as: UTF8.self) : ""
        }
        func number(_ index: Int) -> Int64 {
            guard index < fields.count else { return 0 }
            return fields[index].prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }
        do {
            FuzzDriver.write(template, to: path)
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "UPDATE store_info SET value = ? WHERE key = 'anchor'", arguments: [number(0)])
                try db.execute(
                    sql:
                        "INSERT INTO imports (imported_at, input, export_date, header, objects, added, deleted, anchor) VALUES ('2024-01-01T00:00:00Z', 'x', ?, ?, 0, 0, 0, ?)",
                    arguments: [text(1), text(2), number(0)])
                try db.execute(sql: "INSERT INTO devices (id, body) VALUES (1, ?)", arguments: [text(3)])
                var index = 4
                var anchor: Int64 = 1
                while index + 6 <= fields.count {
                    try db.execute(
                        sql: """
                            INSERT INTO objects (anchor, uuid, kind, type, start_date, end_date, device_id, import_id, body)
                            VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)
                            """,
                        arguments: [
                            anchor, text(index), text(index + 1), text(index + 2), number(index + 3), number(index + 4),
                            index % 2 == 0 ? 1 : nil, text(index + 5),
                        ])
                    anchor += 1
                    index += 6
                }
            }
            try queue.close()
            return true
        } catch {
            return false
        }
    }
}

FuzzDriver.run(test)
