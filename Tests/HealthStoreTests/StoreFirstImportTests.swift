import Foundation
import GRDB
import HealthExport
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing

@testable import HealthStore

/// A new store's first import is written into a hidden file beside the store's path, with no
/// log, and put at the path only once it committed (`NewStoreFile`, issue 51): until then there
/// is no store at the path; a failed import leaves nothing; nothing that appears at the path
/// meanwhile is replaced; and the store it leaves is the one an import into an existing empty
/// store (the way every first import was made before) leaves.
@Suite struct StoreFirstImportTests {
    static let sample = Fixtures.sampleData.appendingPathComponent("export.zip").path

    /// The sample export's objects, handed to the import one by one, calling `midway` once
    /// after half of them (on the import's reading thread, while the database's thread inserts).
    final class InterruptedSource: ObjectSource {
        let header: ExportHeader
        let objects: [HealthObject]
        let midway: () throws -> Void

        init(midway: @escaping () throws -> Void) throws {
            let read = try ObjectCollector.read(StoreFirstImportTests.sample)
            header = read.header
            objects = read.objects
            self.midway = midway
        }

        func stream(into sink: any ObjectSink) throws {
            try sink.exportDidBegin(header)
            for (index, object) in objects.enumerated() {
                if index == objects.count / 2 { try midway() }
                try sink.consume(object)
            }
        }
    }

    struct Interrupted: Error {}

