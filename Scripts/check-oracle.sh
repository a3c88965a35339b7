#!/usr/bin/env bash
# Apple's own rings against `healthport days` on the real exports of ../shared/oracle (issue 48):
# move, exercise and stand, day by day, except the days each export's excused.txt traces to a gap
# in the export itself. Without ../shared (a clone elsewhere), says it was skipped.
#
#   Scripts/check-oracle.sh [HEALTHPORT]
set -euo pipefail
cd "$(dirname "$0")/.."
healthport="$(realpath "${1:-.build/debug/healthport}")"
oracle="${HEALTHPORT_ORACLE:-../shared/oracle}"
if [ ! -d "$oracle" ]; then
    echo "check-oracle: skipped: no oracle folder at $oracle (CI has ../shared/oracle)"
    exit 0
fi
python3 Scripts/oracle/check_rings.py "$healthport" "$oracle"
