"""The tables a run wrote as Parquet, read into Arrow."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

if TYPE_CHECKING:
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
    unit, uuids are strings (``"1b4e28ba-2fa1-11d2-883f-0016d3cca427"``), metadata is
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
    """One Parquet table, in memory (the file can go), with uuids as strings."""
    import pyarrow.parquet as pq

    return uuids_as_strings(pq.read_table(file))


def uuids_as_strings(table: "pyarrow.Table") -> "pyarrow.Table":
    """The table with its 16-byte ``UUID`` columns as canonical strings, so that a uuid
    reads, compares and joins as NDJSON and CSV print it, in pandas and polars alike."""
    import pyarrow as pa

    for index, field in enumerate(table.schema):
        storage = field.type.storage_type if isinstance(field.type, pa.ExtensionType) else field.type
        if pa.types.is_fixed_size_binary(storage) and storage.byte_width == 16:
            column = table.column(index)
            chunks = [_uuid_strings(chunk.storage if isinstance(chunk, pa.ExtensionArray) else chunk) for chunk in column.chunks]
            table = table.set_column(
                index, pa.field(field.name, pa.string(), field.nullable), pa.chunked_array(chunks, pa.string())
            )
    return table


def _uuid_strings(array: "pyarrow.FixedSizeBinaryArray") -> "pyarrow.Array":
    """16-byte uuids to ``8-4-4-4-12`` hex strings, in a few passes over the column (no
    Python per row, no numpy)."""
    import array as _array

    import pyarrow as pa
    import pyarrow.compute as pc

    count = len(array)
    if count == 0:
        return pa.array([], pa.string())
    data = array.buffers()[1]
    hexed = memoryview(data)[array.offset * 16 : (array.offset + count) * 16].hex().encode("ascii")
    offsets = _array.array("i", range(0, 32 * count + 1, 32))
    digits = pa.Array.from_buffers(pa.string(), count, [None, pa.py_buffer(offsets), pa.py_buffer(hexed)])
    parts = [pc.utf8_slice_codeunits(digits, start, stop) for start, stop in ((0, 8), (8, 12), (12, 16), (16, 20), (20, 32))]
    strings = pc.binary_join_element_wise(*parts, "-")
    if array.null_count:
        strings = pc.if_else(pc.is_valid(array), strings, pa.scalar(None, pa.string()))
    return strings
