#!/usr/bin/env bash
# FHIR's benchmark (issue 42's target: --format fhir within 1.5x of NDJSON on the 4-year export,
# memory flat), on the 1-year and 4-year synthetic exports: each FHIR task as a ratio to the
# same NDJSON task run side by side with it (measure.py's REFERENCE runs before every run of the
# task, so the ratio is of two bests taken together on a machine whose speed drifts), one core
# each (--jobs 1), and both tasks' peak RSS.
#   - to standard output: the Observations against NDJSON's objects (output discarded);
#   - to disk: the Bulk Data folder against NDJSON written to a file (both written under a
#     temporary name, synced and renamed into place).
#
#   Benchmarks/fhir.sh                    # release build, 3 runs each, best of
#   RUNS=5 Benchmarks/fhir.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
DENSITY="${DENSITY:-1}"
WORK="Benchmarks/work"
mkdir -p "$WORK"

. Benchmarks/release-build.sh
measure() { python3 Benchmarks/measure.py "$RUNS" "$@"; }

printf '%-4s %-24s %9s %9s %7s %12s %12s\n' export task "NDJSON s" "FHIR s" ratio "NDJSON MB" "FHIR MB"
summary="$WORK/fhir-bench.results"
: > "$summary"
for years in 1 4; do
    file="$WORK/export-${years}y-d${DENSITY}.xml"
    if [ ! -s "$file" ]; then
        "$BIN/generate-export" --days $((365 * years)) --density "$DENSITY" --no-forbidden-characters --output "$file" >/dev/null
    fi
    for task in stdout folder; do
        export REFERENCE
        if [ "$task" = stdout ]; then
            REFERENCE="$(printf '%q ' "$BIN/healthport" convert "$file" --format ndjson --quiet --jobs 1)"
            result=$(measure "$BIN/healthport" convert "$file" --format fhir --quiet --jobs 1)
            reference=$(RUNS=1 measure "$BIN/healthport" convert "$file" --format ndjson --quiet --jobs 1)
        else
            REFERENCE="$(printf '%q ' "$BIN/healthport" convert "$file" --format ndjson --quiet --jobs 1 --output "$WORK/fhir-bench.ndjson")"
            result=$(measure "$BIN/healthport" convert "$file" --format fhir --quiet --jobs 1 --output "$WORK/fhir-bench")
            reference=$(RUNS=1 measure "$BIN/healthport" convert "$file" --format ndjson --quiet --jobs 1 --output "$WORK/fhir-bench.ndjson")
        fi
        unset REFERENCE
        python3 - "$years" "$task" "$result" "$reference" "$summary" <<'PY'
import json, sys
years, task, r, ref = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
ratio = r["seconds"] / r["reference_seconds"]
print("%-4s %-24s %9.2f %9.2f %6.2fx %12.1f %12.1f" % (years + "y", "fhir " + task + " / ndjson", r["reference_seconds"], r["seconds"], ratio,
      ref["peak_rss_mb"], r["peak_rss_mb"]))
with open(sys.argv[5], "a") as f:
    f.write(json.dumps({"years": years, "task": task, "ratio": ratio, "rss": r["peak_rss_mb"], "ndjson_rss": ref["peak_rss_mb"]}) + "\n")
PY
    done
done
rm -rf "$WORK/fhir-bench" "$WORK/fhir-bench.ndjson"

python3 - "$summary" <<'PY'
import json, sys
rows = {(r["years"], r["task"]): r for r in map(json.loads, open(sys.argv[1]))}
def rss(years, key):
    return max(rows[(years, t)][key] for t in ("stdout", "folder"))
print()
print("%-44s %9s %9s %5s" % ("targets (issue 42)", "measured", "target", "met"))
for name, value, op, bound in [
    ("4y: FHIR to standard output / NDJSON", rows[("4", "stdout")]["ratio"], "<=", 1.5),
    ("4y: FHIR folder / NDJSON file", rows[("4", "folder")]["ratio"], "<=", 1.5),
    # Memory flat: what the FHIR writer holds beyond NDJSON's own (the reader's, the same for
    # both) stays small and does not grow with the export; and the conversion target of run.sh.
    ("1y: FHIR peak RSS - NDJSON's, MB", rss("1", "rss") - rss("1", "ndjson_rss"), "<=", 4),
    ("4y: FHIR peak RSS - NDJSON's, MB", rss("4", "rss") - rss("4", "ndjson_rss"), "<=", 4),
    ("4y: FHIR peak RSS, MB", rss("4", "rss"), "<", 64),
]:
    met = value <= bound if op == "<=" else value < bound
    print("%-44s %9.2f %9s %5s" % (name, value, "%s %g" % (op, bound), "yes" if met else "no"))
print("peak RSS 4y / 1y: FHIR %.2f, NDJSON %.2f" % (rss("4", "rss") / rss("1", "rss"), rss("4", "ndjson_rss") / rss("1", "ndjson_rss")))
PY
