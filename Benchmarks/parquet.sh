#!/usr/bin/env bash
# Parquet's benchmark (issue 24's targets), on the 4-year synthetic export, every time a ratio
# to a reference measured side by side with it:
#   - Parquet conversion time / NDJSON conversion time (one core each), peak RSS;
#   - peak RSS on the 4-year and on an 8-year export (memory must not grow with the export);
#   - the Parquet folder's bytes / the CSV folder's bytes;
#   - DuckDB answering "daily step sums for one year" over a Parquet lake / over a CSV lake.
#
#   Benchmarks/parquet.sh              # RUNS=3 by default
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
WORK="Benchmarks/work"
mkdir -p "$WORK"
. Benchmarks/release-build.sh
VENV="${PARQUET_VENV:-$WORK/venv-spark}"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet 'duckdb>=2,<3' 'pyarrow>=26,<27'   # the majors Scripts/check-parquet.sh checks

for years in 4 8; do
    file="$WORK/export-${years}y-d1.xml"
    [ -s "$file" ] || "$BIN/generate-export" --days $((365 * years)) --no-forbidden-characters --output "$file" >/dev/null
done
file="$WORK/export-4y-d1.xml"
measure() { python3 Benchmarks/measure.py "$RUNS" "$@"; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }

rm -rf "$WORK/parquet-out" "$WORK/csv-out"
export REFERENCE
REFERENCE="$(printf '%q ' "$BIN/healthport" convert "$file" --format ndjson --quiet --jobs 1)"
parquet=$(measure "$BIN/healthport" convert "$file" --format parquet --output "$WORK/parquet-out" --quiet --jobs 1)
unset REFERENCE
csv=$(measure "$BIN/healthport" convert "$file" --format csv --output "$WORK/csv-out" --quiet --jobs 1)
rm -rf "$WORK/parquet-out-8y"
parquet8=$(measure "$BIN/healthport" convert "$WORK/export-8y-d1.xml" --format parquet --output "$WORK/parquet-out-8y" --quiet --jobs 1)

# One-year lakes, both formats, for DuckDB.
rm -rf "$WORK/lake-parquet" "$WORK/lake-csv"
printf '%s,ada\n' "$file" > "$WORK/persons.csv"
"$BIN/healthport" convert "$file" --quiet --format parquet --partition person,type --person-id "$WORK/persons.csv" --output "$WORK/lake-parquet" --jobs 1
"$BIN/healthport" convert "$file" --quiet --format csv --partition person,type --person-id "$WORK/persons.csv" --output "$WORK/lake-csv" --jobs 1

"$VENV/bin/python" - "$WORK" "$parquet" "$csv" "$parquet8" "$RUNS" <<'PY'
import json, os, sys, time
import duckdb
work, parquet, csv, parquet8, runs = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4]), int(sys.argv[5])
def size(folder):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder) for f in fs)
pq_bytes, csv_bytes = size(work + "/parquet-out"), size(work + "/csv-out")
queries = {
    "parquet": "select date_trunc('day', startDate) as day, sum(quantity_value) from read_parquet('%s/lake-parquet/person=*/type=StepCount/*.parquet', hive_partitioning=true) where startDate >= TIMESTAMPTZ '2025-01-01 00:00:00+00' and startDate < TIMESTAMPTZ '2026-01-01 00:00:00+00' group by 1 order by 1" % work,
    "csv": "select date_trunc('day', startDate::TIMESTAMPTZ) as day, sum(quantity_value) from read_csv('%s/lake-csv/person=*/type=StepCount/*.csv', hive_partitioning=true) where startDate::TIMESTAMPTZ >= TIMESTAMPTZ '2025-01-01 00:00:00+00' and startDate::TIMESTAMPTZ < TIMESTAMPTZ '2026-01-01 00:00:00+00' group by 1 order by 1" % work,
}
best, answers = {}, {}
for _ in range(runs):
    for name, sql in queries.items():
        con = duckdb.connect()
        start = time.perf_counter()
        answers[name] = con.sql(sql).fetchall()
        best[name] = min(best.get(name, 1e9), time.perf_counter() - start)
assert answers["parquet"] == answers["csv"] and answers["parquet"], "the two lakes answer differently"
print("%-52s %12s" % ("4-year export (%d MB)" % (os.path.getsize(work + "/export-4y-d1.xml") / 1e6), ""))
print("%-52s %9.2f s" % ("NDJSON conversion, one core", parquet["reference_seconds"]))
print("%-52s %9.2f s" % ("Parquet conversion, one core", parquet["seconds"]))
print("%-52s %9.2f s" % ("CSV conversion, one core", csv["seconds"]))
print("%-52s %9.2f x   (target <= 1.3)" % ("Parquet / NDJSON time", parquet["seconds"] / parquet["reference_seconds"]))
print("%-52s %9.1f MB  (target < 100)" % ("Parquet peak RSS, 4-year export", parquet["peak_rss_mb"]))
print("%-52s %9.1f MB" % ("Parquet peak RSS, 8-year export", parquet8["peak_rss_mb"]))
print("%-52s %9.1f MB" % ("Parquet folder", pq_bytes / 1e6))
print("%-52s %9.1f MB" % ("CSV folder", csv_bytes / 1e6))
print("%-52s %9.3f     (target <= 0.125)" % ("Parquet / CSV bytes", pq_bytes / csv_bytes))
print("%-52s %9.3f s" % ("DuckDB daily step sums, one year, Parquet lake", best["parquet"]))
print("%-52s %9.3f s" % ("DuckDB daily step sums, one year, CSV lake", best["csv"]))
print("%-52s %9.3f x   (%d days, equal answers)" % ("DuckDB Parquet / CSV time", best["parquet"] / best["csv"], len(answers["parquet"])))
PY
