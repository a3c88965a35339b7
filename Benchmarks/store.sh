#!/usr/bin/env bash
# The store's benchmark (issue 41): each store task as a ratio against the NDJSON conversion of
# the same export with the same cores, measured interleaved in the same run (measure.py's
# REFERENCE: the conversion runs before each run of the task, and the best of each is kept), so
# the ratios hold on a machine whose speed drifts; plus peak RSS, the store's bytes against
# export.xml's, a one-type one-month query on the store, and `stats --store` against `stats`
# over the export.
#
#   Benchmarks/store.sh                 # YEARS=4, RUNS=3 (best of)
#   YEARS=1 Benchmarks/store.sh         # the 1-year export
#   PEER=1 Benchmarks/store.sh          # also healthkit-to-sqlite (PyPI, into Benchmarks/work/venv)
#   BIN=/tmp/base Benchmarks/store.sh   # the binaries in a folder, not built here
#
# Tasks: a first import into a new store; the same export again (every object in the store
# already); the export into a store of its first YEARS*365-60 days (the monthly export: new
# objects, and the summary tables' days they touch recomputed; the copy of that store is timed
# beside it and taken off).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
YEARS="${YEARS:-4}"
PEER="${PEER:-0}"
WORK="Benchmarks/work"
mkdir -p "$WORK"

# BIN=folder measures the binaries there (a baseline kept aside) instead of building.
. Benchmarks/release-build.sh

file="$WORK/export-${YEARS}y-d1.xml"
if [ ! -s "$file" ]; then
    "$BIN/generate-export" --days $((365 * YEARS)) --no-forbidden-characters --output "$file" >/dev/null
fi
store="$WORK/store-${YEARS}y.sqlite"
# The same person 60 days earlier (the generator's days are a prefix of a longer run's).
older="$WORK/export-${YEARS}y-d1-older.xml"
if [ ! -s "$older" ]; then
    "$BIN/generate-export" --days $((365 * YEARS - 60)) --no-forbidden-characters --output "$older" >/dev/null
fi

measure() { python3 Benchmarks/measure.py "$RUNS" "$@"; }
convert="$BIN/healthport convert $file --format ndjson --quiet"

# Each measured import starts from no store (measure.py runs the command as given, so the
# removal is part of a wrapper script; rm costs microseconds next to an import).
cat > "$WORK/import-fresh.sh" <<SH
#!/usr/bin/env bash
rm -f "$store" "$store-wal" "$store-shm"
exec "$BIN/healthport" import "$file" --store "$store" --quiet >/dev/null
SH
older_store="$WORK/store-${YEARS}y-older.sqlite"
rm -f "$older_store" "$older_store-wal" "$older_store-shm"
"$BIN/healthport" import "$older" --store "$older_store" --quiet >/dev/null
cat > "$WORK/copy-older.sh" <<SH
#!/usr/bin/env bash
rm -f "$WORK/store-update.sqlite-wal" "$WORK/store-update.sqlite-shm"
exec cp "$older_store" "$WORK/store-update.sqlite"
SH
cat > "$WORK/import-update.sh" <<SH
#!/usr/bin/env bash
rm -f "$WORK/store-update.sqlite-wal" "$WORK/store-update.sqlite-shm"
cp "$older_store" "$WORK/store-update.sqlite"
exec "$BIN/healthport" import "$file" --store "$WORK/store-update.sqlite" --quiet >/dev/null
SH
chmod +x "$WORK/import-fresh.sh" "$WORK/copy-older.sh" "$WORK/import-update.sh"

objects=$("$BIN/healthport" info "$file" --format json --quiet | python3 -c "import json,sys; print(json.load(sys.stdin)['objectCount'])")
first=$(REFERENCE="$convert" measure "$WORK/import-fresh.sh")
again=$(REFERENCE="$convert" measure "$BIN/healthport" import "$file" --store "$store" --quiet)
# The same objects in another file (a newline more): not the latest import's bytes, so read whole.
copy="$WORK/export-${YEARS}y-d1-copy.xml"
if [ ! -s "$copy" ] || [ "$copy" -ot "$file" ]; then cp "$file" "$copy" && echo >> "$copy"; fi
again_copy=$(REFERENCE="$convert" measure "$BIN/healthport" import "$copy" --store "$store" --quiet)
update=$(REFERENCE="$convert" REFERENCE2="$WORK/copy-older.sh" measure "$WORK/import-update.sh")
query=$(measure "$BIN/healthport" query --store "$store" --type HeartRate --start 2024-06-01 --end 2024-07-01 --format csv --output "$WORK/month.csv")
rows=$(($(wc -l < "$WORK/month.csv") - 1))
stats_export="$BIN/healthport stats $file --type StepCount --interval month --tz UTC --quiet"
stats_store=$(REFERENCE="$stats_export" measure "$BIN/healthport" stats --store "$store" --type StepCount --interval month --tz UTC --quiet)
peer='null'
if [ "$PEER" = 1 ]; then
    if [ ! -x "$WORK/venv/bin/healthkit-to-sqlite" ]; then
        python3 -m venv "$WORK/venv"
        "$WORK/venv/bin/pip" install --quiet healthkit-to-sqlite
    fi
    cat > "$WORK/peer-fresh.sh" <<SH
#!/usr/bin/env bash
rm -f "$WORK/peer-${YEARS}y.db"
exec "$WORK/venv/bin/healthkit-to-sqlite" --xml --silent "$file" "$WORK/peer-${YEARS}y.db"
SH
    chmod +x "$WORK/peer-fresh.sh"
    peer=$(measure "$WORK/peer-fresh.sh")
fi

python3 - "$objects" "$first" "$again" "$update" "$query" "$rows" "$stats_store" "$(stat -c %s "$store")" "$(stat -c %s "$file")" "$peer" "$YEARS" "$again_copy" <<'PY'
import json, sys
objects = int(sys.argv[1])
first, again, update, query = (json.loads(a) for a in sys.argv[2:6])
rows = int(sys.argv[6])
stats = json.loads(sys.argv[7])
store_bytes, xml_bytes = int(sys.argv[8]), int(sys.argv[9])
peer = json.loads(sys.argv[10])
update["seconds"] -= update["reference2_seconds"]
print("store benchmark, %s-year export: %d objects, export.xml %.0f MB" % (sys.argv[11], objects, xml_bytes / 1e6))
print("%-44s %8s %9s %12s %11s" % ("task", "seconds", "ndjson s", "÷ ndjson", "peak RSS MB"))
def line(name, r):
    print("%-44s %8.2f %9.2f %11.2fx %11.1f" % (name, r["seconds"], r["reference_seconds"], r["seconds"] / r["reference_seconds"], r["peak_rss_mb"]))
line("import into a new store", first)
line("import again (the same file)", again)
line("import again (another file, same objects)", json.loads(sys.argv[12]))
line("import, 60 more days (copy taken off)", update)
print("store size: %.1f MB = %.2fx export.xml (%.0f bytes per object)" % (store_bytes / 1e6, store_bytes / xml_bytes, store_bytes / objects))
print("query --store HeartRate, one month, %d rows: %.1f ms (whole process)" % (rows, query["seconds"] * 1000))
print("stats --store StepCount by month: %.3f s; over the export %.3f s (%.2fx)" % (stats["seconds"], stats["reference_seconds"], stats["seconds"] / stats["reference_seconds"]))
if peer:
    print("healthkit-to-sqlite (same export): %.2f s, %.1f MB peak" % (peer["seconds"], peer["peak_rss_mb"]))
PY
