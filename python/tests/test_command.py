"""The `healthport` command the wheel installs: on the PATH, as `python -m healthport`,
the same binary as the Debian package, with its statuses passed through."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import healthport
from conftest import sample_object_count, SAMPLE, run_cli


def test_the_command_on_the_path_is_the_environments():
    command = Path(shutil.which("healthport"))
    assert command.parent == Path(sys.executable).parent, f"{command} is not in this environment's bin"


def test_version_is_the_packages():
    printed = run_cli("--version").stdout.decode().strip()
    assert printed == healthport.__version__ == healthport.version()


def test_python_dash_m_runs_the_binary():
    result = subprocess.run([sys.executable, "-m", "healthport", "--version"], capture_output=True, check=True)
    assert result.stdout.decode().strip() == healthport.__version__


def test_a_conversion_through_the_command():
    result = run_cli("convert", SAMPLE, "--format", "ndjson", "-q")
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith('{"kind":"export"')
    # The export's envelope, then one line per object `healthport info` counts.
    assert len(lines) == 1 + healthport.info(SAMPLE, quiet=True)["objectCount"] == 1 + sample_object_count()


def test_exit_statuses_pass_through_the_command(tmp_path):
    missing = run_cli("convert", tmp_path / "missing.zip", check=False)
    assert missing.returncode == 66
    assert missing.stderr.decode().startswith("healthport: ")
    usage = run_cli("convert", SAMPLE, "--type", "NoSuchType", check=False)
    assert usage.returncode == 64


def test_a_closed_pipe_is_quiet_success():
    # `healthport convert … | head -n 1` through the console script: the binary replaced the
    # Python process (exec), so SIGPIPE and the status are its own.
    result = subprocess.run(
        f"'{shutil.which('healthport')}' convert '{SAMPLE}' | head -n 1", shell=True, capture_output=True, check=True
    )
    assert result.stdout.startswith(b'{"kind":"export"')
    assert result.stderr == b""


# The libraries a manylinux wheel may load from the system (PEP 600: glibc's, libstdc++,
# libgcc_s, zlib); everything else must be the wheel's own copy.
MANYLINUX_PROMISED = re.compile(r"^(libc|libm|libstdc\+\+|libgcc_s|libz|libresolv|libpthread|libdl|librt)\.so")


def test_the_binary_is_the_packages_and_loads_only_the_wheels_libraries():
    binary = healthport.binary()
    assert binary.parent.name == "_bin" and binary.parent.parent == Path(healthport.__file__).parent
    libraries = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True).stdout
    assert "not found" not in libraries
    assert "libswift" not in libraries and "libFoundation" not in libraries
    carried = (Path(healthport.__file__).parent.parent / "healthport.libs").resolve()
    loaded = re.findall(r"^\s*(\S+) => (/\S+)", libraries, flags=re.MULTILINE)
    assert any(name.startswith("libxml2-") for name, _ in loaded), libraries
    stray = [
        f"{name} => {path}"
        for name, path in loaded
        if Path(path).resolve().parent != carried and not MANYLINUX_PROMISED.match(name)
    ]
    assert stray == [], "loaded from the system, not the wheel"


def test_man_pages_are_installed_in_the_environment():
    pages = Path(sys.prefix) / "share" / "man"
    assert (pages / "man1" / "healthport.1.gz").is_file()
    assert (pages / "man5" / "healthport-formats.5.gz").is_file()


def test_the_licences_of_what_is_compiled_in_come_with_it():
    copyright_file = healthport.binary().parent / "doc" / "copyright"
    assert "Files: *" in copyright_file.read_text(encoding="utf-8")
