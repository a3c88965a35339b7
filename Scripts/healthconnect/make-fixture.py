#!/usr/bin/env python3
"""Writes a small Health Connect export, as Android's Settings → Health Connect → "Export and
import" makes it: `health_connect_export.db` (SQLite) and `health_connect_export.zip` holding it.

The tables, columns and codes follow AOSP's HealthFitness module as docs/health-connect.md
describes them (the revision it names); the rows are made up and deterministic (same bytes on
every run, so tests can compare totals worked by hand, and the uuids are the same in every
export, as Health Connect's are).

What it holds (times in UTC+01:00, the offset every record carries):
  * two apps on Health Connect's priority list for activity (Samsung Health above Google Fit)
    and one app that is not on it (its steps are left out of Health Connect's totals);
    Google Fit alone on the list for sleep;
  * 2026-01-05 to 2026-01-07: overlapping steps from the two apps, one record across midnight,
    two overlapping records of one app modified at different times; a heart-rate series of
    three readings; a manually entered weight, body fat and blood pressure; a resting heart rate, an RMSSD, a
    glass of water, three floors; active and total calories; distance; a night of sleep with
    stages; a run (an exercise session) with its route and two laps;
  * cycle tracking over the same days: a period, flows, ovulation tests, cervical mucus,
    spotting and sexual activity, entered by hand in Fit; two basal body temperatures and a
    body temperature, with where they were taken; two meals with their nutrients; bone and
    body water mass and a basal metabolic rate beside the weight; two blood glucose readings
    around meals; the run's speed, power and step cadence, a ride's pedal cadence, and a
    strength session in segments.
  Every record is modified before 2026-01-07 17:00, the latest modification (steps-11), which
  is the export's date.

Usage: make-fixture.py OUTPUT_FOLDER [--schema current|v9|v16] [--days N [--seed S]]
  current writes database version 10 (user_version 10), the layout docs/health-connect.md
  describes.
  v9 writes the layout from before database version 10 (no generated local-time columns),
  the "older schema" a second fixture needs.
  v16 writes database version 16 (user_version 16): everything current writes, and the record
  tables versions 11 to 16 add (AOSP's DatabaseVersions and DatabaseUpgradeHelper), with rows:
  skin temperature and its deltas (11), planned exercise sessions with their blocks, steps and
  goals, and the exercise session's link to its plan (12), mindfulness sessions (14), activity
  intensity (16). Version 15's medical records (PHR) are not written: healthport does not read
  them. The newer rows (fill_newer) are listed there; they too are modified before 17:00 on the
  7th, so the export's date is the same.
  --days writes, instead of the fixture, N generated days from 2025-01-01 for benchmarks
  (Benchmarks/healthconnect.sh): two apps' steps, distance and active energy every quarter
  hour, a heart-rate series every five minutes, a night of sleep with stages and a weight a
  day, about 1,900 records a day.

Python 3 standard library only.
"""

import argparse
import datetime
import os
import sqlite3
import struct
import sys
import uuid
import zipfile

OFFSET = 3600  # seconds east of UTC, as `zone_offset` stores it
ZONE = datetime.timezone(datetime.timedelta(seconds=OFFSET))
# A fixed namespace: record uuids are derived from a name per record, so they never change.
NAMESPACE = uuid.UUID("7b0c1f3e-52a1-4c11-9d3b-0e6f1c2a4d10")


def millis(day, hour, minute=0, second=0):
    """Epoch milliseconds of a local time on 2026-01-`day` (day 8 means the 8th)."""
    local = datetime.datetime(2026, 1, day, 0, 0, tzinfo=ZONE) + datetime.timedelta(hours=hour, minutes=minute, seconds=second)
    return int(local.timestamp() * 1000)


def epoch_day(ms):
    """The local date of an instant, as days since 1970-01-01 (`local_date`)."""
    local = datetime.datetime.fromtimestamp(ms / 1000, tz=ZONE).date()
    return (local - datetime.date(1970, 1, 1)).days


def record_uuid(name):
    return uuid.uuid5(NAMESPACE, name).bytes


# nutrition_record_table's nutrient columns, in AOSP's order (NutritionRecordHelper): energy in
# small calories, every other one in grams.
NUTRIENTS = [
    "unsaturated_fat", "potassium", "thiamin", "trans_fat", "manganese", "energy_from_fat", "caffeine", "dietary_fiber",
    "selenium", "vitamin_b6", "protein", "chloride", "cholesterol", "copper", "iodine", "vitamin_b12", "zinc", "riboflavin",
    "energy", "molybdenum", "phosphorus", "chromium", "total_fat", "calcium", "vitamin_c", "vitamin_e", "biotin", "vitamin_d",
    "niacin", "magnesium", "total_carbohydrate", "vitamin_k", "polyunsaturated_fat", "saturated_fat", "sodium", "folate",
    "monounsaturated_fat", "pantothenic_acid", "iron", "vitamin_a", "folic_acid", "sugar",
]
# What AOSP stores for a nutrient the app did not set: Java's Double.MIN_VALUE (DEFAULT_DOUBLE).
UNSET = 5e-324


