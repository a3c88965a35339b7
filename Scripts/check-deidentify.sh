#!/usr/bin/env bash
# Checks de-identified lakes (issue 43) with the tools a study reads them with: converts three
# generated exports into a CSV lake with --deidentify, then
# - DuckDB reads the lake's coverage table (type=coverage) and its figures (first and last day,
#   days with data, samples, heart rate hours and share) equal a count over the lake's own raw
#   tables, person by person and type by type;
# - no original name, date or free text of the exports is left in any file of the lake, and the
#   de-identified daily counts equal the plain lake's, day for day moved by a whole number of weeks;
# - the Spark job (Scripts/spark/convert_exports.py, local mode) passes --deidentify through:
#   its lake equals the single-machine one file for file, _deidentification.json included.
#
#   Scripts/check-deidentify.sh [path/to/healthport [path/to/generate-export]]
set -euo pipefail
cd "$(dirname "$0")/.."
HEALTHPORT="$(realpath -m "${1:-.build/debug/healthport}")"
GENERATE="${2:-.build/debug/generate-export}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
VENV="${SPARK_VENV:-Benchmarks/work/venv-spark}"
# The same venv and pins as check-spark.sh (pyspark 4, pyarrow 26), with DuckDB's as
# check-duckdb.sh's (2); pip does nothing when the venv holds them.
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet 'pyspark>=4,<5' 'pyarrow>=26,<27' 'duckdb>=2,<3'
# .ci/prepare-checks stops here (HEALTHPORT_CHECK_PREPARE): what this check installs is in place.
[ -z "${HEALTHPORT_CHECK_PREPARE:-}" ] || exit 0

mkdir -p "$WORK/exports"
for person in ada bob cy; do
    seed=$(printf '%s' "$person" | cksum | cut -d' ' -f1)
    "$GENERATE" --days 20 --seed "$seed" --zip "$WORK/exports/$person.zip" >/dev/null
done
"$HEALTHPORT" convert "$WORK"/exports/*.zip --quiet --format csv --partition person,type --jobs 2 --output "$WORK/lake-plain"
"$HEALTHPORT" convert "$WORK"/exports/*.zip --quiet --format csv --partition person,type --jobs 2 --deidentify "$WORK/study.key" --output "$WORK/lake-local"
[ "$(stat -c %a "$WORK/study.key")" = 600 ] || { echo "FAIL the key file is not mode 0600"; exit 1; }

"$VENV/bin/python" - "$WORK" <<'PY'
import datetime, glob, json, os, sys, duckdb
work = sys.argv[1]
con = duckdb.connect()
failures = 0
def check(what, got, expected):
    global failures
    ok = got == expected
    failures += not ok
    print("%-4s %-62s %s%s" % ("ok" if ok else "FAIL", what, got, "" if ok else "  (expected %s)" % (expected,)))

def read(lake, table):
    return "read_csv('%s/%s/person=*/type=%s/*.csv', hive_partitioning=true, all_varchar=true, union_by_name=true)" % (work, lake, table)

coverage = {(r[0], r[1]): r[2:] for r in con.sql(
    "select person, sampleType, firstDay, lastDay, cast(days as int), cast(samples as int), cast(coveredHours as int), cast(coveredShare as double) from %s" % read("lake-local", "coverage")).fetchall()}
check("coverage rows (person, type)", len(coverage) > 30, True)

# The raw tables with a start date: every table but the summaries, coverage and workouts' parts.
skip = {"coverage", "daily-summary", "sleep-nights", "workout-events", "workout-activities", "workout-statistics",
        "instantaneous-beats-per-minute", "audiogram-sensitivity-points", "activity-summaries"}
tables = sorted({os.path.basename(p)[5:] for p in glob.glob("%s/lake-local/person=*/type=*" % work)} - skip)
counted = {}
for table in tables:
    columns = [c[0] for c in con.sql("describe select * from %s" % read("lake-local", table)).fetchall()]
    if "sampleType" not in columns or "startDate" not in columns:
        continue
    for r in con.sql(
        "select person, sampleType, min(substr(startDate, 1, 10)), max(substr(startDate, 1, 10)), count(distinct substr(startDate, 1, 10)), count(*), "
        "count(distinct substr(startDate, 1, 13)) from %s group by all" % read("lake-local", table)).fetchall():
        counted[(r[0], r[1])] = r[2:]
check("types counted over the raw tables", len(counted) > 30, True)
mismatches = []
for key, (first, last, days, samples, hours) in counted.items():
    row = coverage.get(key)
    expected_hours = hours if key[1] == "HKQuantityTypeIdentifierHeartRate" else None
    expected_share = round(hours / (24 * days), 9) if expected_hours is not None else None
    got = row and (row[0], row[1], row[2], row[3], row[4], None if row[5] is None else round(row[5], 9))
    if got != (first, last, days, samples, expected_hours, expected_share):
        mismatches.append((key, got, (first, last, days, samples, expected_hours, expected_share)))
check("coverage equals a count over the raw tables", mismatches, [])
hr = [v for k, v in coverage.items() if k[1] == "HKQuantityTypeIdentifierHeartRate"]
check("heart rate wear time: a share of the day in (0, 1]", all(0 < v[5] <= 1 for v in hr) and len(hr) == 3, True)

