#!/usr/bin/env bash
# De-identification's cost (issue 43): `healthport convert --format ndjson --deidentify KEY` of the
# generated 1-year and 4-year exports, as a ratio to the plain NDJSON conversion run side by side
# with it (measure.py's REFERENCE), on one core and on two, with peak memory. Target: within 1.2x
# of plain NDJSON on the 4-year export.
#
#   Benchmarks/deidentify.sh          # RUNS=3 by default
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
WORK="Benchmarks/work"
mkdir -p "$WORK"
. Benchmarks/release-build.sh
measure() { python3 Benchmarks/measure.py "$RUNS" "$@"; }
KEY="$WORK/deidentify-bench.key"

printf '%-6s %-28s %9s %12s %12s\n' export task seconds "/ ndjson" "peak RSS MB"
for years in 1 4; do
    file="$WORK/export-${years}y-d1.xml"
    [ -s "$file" ] || "$BIN/generate-export" --days $((365 * years)) --no-forbidden-characters --output "$file" >/dev/null
    for jobs in 1 2; do
        export REFERENCE
        REFERENCE="$(printf '%q ' "$BIN/healthport" convert "$file" --format ndjson --quiet --jobs "$jobs")"
        result=$(measure "$BIN/healthport" convert "$file" --format ndjson --quiet --jobs "$jobs" --deidentify "$KEY")
        python3 -c "import json,sys; r=json.loads(sys.argv[1]); print('%-6s %-28s %9.2f %11.2fx %12.1f' % (sys.argv[2], sys.argv[3], r['seconds'], r['seconds']/r['reference_seconds'], r['peak_rss_mb']))" \
            "$result" "${years}y" "deidentified ndjson -j$jobs"
    done
done
