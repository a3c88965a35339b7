import Foundation
import GRDB
import HealthExport
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing

@testable import HealthStore

@Suite struct StoreTests {
    static func importedStore() throws -> (path: String, store: HealthStore, objects: Int) {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        let store = try HealthStore.openForWriting(at: path)
        let reader = try ExportReader(.path(Fixtures.sampleData.appendingPathComponent("export.zip").path))
        let summary = try store.importObjects(from: ExportObjectSource(reader, query: .everything), inputName: "export.zip")
        return (path, store, summary.objects)
    }

    @Test func aStoreFromANewerHealthportIsRefusedAndLeftAlone() throws {
        // The importing connection closes (and checkpoints) before the store is changed.
        let path = try { () throws -> String in try Self.importedStore().path }()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')") }
        try queue.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for open in [HealthStore.openForReading, HealthStore.openForWriting] {
            do {
                _ = try open(path)
                Issue.record("opened a store from a newer healthport")
            } catch let error as StoreError {
                #expect(error.code == .incompatible && error.message.contains("newer healthport"))
            }
        }
        let now = try Data(contentsOf: URL(fileURLWithPath: path))
        let differing = zip(now, bytes).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(now == bytes, "\(now.count) vs \(bytes.count): \(differing.prefix(10))")
    }