def create_schema(db, schema):
    """The tables of database version 10 (or 9), and for v16 the newer ones after them."""
    generated = schema != "v9"
    common = (
        "row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, "
        "client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, "
        "recording_method INTEGER, dedupe_hash BLOB UNIQUE"
    )
    instant = "time INTEGER, zone_offset INTEGER, local_date INTEGER"
    interval = "start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER"
    instant_generated = ", local_date_time INTEGER AS (time + 1000 * zone_offset)" if generated else ""
    interval_generated = (
        ", local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset)"
        ", local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset)"
        if generated
        else ""
    )
    foreign = (
        ", FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE"
        ", FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id)"
    )
    statements = [
        "CREATE TABLE android_metadata (locale TEXT)",
        "CREATE TABLE application_info_table (row_id INTEGER PRIMARY KEY, package_name TEXT NOT NULL UNIQUE, "
        "app_name TEXT, app_icon BLOB, record_types_used TEXT)",
        "CREATE TABLE device_info_table (row_id INTEGER PRIMARY KEY, manufacturer TEXT, model TEXT, device_type INTEGER)",
        "CREATE TABLE health_data_category_priority_table (row_id INTEGER PRIMARY KEY, "
        "health_data_category INTEGER UNIQUE, app_id_priority_order TEXT NOT NULL)",
        # Emptied by the export (the change and access logs).
        "CREATE TABLE change_logs_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, record_type INTEGER, "
        "app_id INTEGER, uuids BLOB NOT NULL, operation_type INTEGER NOT NULL, change_log_time_stamp INTEGER)",
        "CREATE TABLE access_logs_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, app_id INTEGER NOT NULL, "
        "access_time INTEGER NOT NULL, operation_type INTEGER NOT NULL, record_type TEXT NOT NULL)",
        f"CREATE TABLE steps_record_table ({common}, {interval}, count INTEGER{interval_generated}{foreign})",
        f"CREATE TABLE distance_record_table ({common}, {interval}, distance REAL{interval_generated}{foreign})",
        f"CREATE TABLE active_calories_burned_record_table ({common}, {interval}, energy REAL{interval_generated}{foreign})",
        f"CREATE TABLE total_calories_burned_record_table ({common}, {interval}, energy REAL{interval_generated}{foreign})",
        f"CREATE TABLE weight_record_table ({common}, {instant}, weight REAL{instant_generated}{foreign})",
        f"CREATE TABLE heart_rate_record_table ({common}, {interval}{interval_generated}{foreign})",
        "CREATE TABLE heart_rate_record_series_table (parent_key INTEGER, beats_per_minute INTEGER, epoch_millis INTEGER, "
        "FOREIGN KEY (parent_key) REFERENCES heart_rate_record_table(row_id) ON DELETE CASCADE)",
        f"CREATE TABLE sleep_session_record_table ({common}, {interval}, notes TEXT, title TEXT{interval_generated}{foreign})",
        "CREATE TABLE sleep_stages_table (parent_key INTEGER NOT NULL, stage_start_time INTEGER NOT NULL, "
        "stage_end_time INTEGER NOT NULL, stage_type INTEGER NOT NULL, "
        "FOREIGN KEY (parent_key) REFERENCES sleep_session_record_table(row_id) ON DELETE CASCADE)",
        f"CREATE TABLE exercise_session_record_table ({common}, {interval}, notes TEXT, exercise_type INTEGER, "
        f"title TEXT, has_route INTEGER{interval_generated}{foreign})",
        "CREATE TABLE exercise_route_table (parent_key INTEGER NOT NULL, timestamp_millis INTEGER NOT NULL, "
        "longitude REAL NOT NULL, latitude REAL NOT NULL, horizontal_accuracy REAL NOT NULL, vertical_accuracy REAL NOT NULL, "
        "altitude REAL NOT NULL, FOREIGN KEY (parent_key) REFERENCES exercise_session_record_table(row_id) ON DELETE CASCADE)",
        "CREATE TABLE exercise_laps_table (parent_key INTEGER NOT NULL, lap_start_time INTEGER NOT NULL, "
        "lap_end_time INTEGER NOT NULL, lap_length REAL NOT NULL, "
        "FOREIGN KEY (parent_key) REFERENCES exercise_session_record_table(row_id) ON DELETE CASCADE)",
        # AOSP declares the blood pressure's and the glucose's codes TEXT NOT NULL and writes
        # integers into them: SQLite keeps their digits as text.
        f"CREATE TABLE blood_pressure_record_table ({common}, {instant}, measurement_location TEXT NOT NULL, systolic REAL, "
        f"diastolic REAL, body_position TEXT NOT NULL{instant_generated}{foreign})",
        # Single-value tables; most empty here, as on a phone whose apps write few types.
        f"CREATE TABLE body_fat_record_table ({common}, {instant}, percentage REAL{instant_generated}{foreign})",
        f"CREATE TABLE oxygen_saturation_record_table ({common}, {instant}, percentage REAL{instant_generated}{foreign})",
        f"CREATE TABLE resting_heart_rate_record_table ({common}, {instant}, beats_per_minute INTEGER{instant_generated}{foreign})",
        f"CREATE TABLE respiratory_rate_record_table ({common}, {instant}, rate REAL{instant_generated}{foreign})",
        f"CREATE TABLE height_record_table ({common}, {instant}, height REAL{instant_generated}{foreign})",
        f"CREATE TABLE lean_body_mass_record_table ({common}, {instant}, mass REAL{instant_generated}{foreign})",
        f"CREATE TABLE body_temperature_record_table ({common}, {instant}, measurement_location INTEGER, "
        f"temperature REAL{instant_generated}{foreign})",
        f"CREATE TABLE blood_glucose_record_table ({common}, {instant}, specimen_source TEXT NOT NULL, level REAL, "
        f"relation_to_meal TEXT NOT NULL, meal_type TEXT NOT NULL{instant_generated}{foreign})",
        f"CREATE TABLE vo2_max_record_table ({common}, {instant}, measurement_method INTEGER, "
        f"vo2_milliliters_per_minute_kilogram REAL{instant_generated}{foreign})",
        f"CREATE TABLE heart_rate_variability_rmssd_record_table ({common}, {instant}, "
        f"heart_rate_variability_millis REAL{instant_generated}{foreign})",
        f"CREATE TABLE hydration_record_table ({common}, {interval}, volume REAL{interval_generated}{foreign})",
        f"CREATE TABLE floors_climbed_record_table ({common}, {interval}, floors REAL{interval_generated}{foreign})",
        f"CREATE TABLE wheelchair_pushes_record_table ({common}, {interval}, count INTEGER{interval_generated}{foreign})",
        f"CREATE TABLE elevation_gained_record_table ({common}, {interval}, elevation REAL{interval_generated}{foreign})",
        f"CREATE TABLE bone_mass_record_table ({common}, {instant}, mass REAL{instant_generated}{foreign})",
        f"CREATE TABLE body_water_mass_record_table ({common}, {instant}, body_water_mass REAL NOT NULL"
        f"{instant_generated}{foreign})",
        f"CREATE TABLE basal_metabolic_rate_record_table ({common}, {instant}, basal_metabolic_rate REAL"
        f"{instant_generated}{foreign})",
        f"CREATE TABLE basal_body_temperature_record_table ({common}, {instant}, measurement_location INTEGER, "
        f"temperature REAL{instant_generated}{foreign})",
        # Columns in AOSP's order: meal_type after thiamin, meal_name after pantothenic_acid.
        f"CREATE TABLE nutrition_record_table ({common}, {interval}, "
        + ", ".join(
            f"{column} REAL" + (", meal_type INTEGER" if column == "thiamin" else "")
            + (", meal_name TEXT" if column == "pantothenic_acid" else "")
            for column in NUTRIENTS)
        + f"{interval_generated}{foreign})",
        # Cycle tracking: codes (the platform's IntDef constants) as INTEGER; the period and
        # intermenstrual bleeding have no value of their own.
        f"CREATE TABLE menstruation_flow_record_table ({common}, {instant}, flow INTEGER{instant_generated}{foreign})",
        f"CREATE TABLE menstruation_period_record_table ({common}, {interval}{interval_generated}{foreign})",
        f"CREATE TABLE ovulation_test_record_table ({common}, {instant}, result INTEGER{instant_generated}{foreign})",
        f"CREATE TABLE cervical_mucus_record_table ({common}, {instant}, sensation INTEGER, appearance INTEGER"
        f"{instant_generated}{foreign})",
        f"CREATE TABLE intermenstrual_bleeding_record_table ({common}, {instant}{instant_generated}{foreign})",
        f"CREATE TABLE sexual_activity_record_table ({common}, {instant}, protection_used INTEGER{instant_generated}{foreign})",
        "CREATE TABLE exercise_segments_table (parent_key INTEGER NOT NULL, segment_start_time INTEGER NOT NULL, "
        "segment_end_time INTEGER NOT NULL, segment_type INTEGER NOT NULL, repetitions_count INTEGER NOT NULL, "
        "FOREIGN KEY (parent_key) REFERENCES exercise_session_record_table(row_id) ON DELETE CASCADE)",
        # Series types whose parents are named in CamelCase, their readings' tables in snake case.
        f"CREATE TABLE SpeedRecordTable ({common}, {interval}{interval_generated}{foreign})",
        "CREATE TABLE speed_record_table (parent_key INTEGER, speed REAL, epoch_millis INTEGER, "
        "FOREIGN KEY (parent_key) REFERENCES SpeedRecordTable(row_id) ON DELETE CASCADE)",
        f"CREATE TABLE PowerRecordTable ({common}, {interval}{interval_generated}{foreign})",
        "CREATE TABLE power_record_table (parent_key INTEGER, power REAL, epoch_millis INTEGER, "
        "FOREIGN KEY (parent_key) REFERENCES PowerRecordTable(row_id) ON DELETE CASCADE)",
        f"CREATE TABLE StepsCadenceRecordTable ({common}, {interval}{interval_generated}{foreign})",
        "CREATE TABLE steps_cadence_record_table (parent_key INTEGER, rate REAL, epoch_millis INTEGER, "
        "FOREIGN KEY (parent_key) REFERENCES StepsCadenceRecordTable(row_id) ON DELETE CASCADE)",
        f"CREATE TABLE CyclingPedalingCadenceRecordTable ({common}, {interval}{interval_generated}{foreign})",
        "CREATE TABLE cycling_pedaling_cadence_record_table (parent_key INTEGER, epoch_millis INTEGER, "
        "revolutions_per_minute REAL, "
        "FOREIGN KEY (parent_key) REFERENCES CyclingPedalingCadenceRecordTable(row_id) ON DELETE CASCADE)",
    ]
    if schema == "v16":
        statements += newer_tables(common, interval, interval_generated, foreign)
    for statement in statements:
        db.execute(statement)
    db.execute("INSERT INTO android_metadata VALUES ('en_GB')")
    # SQLiteOpenHelper keeps the schema version in user_version.
    db.execute(f"PRAGMA user_version = {VERSIONS[schema]}")


