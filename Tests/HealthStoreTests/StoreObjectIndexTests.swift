import Foundation
import GRDB
import HealthExport
import HealthModel
import HealthOutput
import HealthTestSupport
import Testing

@testable import HealthStore

/// An import finds the store's objects in memory up to `StoreObjectIndex.inMemoryLimit` objects
/// and on disk past it (so that its memory does not grow with the store): the same sequence of
/// imports into a store of each kind gives the same answers and the same rows.
@Suite struct StoreObjectIndexTests {
    /// Objects handed to the import one by one, on one thread (as healthport's NDJSON is read).
    final class ListSource: ObjectSource {
        let header: ExportHeader
        let objects: [HealthObject]

        init(header: ExportHeader, objects: [HealthObject]) {
            self.header = header
            self.objects = objects
        }

        func stream(into sink: any ObjectSink) throws {
            try sink.exportDidBegin(header)
            for object in objects { try sink.consume(object) }
        }
    }

    /// A generated export's document, and its objects as read.
    static func generated(days: Int, seed: UInt64, in directory: URL) throws -> (path: String, read: ObjectCollector) {
        var options = ExportGenerator.Options.sample(days: days)
        options.seed = seed
        let path = directory.appendingPathComponent("export-\(days)-\(seed).xml").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        _ = ExportGenerator(options: options).writeDocument(to: handle)
        try handle.close()
        return (path, try ObjectCollector.read(path))
    }

    /// Objects written as an export document, read back by the parallel reader when imported.
    static func write(_ header: ExportHeader, _ objects: [HealthObject], to path: String) throws -> String {
        let writer = ExportXMLWriter(file: try AtomicFile(destination: path))
        try writer.begin(header)
        for object in objects { try writer.write(object) }
        try writer.finish()
        return path
    }

