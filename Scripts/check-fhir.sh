#!/usr/bin/env bash
# Reads healthport's FHIR output with a reader no one here wrote: the fhir.resources package from
# PyPI (its R4B models, pydantic; R4 itself is not among the versions it ships), installed into a
# venv under .build/ (HEALTHPORT_FHIR_VENV names another). Every line of every file must validate
# (Scripts/fhir/validate_bulk.py: required elements, types, value patterns, no unknown elements;
# each file one resource type; references healthport writes resolve; the manifest's counts) for:
# the bundled sample, generated exports (30 days and a year), every real export in
# ../shared/samples, the clinical-record fixture (R4 passed through, DSTU2 carried in a
# DocumentReference), the Observations on standard output, a diff with deletions, a
# partitioned conversion, a de-identified conversion and one under a policy that hides the
# characteristics (every Observation's subject the folder's one Patient), the daily Observations of `days --format fhir` (with a day worked
# by hand, against `days`) and the nights of `sleep --format fhir`, of Apple's exports and of Health
# Connect's (a day's steps under its priority rule worked by hand), and the days and nights beside
# the samples (`convert --format fhir --summaries`, in a folder and in a lake).
#
#   Scripts/check-fhir.sh [HEALTHPORT] [GENERATE_EXPORT]
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/samples.sh
BIN="${1:-.build/debug/healthport}"
GEN="${2:-.build/debug/generate-export}"
VENV="${HEALTHPORT_FHIR_VENV:-.build/fhir-venv}"
# Pinned to the major version checked (8.x, with 8.3.0): the models' module layout (R4B under
# fhir.resources.R4B) is what the validator imports. A venv holding another version is brought to
# the range; pip does nothing when it is in.
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet 'fhir.resources>=8,<9'
# .ci/prepare-checks stops here (HEALTHPORT_CHECK_PREPARE): what this check installs is in place.
[ -z "${HEALTHPORT_CHECK_PREPARE:-}" ] || exit 0
echo "fhir.resources $("$VENV/bin/python" -c 'import fhir.resources; print(fhir.resources.__version__)') (R4B models)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

