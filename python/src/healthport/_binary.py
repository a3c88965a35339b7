"""Where the healthport binary is: the one the wheel carries, unless told otherwise."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["binary"]

#: The environment variable that names another binary (a development build, say).
BINARY_VARIABLE = "HEALTHPORT_BINARY"


def binary() -> Path:
    """The healthport binary this package runs.

    It is the one the wheel installed inside the package (``healthport/_bin/healthport``),
    the same binary the ``healthport`` command on the virtual environment's PATH runs;
    ``HEALTHPORT_BINARY`` names another (a development build). Useful where a program
    needs the binary's absolute path, such as an MCP client's configuration.

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
    raise FileNotFoundError(
        "this installation of the healthport package carries no healthport binary "
        f"({shipped} is missing): install the wheel built for this platform "
        f"(Scripts/package-wheel.sh), or set {BINARY_VARIABLE} to a healthport binary"
    )
