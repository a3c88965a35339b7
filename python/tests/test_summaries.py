"""`healthport.daily_summary` and `healthport.sleep_nights` are `healthport summary` and
`healthport sleep`: the same rows, dates, numbers and sources as the commands' CSV, from an
export or a store, under a policy."""

from __future__ import annotations

import datetime as dt

import pytest

import healthport
from conftest import OLDER, SAMPLE, real_exports, run_cli
from frames import assert_frame_matches_csv

JSON_COLUMNS = ("sources",)
DAY_COLUMNS = ["date", "sampleType", "unit", "sum", "average", "minimum", "maximum", "duration", "inBed", "count", "sources"]
NIGHT_COLUMNS = [
    "night", "inBed", "asleep", "asleepUnspecified", "asleepCore", "asleepDeep", "asleepREM", "awake",
    "sleepStart", "sleepStart_utcOffset", "sleepEnd", "sleepEnd_utcOffset", "naps", "sources",
]


def cli_csv(tmp_path, command, *arguments):
    path = tmp_path / f"{command}.csv"
    run_cli(command, *arguments, "--format", "csv", "--output", path, "-q")
    return path


@pytest.mark.parametrize(
    "arguments, options",
    [
        ({}, []),
        (dict(tz="America/New_York"), ["--tz", "America/New_York"]),
        (
            dict(types=["StepCount", "HeartRate", "SleepAnalysis"], start="2024-03-27", end="2024-03-30"),
            ["--type", "StepCount,HeartRate,SleepAnalysis", "--start", "2024-03-27", "--end", "2024-03-30"],
        ),
        (dict(types="StepCount", source_priority=["Simon’s iPhone"]), ["--type", "StepCount", "--source-priority", "Simon’s iPhone"]),
        (dict(where='quantity > "100 count/min"', types="HeartRate"), ["--where", 'quantity > "100 count/min"', "--type", "HeartRate"]),
    ],
)
def test_daily_summary_equals_the_cli(arguments, options, tmp_path):
    table = healthport.daily_summary(SAMPLE, quiet=True, **arguments)
    assert table.num_rows > 0
    assert_frame_matches_csv(table, cli_csv(tmp_path, "summary", SAMPLE, *options), json_columns=JSON_COLUMNS)


@pytest.mark.parametrize(
    "arguments, options",
    [
        ({}, []),
        (dict(evening=dt.time(20, 0)), ["--evening", "20:00"]),
        (dict(evening="15:30", tz="UTC"), ["--evening", "15:30", "--tz", "UTC"]),
        (dict(start="2024-03-29", end="2024-04-02"), ["--start", "2024-03-29", "--end", "2024-04-02"]),
    ],
)
def test_sleep_nights_equal_the_cli(arguments, options, tmp_path):
    table = healthport.sleep_nights(SAMPLE, quiet=True, **arguments)
    assert table.num_rows > 0
    assert_frame_matches_csv(table, cli_csv(tmp_path, "sleep", SAMPLE, *options), json_columns=JSON_COLUMNS)


@pytest.mark.parametrize("export", real_exports(), ids=lambda path: f"{path.parent.name}/{path.name}")
def test_real_exports(export, tmp_path):
    """Whatever they hold, sleep or not: the same rows as the commands, and the same columns
    when there is no row."""
    days = healthport.daily_summary(export, quiet=True)
    nights = healthport.sleep_nights(export, quiet=True)
    assert (days.column_names, nights.column_names) == (DAY_COLUMNS, NIGHT_COLUMNS)
    assert_frame_matches_csv(days, cli_csv(tmp_path, "summary", export), json_columns=JSON_COLUMNS)
    assert_frame_matches_csv(nights, cli_csv(tmp_path, "sleep", export), json_columns=JSON_COLUMNS)


def test_from_a_store(tmp_path):
    store = tmp_path / "health.sqlite"
    run_cli("import", OLDER, "--store", store, "-q")
    run_cli("import", SAMPLE, "--store", store, "-q")
    days = healthport.daily_summary(store=store, quiet=True)
    assert_frame_matches_csv(days, cli_csv(tmp_path, "summary", "--store", store), json_columns=JSON_COLUMNS)
    # The store holds the later export: its days are the export's own.
    assert days.equals(healthport.daily_summary(SAMPLE, quiet=True))
    nights = healthport.sleep_nights(store=store, quiet=True)
    assert nights.equals(healthport.sleep_nights(SAMPLE, quiet=True))