    /// Every row a store's import writes, but the time it ran and the store's own anchor key.
    static func rows(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var rows: [String] = []
            for (table, order) in [
                ("objects", "anchor"), ("deleted_objects", "anchor"), ("daily_summary", "sample_type, date"), ("sleep_nights", "night"),
                ("summary_sources", "source"), ("workout_summary", "uuid"), ("type_extents", "type"), ("sources", "id"),
                ("sample_types", "id"), ("devices", "id"),
            ] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY \(order)") { rows.append("\(table) \(row)") }
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM store_info WHERE key <> 'anchor_key' ORDER BY key") { rows.append("store_info \(row)") }
            for row in try Row.fetchAll(
                db, sql: "SELECT id, input, export_date, objects, added, deleted, anchor, input_digest, platform FROM imports ORDER BY id")
            {
                rows.append("imports \(row)")
            }
            return rows
        }
    }

    @Test func findingTheStoresObjectsOnDiskAnswersAsInMemory() throws {
        let directory = try Fixtures.temporaryDirectory()
        let month = try Self.generated(days: 30, seed: 1, in: directory)
        let longer = try Self.generated(days: 40, seed: 1, in: directory)
        let someoneElse = try Self.generated(days: 10, seed: 2, in: directory)
        #expect(month.read.objects.count > 1000)
        // The month again, less every ninth object, with a run of 300 in the reverse order (the
        // lookups out of order), and the ten days more: deletions, additions, another order.
        var changed = month.read.objects.enumerated().filter { $0.offset % 9 != 4 }.map(\.element)
        changed[200..<500].reverse()
        let monthUUIDs = Set(month.read.objects.map(\.uuid))
        changed += longer.read.objects.filter { !monthUUIDs.contains($0.uuid) }
        let changedPath = try Self.write(month.read.header, changed, to: directory.appendingPathComponent("changed.xml").path)
        // Another phone's objects, read on one thread.
        var otherHeader = someoneElse.read.header
        otherHeader.platform = .healthConnect
        let monthAgain = directory.appendingPathComponent("month-again.xml").path
        try FileManager.default.copyItem(atPath: month.path, toPath: monthAgain)
        try FileHandle(forWritingAtPath: monthAgain).map { handle in
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n".utf8))
            try handle.close()
        }

        let imports: [(name: String, source: () throws -> any ObjectSource)] = [
            ("month.xml", { ExportObjectSource(try ExportReader(.path(month.path)), query: .everything) }),
            ("changed.xml", { ExportObjectSource(try ExportReader(.path(changedPath)), query: .everything) }),
            ("other.ndjson", { ListSource(header: otherHeader, objects: someoneElse.read.objects) }),
            ("month-again.xml", { ExportObjectSource(try ExportReader(.path(monthAgain)), query: .everything) }),
            ("changed.ndjson", { ListSource(header: month.read.header, objects: changed.reversed()) }),
            ("longer.xml", { ExportObjectSource(try ExportReader(.path(longer.path)), query: .everything) }),
        ]
        var answers: [[String]] = []
        for limit in [Int.max, 0] {
            let path = directory.appendingPathComponent("store-\(limit).sqlite").path
            var answer: [String] = []
            for (name, source) in imports {
                let store = try HealthStore.openForWriting(at: path)
                store.objectIndexInMemoryLimit = limit
                let summary = try store.importObjects(from: try source(), inputName: name, force: true)
                answer.append("\(name): \(summary.objects) objects, \(summary.added) added, \(summary.deleted) deleted")
                answer += try Self.rows(path)
            }
            answers.append(answer)
        }
        #expect(answers[0].filter { $0.hasPrefix("deleted_objects") }.count > 100)
        #expect(answers[0].count == answers[1].count)
        for (inMemory, onDisk) in zip(answers[0], answers[1]) where inMemory != onDisk {
            Issue.record("in memory: \(inMemory)\non disk:   \(onDisk)")
            break
        }
    }

    /// The bits from the first anchor: an anchor below, above, again, or at either end.
    @Test func anAnchorSetHoldsWhatWasInsertedOnce() {
        var set = AnchorSet(first: 1_000, last: 1_200, objects: 150)
        for anchor: Int64 in [1_000, 1_063, 1_064, 1_200, 1_064] { set.insert(anchor) }
        #expect(set.count == 4)
        #expect([Int64(1_000), 1_063, 1_064, 1_200].allSatisfy(set.contains))
        #expect(![Int64(999), 1_001, 1_065, 1_201, -1, .max].contains(where: set.contains))
    }

    /// A store whose anchors are far apart (one object at 2^60, as a damaged or hand-made store
    /// holds) gets a set whose memory follows the anchors met, not the span: made by bits, this
    /// one would ask for 2^54 words.
    @Test func aSparseStoresAnchorsAreHeldByValue() {
        var set = AnchorSet(first: 1, last: 1 << 60, objects: 2)
        set.insert(1 << 60)
        set.insert(1)
        set.insert(1 << 60)
        #expect(set.count == 2)
        #expect(set.contains(1 << 60) && set.contains(1) && !set.contains(2) && !set.contains((1 << 60) - 1))
    }

    /// The same through an import: a store whose object sits at anchor 2^60 (its anchor moved
    /// there too, so it is not refused as damaged) takes the same export again, and a changed one.
    @Test func anImportIntoAStoreOfFarApartAnchors() throws {
        let directory = try Fixtures.temporaryDirectory()
        let month = try Self.generated(days: 3, seed: 3, in: directory)
        let path = directory.appendingPathComponent("store.sqlite").path
        let first = try HealthStore.openForWriting(at: path).importObjects(
            from: ListSource(header: month.read.header, objects: month.read.objects), inputName: "a.ndjson", force: true)
        #expect(first.added == month.read.objects.count)
        let far: Int64 = 1 << 60
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE objects SET anchor = ? WHERE anchor = (SELECT max(anchor) FROM objects)", arguments: [far])
            try db.execute(sql: "UPDATE store_info SET value = ? WHERE key = 'anchor'", arguments: [far])
        }
        try queue.close()
        let less = Array(month.read.objects.dropLast(5))
        let again = try HealthStore.openForWriting(at: path).importObjects(
            from: ListSource(header: month.read.header, objects: less), inputName: "b.ndjson", force: true)
        // Nothing new; the five left out are gone (whichever of them sat at 2^60).
        #expect(again.added == 0)
        #expect(again.deleted == 5)
    }
}
