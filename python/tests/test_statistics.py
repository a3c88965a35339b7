"""`healthport.statistics` gives `healthport stats`'s numbers, dates and sources."""

from __future__ import annotations

import csv
import io

import pytest

import healthport
from conftest import SAMPLE, run_cli
from frames import local_text, same_moment


def cli_rows(*arguments):
    text = run_cli("stats", SAMPLE, "--format", "csv", "-q", *arguments).stdout.decode()
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize(
    "arguments, options",
    [
        (dict(type="StepCount", tz="Europe/Paris"), ["--type", "StepCount", "--tz", "Europe/Paris"]),
        (
            dict(type="HeartRate", tz="Europe/Paris", options=["discreteAverage", "discreteMin", "discreteMax"]),
            ["--type", "HeartRate", "--tz", "Europe/Paris", "--options", "discreteAverage,discreteMin,discreteMax"],
        ),
        (
            dict(type="StepCount", interval="week", anchor_date="2024-03-25", separate_by_source=True, tz="Europe/Paris"),
            ["--type", "StepCount", "--interval", "week", "--anchor-date", "2024-03-25", "--separate-by-source", "--tz", "Europe/Paris"],
        ),
        (dict(type="StepCount", interval="hour", tz="UTC"), ["--type", "StepCount", "--interval", "hour", "--tz", "UTC"]),
        (dict(type="BodyMass", unit="lb", tz="America/New_York"), ["--type", "BodyMass", "--unit", "lb", "--tz", "America/New_York"]),
    ],
)
def test_statistics_equal_the_cli(arguments, options):
    kind = arguments.pop("type")
    table = healthport.statistics(SAMPLE, kind, **arguments)
    rows = cli_rows(*options)
    assert table.num_rows == len(rows) > 0
    for row, expected in zip(table.to_pylist(), rows):
        for name, text in expected.items():
            if name in ("startDate", "endDate"):
                assert same_moment(row[name], row[name + "_utcOffset"], text)
            elif name == "source":
                assert row[name] == (text or None)
            elif name == "unit":
                assert row[name] == text
            else:
                assert row[name] == (float(text) if text else None), name


def test_the_health_apps_merge_counts_each_minute_once():
    days = healthport.statistics(SAMPLE, "StepCount", tz="Europe/Paris", separate_by_source=True).to_pandas()
    first = days[days["startDate"] == days["startDate"].min()]
    merged = first[first["source"].isna()]["sum"].item()
    by_source = first[first["source"].notna()].set_index("source")["sum"]
    assert merged == 7885
    assert merged < by_source.sum()


def test_an_interval_zone_is_in_the_offsets():
    days = healthport.statistics(SAMPLE, "StepCount", tz="America/New_York")
    # The sample's days are after New York's change to summer time (10 March 2024).
    assert set(days["startDate_utcOffset"].to_pylist()) == {-4 * 3600}
    first = days.to_pylist()[0]
    assert local_text(first["startDate"], first["startDate_utcOffset"]).endswith("T00:00:00-04:00")


def test_no_samples_is_an_empty_table():
    table = healthport.statistics(SAMPLE, "StepCount", start="2030-01-01", tz="UTC")
    assert table.num_rows == 0
    assert "sum" in table.column_names and "startDate" in table.column_names


def test_a_source_name_with_a_comma_is_one_name(tmp_path):
    """Two step samples over the same ten minutes: one from a source whose name holds a comma,
    one from the Watch. The merge counts the one the priority puts first, so the name must reach
    healthport whole (it used to be split at its comma, and the Watch won either way)."""
    export = tmp_path / "steps.xml"

    def record(source, value):
        return (f'<Record type="HKQuantityTypeIdentifierStepCount" sourceName="{source}" unit="count" '
                f'startDate="2024-03-01 08:00:00 +0000" endDate="2024-03-01 08:10:00 +0000" value="{value}"/>\n')

    export.write_text('<HealthData locale="en_US">\n<ExportDate value="2024-03-10 09:00:00 +0000"/>\n'
                      + record("Smith, John’s iPhone", 100) + record("Apple Watch", 50) + "</HealthData>\n", encoding="utf-8")
    first = healthport.statistics(export, "StepCount", tz="UTC", source_priority=["Smith, John’s iPhone", "Apple Watch"], quiet=True)
    assert first.column("sum").to_pylist() == [100]
    second = healthport.statistics(export, "StepCount", tz="UTC", source_priority=["Apple Watch", "Smith, John’s iPhone"], quiet=True)
    assert second.column("sum").to_pylist() == [50]
