#!/usr/bin/env bash
# healthport's benchmark: conversion time as a ratio to two floors, each measured side by side
# with each task (both run before every run of the task), and peak memory, on a 1-year and a
# 4-year synthetic export. The floors:
#   - the libxml2 floor (floor/count_elements.c): libxml2's push parser counting elements, the
#     fastest any libxml2-based reader can be;
#   - the byte floor (floor/count_markup.c): read(2) and memchr finding every '<', the fastest
#     any parser can be.
# Tasks run healthport's scanner unless named "-libxml2" (`--parser libxml2`, the reference).
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

. Benchmarks/release-build.sh
cc -O2 -o "$WORK/count_elements" Benchmarks/floor/count_elements.c $(pkg-config --cflags --libs libxml-2.0)
cc -O2 -o "$WORK/count_markup" Benchmarks/floor/count_markup.c

for years in 1 4; do
    file="$WORK/export-${years}y-d${DENSITY}.xml"
    if [ ! -s "$file" ]; then
        "$BIN/generate-export" --days $((365 * years)) --density "$DENSITY" --no-forbidden-characters --output "$file" >/dev/null
    fi
done

measure() { python3 Benchmarks/measure.py "$RUNS" "$@"; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }

# The zipped exports (as the Health app writes them: apple_health_export/export.xml inside).
for years in 1 4; do
    zip="$WORK/zip-${years}y-d${DENSITY}/export.zip"
    if [ ! -s "$zip" ]; then
        mkdir -p "$(dirname "$zip")"
        python3 - "$WORK/export-${years}y-d${DENSITY}.xml" "$zip" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
    z.write(sys.argv[1], "apple_health_export/export.xml")
PY
    fi
done

# Tasks: single-core ones read with --jobs 1; "-jobs2" ones with both cores. "inflate" is the
# zip's document inflated by zlib alone (Benchmarks/floor/inflate_entry.py), the other reference of
# the zip target.
printf '%-8s %-16s %9s %9s %10s %8s %12s\n' export task seconds "/ floor" "/ bytes" "MB/s" "peak RSS MB"
for years in 1 4; do
    file="$WORK/export-${years}y-d${DENSITY}.xml"
    zip="$WORK/zip-${years}y-d${DENSITY}/export.zip"
    size_mb=$(python3 -c "import os,sys; print(os.path.getsize(sys.argv[1])/1e6)" "$file")
    # Every task runs side by side with both floors (measure.py's REFERENCE and REFERENCE2): its
    # ratios are to the floors measured alongside it, not minutes earlier.
    export REFERENCE REFERENCE2
    REFERENCE="$(printf '%q %q' "$WORK/count_elements" "$file")"
    REFERENCE2="$(printf '%q %q' "$WORK/count_markup" "$file")"
    for task in floor byte-floor ndjson ndjson-libxml2 csv csv-libxml2 json export fhir parse rare-type rare-type-libxml2 no-match \
        ndjson-jobs2 csv-jobs2 inflate zip-jobs1 zip-jobs2; do
        case "$task" in
            floor) result=$(measure "$WORK/count_elements" "$file") ;;
            byte-floor) result=$(measure "$WORK/count_markup" "$file") ;;
            ndjson-libxml2) result=$(measure "$BIN/healthport" convert "$file" --format ndjson --quiet --jobs 1 --parser libxml2) ;;
            rare-type-libxml2) result=$(measure "$BIN/healthport" convert "$file" --type VO2Max --quiet --jobs 1 --parser libxml2) ;;
            csv-libxml2)
                out="$WORK/csv-out"
                rm -rf "$out"
                result=$(measure "$BIN/healthport" convert "$file" --format csv --output "$out" --quiet --jobs 1 --parser libxml2)
                ;;
            # Parsing alone: every object built and tallied, nothing written.
            parse) result=$(measure "$BIN/healthport" info "$file" --quiet) ;;
            # A rare type: other types are skipped unbuilt.
            rare-type) result=$(measure "$BIN/healthport" convert "$file" --type VO2Max --quiet --jobs 1) ;;
            # A predicate that matches nothing: should cost about as much as parsing alone.
            no-match) result=$(measure "$BIN/healthport" convert "$file" --where 'sourceRevision.source.name == "nobody"' --quiet --jobs 1) ;;
            ndjson) result=$(measure "$BIN/healthport" convert "$file" --format ndjson --quiet --jobs 1) ;;
            ndjson-jobs2) result=$(measure "$BIN/healthport" convert "$file" --format ndjson --quiet --jobs 2) ;;
            json) result=$(measure "$BIN/healthport" convert "$file" --format json --quiet --jobs 1) ;;
            # Apple's export.xml written back.
            export) result=$(measure "$BIN/healthport" convert "$file" --format export --quiet --jobs 1) ;;
            # FHIR R4's Observations (issue 42; Benchmarks/fhir.sh sets it side by side with NDJSON).
            fhir) result=$(measure "$BIN/healthport" convert "$file" --format fhir --quiet --jobs 1) ;;
            csv | csv-jobs2)
                out="$WORK/csv-out"
                rm -rf "$out"
                jobs=1
                [ "$task" = csv-jobs2 ] && jobs=2
                result=$(measure "$BIN/healthport" convert "$file" --format csv --output "$out" --quiet --jobs "$jobs")
                ;;
            inflate) result=$(measure python3 Benchmarks/floor/inflate_entry.py "$zip" apple_health_export/export.xml) ;;
            zip-jobs1) result=$(measure "$BIN/healthport" convert "$zip" --format ndjson --quiet --jobs 1) ;;
            zip-jobs2) result=$(measure "$BIN/healthport" convert "$zip" --format ndjson --quiet --jobs 2) ;;
        esac
        s=$(field "$result" seconds)
        floor_s=$(field "$result" reference_seconds)
        bytes_s=$(field "$result" reference2_seconds)
        rss=$(field "$result" peak_rss_mb)
        ratio=$(python3 -c "import sys; print(float(sys.argv[1]) / float(sys.argv[2]))" "$s" "$floor_s")
        byte_ratio=$(python3 -c "import sys; print(float(sys.argv[1]) / float(sys.argv[2]))" "$s" "$bytes_s")
        eval "ratio_${years}y_${task//-/_}=$ratio"
        eval "bytes_${years}y_${task//-/_}=$byte_ratio"
        eval "rss_${years}y_${task//-/_}=$rss"
        python3 -c "import sys; s,r,b,mb,rss=map(float,sys.argv[3:8]); print('%-8s %-16s %9.2f %8.2fx %9.1fx %8.0f %12.1f' % (sys.argv[1], sys.argv[2], s, r, b, mb/s, rss))" \
            "${years}y" "$task" "$s" "$ratio" "$byte_ratio" "$size_mb" "$rss"
    done
