import GRDB

/// Schema `v5`: the compact layout's tables, indexes and views (`StoredRow`), made by literal SQL
/// that never changes. The rows of the layouts before (`v1` to `v4`: uuids and types as text,
/// every object as JSON) are kept as they were, in `legacy_objects` and
/// `legacy_deleted_objects`, and moved into the compact tables by `LegacyRowMove` once every
/// migration has run, in the same transaction: by today's code into today's tables, so no
/// migration calls code that a later layout changes.
enum StoreLayoutMigration {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            DROP VIEW IF EXISTS quantity_samples;
            DROP VIEW IF EXISTS category_samples;
            DROP VIEW IF EXISTS workouts;
            DROP VIEW IF EXISTS activity_summaries;
            DROP VIEW IF EXISTS metadata;
            DROP INDEX IF EXISTS objects_by_type_and_start;
            DROP INDEX IF EXISTS objects_by_source;
            DROP INDEX IF EXISTS deleted_objects_by_type;
            ALTER TABLE objects RENAME TO legacy_objects;
            ALTER TABLE deleted_objects RENAME TO legacy_deleted_objects;

            CREATE TABLE kinds (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE sample_types (id INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE);
            CREATE TABLE sources (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                version TEXT,
                key TEXT NOT NULL
            );
            CREATE INDEX sources_by_key ON sources (key);
            ALTER TABLE imports ADD COLUMN input_bytes INTEGER;
            ALTER TABLE imports ADD COLUMN input_digest TEXT;
            CREATE TABLE objects (
                anchor INTEGER PRIMARY KEY,
                uuid BLOB NOT NULL,
                kind INTEGER NOT NULL,
                type_id INTEGER NOT NULL,
                start_date INTEGER,
                end_date INTEGER,
                zone INTEGER,
                creation_date INTEGER,
                value REAL,
                unit TEXT,
                source_id INTEGER,
                device_id INTEGER,
                import_id INTEGER NOT NULL,
                body TEXT
            );
            CREATE TABLE deleted_objects (
                anchor INTEGER PRIMARY KEY,
                uuid BLOB NOT NULL,
                kind INTEGER NOT NULL,
                type_id INTEGER NOT NULL,
                start_date INTEGER,
                end_date INTEGER,
                zone INTEGER,
                creation_date INTEGER,
                value REAL,
                unit TEXT,
                source_id INTEGER,
                device_id INTEGER,
                added_anchor INTEGER NOT NULL,
                import_id INTEGER NOT NULL,
                body TEXT
            );
            """)
        // The kinds as this migration wrote them, for good: its own list, not today's.
        let kinds: [(String, Int64)] = [
            ("quantitySample", 0), ("categorySample", 1), ("correlation", 2), ("workout", 3), ("activitySummary", 4),
            ("clinicalRecord", 5), ("audiogram", 6), ("visionPrescription", 7), ("electrocardiogram", 8), ("unknown", 9),
        ]
        for (name, code) in kinds {
            try db.execute(sql: "INSERT INTO kinds (code, name) VALUES (?, ?)", arguments: [code, name])
        }
        try db.execute(sql: Self.indexesAndViews)
        // The legacy rows are moved once every migration has run (`LegacyRowMove`), the summary
        // tables made anew after that (`StoreSummaries.rebuildIfRulesChanged`).
    }
}

extension StoreLayoutMigration {
    /// The indexes and views of the compact layout, as `v5` made them, for good: literal SQL,
    /// not built from anything the live code uses, so a later layout cannot change what this
    /// migration makes. (The import reads the indexes it drops and makes again from the store
    /// itself, `sqlite_master`.) The views give the columns the layout before had.
    static let indexesAndViews = """
        CREATE UNIQUE INDEX objects_by_uuid ON objects (uuid);
        CREATE INDEX objects_by_type_and_start ON objects (type_id, start_date);
        CREATE UNIQUE INDEX deleted_objects_by_uuid ON deleted_objects (uuid);
        CREATE INDEX deleted_objects_by_type ON deleted_objects (type_id);

        CREATE VIEW quantity_samples AS
        SELECT substr(hex(o.uuid), 1, 8) || '-' || substr(hex(o.uuid), 9, 4) || '-' || substr(hex(o.uuid), 13, 4) || '-' || substr(hex(o.uuid), 17, 4) || '-' || substr(hex(o.uuid), 21, 12) AS uuid, t.identifier AS type, strftime('%Y-%m-%dT%H:%M:%SZ', o.start_date, 'unixepoch') AS start, strftime('%Y-%m-%dT%H:%M:%SZ', o.end_date, 'unixepoch') AS "end",
               o.value AS value, o.unit AS unit, (SELECT name FROM sources WHERE id = o.source_id) AS source, (SELECT json_extract(body, '$.name') FROM devices WHERE id = o.device_id) AS device, o.anchor AS anchor
        FROM objects AS o JOIN sample_types AS t ON t.id = o.type_id WHERE o.kind = 0;
        CREATE VIEW category_samples AS
        SELECT substr(hex(o.uuid), 1, 8) || '-' || substr(hex(o.uuid), 9, 4) || '-' || substr(hex(o.uuid), 13, 4) || '-' || substr(hex(o.uuid), 17, 4) || '-' || substr(hex(o.uuid), 21, 12) AS uuid, t.identifier AS type, strftime('%Y-%m-%dT%H:%M:%SZ', o.start_date, 'unixepoch') AS start, strftime('%Y-%m-%dT%H:%M:%SZ', o.end_date, 'unixepoch') AS "end",
               CAST(o.value AS INTEGER) AS value, o.unit AS value_name, (SELECT name FROM sources WHERE id = o.source_id) AS source, (SELECT json_extract(body, '$.name') FROM devices WHERE id = o.device_id) AS device,
               o.anchor AS anchor
        FROM objects AS o JOIN sample_types AS t ON t.id = o.type_id WHERE o.kind = 1;
        CREATE VIEW workouts AS
        SELECT substr(hex(o.uuid), 1, 8) || '-' || substr(hex(o.uuid), 9, 4) || '-' || substr(hex(o.uuid), 13, 4) || '-' || substr(hex(o.uuid), 17, 4) || '-' || substr(hex(o.uuid), 21, 12) AS uuid, json_extract(o.body, '$.workoutActivityType') AS activity_type,
               strftime('%Y-%m-%dT%H:%M:%SZ', o.start_date, 'unixepoch') AS start, strftime('%Y-%m-%dT%H:%M:%SZ', o.end_date, 'unixepoch') AS "end",
               json_extract(o.body, '$.duration.value') AS duration,
               json_extract(o.body, '$.duration.unit') AS duration_unit,
               CASE WHEN json_extract(o.body, '$.totalDistance') IS NOT NULL THEN json_extract(o.body, '$.totalDistance.value')
             ELSE (SELECT CASE WHEN json_extract(s.value, '$.sum') IS NOT NULL AND json_extract(s.value, '$.unit') IS NOT NULL
                               THEN json_extract(s.value, '$.sum') END
                   FROM json_each(o.body, '$.statistics') AS s
                   WHERE json_extract(s.value, '$.quantityType') LIKE 'HKQuantityTypeIdentifierDistance%'
                   ORDER BY s.key LIMIT 1) END AS total_distance,
               CASE WHEN json_extract(o.body, '$.totalDistance') IS NOT NULL THEN json_extract(o.body, '$.totalDistance.unit')
             ELSE (SELECT CASE WHEN json_extract(s.value, '$.sum') IS NOT NULL AND json_extract(s.value, '$.unit') IS NOT NULL
                               THEN json_extract(s.value, '$.unit') END
                   FROM json_each(o.body, '$.statistics') AS s
                   WHERE json_extract(s.value, '$.quantityType') LIKE 'HKQuantityTypeIdentifierDistance%'
                   ORDER BY s.key LIMIT 1) END AS total_distance_unit,
               CASE WHEN json_extract(o.body, '$.totalEnergyBurned') IS NOT NULL THEN json_extract(o.body, '$.totalEnergyBurned.value')
             ELSE (SELECT CASE WHEN json_extract(s.value, '$.sum') IS NOT NULL AND json_extract(s.value, '$.unit') IS NOT NULL
                               THEN json_extract(s.value, '$.sum') END
                   FROM json_each(o.body, '$.statistics') AS s
                   WHERE json_extract(s.value, '$.quantityType') = 'HKQuantityTypeIdentifierActiveEnergyBurned'
                   ORDER BY s.key LIMIT 1) END AS total_energy_burned,
               CASE WHEN json_extract(o.body, '$.totalEnergyBurned') IS NOT NULL THEN json_extract(o.body, '$.totalEnergyBurned.unit')
             ELSE (SELECT CASE WHEN json_extract(s.value, '$.sum') IS NOT NULL AND json_extract(s.value, '$.unit') IS NOT NULL
                               THEN json_extract(s.value, '$.unit') END
                   FROM json_each(o.body, '$.statistics') AS s
                   WHERE json_extract(s.value, '$.quantityType') = 'HKQuantityTypeIdentifierActiveEnergyBurned'
                   ORDER BY s.key LIMIT 1) END AS total_energy_burned_unit,
               (SELECT name FROM sources WHERE id = o.source_id) AS source, (SELECT json_extract(body, '$.name') FROM devices WHERE id = o.device_id) AS device, o.anchor AS anchor
        FROM objects AS o WHERE o.kind = 3;
        CREATE VIEW activity_summaries AS
        SELECT substr(hex(o.uuid), 1, 8) || '-' || substr(hex(o.uuid), 9, 4) || '-' || substr(hex(o.uuid), 13, 4) || '-' || substr(hex(o.uuid), 17, 4) || '-' || substr(hex(o.uuid), 21, 12) AS uuid, json_extract(o.body, '$.dateComponents') AS day,
               json_extract(o.body, '$.activeEnergyBurned.value') AS active_energy_burned,
               json_extract(o.body, '$.activeEnergyBurnedGoal.value') AS active_energy_burned_goal,
               json_extract(o.body, '$.activeEnergyBurned.unit') AS active_energy_burned_unit,
               json_extract(o.body, '$.appleExerciseTime.value') AS apple_exercise_time,
               json_extract(o.body, '$.appleExerciseTimeGoal.value') AS apple_exercise_time_goal,
               json_extract(o.body, '$.appleStandHours.value') AS apple_stand_hours,
               json_extract(o.body, '$.appleStandHoursGoal.value') AS apple_stand_hours_goal,
               o.anchor AS anchor
        FROM objects AS o WHERE o.kind = 4;
        CREATE VIEW metadata AS
        SELECT substr(hex(o.uuid), 1, 8) || '-' || substr(hex(o.uuid), 9, 4) || '-' || substr(hex(o.uuid), 13, 4) || '-' || substr(hex(o.uuid), 17, 4) || '-' || substr(hex(o.uuid), 21, 12) AS uuid, t.identifier AS type, entry.key AS key, entry.value AS value
        FROM objects AS o JOIN sample_types AS t ON t.id = o.type_id, json_each(o.body, '$.metadata') AS entry
        WHERE o.body IS NOT NULL;
        """
}
