"""``healthport`` on the PATH and ``python -m healthport``: the binary itself.

The process is replaced by the binary (``execv``), so its standard streams, exit
status and signals are the binary's own, exactly as if it had been called directly.
This module imports nothing heavy (no pyarrow), so the command starts at once.
"""

from __future__ import annotations

import os
import sys

from ._binary import binary


def main() -> None:
    try:
        path = binary()
    except FileNotFoundError as error:
        sys.stderr.write(f"healthport: error: {error}\n")
        raise SystemExit(69) from None  # EX_UNAVAILABLE: the program is not there
    sys.stdout.flush()
    sys.stderr.flush()
    # argv[0] "healthport": the name the binary's usage lines and completion scripts use.
    os.execv(path, ["healthport", *sys.argv[1:]])


if __name__ == "__main__":
    main()
