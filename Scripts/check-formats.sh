#!/usr/bin/env bash
# Reads healthport's output with the tools people use: every NDJSON line with jq and with Python's
# json, the JSON document with Python, and every CSV table with Python's csv module (its JSON
# cells with Python's json), and Apple's export format, filtered by type and by a policy, with
# `xmllint --valid` against the DTD it carries (the `Me` element its DTD requires stays when the
# characteristics are left out), for the bundled sample and every real export in
# ../shared/samples.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/samples.sh
BIN="${1:-.build/debug/healthport}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

inputs=(SampleData/export.zip)
if [ ${#SAMPLE_DIRS[@]} -gt 0 ]; then
    while IFS= read -r -d '' f; do inputs+=("$f"); done < <(find "${SAMPLE_DIRS[@]}" -type f \( -name '*.xml' -o -name '*.zip' \) ! -name '*.dtd' -print0 | sort -z)
    inputs+=("$SAMPLES/dogsheep-healthkit-to-sqlite/zip_contents")
fi

checked=0
failed=0
exports=0
for input in "${inputs[@]}"; do
    if ! "$BIN" convert "$input" --format ndjson -q > "$work/out.ndjson"; then
        echo "FAIL convert ndjson: $input"; failed=$((failed + 1)); continue
    fi
    jq -c . < "$work/out.ndjson" > /dev/null || { echo "FAIL jq: $input"; failed=$((failed + 1)); }
    python3 - "$work/out.ndjson" <<'PY' || { echo "FAIL python json: $input"; failed=$((failed + 1)); }
import json, sys
n = 0
for line in open(sys.argv[1], encoding="utf-8"):
    json.loads(line); n += 1
assert n >= 2, n
PY
    "$BIN" convert "$input" --format json -q > "$work/out.json"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d['objects'], list)" "$work/out.json" \
        || { echo "FAIL json document: $input"; failed=$((failed + 1)); }
    rm -rf "$work/csv"
    "$BIN" convert "$input" --format csv --output "$work/csv" -q
    python3 - "$work/csv" <<'PY' || { echo "FAIL python csv: $input"; failed=$((failed + 1)); }
import csv, json, os, sys
folder = sys.argv[1]
# Cells that hold JSON (healthport-formats(5)): each must be a JSON object on its own.
json_columns = {"metadata", "extensions", "element", "otherCharacteristics"}
for name in os.listdir(folder):
    with open(os.path.join(folder, name), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows, name
    width = len(rows[0])
    assert all(len(r) == width for r in rows), name
    for index, column in enumerate(rows[0]):
        if column not in json_columns and not column.endswith("_extensions"):
            continue
        for row in rows[1:]:
            if row[index]:
                assert isinstance(json.loads(row[index]), dict), (name, column, row[index][:60])
PY
    # Apple's format, for exports that have a header to write (fragments have no ExportDate
    # or locale, which the DTD requires): valid against its own DTD, filtered by type and by a
    # policy that grants no characteristic.
    if jq -e 'select(.kind == "export") | .exportDate' < <(head -n 1 "$work/out.ndjson") > /dev/null 2>&1; then
        "$BIN" convert "$input" --type StepCount,HeartRate,Workout,SleepAnalysis --format export -q > "$work/typed.xml"
        xmllint --valid --noout "$work/typed.xml" || { echo "FAIL xmllint --valid (type filter): $input"; failed=$((failed + 1)); }
        echo '{"version": 1, "consumer": {"name": "Check"}, "read": {"StepCount": "granted", "HeartRate": "granted"}}' > "$work/policy.json"
        "$BIN" convert "$input" --policy "$work/policy.json" --format export -q > "$work/policy.xml"
        xmllint --valid --noout "$work/policy.xml" || { echo "FAIL xmllint --valid (policy): $input"; failed=$((failed + 1)); }
        exports=$((exports + 1))
    fi
    checked=$((checked + 1))
done
echo "Apple's format valid against its DTD (xmllint --valid): $exports exports"
echo "format checks: $checked passed, $failed failed"
[ "$failed" -eq 0 ]
