"""Where the healthport binary is: the one the wheel carries, unless told otherwise."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

__all__ = ["binary"]

#: The environment variable that names another binary (a development build, say).
BINARY_VARIABLE = "HEALTHPORT_BINARY"


def binary() -> Path:
    """The healthport binary this package runs.

    It is the one ``HEALTHPORT_BINARY`` names (a development build), else the one the wheel
    installed inside the package (``healthport/_bin/healthport``), else a ``healthport``
    already on ``PATH`` (a Debian package, a build from source), so that the package installed
    without a binary (``pip install ./python``) runs the one the person has. This package's
    own ``healthport`` command, a Python script that runs this very function, is never taken
    for it. Useful where a program needs the binary's absolute path, such as an MCP client's
    configuration.

    >>> binary().name
    'healthport'

    Raises:
        FileNotFoundError: this installation carries no binary (a source checkout, or a
            platform no wheel was built for) and ``HEALTHPORT_BINARY`` is not set.
    """
    named = os.environ.get(BINARY_VARIABLE)
    if named:
        path = Path(named)
        if not os.access(path, os.X_OK) or path.is_dir():
            raise FileNotFoundError(f"{BINARY_VARIABLE}={named}: not an executable file")
        return path
    shipped = Path(__file__).resolve().parent / "_bin" / "healthport"
    if os.access(shipped, os.X_OK):
        return shipped
    on_path = _on_path()
    if on_path is not None:
        return on_path
    raise FileNotFoundError(
        "this installation of the healthport package carries no healthport binary "
        f"({shipped} is missing) and there is none on PATH: install healthport (its Debian "
        f"package, or a build from source), install the wheel built for this platform, or set "
        f"{BINARY_VARIABLE} to a healthport binary"
    )


def _on_path() -> Path | None:
    """The first ``healthport`` on PATH that is not this package's own console script."""
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not folder:
            continue
        candidate = shutil.which("healthport", path=folder)
        if candidate is None:
            continue
        try:
            with open(candidate, "rb") as handle:
                head = handle.read(4096)
        except OSError:
            continue
        # A console script pip wrote for this package (it imports healthport.__main__): running
        # it would come back here.
        if head.startswith(b"#!") and b"healthport" in head and b"import" in head:
            continue
        return Path(candidate).resolve()
    return None
