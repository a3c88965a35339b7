"""Comparing the API's frames with what the CLI prints for the same export, cell by cell.

A CSV cell and a frame cell are equal when they mean the same: the same text; the same
number; the same JSON value; a date printed with its offset and the same instant with the
same offset beside it; an empty cell and a null.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
from pathlib import Path

import pandas as pd


def local_text(instant: pd.Timestamp, offset_seconds: int) -> str:
    """The instant as the export printed it: local time and its offset, ISO 8601."""
    zone = dt.timezone(dt.timedelta(seconds=int(offset_seconds)))
    if isinstance(instant, pd.Timestamp):
        instant = instant.to_pydatetime()
    local = instant.astimezone(zone)
    text = local.isoformat(timespec="microseconds" if local.microsecond else "seconds")
    return text  # +00:00 for UTC, as healthport prints it


def same_moment(instant: pd.Timestamp, offset_seconds: int, text: str) -> bool:
    """Whether an instant and its offset in seconds are what ISO 8601 text with an offset
    says: the same instant and the same offset, however many decimals the text has (the
    CLI prints seconds as the export wrote them: `08:20:36`, `08:20:36.00`, `11:26:02.34`)."""
    written = dt.datetime.fromisoformat(text)
    if isinstance(instant, pd.Timestamp):
        instant = instant.to_pydatetime()
    return written == instant and written.utcoffset() == dt.timedelta(seconds=int(offset_seconds))


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


def cells_equal(csv_cell: str, value, kind: str) -> bool:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NaT:
        return csv_cell == ""
    if kind == "json":
        return json.loads(csv_cell) == json.loads(value)
    if kind == "float":
        return csv_cell != "" and float(csv_cell) == float(value)
    if kind == "int":
        return csv_cell != "" and int(csv_cell) == int(value)
    if kind == "bool":
        return csv_cell.lower() in ("true", "1") if value else csv_cell.lower() in ("false", "0")
    if kind == "local":
        # A wall-clock time without an offset: the CSV's text, to the second.
        return csv_cell == pd.Timestamp(value).isoformat()
    return csv_cell == str(value)


def kinds(table) -> dict[str, str]:
    """Each column's kind, from the Arrow schema."""
    import pyarrow as pa

    result = {}
    for field in table.schema:
        t = field.type
        if pa.types.is_timestamp(t):
            # An instant (with its `_utcOffset` beside it), or a local time (no zone).
            result[field.name] = "date" if t.tz is not None else "local"
        elif pa.types.is_floating(t):
            result[field.name] = "float"
        elif pa.types.is_integer(t):
            result[field.name] = "int"
        elif pa.types.is_boolean(t):
            result[field.name] = "bool"
        elif isinstance(t, pa.BaseExtensionType) and "json" in str(t):
            result[field.name] = "json"
        else:
            result[field.name] = "text"
    return result


def assert_frame_matches_csv(table, csv_path: Path, json_columns=("metadata", "extensions", "element", "otherCharacteristics")) -> None:
    """The table (through pandas) holds exactly the CSV file's rows, in order."""
    if csv_path.stat().st_size == 0:
        # `healthport sleep --format csv` writes nothing, not even its header, when there is
        # no night (`stats` writes the header alone); the Parquet table still has its columns.
        assert table.num_rows == 0, f"{csv_path.name} is empty, the table has {table.num_rows} rows"
        return
    header, rows = read_csv(csv_path)
    frame = table.to_pandas()
    column_kinds = kinds(table)
    for name in json_columns:
        if name in column_kinds:
            column_kinds[name] = "json"
    # The Parquet schema is the CSV's with an offset column after each date.
    expected_columns = []
    for name in header:
        expected_columns.append(name)
        if column_kinds.get(name) == "date":
            expected_columns.append(name + "_utcOffset")
    assert list(frame.columns) == expected_columns, f"{csv_path.name}: columns differ"
    assert len(frame) == len(rows), f"{csv_path.name}: {len(frame)} rows, the CSV has {len(rows)}"
    records = frame.to_dict("records")
    for number, (record, row) in enumerate(zip(records, rows), start=2):
        for name, cell in zip(header, row):
            kind = column_kinds[name]
            value = record[name]
            if kind == "date":
                if value is None or value is pd.NaT:
                    ok = cell == ""
                else:
                    ok = same_moment(value, record[name + "_utcOffset"], cell)
            else:
                ok = cells_equal(cell, value, kind)
            assert ok, f"{csv_path.name}:{number}: {name} is {value!r} in the frame, {cell!r} in the CSV"
