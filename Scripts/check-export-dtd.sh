#!/usr/bin/env bash
# Validates what `healthport convert --format export` writes against Apple's own DTD, the one the
# Health app's exporter writes into export.xml (docs/reference/apple-export-13.dtd, copied from a
# real export's header), with `xmllint --dtdvalid`: not against the DTD healthport writes into
# the file, which Scripts/check-formats.sh checks with `xmllint --valid`.
#
#   Scripts/check-export-dtd.sh [path/to/healthport]
#
# For the bundled sample and every real export in ../shared/samples that has a header
# (fragments have no ExportDate or locale, which the DTD requires):
#   1. every type but workouts, and what a policy lets through, must be valid as they are;
#   2. with workouts, the only errors allowed are where Apple's own exports do not follow Apple's
#      DTD, as healthport's DTD (Sources/HealthOutput/Export/ExportDTD.swift) widens it: a
#      WorkoutActivity inside a Workout, events and statistics inside a WorkoutActivity (iOS 16
#      and later write both; docs/reference/export-format.md section 3.11), and the inline Location
#      points of a legacy WorkoutRoute (iOS 12, declared by Export Version 8's DTD).
# Element kinds healthport does not know pass through as Apple wrote them; no DTD declares them,
# so they are left out here, as are type names that are no HealthKit identifier (a clinical
# record of type "Patient"), which --type does not take.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/samples.sh
BIN="${1:-.build/debug/healthport}"
DTD=docs/reference/apple-export-13.dtd
command -v xmllint > /dev/null || { echo "check-export-dtd.sh: xmllint not found (apt-get install libxml2-utils)" >&2; exit 69; }
command -v jq > /dev/null || { echo "check-export-dtd.sh: jq not found (apt-get install jq)" >&2; exit 69; }
[ -x "$BIN" ] || { echo "check-export-dtd.sh: no healthport at $BIN (swift build)" >&2; exit 69; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

inputs=(SampleData/export.zip)
if [ ${#SAMPLE_DIRS[@]} -gt 0 ]; then
    while IFS= read -r -d '' f; do inputs+=("$f"); done < <(find "${SAMPLE_DIRS[@]}" -type f \( -name '*.xml' -o -name '*.zip' \) ! -name '*.dtd' -print0 | sort -z)
    inputs+=("$SAMPLES/dogsheep-healthkit-to-sqlite/zip_contents")
fi

# A consumer granted a few types and one characteristic (healthport-policy(5)).
echo '{"version": 1, "consumer": {"name": "DTD check"}, "read": {"StepCount": "granted", "HeartRate": "granted", "SleepAnalysis": "granted", "BiologicalSex": "granted"}}' > "$work/policy.json"

failed=0
exports=0
widened=0
# validate NAME FILE: xmllint's validity errors against Apple's DTD, one a line, in $work/NAME.errors.
validate() {
    xmllint --noout --dtdvalid "$DTD" "$2" 2> "$work/$1.log" && { : > "$work/$1.errors"; return 0; }
    grep 'validity error' "$work/$1.log" > "$work/$1.errors" || true
    # Anything else (not well-formed, a DTD that does not parse) is a failure of its own.
    if [ ! -s "$work/$1.errors" ]; then cat "$work/$1.log" >&2; echo "x" > "$work/$1.errors"; fi
    return 1
}
for input in "${inputs[@]}"; do
    "$BIN" convert "$input" --format ndjson -q 2> /dev/null | head -n 1 > "$work/header.ndjson" || true
    jq -e 'select(.kind == "export") | .exportDate' < "$work/header.ndjson" > /dev/null 2>&1 || continue
    exports=$((exports + 1))
    "$BIN" types "$input" --format json -q > "$work/types.json"
    # Every type the export holds that Apple's DTD declares, workouts (and their routes) apart.
    strict="$(jq -r '[.types[] | select(.count > 0 and (.known or .kind != "other") and (.identifier | startswith("HK"))
        and .identifier != "HKWorkoutTypeIdentifier" and .identifier != "HKWorkoutRouteTypeIdentifier") | .identifier] | join(",")' "$work/types.json")"
    withWorkouts="$(jq -r '[.types[] | select(.count > 0 and (.known or .kind != "other") and (.identifier | startswith("HK"))) | .identifier] | join(",")' "$work/types.json")"

    if [ -n "$strict" ]; then
        "$BIN" convert "$input" --format export --type "$strict" -q > "$work/strict.xml"
        validate strict "$work/strict.xml" || { echo "FAIL Apple's DTD, every type but workouts: $input"; head -n 5 "$work/strict.errors"; failed=$((failed + 1)); }
    fi
    "$BIN" convert "$input" --format export --policy "$work/policy.json" -q > "$work/policy.xml"
    validate policy "$work/policy.xml" || { echo "FAIL Apple's DTD, under a policy: $input"; head -n 5 "$work/policy.errors"; failed=$((failed + 1)); }

    [ -n "$withWorkouts" ] || continue
    "$BIN" convert "$input" --format export --type "$withWorkouts" -q > "$work/all.xml"
    if ! validate all "$work/all.xml"; then
        unexplained="$(grep -v -E \
            -e 'element Workout: validity error : Element Workout content does not follow the DTD, expecting \(MetadataEntry \| WorkoutEvent \| WorkoutRoute \| WorkoutStatistics\)\*, got \(.*WorkoutActivity' \
            -e 'element WorkoutActivity: validity error : Element WorkoutActivity content does not follow the DTD, expecting \(MetadataEntry\)\*, got \((MetadataEntry |WorkoutEvent |WorkoutStatistics )*\)' \
            -e 'element WorkoutRoute: validity error : Element WorkoutRoute content does not follow the DTD, expecting \(MetadataEntry \| FileReference\)\*, got \((MetadataEntry |Location )*\)' \
            -e 'element Location: validity error : No declaration for (element Location|attribute [A-Za-z]+ of element Location)' \
            "$work/all.errors" || true)"
        if [ -n "$unexplained" ]; then
            echo "FAIL Apple's DTD, with workouts: errors other than the documented widenings: $input"
            printf '%s\n' "$unexplained" | head -n 5 | cut -c 1-300
            failed=$((failed + 1))
        else
            n="$(wc -l < "$work/all.errors")"
            widened=$((widened + n))
            echo "ok   $input: with workouts, $n elements where Apple's exports go beyond Apple's DTD (activities, legacy route points)"
        fi
    fi
    echo "ok   $input: valid against Apple's DTD (every type but workouts; under a policy)"
done
[ "$exports" -gt 0 ] || { echo "check-export-dtd.sh: no export with a header among the inputs"; exit 1; }
if [ "$failed" -gt 0 ]; then
    echo "check-export-dtd.sh: $failed failures"
    exit 1
fi
echo "healthport's export format valid against Apple's DTD (xmllint --dtdvalid $DTD): $exports exports; $widened elements only in the documented widenings"