# The database version each schema writes (PRAGMA user_version, as SQLiteOpenHelper keeps it).
VERSIONS = {"v9": 9, "current": 10, "v16": 16}


def newer_tables(common, interval, interval_generated, foreign):
    """The statements versions 11 to 16 run (AOSP's DatabaseUpgradeHelper), in its order; the
    new tables are made whole, with the generated local-time columns, and the two link columns
    of version 12 are added to existing tables by ALTER TABLE, so they come last, as on a phone.
    """
    return [
        # 11: skin temperature, an interval with a baseline (REAL, nullable) and a location
        # code, and its deltas (degrees Celsius from the baseline) as a series.
        f"CREATE TABLE skin_temperature_record_table ({common}, {interval}, measurement_location INTEGER NOT NULL, "
        f"baseline REAL{interval_generated}{foreign})",
        "CREATE TABLE skin_temperature_delta_table (parent_key INTEGER, delta REAL NOT NULL, epoch_millis INTEGER NOT NULL, "
        "FOREIGN KEY (parent_key) REFERENCES skin_temperature_record_table(row_id) ON DELETE CASCADE)",
        # 12: planned exercise sessions; their blocks, each block's steps, each step's goals
        # (the first its completion goal, the rest performance goals; values as big-endian
        # bytes); the plan's completed session and the session's plan, both uuids.
        f"CREATE TABLE planned_exercise_session_record_table ({common}, {interval}, notes TEXT, exercise_type INTEGER, "
        f"title TEXT, has_explicit_time INTEGER{interval_generated}{foreign})",
        "CREATE TABLE planned_exercise_session_blocks_table (block_row_id INTEGER PRIMARY KEY AUTOINCREMENT, "
        "block_parent_id INTEGER NOT NULL, block_description TEXT, repetitions INTEGER NOT NULL, "
        "FOREIGN KEY (block_parent_id) REFERENCES planned_exercise_session_record_table(row_id) ON DELETE CASCADE)",
        "CREATE TABLE planned_exercise_session_steps_table (step_row_id INTEGER PRIMARY KEY AUTOINCREMENT, "
        "step_parent_id INTEGER NOT NULL, step_description TEXT, category INTEGER NOT NULL, "
        "step_exercise_type INTEGER NOT NULL, "
        "FOREIGN KEY (step_parent_id) REFERENCES planned_exercise_session_blocks_table(block_row_id) ON DELETE CASCADE)",
        "CREATE TABLE planned_exercise_session_goals_table (goal_row_id INTEGER PRIMARY KEY AUTOINCREMENT, "
        "goal_parent_id INTEGER NOT NULL, type_id INTEGER NOT NULL, goal_min BLOB, goal_max BLOB, "
        "FOREIGN KEY (goal_parent_id) REFERENCES planned_exercise_session_steps_table(step_row_id) ON DELETE CASCADE)",
        "ALTER TABLE planned_exercise_session_record_table ADD COLUMN completed_session_id BLOB "
        "REFERENCES exercise_session_record_table(uuid)",
        "ALTER TABLE exercise_session_record_table ADD COLUMN planned_exercise_session_id BLOB "
        "REFERENCES planned_exercise_session_record_table(uuid)",
        # 14: mindfulness sessions, with a type code, a title and notes.
        f"CREATE TABLE mindfulness_session_record_table ({common}, {interval}, type INTEGER, title TEXT, notes TEXT"
        f"{interval_generated}{foreign})",
        # 16: activity intensity, an interval with a type code (0 moderate, 1 vigorous).
        f"CREATE TABLE activity_intensity_record_table ({common}, {interval}, type INTEGER{interval_generated}{foreign})",
    ]


