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
2100
>>> frame = tables["HeartRate"].to_pandas()
>>> int(frame["quantity_value"].max())
144

The functions:

- :func:`read`: an export's objects, one table per type (types, a date window, a
  predicate, a policy, the parser).
- :func:`statistics`: one quantity type per calendar interval, sources merged like the
  Health app (``healthport stats``).
- :func:`info`: what an export holds (``healthport info``).
- :func:`changes`: what changed in a store since an anchor (``healthport changes``).

Every function takes a ``policy``: what the policy denies is filtered out by the binary
before anything is written, so it never reaches Python.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version as _distribution_version

from ._api import Changes, changes, info, read, statistics, version
from ._arguments import DateArgument, NamesArgument, PolicyArgument
from ._binary import binary
from ._progress import Progress, ProgressArgument
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

try:
    __version__ = _distribution_version("healthport")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "AuthorizationCancelledError",
    "AuthorizationNotDeterminedError",
    "CannotCreateOutputError",
    "Changes",
    "DataError",
    "DateArgument",
    "HealthportError",
    "HealthportWarning",
    "InternalError",
    "IOFailureError",
    "Location",
    "NamesArgument",
    "NoInputError",
    "PolicyArgument",
    "PolicyError",
    "Progress",
    "ProgressArgument",
    "RunInterruptedError",
    "Tables",
    "UsageError",
    "binary",
    "changes",
    "info",
    "read",
    "statistics",
    "version",
]