inputs=(SampleData/export.zip Tests/Fixtures/clinical-records/apple_health_export)
"$GEN" --days 30 --zip "$work/generated-30d.zip" >/dev/null
"$GEN" --days 365 --seed 7 --output "$work/generated-1y.xml" >/dev/null
inputs+=("$work/generated-30d.zip" "$work/generated-1y.xml")
# Android's Health Connect export (the repository's fixture, made by its script).
python3 Scripts/healthconnect/make-fixture.py "$work/health-connect" > /dev/null
inputs+=("$work/health-connect/health_connect_export.zip")
if [ ${#SAMPLE_DIRS[@]} -gt 0 ]; then
    while IFS= read -r -d '' f; do inputs+=("$f"); done < <(find "${SAMPLE_DIRS[@]}" -type f \( -name '*.xml' -o -name '*.zip' \) ! -name '*.dtd' -print0 | sort -z)
    inputs+=("$SAMPLES/dogsheep-healthkit-to-sqlite/zip_contents")
fi

outputs=()
n=0
for input in "${inputs[@]}"; do
    n=$((n + 1))
    out="$work/out-$n"
    "$BIN" convert "$input" --format fhir --output "$out" -q
    outputs+=("$out")
done
# The Observations alone on standard output.
"$BIN" convert SampleData/export.zip --format fhir -q > "$work/stdout.ndjson"
outputs+=("$work/stdout.ndjson")
# Changes: additions one way, deletions the other.
"$BIN" diff SampleData/export-older.zip SampleData/export.zip --format fhir --output "$work/diff-added" -q
"$BIN" diff SampleData/export.zip SampleData/export-older.zip --format fhir --output "$work/diff-deleted" -q
[ -s "$work/diff-deleted/deleted.ndjson" ] || { echo "FAIL: the reversed diff wrote no deletions"; exit 1; }
outputs+=("$work/diff-added" "$work/diff-deleted")
# Partitions: one resource type per file.
"$BIN" convert SampleData/export.zip Tests/Fixtures/clinical-records/apple_health_export --partition person,type --format fhir --output "$work/lake" -q
while IFS= read -r -d '' f; do outputs+=("$f"); done < <(find "$work/lake" -name 'part-*.ndjson' -print0 | sort -z)

# Whose data: a de-identified conversion (the Patient is the person's pseudonym) and one under a
# policy that hides the characteristics (a Patient that shows nothing): every Observation still
# has the Patient as its subject, the folder's one Patient.
"$BIN" convert "$work/generated-30d.zip" --format fhir --deidentify "$work/study.key" --output "$work/deidentified" -q 2>/dev/null
printf '{"version": 1, "consumer": {"name": "Steps"}, "read": {"HKQuantityTypeIdentifierStepCount": "granted"}}\n' > "$work/steps-policy.json"
"$BIN" convert SampleData/export.zip --format fhir --policy "$work/steps-policy.json" --output "$work/hidden" -q
outputs+=("$work/deidentified" "$work/hidden")
grep -q '"id":"person-' "$work/deidentified/Patient.ndjson" || { echo "FAIL: the de-identified Patient is not the person's pseudonym"; exit 1; }
[ "$(cat "$work/hidden/Patient.ndjson")" = '{"resourceType":"Patient","id":"D6568933-1984-8699-8A74-AD094ED81941"}' ] \
    || { echo "FAIL: the Patient under a policy that hides the characteristics is not the one that shows nothing"; exit 1; }

# Daily Observations (days --format fhir) and nights (sleep --format fhir): the sample's and a year's.
"$BIN" days SampleData/export.zip --format fhir -q > "$work/days-sample.ndjson"
"$BIN" days "$work/generated-1y.xml" --format fhir -q > "$work/days-1y.ndjson"
"$BIN" sleep SampleData/export.zip --format fhir -q > "$work/nights-sample.ndjson"
"$BIN" sleep "$work/generated-1y.xml" --format fhir -q > "$work/nights-1y.ndjson"
outputs+=("$work/days-sample.ndjson" "$work/days-1y.ndjson" "$work/nights-sample.ndjson" "$work/nights-1y.ndjson")
# Health Connect's days and night.
hc="$work/health-connect/health_connect_export.zip"
"$BIN" days "$hc" --format fhir -q > "$work/days-hc.ndjson"
"$BIN" sleep "$hc" --format fhir -q > "$work/nights-hc.ndjson"
[ -s "$work/nights-hc.ndjson" ] || { echo "FAIL: Health Connect's night wrote no Observation"; exit 1; }
outputs+=("$work/days-hc.ndjson" "$work/nights-hc.ndjson")
# The days and nights beside the samples: a folder (the sample's, Health Connect's, de-identified)
# and a lake.
"$BIN" convert SampleData/export.zip --format fhir --summaries --output "$work/summaries-sample" -q
"$BIN" convert "$hc" --format fhir --summaries --output "$work/summaries-hc" -q
"$BIN" convert "$work/generated-30d.zip" --format fhir --summaries --deidentify "$work/study.key" --output "$work/summaries-deidentified" -q 2>/dev/null
"$BIN" convert SampleData/export.zip SampleData/export-older.zip --partition person,type --format fhir --summaries --output "$work/summaries-lake" -q
outputs+=("$work/summaries-sample" "$work/summaries-hc" "$work/summaries-deidentified")
while IFS= read -r -d '' f; do outputs+=("$f"); done < <(find "$work/summaries-lake" -name 'part-*.ndjson' -print0 | sort -z)

"$VENV/bin/python" Scripts/fhir/validate_bulk.py "${outputs[@]}"

# A day worked by hand: three step samples in Paris on 2024-01-16, 1200 + 3400 + 250 = 4850
# steps, and one the next day; the day's Observation (LOINC 41950-7, /d, effective the day) is
# 4850, as healthport days says.
day="$work/day.xml"
step() { printf '<Record type="HKQuantityTypeIdentifierStepCount" sourceName="P" unit="count" startDate="2024-01-%s +0100" endDate="2024-01-%s +0100" value="%s"><MetadataEntry key="HKTimeZone" value="Europe/Paris"/></Record>\n' "$1" "$2" "$3"; }
{
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n<ExportDate value="2024-02-01 10:00:00 +0100"/>\n'
    step "16 08:00:00" "16 08:30:00" 1200
    step "16 12:00:00" "16 13:00:00" 3400
    step "16 23:00:00" "16 23:10:00" 250
    step "17 09:00:00" "17 09:20:00" 900
    printf '</HealthData>\n'
} > "$day"
"$BIN" days "$day" --format fhir -q > "$work/day-fhir.ndjson"
"$BIN" days "$day" --format json -q > "$work/day.json"
"$VENV/bin/python" Scripts/fhir/validate_bulk.py "$work/day-fhir.ndjson"
"$VENV/bin/python" - "$work/day-fhir.ndjson" "$work/day.json" <<'PY'
import json, sys
observations = [json.loads(line) for line in open(sys.argv[1])]
table = {row["date"]: row["steps"] for row in json.load(open(sys.argv[2]))}
steps = {o["effectiveDateTime"]: o for o in observations if o["code"]["coding"][0]["code"] == "41950-7"}
day = steps.get("2024-01-16")
if day is None or day["valueQuantity"] != {"value": 4850, "unit": "steps/day", "system": "http://unitsofmeasure.org", "code": "/d"}:
    sys.exit(f"FAIL: the day's steps Observation is not the one worked by hand: {day}")
# FHIR's activity category and the guide's own PhysicalActivity, as its PAObservationBase requires.
if [c["coding"][0]["code"] for c in day["category"]] != ["activity", "PhysicalActivity"] or table.get("2024-01-16") != 4850:
    sys.exit(f"FAIL: category or healthport days' steps differ: {day['category']}, {table}")
if {d: o["valueQuantity"]["value"] for d, o in steps.items()} != table:
    sys.exit(f"FAIL: the daily Observations differ from days: {steps.keys()} {table}")
print("ok: the day worked by hand is days' steps and its Physical Activity IG Observation")
PY

# Health Connect's days, worked by hand from the fixture's rows (Scripts/healthconnect/make-fixture.py,
# as HealthConnectCommandTests works them): on 2026-01-05 Samsung Health (first on the priority list)
# 600 steps over 08:00-09:00 and Google Fit 900 over 08:30-09:30 give 300 + 300 + 450; the pedometer's
# 5000 (no list) counts nothing; Samsung 300 at noon, Fit 200 at 18:00, Samsung's 60 before midnight:
# 1610. The 6th: 60 + 350 = 410; the 7th: 1000 + 50 + 80 = 1130. The daily Observations (days and
# convert --summaries alike) carry these, as healthport days does.
"$BIN" days "$hc" --format json -q > "$work/days-hc.json"
"$VENV/bin/python" - "$work/days-hc.ndjson" "$work/summaries-hc/Observation.ndjson" "$work/days-hc.json" <<'PY'
import json, sys
expected = {"2026-01-05": 1610, "2026-01-06": 410, "2026-01-07": 1130}
table = {row["date"]: row["steps"] for row in json.load(open(sys.argv[3])) if row.get("steps") is not None}
if table != expected:
    sys.exit(f"FAIL: healthport days' Health Connect steps are not the ones worked by hand: {table}")
for path in sys.argv[1:3]:
    steps = {}
    for line in open(path):
        o = json.loads(line)
        if o["code"]["coding"][0]["code"] == "41950-7":
            steps[o["effectiveDateTime"]] = o["valueQuantity"]["value"]
    if steps != expected:
        sys.exit(f"FAIL: {path}: the days' steps Observations are not the ones worked by hand: {steps}")
print("ok: Health Connect's days worked by hand are days' steps and their daily Observations, alone and beside the samples")
PY
