"""Which healthport binary the package runs when it carries none (installed from a copy of
python/ with pip): HEALTHPORT_BINARY, else a healthport on PATH that is not this package's own
console script."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import healthport._binary as binary_module


@pytest.fixture
def real_binary() -> Path:
    """The binary these tests run (the wheel's, or HEALTHPORT_BINARY's from source)."""
    return binary_module.binary().resolve()


@pytest.fixture
def without_a_shipped_binary(tmp_path, monkeypatch, real_binary):
    """The package as a pure-Python install sees itself: no _bin/healthport beside it."""
    package = tmp_path / "site" / "healthport"
    package.mkdir(parents=True)
    monkeypatch.setattr(binary_module, "__file__", str(package / "_binary.py"))
    monkeypatch.delenv(binary_module.BINARY_VARIABLE, raising=False)
    return tmp_path


def test_a_healthport_on_path_is_run_and_the_console_script_is_not(without_a_shipped_binary, monkeypatch, real_binary):
    tmp_path = without_a_shipped_binary
    scripts = tmp_path / "venv-bin"
    scripts.mkdir()
    console = scripts / "healthport"
    console.write_text("#!/usr/bin/python3\n# -*- coding: utf-8 -*-\nimport sys\nfrom healthport.__main__ import main\nsys.exit(main())\n")
    console.chmod(0o755)
    installed = tmp_path / "usr-bin"
    installed.mkdir()
    real = real_binary
    (installed / "healthport").symlink_to(real)
    monkeypatch.setenv("PATH", os.pathsep.join([str(scripts), str(installed)]))
    assert binary_module.binary() == real


def test_without_any_binary_the_error_says_what_to_do(without_a_shipped_binary, monkeypatch):
    monkeypatch.setenv("PATH", str(without_a_shipped_binary))
    with pytest.raises(FileNotFoundError, match="none on PATH"):
        binary_module.binary()


def test_healthport_binary_is_taken_first(without_a_shipped_binary, monkeypatch, real_binary):
    real = real_binary
    monkeypatch.setenv(binary_module.BINARY_VARIABLE, str(real))
    monkeypatch.setenv("PATH", "")
    assert binary_module.binary() == real
