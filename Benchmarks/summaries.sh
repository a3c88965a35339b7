#!/usr/bin/env bash
# The summary tables' cost (issues 38 and 48): `healthport summary`, `sleep`, `days` and
# `workouts`, and a CSV conversion with --summaries, as ratios to the NDJSON conversion of the
# same export run side by side with each (measure.py's REFERENCE), with peak memory, on the
# 1-year and 4-year exports. Every command is given the zone (--tz), the reference too, so that
# no run reads the export a first time for it (`PersonZone`).
# Targets: the summary in at most 1.3x the NDJSON conversion and `days` in at most 1.2x (same
# cores), peak RSS under 64 MB and the same for both exports.
# Then samples of nearly ten years (the longest a summary counts; issue 49, item 6): 1,000 and
# 4,000 of them, with `summary` and `stats --interval day`; peak RSS the same for both.
#
#   Benchmarks/summaries.sh          # RUNS=3 by default
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
WORK="Benchmarks/work"
mkdir -p "$WORK"
. Benchmarks/release-build.sh
measure() { python3 Benchmarks/measure.py "$RUNS" "$@"; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }

printf '%-6s %-22s %9s %12s %12s\n' export task seconds "/ ndjson" "peak RSS MB"
for years in 1 4; do
    file="$WORK/export-${years}y-d1.xml"
    [ -s "$file" ] || "$BIN/generate-export" --days $((365 * years)) --no-forbidden-characters --output "$file" >/dev/null
    for jobs in 1 2; do
        export REFERENCE
        REFERENCE="$(printf '%q ' "$BIN/healthport" convert "$file" --format ndjson --quiet --tz Europe/Paris --jobs "$jobs")"
        for task in summary days sleep workouts convert-summaries; do
            case "$task" in
                summary) result=$(measure "$BIN/healthport" summary "$file" --quiet --format csv --tz Europe/Paris --jobs "$jobs") ;;
                days) result=$(measure "$BIN/healthport" days "$file" --quiet --format csv --tz Europe/Paris --jobs "$jobs") ;;
                workouts) result=$(measure "$BIN/healthport" workouts "$file" --quiet --format csv --tz Europe/Paris --jobs "$jobs") ;;
                sleep) result=$(measure "$BIN/healthport" sleep "$file" --quiet --format csv --tz Europe/Paris --jobs "$jobs") ;;
                convert-summaries)
                    rm -rf "$WORK/summaries-out"
                    result=$(measure "$BIN/healthport" convert "$file" --quiet --format csv --summaries --tz Europe/Paris --jobs "$jobs" --output "$WORK/summaries-out")
                    ;;
            esac
            python3 -c "import json,sys; r=json.loads(sys.argv[1]); print('%-6s %-22s %9.2f %11.2fx %12.1f' % (sys.argv[2], sys.argv[3], r['seconds'], r['seconds']/r['reference_seconds'], r['peak_rss_mb']))" \
                "$result" "${years}y" "$task (ndjson -j$jobs)"
        done
    done
done
rm -rf "$WORK/summaries-out"

# Samples of nearly ten years, overlapping: the time grows with days × samples (every day's
# merge sees every sample), the memory must not.
long_export() {
    python3 - "$1" "$2" <<'PY'
import sys
count, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2024-01-01 00:00:00 +0000"/>\n')
    for i in range(count):
        f.write(' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="App %d" unit="count" '
                'creationDate="2024-01-01 00:00:00 +0000" startDate="2014-01-0%d 00:00:%02d +0000" '
                'endDate="2023-12-20 00:00:00 +0000" value="%d"/>\n' % (i % 7, 1 + i % 9, i % 60, i))
    f.write("</HealthData>\n")
PY
}
printf '\n%-6s %-22s %9s %12s\n' samples task seconds "peak RSS MB"
for count in 1000 4000; do
    file="$WORK/long-spans-$count.xml"
    [ -s "$file" ] || long_export "$count" "$file"
    export REFERENCE=""
    for task in summary stats; do
        case "$task" in
            summary) result=$(measure "$BIN/healthport" summary "$file" --quiet --format csv --tz UTC) ;;
            stats) result=$(measure "$BIN/healthport" stats "$file" --type steps --interval day --quiet --format csv --tz UTC) ;;
        esac
        python3 -c "import json,sys; r=json.loads(sys.argv[1]); print('%-6s %-22s %9.2f %12.1f' % (sys.argv[2], sys.argv[3], r['seconds'], r['peak_rss_mb']))" \
            "$result" "$count" "$task"
    done
done