    /// A store whose latest import's header is not JSON (damaged, or written by something else)
    /// is refused by a read with `StoreError.incompatible`, never another error (the store
    /// fuzzer's finding, Fuzz/regressions/store).
    @Test func aDamagedImportHeaderIsAStoreError() throws {
        let path = try { () throws -> String in try Self.importedStore().path }()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "UPDATE imports SET header = '01-01 10:00:00 +0100'") }
        try queue.close()
        let store = try HealthStore.openForReading(at: path)
        #expect {
            try store.read(query: QueryExecutor(ObjectQuery()), into: ObjectCollector())
        } throws: { error in
            (error as? StoreError)?.code == .incompatible
        }
    }

    /// A store whose anchor is negative or not a number (damaged, or written by another
    /// program) is refused by every read and by an import with `StoreError.incompatible`;
    /// no token is made of it (the store fuzzer's finding: a negative position trapped).
    @Test(arguments: ["-1", "-9223372036854775808", "'seven'", "X'00'", "2.5"])
    func aDamagedAnchorIsAStoreError(value: String) throws {
        let path = try { () throws -> String in try Self.importedStore().path }()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "UPDATE store_info SET value = \(value) WHERE key = 'anchor'") }
        try queue.close()
        let isDamage: (any Error) -> Bool = { error in
            (error as? StoreError)?.code == .incompatible && (error as? StoreError)?.message.contains("damaged") == true
        }
        let store = try HealthStore.openForReading(at: path)
        #expect(performing: { try store.anchor() }, throws: isDamage)
        #expect(performing: { try store.position() }, throws: isDamage)
        #expect(performing: {
            try store.changes(
                since: try store.anchor(token: StoreAnchor.originText), query: QueryExecutor(ObjectQuery()), limit: nil,
                added: { _ in }, deleted: { _, _ in })
        }, throws: isDamage)
        let writer = try HealthStore.openForWriting(at: path)
        let reader = try ExportReader(.path(Fixtures.sampleData.appendingPathComponent("export.zip").path))
        #expect(performing: {
            try writer.importObjects(from: ExportObjectSource(reader, query: .everything), inputName: "export.zip", force: true)
        }, throws: isDamage)
    }

    @Test func aStoreWhoseSchemaIsIncompleteIsUpgradedOnFirstUse() throws {
        // A store made before its first migration completed (the earliest "older schema"):
        // whichever command opens it first, a reading one included, migrates it.
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "PRAGMA application_id = \(StoreSchema.applicationID)")
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        try queue.close()
        let store = try HealthStore.openForReading(at: path)
        #expect(try store.statistics() == HealthStore.Statistics(objects: 0, deletedObjects: 0, imports: 0, anchor: 0))
        _ = try HealthStore.openForWriting(at: path)
    }

    /// The workouts view gives totals as HealthKit (and workouts.csv) does: recent exports
    /// print them only as statistics.
    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples")) func theWorkoutsViewFillsTotalsFromStatistics() throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        let export = Fixtures.samples.appendingPathComponent("nicolasreyrolle-apple-health-analyzer/exports/workout_running.xml").path
        _ = try HealthStore.openForWriting(at: path).importObjects(from: ExportObjectSource(try ExportReader(.path(export)), query: .everything), inputName: "run.xml")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let totals = try queue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT total_distance, total_distance_unit, total_energy_burned, total_energy_burned_unit FROM workouts"))
            return (0..<4).map { (row[$0] as DatabaseValue).description }
        }
        #expect(totals == ["8.95512", "\"km\"", "655.465", "\"kcal\""])
    }

    /// An empty or relative `HOME` never puts the store under `/.local`: the account's home
    /// directory from the user database is used instead.
    @Test func anEmptyHomeDoesNotPutTheStoreAtTheRoot() {
        for home in ["", "relative/dir"] {
            let path = StoreLocation.resolve(nil, environment: ["HOME": home])
            #expect(!path.hasPrefix("/.local"), "\(path)")
            #expect(path.hasPrefix("/") && path.hasSuffix("/.local/share/healthport/health.sqlite"), "\(path)")
        }
        #expect(StoreLocation.resolve(nil, environment: ["HOME": "/home/ada"]) == "/home/ada/.local/share/healthport/health.sqlite")
        #expect(StoreLocation.resolve(nil, environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "/data"]) == "/data/healthport/health.sqlite")
    }

    @Test func theConvenienceViewsAgreeWithTheObjects() throws {
        let (path, store, objects) = try Self.importedStore()
        #expect(try store.statistics() == HealthStore.Statistics(objects: objects, deletedObjects: 0, imports: 1, anchor: objects))
        let queue = try DatabaseQueue(path: path)
        try queue.read { db in
            let quantities = try Int.fetchOne(db, sql: "SELECT count(*) FROM quantity_samples") ?? 0
            let categories = try Int.fetchOne(db, sql: "SELECT count(*) FROM category_samples") ?? 0
            let workouts = try Int.fetchOne(db, sql: "SELECT count(*) FROM workouts WHERE duration > 0") ?? 0
            let summaries = try Int.fetchOne(db, sql: "SELECT count(*) FROM activity_summaries WHERE day IS NOT NULL") ?? 0
            let motion = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM metadata WHERE key = 'HKMetadataKeyHeartRateMotionContext'") ?? 0
            let kinds = try Row.fetchAll(db, sql: "SELECT k.name, count(*) FROM objects AS o JOIN kinds AS k ON k.code = o.kind GROUP BY k.name")
            func count(_ kind: String) -> Int { kinds.first { ($0[0] as String) == kind }.map { $0[1] } ?? 0 }
            #expect(quantities == count("quantitySample") && quantities > 1000)
            #expect(categories == count("categorySample") && workouts == count("workout") && summaries == count("activitySummary"))
            #expect(motion > 100)
        }
    }

    /// A read sees one snapshot of the store while another connection imports: it holds its
    /// read open (stopped in the header, between the header's query and the objects' cursor)
    /// until a writer has imported the next export and committed, then goes on, and must see the
    /// store as it was when the read began — the older export's header and exactly its objects —
    /// never the header of one state and the objects of another. What each state holds is
    /// computed apart from the store, by reading the two exports.
    @Test func aReadSeesOneSnapshotWhileAnotherConnectionImports() throws {
        let older = Fixtures.sampleData.appendingPathComponent("export-older.zip").path
        let newer = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let olderExport = try ObjectCollector.read(older)
        let newerExport = try ObjectCollector.read(newer)
        let olderUUIDs = Set(olderExport.objects.map(\.uuid))
        let newerUUIDs = Set(newerExport.objects.map(\.uuid))
        #expect(!newerUUIDs.subtracting(olderUUIDs).isEmpty, "the newer export must add objects, or the test shows nothing")
        #expect(olderExport.header.exportDate != newerExport.header.exportDate)

        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        _ = try HealthStore.openForWriting(at: path).importObjects(from: ExportObjectSource(try ExportReader(.path(older)), query: .everything), inputName: "older.zip")

        /// Stops in `exportDidBegin` until the writer has committed.
        final class HoldingSink: ObjectSink, @unchecked Sendable {
            let holding = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            var header = ExportHeader()
            var uuids: [ObjectUUID] = []
            var released = true
            func exportDidBegin(_ header: ExportHeader) throws {
                self.header = header
                holding.signal()
                released = release.wait(timeout: .now() + 300) == .success
            }
            func consume(_ object: HealthObject) throws { uuids.append(object.uuid) }
        }
        let sink = HoldingSink()
        let reader = try HealthStore.openForReading(at: path)
        let writerDone = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var during: HealthStore.Statistics? = nil
        nonisolated(unsafe) var writerError: (any Error)? = nil
        Thread.detachNewThread {
            defer { sink.release.signal(); writerDone.signal() }
            guard sink.holding.wait(timeout: .now() + 300) == .success else {
                Issue.record("the import never held the store's write lock within 300 s")
                return
            }
            do {
                // Another connection imports the newer export and commits while the read is held.
                _ = try HealthStore.openForWriting(at: path).importObjects(
                    from: ExportObjectSource(try ExportReader(.path(newer)), query: .everything), inputName: "newer.zip")
                during = try HealthStore.openForReading(at: path).statistics()
            } catch {
                writerError = error
            }
        }
        try reader.read(query: QueryExecutor(.all), into: sink)
        writerDone.wait()
        #expect(writerError == nil, "\(String(describing: writerError))")
        #expect(sink.released, "the writer never let the read go on")
        // The import committed while the read was held: a new connection saw it.
        #expect(during?.imports == 2)
        #expect(during?.objects == newerUUIDs.count)
        // The held read saw the older state, whole and alone.
        #expect(sink.header.exportDate == olderExport.header.exportDate)
        #expect(sink.uuids.count == olderUUIDs.count)
        #expect(Set(sink.uuids) == olderUUIDs)
        // A read begun after the import sees the newer state.
        let after = ObjectCollector()
        try reader.read(query: QueryExecutor(.all), into: after)
        #expect(after.header.exportDate == newerExport.header.exportDate)
        #expect(Set(after.objects.map(\.uuid)) == newerUUIDs && after.objects.count == newerUUIDs.count)
    }

    @Test func datePredicatesBoundTheStartDateColumn() throws {
        let predicate = try PredicateParser.parse(
            #"startDate >= "2024-01-02T00:00:00Z" AND endDate < "2024-01-03T00:00:00Z" AND count > 5"#,
            timeZone: TimeZone(identifier: "UTC")!)
        let (lower, upper) = StorePrefilter.dateBounds(predicate)
        #expect(lower == 1_704_153_600 && upper == 1_704_240_000)
        let disjunction = try PredicateParser.parse(
            #"startDate >= "2024-01-02T00:00:00Z" OR count > 1"#, timeZone: TimeZone(identifier: "UTC")!)
        let (l, u) = StorePrefilter.dateBounds(disjunction)
        #expect(l == nil && u == nil)
    }
}

