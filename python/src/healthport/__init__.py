"""Apple Health exports as Arrow tables, and so pandas and polars data frames.

healthport is a command-line program written in Swift that reads the archive the iPhone
Health app exports into a model that mirrors HealthKit. This package carries that
program (on the PATH as ``healthport``, and ``python -m healthport``) and gives Python a
small API over it: each function runs the program once, reads the Parquet or CSV it
writes into Arrow, and turns its diagnostics into exceptions carrying healthport's
message, exit status and location.

>>> import healthport
>>> tables = healthport.read("SampleData/export.zip", types="HeartRate")
>>> tables["HeartRate"].num_rows
2265
>>> frame = tables["HeartRate"].to_pandas()
>>> int(frame["quantity_value"].max())
167

The functions:

- :func:`daily_summary`: every type's numbers per local day, sources merged like the
  Health app (``healthport summary``).
- :func:`days`: one row per day, its measures side by side, with Apple's rings
  (``healthport days``); ``period="week"`` or ``"month"`` for totals and daily averages.
- :func:`sleep_nights`: one row per night of sleep (``healthport sleep``).
- :func:`workouts`: one row per workout, with its heart rate (``healthport workouts``).
- :func:`read`: an export's objects, one table per type (types, a date window, a
  predicate, a policy, the parser).
- :func:`statistics`: one type per calendar interval of any length (``healthport stats``).
- :func:`info`: what an export holds (``healthport info``).
- :func:`changes`: what changed in a store since an anchor (``healthport changes``).

Every function takes a ``policy``: what the policy denies is filtered out by the binary
before anything is written, so it never reaches Python.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The names below are imported when first used (PEP 562), so that `healthport` on the PATH,
# a console script importing this package, starts the binary without loading the API's
# modules, pyarrow or importlib.metadata first.
_NAMES = {
    "Changes": "_api",
    "changes": "_api",
    "daily_summary": "_summaries",
    "days": "_summaries",
    "info": "_api",
    "read": "_api",
    "sleep_nights": "_summaries",
    "workouts": "_summaries",
    "statistics": "_api",
    "version": "_api",
    "DateArgument": "_arguments",
    "NamesArgument": "_arguments",
    "PolicyArgument": "_arguments",
    "binary": "_binary",
    "Progress": "_progress",
    "ProgressArgument": "_progress",
    "Tables": "_tables",
    "AuthorizationCancelledError": "errors",
    "AuthorizationNotDeterminedError": "errors",
    "CannotCreateOutputError": "errors",
    "DataError": "errors",
    "HealthportError": "errors",
    "HealthportWarning": "errors",
    "InternalError": "errors",
    "IOFailureError": "errors",
    "Location": "errors",
    "NoInputError": "errors",
    "PolicyError": "errors",
    "RunInterruptedError": "errors",
    "UsageError": "errors",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value: Any = version("healthport")
        except PackageNotFoundError:  # a source tree that was never installed
            value = "0+unknown"
    elif name in _NAMES:
        value = getattr(importlib.import_module(f".{_NAMES[name]}", __name__), name)
    else:
        raise AttributeError(f"module 'healthport' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_NAMES, "__version__"])


if TYPE_CHECKING:
    from ._api import Changes, changes, info, read, statistics, version
    from ._arguments import DateArgument, NamesArgument, PolicyArgument
    from ._binary import binary
    from ._progress import Progress, ProgressArgument
    from ._summaries import daily_summary, days, sleep_nights, workouts
    from ._tables import Tables
    from .errors import (
        AuthorizationCancelledError,
        AuthorizationNotDeterminedError,
        CannotCreateOutputError,
        DataError,
        HealthportError,
        HealthportWarning,
        InternalError,
        IOFailureError,
        Location,
        NoInputError,
        PolicyError,
        RunInterruptedError,
        UsageError,
    )

    __version__: str
