"""Reading healthport's Parquet tables with Spark.

Spark (4.3 included) refuses Parquet's UUID annotation when it infers a schema from a file
("[PARQUET_TYPE_ILLEGAL] Illegal Parquet type: FIXED_LEN_BYTE_ARRAY (UUID)"), yet reads the
same 16 bytes as `binary` when it is given the schema. This module gives it one, made from a
file's own footer with pyarrow (which the Spark job needs anyway):

    from healthport_lake import read_table
    steps = read_table(spark, "lake", "StepCount")           # lake/person=*/type=StepCount/*.parquet
    steps.groupBy("person").sum("quantity_value").show()

Partition columns (`person`, `type`) come from the paths, as with spark.read.parquet. Every other
engine (DuckDB, pyarrow, pandas, polars) reads the files as they are.
"""
import glob
import os

import pyarrow as pa
import pyarrow.parquet as pq


def _spark_type(t):
    if getattr(t, "extension_name", "") == "arrow.uuid" or pa.types.is_fixed_size_binary(t):
        return "binary"
    if getattr(t, "extension_name", "") == "arrow.json":
        return "string"
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "string"
    if pa.types.is_timestamp(t):
        return "timestamp"
    if pa.types.is_int32(t):
        return "int"
    if pa.types.is_int64(t):
        return "bigint"
    if pa.types.is_float64(t):
        return "double"
    raise ValueError("no Spark type for %s" % t)


def spark_ddl(parquet_file):
    """The Spark DDL schema of one healthport Parquet file, uuids as binary."""
    schema = pq.read_schema(parquet_file)
    return ", ".join("`%s` %s" % (field.name, _spark_type(field.type)) for field in schema)


def read_table(spark, root, table, partition_glob="person=*"):
    """One table of a lake written by `healthport convert --format parquet --partition
    person,type` (or `--partition type` with partition_glob="")."""
    pattern = os.path.join(root, partition_glob, "type=%s" % table) if partition_glob else os.path.join(root, "type=%s" % table)
    files = sorted(glob.glob(os.path.join(pattern, "*.parquet")))
    if not files:
        raise FileNotFoundError("no %s table under %s" % (table, root))
    return spark.read.option("basePath", root).schema(spark_ddl(files[0])).parquet(pattern)