SAMSUNG, FIT, OTHER = 1, 2, 3
WATCH, PHONE = 1, 2
ACTIVITY, SLEEP = 1, 5  # HealthDataCategory
AUTOMATIC, ACTIVE, MANUAL = 2, 1, 3  # recording_method


def insert_interval(db, table, name, app, device, start, end, columns=(), values=(), method=AUTOMATIC, modified=None):
    """Inserts an interval record named `name` (its uuid and client record id), modified a
    minute after its end unless told; returns its row_id."""
    names = ", ".join(
        ["uuid", "last_modified_time", "client_record_id", "device_info_id", "app_info_id", "recording_method",
         "start_time", "start_zone_offset", "end_time", "end_zone_offset", "local_date"] + list(columns))
    row = [record_uuid(name), modified if modified is not None else end + 60_000, f"{name}", device, app, method,
           start, OFFSET, end, OFFSET, epoch_day(start)] + list(values)
    cursor = db.execute(f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(row))})", row)
    return cursor.lastrowid


def fill(db):
    db.executemany(
        "INSERT INTO application_info_table (row_id, package_name, app_name, app_icon, record_types_used) VALUES (?, ?, ?, ?, ?)",
        [
            (SAMSUNG, "com.sec.android.app.shealth", "Samsung Health", b"\x89PNG-icon", None),
            (FIT, "com.google.android.apps.fitness", "Fit", None, None),
            (OTHER, "org.example.pedometer", "Pedometer", None, None),
        ],
    )
    db.executemany(
        "INSERT INTO device_info_table (row_id, manufacturer, model, device_type) VALUES (?, ?, ?, ?)",
        [(WATCH, "Samsung", "SM-R930", 1), (PHONE, "Google", "Pixel 8", 2)],
    )
    # Activity: Samsung Health above Fit; the pedometer is not listed. Sleep: Fit alone.
    db.executemany(
        "INSERT INTO health_data_category_priority_table (health_data_category, app_id_priority_order) VALUES (?, ?)",
        [(ACTIVITY, f"{SAMSUNG},{FIT}"), (SLEEP, f"{FIT}")],
    )

    def interval(*arguments, **options):
        return insert_interval(db, *arguments, **options)

    steps = [
        # (name, app, device, start, end, count[, modified])
        ("steps-1", SAMSUNG, WATCH, millis(5, 8), millis(5, 9), 600),
        ("steps-2", FIT, PHONE, millis(5, 8, 30), millis(5, 9, 30), 900),
        ("steps-3", OTHER, PHONE, millis(5, 10), millis(5, 11), 5000),
        ("steps-4", SAMSUNG, WATCH, millis(5, 12), millis(5, 12, 30), 300),
        ("steps-5", FIT, PHONE, millis(5, 18), millis(5, 18, 20), 200),
        ("steps-6", SAMSUNG, WATCH, millis(5, 23, 30), millis(6, 0, 30), 120),
        ("steps-7", FIT, PHONE, millis(6, 7), millis(6, 7, 40), 400),
        ("steps-8", SAMSUNG, WATCH, millis(6, 7), millis(6, 7, 40), 350),
        ("steps-9", FIT, PHONE, millis(7, 10), millis(7, 11), 1000),
        # Two records of one app over the same half hour, the second modified later.
        ("steps-10", SAMSUNG, WATCH, millis(7, 15), millis(7, 16), 100, millis(7, 16, 5)),
        ("steps-11", SAMSUNG, WATCH, millis(7, 15, 30), millis(7, 16), 80, millis(7, 17)),
    ]
    for name, app, device, start, end, count, *modified in steps:
        interval("steps_record_table", name, app, device, start, end, ["count"], [count],
                 modified=modified[0] if modified else None)

    interval("distance_record_table", "distance-1", SAMSUNG, WATCH, millis(5, 8), millis(5, 9), ["distance"], [4200.0])
    interval("distance_record_table", "distance-2", FIT, PHONE, millis(5, 8, 30), millis(5, 9, 30), ["distance"], [5000.0])
    # Energy in small calories (cal): 45,000 cal is 45 kcal.
    interval("active_calories_burned_record_table", "active-1", SAMSUNG, WATCH, millis(5, 8), millis(5, 9), ["energy"], [45000.0])
    interval("active_calories_burned_record_table", "active-2", FIT, PHONE, millis(5, 8, 30), millis(5, 9, 30), ["energy"], [60000.0])
    interval("total_calories_burned_record_table", "total-1", SAMSUNG, WATCH, millis(5, 0), millis(6, 0), ["energy"], [2100000.0])

    # Weight in grams, entered by hand.
    db.execute(
        "INSERT INTO weight_record_table (uuid, last_modified_time, client_record_id, device_info_id, app_info_id, "
        "recording_method, time, zone_offset, local_date, weight) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (record_uuid("weight-1"), millis(5, 7, 1), None, PHONE, FIT, MANUAL, millis(5, 7), OFFSET, epoch_day(millis(5, 7)), 72500.0),
    )

    def instant(table, name, app, device, time, column, value, method=AUTOMATIC):
        db.execute(
            f"INSERT INTO {table} (uuid, last_modified_time, client_record_id, device_info_id, app_info_id, "
            f"recording_method, time, zone_offset, local_date, {column}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record_uuid(name), time + 60_000, name, device, app, method, time, OFFSET, epoch_day(time), value),
        )

    # Blood glucose in mmol/L from a finger prick (specimen 2, capillary blood), before
    # breakfast (relation 3, meal type 1) and after lunch (4, 2).
    for name, time, level, relation, meal in [("glucose-1", millis(6, 7, 30), 5.4, 3, 1), ("glucose-2", millis(6, 13), 7.1, 4, 2)]:
        db.execute(
            "INSERT INTO blood_glucose_record_table (uuid, last_modified_time, client_record_id, device_info_id, app_info_id, "
            "recording_method, time, zone_offset, local_date, specimen_source, level, relation_to_meal, meal_type) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record_uuid(name), time + 60_000, name, PHONE, FIT, MANUAL, time, OFFSET, epoch_day(time), 2, level, relation, meal),
        )

    # The scale's other readings with the weight: bone and body water mass in grams, and the
    # basal metabolic rate as a power, in watts (83.68 W is 1,728 kcal a day).
    instant("bone_mass_record_table", "bone-mass-1", FIT, PHONE, millis(5, 7), "mass", 3100.0, method=MANUAL)
    instant("body_water_mass_record_table", "body-water-1", FIT, PHONE, millis(5, 7), "body_water_mass", 41200.0, method=MANUAL)
    instant("basal_metabolic_rate_record_table", "bmr-1", FIT, PHONE, millis(5, 7), "basal_metabolic_rate", 83.68, method=MANUAL)

    # Percentages from 0 to 100; hydration in litres; RMSSD in milliseconds.
    instant("body_fat_record_table", "body-fat-1", FIT, PHONE, millis(5, 7), "percentage", 21.5, method=MANUAL)
    db.execute(
        "INSERT INTO blood_pressure_record_table (uuid, last_modified_time, client_record_id, device_info_id, app_info_id, "
        "recording_method, time, zone_offset, local_date, measurement_location, systolic, diastolic, body_position) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (record_uuid("pressure-1"), millis(6, 8, 1), "pressure-1", PHONE, FIT, MANUAL, millis(6, 8), OFFSET, epoch_day(millis(6, 8)),
         3, 121.0, 79.0, 1),
    )
    instant("resting_heart_rate_record_table", "resting-1", SAMSUNG, WATCH, millis(6, 6), "beats_per_minute", 54)
    instant("heart_rate_variability_rmssd_record_table", "rmssd-1", SAMSUNG, WATCH, millis(6, 3), "heart_rate_variability_millis", 41.5)
    interval("hydration_record_table", "water-1", FIT, PHONE, millis(5, 10), millis(5, 10, 5), ["volume"], [0.25], method=MANUAL)
    interval("floors_climbed_record_table", "floors-1", SAMSUNG, WATCH, millis(6, 9), millis(6, 9, 10), ["floors"], [3.0])

    parent = interval("heart_rate_record_table", "heart-1", SAMSUNG, WATCH, millis(5, 8), millis(5, 8, 2))
    db.executemany(
        "INSERT INTO heart_rate_record_series_table (parent_key, beats_per_minute, epoch_millis) VALUES (?, ?, ?)",
        [(parent, 72, millis(5, 8)), (parent, 75, millis(5, 8, 1)), (parent, 80, millis(5, 8, 2))],
    )

    session = interval("sleep_session_record_table", "sleep-1", FIT, PHONE, millis(5, 23), millis(6, 7),
                       ["notes", "title"], [None, "Night"])
    stages = [
        (millis(5, 23), millis(5, 23, 15), 1),  # awake
        (millis(5, 23, 15), millis(6, 1), 4),  # light
        (millis(6, 1), millis(6, 2, 30), 5),  # deep
        (millis(6, 2, 30), millis(6, 3, 30), 6),  # REM
        (millis(6, 3, 30), millis(6, 6, 30), 4),  # light
        (millis(6, 6, 30), millis(6, 7), 7),  # awake in bed
    ]
    db.executemany(
        "INSERT INTO sleep_stages_table (parent_key, stage_start_time, stage_end_time, stage_type) VALUES (?, ?, ?, ?)",
        [(session, start, end, kind) for start, end, kind in stages],
    )

    # Cycle tracking (Fit, entered by hand): a period over the 5th and 6th, a flow a day
    # (3 heavy, 1 light, 0 unknown), ovulation tests (2 high, 1 positive, 3 negative), cervical
    # mucus (sensation 2 medium with appearance 5 egg white; sensation 1 light with appearance
    # 6 unusual, which HealthKit has no value for), spotting on the 7th, and sexual activity
    # (protection 1 used, 2 not used, 0 unknown).
    interval("menstruation_period_record_table", "period-1", FIT, PHONE, millis(5, 0), millis(7, 0), method=MANUAL)
    for name, time, column, value in [
        ("flow-1", millis(5, 8, 10), "flow", 3),
        ("flow-2", millis(6, 8, 10), "flow", 1),
        ("flow-3", millis(7, 8, 10), "flow", 0),
        ("ovulation-1", millis(5, 8, 20), "result", 2),
        ("ovulation-2", millis(6, 8, 20), "result", 1),
        ("ovulation-3", millis(7, 8, 20), "result", 3),
        ("sexual-1", millis(5, 22, 30), "protection_used", 1),
        ("sexual-2", millis(6, 22, 30), "protection_used", 2),
        ("sexual-3", millis(7, 7, 30), "protection_used", 0),
    ]:
        table = {"flow": "menstruation_flow_record_table", "result": "ovulation_test_record_table",
                 "protection_used": "sexual_activity_record_table"}[column]
        instant(table, name, FIT, PHONE, time, column, value, method=MANUAL)
    for name, time, sensation, appearance in [("mucus-1", millis(5, 8, 30), 2, 5), ("mucus-2", millis(6, 8, 30), 1, 6)]:
        db.execute(
            "INSERT INTO cervical_mucus_record_table (uuid, last_modified_time, client_record_id, device_info_id, app_info_id, "
            "recording_method, time, zone_offset, local_date, sensation, appearance) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record_uuid(name), time + 60_000, name, PHONE, FIT, MANUAL, time, OFFSET, epoch_day(time), sensation, appearance),
        )
    db.execute(
        "INSERT INTO intermenstrual_bleeding_record_table (uuid, last_modified_time, client_record_id, device_info_id, "
        "app_info_id, recording_method, time, zone_offset, local_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (record_uuid("spotting-1"), millis(7, 7, 1), "spotting-1", PHONE, FIT, MANUAL, millis(7, 7), OFFSET, epoch_day(millis(7, 7))),
    )

    # Temperatures in degrees Celsius, entered by hand, with where they were taken
    # (BodyTemperatureMeasurementLocation): basal in the mouth (4) and the vagina (10), a body
    # temperature in the ear (8).
    for table, name, time, location, temperature in [
        ("basal_body_temperature_record_table", "basal-temperature-1", millis(6, 6, 30), 4, 36.45),
        ("basal_body_temperature_record_table", "basal-temperature-2", millis(7, 6, 30), 10, 36.7),
        ("body_temperature_record_table", "body-temperature-1", millis(5, 19), 8, 37.2),
    ]:
        db.execute(
            f"INSERT INTO {table} (uuid, last_modified_time, client_record_id, device_info_id, app_info_id, recording_method, "
            "time, zone_offset, local_date, measurement_location, temperature) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record_uuid(name), time + 60_000, name, PHONE, FIT, MANUAL, time, OFFSET, epoch_day(time), location, temperature),
        )

    # Two meals, entered by hand in Fit (energy in small calories, nutrients in grams): a lunch
    # (meal type 2) whose app left the nutrients it did not know NULL, with a real 0 of
    # cholesterol and zinc at AOSP's "not set"; and a breakfast (1) of an espresso written as
    # AOSP writes a record with two fields set, every other nutrient at "not set".
    lunch = {"energy": 420000.0, "protein": 21.5, "total_carbohydrate": 60.0, "dietary_fiber": 12.5, "sugar": 6.0,
             "total_fat": 9.25, "saturated_fat": 1.5, "trans_fat": 0.25, "cholesterol": 0.0, "sodium": 0.85,
             "potassium": 0.9, "iron": 0.0065, "vitamin_c": 0.012, "vitamin_a": 0.00015, "folate": 0.00036, "zinc": UNSET}
    breakfast = {column: UNSET for column in NUTRIENTS}
    breakfast.update({"energy": 2000.0, "caffeine": 0.095})
    for name, start, end, meal_type, meal_name, nutrients in [
        ("meal-1", millis(5, 12, 30), millis(5, 12, 50), 2, "Lentil soup with rye bread", lunch),
        ("meal-2", millis(6, 8), millis(6, 8, 5), 1, "Espresso", breakfast),
    ]:
        interval("nutrition_record_table", name, FIT, PHONE, start, end, ["meal_type", "meal_name"] + list(nutrients),
                 [meal_type, meal_name] + list(nutrients.values()), method=MANUAL)

    # A run: 33 is running in the platform's ExerciseSessionType, whose codes the database holds.
    run = interval("exercise_session_record_table", "exercise-1", SAMSUNG, WATCH, millis(6, 18), millis(6, 18, 45),
                   ["notes", "exercise_type", "title", "has_route"], [None, 33, "Evening run", 1], method=ACTIVE)
    # Its route: four points a minute apart along a street, and two laps of a kilometre.
    db.executemany(
        "INSERT INTO exercise_route_table (parent_key, timestamp_millis, longitude, latitude, horizontal_accuracy, "
        "vertical_accuracy, altitude) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(run, millis(6, 18, minute), round(13.4050 + 0.002 * minute, 6), 52.5200, 5.0, 3.0, 34.0 + minute) for minute in range(4)],
    )
    db.executemany(
        "INSERT INTO exercise_laps_table (parent_key, lap_start_time, lap_end_time, lap_length) VALUES (?, ?, ?, ?)",
        [(run, millis(6, 18), millis(6, 18, 6), 1000.0), (run, millis(6, 18, 6), millis(6, 18, 12), 1000.0)],
    )

    # The run's speed (m/s), power (W) and step cadence (steps/min), a reading a minute, and
    # a ride's pedal cadence (revolutions/min) on the 7th.
    for table, child, column, name, app, device, start, readings in [
        ("SpeedRecordTable", "speed_record_table", "speed", "speed-1", SAMSUNG, WATCH, millis(6, 18), [2.8, 3.1, 3.0]),
        ("PowerRecordTable", "power_record_table", "power", "power-1", SAMSUNG, WATCH, millis(6, 18), [240.0, 255.0]),
        ("StepsCadenceRecordTable", "steps_cadence_record_table", "rate", "steps-cadence-1", SAMSUNG, WATCH, millis(6, 18),
         [162.0, 166.0]),
        ("CyclingPedalingCadenceRecordTable", "cycling_pedaling_cadence_record_table", "revolutions_per_minute", "pedaling-1",
         FIT, PHONE, millis(7, 12), [85.0, 90.0]),
    ]:
        series = interval(table, name, app, device, start, start + 60_000 * (len(readings) - 1))
        db.executemany(
            f"INSERT INTO {child} (parent_key, {column}, epoch_millis) VALUES (?, ?, ?)",
            [(series, value, start + 60_000 * minute) for minute, value in enumerate(readings)],
        )

    # A strength session on the 7th (45, strength training) in segments (ExerciseSegmentType):
    # 12 squats (55), a rest (66), 8 pull-ups (50).
    weights = interval("exercise_session_record_table", "exercise-2", SAMSUNG, WATCH, millis(7, 7, 40), millis(7, 8),
                       ["notes", "exercise_type", "title", "has_route"], [None, 45, None, 0], method=ACTIVE)
    db.executemany(
        "INSERT INTO exercise_segments_table (parent_key, segment_start_time, segment_end_time, segment_type, "
        "repetitions_count) VALUES (?, ?, ?, ?, ?)",
        [(weights, millis(7, 7, 40), millis(7, 7, 45), 55, 12), (weights, millis(7, 7, 45), millis(7, 7, 47), 66, 0),
         (weights, millis(7, 7, 47), millis(7, 7, 52), 50, 8)],
    )


