#!/usr/bin/env bash
# Runs the seeds' own HealthKit code (Examples/HealthKitPortSeeds: Apple's documentation code,
# `import HealthKitPort` and the store's opening line changed) against the bundled sample, as an
# export and as a store, and checks what it prints against the CLI on the same data: the newest
# prescription (`healthport query`), daily step sums (`healthport stats`, days in UTC as the
# seed's anchor date), and the step samples the anchored batch loop reads (`healthport query
# --store`).
#
#   Scripts/check-seeds.sh [path/to/healthport [path/to/healthkitport-seeds]]
set -euo pipefail
cd "$(dirname "$0")/.."
HEALTHPORT="${1:-.build/debug/healthport}"
SEEDS="${2:-.build/debug/healthkitport-seeds}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failures=0
check() {  # what got expected
    if [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL $1: '$2', expected '$3'"; failures=$((failures + 1)); fi
}

"$HEALTHPORT" import SampleData/export.zip --store "$WORK/health.sqlite" -q >/dev/null
"$SEEDS" SampleData/export.zip > "$WORK/export.out"
"$SEEDS" "$WORK/health.sqlite" > "$WORK/store.out"

newest=$("$HEALTHPORT" query SampleData/export.zip --type VisionPrescription --sort startDate:desc --limit 1 -q | jq -r 'select(.kind == "visionPrescription") | .uuid')
for out in export store; do
    check "$out: the newest prescription" "$(sed -n 's/^newest prescription: \([0-9A-F-]*\) .*/\1/p' "$WORK/$out.out")" "$newest"
    expected=$("$HEALTHPORT" stats SampleData/export.zip --type StepCount --interval day --tz UTC --format csv -q | sed -n '2,4p' | cut -d, -f1,3 | sed 's/T00:00:00+00:00,/ /')
    got=$(sed -n 's/^steps on \([0-9-]*\)T00:00:00Z: \([0-9]*\)$/\1 \2/p' "$WORK/$out.out")
    check "$out: daily step sums (stats, UTC days)" "$got" "$expected"
done
check "store: step samples read in anchored batches" "$(sed -n 's/^step samples read in batches of 100: //p' "$WORK/store.out")" \
    "$("$HEALTHPORT" query --store "$WORK/health.sqlite" --type StepCount | grep -c '"kind":"quantitySample"')"

[ "$failures" = 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "The seeds' HealthKit code answers as the CLI does"
