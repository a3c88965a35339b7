import Foundation
import GRDB
import HealthExport
import HealthQuery
import HealthTestSupport
import Testing

@testable import HealthStore

/// The store's history is frozen: each migration makes what it made when it was written, and
/// the live code states no schema of its own (`StoreSchema`).
@Suite struct StoreMigrationHistoryTests {
    /// The tables, indexes and views of a database, each with its columns (tables and views).
    static func schema(_ db: Database) throws -> [String: [String]] {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'")
        var schema: [String: [String]] = [:]
        for name in names {
            schema[name] = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name.quotedDatabaseIdentifier))").map { $0["name"] }
        }
        return schema
    }

    static func migrated(upTo migration: String) throws -> [String: [String]] {
        let queue = try DatabaseQueue()
        try StoreSchema.migrator.migrate(queue, upTo: migration)
        return try queue.read { try schema($0) }
    }

    /// `v5`'s compact layout, written out column by column as that migration made it. A change
    /// to `v5` (or to anything it was built from, were it built from anything) fails here: a
    /// new layout is a new migration.
    @Test func theCompactLayoutIsWhatV5MadeWhenItWasWritten() throws {
        let v5 = try Self.migrated(upTo: "v5")
        let columns = [
            "anchor", "uuid", "kind", "type_id", "start_date", "end_date", "zone", "creation_date", "value", "unit", "source_id",
            "device_id", "import_id", "body",
        ]
        #expect(v5["objects"] == columns)
        #expect(v5["deleted_objects"] == Array(columns.dropLast(2)) + ["added_anchor", "import_id", "body"])
        #expect(v5["kinds"] == ["code", "name"])
        #expect(v5["sample_types"] == ["id", "identifier"])
        #expect(v5["sources"] == ["id", "name", "version", "key"])
        // Indexes have no columns of their own to list: their names.
        for index in ["objects_by_uuid", "objects_by_type_and_start", "deleted_objects_by_uuid", "deleted_objects_by_type", "sources_by_key"] {
            #expect(v5[index] != nil, "\(index)")
        }
        #expect(v5["quantity_samples"] == ["uuid", "type", "start", "end", "value", "unit", "source", "device", "anchor"])
        #expect(v5["category_samples"] == ["uuid", "type", "start", "end", "value", "value_name", "source", "device", "anchor"])
        #expect(
            v5["workouts"] == [
                "uuid", "activity_type", "start", "end", "duration", "duration_unit", "total_distance", "total_distance_unit",
                "total_energy_burned", "total_energy_burned_unit", "source", "device", "anchor",
            ])
        #expect(v5["metadata"] == ["uuid", "type", "key", "value"])
        // `v5` keeps the rows of the layouts before as they were (`legacy_objects`,
        // `legacy_deleted_objects`): they are moved by today's code after the last migration
        // (`LegacyRowMove`), which drops their tables.
        #expect(v5["legacy_objects"] != nil && v5["legacy_deleted_objects"] != nil)
        // `v6` then added to the summaries and made the day tables, and left `v5`'s as they were.
        let v6 = try Self.migrated(upTo: "v6")
        for (name, columns) in v5 where !["daily_summary", "sleep_nights"].contains(name) {
            #expect(v6[name] == columns, "\(name)")
        }
        #expect(v6["daily_summary"] == v5["daily_summary"]! + ["in_bed"])
        #expect(v6["sleep_nights"] == v5["sleep_nights"]! + ["naps"])
        #expect(Set(v6.keys).subtracting(v5.keys) == ["days", "workout_summary", "workout_summary_by_date"])
        // `v7` gave the sources their bundle identifier (a Health Connect app's package) and
        // the imports their platform, and changed nothing else. (`v5`'s kept rows stay until
        // the last migration has run, whichever that is.)
        let legacy: Set<String> = ["legacy_objects", "legacy_deleted_objects"]
        let v7 = try Self.migrated(upTo: "v7")
        #expect(v7["sources"] == ["id", "name", "version", "key", "bundle_identifier"])
        #expect(v7["imports"] == v6["imports"]! + ["platform"])
        for (name, columns) in v6 where !["sources", "imports"].contains(name) && !legacy.contains(name) {
            #expect(v7[name] == columns, "\(name)")
        }
        #expect(Set(v7.keys).subtracting(legacy) == Set(v6.keys).subtracting(legacy))
        // Once the last migration has run, the rows kept are moved and their tables dropped.
        let live = try Self.migrated(upTo: StoreSchema.knownMigrations.last!)
        #expect(live["legacy_objects"] == nil && live["legacy_deleted_objects"] == nil)
    }

    /// Each migration's schema, word for word: the SQL of every table, index and view after it
    /// (`sqlite_master`, by name), against `Tests/Fixtures/store-schema/<migration>.sql`, written
    /// once when the migration was made and never edited. A migration whose SQL changes after
    /// release fails here, view texts and constraints included, where the column lists above
    /// see only names. (Run without `finish`, whose work moves with the last migration.) A new
    /// migration's file is written by a run with `HEALTHPORT_RECORD_STORE_SCHEMA=1`, once.
    @Test(arguments: StoreSchema.knownMigrations)
    func eachMigrationMakesTheSchemaItMadeWhenItWasWritten(migration: String) throws {
        var migrator = StoreSchema.migrator
        migrator.finish = nil
        let queue = try DatabaseQueue()
        try migrator.migrate(queue, upTo: migration)
        let schema = try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND sql IS NOT NULL ORDER BY name"
            ).map { row -> String in "-- \(row["type"] as String) \(row["name"] as String)\n\(row["sql"] as String);\n" }.joined()
        }
        let file = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/store-schema/\(migration).sql")
        if ProcessInfo.processInfo.environment["HEALTHPORT_RECORD_STORE_SCHEMA"] != nil, !FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(schema.utf8).write(to: file)
        }
        let frozen = try #require(try? String(contentsOf: file, encoding: .utf8), "no \(file.path): record it once (HEALTHPORT_RECORD_STORE_SCHEMA=1)")
        #expect(schema == frozen, "\(migration) no longer makes what it made when it was written")
    }

    /// The first import into an empty store drops `objects`' indexes to write faster, and makes
    /// again exactly those the migrations made: it reads them from the store, not from a list
    /// of its own that could drift from the history.
    @Test func aFirstImportLeavesTheIndexesTheMigrationsMade() throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        let store = try HealthStore.openForWriting(at: path)
        let indexes = "SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name"
        // A new store's file is hidden until its first import (`NewStoreFile`).
        let before = try DatabaseQueue(path: try #require(store.newFile).temporaryPath).read { try Row.fetchAll($0, sql: indexes) }
        #expect(before.contains { ($0["name"] as String) == "objects_by_uuid" })
        let export = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let summary = try store.importObjects(from: ExportObjectSource(try ExportReader(.path(export)), query: .everything), inputName: "export.zip")
        #expect(summary.added > 1000)
        let after = try DatabaseQueue(path: path).read { try Row.fetchAll($0, sql: indexes) }
        #expect(after == before)
        // And the store is the one a fresh run of the migrations gives, rows apart.
        let live = try DatabaseQueue(path: path).read { try Self.schema($0) }
        #expect(live == (try Self.migrated(upTo: StoreSchema.knownMigrations.last!)))
    }
}
