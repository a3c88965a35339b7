-- view activity_summaries
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
-- view category_samples
CREATE VIEW category_samples AS
SELECT uuid, type,
       strftime('%Y-%m-%dT%H:%M:%SZ', start_date, 'unixepoch') AS start,
       strftime('%Y-%m-%dT%H:%M:%SZ', end_date, 'unixepoch') AS "end",
       CAST(value AS INTEGER) AS value, json_extract(body, '$.valueName') AS value_name,
       source, device, anchor
FROM objects WHERE kind = 'categorySample';
-- table deleted_objects
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
-- index deleted_objects_by_type
CREATE INDEX deleted_objects_by_type ON deleted_objects (type);
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
);
-- view metadata
CREATE VIEW metadata AS
SELECT objects.uuid AS uuid, objects.type AS type, entry.key AS key, entry.value AS value
FROM objects, json_each(objects.body, '$.metadata') AS entry;
-- table objects
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
-- index objects_by_source
CREATE INDEX objects_by_source ON objects (source_key);
-- index objects_by_type_and_start
CREATE INDEX objects_by_type_and_start ON objects (type, start_date);
-- view quantity_samples
CREATE VIEW quantity_samples AS
SELECT uuid, type,
       strftime('%Y-%m-%dT%H:%M:%SZ', start_date, 'unixepoch') AS start,
       strftime('%Y-%m-%dT%H:%M:%SZ', end_date, 'unixepoch') AS "end",
       value, unit, source, device, anchor
FROM objects WHERE kind = 'quantitySample';
-- table store_info
CREATE TABLE store_info (
    key TEXT PRIMARY KEY NOT NULL,
    value NOT NULL
);
-- table type_extents
CREATE TABLE type_extents (
    type TEXT PRIMARY KEY NOT NULL,
    max_duration INTEGER NOT NULL,
    max_inversion INTEGER NOT NULL
);
-- view workouts
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
