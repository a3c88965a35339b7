"""`healthport.changes` is `healthport changes --store`: the same added and deleted
objects, the same anchors, in batches that add up to one run."""

from __future__ import annotations

import json

import pytest

import healthport
from conftest import OLDER, SAMPLE, run_cli


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "health.sqlite"
    run_cli("import", OLDER, "--store", path, "--anchor-output", tmp_path / "older.anchor", "-q")
    run_cli("import", SAMPLE, "--store", path, "-q")
    return path


def cli_changes(store, *arguments):
    lines = run_cli("changes", "--store", store, "--format", "ndjson", "-q", *arguments).stdout.decode().splitlines()
    records = [json.loads(line) for line in lines]
    added = [record["object"]["uuid"] for record in records if record["type"] == "added"]
    deleted = [record["uuid"] for record in records if record["type"] == "deleted"]
    return added, deleted, records[-1]


def added_uuids(tables):
    uuids = []
    for name, table in tables.items():
        if "uuid" in table.column_names and name not in ("workout-routes", "workout-activities"):
            uuids += table["uuid"].to_pylist()
    return uuids


def test_everything_since_the_beginning(store):
    batch = healthport.changes(store)
    added, deleted, end = cli_changes(store)
    assert sorted(added_uuids(batch.added)) == sorted(added)
    assert batch.deleted.num_rows == len(deleted) == 0
    assert batch.anchor == end["newAnchor"]["anchor"]
    assert batch.complete is end["newAnchor"]["complete"] is True


def test_since_an_import(store, tmp_path):
    older = (tmp_path / "older.anchor").read_text().strip()
    batch = healthport.changes(store, older)
    added, _, end = cli_changes(store, "--anchor", older)
    # The older export is the first twelve of the newer's fourteen days.
    assert len(added) == healthport.info(SAMPLE, quiet=True)["objectCount"] - healthport.info(OLDER, quiet=True)["objectCount"]
    assert sorted(added_uuids(batch.added)) == sorted(added)
    assert batch.anchor == end["newAnchor"]["anchor"]
    # The anchor file works as well as its token.
    assert healthport.changes(store, tmp_path / "older.anchor").anchor == batch.anchor


def test_batches_add_up_to_one_run(store):
    everything = sorted(added_uuids(healthport.changes(store).added))
    seen, anchor, batches = [], "0", 0
    while True:
        batch = healthport.changes(store, anchor, limit=2000)
        seen += added_uuids(batch.added)
        anchor = batch.anchor
        batches += 1
        if batch.complete:
            break
        assert batches < 10
    total = healthport.info(SAMPLE, quiet=True)["objectCount"]
    assert batches == -(-total // 2000)
    assert sorted(seen) == everything
    last = healthport.changes(store, anchor)
    assert last.complete and not added_uuids(last.added) and last.anchor == anchor


def test_deletions(tmp_path):
    """An export older than the store's, forced: what it lacks is deleted."""
    path = tmp_path / "health.sqlite"
    run_cli("import", SAMPLE, "--store", path, "--anchor-output", tmp_path / "a", "-q")
    run_cli("import", OLDER, "--store", path, "--force", "-q")
    batch = healthport.changes(path, (tmp_path / "a").read_text().strip())
    _, deleted, _ = cli_changes(path, "--anchor", (tmp_path / "a").read_text().strip())
    difference = healthport.info(SAMPLE, quiet=True)["objectCount"] - healthport.info(OLDER, quiet=True)["objectCount"]
    assert batch.deleted.num_rows == len(deleted) == difference
    assert sorted(batch.deleted["uuid"].to_pylist()) == sorted(deleted)
    assert batch.deleted.column_names == ["uuid", "sampleType"]
