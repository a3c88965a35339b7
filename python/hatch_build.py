"""hatchling's build hook for the healthport wheel.

The wheel carries a prebuilt healthport binary: the one Scripts/package-deb.sh builds
(release, Swift runtime linked statically), taken from the tarball it writes. The script
Scripts/package-wheel.sh unpacks that tarball and names the folder in
HEALTHPORT_WHEEL_ROOT; this hook then

- puts bin/healthport (and bin/healthport-mcp, the assistant's server it runs) into the package
  as healthport/_bin/healthport (the console script
  `healthport` and `python -m healthport` exec it),
- puts the licences of everything compiled into it (share/doc/healthport) beside it,
- installs the man pages under the environment's share/man (so `man healthport` finds
  them once the environment's bin is on PATH),
- marks the wheel as not pure and tags it for this platform (linux_x86_64); auditwheel
  then vendors the system libraries the binary loads and retags it manylinux.

Without HEALTHPORT_WHEEL_ROOT the wheel has the Python code only (for an editable
install during development, with HEALTHPORT_BINARY naming a binary).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT_VARIABLE = "HEALTHPORT_WHEEL_ROOT"
HERE = Path(__file__).resolve().parent


def binary_version() -> str:
    """The version: the binary's own (`healthport --version`), or, without a binary,
    the one its source declares."""
    root = os.environ.get(ROOT_VARIABLE)
    if root:
        output = subprocess.run(
            [str(Path(root) / "bin" / "healthport"), "--version"], check=True, capture_output=True, text=True
        ).stdout.strip()
        if not re.fullmatch(r"[0-9][0-9A-Za-z.+]*", output):
            raise RuntimeError(f"healthport --version printed {output!r}")
        return output
    source = HERE.parent / "Sources" / "HealthportCommandLine" / "HealthportVersion.swift"
    if source.is_file():
        match = re.search(r'static let version = "([^"]+)"', source.read_text(encoding="utf-8"))
        if not match:
            raise RuntimeError(f"no version in {source}")
        return match.group(1)
    # A copy of python/ outside the repository: the version of the healthport it will run
    # (HEALTHPORT_BINARY, else the one on PATH), so `pip install` works against a healthport
    # the person built or installed.
    named = os.environ.get("HEALTHPORT_BINARY") or shutil.which("healthport")
    if named:
        output = subprocess.run([named, "--version"], capture_output=True, text=True).stdout.strip()
        if re.fullmatch(r"[0-9][0-9A-Za-z.+]*", output):
            return output
    raise RuntimeError(
        "no healthport version: build from the repository, set HEALTHPORT_WHEEL_ROOT (Scripts/package-wheel.sh), "
        "or install healthport first (on PATH, or named by HEALTHPORT_BINARY)"
    )


class CustomBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        root = os.environ.get(ROOT_VARIABLE)
        if not root:
            if version != "editable":
                self.app.display_warning(
                    f"{ROOT_VARIABLE} is not set: this wheel has no healthport binary "
                    "(build it with Scripts/package-wheel.sh)"
                )
            return
        root_path = Path(root).resolve()
        binary = root_path / "bin" / "healthport"
        # The assistant's server, which `healthport mcp` runs from beside the binary.
        server = root_path / "bin" / "healthport-mcp"
        for executable in (binary, server):
            if not os.access(executable, os.X_OK):
                raise RuntimeError(f"{ROOT_VARIABLE}={root}: no executable bin/{executable.name} in it")
        build_data["pure_python"] = False
        # The binary does not depend on Python's version or ABI: one wheel for every Python 3.
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"py3-none-{platform}"
        build_data["force_include"][str(binary)] = "healthport/_bin/healthport"
        build_data["force_include"][str(server)] = "healthport/_bin/healthport-mcp"
        doc = root_path / "share" / "doc" / "healthport"
        if doc.is_dir():
            build_data["force_include"][str(doc)] = "healthport/_bin/doc"
        man = root_path / "share" / "man"
        for page in sorted(man.glob("man*/*")):
            build_data["shared_data"][str(page)] = f"share/man/{page.parent.name}/{page.name}"
