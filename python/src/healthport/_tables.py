"""The tables a run wrote as Parquet, read into Arrow."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

if TYPE_CHECKING:
    import numpy
    import numpy.typing
    import pandas
    import polars
    import pyarrow

__all__ = ["Tables"]

# A HealthKit identifier's prefix, which table names leave out (healthport-formats(5)).
_PREFIX = re.compile(r"^HK[A-Za-z]*TypeIdentifier")


class Tables(Mapping[str, "pyarrow.Table"]):
    """The tables of one read, by name, as healthport-formats(5) names the Parquet and
    CSV tables: one per type (``StepCount``, ``HeartRate``, ``SleepAnalysis``, …),
    ``workouts``, ``workout-events``, ``correlations``, ``activity-summaries``, …, and
    ``export`` (the export's date, locale and the characteristics the read may show).

    A type's table is found by its short name or its HealthKit identifier::

        tables["StepCount"] is tables["HKQuantityTypeIdentifierStepCount"]

    The columns and their types are the Parquet schemas of healthport-formats(5):
    dates are instants (``timestamp[us, tz=UTC]``) with the offset the phone printed
    beside them in seconds (``startDate_utcOffset``), numbers are doubles beside their
    unit, uuids are strings as HealthKit prints them (``"C5EC5E97-57D5-8E20-BEBD-82149ABBF8F3"``), metadata is
    JSON text. A table holds only what the filters and the policy let through; a
    type the policy denies has no table at all.
    """

    def __init__(self, tables: Mapping[str, "pyarrow.Table"]) -> None:
        self._tables = dict(sorted(tables.items()))

    def __getitem__(self, name: str) -> "pyarrow.Table":
        try:
            return self._tables[name]
        except KeyError:
            short = _PREFIX.sub("", name)
            if short != name and short in self._tables:
                return self._tables[short]
            raise KeyError(name) from None

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        try:
            self[name]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}: {table.num_rows} rows" for name, table in self._tables.items())
        return f"Tables({inside})"

    def to_pandas(self, **options: Any) -> dict[str, "pandas.DataFrame"]:
        """Every table as a pandas DataFrame (``pyarrow.Table.to_pandas(**options)``)."""
        return {name: table.to_pandas(**options) for name, table in self._tables.items()}

    def to_polars(self) -> dict[str, "polars.DataFrame"]:
        """Every table as a polars DataFrame (needs ``pip install polars``)."""
        import polars

        return {name: polars.from_arrow(table) for name, table in self._tables.items()}  # type: ignore[misc]


def read_folder(folder: Path) -> Tables:
    """Reads every ``NAME.parquet`` in ``folder`` (what ``--format parquet`` writes)."""
    return Tables({file.name[: -len(".parquet")]: read_file(file) for file in sorted(folder.glob("*.parquet"))})


def read_file(file: Path) -> "pyarrow.Table":
    """One Parquet table, in memory (the file can go), its columns as plain Arrow types.

    Read with ``ParquetFile`` rather than ``pq.read_table``, which goes through
    ``pyarrow.dataset``: importing that and setting up a dataset per file cost about 50 ms
    of a fresh interpreter's read of the 1-year export's 33 tables, for the same table
    (Benchmarks/python.sh)."""
    import pyarrow.parquet as pq

    with pq.ParquetFile(file) as parquet:
        return plain_types(parquet.read())


def plain_types(table: "pyarrow.Table") -> "pyarrow.Table":
    """The table with its extension columns as plain Arrow types, which pandas, polars
    and every Arrow reader handle alike: a 16-byte ``UUID`` as its canonical string (so a
    uuid reads, compares and joins as NDJSON and CSV print it), a ``JSON`` column as the
    JSON text it holds."""
    import pyarrow as pa

    for index, field in enumerate(table.schema):
        if not isinstance(field.type, pa.BaseExtensionType):
            continue
        storage = field.type.storage_type
        column = table.column(index)
        if pa.types.is_fixed_size_binary(storage) and storage.byte_width == 16:
            # At most a million uuids at a time: 36 MB of text, well within 32-bit offsets.
            chunks = [
                _uuid_strings(chunk.storage.slice(start, 1 << 20))
                for chunk in column.chunks
                for start in range(0, len(chunk), 1 << 20)
            ]
            kind = pa.string()
        elif pa.types.is_string(storage) or pa.types.is_large_string(storage):
            chunks = [chunk.storage for chunk in column.chunks]
            kind = storage
        else:
            continue
        table = table.set_column(index, pa.field(field.name, kind, field.nullable), pa.chunked_array(chunks, kind))
    return table


def _uuid_strings(array: "pyarrow.FixedSizeBinaryArray") -> "pyarrow.Array":
    """16-byte uuids to ``8-4-4-4-12`` strings of upper-case hex digits, as HealthKit's
    ``uuidString`` and healthport's NDJSON and CSV print them: one table look-up per byte
    and five copies, over the whole column (no Python per row)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    count = len(array)
    raw = np.frombuffer(array.buffers()[1], dtype=np.uint8, count=(array.offset + count) * 16)
    raw = raw[array.offset * 16 :].reshape(count, 16)
    digits = _hex_pairs()[raw].view(np.uint8).reshape(count, 32)
    text = np.empty((count, 36), dtype=np.uint8)
    text[:, [8, 13, 18, 23]] = ord("-")
    for start, stop, at in ((0, 8, 0), (8, 12, 9), (12, 16, 14), (16, 20, 19), (20, 32, 24)):
        text[:, at : at + stop - start] = digits[:, start:stop]
    offsets = np.arange(0, (count + 1) * 36, 36, dtype=np.int32)
    strings = pa.Array.from_buffers(pa.string(), count, [None, pa.py_buffer(offsets), pa.py_buffer(text)])
    if array.null_count:
        strings = pc.if_else(pc.is_valid(array), strings, pa.scalar(None, strings.type))
    return strings


@functools.cache
def _hex_pairs() -> "numpy.typing.NDArray[numpy.uint16]":
    """The 256 two-digit pairs (``"00"`` … ``"FF"``) as 16-bit cells, indexed by byte;
    made on first use, so numpy is imported only when a uuid column is converted."""
    import numpy as np

    return np.frombuffer(b"".join(b"%02X" % byte for byte in range(256)), dtype=np.uint16)
