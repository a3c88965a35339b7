#!/usr/bin/env bash
# Checks healthport's Parquet with readers no one here wrote, installed from PyPI into a private
# virtual environment:
#   - pyarrow reads every table of generated exports and of every real sample, and each table's
#     schema and every value equal the CSV healthport writes of the same export
#     (Scripts/parquet/compare_tables.py), with each compression;
#   - one table in X.parquet (convert --type, query --start), and the changes between two
#     exports (added tables and deleted.parquet), agree with NDJSON;
#   - DuckDB reads a lake of several exports with hive partitioning, its counts and sums equal
#     the generator's known answers and healthport's own reading, and a filter on startDate makes
#     it skip row groups by their statistics (its profiler counts row groups scanned).
# Spark reads the same lake in Scripts/check-spark.sh.
#
#   Scripts/check-parquet.sh [path/to/healthport [path/to/generate-export]]
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/samples.sh
HEALTHPORT="${1:-.build/debug/healthport}"
GENERATE="${2:-.build/debug/generate-export}"
VENV="${PARQUET_VENV:-Benchmarks/work/venv-spark}"
# Pinned to the major versions checked (pyarrow 26, DuckDB 2; the venv is check-spark.sh's,
# whose pyarrow pin this must equal). pip does nothing when the venv holds versions in range.
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet 'pyarrow>=26,<27' 'duckdb>=2,<3'
# .ci/prepare-checks stops here (HEALTHPORT_CHECK_PREPARE): what this check installs is in place.
[ -z "${HEALTHPORT_CHECK_PREPARE:-}" ] || exit 0
PY="$VENV/bin/python"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# Each input as CSV and as Parquet, compared table by table and cell by cell.
compare() {  # name input [extra convert options]
    local name="$1" input="$2"
    shift 2
    if ! "$HEALTHPORT" convert "$input" --quiet --format csv --output "$WORK/$name-csv" "$@" 2>/dev/null; then
        # An input healthport refuses must be refused alike in Parquet, leaving nothing.
        if "$HEALTHPORT" convert "$input" --quiet --format parquet --output "$WORK/$name-parquet" "$@" 2>/dev/null; then
            fail "$name: CSV refused the input and Parquet did not"
        elif [ -e "$WORK/$name-parquet" ]; then
            fail "$name: a refused conversion left $WORK/$name-parquet"
        else
            echo "ok   $name: refused alike, nothing left"
        fi
        return
    fi
    "$HEALTHPORT" convert "$input" --quiet --format parquet --output "$WORK/$name-parquet" "$@"
    "$PY" Scripts/parquet/compare_tables.py "$WORK/$name-parquet" "$WORK/$name-csv" || failures=$((failures + 1))
}

mkdir -p "$WORK/exports"
for person in ada bob cy; do
    seed=$(printf '%s' "$person" | cksum | cut -d' ' -f1)
    "$GENERATE" --days 20 --seed "$seed" --zip "$WORK/exports/$person.zip" --manifest "$WORK/$person.json" >/dev/null
    "$HEALTHPORT" convert "$WORK/exports/$person.zip" --quiet --type StepCount > "$WORK/$person.steps.ndjson"
done
compare generated "$WORK/exports/ada.zip" --include-routes
compare generated-gzip "$WORK/exports/bob.zip" --compression gzip
compare generated-none "$WORK/exports/cy.zip" --compression none
HEALTHPORT_PARQUET_ROW_GROUP_ROWS=333 compare generated-small-row-groups "$WORK/exports/ada.zip"
compare sample SampleData/export.zip
# Android's Health Connect export (the repository's fixture, made by its script), the same way.
python3 Scripts/healthconnect/make-fixture.py "$WORK/health-connect" > /dev/null
compare health-connect "$WORK/health-connect/health_connect_export.zip"
n=0
while IFS= read -r -d '' input; do
    n=$((n + 1))
    compare "real-$n" "$input"
