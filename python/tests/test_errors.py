"""Failures come back as exceptions carrying healthport's message, exit status and
location; warnings as Python warnings."""

from __future__ import annotations

import pickle
import zipfile

import pytest

import healthport
from conftest import SAMPLE, run_cli


def test_a_missing_export_is_no_input(tmp_path):
    with pytest.raises(healthport.NoInputError) as caught:
        healthport.read(tmp_path / "missing.zip")
    error = caught.value
    assert error.status == 66
    cli = run_cli("convert", tmp_path / "missing.zip", "--format", "parquet", "--output", tmp_path / "out", check=False)
    assert cli.returncode == 66
    assert error.message in cli.stderr.decode()
    assert str(tmp_path / "missing.zip") in str(error)


def malformed_export(folder):
    """The sample's document with a bad date on a record some way in."""
    with zipfile.ZipFile(SAMPLE) as archive:
        text = archive.read("apple_health_export/export.xml").decode("utf-8")
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if number > 100 and "<Record " in line and 'startDate="' in line:
            at = line.index('startDate="') + len('startDate="')
            lines[number] = line[:at] + "2024-13-01 08:00:00 +0100" + line[at + 25 :]
            break
    path = folder / "export.xml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path, number + 1


def test_a_malformed_export_is_a_data_error_at_its_place(tmp_path):
    path, line = malformed_export(tmp_path)
    with pytest.raises(healthport.DataError) as caught:
        healthport.read(path)
    error = caught.value
    assert error.status == 65
    assert error.location.file == str(path)
    assert error.location.line == line and error.location.column > 1
    assert error.message.startswith("invalid startDate")
    cli = run_cli("convert", path, check=False)
    assert cli.returncode == 65
    assert f"{path}:{line}:{error.location.column}: error: {error.message}" in cli.stderr.decode()


def test_a_bad_predicate_is_a_usage_error_with_its_column():
    with pytest.raises(healthport.UsageError) as caught:
        healthport.read(SAMPLE, where="quantity >= AND x")
    error = caught.value
    assert error.status == 64
    # The fault's place is in the request, not in a file: the argument and its column,
    # read as fields (--diagnostics json), never a flag's name parsed out of a line.
    assert error.location is None
    assert (error.argument, error.column, error.category) == ("predicate", 13, "invalidRequest")
    assert error.healthkit_code == "errorInvalidArgument"
    assert error.message == "expected a value after '>='"
    assert error.context[-1].strip() == "^"
    assert isinstance(error, ValueError)


def test_an_unknown_type_is_a_usage_error():
    with pytest.raises(healthport.UsageError) as caught:
        healthport.statistics(SAMPLE, "NoSuchType")
    assert caught.value.status == 64
    assert "NoSuchType" in caught.value.message


def test_an_invalid_policy_is_a_policy_error(tmp_path):
    policy = tmp_path / "policy.json"
    policy.write_text("{ not json", encoding="utf-8")
    with pytest.raises(healthport.PolicyError) as caught:
        healthport.info(SAMPLE, policy=policy)
    assert caught.value.status == 78


def test_an_undecided_type_under_a_policy_is_not_determined(study_policy):
    with pytest.raises(healthport.AuthorizationNotDeterminedError) as caught:
        healthport.read(SAMPLE, types="HeartRate", policy=study_policy)
    assert caught.value.status == 77
    assert isinstance(caught.value, PermissionError)


def test_a_made_up_store_anchor_is_refused(tmp_path):
    store = tmp_path / "health.sqlite"
    run_cli("import", SAMPLE, "--store", store, "-q")
    with pytest.raises(healthport.UsageError) as caught:
        healthport.changes(store, "s1AAAAAAAAAAAAAAAAAAAAAA")
    assert caught.value.status == 64


def test_a_missing_store_is_no_input(tmp_path):
    with pytest.raises(healthport.NoInputError):
        healthport.changes(tmp_path / "none.sqlite")


def test_errors_keep_the_command_and_pickle():
    with pytest.raises(healthport.UsageError) as caught:
        healthport.read(SAMPLE, where="quantity >= AND x")
    error = caught.value
    assert error.command[1] == "convert" and error.command[-1] == str(SAMPLE)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is healthport.UsageError
    assert (copy.message, copy.status, copy.location, copy.context) == (error.message, error.status, error.location, error.context)
    assert (copy.category, copy.argument, copy.column, copy.healthkit_code) == (
        error.category, error.argument, error.column, error.healthkit_code) == ("invalidRequest", "predicate", 13, "errorInvalidArgument")


def test_warnings_are_python_warnings():
    with pytest.warns(healthport.HealthportWarning) as record:
        healthport.read(SAMPLE)
    messages = [str(warning.message) for warning in record]
    assert any("apple_health_export/export.xml" in message for message in messages)


def test_quiet_silences_warnings(recwarn):
    healthport.read(SAMPLE, quiet=True)
    assert not [w for w in recwarn if issubclass(w.category, healthport.HealthportWarning)]


def test_a_bad_argument_in_python_never_runs_the_binary():
    with pytest.raises(ValueError):
        healthport.read(SAMPLE, parser="sax")
    with pytest.raises(TypeError):
        healthport.read(SAMPLE, types=[1, 2])


def test_every_documented_status_has_its_class():
    """The README's "Exit status" table (the one healthport(1) and the binary share): every
    failure status maps to its own exception class."""
    from conftest import REPOSITORY
    from healthport.errors import error_for

    readme = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Exit status", 1)[1].split("\n\n", 2)[1]
    statuses = set()
    for line in table.splitlines()[2:]:
        first = line.split("|")[1]
        statuses |= {int(part) for part in first.split(",") if part.strip().isdigit()}
    assert {64, 65, 66, 70, 73, 74, 75, 77, 78, 129, 130, 143} <= statuses
    for status in statuses - {0, 3}:
        error = error_for(status, [{"type": "error", "message": "x", "status": status}], "", ["healthport"])
        assert type(error) is not healthport.HealthportError, status
        assert error.status == status
