#!/usr/bin/env bash
# The Health Connect benchmark (issue 52): reading a generated one-year Health Connect export
# (Scripts/healthconnect/make-fixture.py --days 365, about 700,000 objects) against a generated
# one-year Apple export (generate-export --days 365), both zips converted to NDJSON on one
# thread. Target: the Health Connect export at least as fast per object as Apple's.
#
#   Benchmarks/healthconnect.sh          # RUNS=3 by default, best of
#   BIN=.build/debug Benchmarks/healthconnect.sh   # a quick look with a debug build
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
WORK="Benchmarks/work/healthconnect"
mkdir -p "$WORK"

. Benchmarks/release-build.sh
[ -s "$WORK/android/health_connect_export.zip" ] || python3 Scripts/healthconnect/make-fixture.py "$WORK/android" --days 365 >/dev/null
[ -s "$WORK/apple.zip" ] || "$BIN/generate-export" --days 365 --seed 1 --no-forbidden-characters --zip "$WORK/apple.zip" >/dev/null

count() { "$BIN/healthport" convert "$1" --format ndjson --output - --quiet --jobs 1 | wc -l; }
measure() { python3 Benchmarks/measure.py "$RUNS" "$BIN/healthport" convert "$1" --format ndjson --output - --quiet --jobs 1; }
android_objects=$(count "$WORK/android/health_connect_export.zip")
apple_objects=$(count "$WORK/apple.zip")
android=$(measure "$WORK/android/health_connect_export.zip")
apple=$(measure "$WORK/apple.zip")
python3 - "$android" "$apple" "$android_objects" "$apple_objects" <<'PY'
import json, sys
android, apple = json.loads(sys.argv[1]), json.loads(sys.argv[2])
objects = {"Health Connect": int(sys.argv[3]), "Apple": int(sys.argv[4])}
print("one-year exports (zip) to NDJSON, --jobs 1")
print("%-16s %10s %9s %14s %12s" % ("", "objects", "seconds", "µs per object", "peak RSS MB"))
for name, result in (("Health Connect", android), ("Apple", apple)):
    per = result["seconds"] / objects[name] * 1e6
    print("%-16s %10d %9.2f %14.2f %12.1f" % (name, objects[name], result["seconds"], per, result["peak_rss_mb"]))
ratio = (android["seconds"] / objects["Health Connect"]) / (apple["seconds"] / objects["Apple"])
print("per object, Health Connect / Apple: %.2fx (target <= 1.00x)" % ratio)
PY
