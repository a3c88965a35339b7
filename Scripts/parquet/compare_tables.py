"""Reads a folder of healthport Parquet tables with pyarrow and compares each, column by
column and cell by cell, with the CSV folder healthport wrote from the same export.

    compare_tables.py PARQUET_DIR CSV_DIR

Checks the schema's types (healthport-formats(5), PARQUET): TIMESTAMP(MICROS, UTC) plus
`<name>_utcOffset` (int32 seconds) for every date, a local TIMESTAMP (not adjusted to UTC, no
offset) for each local time (`localStartDate`: the wall clock in the sample's zone), double numbers, int64 integers, 16-byte uuids
with the UUID logical type, strings, JSON cells that parse; then every value against the CSV
cell. Prints one line per table and exits 1 on any difference.
"""
import csv
import datetime as dt
import json
import os
import sys
import uuid

import pyarrow as pa
import pyarrow.parquet as pq

csv.field_size_limit(1 << 30)
parquet_dir, csv_dir = sys.argv[1], sys.argv[2]
failures = 0


def fail(table, message):
    global failures
    failures += 1
    print("FAIL %s: %s" % (table, message))


def is_uuid_type(t):
    if pa.types.is_fixed_size_binary(t):
        return t.byte_width == 16
    # pyarrow >= 18 reads the UUID logical type as its canonical extension type.
    return getattr(t, "extension_name", "") == "arrow.uuid"


def uuid_text(value):
    if isinstance(value, uuid.UUID):
        return str(value).upper()
    return str(uuid.UUID(bytes=bytes(value))).upper()


def same(table, column, field, value, cell, offsets):
    """Whether the Parquet `value` is what the CSV `cell` says."""
    if value is None:
        return cell == ""
    t = field.type
    if is_local_timestamp(t):
        # A wall-clock time, written without an offset in the CSV.
        return dt.datetime.fromisoformat(cell) == value and dt.datetime.fromisoformat(cell).tzinfo is None
    if pa.types.is_timestamp(t):
        parsed = dt.datetime.fromisoformat(cell)
        offset = offsets.get(column)
        return parsed == value and offset == int(parsed.utcoffset().total_seconds())
    if pa.types.is_floating(t):
        return cell != "" and float(cell) == value
    if pa.types.is_boolean(t):
        return cell == ("true" if value else "false")
    if pa.types.is_integer(t):
        return cell != "" and int(cell) == value
    if is_uuid_type(t):
        return cell.upper() == uuid_text(value)
    if is_json_column(column):
        return json.loads(cell) == json.loads(value)
    return cell == value


def is_local_timestamp(t):
    """A local time: a TIMESTAMP not adjusted to UTC, which pyarrow reads without a zone."""
    return pa.types.is_timestamp(t) and t.tz is None


JSON_COLUMNS = ("metadata", "extensions", "element", "otherCharacteristics")


def is_json_column(name):
    """A JSON column: one of JSON_COLUMNS, or a nested property's (`rightEye_extensions`)."""
    return name in JSON_COLUMNS or name.endswith("_extensions")


UUID_COLUMNS = ("uuid", "sample_uuid", "workout_uuid", "route_uuid", "audiogram_uuid")
checked_tables = 0
checked_cells = 0
csv_tables = sorted(n for n in os.listdir(csv_dir) if n.endswith(".csv"))
parquet_tables = sorted(n for n in os.listdir(parquet_dir) if n.endswith(".parquet"))
if [n[:-4] for n in csv_tables] != [n[:-8] for n in parquet_tables]:
    fail("folder", "tables differ: csv %s, parquet %s" % (csv_tables, parquet_tables))
for name in parquet_tables:
    stem = name[:-8]
    path = os.path.join(parquet_dir, name)
    if os.stat(path).st_mode & 0o077:
        fail(stem, "mode %o is not 0600" % (os.stat(path).st_mode & 0o777))
    table = pq.read_table(path)
    metadata = pq.ParquetFile(path).metadata
    with open(os.path.join(csv_dir, stem + ".csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    expected_columns = []
    for column in header:
        expected_columns.append(column)
        t = table.schema.field(column).type if column in table.schema.names else None
        if t is not None and pa.types.is_timestamp(t) and not is_local_timestamp(t):
            expected_columns.append(column + "_utcOffset")
    if table.schema.names != expected_columns:
        fail(stem, "columns %s, expected %s" % (table.schema.names, expected_columns))
        continue
    if table.num_rows != len(rows):
        fail(stem, "%d rows, the CSV has %d" % (table.num_rows, len(rows)))
        continue
    # Types by column name.
    for field in table.schema:
        t = field.type
        if field.name.endswith("_utcOffset"):
            ok = t == pa.int32()
        elif is_local_timestamp(t):
            ok = t.unit == "us" and field.name.startswith("local")
        elif pa.types.is_timestamp(t):
            ok = t.unit == "us" and t.tz in ("UTC", "+00:00")
        elif is_json_column(field.name):
            ok = getattr(t, "extension_name", "") == "arrow.json" or pa.types.is_string(t)
        elif field.name in UUID_COLUMNS and not (stem == "workout-activities" and field.name == "uuid"):
            # (A workout activity's uuid is the export's own text, not a derived uuid.)
            ok = is_uuid_type(t)
        else:
            ok = (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_floating(t) or pa.types.is_integer(t)
                  or pa.types.is_boolean(t))
        if not ok:
            fail(stem, "column %s has type %s" % (field.name, t))
    # Statistics in every column chunk: the null count always, min/max unless all null.
    for g in range(metadata.num_row_groups):
        group = metadata.row_group(g)
        for c in range(group.num_columns):
            chunk = group.column(c)
            stats = chunk.statistics
            if stats is None or not stats.has_null_count:
                fail(stem, "row group %d column %s has no statistics" % (g, chunk.path_in_schema))
            elif stats.null_count < chunk.num_values and not stats.has_min_max and chunk.physical_type != "BYTE_ARRAY":
                fail(stem, "row group %d column %s has no min/max" % (g, chunk.path_in_schema))
    columns = {field.name: table.column(field.name).to_pylist() for field in table.schema}
    for r, row in enumerate(rows):
        offsets = {}
        for column in header:
            if column + "_utcOffset" in columns:
                offsets[column] = columns[column + "_utcOffset"][r]
        for i, column in enumerate(header):
            field = table.schema.field(column)
            value = columns[column][r]
            checked_cells += 1
            try:
                ok = same(stem, column, field, value, row[i], offsets)
            except Exception as error:  # a cell that does not parse is a difference
                ok = False
            if not ok:
                fail(stem, "row %d column %s: parquet %r, csv %r" % (r + 1, column, value, row[i]))
                break
    checked_tables += 1

print("%s %d tables, %d cells compared (%s)" % ("ok  " if failures == 0 else "FAIL", checked_tables, checked_cells, parquet_dir))
sys.exit(1 if failures else 0)