def test_the_columns_and_their_types():
    import pyarrow as pa

    days = healthport.daily_summary(SAMPLE, types="StepCount", quiet=True)
    assert days.column_names == DAY_COLUMNS
    assert days.schema.field("date").type == pa.date32()
    assert days["date"][0].as_py() == dt.date(2024, 3, 25)
    assert set(days["sampleType"].to_pylist()) == {"HKQuantityTypeIdentifierStepCount"}
    nights = healthport.sleep_nights(SAMPLE, quiet=True)
    assert nights.column_names == NIGHT_COLUMNS
    assert nights.schema.field("night").type == pa.date32()
    assert str(nights.schema.field("sleepStart").type) == "timestamp[us, tz=UTC]"
    # With nothing to show, still the same columns of the same types.
    assert healthport.sleep_nights(SAMPLE, start="2030-01-01", quiet=True).schema.equals(nights.schema)
    assert healthport.daily_summary(SAMPLE, types="StepCount", start="2030-01-01", quiet=True).schema.equals(days.schema)


def test_the_summary_merges_sources_as_stats_does():
    """A day's steps are `stats`' daily sum, not the sum of both sources' samples."""
    days = healthport.daily_summary(SAMPLE, types="StepCount", tz="Europe/Paris", quiet=True).to_pandas()
    statistics = healthport.statistics(SAMPLE, "StepCount", tz="Europe/Paris").to_pandas()
    assert days["sum"].tolist() == statistics["sum"].tolist()
    raw = healthport.read(SAMPLE, types="StepCount")["StepCount"]
    assert days["sum"].sum() < sum(raw["quantity_value"].to_pylist())


def test_a_policy_hides_what_it_denies():
    steps_only = {"version": 1, "consumer": {"name": "Step Study"}, "read": {"StepCount": "granted", "SleepAnalysis": "denied"}}
    days = healthport.daily_summary(SAMPLE, policy=steps_only, quiet=True)
    assert set(days["sampleType"].to_pylist()) == {"HKQuantityTypeIdentifierStepCount"}
    assert healthport.sleep_nights(SAMPLE, policy=steps_only, quiet=True).num_rows == 0


def test_one_input_exactly(tmp_path):
    with pytest.raises(ValueError):
        healthport.daily_summary()
    with pytest.raises(ValueError):
        healthport.sleep_nights(SAMPLE, store=tmp_path / "health.sqlite")
    with pytest.raises(ValueError):
        healthport.sleep_nights(SAMPLE, evening=dt.time(20, 0, 30))


@pytest.mark.parametrize(
    "arguments, options",
    [
        ({}, []),
        (dict(start="2024-03-30", end="2024-04-02"), ["--start", "2024-03-30", "--end", "2024-04-02"]),
        (dict(period="week", types=["StepCount", "SleepAnalysis"]), ["--period", "week", "--type", "StepCount,SleepAnalysis"]),
        (dict(period="month", tz="+01:00"), ["--period", "month", "--tz", "+01:00"]),
    ],
)
def test_days_equal_the_cli(arguments, options, tmp_path):
    table = healthport.days(SAMPLE, quiet=True, **arguments)
    assert table.num_rows > 0
    assert_frame_matches_csv(table, cli_csv(tmp_path, "days", SAMPLE, *options))


def test_days_put_apples_rings_beside_the_computed_figures():
    """The sample's rings are the Watch's sums of the same samples (its generator writes them so):
    every day, Apple's stand hours are the hours stood, its exercise the minutes counted."""
    days = healthport.days(SAMPLE, quiet=True).to_pandas()
    rung = days.dropna(subset=["apple_stand_hours"])
    assert len(rung) == 14
    assert (rung["stand_hours"] == rung["apple_stand_hours"]).all()
    assert (rung["exercise_min"] == rung["apple_exercise_min"]).all()
    assert str(days["date"].iloc[0]) == "2024-03-25"


def test_workouts_equal_the_cli(tmp_path):
    table = healthport.workouts(SAMPLE, quiet=True)
    assert table.num_rows == 5
    assert_frame_matches_csv(table, cli_csv(tmp_path, "workouts", SAMPLE))


def test_days_with_nothing_to_show_still_has_a_date_column():
    table = healthport.days(SAMPLE, types="BodyTemperature", quiet=True)
    assert table.num_rows == 0 and "date" in table.column_names
