"""The functions: each one run of the binary, its output read into Arrow."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from . import _arguments as A
from . import _process
from ._progress import ProgressArgument
from ._tables import Tables, read_file, read_folder

if TYPE_CHECKING:
    import pyarrow

__all__ = ["Changes", "changes", "info", "read", "statistics", "version"]

# Every function below is one run of the binary, in a private temporary folder (mode 0700,
# removed when the function returns, whatever happens). The binary applies the filters and
# the policy before anything is written: what a policy denies is never written, so it never
# reaches this process. A function for a new command is a few lines over the helpers
# `_tables_of` and `_table_of` (as `_summaries.py` shows), or `_process.run(…, capture=True)`.


def _folder() -> "tempfile.TemporaryDirectory[str]":
    return tempfile.TemporaryDirectory(prefix="healthport-")


#: How the binary writes the Parquet files this package reads back: uncompressed. They live
#: for the length of one call in a private temporary folder, so compressing them buys nothing.
#: On the 1-year export (Benchmarks/python.sh) reading its 33 tables took 0.06 s of CPU
#: uncompressed against 0.11 s with zstd, the command's default, while writing cost the same
#: either way (0.5 s of CPU, mean of five runs each). The values read are the same.
_PARQUET = ["--format=parquet", "--compression=none"]


def _tables_of(arguments: list[str], folder: Path, *, progress: ProgressArgument, quiet: bool) -> Tables:
    """Runs a command that writes a folder of Parquet tables (``--format parquet
    --output FOLDER``) and reads them."""
    output = folder / "tables"
    _process.run([*arguments[:1], *_PARQUET, A.option("output", output), *arguments[1:]], progress=progress, quiet=quiet, warning_stacklevel=4)
    return read_folder(output) if output.is_dir() else Tables({})


def _table_of(arguments: list[str], folder: Path, *, progress: ProgressArgument, quiet: bool) -> "pyarrow.Table":
    """Runs a command that writes one Parquet table (``--format parquet --output
    FILE.parquet``) and reads it."""
    output = folder / "table.parquet"
    _process.run([*arguments[:1], *_PARQUET, A.option("output", output), *arguments[1:]], progress=progress, quiet=quiet, warning_stacklevel=4)
    return read_file(output)


def _input(export: "str | os.PathLike[str]") -> list[str]:
    return ["--", A.path(export)]


def read(
    export: "str | os.PathLike[str]",
    *,
    types: A.NamesArgument | None = None,
    start: A.DateArgument | None = None,
    end: A.DateArgument | None = None,
    strict_start: bool = False,
    strict_end: bool = False,
    where: str | None = None,
    sources: A.NamesArgument | None = None,
    devices: A.NamesArgument | None = None,
    uuids: A.NamesArgument | None = None,
    unit: str | None = None,
    tz: str | None = None,
    policy: A.PolicyArgument | None = None,
    parser: str | None = None,
    progress: ProgressArgument = None,
    quiet: bool = False,
) -> Tables:
    """Reads an Apple Health export into Arrow tables, one per type.

    The export is what the Health app wrote (``export.zip``), the unzipped folder, a
    bare ``export.xml``, or healthport's own NDJSON. It is read by the healthport
    binary (``healthport convert --format parquet``), streamed: memory holds the
    tables, never the export.

    Args:
        export: the export's path.
        types: keep only these types (``"StepCount"``, ``"HKQuantityTypeIdentifierHeartRate"``,
            ``"Workout"``, ``["SleepAnalysis", "HeartRate"]``).
        start, end: keep samples that end at or after ``start`` and start before ``end``
            (HealthKit's ``predicateForSamples(withStart:end:options:)``); a date or a
            time without an offset is read in ``tz``.
        strict_start, strict_end: the sample's start (end) must lie in the window.
        where: a predicate in HealthKit's NSPredicate language
            (``'quantity > "100 count/min"'``; healthport-predicates(7)).
        sources, devices, uuids: keep objects of these sources, devices or uuids.
        unit: write quantities in this unit (``"lb"``, ``"count/s"``); needs ``types``.
        tz: the time zone of dates given without an offset (default: the system's).
        policy: read as the consumer of this policy may read (healthport-policy(5)):
            a denied type yields only the consumer's own objects, as if nothing else
            existed; an undecided type named in ``types`` raises
            :class:`AuthorizationNotDeterminedError`. A path, or the policy as a dict.
        parser: ``"scanner"`` (healthport's own, the default) or ``"libxml2"``.
        progress: where the progress line goes; see :data:`ProgressArgument`.
        quiet: no warnings about the export's content.

    Returns:
        :class:`Tables`, a mapping of table name to ``pyarrow.Table``.

    Raises:
        HealthportError: a subclass by healthport's exit status (:class:`NoInputError`
            for a missing export, :class:`DataError` with its location for a malformed
            one, :class:`UsageError` for a bad argument).

    >>> tables = healthport.read("SampleData/export.zip", types=["StepCount", "BodyMass"])
    >>> sorted(tables)
    ['BodyMass', 'StepCount', 'export']
    >>> weights = tables["BodyMass"].to_pandas()
    >>> weights[["startDate", "localStartDate", "timeZone", "quantity_value"]]
                      startDate      localStartDate      timeZone  quantity_value
    0 2024-03-25 06:00:00+00:00 2024-03-25 07:00:00  Europe/Paris            72.6
    1 2024-03-25 06:00:00+00:00 2024-03-25 07:00:00  Europe/Paris            72.6
    2 2024-04-01 05:00:00+00:00 2024-04-01 07:00:00  Europe/Paris            72.2

    What a study's consumer may see, with a policy that grants step counts only:

    >>> study = {"version": 1, "consumer": {"name": "Step Study"}, "read": {"StepCount": "granted"}}
    >>> sorted(healthport.read("SampleData/export.zip", policy=study))
    ['StepCount', 'export']
    """
    filters = A.Filters(
        types=types, start=start, end=end, strict_start=strict_start, strict_end=strict_end, where=where,
        sources=sources, devices=devices, uuids=uuids, tz=tz, policy=policy,
    )
    with _folder() as name:
        folder = Path(name)
        arguments = ["convert", *filters.arguments(folder), *A.parser(parser)]
        if unit is not None:
            arguments.append(A.option("unit", unit))
        return _tables_of([*arguments, *_input(export)], folder, progress=progress, quiet=quiet)


def statistics(
    export: "str | os.PathLike[str]",
    type: str,
    *,
    interval: str = "day",
    interval_count: int = 1,
    anchor_date: A.DateArgument | None = None,
    options: A.NamesArgument | None = None,
    separate_by_source: bool = False,
    source_priority: Iterable[str] | None = None,
    unit: str | None = None,
    tz: str | None = None,
    start: A.DateArgument | None = None,
    end: A.DateArgument | None = None,
    strict_start: bool = False,
    strict_end: bool = False,
    where: str | None = None,
    sources: A.NamesArgument | None = None,
    devices: A.NamesArgument | None = None,
    uuids: A.NamesArgument | None = None,
    policy: A.PolicyArgument | None = None,
    parser: str | None = None,
    progress: ProgressArgument = None,
    quiet: bool = False,
) -> "pyarrow.Table":
    """Statistics of one quantity type per calendar interval, sources merged as the
    Health app merges them (``healthport stats``; HealthKit's statistics collection
    query).

    Summing the records double counts whenever an iPhone and a Watch both counted a
    walk; here each stretch of time counts once, from the source with the highest
    priority (healthport-stats(1) gives the algorithm with a worked example).

    Args:
        export: the export's path.
        type: the quantity type (``"StepCount"``, ``"HeartRate"``).
        interval: ``"minute"``, ``"hour"``, ``"day"``, ``"week"``, ``"month"`` or ``"year"``.
        interval_count: intervals of this many units.
        anchor_date: a date the intervals align with.
        options: HealthKit's statistics options (``"cumulativeSum"``, ``"discreteAverage"``,
            ``"discreteMin"``, ``"discreteMax"``, ``"mostRecent"``, ``"duration"``); the
            default is the sum for cumulative types and the average otherwise.
        separate_by_source: also each source's own rows (``source`` is null on the
            merged row of each interval).
        source_priority: source names, highest priority first.
        unit: the unit of the results (default: the type's canonical unit).
        tz: the time zone the intervals are cut in (default: the zone the samples'
            ``HKTimeZone`` metadata names, else the export's offset).
        start, end, strict_start, strict_end, where, sources, devices, uuids, policy,
        parser, progress, quiet: as for :func:`read`.

    Returns:
        A ``pyarrow.Table``: ``date`` (``date32``, the local date the interval begins on,
        in the zone it is cut in), ``startDate``, ``startDate_utcOffset``, ``endDate``,
        ``endDate_utcOffset``, ``source`` (with ``separate_by_source``), one double
        column per statistic (``sum``, ``average``, ``minimum``, ``maximum``,
        ``mostRecent``, ``duration``), ``unit``. Dates are instants with the offset of
        the interval's zone beside them, as in every table of this package. Values are
        rounded to nine decimals, as the command prints them.

    >>> days = healthport.statistics("SampleData/export.zip", "StepCount", tz="Europe/Paris")
    >>> days.column_names
    ['date', 'startDate', 'startDate_utcOffset', 'endDate', 'endDate_utcOffset', 'sum', 'unit']
    >>> days["sum"][0].as_py()
    7885.0
    """
    filters = A.Filters(
        types=[type], start=start, end=end, strict_start=strict_start, strict_end=strict_end, where=where,
        sources=sources, devices=devices, uuids=uuids, tz=tz, policy=policy,
    )
    with _folder() as name:
        folder = Path(name)
        arguments = ["stats", "--format=csv", *filters.arguments(folder), *A.parser(parser)]
        arguments += [A.option("interval", interval), A.option("interval-count", int(interval_count))]
        if anchor_date is not None:
            arguments.append(A.option("anchor-date", A.date(anchor_date)))
        arguments += [A.option("options", name) for name in A.names(options)]
        if separate_by_source:
            arguments.append("--separate-by-source")
        if source_priority is not None:
            arguments.append(A.option("source-priority", A.escaped_list(A.names(source_priority))))
        if unit is not None:
            arguments.append(A.option("unit", unit))
        output = _process.run([*arguments, *_input(export)], progress=progress, quiet=quiet, capture=True, warning_stacklevel=3)
    return _statistics_table(output)


def _statistics_table(csv: bytes) -> "pyarrow.Table":
    import pyarrow as pa
    import pyarrow.csv as pv

    header = csv.split(b"\r\n", 1)[0].decode("utf-8").split(",") if csv else ["startDate", "endDate", "unit"]
    text_columns = {"startDate", "endDate", "source", "unit"}
    types = {name: pa.string() if name in text_columns else pa.float64() for name in header}
    table = pv.read_csv(
        pa.py_buffer(csv or b"startDate,endDate,unit\r\n"),
        convert_options=pv.ConvertOptions(column_types=types, strings_can_be_null=False, quoted_strings_can_be_null=False),
    )
    columns: dict[str, Any] = {}
    if "startDate" in table.column_names:
        # The local date each interval begins on: the date the command prints, in the zone
        # the intervals are cut in (a week from Monday 2024-03-25 is that Monday, not the
        # Sunday its UTC instant falls on).
        import pyarrow.compute as pc

        day = pc.utf8_slice_codeunits(table["startDate"], 0, 10)
        columns["date"] = pc.cast(pc.strptime(day, format="%Y-%m-%d", unit="s"), pa.date32())
    for name in table.column_names:
        if name in ("startDate", "endDate"):
            instants, offsets = _instants(table[name])
            columns[name] = instants
            columns[name + "_utcOffset"] = offsets
        elif name == "source":
            # The merged row of an interval has no source: null, as in the JSON output.
            column = table[name]
            columns[name] = pa.compute.if_else(pa.compute.equal(column, ""), pa.scalar(None, pa.string()), column)
        else:
            columns[name] = table[name]
    return pa.table(columns)


def _instants(strings: "pyarrow.ChunkedArray") -> "tuple[pyarrow.ChunkedArray, pyarrow.ChunkedArray]":
    """ISO 8601 dates with an offset (``2024-01-01T00:00:00+01:00``) as instants
    (``timestamp[us, tz=UTC]``) and the offsets in seconds (``int32``), vectorized."""
    import pyarrow as pa
    import pyarrow.compute as pc

    instants = pc.cast(strings, pa.timestamp("us", tz="UTC"))
    zone = pc.utf8_slice_codeunits(strings, 19)  # "+01:00", "-07:00", "Z"
    sign = pc.if_else(pc.starts_with(zone, "-"), -1, 1)
    hours = pc.cast(pc.utf8_slice_codeunits(zone, 1, 3), pa.int32(), safe=False)
    minutes = pc.cast(pc.utf8_slice_codeunits(zone, 4, 6), pa.int32(), safe=False)
    utc = pc.equal(zone, "Z")
    seconds = pc.multiply(sign, pc.add(pc.multiply(pc.if_else(utc, 0, hours), 3600), pc.multiply(pc.if_else(utc, 0, minutes), 60)))
    return instants, pc.cast(seconds, pa.int32())


def info(
    export: "str | os.PathLike[str]",
    *,
    types: A.NamesArgument | None = None,
    policy: A.PolicyArgument | None = None,
    cda: bool = False,
    parser: str | None = None,
    progress: ProgressArgument = None,
    quiet: bool = False,
) -> dict[str, Any]:
    """What an export holds (``healthport info --format json``): its date, locale and
    version, the characteristics, the number of objects, per type the count and the
    first and last dates, the sources and devices, the side files (routes, ECGs,
    clinical records), elements passed through, repaired bytes and warnings.

    With ``policy`` it describes only what that consumer may read (no document size,
    warnings or CDA, which could tell of what the policy hides); with ``types`` only
    those types.

    Returns:
        The JSON document as a dict (healthport-info(1) describes its fields).

    >>> about = healthport.info("SampleData/export.zip")
    >>> about["objectCount"]
    6460
    >>> about["sideFiles"]["workoutRoutes"]
    4
    """
    with _folder() as name:
        folder = Path(name)
        arguments = ["info", "--format=json", *A.Filters(types=types, policy=policy).arguments(folder), *A.parser(parser)]
        if cda:
            arguments.append("--cda")
        output = _process.run([*arguments, *_input(export)], progress=progress, quiet=quiet, capture=True, warning_stacklevel=3)
    result: dict[str, Any] = json.loads(output)
    return result


@dataclass(frozen=True)
class Changes:
    """One batch of what changed in a store since an anchor (HealthKit's anchored
    object query).

    Attributes:
        added: the objects added since the anchor, complete, as :class:`Tables`.
        deleted: the objects deleted since the anchor: ``uuid`` and ``sampleType``.
        anchor: the anchor to pass next time (an opaque token; ``"0"`` is the
            beginning). It stands for the last change this query saw, so an import of
            what the filters or the policy hide leaves it as it was.
        complete: whether the batch holds every change the query sees now (``False``
            only when ``limit`` left some for the next batch).
    """

    added: Tables
    deleted: "pyarrow.Table"
    anchor: str
    complete: bool


def changes(
    store: "str | os.PathLike[str] | None" = None,
    anchor: "str | os.PathLike[str] | None" = None,
    *,
    limit: int | None = None,
    types: A.NamesArgument | None = None,
    start: A.DateArgument | None = None,
    end: A.DateArgument | None = None,
    strict_start: bool = False,
    strict_end: bool = False,
    where: str | None = None,
    sources: A.NamesArgument | None = None,
    devices: A.NamesArgument | None = None,
    uuids: A.NamesArgument | None = None,
    unit: str | None = None,
    tz: str | None = None,
    policy: A.PolicyArgument | None = None,
    progress: ProgressArgument = None,
    quiet: bool = False,
) -> Changes:
    """What changed in a store since an anchor (``healthport changes --store``): the
    objects added, the objects deleted and the anchor to resume from.

    The store is the one ``healthport import`` keeps (healthport-store(5)); without
    ``store``, ``$HEALTHPORT_STORE`` or the default one. Read in batches like an app
    reads HealthKit::

        anchor = "0"
        while True:
            batch = healthport.changes("health.sqlite", anchor, limit=10_000)
            process(batch.added, batch.deleted)
            anchor = batch.anchor
            if batch.complete:
                break

    Args:
        store: the store's path.
        anchor: what was already seen: the token a previous batch returned
            (:attr:`Changes.anchor`), a file holding one, or ``None``/``"0"`` for
            everything.
        limit: return at most this many changes.
        types, start, end, strict_start, strict_end, where, sources, devices, uuids,
        unit, tz, policy, progress, quiet: as for :func:`read`. An anchor serves any
        filters: it stands for a place in the store's history.

    A store that imported an export, and later the next one (``healthport import``, on
    the PATH where this package is installed):

    >>> import subprocess, tempfile
    >>> store = tempfile.mkdtemp() + "/health.sqlite"
    >>> def imported(export):
    ...     subprocess.run(["healthport", "import", export, "--store", store, "-q"], check=True, capture_output=True)
    >>> imported("SampleData/export-older.zip")
    >>> first = healthport.changes(store)
    >>> first.added["StepCount"].num_rows, first.deleted.num_rows, first.complete
    (288, 0, True)
    >>> imported("SampleData/export.zip")
    >>> later = healthport.changes(store, first.anchor, types="StepCount")
    >>> later.added["StepCount"].num_rows
    48
    """
    if limit is not None and limit < 1:
        raise ValueError("limit must be 1 or more")
    filters = A.Filters(
        types=types, start=start, end=end, strict_start=strict_start, strict_end=strict_end, where=where,
        sources=sources, devices=devices, uuids=uuids, tz=tz, policy=policy,
    )
    given = "0" if anchor is None else (A.path(anchor) if isinstance(anchor, os.PathLike) else str(anchor))
    with _folder() as name:
        folder = Path(name)
        anchor_file = folder / "anchor"
        arguments = ["changes", *filters.arguments(folder), A.option("anchor", given), A.option("anchor-output", anchor_file)]
        if store is not None:
            arguments.append(A.option("store", A.path(store)))
        if limit is not None:
            arguments.append(A.option("limit", int(limit)))
        if unit is not None:
            arguments.append(A.option("unit", unit))
        everything = _tables_of(arguments, folder, progress=progress, quiet=quiet)
        new_anchor = anchor_file.read_text(encoding="utf-8").strip() if anchor_file.exists() else given
        deleted_table = everything.get("deleted")
        added = Tables({name: table for name, table in everything.items() if name != "deleted"})
        if deleted_table is None:
            deleted_table = _no_deletions()
        complete = True
        if limit is not None:
            # The Parquet tables do not say whether changes were left for the next batch:
            # ask for one more change after the new anchor (the same query, so the same gate).
            probe = ["changes", "--format=ndjson", *filters.arguments(folder), A.option("anchor", new_anchor), "--limit=1"]
            if store is not None:
                probe.append(A.option("store", A.path(store)))
            end_line = _process.run(probe, progress=False, quiet=True, capture=True).rstrip(b"\n").rsplit(b"\n", 1)[-1]
            summary = json.loads(end_line)
            complete = summary["added"] + summary["deleted"] == 0
    return Changes(added, deleted_table, new_anchor, complete)


def _no_deletions() -> "pyarrow.Table":
    import pyarrow as pa

    return pa.table({"uuid": pa.array([], pa.string()), "sampleType": pa.array([], pa.string())})


def version() -> str:
    """The version of the healthport binary this package runs.

    >>> healthport.version() == healthport.__version__
    True
    """
    return _process.run(["--version"], progress=False, capture=True).decode("utf-8").strip()
