"""Fixtures: the repository's sample exports, and the installed `healthport` command.

The tests run against the installed package (Scripts/check-wheel.sh installs the wheel
into a fresh virtual environment and runs them there): `import healthport` must find
the installed copy, and `healthport` on the PATH must be the wheel's command.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
SAMPLE = REPOSITORY / "SampleData" / "export.zip"
OLDER = REPOSITORY / "SampleData" / "export-older.zip"
REAL_SAMPLES = REPOSITORY / "Tests" / "Fixtures" / "samples"


def sample_object_count() -> int:
    """The objects the bundled sample holds, as the generator that wrote it recorded them
    (``SampleData/manifest.json``): an answer known without the code under test."""
    import json

    manifest = json.loads((REPOSITORY / "SampleData" / "manifest.json").read_text())
    return sum(manifest["objectsByType"].values())


def real_exports() -> list[Path]:
    """The real exports vendored for the Swift tests that are whole documents (not the
    fragments or the DTD)."""
    found = []
    for path in sorted(REAL_SAMPLES.rglob("*.xml")):
        head = path.read_bytes()[:4096]
        if b"<HealthData" in head or b"<!DOCTYPE HealthData" in head:
            found.append(path)
    return found


def run_cli(*arguments: str | os.PathLike, check: bool = True) -> subprocess.CompletedProcess:
    """`healthport ARGUMENTS…`, the command the wheel put on the PATH."""
    command = shutil.which("healthport")
    assert command is not None, "no healthport on the PATH"
    result = subprocess.run([command, *map(str, arguments)], capture_output=True)
    if check and result.returncode != 0:
        raise AssertionError(f"healthport {arguments} failed ({result.returncode}): {result.stderr.decode()}")
    return result


@pytest.fixture(scope="session", autouse=True)
def installed_package():
    """Refuse to test a source tree by mistake: the package must be the installed one."""
    import healthport

    source = REPOSITORY / "python" / "src"
    if os.environ.get("HEALTHPORT_TEST_SOURCE") != "1":
        assert source not in Path(healthport.__file__).resolve().parents, (
            f"healthport was imported from {healthport.__file__}, the source tree; install the wheel "
            "(Scripts/check-wheel.sh) or set HEALTHPORT_TEST_SOURCE=1 with HEALTHPORT_BINARY"
        )
    return healthport


@pytest.fixture
def in_repository(monkeypatch):
    """Examples name SampleData/… relative to the repository, as the README's do."""
    monkeypatch.chdir(REPOSITORY)
    return REPOSITORY


@pytest.fixture
def study_policy(tmp_path) -> Path:
    """A policy granting step counts only, made with `healthport auth request`."""
    path = tmp_path / "study.json"
    run_cli("auth", "request", "--policy", path, "--consumer", "Step Study", "--read", "StepCount", "--grant")
    return path


def python_executable() -> str:
    return sys.executable
