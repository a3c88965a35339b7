#!/usr/bin/env bash
# Validates healthport's Open mHealth output (--format omh) with a validator no one here wrote:
# the jsonschema package from PyPI, in a venv under .build/ (HEALTHPORT_OMH_VENV names another),
# against openmhealth/schemas as ../shared/schemas/openmhealth holds them (HEALTHPORT_SHARED
# names another place; never copied into this repository). Every data point of every output
# must validate (Scripts/omh/validate_points.py: the body against the schema its header names,
# references resolved offline; the header's IEEE 1752.1 members; RFC 3339 date-times; unique
# uuids; one user_id per file, the FHIR Patient's id): convert, query, days and sleep on the bundled sample, a generated export (60 days)
# and Health Connect's fixture (Scripts/healthconnect/make-fixture.py), de-identified convert, and
# every real export in ../shared/samples. Then a night worked by hand below must be the episode
# `healthport sleep --format omh` writes, and the night `sleep --format json` gives; each day's
# step-count point must be the steps `days --format json` gives; and Health Connect's days' steps
# and night, worked by hand from the fixture's rows, must be its points'.
#
#   Scripts/check-omh.sh [HEALTHPORT] [GENERATE_EXPORT]
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${HEALTHPORT_SHARED:-../shared}"
SCHEMAS="$SHARED/schemas/openmhealth"
if [ ! -d "$SCHEMAS/omh" ]; then
    echo "check-omh.sh: skipped: $SCHEMAS is absent (the Open mHealth schemas live in ../shared beside the checkout; set HEALTHPORT_SHARED)"
    exit 0
fi
. Scripts/samples.sh
BIN="${1:-.build/debug/healthport}"
GEN="${2:-.build/debug/generate-export}"
VENV="${HEALTHPORT_OMH_VENV:-.build/omh-venv}"
# Pinned to the major version checked (4.x, with 4.26.0): the referencing registry the
# validator resolves the schemas' ids with came in 4.18.
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet 'jsonschema>=4.18,<5'
# .ci/prepare-checks stops here (HEALTHPORT_CHECK_PREPARE): what this check installs is in place.
[ -z "${HEALTHPORT_CHECK_PREPARE:-}" ] || exit 0
echo "jsonschema $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("jsonschema"))')"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$GEN" --days 60 --seed 7 --zip "$work/generated.zip" >/dev/null
python3 Scripts/healthconnect/make-fixture.py "$work/health-connect" > /dev/null
hc="$work/health-connect/health_connect_export.zip"
outputs=()
n=0
for input in SampleData/export.zip "$work/generated.zip" "$hc"; do
    n=$((n + 1))
    "$BIN" convert "$input" --format omh --output "$work/convert-$n.ndjson" -q 2>/dev/null
    "$BIN" days "$input" --format omh --output "$work/days-$n.ndjson" -q 2>/dev/null
    "$BIN" sleep "$input" --format omh --output "$work/sleep-$n.ndjson" -q 2>/dev/null
    outputs+=("$work/convert-$n.ndjson" "$work/days-$n.ndjson" "$work/sleep-$n.ndjson")
