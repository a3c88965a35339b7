#!/usr/bin/env bash
# The store's benchmark: importing a 4-year synthetic export into a new store, as objects per
# second and as a ratio against healthkit-to-sqlite (PyPI) on the same export in the same run;
# then a re-import of the same export (nothing new), the import of its last 60 days into a store
# of the rest (the monthly export: new objects, and the summary tables' days they touch
# recomputed), and a one-type, one-month query on the 4-year store.
#
#   Benchmarks/store.sh            # RUNS=3 by default, best of
#   YEARS=1 Benchmarks/store.sh    # a quicker run on a 1-year export
#
# healthkit-to-sqlite is installed into Benchmarks/work/venv from PyPI on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
YEARS="${YEARS:-4}"
WORK="Benchmarks/work"
mkdir -p "$WORK"

swift build -c release --product healthport >/dev/null
swift build -c release --product generate-export >/dev/null
BIN="$(swift build -c release --show-bin-path)"
if [ ! -x "$WORK/venv/bin/healthkit-to-sqlite" ]; then
    python3 -m venv "$WORK/venv"
    "$WORK/venv/bin/pip" install --quiet healthkit-to-sqlite
fi

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
peer="$WORK/peer-${YEARS}y.db"

measure() { python3 Benchmarks/measure.py "$RUNS" "$@"; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }

# Each measured import starts from no store (measure.py runs the command as given, so the
# removal is part of a wrapper script; rm costs microseconds next to an import).
cat > "$WORK/import-fresh.sh" <<SH
#!/usr/bin/env bash
rm -f "$store" "$store-wal" "$store-shm"
exec "$BIN/healthport" import "$file" --store "$store" --quiet >/dev/null
SH
cat > "$WORK/peer-fresh.sh" <<SH
#!/usr/bin/env bash
rm -f "$peer"
exec "$WORK/venv/bin/healthkit-to-sqlite" --xml --silent "$file" "$peer"
SH
# The update starts from a copy of the store of the older export; the copy alone is measured
# beside it (REFERENCE) and taken off.
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
chmod +x "$WORK/import-fresh.sh" "$WORK/peer-fresh.sh" "$WORK/copy-older.sh" "$WORK/import-update.sh"

objects=$("$BIN/healthport" info "$file" --format json --quiet | python3 -c "import json,sys; print(json.load(sys.stdin)['objectCount'])")
parse=$(measure "$BIN/healthport" info "$file" --quiet)
ours=$(measure "$WORK/import-fresh.sh")
theirs=$(measure "$WORK/peer-fresh.sh")
again=$(measure "$BIN/healthport" import "$file" --store "$store" --quiet)
update=$(REFERENCE="$WORK/copy-older.sh" measure "$WORK/import-update.sh")
query=$(measure "$BIN/healthport" query --store "$store" --type HeartRate --start 2026-06-01 --end 2026-07-01 --format csv --output "$WORK/month.csv")
rows=$(($(wc -l < "$WORK/month.csv") - 1))

python3 - "$objects" "$parse" "$ours" "$theirs" "$again" "$query" "$rows" "$(stat -c %s "$store")" "$(stat -c %s "$peer")" "$update" <<'PY'
import json, sys
objects = int(sys.argv[1])
parse, ours, theirs, again, query = (json.loads(a) for a in sys.argv[2:7])
rows, store_bytes, peer_bytes = int(sys.argv[7]), int(sys.argv[8]), int(sys.argv[9])
update = json.loads(sys.argv[10])
update["seconds"] -= update["reference_seconds"]
print("%-40s %9s %12s %9s %12s" % ("store (%d objects)" % objects, "seconds", "objects/s", "ratio", "peak RSS MB"))
def line(name, r, ratio):
    print("%-40s %9.2f %12.0f %8.2fx %12.1f" % (name, r["seconds"], objects / r["seconds"], ratio, r["peak_rss_mb"]))
line("parse alone (info)", parse, parse["seconds"] / ours["seconds"])
line("healthport import (new store)", ours, 1.0)
line("healthkit-to-sqlite (same export)", theirs, theirs["seconds"] / ours["seconds"])
line("healthport import again (nothing new)", again, again["seconds"] / ours["seconds"])
line("healthport import, 60 more days", update, update["seconds"] / ours["seconds"])
print("healthkit-to-sqlite / healthport import: %.1fx" % (theirs["seconds"] / ours["seconds"]))
print("query: HeartRate, one month, %d rows: %.1f ms (whole process)" % (rows, query["seconds"] * 1000))
print("store size: %.0f MB (healthkit-to-sqlite: %.0f MB)" % (store_bytes / 1e6, peer_bytes / 1e6))
PY
