"""Every function takes a policy, and nothing the policy denies reaches Python: no table,
no row, no count, no warning, no change."""

from __future__ import annotations

import pytest

import healthport
from conftest import OLDER, SAMPLE, run_cli

STEPS_ONLY = {"version": 1, "consumer": {"name": "Step Study"}, "read": {"StepCount": "granted"}}


def test_read_holds_only_the_granted_type(study_policy):
    tables = healthport.read(SAMPLE, policy=study_policy)
    assert sorted(tables) == ["StepCount", "export"]
    assert tables["StepCount"].num_rows == 336
    # The export's table: no characteristic the policy does not grant.
    export = tables["export"].to_pylist()[0]
    assert export["dateOfBirth"] is None and export["biologicalSex"] is None


def test_a_denied_type_is_absent_even_when_asked_for_by_name(study_policy):
    denied = {"version": 1, "consumer": {"name": "Step Study"}, "read": {"StepCount": "granted", "HeartRate": "denied"}}
    tables = healthport.read(SAMPLE, types=["HeartRate", "StepCount"], policy=denied)
    assert "HeartRate" not in tables
    assert tables["StepCount"].num_rows == 336


def test_a_policy_given_as_a_dict_is_the_same_as_its_file(study_policy):
    from_file = healthport.read(SAMPLE, policy=study_policy)
    from_dict = healthport.read(SAMPLE, policy=STEPS_ONLY)
    assert list(from_file) == list(from_dict)
    assert from_file["StepCount"].equals(from_dict["StepCount"])


def test_no_warning_under_a_policy(recwarn):
    healthport.read(SAMPLE, policy=STEPS_ONLY)
    assert not [w for w in recwarn if issubclass(w.category, healthport.HealthportWarning)]


def test_info_describes_only_what_the_policy_lets_through():
    about = healthport.info(SAMPLE, policy=STEPS_ONLY)
    assert about["objectCount"] == 336
    assert [entry["type"] for entry in about["types"]] == ["HKQuantityTypeIdentifierStepCount"]


def test_statistics_of_a_denied_type_are_empty():
    denied = {"version": 1, "consumer": {"name": "Step Study"}, "read": {"StepCount": "granted", "HeartRate": "denied"}}
    table = healthport.statistics(SAMPLE, "HeartRate", policy=denied, tz="Europe/Paris")
    assert table.num_rows == 0
    steps = healthport.statistics(SAMPLE, "StepCount", policy=denied, tz="Europe/Paris")
    assert steps.num_rows > 0


def test_changes_hold_only_the_granted_type(tmp_path):
    store = tmp_path / "health.sqlite"
    run_cli("import", OLDER, "--store", store, "-q")
    run_cli("import", SAMPLE, "--store", store, "-q")
    batch = healthport.changes(store, policy=STEPS_ONLY)
    assert sorted(batch.added) == ["StepCount", "export"]
    assert batch.added["StepCount"].num_rows == 336
    # Its anchor is the last step change's, whatever came after it.
    by_type = healthport.changes(store, types="StepCount")
    assert batch.anchor == by_type.anchor
    assert batch.anchor != healthport.changes(store).anchor


@pytest.mark.parametrize("function", ["daily_summary", "sleep_nights", "read", "info", "statistics", "changes"])
def test_every_function_takes_a_policy(function):
    import inspect

    assert "policy" in inspect.signature(getattr(healthport, function)).parameters