/// What a consumer bound by a policy learns of the person's imports: the date of the latest
/// export that changed something it may see, never the date of one that brought only hidden
/// types (the third audit's item 13: "when the person imported, not what").
@Suite struct StoreImportDateTests {
    static func export(date: String, records: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="\(date)"/>
        \(records.joined(separator: "\n"))
        </HealthData>
        """
    }

    static func record(_ type: String, _ start: String, _ value: Int) -> String {
        """
         <Record type="HKQuantityTypeIdentifier\(type)" sourceName="Watch" unit="\(type == "HeartRate" ? "count/min" : "count")" \
        creationDate="\(start) +0000" startDate="\(start) +0000" endDate="\(start) +0000" value="\(value)"/>
        """
    }

    @Test func aConsumerSeesTheDateOfTheLatestImportItCanSee() throws {
        let folder = try Fixtures.temporaryDirectory()
        let store = try HealthStore.openForWriting(at: folder.appendingPathComponent("health.sqlite").path)
        var records = [Self.record("HeartRate", "2024-01-01 08:00:00", 60), Self.record("StepCount", "2024-01-01 08:00:00", 100)]
        func importExport(dated date: String) throws {
            let file = folder.appendingPathComponent("export-\(date.prefix(10)).xml")
            try Data(Self.export(date: date, records: records).utf8).write(to: file)
            _ = try store.importObjects(from: ExportObjectSource(try ExportReader(.path(file.path)), query: .everything), inputName: "export.xml")
        }
        func shownDate(policy: AuthorizationPolicy?) throws -> String? {
            var query = ObjectQuery()
            query.policy = policy
            var shown: ExportHeader? = nil
            _ = try store.changes(
                since: try store.anchor(token: StoreAnchor.originText), query: QueryExecutor(query), limit: nil,
                header: { shown = $0 }, added: { _ in }, deleted: { _, _ in })
            let collector = ObjectCollector()
            try store.read(query: QueryExecutor(query), into: collector)
            // Every read shows the same date.
            #expect(collector.header.exportDate == shown?.exportDate)
            return shown?.exportDate?.exportText
        }
        var heartRateOnly = AuthorizationPolicy(consumer: .init(name: "Study"))
        heartRateOnly.read["HKQuantityTypeIdentifierHeartRate"] = .granted
        var nothing = AuthorizationPolicy(consumer: .init(name: "Nobody"))
        nothing.read["HKQuantityTypeIdentifierBodyMass"] = .granted

        try importExport(dated: "2024-02-01 09:00:00 +0100")
        // The person imports again with only a new step count: the study, which reads heart
        // rate, is still shown the first export's date; the owner the second's.
        records.append(Self.record("StepCount", "2024-02-10 08:00:00", 200))
        try importExport(dated: "2024-03-01 09:00:00 +0100")
        #expect(try shownDate(policy: nil) == "2024-03-01 09:00:00 +0100")
        #expect(try shownDate(policy: heartRateOnly) == "2024-02-01 09:00:00 +0100")
        #expect(try shownDate(policy: nothing) == nil)
        // A new heart rate: now the study is shown that export's date.
        records.append(Self.record("HeartRate", "2024-03-10 08:00:00", 70))
        try importExport(dated: "2024-04-01 09:00:00 +0200")
        #expect(try shownDate(policy: heartRateOnly) == "2024-04-01 09:00:00 +0200")
    }
}

/// A store in a folder the reader may not write (another user's, a read-only mount) is read
/// through an immutable URI (before: "attempt to write a readonly database", status 74).
@Suite struct ReadOnlyFolderStoreTests {
    @Test func aStoreWithoutALogIsReadImmutableWhereTheFolderCannotBeWritten() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("a folder, with 100% odd #name?")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("health.sqlite").path
        let objects: Int = try {
            let store = try HealthStore.openForWriting(at: path)
            let reader = try ExportReader(.path(Fixtures.sampleData.appendingPathComponent("export.zip").path))
            return try store.importObjects(from: ExportObjectSource(reader, query: .everything), inputName: "export.zip").objects
        }()
        // The importer closed: its log is checkpointed into the file and removed.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(HealthStore.readablePath(path, folderIsWritable: true) == path)
        let uri = HealthStore.readablePath(path, folderIsWritable: false)
        #expect(uri.hasPrefix("file:/") && uri.hasSuffix("?immutable=1"))
        var configuration = Configuration()
        configuration.readonly = true
        let pool = try DatabasePool(path: uri, configuration: configuration)
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") } == objects)
        try pool.close()
        // Nothing was made beside the store (an immutable read creates no index).
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }
}
