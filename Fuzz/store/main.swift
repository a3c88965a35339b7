import Foundation
import FuzzSupport
import GRDB
import HealthJSON
import HealthModel
import HealthQuery
@testable import HealthStore

/// The store's upgrade path: a store written by an older healthport (schema v2, before anchor
/// keys), or by no healthport at all, whatever its rows hold, is read, upgraded, imported into
/// and read again; every failure is a `StoreError`, never a crash, a hang or a changed file
/// that was not a store; a store readable before an upgrade and an import stays readable.
///
/// The first byte picks the shape of the input:
/// - even: the bytes are the store file itself (damaged pages, truncated WAL headers, a file
///   that is not SQLite);
/// - odd: a well-formed v2 store whose rows come from the input (fields split at `0x00`): the
///   anchor, the devices' bodies, objects' uuids, kinds, types, dates and JSON bodies, an
///   import's header. This reaches what the bytes alone rarely do: the migration itself and
///   the decoding of stored rows by the upgrade, the import and the readers.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, count)
    guard let first = bytes.first else { return 0 }
    let path = FuzzDriver.scratchFolder + "/store.sqlite"
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    if first % 2 == 0 {
        FuzzDriver.write(data.map { $0 + 1 }, count - 1, to: path)
    } else if !StoreFuzzing.writeOlderStore(at: path, fields: bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false)) {
        return 0
    }
    let before = try? Data(contentsOf: URL(fileURLWithPath: path))
    let read = StoreFuzzing.readEverything(path)
    var opened = false
    do {
        let store = try HealthStore.openForWriting(at: path)
        opened = true
        _ = try store.importObjects(from: StoreFuzzing.Source(), inputName: "fuzz", force: true)
        // A store that could be read before the upgrade and the import can be read after them
        // (a damaged one may stay damaged: it is refused with a StoreError, as before).
        if read != nil, case .failure(let error) = StoreFuzzing.read(path) {
            fatalError("an upgraded store that took an import cannot be read: \(error.message)")
        }
        // An older store's objects are all gone from the export imported over it (tombstones,
        // whatever their rows held), so its objects now are the three imported, and read.
        if first % 2 == 1, !StoreFuzzing.sharesUUIDs(bytes), case .failure(let error) = StoreFuzzing.readObjects(path) {
            fatalError("the objects an upgraded store imported cannot be read: \(error.message)")
        }
    } catch is StoreError {
    } catch {
        fatalError("not a StoreError: \(type(of: error)): \(error)")
    }
    // A file that is not a store (nor an empty one) is left exactly as it was. A file with
    // healthport's application id is a store, maybe a damaged older one: its upgrade is one
    // transaction, rolled back whole when a migration fails (`StoreUpgradeTests`), but an
    // upgrade that succeeded and an import that failed after it leave it changed.
    if !opened, read == nil, let before, !before.isEmpty, !StoreFuzzing.claimsToBeAStore(before) {
        StoreFuzzing.expect((try? Data(contentsOf: URL(fileURLWithPath: path))) == before, "a refused file was changed")
    }
    return 0
}

enum StoreFuzzing {
    static func expect(_ condition: Bool, _ message: String) {
        if !condition { fatalError(message) }
    }

    /// Whether a file's SQLite header carries healthport's application id (offset 68, big-endian).
    static func claimsToBeAStore(_ file: Data) -> Bool {
        guard file.count >= 72 else { return false }
        let id = file[file.startIndex + 68..<file.startIndex + 72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Int32(bitPattern: id) == StoreSchema.applicationID
    }

    /// Reads the whole store as a consumer would: every object, every change. `nil` when the
    /// store is refused (a `StoreError`); anything else thrown is a finding.
    /// Whether the input names one of the imported objects' uuids (its row then stays as the
    /// input wrote it).
    static func sharesUUIDs(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self).uppercased()
        return (1...3).contains { text.contains("00000000-0000-4000-8000-00000000000\($0)") }
    }

    /// Every object of the store, through an unfiltered query.
    static func readObjects(_ path: String) -> Result<Int, StoreError> {
        do {
            return .success(try HealthStore.openForReading(at: path).read(query: QueryExecutor(ObjectQuery()), into: CountingSink()))
        } catch let error as StoreError {
            return .failure(error)
        } catch {
            fatalError("not a StoreError: \(type(of: error)): \(error)")
        }
    }

