#!/usr/bin/env bash
# The follower's benchmark: `changes --store --follow` running while another process imports
# 200 times (the bundled sample's two exports in turn, --force): the latency from an import's
# exit (after its commit) to the follower's end line, the follower's resident memory and open
# file descriptors along the way (they must stay flat), and its CPU while idle.
#
#   Benchmarks/follow.sh           # IMPORTS=200 by default
set -euo pipefail
cd "$(dirname "$0")/.."
IMPORTS="${IMPORTS:-200}"
. Benchmarks/release-build.sh
H="$BIN/healthport"
W="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$W"' EXIT
S="$W/health.sqlite"
"$H" import SampleData/export-older.zip --store "$S" -q > /dev/null
"$H" changes --store "$S" --follow --anchor 4719 -q > "$W/out" 2> "$W/err" &
pid=$!
sleep 1
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
start=$(ticks); sleep 20
echo "idle: $(( $(ticks) - start )) clock ticks of CPU in 20 s ($(getconf CLK_TCK) per second)"
for i in $(seq 1 "$IMPORTS"); do
    if [ $((i % 2)) -eq 1 ]; then export=SampleData/export.zip; else export=SampleData/export-older.zip; fi
    before=$(grep -c '"type":"end"' "$W/out" || true)
    "$H" import "$export" --store "$S" -q --force > /dev/null
    t0=$(date +%s.%N)
    until [ "$(grep -c '"type":"end"' "$W/out" || true)" -gt "$before" ]; do sleep 0.005; done
    echo "$(date +%s.%N) - $t0" | bc >> "$W/latency"
    if [ "$i" -eq 1 ] || [ $((i % 50)) -eq 0 ]; then
        echo "after import $i: RSS $(awk '/VmRSS/{print $2}' "/proc/$pid/status") KB, $(ls "/proc/$pid/fd" | wc -l) open files"
    fi
done
sort -n "$W/latency" | awk '{a[NR] = $1} END {printf "latency, import exit to end line: median %.3f s, p95 %.3f s, max %.3f s\n", a[int(NR / 2)], a[int(NR * 0.95)], a[NR]}'