    /// The names in a folder, hidden ones included.
    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o777
    }

    static func importSample(into store: HealthStore) throws -> HealthStore.ImportSummary {
        try store.importObjects(
            from: ExportObjectSource(try ExportReader(.path(sample)), query: .everything), inputName: "export.zip")
    }

    /// A source that throws halfway: no file at the path, and no hidden file either; the same
    /// object then imports, and the store is there.
    @Test func aFailedFirstImportLeavesNoFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        let path = folder.appendingPathComponent("health.sqlite").path
        let store = try HealthStore.openForWriting(at: path)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(throws: Interrupted.self) {
            try store.importObjects(from: try InterruptedSource { throw Interrupted() }, inputName: "export.zip")
        }
        #expect(try Self.names(in: folder) == [])
        let summary = try Self.importSample(into: store)
        #expect(summary.added > 1000)
        #expect(try Self.names(in: folder) == ["health.sqlite"])
        #expect(try store.statistics().objects == summary.added)
    }

    /// While the first import runs, the path holds nothing (a reader finds no store) and the
    /// hidden file is the owner's alone; the store it becomes is too.
    @Test func theNewStoreIsPrivateAndUnseenUntilItsImportCommits() throws {
        let folder = try Fixtures.temporaryDirectory()
        let path = folder.appendingPathComponent("health.sqlite").path
        let store = try HealthStore.openForWriting(at: path)
        let hidden = try #require(store.newFile).temporaryPath
        #expect(hidden.hasPrefix(folder.path + "/.health.sqlite.healthport-\(getpid())-"))
        var seenMidway: (names: [String], mode: mode_t, reader: StoreErrorCode?)? = nil
        let summary = try store.importObjects(
            from: try InterruptedSource {
                var code: StoreErrorCode? = nil
                do { _ = try HealthStore.openForReading(at: path) } catch let error as StoreError { code = error.code }
                seenMidway = (try Self.names(in: folder), Self.mode(hidden), code)
            }, inputName: "export.zip")
        #expect(seenMidway?.names == [URL(fileURLWithPath: hidden).lastPathComponent])
        #expect(seenMidway?.mode == 0o600)
        #expect(seenMidway?.reader == .notFound)
        #expect(try Self.names(in: folder) == ["health.sqlite"])
        #expect(Self.mode(path) == 0o600)
        // In WAL mode, as every store; readable at once.
        let reader = try HealthStore.openForReading(at: path)
        #expect(try reader.statistics().objects == summary.added)
        let queue = try DatabaseQueue(path: path)
        #expect(try queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        try queue.close()
    }

    /// What a killed first import left (its process gone) is removed by the next store opened
    /// for writing beside it; a live process's, and another store's, are left.
    @Test func aStaleHiddenFileOfAProcessThatIsGoneIsRemoved() throws {
        let folder = try Fixtures.temporaryDirectory()
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier
        let live = getppid()
        let stale = [".health.sqlite.healthport-\(dead)-AbC123", ".health.sqlite.healthport-\(dead)-AbC123-wal"]
        let kept = [".health.sqlite.healthport-\(live)-XyZ789", ".other.sqlite.healthport-\(dead)-QrS456"]
        for name in stale + kept {
            #expect(
                FileManager.default.createFile(
                    atPath: folder.appendingPathComponent(name).path, contents: Data("rows".utf8)))
        }
        let path = folder.appendingPathComponent("health.sqlite").path
        let store = try HealthStore.openForWriting(at: path)
        let own = URL(fileURLWithPath: try #require(store.newFile).temporaryPath).lastPathComponent
        #expect(try Self.names(in: folder) == (kept + [own]).sorted())
        _ = try Self.importSample(into: store)
        #expect(try Self.names(in: folder) == (kept + ["health.sqlite"]).sorted())
    }

    /// A file made at the path while the first import runs is left as it is, and the import
    /// fails saying so; a store made there by another import is the one this store reads and
    /// imports into from then on.
    @Test(arguments: [false, true])
    func aFileMadeAtThePathDuringTheImportIsNotReplaced(byAnotherImport: Bool) throws {
        let folder = try Fixtures.temporaryDirectory()
        let path = folder.appendingPathComponent("health.sqlite").path
        let bytes = Data("a file someone made".utf8)
        var other: HealthStore.Statistics? = nil
        let store = try HealthStore.openForWriting(at: path)
        do {
            _ = try store.importObjects(
                from: try InterruptedSource {
                    if byAnotherImport {
                        let first = try HealthStore.openForWriting(at: path)
                        _ = try Self.importSample(into: first)
                        other = try first.statistics()
                    } else {
                        #expect(FileManager.default.createFile(atPath: path, contents: bytes))
                    }
                }, inputName: "export.zip")
            Issue.record("the import replaced what appeared at the path")
        } catch let error as StoreError {
            #expect(error.code == .database && error.message.contains("another process made a store here"), "\(error)")
        }
        #expect(try Self.names(in: folder) == ["health.sqlite"])
        if byAnotherImport {
            let before = try #require(other)
            #expect(try HealthStore.openForReading(at: path).statistics() == before)
            // This object now reads that store, and imports into it (the same objects: nothing new).
            #expect(try store.statistics() == before)
            let again = try Self.importSample(into: store)
            #expect(again.unchanged && again.objects == before.objects)
        } else {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    /// Every row, the schema and the file's settings of a store, but its own anchor key and the
    /// time of each import.
    static func contents(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var lines: [String] = []
            for pragma in ["page_size", "journal_mode", "application_id", "user_version", "auto_vacuum", "encoding"] {
                lines.append("\(pragma) \(try String.fetchOne(db, sql: "PRAGMA \(pragma)") ?? "")")
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
            {
                lines.append("schema \(row)")
            }
            for table in try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            {
                let columns = try db.columns(in: table).map(\.name).filter {
                    !(table == "imports" && $0 == "imported_at")
                }
                let filter = table == "store_info" ? " WHERE key <> 'anchor_key'" : ""
                let select =
                    "SELECT \(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")) FROM \(table.quotedDatabaseIdentifier)\(filter)"
                lines += try Row.fetchAll(db, sql: select).map { "\(table) \($0)" }.sorted()
            }
            return lines
        }
    }

    /// The same export into a new store (its hidden file) and into an existing empty file (the
    /// store made at its path, as every first import was): the same rows, summaries, anchors
    /// and schema, and the same answers, each store's tokens aside.
    @Test func aNewStoreReadsAsAStoreImportedInPlace() throws {
        let folder = try Fixtures.temporaryDirectory()
        let new = folder.appendingPathComponent("new.sqlite").path
        let inPlace = folder.appendingPathComponent("in-place.sqlite").path
        #expect(FileManager.default.createFile(atPath: inPlace, contents: Data()))
        let newStore = try HealthStore.openForWriting(at: new)
        let placedStore = try HealthStore.openForWriting(at: inPlace)
        #expect(newStore.newFile != nil && placedStore.newFile == nil)
        let summaries = (try Self.importSample(into: newStore), try Self.importSample(into: placedStore))
        #expect(summaries.0.objects == summaries.1.objects && summaries.0.added == summaries.1.added)
        #expect(try newStore.position() == (try placedStore.position()))
        // The anchor a store returns is its own (each store has its key), and means the same.
        #expect(
            try newStore.anchor(token: summaries.0.anchor.token).position
                == (try placedStore.anchor(token: summaries.1.anchor.token).position))
        #expect(throws: StoreError.self) { try newStore.anchor(token: summaries.1.anchor.token) }
        func changes(_ store: HealthStore) throws -> [String] {
            var lines: [String] = []
            _ = try store.changes(
                since: try store.anchor(token: StoreAnchor.originText), query: QueryExecutor(ObjectQuery()), limit: nil,
                added: { lines.append("\($0.uuid) \($0.objectType.identifier)") },
                deleted: { uuid, type in lines.append("- \(uuid) \(type)") })
            return lines
        }
        #expect(try changes(newStore) == (try changes(placedStore)))
        let newContents = try Self.contents(new)
        #expect(newContents.contains("journal_mode wal") && newContents.contains("page_size \(HealthStore.pageSize)"))
        #expect(newContents == (try Self.contents(inPlace)))
    }

    /// An import that changes nothing (an export of no objects and no date) into a new store
    /// leaves the empty store, as it did when the store was made at its path; so does the
    /// watcher's first record (`recordWatchedExport`), the one other write.
    @Test func anEmptyFirstImportOrARecordPutsTheEmptyStoreInPlace() throws {
        let folder = try Fixtures.temporaryDirectory()
        let path = folder.appendingPathComponent("health.sqlite").path
        let store = try HealthStore.openForWriting(at: path)
        let summary = try store.importObjects(
            from: StoreObjectIndexTests.ListSource(header: ExportHeader(), objects: []), inputName: "empty")
        #expect(summary.unchanged)
        #expect(try Self.names(in: folder) == ["health.sqlite"])
        #expect(
            try HealthStore.openForReading(at: path).statistics()
                == HealthStore.Statistics(objects: 0, deletedObjects: 0, imports: 0, anchor: 0))

        let watched = folder.appendingPathComponent("watched.sqlite").path
        let ledger = try HealthStore.openForWriting(at: watched)
        #expect(try ledger.watchedExport(digest: "abc") == nil)
        #expect(!FileManager.default.fileExists(atPath: watched))
        try ledger.recordWatchedExport(digest: "abc", .init(name: "export.zip", imported: false, message: "damaged"))
        #expect(FileManager.default.fileExists(atPath: watched))
        #expect(try HealthStore.openForReading(at: watched).watchedExport(digest: "abc")?.message == "damaged")
        // The ledger's pool is open on the store now (its `-wal` and `-shm`); no hidden file is left.
        #expect(try Self.names(in: folder).filter { $0.hasPrefix(".") } == [])
    }
}