    static func readEverything(_ path: String) -> Int? {
        try? read(path).get()
    }

    static func read(_ path: String) -> Result<Int, StoreError> {
        do {
            let store = try HealthStore.openForReading(at: path)
            let executor = QueryExecutor(ObjectQuery())
            let count = try store.read(query: executor, into: CountingSink())
            var changes = 0
            _ = try store.changes(
                since: try store.anchor(token: StoreAnchor.originText), query: executor, limit: nil,
                added: { _ in changes += 1 }, deleted: { _, _ in changes += 1 })
            _ = try store.anchor()
            return .success(count + changes)
        } catch let error as StoreError {
            return .failure(error)
        } catch {
            fatalError("not a StoreError: \(type(of: error)): \(error)")
        }
    }

    /// An empty store as healthport 0.1 before anchor keys wrote it (migrations v1 and v2), its
    /// file's bytes: made once, since making its tables costs more than the rest of an input.
    static let olderStoreTemplate: [UInt8] = {
        let path = FuzzDriver.scratchFolder + "/older-store-template.sqlite"
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA application_id = \(StoreSchema.applicationID)")
            }
            try StoreSchema.migrator.migrate(queue, upTo: "v2")
            try queue.close()
        } catch {
            fatalError("cannot make the older store's template: \(error)")
        }
        guard let bytes = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
        return [UInt8](bytes)
    }()

    /// A store as healthport 0.1 before anchor keys wrote it (migrations v1 and v2), its rows
    /// made of `fields`. `false` when SQLite refuses the rows (constraints): not a store.
    static func writeOlderStore(at path: String, fields: [ArraySlice<UInt8>]) -> Bool {
        func text(_ index: Int) -> String {
            index < fields.count ? String(decoding: fields[index], as: UTF8.self) : ""
        }
        func number(_ index: Int) -> Int64 {
            guard index < fields.count else { return 0 }
            return fields[index].prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }
        do {
            FuzzDriver.write(olderStoreTemplate, to: path)
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "UPDATE store_info SET value = ? WHERE key = 'anchor'", arguments: [number(0)])
                try db.execute(
                    sql: "INSERT INTO imports (imported_at, input, export_date, header, objects, added, deleted, anchor) VALUES ('2024-01-01T00:00:00Z', 'x', ?, ?, 0, 0, 0, ?)",
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
                        arguments: [anchor, text(index), text(index + 1), text(index + 2), number(index + 3), number(index + 4),
                                    index % 2 == 0 ? 1 : nil, text(index + 5)])
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

    final class CountingSink: ObjectSink {
        func exportDidBegin(_ header: ExportHeader) throws {}
        func consume(_ object: HealthObject) throws {}
    }

    /// A tiny export: two heart rates and a step count.
    final class Source: ObjectSource {
        static let lines = [
            #"{"kind":"quantitySample","uuid":"00000000-0000-4000-8000-000000000001","sampleType":"HKQuantityTypeIdentifierHeartRate","startDate":"2024-01-01T09:00:00+01:00","endDate":"2024-01-01T09:00:00+01:00","quantity":{"value":72,"unit":"count/min"},"sourceRevision":{"source":{"name":"Watch"}}}"#,
            #"{"kind":"quantitySample","uuid":"00000000-0000-4000-8000-000000000002","sampleType":"HKQuantityTypeIdentifierHeartRate","startDate":"2024-01-01T09:05:00+01:00","endDate":"2024-01-01T09:05:00+01:00","quantity":{"value":75,"unit":"count/min"},"sourceRevision":{"source":{"name":"Watch"}}}"#,
            #"{"kind":"quantitySample","uuid":"00000000-0000-4000-8000-000000000003","sampleType":"HKQuantityTypeIdentifierStepCount","startDate":"2024-01-01T09:00:00+01:00","endDate":"2024-01-01T09:10:00+01:00","quantity":{"value":500,"unit":"count"},"sourceRevision":{"source":{"name":"Phone"}}}"#,
        ]

        func stream(into sink: any ObjectSink) throws {
            try sink.exportDidBegin(ExportHeader(locale: "en_US"))
            for line in Self.lines { try sink.consume(try ObjectDecoder.decode(Array(line.utf8))) }
        }
    }
}

FuzzDriver.run(test)
