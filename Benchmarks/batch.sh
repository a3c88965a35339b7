#!/usr/bin/env bash
# The batch benchmark: converting 8 generated 1-year exports (zips, as the Health app writes
# them) into partitions with --jobs 2, against --jobs 1, in the same run. Target: <= 0.6x.
#
#   Benchmarks/batch.sh            # RUNS=3 by default, best of
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
COUNT="${COUNT:-8}"
WORK="Benchmarks/work/batch"
mkdir -p "$WORK/exports"

. Benchmarks/release-build.sh
for i in $(seq 1 "$COUNT"); do
    [ -s "$WORK/exports/person$i.zip" ] || "$BIN/generate-export" --days 365 --seed "$i" --no-forbidden-characters --zip "$WORK/exports/person$i.zip" >/dev/null
done

measure() { python3 Benchmarks/measure.py "$RUNS" "$@"; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }
cat > "$WORK/run.sh" <<SH
#!/usr/bin/env bash
rm -rf "$WORK/lake"
exec "$BIN/healthport" convert "$WORK"/exports/*.zip --quiet --format csv --partition person,type --output "$WORK/lake" --jobs "\$1"
SH
chmod +x "$WORK/run.sh"
one=$(measure "$WORK/run.sh" 1)
two=$(measure "$WORK/run.sh" 2)
python3 - "$one" "$two" "$COUNT" "$(nproc)" <<'PY'
import json, sys
one, two = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print("%d one-year exports (zip) to CSV partitions, %s cores" % (int(sys.argv[3]), sys.argv[4]))
print("%-12s %9s %9s %12s" % ("", "seconds", "ratio", "peak RSS MB"))
print("%-12s %9.2f %8.2fx %12.1f" % ("--jobs 1", one["seconds"], 1.0, one["peak_rss_mb"]))
print("%-12s %9.2f %8.2fx %12.1f" % ("--jobs 2", two["seconds"], two["seconds"] / one["seconds"], two["peak_rss_mb"]))
PY
