"""Progress appears where the caller looks: a function, a terminal, a notebook."""

from __future__ import annotations

import io
import json
import os
import sys

import pytest

import healthport
from conftest import REPOSITORY, SAMPLE, sample_object_count


def test_a_function_gets_every_update():
    updates = []
    healthport.read(SAMPLE, progress=updates.append, quiet=True)
    assert updates, "no progress reported"
    assert all(isinstance(update, healthport.Progress) for update in updates)
    assert all(0 <= update.fraction <= 1 for update in updates)
    assert updates[-1].objects <= sample_object_count()


def test_a_terminal_gets_the_line_and_it_is_erased(monkeypatch):
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    healthport.read(SAMPLE, types="StepCount", progress=True)
    text = stream.getvalue()
    assert "\r\x1b[Khealthport: " in text and " objects" in text
    assert text.endswith("\r\x1b[K")


def test_no_progress_when_asked_for_none(monkeypatch):
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    healthport.read(SAMPLE, types="StepCount", progress=False)
    assert stream.getvalue() == ""


def test_a_notebook_shows_a_progress_bar(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            "import healthport\n"
            f"tables = healthport.read({str(SAMPLE)!r}, quiet=True)\n"
            "tables['HeartRate'].num_rows"
        )
    )
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = notebook.cells[0].outputs
    html = [output["data"].get("text/html", "") for output in outputs if output["output_type"] == "display_data"]
    assert any("<progress" in item and "objects" in item for item in html), json.dumps(outputs)[:2000]
    results = [output for output in outputs if output["output_type"] == "execute_result"]
    # The sample's heart rates, as the generator that wrote it recorded them (its manifest).
    manifest = json.loads((REPOSITORY / "SampleData" / "manifest.json").read_text())
    assert results[0]["data"]["text/plain"] == str(manifest["objectsByType"]["HKQuantityTypeIdentifierHeartRate"])
    assert not [output for output in outputs if output["output_type"] == "stream" and output["name"] == "stderr"]
