import Foundation
import GRDB
import HealthExport
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery
import HealthTestSupport
import Testing

@testable import HealthStore

/// Stores written in the layout before schema `v5` (healthport 0.1.0's, whose layout is `v1`,
/// and `v4`'s) are upgraded in place on first use: every object, its uuid and anchor, every
/// tombstone and the position it was added at, and the anchor key are kept, and the upgraded
/// store answers as a store made by a new import does.
@Suite struct StoreUpgradeTests {
    /// The rows an older healthport wrote for `objects` (anchors 1…n, in this order) and
    /// `deleted` (tombstones after them), by one import: uuids and types as text, each object
    /// as its JSON less its kind, uuid, type and device, devices once each in `devices`.
    static func writeOlderStore(at path: String, upTo migration: String, objects: [HealthObject], deleted: [HealthObject]) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = \(StoreSchema.applicationID)") }
        try StoreSchema.migrator.migrate(queue, upTo: migration)
        let encoder = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO imports (id, imported_at, input, header, objects, added, deleted, anchor) VALUES (1, '2024-01-15T10:00:00Z', 'export.zip', '{}', ?, ?, ?, ?)",
                arguments: [objects.count, objects.count, deleted.count, objects.count + deleted.count])
            var devices: [Device: Int64] = [:]
            func row(_ object: HealthObject) throws -> [(String, DatabaseValueConvertible?)] {
                var stored = object
                var deviceID: Int64? = nil
                if let device = stored.takeDevice() {
                    if let id = devices[device] {
                        deviceID = id
                    } else {
                        let id = Int64(devices.count + 1)
                        devices[device] = id
                        try db.execute(
                            sql: "INSERT INTO devices (id, body) VALUES (?, ?)",
                            arguments: [id, String(decoding: ModelJSON.encode(device), as: UTF8.self)])
                        deviceID = id
                    }
                }
                var json = try encoder.encode(stored)
                json.removeLast()
                let type = object.objectType.identifier
                let body = StoredBody.strip(json, kind: object.kindName, uuid: object.uuid.uuidString, type: type)
                return [
                    ("uuid", object.uuid.uuidString), ("kind", object.kindName), ("type", type),
                    ("start_date", object.startDate?.secondsSince1970), ("end_date", object.endDate?.secondsSince1970),
                    ("device_id", deviceID), ("import_id", 1), ("body", String(decoding: body, as: UTF8.self)),
                ]
            }
            for (index, object) in objects.enumerated() {
                var columns = try row(object)
                columns.append(("anchor", index + 1))
                if case .quantitySample(let q) = object {
                    columns.append(("value", q.quantity.value.value))
                    columns.append(("unit", q.quantity.unit))
                }
                let source = object.sampleAttributes?.sourceRevision.source.name
                columns.append(("source", source))
                columns.append(("source_key", source.map(SourceName.normalized)))
                try db.execute(
                    sql: "INSERT INTO objects (\(columns.map(\.0).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))",
                    arguments: StatementArguments(columns.map(\.1)))
            }
            for (index, object) in deleted.enumerated() {
                var columns = try row(object)
                columns.append(("anchor", objects.count + index + 1))
                columns.append(("added_anchor", index + 1))
                try db.execute(
                    sql: "INSERT INTO deleted_objects (\(columns.map(\.0).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))",
                    arguments: StatementArguments(columns.map(\.1)))
            }
            try db.execute(sql: "UPDATE store_info SET value = ? WHERE key = 'anchor'", arguments: [objects.count + deleted.count])
        }
        try queue.close()
    }

    /// Each object as the NDJSON writer prints it: what "the same object" means to a reader.
    static func lines(_ objects: [HealthObject]) throws -> [String] {
        let encoder = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
        return try objects.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
    }

    /// The sample export's objects, and tombstones of objects it does not hold (forty of a
    /// generated export's).
    static func exports() throws -> (newer: [HealthObject], gone: [HealthObject], path: String) {
        let path = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let newer = try ObjectCollector.read(path).objects
        let kept = Set(newer.map(\.uuid))
        // Another person's few days (a generated export): none of its objects is in the sample.
        var options = ExportGenerator.Options()
        options.seed = 77
        options.days = 2
        let other = try Fixtures.temporaryDirectory()
        _ = try ExportGenerator(options: options).writeFolder(at: other, documentName: "export.xml")
        let gone = try ObjectCollector.read(other.path).objects.filter { !kept.contains($0.uuid) }.prefix(40).map { $0 }
        return (newer, gone, path)
    }

    @Test(arguments: ["v1", "v4"])
    func aStoreOfTheOlderLayoutIsUpgradedOnFirstUseWithEverythingKept(_ migration: String) throws {
        let (objects, gone, export) = try Self.exports()
        #expect(!gone.isEmpty && objects.count > 1000)
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        try Self.writeOlderStore(at: path, upTo: migration, objects: objects, deleted: gone)
        let keyBefore = try DatabaseQueue(path: path).read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = 'anchor_key'")
        }
        #expect((keyBefore != nil) == (migration == "v4"))

        // First use: a reading command.
        let store = try HealthStore.openForReading(at: path)
        #expect(try store.statistics() == HealthStore.Statistics(objects: objects.count, deletedObjects: gone.count, imports: 1, anchor: objects.count + gone.count))
        let applied = try DatabaseQueue(path: path).read { db in try StoreSchema.migrator.appliedIdentifiers(db) }
        #expect(applied == Set(StoreSchema.knownMigrations))
        let keyAfter = try DatabaseQueue(path: path).read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = 'anchor_key'")
        }
        if let keyBefore { #expect(keyAfter == keyBefore, "the anchor key, so every token handed out, is kept") }

        // Every object, in anchor order, as the export holds it; the tombstones after them.
        let all = ObjectCollector()
        try store.read(query: QueryExecutor(.all), into: all)
        #expect(try Self.lines(all.objects) == Self.lines(objects))
        var added: [ObjectUUID] = []
        var deleted: [ObjectUUID] = []
        let batch = try store.changes(
            since: try store.anchor(token: StoreAnchor.originText), query: QueryExecutor(.all), limit: nil,
            added: { added.append($0.uuid) }, deleted: { uuid, _ in deleted.append(uuid) })
        #expect(added == objects.map(\.uuid) && deleted == gone.map(\.uuid))
        #expect(batch.newAnchor == (try store.anchor()))
        let addedAnchors = try DatabaseQueue(path: path).read { db in
            try Int.fetchAll(db, sql: "SELECT added_anchor FROM deleted_objects ORDER BY anchor")
        }
        #expect(addedAnchors == Array(1..<(gone.count + 1)))

        // The views read the compact rows as they read the older ones.
        let (quantities, uuidText) = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM quantity_samples") ?? 0,
             try String.fetchOne(db, sql: "SELECT uuid FROM quantity_samples ORDER BY anchor LIMIT 1"))
        }
        let firstQuantity = objects.first { if case .quantitySample = $0 { return true } else { return false } }
        #expect(quantities == objects.filter { $0.kindName == "quantitySample" }.count)
        #expect(uuidText == firstQuantity?.uuid.uuidString)

        // The same export again, read on two threads (`ChunkedObjectSource`), finds every
        // object in place: nothing changes.
        let reader = try ExportReader(.path(export))
        reader.jobs = 2
        let again = try HealthStore.openForWriting(at: path).importObjects(
            from: ExportObjectSource(reader, query: .everything), inputName: "export.zip")
        #expect(again.added == 0 && again.deleted == 0)
        #expect(again.anchor == (try store.anchor()))
    }

    /// An older store whose rows cannot be upgraded (here a device whose body is not JSON,
    /// which the compact layout decodes) is refused by every command with a `StoreError`, every
    /// time, and its rows are left as they were, in the file's own journal mode: the migration
    /// that fails rolls back with every migration before it: one transaction (the store
    /// fuzzer's finding, and the third audit's item 7).
    /// A store that an upgrade leaves needing it again (damaged: here a trigger puts the
    /// summary rules back, as a damaged index hiding the row the upgrade wrote did in the store
    /// fuzzer's finding) is upgraded once per opening, then read as it is; before, each opening
    /// upgraded it again, until the stack overflowed.
    @Test func aStoreTheUpgradeLeavesAsItWasIsUpgradedOnceAndRead() throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        let export = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let imported = try HealthStore.openForWriting(at: path).importObjects(
            from: ExportObjectSource(try ExportReader(.path(export)), query: .everything), inputName: "export.zip")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                UPDATE store_info SET value = 32 WHERE key = 'summary_rules';
                CREATE TRIGGER keep_old_rules AFTER UPDATE ON store_info WHEN new.key = 'summary_rules'
                BEGIN UPDATE store_info SET value = 32 WHERE key = 'summary_rules'; END;
                """)
        }
        try queue.close()
        let store = try HealthStore.openForReading(at: path)
        #expect(try store.read(query: QueryExecutor(ObjectQuery()), into: ObjectCollector()) == imported.objects)
        #expect(try DatabaseQueue(path: path).read { db in try StoreSummaries.rules(db) } == 32)
    }

    @Test func anOlderStoreThatCannotBeUpgradedIsRefusedWithItsRowsKept() throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        try Self.writeOlderStore(at: path, upTo: "v2", objects: [], deleted: [])
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "INSERT INTO devices (id, body) VALUES (1, '')") }
        try queue.close()
        for open in [{ _ = try HealthStore.openForReading(at: path) }, { _ = try HealthStore.openForWriting(at: path) }, { _ = try HealthStore.openForReading(at: path) }] {
            #expect {
                try open()
            } throws: { error in
                (error as? StoreError)?.code == .incompatible
            }
            let check = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
            let (mode, bodies, applied) = try check.read { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try String.fetchAll(db, sql: "SELECT body FROM devices"),
                 try StoreSchema.migrator.appliedIdentifiers(db))
            }
            #expect(mode == "delete")
            #expect(bodies == [""])
            // The upgrade is one transaction: not even the migrations before the one that
            // failed are kept (before, v3 and v4 committed, and the healthport that made the
            // store could no longer open it).
            #expect(applied == ["v1", "v2"])
            #expect(try check.read { db in try db.tableExists("daily_summary") || (try String.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = 'anchor_key'")) != nil } == false)
            try check.close()
        }
    }

    /// Four commands opening one older store at once: one upgrades it, the others wait for its
    /// lock and find nothing left to do; none fails (before: "UNIQUE constraint failed",
    /// "table … already exists").
    @Test func manyOpeningAnOlderStoreAtOnceAllSucceed() throws {
        let (objects, gone, _) = try Self.exports()
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        try Self.writeOlderStore(at: path, upTo: "v1", objects: objects, deleted: gone)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            do {
                let store = index % 2 == 0 ? try HealthStore.openForReading(at: path) : try HealthStore.openForWriting(at: path)
                _ = try store.position()
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let applied = try DatabaseQueue(path: path).read { db in try StoreSchema.migrator.appliedIdentifiers(db) }
        #expect(applied == Set(StoreSchema.knownMigrations))
    }

    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func append(_ text: String) { lock.withLock { list.append(text) } }
        var all: [String] { lock.withLock { list } }
    }

    /// A store that a process may not write is not upgraded, and says why.
    @Test(.enabled(if: getuid() != 0, "as root every file is writable, whatever its mode: the refusal cannot happen"))
    func aReadOnlyStoreOfTheOlderLayoutIsRefusedWithAReason() throws {
        let (objects, gone, _) = try Self.exports()
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        try Self.writeOlderStore(at: path, upTo: "v4", objects: objects, deleted: gone)
        chmod(path, 0o400)
        defer { chmod(path, 0o600) }
        #expect {
            try HealthStore.openForReading(at: path)
        } throws: { error in
            (error as? StoreError)?.code == .incompatible && "\(error)".contains("older healthport")
        }
    }
}

/// An import of the very file the store's latest import read is answered without reading it;
/// any other file is read (issue 41: "import again").
@Suite struct StoreSameFileTests {
    /// A source that must not be read.
    final class Unread: ObjectSource {
        var read = false
        func stream(into sink: any ObjectSink) throws { read = true }
    }

    @Test func theSameFileAgainIsNotReadAndAnotherFileIs() throws {
        let export = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        let store = try HealthStore.openForWriting(at: path)
        let size = Int64(try Data(contentsOf: URL(fileURLWithPath: export)).count)
        let file = HealthStore.ImportedFile(byteCount: size, digest: { "aaaa" })
        let first = try store.importObjects(
            from: ExportObjectSource(try ExportReader(.path(export)), query: .everything), inputName: "export.zip", input: file)
        let unread = Unread()
        let again = try store.importObjects(from: unread, inputName: "export.zip", input: file)
        #expect(!unread.read)
        #expect(again == HealthStore.ImportSummary(objects: first.objects, added: 0, deleted: 0, anchor: first.anchor))
        // Another digest, or another size: the file is read.
        for other in [HealthStore.ImportedFile(byteCount: size, digest: { "bbbb" }), HealthStore.ImportedFile(byteCount: size + 1, digest: { "aaaa" })] {
            let read = try store.importObjects(
                from: ExportObjectSource(try ExportReader(.path(export)), query: .everything), inputName: "export.zip", input: other)
            #expect(read.added == 0 && read.deleted == 0 && read.objects == first.objects)
        }
    }
}
