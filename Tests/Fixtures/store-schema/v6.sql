-- view activity_summaries
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
-- view category_samples
CREATE VIEW category_samples AS
SELECT substr(hex(o.uuid), 1, 8) || '-' || substr(hex(o.uuid), 9, 4) || '-' || substr(hex(o.uuid), 13, 4) || '-' || substr(hex(o.uuid), 17, 4) || '-' || substr(hex(o.uuid), 21, 12) AS uuid, t.identifier AS type, strftime('%Y-%m-%dT%H:%M:%SZ', o.start_date, 'unixepoch') AS start, strftime('%Y-%m-%dT%H:%M:%SZ', o.end_date, 'unixepoch') AS "end",
       CAST(o.value AS INTEGER) AS value, o.unit AS value_name, (SELECT name FROM sources WHERE id = o.source_id) AS source, (SELECT json_extract(body, '$.name') FROM devices WHERE id = o.device_id) AS device,
       o.anchor AS anchor
FROM objects AS o JOIN sample_types AS t ON t.id = o.type_id WHERE o.kind = 1;
-- table daily_summary
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
    sources TEXT NOT NULL, in_bed REAL,
    PRIMARY KEY (sample_type, date)
);
-- table days
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
-- table deleted_objects
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
-- index deleted_objects_by_type
CREATE INDEX deleted_objects_by_type ON deleted_objects (type_id);
-- index deleted_objects_by_uuid
CREATE UNIQUE INDEX deleted_objects_by_uuid ON deleted_objects (uuid);
-- table devices
CREATE TABLE devices (
    id INTEGER PRIMARY KEY,
    body TEXT NOT NULL UNIQUE
);
-- table grdb_migrations
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
-- table imports
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
, input_bytes INTEGER, input_digest TEXT);
-- table kinds
CREATE TABLE kinds (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
-- table legacy_deleted_objects
CREATE TABLE "legacy_deleted_objects" (
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
-- table legacy_objects
CREATE TABLE "legacy_objects" (
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
-- view metadata
CREATE VIEW metadata AS
SELECT substr(hex(o.uuid), 1, 8) || '-' || substr(hex(o.uuid), 9, 4) || '-' || substr(hex(o.uuid), 13, 4) || '-' || substr(hex(o.uuid), 17, 4) || '-' || substr(hex(o.uuid), 21, 12) AS uuid, t.identifier AS type, entry.key AS key, entry.value AS value
FROM objects AS o JOIN sample_types AS t ON t.id = o.type_id, json_each(o.body, '$.metadata') AS entry
WHERE o.body IS NOT NULL;
-- table objects
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
-- index objects_by_type_and_start
CREATE INDEX objects_by_type_and_start ON objects (type_id, start_date);
-- index objects_by_uuid
CREATE UNIQUE INDEX objects_by_uuid ON objects (uuid);
-- view quantity_samples
CREATE VIEW quantity_samples AS
SELECT substr(hex(o.uuid), 1, 8) || '-' || substr(hex(o.uuid), 9, 4) || '-' || substr(hex(o.uuid), 13, 4) || '-' || substr(hex(o.uuid), 17, 4) || '-' || substr(hex(o.uuid), 21, 12) AS uuid, t.identifier AS type, strftime('%Y-%m-%dT%H:%M:%SZ', o.start_date, 'unixepoch') AS start, strftime('%Y-%m-%dT%H:%M:%SZ', o.end_date, 'unixepoch') AS "end",
       o.value AS value, o.unit AS unit, (SELECT name FROM sources WHERE id = o.source_id) AS source, (SELECT json_extract(body, '$.name') FROM devices WHERE id = o.device_id) AS device, o.anchor AS anchor
FROM objects AS o JOIN sample_types AS t ON t.id = o.type_id WHERE o.kind = 0;
-- table sample_types
CREATE TABLE sample_types (id INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE);
-- table sleep_nights
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
, naps REAL NOT NULL DEFAULT 0);
-- table sources
CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    version TEXT,
    key TEXT NOT NULL
);
-- index sources_by_key
CREATE INDEX sources_by_key ON sources (key);
-- table store_info
CREATE TABLE store_info (
    key TEXT PRIMARY KEY NOT NULL,
    value NOT NULL
);
-- table summary_sources
CREATE TABLE summary_sources (
    source TEXT PRIMARY KEY NOT NULL,
    first_anchor INTEGER NOT NULL
);
-- table type_extents
CREATE TABLE type_extents (
    type TEXT PRIMARY KEY NOT NULL,
    max_duration INTEGER NOT NULL,
    max_inversion INTEGER NOT NULL
);
-- table workout_summary
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
-- index workout_summary_by_date
CREATE INDEX workout_summary_by_date ON workout_summary (date);
-- view workouts
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
