"""The daily summary and the sleep nights: the tables issue 44 asks this package to return
first, reserved here until the binary can write them.

Issue 38 put the engine in healthport (``SummaryRun`` in HealthEngine: one row per type
and local day, the ``daily-summary`` table, and one row per night of sleep, the
``sleep-nights`` table, both with the numbers ``healthport stats`` gives), but no command
of the binary writes them yet: ``healthport summary`` and ``healthport sleep`` are being
added to the command line. This package only ever runs the binary, so until those
commands exist the two functions below raise :class:`NotImplementedError` before running
anything, and they are not part of the package's public names (``healthport.read`` and
the rest), so that no one builds on a function that cannot answer.

Wiring them, once the commands have landed, is one ``_api._table_of`` call each: the
command's own arguments (from its man page, not guessed here), ``A.Filters`` for the
filters and the policy every reading function shares, then the export after ``--``. Then:
export them from ``__init__.py``, give each an example that runs, compare them with the
command's CSV in ``tests/test_summaries.py`` (as ``test_statistics.py`` does for ``stats``),
and add a section to ``python/README.md``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from . import _arguments as A
from ._progress import ProgressArgument

if TYPE_CHECKING:
    import pyarrow

__all__ = ["daily_summary", "sleep_nights"]

#: What the binary lacks, for the message: the issue that made the engine.
_WAITING_FOR = (
    "needs the healthport binary's daily summary and sleep nights commands (issue 38), "
    "which this version of the binary does not have yet"
)


def daily_summary(
    export: "str | os.PathLike[str]",
    *,
    types: A.NamesArgument | None = None,
    start: A.DateArgument | None = None,
    end: A.DateArgument | None = None,
    where: str | None = None,
    sources: A.NamesArgument | None = None,
    source_priority: A.NamesArgument | None = None,
    tz: str | None = None,
    policy: A.PolicyArgument | None = None,
    parser: str | None = None,
    progress: ProgressArgument = None,
    quiet: bool = False,
) -> "pyarrow.Table":
    """One row per type and local day, as the Health app shows a day (the ``daily-summary``
    table of issue 38): not available yet.

    The arguments are those of :func:`healthport.read` and :func:`healthport.statistics`
    that a summary will take; ``policy`` among them, since every function of this package
    reads under one.

    Raises:
        NotImplementedError: always, before running anything, until the binary has the
            command.
    """
    raise NotImplementedError(f"healthport daily_summary {_WAITING_FOR}")


def sleep_nights(
    export: "str | os.PathLike[str]",
    *,
    start: A.DateArgument | None = None,
    end: A.DateArgument | None = None,
    sources: A.NamesArgument | None = None,
    source_priority: A.NamesArgument | None = None,
    tz: str | None = None,
    policy: A.PolicyArgument | None = None,
    parser: str | None = None,
    progress: ProgressArgument = None,
    quiet: bool = False,
) -> "pyarrow.Table":
    """One row per night of sleep, named by its morning (the ``sleep-nights`` table of
    issue 38): not available yet.

    Raises:
        NotImplementedError: always, before running anything, until the binary has the
            command.
    """
    raise NotImplementedError(f"healthport sleep_nights {_WAITING_FOR}")