done < <([ ${#SAMPLE_DIRS[@]} -eq 0 ] || find "${SAMPLE_DIRS[@]}" -type f \( -name '*.xml' -o -name '*.zip' \) ! -name '*.dtd' ! -path '*/zip_contents/*' -print0 | sort -z)

# One table in one file: convert --type, and query with a date window.
mkdir -p "$WORK/one"
"$HEALTHPORT" convert SampleData/export.zip --quiet --type HeartRate --format parquet --output "$WORK/one/hr.parquet"
"$HEALTHPORT" query SampleData/export.zip --quiet --type StepCount --start 2024-04-01 --format parquet --output "$WORK/one/steps.parquet"
"$HEALTHPORT" query SampleData/export.zip --quiet --type StepCount --start 2024-04-01 > "$WORK/one/steps.ndjson"
"$HEALTHPORT" convert SampleData/export.zip --quiet --type HeartRate > "$WORK/one/hr.ndjson"
"$HEALTHPORT" convert SampleData/export.zip --quiet --type HeartRate --start 2099-01-01 --format parquet --output "$WORK/one/none.parquet"
status=0
"$HEALTHPORT" convert SampleData/export.zip --quiet --format parquet --output "$WORK/one/all.parquet" 2>/dev/null || status=$?
[ "$status" = 64 ] && [ ! -e "$WORK/one/all.parquet" ] && echo "ok   several types into one .parquet file: refused (64), nothing written" \
    || fail "several types into one .parquet file: status $status"

# Changes between two exports: the added tables and deleted.parquet.
# (export-older holds a subset of export: 783 added one way, 783 deleted the other.)
"$HEALTHPORT" diff SampleData/export-older.zip SampleData/export.zip --quiet --format parquet --output "$WORK/delta"
"$HEALTHPORT" diff SampleData/export-older.zip SampleData/export.zip --quiet | tail -n 1 > "$WORK/delta.end"
"$HEALTHPORT" diff SampleData/export.zip SampleData/export-older.zip --quiet --format parquet --output "$WORK/delta-back"
"$HEALTHPORT" diff SampleData/export.zip SampleData/export-older.zip --quiet | tail -n 1 > "$WORK/delta-back.end"

# A lake of three exports, and one with small row groups for the statistics.
"$HEALTHPORT" convert "$WORK"/exports/*.zip --quiet --format parquet --partition person,type --jobs 2 --output "$WORK/lake"
HEALTHPORT_PARQUET_ROW_GROUP_ROWS=200 "$HEALTHPORT" convert "$WORK/exports/ada.zip" --quiet --type HeartRate --format parquet \
    --output "$WORK/one/hr-small-groups.parquet"

"$PY" - "$WORK" <<'PY' || failures=$((failures + 1))
import json, os, sys, tempfile
from datetime import datetime, timezone
import duckdb
import pyarrow.parquet as pq
work = sys.argv[1]
failures = 0
def check(what, got, expected):
    global failures
    ok = got == expected
    failures += not ok
    short = lambda v: (repr(v)[:60] + "...") if len(repr(v)) > 60 else repr(v)
    print("%-4s %-62s %s%s" % ("ok" if ok else "FAIL", what, short(got), "" if ok else "  (expected %s)" % short(expected)))
def ndjson(path):
    return [json.loads(l) for l in open(path) if '"kind":"export"' not in l]

hr = pq.read_table(work + "/one/hr.parquet")
hr_json = ndjson(work + "/one/hr.ndjson")
check("hr.parquet: one table, the NDJSON's uuids", sorted(str(u).upper() for u in hr.column("uuid").to_pylist()), sorted(o["uuid"] for o in hr_json))
check("hr.parquet: the NDJSON's values", sorted(hr.column("quantity_value").to_pylist()), sorted(o["quantity"]["value"] for o in hr_json))
none = pq.read_table(work + "/one/none.parquet")
check("an empty selection: no rows, the table's columns", (none.num_rows, none.schema.names), (0, hr.schema.names))
check("an empty selection: DuckDB reads it", duckdb.sql("select count(*) from '%s'" % (work + "/one/none.parquet")).fetchall()[0][0], 0)
steps = pq.read_table(work + "/one/steps.parquet")
steps_json = ndjson(work + "/one/steps.ndjson")
check("query --start into steps.parquet: the NDJSON's rows", steps.num_rows, len(steps_json))
check("query --start: no row before the window", min(steps.column("startDate").to_pylist()) >= datetime(2024, 1, 5, tzinfo=timezone.utc) - __import__("datetime").timedelta(hours=14), True)

end = json.loads(open(work + "/delta.end").read())
back = json.loads(open(work + "/delta-back.end").read())
deleted = pq.read_table(work + "/delta-back/deleted.parquet")
check("diff back: deleted.parquet rows = NDJSON's deleted", (deleted.num_rows, back["deleted"] > 0), (back["deleted"], True))
check("diff back: deleted.parquet's columns", deleted.schema.names, ["uuid", "sampleType"])
added = sum(pq.read_metadata(work + "/delta/" + n).num_rows for n in os.listdir(work + "/delta")
            if n.endswith(".parquet") and n not in ("deleted.parquet", "export.parquet") and not n.startswith(("workout-", "instantaneous-", "audiogram-")))
check("diff: rows of the added tables = NDJSON's added", added, end["added"])

con = duckdb.connect()
one = lambda sql: con.sql(sql).fetchall()[0][0]
people = ["ada", "bob", "cy"]
manifests = {p: json.load(open("%s/%s.json" % (work, p))) for p in people}
lake = lambda t: "read_parquet('%s/lake/person=*/type=%s/*.parquet', hive_partitioning=true)" % (work, t)
rows = dict(con.sql("select person, count(*) from %s group by all" % lake("HeartRate")).fetchall())
for p in people:
    check("DuckDB: HeartRate rows, person=" + p, rows.get(p), manifests[p]["objectsByType"]["HKQuantityTypeIdentifierHeartRate"])
sums = dict(con.sql("select person, sum(quantity_value) from %s group by all" % lake("StepCount")).fetchall())
for p in people:
    own = sum(o["quantity"]["value"] for o in ndjson("%s/%s.steps.ndjson" % (work, p)))
    check("DuckDB: StepCount sum, person=" + p, round(sums.get(p, 0), 6), round(own, 6))
kinds = dict(con.sql("select column_name, column_type from (describe select * from %s)" % lake("HeartRate")).fetchall())
check("DuckDB: startDate is TIMESTAMP WITH TIME ZONE", kinds.get("startDate"), "TIMESTAMP WITH TIME ZONE")
check("DuckDB: uuid is UUID", kinds.get("uuid"), "UUID")
check("DuckDB: quantity_value is DOUBLE", kinds.get("quantity_value"), "DOUBLE")
local = one("select count(*) from %s where strftime(startDate + to_seconds(startDate_utcOffset), '%%H') = '03'" % lake("HeartRate"))
check("DuckDB: local hours from startDate_utcOffset (rows at 03h)", local > 0, True)

# Row-group skipping: a six-hour window over a file of many small row groups.
small = work + "/one/hr-small-groups.parquet"
groups = pq.ParquetFile(small).metadata.num_row_groups
first = one("select min(startDate) from '%s'" % small)
profile = tempfile.mktemp(suffix=".json")
con.sql("PRAGMA enable_profiling='json'")
con.sql("PRAGMA profiling_output='%s'" % profile)
window = one("select count(*) from '%s' where startDate >= TIMESTAMPTZ '%s' and startDate < TIMESTAMPTZ '%s' + INTERVAL 6 HOUR" % (small, first, first))
con.sql("PRAGMA disable_profiling")
query = json.load(open(profile))["query"] if "query" in json.load(open(profile)) else {}
from datetime import timedelta
starts = pq.read_table(small, columns=["startDate"]).column("startDate").to_pylist()
check("DuckDB: the window's rows (pyarrow counts them too)", window, sum(first <= s < first + timedelta(hours=6) for s in starts))
scanned, total = query.get("total_row_groups_scanned"), query.get("total_row_groups_to_scan")
print("     DuckDB scanned %s of %s row groups (%d in the file)" % (scanned, total, groups))
check("DuckDB: statistics let it skip row groups", scanned is not None and total == groups and scanned < groups / 4, True)
sys.exit(1 if failures else 0)
PY

if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "Parquet: every table equals the CSV; DuckDB and pyarrow read it, and skip by its statistics"