done
unset REFERENCE REFERENCE2

# Issue 25's targets, on the 4-year export, from the ratios above (each to its own floors).
python3 - "$ratio_4y_ndjson" "$ratio_4y_csv" "$ratio_4y_ndjson_jobs2" "$ratio_4y_zip_jobs2" "$ratio_4y_inflate" \
    "$bytes_4y_ndjson" "$bytes_4y_csv" "$bytes_4y_ndjson_jobs2" "$bytes_4y_zip_jobs2" "$ratio_4y_rare_type" "$bytes_4y_rare_type" \
    "$ratio_4y_fhir" "$bytes_4y_fhir" \
    "$rss_4y_ndjson" "$rss_4y_csv" "$rss_4y_ndjson_jobs2" "$rss_4y_csv_jobs2" "$rss_4y_zip_jobs2" "$rss_4y_json" "$rss_4y_export" "$rss_4y_fhir" <<'PY'
import sys
v = list(map(float, sys.argv[1:]))
ndjson, csv, ndjson2, zip2, inflate, b_ndjson, b_csv, b_ndjson2, b_zip2, rare, b_rare, fhir, b_fhir = v[:13]
rss = v[13:]
rows = [
    ("NDJSON, one core / floor", ndjson, "<= 0.60", b_ndjson),
    ("CSV, one core / floor", csv, "<= 0.70", b_csv),
    ("NDJSON, two cores / floor", ndjson2, "<= 0.35", b_ndjson2),
    ("zip, two cores / inflate alone", zip2 / inflate, "<= 1.15", b_zip2),
    ("scanning alone (rare type) / floor", rare, "", b_rare),
    ("FHIR, one core / NDJSON, one core", fhir / ndjson, "<= 1.50", None),
    ("peak RSS of conversions, MB", max(rss), "<  64", None),
]
print()
print("%-40s %9s %9s %5s %12s" % ("targets (4y export)", "measured", "target", "met", "/ byte floor"))
for name, value, target, bytes_ratio in rows:
    met = ""
    if target:
        op, bound = target.split()
        met = "yes" if (value <= float(bound) if op == "<=" else value < float(bound)) else "no"
    print("%-40s %9.2f %9s %5s %12s" % (name, value, target, met, "" if bytes_ratio is None else "%.1fx" % bytes_ratio))
PY

# Peers from PyPI, on the 1-year zip (PEERS=0 skips them; they install into a private venv).
if [ "${PEERS:-1}" = 1 ]; then
    VENV="$WORK/venv"
    if [ ! -x "$VENV/bin/healthkit-to-sqlite" ] || ! "$VENV/bin/python" -c "import apple_health_parser" 2>/dev/null; then
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install --quiet healthkit-to-sqlite apple-health-parser
    fi
    zip1="$WORK/zip-1y-d${DENSITY}/export.zip"
    peer_out="$WORK/peer-out"
    rm -rf "$peer_out"
    mkdir -p "$peer_out"
    ours=$(measure "$BIN/healthport" convert "$zip1" --format csv --output "$peer_out/healthport" --quiet)
    rm -rf "$peer_out"/*
    h2s=$(measure sh -c "rm -f '$peer_out/h2s.db'; '$VENV/bin/healthkit-to-sqlite' --silent '$zip1' '$peer_out/h2s.db'")
    ahp=$(measure "$VENV/bin/python" -c "
from apple_health_parser.utils.parser import Parser
p = Parser('$zip1', output_dir='$peer_out/ahp-data', overwrite=True)
p.export('$peer_out/ahp-csv')")
    python3 - "$ours" "$h2s" "$ahp" <<'PY'
import json, sys
ours, h2s, ahp = (json.loads(a) for a in sys.argv[1:])
print()
print("%-44s %9s %9s %12s" % ("peers (1y zip, every record out)", "seconds", "ratio", "peak RSS MB"))
for name, r in [("healthport convert --format csv", ours), ("healthkit-to-sqlite (SQLite)", h2s),
                ("apple-health-parser (CSV per type)", ahp)]:
    print("%-44s %9.2f %8.1fx %12.1f" % (name, r["seconds"], r["seconds"] / ours["seconds"], r["peak_rss_mb"]))
PY
fi

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
