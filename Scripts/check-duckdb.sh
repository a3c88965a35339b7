#!/usr/bin/env bash
# Checks that a data engine reads healthport's partitioned output directly: generates several
# exports with known answers, converts them in one batch (--partition person,type as CSV, and
# --partition type as NDJSON), then queries both layouts with DuckDB (installed from PyPI into a
# private virtual environment) and compares counts and sums with the generator's manifests and
# with healthport's own reading of each export. Then the summary tables (convert --summaries) of a
# generated year, read by DuckDB from a Parquet lake, against `healthport stats` for every type
# and day: the lake's daily numbers are the Health app's merge, not a sum of raw samples.
#
#   Scripts/check-duckdb.sh [path/to/healthport [path/to/generate-export]]
set -euo pipefail
cd "$(dirname "$0")/.."
HEALTHPORT="${1:-.build/debug/healthport}"
GENERATE="${2:-.build/debug/generate-export}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
VENV="${DUCKDB_VENV:-Benchmarks/work/venv}"
# DuckDB pinned to the major version checked (2); pip does nothing when the venv holds it.
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet 'duckdb>=2,<3' pytz
# .ci/prepare-checks stops here (HEALTHPORT_CHECK_PREPARE): what this check installs is in place.
[ -z "${HEALTHPORT_CHECK_PREPARE:-}" ] || exit 0

mkdir -p "$WORK/exports"
for person in ada bob cy; do
    seed=$(printf '%s' "$person" | cksum | cut -d' ' -f1)
    "$GENERATE" --days 20 --seed "$seed" --zip "$WORK/exports/$person.zip" --manifest "$WORK/$person.json" >/dev/null
    # What healthport itself reads from each export: the step sum.
    "$HEALTHPORT" convert "$WORK/exports/$person.zip" --quiet --type StepCount > "$WORK/$person.steps.ndjson"
