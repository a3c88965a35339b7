import Foundation
import GRDB
import GRDBSQLite

/// The store's tables, as migrations. The schema is documented in `healthport-store(5)`; a
/// change to it is a new migration appended here (never an edit of an old one), so that a store
/// made by an older healthport is migrated in one transaction when a newer one first writes it.
///
/// Each migration is literal SQL, frozen when it was written: none is built from a value the
/// live code also uses, so a later change cannot alter what an earlier migration makes (GRDB's
/// own advice). The live schema is what running them all gives; the code that writes and reads
/// the store states none of its own (`StoreMigrationHistoryTests` holds both to this).
enum StoreSchema {
    /// Identifies a healthport store among SQLite files (`PRAGMA application_id`, "HLTH").
    static let applicationID: Int32 = 0x484C_5448

    static var migrator: StoreMigrator {
        var migrator = StoreMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE store_info (
                    key TEXT PRIMARY KEY NOT NULL,
                    value NOT NULL
                );
                INSERT INTO store_info (key, value) VALUES ('anchor', 0);

                CREATE TABLE imports (
                    id INTEGER PRIMARY KEY,
                    imported_at TEXT NOT NULL,
                    input TEXT NOT NULL,
                    export_date TEXT,
                    header TEXT NOT NULL,
                    objects INTEGER NOT NULL,
                    added INTEGER NOT NULL,
                    deleted INTEGER NOT NULL,
                    anchor INTEGER NOT NULL
                );

                CREATE TABLE devices (
                    id INTEGER PRIMARY KEY,
                    body TEXT NOT NULL UNIQUE
                );

                CREATE TABLE objects (
                    anchor INTEGER PRIMARY KEY,
                    uuid TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL,
                    type TEXT NOT NULL,
                    start_date INTEGER,
                    end_date INTEGER,
                    value REAL,
                    unit TEXT,
                    source TEXT,
                    source_key TEXT,
                    device TEXT,
                    device_id INTEGER REFERENCES devices(id),
                    import_id INTEGER NOT NULL REFERENCES imports(id),
                    body TEXT NOT NULL
                );
                CREATE INDEX objects_by_type_and_start ON objects (type, start_date);
                CREATE INDEX objects_by_source ON objects (source_key);

                CREATE TABLE deleted_objects (
                    anchor INTEGER PRIMARY KEY,
                    uuid TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL,
                    type TEXT NOT NULL,
                    start_date INTEGER,
                    end_date INTEGER,
                    device_id INTEGER REFERENCES devices(id),
                    added_anchor INTEGER NOT NULL,
                    import_id INTEGER NOT NULL REFERENCES imports(id),
                    body TEXT NOT NULL
                );
                CREATE INDEX deleted_objects_by_type ON deleted_objects (type);

                CREATE TABLE type_extents (
                    type TEXT PRIMARY KEY NOT NULL,
                    max_duration INTEGER NOT NULL,
                    max_inversion INTEGER NOT NULL
                );

                CREATE VIEW quantity_samples AS
                SELECT uuid, type,
                       strftime('%Y-%m-%dT%H:%M:%SZ', start_date, 'unixepoch') AS start,
                       strftime('%Y-%m-%dT%H:%M:%SZ', end_date, 'unixepoch') AS "end",
                       value, unit, source, device, anchor
                FROM objects WHERE kind = 'quantitySample';

                CREATE VIEW category_samples AS
                SELECT uuid, type,
                       strftime('%Y-%m-%dT%H:%M:%SZ', start_date, 'unixepoch') AS start,
                       strftime('%Y-%m-%dT%H:%M:%SZ', end_date, 'unixepoch') AS "end",
                       CAST(value AS INTEGER) AS value, json_extract(body, '$.valueName') AS value_name,
                       source, device, anchor
                FROM objects WHERE kind = 'categorySample';

                CREATE VIEW workouts AS
                SELECT uuid, json_extract(body, '$.workoutActivityType') AS activity_type,
                       strftime('%Y-%m-%dT%H:%M:%SZ', start_date, 'unixepoch') AS start,
                       strftime('%Y-%m-%dT%H:%M:%SZ', end_date, 'unixepoch') AS "end",
                       json_extract(body, '$.duration.value') AS duration,
                       json_extract(body, '$.duration.unit') AS duration_unit,
                       json_extract(body, '$.totalDistance.value') AS total_distance,
                       json_extract(body, '$.totalDistance.unit') AS total_distance_unit,
                       json_extract(body, '$.totalEnergyBurned.value') AS total_energy_burned,
                       json_extract(body, '$.totalEnergyBurned.unit') AS total_energy_burned_unit,
                       source, device, anchor
                FROM objects WHERE kind = 'workout';

                CREATE VIEW activity_summaries AS
                SELECT uuid, json_extract(body, '$.dateComponents') AS day,
                       json_extract(body, '$.activeEnergyBurned.value') AS active_energy_burned,
                       json_extract(body, '$.activeEnergyBurnedGoal.value') AS active_energy_burned_goal,
                       json_extract(body, '$.activeEnergyBurned.unit') AS active_energy_burned_unit,
                       json_extract(body, '$.appleExerciseTime.value') AS apple_exercise_time,
                       json_extract(body, '$.appleExerciseTimeGoal.value') AS apple_exercise_time_goal,
                       json_extract(body, '$.appleStandHours.value') AS apple_stand_hours,
                       json_extract(body, '$.appleStandHoursGoal.value') AS apple_stand_hours_goal,
                       anchor
                FROM objects WHERE kind = 'activitySummary';

                CREATE VIEW metadata AS
                SELECT objects.uuid AS uuid, objects.type AS type, entry.key AS key, entry.value AS value
                FROM objects, json_each(objects.body, '$.metadata') AS entry;
                """)
        }
        // The workouts view gives a workout's totals as HealthKit does (and as workouts.csv
        // does): the attribute when the export printed one, else the sum of the workout's first
        // distance statistic, or of its active-energy statistic (recent exports moved the totals
        // there). `Workout.effectiveTotalDistance` is the same rule in Swift.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                DROP VIEW workouts;
                CREATE VIEW workouts AS
                SELECT uuid, json_extract(body, '$.workoutActivityType') AS activity_type,
                       strftime('%Y-%m-%dT%H:%M:%SZ', start_date, 'unixepoch') AS start,
                       strftime('%Y-%m-%dT%H:%M:%SZ', end_date, 'unixepoch') AS "end",
                       json_extract(body, '$.duration.value') AS duration,
                       json_extract(body, '$.duration.unit') AS duration_unit,
                       CASE WHEN json_extract(body, '$.totalDistance') IS NOT NULL THEN json_extract(body, '$.totalDistance.value')
                            ELSE (SELECT CASE WHEN json_extract(s.value, '$.sum') IS NOT NULL AND json_extract(s.value, '$.unit') IS NOT NULL
                                              THEN json_extract(s.value, '$.sum') END
                                  FROM json_each(body, '$.statistics') AS s
                                  WHERE json_extract(s.value, '$.quantityType') LIKE 'HKQuantityTypeIdentifierDistance%'
                                  ORDER BY s.key LIMIT 1) END AS total_distance,
                       CASE WHEN json_extract(body, '$.totalDistance') IS NOT NULL THEN json_extract(body, '$.totalDistance.unit')
                            ELSE (SELECT CASE WHEN json_extract(s.value, '$.sum') IS NOT NULL AND json_extract(s.value, '$.unit') IS NOT NULL
                                              THEN json_extract(s.value, '$.unit') END
                                  FROM json_each(body, '$.statistics') AS s
                                  WHERE json_extract(s.value, '$.quantityType') LIKE 'HKQuantityTypeIdentifierDistance%'
                                  ORDER BY s.key LIMIT 1) END AS total_distance_unit,
                       CASE WHEN json_extract(body, '$.totalEnergyBurned') IS NOT NULL THEN json_extract(body, '$.totalEnergyBurned.value')
                            ELSE (SELECT CASE WHEN json_extract(s.value, '$.sum') IS NOT NULL AND json_extract(s.value, '$.unit') IS NOT NULL
                                              THEN json_extract(s.value, '$.sum') END
                                  FROM json_each(body, '$.statistics') AS s
                                  WHERE json_extract(s.value, '$.quantityType') = 'HKQuantityTypeIdentifierActiveEnergyBurned'
                                  ORDER BY s.key LIMIT 1) END AS total_energy_burned,
                       CASE WHEN json_extract(body, '$.totalEnergyBurned') IS NOT NULL THEN json_extract(body, '$.totalEnergyBurned.unit')
                            ELSE (SELECT CASE WHEN json_extract(s.value, '$.sum') IS NOT NULL AND json_extract(s.value, '$.unit') IS NOT NULL
                                              THEN json_extract(s.value, '$.unit') END
                                  FROM json_each(body, '$.statistics') AS s
                                  WHERE json_extract(s.value, '$.quantityType') = 'HKQuantityTypeIdentifierActiveEnergyBurned'
                                  ORDER BY s.key LIMIT 1) END AS total_energy_burned_unit,
                       source, device, anchor
                FROM objects WHERE kind = 'workout';
                """)
        }
        // The key that makes anchors opaque (`StoreAnchor`): a consumer is given a position
        // only as a token enciphered with it. 16 random bytes, made here once per store.
        migrator.registerMigration("v3") { db in
            var key = [UInt8](repeating: 0, count: 16)
            var generator = SystemRandomNumberGenerator()
            for index in key.indices { key[index] = UInt8.random(in: 0...255, using: &generator) }
            try db.execute(sql: "INSERT INTO store_info (key, value) VALUES ('anchor_key', ?)", arguments: [Data(key)])
        }
        // The summary tables (`StoreSummaries`): the Health app's numbers per type and local
        // day, and per night, kept by every import from now on; filled here from the objects an
        // older healthport imported. Their columns are the CSV's (`SummaryTableCells`), in
        // snake case; dates are the person's, as `YYYY-MM-DD` text. The zone they are cut in is
        // decided now (or at the first import with samples) and kept in `store_info`.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: """
                CREATE TABLE daily_summary (
                    date TEXT NOT NULL,
                    sample_type TEXT NOT NULL,
                    unit TEXT,
                    sum REAL,
                    average REAL,
                    minimum REAL,
                    maximum REAL,
                    duration REAL,
                    count INTEGER NOT NULL,
                    sources TEXT NOT NULL,
                    PRIMARY KEY (sample_type, date)
                );

                CREATE TABLE sleep_nights (
                    night TEXT PRIMARY KEY NOT NULL,
                    in_bed REAL,
                    asleep REAL NOT NULL,
                    asleep_unspecified REAL NOT NULL,
                    asleep_core REAL NOT NULL,
                    asleep_deep REAL NOT NULL,
                    asleep_rem REAL NOT NULL,
                    awake REAL NOT NULL,
                    sleep_start TEXT,
                    sleep_end TEXT,
                    sources TEXT NOT NULL
                );

                CREATE TABLE summary_sources (
                    source TEXT PRIMARY KEY NOT NULL,
                    first_anchor INTEGER NOT NULL
                );
                """)
            // Filled once every migration has run, by the rules of the healthport that runs them
            // (`StoreSummaries.rebuildIfRulesChanged`): a migration calls no code that changes.
        }
        // The compact layout (healthport-store(5)): uuids as 16 bytes, types and sources as
        // ids, plain samples' fields in typed columns with no JSON, indexes on integers.
        // Every row of `objects` and `deleted_objects` is rewritten, its anchor, import and
        // (for a tombstone) the position it was added at kept.
        migrator.registerMigration("v5") { db in
            try StoreLayoutMigration.migrate(db)
        }
        // The Health app's days (issue 48): a day's time in bed beside its sleep, a night's naps
        // apart, the day table (`days`: one row per local day, a column per `DayColumn`) and
        // the workouts as the Health app lists them (`workout_summary`). The rules that fill
        // them changed (`StoreSummaries.rulesVersion` 2), so the tables are made anew after the
        // migrations, whole, from the objects.
        migrator.registerMigration("v6") { db in
            try db.execute(sql: """
                ALTER TABLE daily_summary ADD COLUMN in_bed REAL;
                ALTER TABLE sleep_nights ADD COLUMN naps REAL NOT NULL DEFAULT 0;

                CREATE TABLE days (
                    date TEXT PRIMARY KEY NOT NULL,
                    steps REAL,
                    distance_km REAL,
                    flights REAL,
                    active_energy_kcal REAL,
                    resting_energy_kcal REAL,
                    exercise_min REAL,
                    move_min REAL,
                    stand_hours REAL,
                    resting_heart_rate_bpm REAL,
                    walking_heart_rate_bpm REAL,
                    hrv_sdnn_ms REAL,
                    respiratory_rate_per_min REAL,
                    blood_oxygen_pct REAL,
                    vo2max_ml_kg_min REAL,
                    weight_kg REAL,
                    body_fat_pct REAL,
                    asleep_min REAL,
                    in_bed_min REAL,
                    naps_min REAL,
                    mindful_min REAL,
                    workouts REAL,
                    workout_min REAL,
                    apple_move_kcal REAL,
                    apple_exercise_min REAL,
                    apple_stand_hours REAL
                );

                CREATE TABLE workout_summary (
                    uuid TEXT PRIMARY KEY NOT NULL,
                    date TEXT NOT NULL,
                    start TEXT NOT NULL,
                    "end" TEXT NOT NULL,
                    activity TEXT NOT NULL,
                    activity_type TEXT NOT NULL,
                    duration_min REAL NOT NULL,
                    distance_km REAL,
                    active_energy_kcal REAL,
                    average_heart_rate_bpm REAL,
                    maximum_heart_rate_bpm REAL,
                    source TEXT NOT NULL
                );
                CREATE INDEX workout_summary_by_date ON workout_summary (date);

                DELETE FROM store_info WHERE key = 'summary_rules';
                """)
        }
        // Both phones in one store (issue 52): a source's bundle identifier (a Health Connect
        // app's package, which its priority list ranks by, so the store's totals are Health
        // Connect's own; NULL for Apple's sources, which name none), and each import's platform
        // (`ExportPlatform`), since an import replaces only its own platform's objects. Nothing
        // to fill: no release before this one stored a Health Connect export.
        migrator.registerMigration("v7") { db in
            try db.execute(sql: """
                ALTER TABLE sources ADD COLUMN bundle_identifier TEXT;
                ALTER TABLE imports ADD COLUMN platform TEXT NOT NULL DEFAULT 'appleHealth';
                """)
        }
        // Not a migration: rows kept as they were by `v5` are moved by today's code into today's
        // tables, after the last migration, in the same transaction.
        migrator.finish = { db in
            try LegacyRowMove.moveIfPresent(db, path: String(cString: sqlite3_db_filename(db.sqliteConnection, "main")))
        }
        return migrator
    }

    /// Whether the store has a table of this name.
    ///
    /// Asked of `sqlite_master` directly, not through GRDB's `tableExists`: GRDB reads the whole
    /// schema into values first and stops the process (`try!`) on a row it cannot decode, such
    /// as a damaged file's `sqlite_master` row whose type is NULL (the store fuzzer's finding),
    /// and a store's file may be damaged or made by anything.
    static func hasTable(_ db: Database, _ name: String) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name]) ?? 0 > 0
    }

    /// The migrations this healthport knows, in order.
    static var knownMigrations: [String] { migrator.migrations }

    /// Migrations no reading command needs: views (`v2`), and the summary tables (`v4`, `v6`),
    /// which only SQL reads. A store lacking only these reads the same, so a reading command
    /// that may not write the store is not refused for lacking them (one that may write it
    /// applies them, `HealthStore.openForReading`); the next import applies them otherwise.
    static let migrationsReadersDoNotNeed: Set<String> = ["v2", "v4", "v6"]
}
