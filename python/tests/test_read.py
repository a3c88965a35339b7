"""`healthport.read` gives the same data as the CLI's CSV and NDJSON of the same export:
the same tables, rows, uuids, values, units and dates with their offsets."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from zoneinfo import ZoneInfo

import healthport
from conftest import OLDER, SAMPLE, real_exports, run_cli
from frames import assert_frame_matches_csv, same_moment

EXPORTS = [SAMPLE, OLDER, *real_exports()]


def export_id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("export", EXPORTS, ids=export_id)
def test_every_table_equals_the_csv_folder(export, tmp_path):
    tables = healthport.read(export, quiet=True)
    csv_folder = tmp_path / "csv"
    run_cli("convert", export, "--format", "csv", "--output", csv_folder, "-q")
    csv_names = sorted(path.stem for path in csv_folder.glob("*.csv"))
    assert sorted(tables) == csv_names
    for name in csv_names:
        assert_frame_matches_csv(tables[name], csv_folder / f"{name}.csv")


@pytest.mark.parametrize("export", EXPORTS, ids=export_id)
def test_objects_equal_the_ndjson(export):
    """Every object of the NDJSON is a row with its uuid, type, dates and value."""
    lines = run_cli("convert", export, "--format", "ndjson", "-q").stdout.decode().splitlines()
    objects = [json.loads(line) for line in lines[1:]]
    tables = healthport.read(export, quiet=True)
    rows = {}
    for name, table in tables.items():
        if "uuid" not in table.column_names or name in ("workout-routes", "workout-activities"):
            continue
        for row in table.to_pylist():
            rows[row["uuid"]] = row
    samples = [item for item in objects if "uuid" in item and item["kind"] != "unknown"]
    assert samples, "no objects"
    for item in samples:
        row = rows.get(item["uuid"])
        assert row is not None, f"{item['uuid']} ({item.get('sampleType', item['kind'])}) has no row"
        if "sampleType" in item:
            assert row["sampleType"] == item["sampleType"]
        if "startDate" in item:
            assert same_moment(row["startDate"], row["startDate_utcOffset"], item["startDate"])
            assert same_moment(row["endDate"], row["endDate_utcOffset"], item["endDate"])
        if item["kind"] == "quantitySample":
            assert row["quantity_value"] == item["quantity"]["value"]
            assert row["quantity_unit"] == item["quantity"]["unit"]
        if item["kind"] == "categorySample" and "value" in item:
            assert row["value"] == item["value"]
    # Nothing more, nothing less: the tables' objects are the NDJSON's, each once (the rows of
    # workout-activities and workout-routes are parts of a workout, not objects of their own).
    in_tables = Counter(
        uuid
        for name, table in tables.items()
        if "uuid" in table.column_names and name not in ("workout-routes", "workout-activities")
        for uuid in table["uuid"].to_pylist()
    )
    assert in_tables == Counter(item["uuid"] for item in objects if "uuid" in item)


def test_time_zones_are_the_exports(tmp_path):
    """Dates keep the offset the phone printed (the export's own, one for the whole file), and
    the local time beside them is the clock in the person's zone at that instant."""
    steps = healthport.read(SAMPLE, types="StepCount")["StepCount"].to_pandas()
    printed = steps["startDate"] + steps["startDate_utcOffset"].astype("timedelta64[s]")
    rows = [line.split(",") for line in run_cli("convert", SAMPLE, "--type", "StepCount", "--format", "csv", "-q").stdout.decode().splitlines()]
    header, first = rows[0], rows[1]
    assert printed.iloc[0].strftime("%Y-%m-%dT%H:%M:%S") == first[header.index("startDate")][:19]
    assert set(steps["startDate_utcOffset"]) == {7200}
    assert str(steps["startDate"].dtype) == "datetime64[us, UTC]"

    paris = steps["startDate"].dt.tz_convert(ZoneInfo("Europe/Paris"))
    assert {offset.total_seconds() for offset in paris.map(lambda moment: moment.utcoffset())} == {3600, 7200}
    assert (steps["localStartDate"] == paris.dt.tz_localize(None)).all()
    assert set(steps["timeZone"]) == {"Europe/Paris"}
    assert steps["localStartDate"].iloc[0].strftime("%Y-%m-%dT%H:%M:%S") == first[header.index("localStartDate")]


def test_filters_select_as_the_cli_does():
    arguments = dict(types=["HeartRate"], start="2024-03-28", end="2024-03-29", tz="Europe/Paris",
                     where='quantity > "160 count/min"')
    tables = healthport.read(SAMPLE, **arguments)
    cli = run_cli("convert", SAMPLE, "--type", "HeartRate", "--start", "2024-03-28", "--end", "2024-03-29",
                  "--tz", "Europe/Paris", "--where", 'quantity > "160 count/min"', "--format", "ndjson", "-q")
    uuids = [json.loads(line)["uuid"] for line in cli.stdout.decode().splitlines()[1:]]
    assert uuids and tables["HeartRate"]["uuid"].to_pylist() == uuids
    assert sorted(tables) == ["HeartRate", "export"]


def test_a_unit_converts_quantities():
    pounds = healthport.read(SAMPLE, types="BodyMass", unit="lb")["BodyMass"]
    kilograms = healthport.read(SAMPLE, types="BodyMass")["BodyMass"]
    assert set(pounds["quantity_unit"].to_pylist()) == {"lb"}
    assert pounds["quantity_value"][0].as_py() == pytest.approx(kilograms["quantity_value"][0].as_py() / 0.45359237)


def test_both_parsers_read_the_same():
    scanner = healthport.read(SAMPLE, parser="scanner", quiet=True)
    libxml2 = healthport.read(SAMPLE, parser="libxml2", quiet=True)
    assert list(scanner) == list(libxml2)
    for name in scanner:
        assert scanner[name].equals(libxml2[name]), name


def test_a_type_is_found_by_its_identifier_too():
    tables = healthport.read(SAMPLE, types="StepCount")
    assert tables["HKQuantityTypeIdentifierStepCount"] is tables["StepCount"]
    assert "HKQuantityTypeIdentifierStepCount" in tables and "HeartRate" not in tables


def test_pandas_and_polars_frames():
    tables = healthport.read(SAMPLE, types=["StepCount", "Workout"])
    frames = tables.to_pandas()
    assert len(frames["StepCount"]) == tables["StepCount"].num_rows == 336
    polars_frames = tables.to_polars()
    assert polars_frames["workouts"].height == tables["workouts"].num_rows
    assert polars_frames["StepCount"]["uuid"].to_list() == frames["StepCount"]["uuid"].to_list()


def test_nothing_is_left_in_the_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    healthport.read(SAMPLE, types="StepCount", policy={"version": 1, "consumer": {"name": "x"}, "read": {"StepCount": "granted"}})
    assert list(tmp_path.iterdir()) == []