def fill_newer(db):
    """The rows of the tables versions 11 to 16 add (v16 only), over the same days:

    * mindfulness sessions (type: 1 meditation, 6 unguided, 3 breathing, 2 other): Fit's
      15 minutes on the 5th at 07:30 with a title and notes, Fit's 10 minutes across the 5th's
      midnight (23:55 to 00:05), the watch's 20 minutes of breathing on the 6th at 21:50 and
      Fit's 5 minutes inside them at 22:00, entered by hand;
    * activity intensity (0 moderate, 1 vigorous): on the 5th, 20 moderate minutes from 08:00 and
      10 vigorous from 08:20 (the watch); on the 6th the run, 30 vigorous minutes from 18:00 (the
      watch), and Fit's 30 moderate minutes from 18:10, overlapping them;
    * skin temperature from the watch over the two nights: the 5th-6th at the wrist (3), its
      baseline 33.6 degC, deltas -0.2, +0.3, +0.5 at 01:00, 03:00, 05:00; the 6th-7th at an
      unknown place (0), no baseline (AOSP's "not set", Double.MIN_VALUE), deltas +0.8 and +1.0
      at 02:00 and 04:00;
    * planned exercise sessions: the watch's "Easy run" planned for 18:00-18:45 on the 6th
      (running, 33; at an explicit time), completed by the run (exercise-1, which links back to
      it), of one block of two steps (a warm-up of 10 minutes, a run of 5 km); and Fit's
      "Leg day" for the 9th, a date without a time (strength training, 45), not done yet.
    """
    for name, app, device, start, end, kind, title, notes, method in [
        ("mindfulness-1", FIT, PHONE, millis(5, 7, 30), millis(5, 7, 45), 1, "Morning sit", "Counted breaths to ten", ACTIVE),
        ("mindfulness-2", FIT, PHONE, millis(5, 23, 55), millis(6, 0, 5), 6, None, None, ACTIVE),
        ("mindfulness-3", SAMSUNG, WATCH, millis(6, 21, 50), millis(6, 22, 10), 3, None, None, ACTIVE),
        ("mindfulness-4", FIT, PHONE, millis(6, 22), millis(6, 22, 5), 2, None, None, MANUAL),
    ]:
        insert_interval(db, "mindfulness_session_record_table", name, app, device, start, end, ["type", "title", "notes"],
                        [kind, title, notes], method=method)

    for name, app, device, start, end, kind in [
        ("intensity-1", SAMSUNG, WATCH, millis(5, 8), millis(5, 8, 20), 0),
        ("intensity-2", SAMSUNG, WATCH, millis(5, 8, 20), millis(5, 8, 30), 1),
        ("intensity-3", SAMSUNG, WATCH, millis(6, 18), millis(6, 18, 30), 1),
        ("intensity-4", FIT, PHONE, millis(6, 18, 10), millis(6, 18, 40), 0),
    ]:
        insert_interval(db, "activity_intensity_record_table", name, app, device, start, end, ["type"], [kind])

    for name, start, end, location, baseline, deltas in [
        ("skin-temperature-1", millis(5, 23), millis(6, 7), 3, 33.6, [(millis(6, 1), -0.2), (millis(6, 3), 0.3), (millis(6, 5), 0.5)]),
        ("skin-temperature-2", millis(6, 23), millis(7, 7), 0, UNSET, [(millis(7, 2), 0.8), (millis(7, 4), 1.0)]),
    ]:
        record = insert_interval(db, "skin_temperature_record_table", name, SAMSUNG, WATCH, start, end,
                                 ["measurement_location", "baseline"], [location, baseline])
        db.executemany("INSERT INTO skin_temperature_delta_table (parent_key, delta, epoch_millis) VALUES (?, ?, ?)",
                       [(record, delta, time) for time, delta in deltas])

    # StorageUtils writes a goal's value as Java's ByteBuffer does, big-endian: a duration in
    # milliseconds as a long, a distance in metres as a double. Goal types: 2 distance, 4 duration;
    # step categories: 1 warm-up, 3 active.
    plan = insert_interval(
        db, "planned_exercise_session_record_table", "plan-1", SAMSUNG, WATCH, millis(6, 18), millis(6, 18, 45),
        ["notes", "exercise_type", "title", "has_explicit_time", "completed_session_id"],
        ["Keep heart rate under 150", 33, "Easy run", 1, record_uuid("exercise-1")], modified=millis(5, 20))
    block = db.execute("INSERT INTO planned_exercise_session_blocks_table (block_parent_id, block_description, repetitions) "
                       "VALUES (?, ?, ?)", (plan, "Steady 5 km", 1)).lastrowid
    for description, category, goal_type, goal in [
        ("Warm up", 1, 4, struct.pack(">q", 600_000)),
        ("Run", 3, 2, struct.pack(">d", 5000.0)),
    ]:
        step = db.execute("INSERT INTO planned_exercise_session_steps_table (step_parent_id, step_description, category, "
                          "step_exercise_type) VALUES (?, ?, ?, ?)", (block, description, category, 33)).lastrowid
        db.execute("INSERT INTO planned_exercise_session_goals_table (goal_parent_id, type_id, goal_min, goal_max) "
                   "VALUES (?, ?, ?, ?)", (step, goal_type, goal, None))
    db.execute("UPDATE exercise_session_record_table SET planned_exercise_session_id = ? WHERE client_record_id = ?",
               (record_uuid("plan-1"), "exercise-1"))
    insert_interval(db, "planned_exercise_session_record_table", "plan-2", FIT, PHONE, millis(9, 0), millis(9, 1),
                    ["notes", "exercise_type", "title", "has_explicit_time", "completed_session_id"],
                    [None, 45, "Leg day", 0, None], method=MANUAL, modified=millis(7, 9))