done
"$HEALTHPORT" convert "$WORK"/exports/*.zip --quiet --format csv --partition person,type --jobs 2 --output "$WORK/lake-csv"
"$HEALTHPORT" convert "$WORK"/exports/*.zip --quiet --format ndjson --partition type --jobs 2 --output "$WORK/lake-ndjson"

"$VENV/bin/python" - "$WORK" <<'PY'
import json, sys, duckdb
work = sys.argv[1]
con = duckdb.connect()
failures = 0
def check(what, got, expected):
    global failures
    ok = got == expected
    failures += not ok
    print("%-4s %-50s %s%s" % ("ok" if ok else "FAIL", what, got, "" if ok else "  (expected %s)" % (expected,)))
people = ["ada", "bob", "cy"]
manifests = {p: json.load(open("%s/%s.json" % (work, p))) for p in people}
from datetime import datetime, timezone
steps = {}
step_days = 0
for p in people:
    total = 0.0
    days = set()
    for line in open("%s/%s.steps.ndjson" % (work, p)):
        o = json.loads(line)
        if o.get("kind") == "quantitySample":
            total += o["quantity"]["value"]
            days.add(datetime.fromisoformat(o["startDate"]).astimezone(timezone.utc).date())
    steps[p] = total
    step_days += len(days)

csv = lambda t: "read_csv('%s/lake-csv/person=*/type=%s/*.csv', hive_partitioning=true)" % (work, t)
rows = dict(con.sql("select person, count(*) from %s group by all" % csv("HeartRate")).fetchall())
for p in people:
    check("csv HeartRate rows, person=" + p, rows.get(p), manifests[p]["objectsByType"]["HKQuantityTypeIdentifierHeartRate"])
sums = dict(con.sql("select person, sum(quantity_value) from %s group by all" % csv("StepCount")).fetchall())
for p in people:
    check("csv StepCount sum, person=" + p, round(sums.get(p, 0), 6), round(steps[p], 6))
days = con.sql("select count(distinct (person, date_trunc('day', startDate))) from %s" % csv("StepCount")).fetchall()[0][0]
check("csv StepCount person-days (UTC)", days, step_days)

nd = lambda t: "read_json('%s/lake-ndjson/type=%s/*.ndjson', hive_partitioning=true, format='newline_delimited')" % (work, t)
total = con.sql("select count(*) from %s" % nd("HeartRate")).fetchall()[0][0]
check("ndjson HeartRate rows, all persons", total, sum(m["objectsByType"]["HKQuantityTypeIdentifierHeartRate"] for m in manifests.values()))
s = con.sql("select sum(quantity.value) from %s" % nd("StepCount")).fetchall()[0][0]
check("ndjson StepCount sum, all persons", round(s, 6), round(sum(steps.values()), 6))
files = con.sql("select count(*) from glob('%s/lake-ndjson/type=StepCount/*.ndjson')" % work).fetchall()[0][0]
check("ndjson StepCount files (one per person)", files, 3)
sys.exit(1 if failures else 0)
PY
echo "DuckDB read healthport's partitioned output"

# The summary tables of a year with an iPhone and a Watch counting the same walks, days cut in the
# person's zone, given to every command: without --tz each decides it from the samples it reads
# (stats from one type's, which here name no zone; the summary from every type's, whose sleep
# names Europe/Paris), and they differ by an hour in summer.
"$GENERATE" --days 365 --seed 7 --zip "$WORK/year.zip" >/dev/null
"$HEALTHPORT" convert "$WORK/year.zip" --quiet --format parquet --partition person,type --summaries --tz Europe/Paris --output "$WORK/lake-summary"
"$HEALTHPORT" summary "$WORK/year.zip" --quiet --format csv --tz Europe/Paris --output "$WORK/summary.csv"
mkdir -p "$WORK/stats"
for type in $("$VENV/bin/python" -c "
import duckdb, sys
print(' '.join(r[0] for r in duckdb.sql(\"select distinct sampleType from read_parquet('$WORK/lake-summary/person=*/type=daily-summary/*.parquet')\").fetchall()))"); do
    # Each type's days by another command (Scripts/summary/reference.py): stats, read as the
    # type's day is read (stand hours: the stood ones), or sleep's nights. Workouts have days in
    # the summary but no statistics of their own, nor do types healthport does not know
    # (FutureMetric) or that are not samples of a kind stats takes (SleepDurationGoal): stats
    # refuses those with 64, and they are left out here.
    case "$type" in HKWorkoutTypeIdentifier) continue ;; esac
    status=0
    python3 Scripts/summary/reference.py "$HEALTHPORT" "$type" Europe/Paris "$WORK/year.zip" > "$WORK/stats/$type.csv" || status=$?
    if [ "$status" -eq 64 ]; then rm "$WORK/stats/$type.csv"; echo "skipped $type (no statistics)"; continue; fi
    [ "$status" -eq 0 ] || exit "$status"
done
"$VENV/bin/python" - "$WORK" <<'PY'
import csv, glob, os, sys, duckdb
work = sys.argv[1]
con = duckdb.connect()
lake = con.sql("select * from read_parquet('%s/lake-summary/person=*/type=daily-summary/*.parquet', hive_partitioning=true)" % work)
columns = lake.columns
rows = {(r[columns.index("sampleType")], str(r[columns.index("date")])): dict(zip(columns, r)) for r in lake.fetchall()}
failures = compared = 0
for path in sorted(glob.glob(work + "/stats/*.csv")):
    kind = os.path.basename(path)[:-4]
    for stat in csv.DictReader(open(path, newline="")):
        day = stat["day"]
        row = rows.get((kind, day))
        for column in ("sum", "average", "minimum", "maximum", "duration", "inBed", "count"):
            if column not in stat or stat[column] == "":
                continue
            expected = float(stat[column])
            got = None if row is None else row.get(column)
            compared += 1
            if got is None or abs(float(got) - expected) > 1e-6 * max(1.0, abs(expected)):
                failures += 1
                if failures <= 10:
                    print("FAIL %s %s %s: lake %s, stats %s" % (kind, day, column, got, expected))
# Every day stats shows is in the lake, and the lake has no day stats does not show.
shown = set()
for path in glob.glob(work + "/stats/*.csv"):
    kind = os.path.basename(path)[:-4]
    shown |= {(kind, s["day"]) for s in csv.DictReader(open(path, newline=""))}
compared_types = {os.path.basename(p)[:-4] for p in glob.glob(work + "/stats/*.csv")}
extra = {k for k in rows if k[0] in compared_types} - shown
if extra:
    failures += 1
    print("FAIL days in the lake that stats does not show: %s" % sorted(extra)[:5])
# The summary command writes the same rows as the lake.
with open(work + "/summary.csv", newline="") as f:
    command = list(csv.DictReader(f))
if len(command) != len(rows):
    failures += 1
    print("FAIL healthport summary wrote %d rows, the lake holds %d" % (len(command), len(rows)))
nights = con.sql("select count(*), sum(asleep) from read_parquet('%s/lake-summary/person=*/type=sleep-nights/*.parquet')" % work).fetchall()[0]
print("%d numbers of %d types compared with stats, %d nights" % (compared, len(glob.glob(work + "/stats/*.csv")), nights[0]))
if compared < 1000 or nights[0] < 300 or len(compared_types) < 15:
    failures += 1
    print("FAIL too little compared: the generated year should have every day of steps and most nights")
sys.exit(1 if failures else 0)
PY
echo "DuckDB read the lake's daily summary; every number equals healthport stats (sleep: healthport sleep)"