# No original survives: names, free text, dates (every start date of the plain lake's steps).
# (Device models such as "iPhone" and "Watch" are kept by design.)
originals = ["ada.zip", "bob.zip", "cy.zip", "exports/", "Simon", "Nicol", "Apple Watch", "Soup", "Europe/Paris", "HKTimeZone", "HKFoodType", "Sample Location", "fhir.example.org"]
plain_dates = {r[0] for r in con.sql("select distinct substr(startDate, 1, 10) from %s" % read("lake-plain", "StepCount")).fetchall()}
found = []
for path in glob.glob("%s/lake-local/**/*" % work, recursive=True):
    # The batch manifest too: de-identified, it names no input file and no real time.
    if os.path.isfile(path):
        text = open(path, encoding="utf-8", errors="replace").read()
        found += ["%s in %s" % (o, os.path.relpath(path, work)) for o in originals if o in text]
        found += ["%s in %s" % (d, os.path.relpath(path, work)) for d in plain_dates if d in text]
check("no original name, free text or date in the lake", found[:5], [])
check("person keys are pseudonyms", sorted(os.path.basename(p)[:14] for p in glob.glob("%s/lake-local/person=*" % work)), ["person=person-"] * 3)

# Daily counts: the same per person and UTC day, the days moved by the shift (a de-identified
# lake writes every date in UTC: the printed offsets would date the shift).
con.sql("set TimeZone = 'UTC'")
utc = "cast(startDate as timestamptz)"
plain = sorted(con.sql("select count(*) from %s group by person, strftime(%s, '%%Y-%%m-%%d')" % (read("lake-plain", "HeartRate"), utc)).fetchall())
deid = sorted(con.sql("select count(*) from %s group by person, strftime(%s, '%%Y-%%m-%%d')" % (read("lake-local", "HeartRate"), utc)).fetchall())
check("heart rates per person and UTC day: the same counts (%d days)" % len(plain), deid == plain and len(plain) > 0, True)
# UTC times of day and weekdays kept: the plain and the de-identified step times, person by person.
def times(lake):
    return sorted(con.sql("select person, strftime(%s, '%%H:%%M:%%S') from %s" % (utc, read(lake, "StepCount"))).fetchall())
check("UTC times of day of steps: the same", sorted(t for _, t in times("lake-local")) == sorted(t for _, t in times("lake-plain")), True)
offsets = {r[0] for r in con.sql("select distinct substr(cast(startDate as varchar), 20) from %s" % read("lake-local", "StepCount")).fetchall()}
check("de-identified dates are in UTC", offsets <= {"+00:00", "Z", "+00"}, True)
weekdays = lambda lake: sorted(r[0] for r in con.sql("select dayofweek(%s) from %s" % (utc, read(lake, "StepCount"))).fetchall())
check("weekdays of steps: the same", weekdays("lake-local") == weekdays("lake-plain"), True)
manifest = json.load(open(work + "/lake-local/_deidentification.json"))
check("the manifest names the method, never the key", (manifest["method"], "secret" in json.dumps(manifest)), ("healthport-deidentify", False))
sys.exit(1 if failures else 0)
PY

# The Spark job, local mode, with the same key: the lake one machine writes.
command -v java >/dev/null || { echo "Java is needed (apt-get install openjdk-17-jre-headless)"; exit 1; }
export PYSPARK_PYTHON="$VENV/bin/python"
"$VENV/bin/spark-submit" --master 'local[2]' --conf spark.ui.enabled=false --files "$HEALTHPORT" \
    Scripts/spark/convert_exports.py --inputs "$WORK/exports/*.zip" --output "$WORK/lake-spark" --format csv \
    --partition person,type --deidentify "$WORK/study.key" > "$WORK/spark.log" 2>&1 || { tail -n 40 "$WORK/spark.log"; exit 1; }
(cd "$WORK/lake-local" && find . -type f ! -name _manifest.json | sort) > "$WORK/local.files"
(cd "$WORK/lake-spark" && find . -type f ! -name _manifest.json | sort) > "$WORK/spark.files"
diff "$WORK/local.files" "$WORK/spark.files" || { echo "FAIL the Spark lake has other files than the single-machine one"; exit 1; }
while read -r file; do
    cmp -s "$WORK/lake-local/$file" "$WORK/lake-spark/$file" || { echo "FAIL $file differs between Spark and one machine"; exit 1; }
done < "$WORK/local.files"
echo "ok   the Spark job's de-identified lake equals the single-machine one ($(wc -l < "$WORK/local.files") files, _deidentification.json included)"
# The job's own manifest names no export file and records no real time, as healthport's does.
if grep -q -e 'ada\.zip' -e 'bob\.zip' -e 'cy\.zip' -e '"updated": "20' -e '"modified": [1-9]' "$WORK/lake-spark/_manifest.json"; then
    echo "FAIL the Spark job's de-identified manifest names an export or a real time"; exit 1
fi
echo "ok   the Spark job's de-identified manifest names no export and no real time"
