#!/usr/bin/env bash
# Checks that a data engine reads healthport's partitioned output directly: generates several
# exports with known answers, converts them in one batch (--partition person,type as CSV, and
# --partition type as NDJSON), then queries both layouts with DuckDB (installed from PyPI into a
# private virtual environment) and compares counts and sums with the generator's manifests and
# with healthport's own reading of each export.
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