def generate(db, days, seed):
    """`days` generated days from 2025-01-01 (UTC+01:00), deterministic for one seed."""
    import random

    rng = random.Random(seed)
    db.executemany(
        "INSERT INTO application_info_table (row_id, package_name, app_name) VALUES (?, ?, ?)",
        [(SAMSUNG, "com.sec.android.app.shealth", "Samsung Health"), (FIT, "com.google.android.apps.fitness", "Fit")],
    )
    db.executemany(
        "INSERT INTO device_info_table (row_id, manufacturer, model, device_type) VALUES (?, ?, ?, ?)",
        [(WATCH, "Samsung", "SM-R930", 1), (PHONE, "Google", "Pixel 8", 2)],
    )
    db.executemany(
        "INSERT INTO health_data_category_priority_table (health_data_category, app_id_priority_order) VALUES (?, ?)",
        [(ACTIVITY, f"{SAMSUNG},{FIT}"), (SLEEP, f"{FIT}")],
    )
    start = int(datetime.datetime(2025, 1, 1, tzinfo=ZONE).timestamp() * 1000)
    minute = 60_000
    counter = [0]

    def common(app, device, begin, end):
        counter[0] += 1
        return [uuid.uuid5(NAMESPACE, f"generated-{seed}-{counter[0]}").bytes, end + minute, None, device, app, AUTOMATIC,
                begin, OFFSET, end, OFFSET, epoch_day(begin)]

    head = ("uuid, last_modified_time, client_record_id, device_info_id, app_info_id, recording_method, "
            "start_time, start_zone_offset, end_time, end_zone_offset, local_date")
    for day in range(days):
        midnight = start + day * 1440 * minute
        steps, distance, energy = [], [], []
        for app, device in ((SAMSUNG, WATCH), (FIT, PHONE)):
            for quarter in range(96):
                begin = midnight + quarter * 15 * minute + (0 if app == SAMSUNG else 5 * minute)
                end = begin + 15 * minute
                count = rng.randint(0, 400) if 28 <= quarter < 92 else rng.randint(0, 20)
                steps.append(common(app, device, begin, end) + [count])
                distance.append(common(app, device, begin, end) + [count * 0.75])
                energy.append(common(app, device, begin, end) + [count * 40.0])
        db.executemany(f"INSERT INTO steps_record_table ({head}, count) VALUES ({', '.join('?' * 12)})", steps)
        db.executemany(f"INSERT INTO distance_record_table ({head}, distance) VALUES ({', '.join('?' * 12)})", distance)
        db.executemany(f"INSERT INTO active_calories_burned_record_table ({head}, energy) VALUES ({', '.join('?' * 12)})", energy)
        for slot in range(288):
            begin = midnight + slot * 5 * minute
            cursor = db.execute(f"INSERT INTO heart_rate_record_table ({head}) VALUES ({', '.join('?' * 11)})",
                                common(SAMSUNG, WATCH, begin, begin + 4 * minute))
            db.executemany(
                "INSERT INTO heart_rate_record_series_table (parent_key, beats_per_minute, epoch_millis) VALUES (?, ?, ?)",
                [(cursor.lastrowid, rng.randint(55, 120), begin + reading * minute) for reading in range(5)],
            )
        weight = common(FIT, PHONE, midnight + 7 * 60 * minute, midnight + 7 * 60 * minute)
        db.execute(
            "INSERT INTO weight_record_table (uuid, last_modified_time, client_record_id, device_info_id, app_info_id, "
            "recording_method, time, zone_offset, local_date, weight) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            weight[:7] + [OFFSET, weight[10], 72000.0 + rng.randint(-500, 500)],
        )
        night = midnight + 23 * 60 * minute
        cursor = db.execute(f"INSERT INTO sleep_session_record_table ({head}) VALUES ({', '.join('?' * 11)})",
                            common(FIT, PHONE, night, night + 480 * minute))
        stages, at = [], night
        while at < night + 480 * minute:
            length = min(rng.choice([10, 15, 20, 30]) * minute, night + 480 * minute - at)
            stages.append((cursor.lastrowid, at, at + length, rng.choice([1, 4, 4, 5, 6])))
            at += length
        db.executemany(
            "INSERT INTO sleep_stages_table (parent_key, stage_start_time, stage_end_time, stage_type) VALUES (?, ?, ?, ?)", stages)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", help="folder to write health_connect_export.db and .zip into")
    parser.add_argument("--schema", choices=sorted(VERSIONS), default="current")
    parser.add_argument("--days", type=int, help="write this many generated days instead of the fixture")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    os.makedirs(arguments.output, exist_ok=True)
    path = os.path.join(arguments.output, "health_connect_export.db")
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    create_schema(db, arguments.schema)
    if arguments.days:
        generate(db, arguments.days, arguments.seed)
    else:
        fill(db)
        if arguments.schema == "v16":
            fill_newer(db)
    db.commit()
    db.execute("VACUUM")
    db.close()
    archive = os.path.join(arguments.output, "health_connect_export.zip")
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        info = zipfile.ZipInfo("health_connect_export.db", date_time=(2026, 1, 8, 9, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with open(path, "rb") as handle:
            zipped.writestr(info, handle.read())
    print(path)
    print(archive)
    return 0


if __name__ == "__main__":
    sys.exit(main())
