#!/usr/bin/env bash
# Reads healthport's FHIR output with a reader no one here wrote: the fhir.resources package from
# PyPI (its R4B models, pydantic; R4 itself is not among the versions it ships), installed into a
# venv under .build/ (HEALTHPORT_FHIR_VENV names another). Every line of every file must validate
# (Scripts/fhir/validate_bulk.py: required elements, types, value patterns, no unknown elements;
# each file one resource type; references healthport writes resolve; the manifest's counts) for:
# the bundled sample, generated exports (30 days and a year), every real export in
# ../shared/samples, the clinical-record fixture (R4 passed through, DSTU2 carried in a
# DocumentReference), the Observations on standard output, a diff with deletions, and a
# partitioned conversion.
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

"$VENV/bin/python" Scripts/fhir/validate_bulk.py "${outputs[@]}"
