import Foundation
import GRDB
import HealthJSON
import HealthModel
import HealthQuery

@testable import HealthStore

/// What the store's two harnesses share: reading a store as every consumer does, and the tiny
/// export they import into it.
public enum StoreFuzzing {
    public static func expect(_ condition: Bool, _ message: String) {
        if !condition { fatalError(message) }
    }

    /// Removes a store and the files SQLite keeps beside it.
    public static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// Whether a file's SQLite header carries healthport's application id (offset 68, big-endian).
    public static func claimsToBeAStore(_ file: Data) -> Bool {
        guard file.count >= 72 else { return false }
        let id = file[file.startIndex + 68..<file.startIndex + 72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Int32(bitPattern: id) == StoreSchema.applicationID
    }

    /// Reads the whole store as a consumer would: every object, every change since the origin,
    /// the anchor. A refusal is a `StoreError`; anything else thrown is a finding.
    public static func read(_ path: String) -> Result<Int, StoreError> {
        answer { try readWhole(HealthStore.openForReading(at: path)) }
    }

    /// The same reads through a store already open (the one an import just wrote: one store
    /// opened less an input).
    public static func read(_ store: HealthStore) -> Result<Int, StoreError> {
        answer { try readWhole(store) }
    }

    /// Every object of the store, through an unfiltered query.
    public static func readObjects(_ path: String) -> Result<Int, StoreError> {
        answer { try HealthStore.openForReading(at: path).read(query: QueryExecutor(ObjectQuery()), into: CountingSink()) }
    }

    /// Opens the store for writing (creating, upgrading) and imports `Source` into it, forced.
    /// `opened` is `false` when the store was refused before an import began; `imported`, the
    /// store once the import committed.
    public static func openAndImport(_ path: String) -> (opened: Bool, imported: HealthStore?) {
        var opened = false
        let imported = answer {
            let store = try HealthStore.openForWriting(at: path)
            opened = true
            _ = try store.importObjects(from: Source(), inputName: "fuzz", force: true)
            return store
        }
        return (opened, try? imported.get())
    }

    private static func readWhole(_ store: HealthStore) throws -> Int {
        let executor = QueryExecutor(ObjectQuery())
        let count = try store.read(query: executor, into: CountingSink())
        var changes = 0
        _ = try store.changes(
            since: try store.anchor(token: StoreAnchor.originText), query: executor, limit: nil,
            added: { _ in changes += 1 }, deleted: { _, _ in changes += 1 })
        _ = try store.anchor()
        return count + changes
    }

    /// `body`'s result, or the `StoreError` it threw; any other error is a finding.
    private static func answer<T>(_ body: () throws -> T) -> Result<T, StoreError> {
        do {
            return .success(try body())
        } catch let error as StoreError {
            return .failure(error)
        } catch {
            fatalError("not a StoreError: \(type(of: error)): \(error)")
        }
    }

    /// Whether the input names one of the imported objects' uuids (its row then stays as the
    /// input wrote it).
    public static func sharesUUIDs(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self).uppercased()
        return (1...3).contains { text.contains("00000000-0000-4000-8000-00000000000\($0)") }
    }

    /// The bytes of a store file made once: `make` writes it at the path given, then its WAL is
    /// folded into it, and it is rewritten in pages of `pageSize` bytes (small pages: a small
    /// file to write for every input, and mutations that reach SQLite's page structure).
    public static func template(named name: String, pageSize: Int, _ make: (String) throws -> Void) -> [UInt8] {
        let path = NSTemporaryDirectory() + "/healthport-fuzz-template-\(getpid())-\(name).sqlite"
        remove(path)
        defer { remove(path) }
        do {
            try make(path)
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "delete"
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                try db.execute(sql: "PRAGMA page_size = \(pageSize)")
                try db.execute(sql: "VACUUM")
                if mode.lowercased() == "wal" { try db.execute(sql: "PRAGMA journal_mode = WAL") }
            }
            try queue.close()
        } catch {
            fatalError("cannot make the template \(name): \(error)")
        }
        guard let bytes = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
        return [UInt8](bytes)
    }

    public final class CountingSink: ObjectSink {
        public init() {}
        public func exportDidBegin(_ header: ExportHeader) throws {}
        public func consume(_ object: HealthObject) throws {}
    }

    /// A tiny export: two heart rates and a step count.
    public final class Source: ObjectSource {
        static let lines = [
            #"{"kind":"quantitySample","uuid":"00000000-0000-4000-8000-000000000001","sampleType":"HKQuantityTypeIdentifierHeartRate","startDate":"2024-01-01T09:00:00+01:00","endDate":"2024-01-01T09:00:00+01:00","quantity":{"value":72,"unit":"count/min"},"sourceRevision":{"source":{"name":"Watch"}}}"#,
            #"{"kind":"quantitySample","uuid":"00000000-0000-4000-8000-000000000002","sampleType":"HKQuantityTypeIdentifierHeartRate","startDate":"2024-01-01T09:05:00+01:00","endDate":"2024-01-01T09:05:00+01:00","quantity":{"value":75,"unit":"count/min"},"sourceRevision":{"source":{"name":"Watch"}}}"#,
            #"{"kind":"quantitySample","uuid":"00000000-0000-4000-8000-000000000003","sampleType":"HKQuantityTypeIdentifierStepCount","startDate":"2024-01-01T09:00:00+01:00","endDate":"2024-01-01T09:10:00+01:00","quantity":{"value":500,"unit":"count"},"sourceRevision":{"source":{"name":"Phone"}}}"#,
        ]

        public init() {}

        public func stream(into sink: any ObjectSink) throws {
            try sink.exportDidBegin(ExportHeader(locale: "en_US"))
            for line in Self.lines { try sink.consume(try ObjectDecoder.decode(Array(line.utf8))) }
        }
    }
}