done
# A query on standard output, and a de-identified conversion.
"$BIN" query SampleData/export.zip --type HKQuantityTypeIdentifierHeartRate --format omh -q > "$work/query.ndjson"
"$BIN" convert SampleData/export.zip --deidentify "$work/key" --format omh --output "$work/deidentified.ndjson" -q 2>/dev/null
outputs+=("$work/query.ndjson" "$work/deidentified.ndjson")
if [ ${#SAMPLE_DIRS[@]} -gt 0 ]; then
    while IFS= read -r -d '' f; do
        n=$((n + 1))
        "$BIN" convert "$f" --format omh --output "$work/sample-$n.ndjson" -q 2>/dev/null
        "$BIN" sleep "$f" --format omh --output "$work/sample-$n-sleep.ndjson" -q 2>/dev/null
        outputs+=("$work/sample-$n.ndjson" "$work/sample-$n-sleep.ndjson")
    done < <(find "${SAMPLE_DIRS[@]}" -type f \( -name '*.xml' -o -name '*.zip' \) ! -name '*.dtd' -print0 | sort -z)
fi
for f in "${outputs[@]}"; do
    [ -s "$f" ] || [[ "$f" == *sample-* ]] || { echo "FAIL: $f is empty"; exit 1; }
done
"$VENV/bin/python" Scripts/omh/validate_points.py "$SCHEMAS" "${outputs[@]}"

# De-identified: no source or device name, serial or version of the original is left.
for name in "Apple Watch de Nicol" "iPhone de Nicol" "Watch6,2"; do
    if grep -q "$name" "$work/deidentified.ndjson"; then echo "FAIL: de-identified data points name $name"; exit 1; fi
done
grep -q "Apple Watch de Nicol" "$work/convert-1.ndjson" || { echo "FAIL: the sample's own points lack its source name (the check above proves nothing)"; exit 1; }
# Whose data: every de-identified point's user_id is the person's pseudonym (validate_points.py
# has checked it is the same on every line), never the id derived from the birth date.
grep -q '"user_id":"person-' "$work/deidentified.ndjson" || { echo "FAIL: the de-identified points' user_id is not the person's pseudonym"; exit 1; }

# One night worked by hand (a watch's stages in Paris, in bed 22:30 to 06:45):
#   core 23:00-01:00 7200 s, deep 01:00-02:00 3600 s, awake 02:00-02:15 900 s,
#   REM 02:15-03:00 2700 s, core 03:00-06:30 12600 s.
#   asleep = 7200 + 3600 + 2700 + 12600 = 26100 s; core 19800, deep 3600, REM 2700, awake 900;
#   in bed 22:30 to 06:45 = 29700 s; the episode runs from onset 23:00 to final awakening 06:30,
#   27000 s, so efficiency = 26100 / 27000 = 96.67 %, 96.7 to one decimal. The night is 2024-01-16.
night="$work/night.xml"
record() { printf '<Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="W" startDate="2024-01-%s +0100" endDate="2024-01-%s +0100" value="HKCategoryValueSleepAnalysis%s"><MetadataEntry key="HKTimeZone" value="Europe/Paris"/></Record>\n' "$1" "$2" "$3"; }
{
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n<ExportDate value="2024-02-01 10:00:00 +0100"/>\n'
    record "15 22:30:00" "16 06:45:00" InBed
    record "15 23:00:00" "16 01:00:00" AsleepCore
    record "16 01:00:00" "16 02:00:00" AsleepDeep
    record "16 02:00:00" "16 02:15:00" Awake
    record "16 02:15:00" "16 03:00:00" AsleepREM
    record "16 03:00:00" "16 06:30:00" AsleepCore
    printf '</HealthData>\n'
} > "$night"
"$BIN" sleep "$night" --format omh -q > "$work/night-omh.ndjson"
"$BIN" sleep "$night" --format json -q > "$work/night.json"
"$VENV/bin/python" Scripts/omh/validate_points.py "$SCHEMAS" "$work/night-omh.ndjson"
"$VENV/bin/python" - "$work/night-omh.ndjson" "$work/night.json" <<'PY'
import json, sys
points = [json.loads(line) for line in open(sys.argv[1])]
nights = json.load(open(sys.argv[2]))
assert len(points) == 1 and len(nights) == 1, (len(points), len(nights))
body, night = points[0]["body"], nights[0]
expected = {
    "effective_time_frame": {"time_interval": {"start_date_time": "2024-01-15T23:00:00+01:00", "end_date_time": "2024-01-16T06:30:00+01:00"}},
    "total_sleep_time": {"value": 26100, "unit": "sec"},
    "is_main_sleep": True,
    "sleep_maintenance_efficiency_percentage": {"value": 96.7, "unit": "%"},
    "healthport_sleep_stages": {
        "in_bed": {"value": 29700, "unit": "sec"}, "asleep_unspecified": {"value": 0, "unit": "sec"},
        "asleep_core": {"value": 19800, "unit": "sec"}, "asleep_deep": {"value": 3600, "unit": "sec"},
        "asleep_rem": {"value": 2700, "unit": "sec"}, "awake": {"value": 900, "unit": "sec"},
    },
}
if body != expected:
    sys.exit(f"FAIL: the night's episode is not the one worked by hand:\n  {json.dumps(body)}\n  {json.dumps(expected)}")
same = (night["night"] == "2024-01-16" and night["asleep"] == 26100 and night["inBed"] == 29700 and night["awake"] == 900
        and night["sleepStart"] == "2024-01-15T23:00:00+01:00" and night["sleepEnd"] == "2024-01-16T06:30:00+01:00")
if not same:
    sys.exit(f"FAIL: healthport sleep's night differs from the one worked by hand: {json.dumps(night)}")
print("ok: the night worked by hand is sleep's night and its Open mHealth episode")
PY

# Each day's steps: the step-count point is the day table's figure.
"$BIN" days "$work/generated.zip" --format json -q > "$work/days.json"
"$VENV/bin/python" - "$work/days-2.ndjson" "$work/days.json" <<'PY'
import json, sys
steps = {}
for line in open(sys.argv[1]):
    point = json.loads(line)
    if point["header"]["schema_id"]["name"] == "step-count":
        day = point["body"]["effective_time_frame"]["time_interval"]["start_date_time"][:10]
        assert day not in steps, day
        steps[day] = point["body"]["step_count"]["value"]
table = {row["date"]: row["steps"] for row in json.load(open(sys.argv[2])) if row.get("steps") is not None}
if not table or steps != table:
    sys.exit(f"FAIL: the step-count points ({len(steps)} days) differ from days' steps ({len(table)} days)")
print(f"ok: {len(steps)} days' step-count points equal healthport days' steps")
PY

# Health Connect's fixture, worked by hand from its rows (as HealthConnectCommandTests works them):
# steps under its priority rule (Samsung Health above Google Fit, the pedometer on no list) are
# 1610 on 2026-01-05, 410 on the 6th, 1130 on the 7th; the night's session 23:00-07:00 (+01:00) has
# light 23:15-01:00 and 03:30-06:30 (17100 s), deep 01:00-02:30 (5400 s), REM 02:30-03:30 (3600 s),
# awake 23:00-23:15 and 06:30-07:00 (2700 s): 26100 s asleep from onset 23:15 to awakening 06:30,
# a span of 26100 s, 100 %. (convert-3, days-3 and sleep-3 are Health Connect's, validated above.)
"$VENV/bin/python" - "$work/days-3.ndjson" "$work/sleep-3.ndjson" "$work/convert-3.ndjson" <<'PY'
import json, sys
steps = {}
for line in open(sys.argv[1]):
    point = json.loads(line)
    if point["header"]["schema_id"]["name"] == "step-count":
        steps[point["body"]["effective_time_frame"]["time_interval"]["start_date_time"]] = point["body"]["step_count"]["value"]
expected = {"2026-01-05T00:00:00+01:00": 1610, "2026-01-06T00:00:00+01:00": 410, "2026-01-07T00:00:00+01:00": 1130}
if steps != expected:
    sys.exit(f"FAIL: Health Connect's days' step-count points are not the ones worked by hand: {steps}")
episodes = [json.loads(line) for line in open(sys.argv[2])]
body = episodes[0]["body"] if len(episodes) == 1 else {}
frame = body.get("effective_time_frame", {}).get("time_interval")
if (frame != {"start_date_time": "2026-01-05T23:15:00+01:00", "end_date_time": "2026-01-06T06:30:00+01:00"}
        or body.get("total_sleep_time") != {"value": 26100, "unit": "sec"}
        or body.get("sleep_maintenance_efficiency_percentage") != {"value": 100, "unit": "%"}):
    sys.exit(f"FAIL: Health Connect's night is not the episode worked by hand: {json.dumps(episodes)}")
# A record keeps Health Connect's uuid: steps-1, Samsung Health's 600 steps over 08:00-09:00.
points = {json.loads(line)["header"]["uuid"].upper(): json.loads(line) for line in open(sys.argv[3])}
first = points.get("ED31C3CF-3F56-5394-94F1-4B8E9822C2AB", {}).get("body", {})
if first.get("step_count") != {"value": 600, "unit": "steps"}:
    sys.exit(f"FAIL: Health Connect's steps-1 is not a 600-step point: {first}")
print("ok: Health Connect's days, night and a record worked by hand are its Open mHealth points")
PY
