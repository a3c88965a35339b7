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
# by hand, against `days`) and the nights of `sleep --format fhir`.
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
if [c["code"] for c in day["category"][0]["coding"]] != ["activity"] or table.get("2024-01-16") != 4850:
    sys.exit(f"FAIL: category or healthport days' steps differ: {day['category']}, {table}")
if {d: o["valueQuantity"]["value"] for d, o in steps.items()} != table:
    sys.exit(f"FAIL: the daily Observations differ from days: {steps.keys()} {table}")
print("ok: the day worked by hand is days' steps and its Physical Activity IG Observation")
PY
