#!/usr/bin/env bash
# Checks the store's summary tables the way a person reads them, with sqlite3: a generated year
# with an iPhone and a Watch counting the same walks, imported in two steps (the first ten months,
# then the whole year: the second import recomputes only the days it touches), then every type's
# days in `daily_summary` against `healthport stats --store` in the store's zone, every number, as
# the type's day is read (Scripts/summary/reference.py; sleep against `healthport sleep --store`);
# both tables against `healthport summary --store` and `healthport sleep --store`; and against a
# store that imported the whole year at once.
#
#   Scripts/check-store-summary.sh [path/to/healthport [path/to/generate-export]]
set -euo pipefail
cd "$(dirname "$0")/.."
HEALTHPORT="${1:-.build/debug/healthport}"
GENERATE="${2:-.build/debug/generate-export}"
command -v sqlite3 >/dev/null || { echo "sqlite3 is not installed (apt-get install sqlite3)"; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

"$GENERATE" --days 300 --seed 7 --zip "$WORK/older.zip" >/dev/null
"$GENERATE" --days 365 --seed 7 --zip "$WORK/year.zip" >/dev/null
"$HEALTHPORT" import "$WORK/older.zip" --store "$WORK/steps.sqlite" --quiet
"$HEALTHPORT" import "$WORK/year.zip" --store "$WORK/steps.sqlite" --quiet
"$HEALTHPORT" import "$WORK/year.zip" --store "$WORK/once.sqlite" --quiet
store="$WORK/steps.sqlite"
zone=$(sqlite3 -readonly "$store" "select value from store_info where key = 'summary_time_zone'")
echo "the store cuts days in $zone"

mkdir -p "$WORK/stats" "$WORK/table"
for type in $(sqlite3 -readonly "$store" "select distinct sample_type from daily_summary order by 1"); do
    # Workouts have days in the summary but no statistics of their own, nor do types stats does
    # not take (it refuses them with 64): left out, as Scripts/check-duckdb.sh leaves them.
    case "$type" in HKWorkoutTypeIdentifier) continue ;; esac
    # Each type's days by another command (Scripts/summary/reference.py): stats, read as the
    # type's day is read (stand hours: the stood ones), or sleep's nights.
    status=0
    python3 Scripts/summary/reference.py "$HEALTHPORT" "$type" "$zone" --store "$store" > "$WORK/stats/$type.csv" || status=$?
    if [ "$status" -eq 64 ]; then rm "$WORK/stats/$type.csv"; echo "skipped $type (no statistics)"; continue; fi
    [ "$status" -eq 0 ] || exit "$status"
    sqlite3 -readonly -csv -header "$store" \
        "select date, sum, average, minimum, maximum, duration, in_bed as inBed, count from daily_summary where sample_type = '$type' order by date" \
        > "$WORK/table/$type.csv"
done
"$HEALTHPORT" summary --store "$store" --quiet --tz "$zone" --format csv > "$WORK/summary.csv"
"$HEALTHPORT" sleep --store "$store" --quiet --tz "$zone" --format csv > "$WORK/sleep.csv"
# Each table's columns in the order the commands print them (columns a later layout added come
# last in an upgraded store's table).
columns_daily_summary="date, sample_type, unit, sum, average, minimum, maximum, duration, in_bed, count, sources"
columns_sleep_nights="night, in_bed, asleep, asleep_unspecified, asleep_core, asleep_deep, asleep_rem, awake, sleep_start, sleep_end, naps, sources"
for table in daily_summary sleep_nights; do
    columns="columns_$table"
    sqlite3 -readonly -csv "$store" "select ${!columns} from $table order by 1, 2" > "$WORK/$table.steps.csv"
    sqlite3 -readonly -csv "$WORK/once.sqlite" "select ${!columns} from $table order by 1, 2" > "$WORK/$table.once.csv"
done

python3 - "$WORK" <<'PY'
import csv, glob, os, re, sys
work = sys.argv[1]
failures = compared = 0
def fail(message):
    global failures
    failures += 1
    if failures <= 10:
        print("FAIL " + message)
def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))
for path in sorted(glob.glob(work + "/stats/*.csv")):
    kind = os.path.basename(path)[:-4]
    table = {r["date"]: r for r in csv.DictReader(open("%s/table/%s.csv" % (work, kind), newline=""))}
    shown = set()
    for stat in csv.DictReader(open(path, newline="")):
        day = stat["day"]
        shown.add(day)
        row = table.get(day)
        for column in ("sum", "average", "minimum", "maximum", "duration", "inBed", "count"):
            if stat.get(column, "") == "":
                continue
            compared += 1
            if row is None or row[column] == "" or not close(float(row[column]), float(stat[column])):
                fail("%s %s %s: daily_summary %s, stats %s" % (kind, day, column, None if row is None else row[column], stat[column]))
    for day in sorted(set(table) - shown):
        fail("%s %s: in daily_summary, not in stats" % (kind, day))
# The tables are the commands' rows, and the same whether the year came in one import or two.
def rows(path, header):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    return r[1:] if header else r
def equal(p, q):
    # sqlite3 prints 15 significant digits, healthport the shortest exact form.
    try:
        return close(float(p), float(q))
    except ValueError:
        return p == q
def same(a, b):
    return len(a) == len(b) and all(len(x) == len(y) and all(equal(p, q) for p, q in zip(x, y)) for x, y in zip(a, b))
summary = sorted(rows(work + "/summary.csv", True), key=lambda r: (r[0], r[1]))
if not same(summary, rows(work + "/daily_summary.steps.csv", False)):
    fail("daily_summary differs from healthport summary --store")
if not same(rows(work + "/sleep.csv", True), rows(work + "/sleep_nights.steps.csv", False)):
    fail("sleep_nights differs from healthport sleep --store")
for table in ("daily_summary", "sleep_nights"):
    if rows("%s/%s.steps.csv" % (work, table), False) != rows("%s/%s.once.csv" % (work, table), False):
        fail("%s after two imports differs from one import of the whole year" % table)
nights = len(rows(work + "/sleep_nights.steps.csv", False))
types = len(glob.glob(work + "/stats/*.csv"))
print("%d numbers of %d types compared with stats, %d days, %d nights" % (compared, types, len(summary), nights))
if compared < 1000 or nights < 300 or types < 15:
    fail("too little compared: the generated year should have every day of steps and most nights")
sys.exit(1 if failures else 0)
PY
echo "sqlite3 over the store's daily summary gives healthport stats' numbers, after one import or two"
