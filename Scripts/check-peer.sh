#!/usr/bin/env bash
# Checks that another tool reads the exports healthport writes: converts the bundled sample to a
# filtered export archive (--format export), feeds it to healthkit-to-sqlite (installed from
# PyPI into a private virtual environment), and compares its row counts with healthport's own
# count of what the archive holds.
#
#   Scripts/check-peer.sh [path/to/healthport]
#
# healthkit-to-sqlite 1.x (pinned to its major version) goes into PEER_VENV (default
# Benchmarks/work/venv, which Benchmarks/run.sh shares for its peers). Once it is there the check
# needs no network: pip finds the requirement satisfied and fetches nothing. On a machine that
# cannot reach PyPI and has no such venv yet, the script says so and stops with status 69: the
# check did not run, which is not a pass.
set -euo pipefail
cd "$(dirname "$0")/.."
HEALTHPORT="${1:-.build/debug/healthport}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
VENV="${PEER_VENV:-Benchmarks/work/venv}"
if [ ! -x "$VENV/bin/pip" ]; then
    python3 -m venv "$VENV" || { echo "check-peer.sh: python3 -m venv failed (apt-get install python3-venv)" >&2; exit 69; }
fi
if ! "$VENV/bin/pip" install --quiet "healthkit-to-sqlite>=1,<2" > "$WORK/pip.log" 2>&1; then
    tail -n 5 "$WORK/pip.log" >&2
    echo "check-peer.sh: cannot install healthkit-to-sqlite from PyPI into $VENV (no network, or no PyPI mirror configured for pip): the peer check did not run" >&2
    exit 69
fi
# .ci/prepare-checks stops here (HEALTHPORT_CHECK_PREPARE): what this check installs is in place.
[ -z "${HEALTHPORT_CHECK_PREPARE:-}" ] || exit 0
[ -x "$HEALTHPORT" ] || { echo "check-peer.sh: no healthport at $HEALTHPORT (swift build)" >&2; exit 69; }

# Filtered: heart rates, steps and workouts of one week of the sample (its two weeks run from
# 2024-03-25; the week holds the change to summer time).
"$HEALTHPORT" convert SampleData/export.zip --quiet --format export \
    --type HeartRate,StepCount,Workout --start 2024-03-28 --end 2024-04-04 --output "$WORK/shared.zip"
"$VENV/bin/healthkit-to-sqlite" --silent "$WORK/shared.zip" "$WORK/peer.db"

"$HEALTHPORT" info "$WORK/shared.zip" --format json --quiet > "$WORK/info.json"
python3 - "$WORK/peer.db" "$WORK/info.json" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
info = json.load(open(sys.argv[2]))
counts = {t["type"]: t["count"] for t in info["types"]}
tables = {name for (name,) in db.execute("select name from sqlite_master where type = 'table'")}
failures = 0
def check(what, theirs, ours):
    global failures
    # Both counts, and not nothing: a week with no rows would make every comparison vacuous.
    ok = theirs == ours and ours > 0
    failures += not ok
    print("%-4s %-40s healthkit-to-sqlite %6d  healthport %6d" % ("ok" if ok else "FAIL", what, theirs, ours))
for table, identifier in [("rHeartRate", "HKQuantityTypeIdentifierHeartRate"), ("rStepCount", "HKQuantityTypeIdentifierStepCount")]:
    theirs = db.execute("select count(*) from %s" % table).fetchone()[0] if table in tables else 0
    check(table, theirs, counts.get(identifier, 0))
theirs = db.execute("select count(*) from workouts").fetchone()[0] if "workouts" in tables else 0
check("workouts", theirs, counts.get("HKWorkoutTypeIdentifier", 0))
extra = sorted(t for t in tables if t.startswith("r") and t not in ("rHeartRate", "rStepCount"))
if extra:
    failures += 1
    print("FAIL tables of types that were filtered out:", ", ".join(extra))
sys.exit(1 if failures else 0)
PY
echo "healthkit-to-sqlite read healthport's export"
