#!/usr/bin/env bash
# The report's benchmark (issue 26's targets), on the 4-year synthetic export: the report's time
# as a ratio to the NDJSON conversion's (both read the same file with their default threads; the
# conversion runs before every run of the report, as measure.py's REFERENCE, so the ratio is of
# two bests taken side by side), the report's peak RSS, and its size.
#
#   Benchmarks/report.sh                  # release build, 4-year export, 3 runs each, best of
#   RUNS=1 YEARS=10 Benchmarks/report.sh
#   CONFIGURATION=debug Benchmarks/report.sh   # without a release build (ratios only indicative)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
DENSITY="${DENSITY:-1}"
YEARS="${YEARS:-4}"
CONFIGURATION="${CONFIGURATION:-release}"
WORK="Benchmarks/work"
mkdir -p "$WORK"

swift build -c "$CONFIGURATION" --product healthport >/dev/null
swift build -c "$CONFIGURATION" --product generate-export >/dev/null
BIN="$(swift build -c "$CONFIGURATION" --show-bin-path)"

file="$WORK/export-${YEARS}y-d${DENSITY}.xml"
if [ ! -s "$file" ]; then
    "$BIN/generate-export" --days $((365 * YEARS)) --density "$DENSITY" --no-forbidden-characters --output "$file" >/dev/null
fi
report="$WORK/report-${YEARS}y-d${DENSITY}.html"

measure() { python3 Benchmarks/measure.py "$RUNS" "$@"; }
export REFERENCE
REFERENCE="$(printf '%q ' "$BIN/healthport" convert "$file" --format ndjson --quiet)"
result=$(measure "$BIN/healthport" report "$file" --output "$report" --quiet)
unset REFERENCE
ndjson_rss=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['peak_rss_mb'])" \
    "$(RUNS=1 measure "$BIN/healthport" convert "$file" --format ndjson --quiet)")

python3 - "$result" "$(wc -c <"$report")" "$(wc -c <"$file")" "$ndjson_rss" "$YEARS" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
size, export_size, ndjson_rss, years = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
ratio = r["seconds"] / r["reference_seconds"]
print("%-34s %9s" % ("%sy export (export.xml)" % years, "%.1f MB" % (export_size / 1e6)))
print("%-34s %9.2f s" % ("convert --format ndjson", r["reference_seconds"]))
print("%-34s %9.2f s" % ("report", r["seconds"]))
print("%-34s %9.1f MB" % ("peak RSS, ndjson conversion", ndjson_rss))
print()
print("%-34s %9s %9s %5s" % ("targets", "measured", "target", "met"))
for name, value, op, bound in [
    ("report time / NDJSON time", ratio, "<=", 1.5),
    ("report peak RSS, MB", r["peak_rss_mb"], "<", 100),
    ("report size, MB", size / 1e6, "<=", 5),
]:
    met = value <= bound if op == "<=" else value < bound
    print("%-34s %9.2f %9s %5s" % (name, value, "%s %g" % (op, bound), "yes" if met else "no"))
PY
