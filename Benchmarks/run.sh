#!/usr/bin/env bash
# healthport's benchmark: conversion time as a ratio to the libxml2 floor measured in the same
# run, and peak memory, on a 1-year and a 4-year synthetic export.
#
#   Benchmarks/run.sh              # default: 1-year and 4-year exports, 3 runs each, best of
#   RUNS=5 DENSITY=2 Benchmarks/run.sh
#
# Prints a table; the ratios are what to compare between commits (absolute seconds on these
# machines mean little).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
DENSITY="${DENSITY:-1}"
WORK="Benchmarks/work"
mkdir -p "$WORK"

swift build -c release --product healthport >/dev/null
swift build -c release --product generate-export >/dev/null
BIN="$(swift build -c release --show-bin-path)"
cc -O2 -o "$WORK/count_elements" Benchmarks/floor/count_elements.c $(pkg-config --cflags --libs libxml-2.0)

for years in 1 4; do
    file="$WORK/export-${years}y-d${DENSITY}.xml"
    if [ ! -s "$file" ]; then
        "$BIN/generate-export" --days $((365 * years)) --density "$DENSITY" --no-forbidden-characters --output "$file" >/dev/null
    fi
done

measure() { python3 Benchmarks/measure.py "$RUNS" "$@"; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }

printf '%-8s %-10s %9s %9s %8s %12s\n' export task seconds ratio "MB/s" "peak RSS MB"
for years in 1 4; do
    file="$WORK/export-${years}y-d${DENSITY}.xml"
    size_mb=$(python3 -c "import os,sys; print(os.path.getsize(sys.argv[1])/1e6)" "$file")
    floor=$(measure "$WORK/count_elements" "$file")
    floor_s=$(field "$floor" seconds)
    for task in floor ndjson csv json export parse rare-type no-match; do
        case "$task" in
            floor) result="$floor" ;;
            # Parsing alone: every object built and tallied, nothing written.
            parse) result=$(measure "$BIN/healthport" info "$file" --quiet) ;;
            # A rare type: other types are skipped unbuilt.
            rare-type) result=$(measure "$BIN/healthport" convert "$file" --type VO2Max --quiet) ;;
            # A predicate that matches nothing: should cost about as much as parsing alone.
            no-match) result=$(measure "$BIN/healthport" convert "$file" --where 'sourceRevision.source.name == "nobody"' --quiet) ;;
            ndjson) result=$(measure "$BIN/healthport" convert "$file" --format ndjson --quiet) ;;
            json) result=$(measure "$BIN/healthport" convert "$file" --format json --quiet) ;;
            # Apple's export.xml written back.
            export) result=$(measure "$BIN/healthport" convert "$file" --format export --quiet) ;;
            csv)
                out="$WORK/csv-out"
                rm -rf "$out"
                result=$(measure "$BIN/healthport" convert "$file" --format csv --output "$out" --quiet)
                ;;
        esac
        s=$(field "$result" seconds)
        rss=$(field "$result" peak_rss_mb)
        python3 -c "import sys; s,f,mb,rss=map(float,sys.argv[3:7]); print('%-8s %-10s %9.2f %8.2fx %8.0f %12.1f' % (sys.argv[1], sys.argv[2], s, s/f, mb/s, rss))" \
            "${years}y" "$task" "$s" "$floor_s" "$size_mb" "$rss"
    done
done

# Anchored changes between two 4-year exports (the older one 30 days shorter): diff against
# parsing both, changes --anchor against parsing the new one ("parsing" = info: every object
# built and tallied, nothing written).
old="$WORK/export-4y-older-d${DENSITY}.xml"
new="$WORK/export-4y-d${DENSITY}.xml"
if [ ! -s "$old" ]; then
    "$BIN/generate-export" --days $((365 * 4 - 30)) --density "$DENSITY" --no-forbidden-characters --output "$old" >/dev/null
fi
anchor="$WORK/older.anchor"
"$BIN/healthport" anchor "$old" --output "$anchor" --quiet
parse_old=$(field "$(measure "$BIN/healthport" info "$old" --quiet)" seconds)
parse_new=$(field "$(measure "$BIN/healthport" info "$new" --quiet)" seconds)
diff_result=$(measure "$BIN/healthport" diff "$old" "$new" --quiet)
changes_result=$(measure "$BIN/healthport" changes "$new" --anchor "$anchor" --quiet)
python3 - "$parse_old" "$parse_new" "$diff_result" "$changes_result" "$(wc -c < "$anchor")" "$(wc -c < "$old")" <<'PY'
import json, sys
parse_old, parse_new = float(sys.argv[1]), float(sys.argv[2])
diff, changes = json.loads(sys.argv[3]), json.loads(sys.argv[4])
anchor_bytes, old_bytes = int(sys.argv[5]), int(sys.argv[6])
print()
print("%-32s %9s %9s %12s" % ("anchored changes (4y)", "seconds", "ratio", "peak RSS MB"))
print("%-32s %9.2f %8.2fx %12.1f" % ("diff / (parse old + parse new)", diff["seconds"], diff["seconds"] / (parse_old + parse_new), diff["peak_rss_mb"]))
print("%-32s %9.2f %8.2fx %12.1f" % ("changes --anchor / parse new", changes["seconds"], changes["seconds"] / parse_new, changes["peak_rss_mb"]))
print("anchor: %d bytes for a %d-byte export (%.1f%%)" % (anchor_bytes, old_bytes, 100.0 * anchor_bytes / old_bytes))
PY
