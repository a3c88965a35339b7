#!/usr/bin/env bash
# Builds the example package Examples/HealthKitPortSeeds (its own Package.swift, depending on
# HealthKitPort by path: the code of Apple's HealthKit documentation, `import HealthKitPort` and
# the store's opening line changed) and runs every part of it against the bundled sample, as an
# export and as a store, checking what it prints and the policy files it writes against the CLI
# on the same data:
#   - seed 004's batch loop: the batch `healthport changes --limit 100` returns (export, store);
#   - seed 004's monitoring loop: the rest of the changes (`changes --anchor`), then, over a
#     store, an import made by `healthport import` from this script (another process);
#   - seeds 000/002's newest prescription: `healthport query`; seed 002's per-object request
#     answered y, n and q: the policy file `auth request-per-object --grant/--deny` writes, or
#     none changed, and what the query then sees;
#   - seed 003's authorization article answered y, n, q and a mix: the policy file `healthport
#     auth request` writes with --grant, --deny, or on a terminal (script(1)) with the same
#     answers; the statuses `auth status` and `auth request-status` print;
#   - the daily step sums: `healthport stats` in the person's zone, with the example's anchor.
#
#   Scripts/check-seeds.sh [path/to/healthport [path/to/healthkitport-seeds]]
#
# Without the second argument the example package is built here, in the main package's build
# directory (`swift build --package-path Examples/HealthKitPortSeeds --scratch-path .build`), so
# that the modules `swift build` already compiled are reused rather than built a second time;
# the time it took is printed. SCRATCH=path builds it elsewhere; CONFIGURATION=release builds it
# in release, on a release build's modules (CI's).
set -euo pipefail
cd "$(dirname "$0")/.."
HEALTHPORT="${1:-.build/debug/healthport}"
if [ $# -ge 2 ]; then
    SEEDS="$2"
else
    echo "== building the example package (Examples/HealthKitPortSeeds)"
    started=$(date +%s%N)
    log="$(mktemp)"
    scratch="${SCRATCH:-$PWD/.build}"
    configuration="${CONFIGURATION:-debug}"
    if ! swift build -c "$configuration" --package-path Examples/HealthKitPortSeeds --scratch-path "$scratch" > "$log" 2>&1; then cat "$log"; rm -f "$log"; exit 1; fi
    rm -f "$log"
    echo "example package built in $(( ($(date +%s%N) - started) / 1000000000 )) s"
    SEEDS="$(swift build -c "$configuration" --package-path Examples/HealthKitPortSeeds --scratch-path "$scratch" --show-bin-path)/healthkitport-seeds"
fi
[ -x "$SEEDS" ] || { echo "no example binary at $SEEDS"; exit 1; }
EXPORT=SampleData/export.zip
WORK="$(mktemp -d)"
monitor_pid=
cleanup() {
    [ -n "$monitor_pid" ] && kill "$monitor_pid" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
failures=0
check() {  # what got expected
    if [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL $1: '$2', expected '$3'"; failures=$((failures + 1)); fi
}
check_list() {  # what got expected: newline-separated lists, compared whole; the expected one must not be empty
    if [ -n "$3" ] && [ "$2" = "$3" ]; then
        echo "ok   $1: the same $(printf '%s\n' "$3" | wc -l) uuids in the same order"
    else
        echo "FAIL $1: $(printf '%s' "$2" | grep -c . || true) uuids, expected $(printf '%s' "$3" | grep -c . || true) (or an empty expectation)"
        failures=$((failures + 1))
    fi
}
check_file() {  # what file expected-file: byte for byte, or both absent
    if [ ! -e "$2" ] && [ ! -e "$3" ]; then echo "ok   $1: neither file exists"
    elif [ -e "$2" ] && [ -e "$3" ] && cmp -s "$2" "$3"; then echo "ok   $1: byte for byte ($(wc -c < "$3") bytes)"
    else echo "FAIL $1: the files differ"; failures=$((failures + 1)); fi
}
uuids() { grep -oE '[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}' || true; }
# A printed `HKAnchoredObjectQueryDescriptor.Result` (the seed's `print(results)`/`print(update)`):
# its added uuids, deleted uuids, and store anchor (a token).
added_of() { sed -n 's/^Result(addedSamples: \[\(.*\)\], deletedObjects: .*/\1/p' <<<"$1" | uuids; }
deleted_of() { sed -n 's/.*, deletedObjects: \[\(.*\)\], newAnchor: .*/\1/p' <<<"$1" | uuids; }
anchor_of() { sed -n 's/.*, newAnchor: HKQueryAnchor(\([A-Za-z0-9_-]*\)))$/\1/p' <<<"$1"; }
# The CLI's change stream (NDJSON): added uuids, deleted uuids, the end line's anchor.
cli_added() { jq -r 'select(.type == "added") | .object.uuid' "$1"; }
cli_deleted() { jq -r 'select(.type == "deleted") | .uuid' "$1"; }
cli_anchor() { jq -r 'select(.type == "end") | .newAnchor.anchor' "$1"; }
# Waits up to 30 s for FILE to hold N lines.
wait_lines() {
    for _ in $(seq 300); do [ "$(wc -l < "$1")" -ge "$2" ] && return 0; sleep 0.1; done
    echo "FAIL: $1 did not reach $2 lines"; return 1
}

"$HEALTHPORT" import "$EXPORT" --store "$WORK/health.sqlite" -q >/dev/null

echo "== seed 004, the batch loop (Apple's end condition reads one batch of 100)"
for input in export store; do
    if [ $input = export ]; then path=$EXPORT; cli=("$HEALTHPORT" changes "$EXPORT"); else path=$WORK/health.sqlite; cli=("$HEALTHPORT" changes --store "$path"); fi
    "$SEEDS" batches "$path" > "$WORK/batches-$input.out"
    "${cli[@]}" --type StepCount --limit 100 -q > "$WORK/batches-$input.ndjson"
    check "$input: batches printed" "$(grep -c '^Result(' "$WORK/batches-$input.out")" 1
    line=$(head -1 "$WORK/batches-$input.out")
    check_list "$input: the batch's samples (changes --limit 100)" "$(added_of "$line")" "$(cli_added "$WORK/batches-$input.ndjson")"
    check "$input: the batch's deletions" "$(deleted_of "$line" | wc -l)" 0
done
check "store: the batch's new anchor (changes --store --limit 100)" "$(anchor_of "$(head -1 "$WORK/batches-store.out")")" "$(cli_anchor "$WORK/batches-store.ndjson")"

echo "== seed 004, the monitoring loop over an export: the rest of the changes, then nothing"
"$SEEDS" monitor "$EXPORT" > "$WORK/monitor-export.out" &
monitor_pid=$!
wait_lines "$WORK/monitor-export.out" 2
"$HEALTHPORT" changes "$EXPORT" --type StepCount --limit 100 --anchor-output "$WORK/export.anchor" -q >/dev/null
"$HEALTHPORT" changes "$EXPORT" --type StepCount --anchor "$WORK/export.anchor" -q > "$WORK/rest.ndjson"
check_list "export: the first update (changes --anchor after the batch)" "$(added_of "$(sed -n 2p "$WORK/monitor-export.out")")" "$(cli_added "$WORK/rest.ndjson")"
sleep 1
check "export: updates after the first (an export never changes)" "$(grep -c '^Result(' "$WORK/monitor-export.out")" 2
kill "$monitor_pid"; wait "$monitor_pid" 2>/dev/null || true; monitor_pid=

echo "== seed 004, the monitoring loop over a store, and an import by another process"
"$HEALTHPORT" import SampleData/export-older.zip --store "$WORK/follow.sqlite" -q >/dev/null
"$SEEDS" monitor "$WORK/follow.sqlite" > "$WORK/monitor-store.out" &
monitor_pid=$!
wait_lines "$WORK/monitor-store.out" 2
batch_anchor=$(anchor_of "$(sed -n 1p "$WORK/monitor-store.out")")
first=$(sed -n 2p "$WORK/monitor-store.out")
"$HEALTHPORT" changes --store "$WORK/follow.sqlite" --type StepCount --anchor "$batch_anchor" -q > "$WORK/first.ndjson"
check_list "store: the first update (changes --store --anchor after the batch)" "$(added_of "$first")" "$(cli_added "$WORK/first.ndjson")"
"$HEALTHPORT" import "$EXPORT" --store "$WORK/follow.sqlite" -q >/dev/null
wait_lines "$WORK/monitor-store.out" 3
"$HEALTHPORT" changes --store "$WORK/follow.sqlite" --type StepCount --anchor "$(anchor_of "$first")" -q > "$WORK/imported.ndjson"
second=$(sed -n 3p "$WORK/monitor-store.out")
check_list "store: the update the import brought (added)" "$(added_of "$second")" "$(cli_added "$WORK/imported.ndjson")"
check "store: the update the import brought (deleted)" "$(deleted_of "$second" | wc -l)" "$(cli_deleted "$WORK/imported.ndjson" | wc -l)"
check "store: the update's new anchor" "$(anchor_of "$second")" "$(cli_anchor "$WORK/imported.ndjson")"
# The older export again: what it lacks is deleted.
"$HEALTHPORT" import SampleData/export-older.zip --store "$WORK/follow.sqlite" --force -q >/dev/null
wait_lines "$WORK/monitor-store.out" 4
"$HEALTHPORT" changes --store "$WORK/follow.sqlite" --type StepCount --anchor "$(anchor_of "$second")" -q > "$WORK/reimported.ndjson"
third=$(sed -n 4p "$WORK/monitor-store.out")
check_list "store: the update the older export brought back (deleted)" "$(deleted_of "$third")" "$(cli_deleted "$WORK/reimported.ndjson")"
check "store: that update's additions and new anchor" "$(added_of "$third" | wc -l) $(anchor_of "$third")" \
    "$(cli_added "$WORK/reimported.ndjson" | wc -l) $(cli_anchor "$WORK/reimported.ndjson")"
kill "$monitor_pid"; wait "$monitor_pid" 2>/dev/null || true; monitor_pid=

echo "== seeds 000/002, the newest prescription (owner)"
newest=$("$HEALTHPORT" query "$EXPORT" --type VisionPrescription --sort startDate:desc --limit 1 -q | jq -r 'select(.kind == "visionPrescription") | .uuid')
for path in "$EXPORT" "$WORK/health.sqlite"; do
    check "$(basename "$path"): the newest prescription (query --sort startDate:desc --limit 1)" \
        "$("$SEEDS" prescription "$path" | sed -n 's/^newest prescription: \([0-9A-F-]*\) .*/\1/p')" "$newest"
done

echo "== seed 002, requestPerObjectReadAuthorization answered on the terminal sheet"
"$HEALTHPORT" auth request --policy "$WORK/base.json" --consumer healthkitport-seeds --read StepCount --grant
for answer in y n q; do
    cp "$WORK/base.json" "$WORK/po-swift-$answer.json"
    cp "$WORK/base.json" "$WORK/po-cli-$answer.json"
    printf '%s\n' "$answer" | "$SEEDS" prescription "$EXPORT" "$WORK/po-swift-$answer.json" > "$WORK/po-$answer.out" 2> "$WORK/po-$answer.err"
    case $answer in
        y) "$HEALTHPORT" auth request-per-object --policy "$WORK/po-cli-$answer.json" "$EXPORT" --type VisionPrescription --grant ;;
        n) "$HEALTHPORT" auth request-per-object --policy "$WORK/po-cli-$answer.json" "$EXPORT" --type VisionPrescription --deny ;;
        q) ;;  # a cancel writes nothing
    esac
    check_file "answer $answer: the policy file (auth request-per-object)" "$WORK/po-swift-$answer.json" "$WORK/po-cli-$answer.json"
    check "answer $answer: the sheet offered the prescription" "$(grep -c 'Allow “healthkitport-seeds” to read this one? \[y/n/q\]' "$WORK/po-$answer.err")" 1
    visible=$("$HEALTHPORT" query "$EXPORT" --policy "$WORK/po-cli-$answer.json" --type VisionPrescription --sort startDate:desc --limit 1 -q | jq -r 'select(.kind == "visionPrescription") | .uuid')
    case $answer in
        y) expected=$(printf '%s\n' "*** No prescription found. ***" "newest prescription: $visible") ;;
        n) expected=$(printf '%s\n' "*** No prescription found. ***" "*** No prescription found. ***") ;;
        q) expected=$(printf '%s\n' "*** No prescription found. ***" "*** The user canceled the authorization request. ***" "*** No prescription found. ***") ;;
    esac
    check "answer $answer: what the seed printed (query --policy after the answer)" "$(sed 's/ issued .*//' "$WORK/po-$answer.out" | paste -sd'|')" \
        "$(paste -sd'|' <<<"$expected")"
done
check "the prescription the grant made visible is the newest" "$(sed -n 's/^newest prescription: \([0-9A-F-]*\) .*/\1/p' "$WORK/po-y.out")" "$newest"

echo "== seed 003, the authorization article answered on the terminal sheet"
sheet="“healthkitport-seeds” would like to access your health data.
Allow reading HeartRate? [y/n/q] Allow reading StepCount? [y/n/q] Allow saving BodyMass? [y/n/q] Allow saving StepCount? [y/n/q] "
request=(--read HeartRate,StepCount --share BodyMass,StepCount)
status_word() { sed -e 's/^sharingAuthorized$/許可/' -e 's/^sharingDenied$/拒否/' -e 's/^notDetermined$/未選択/'; }
for answers in "y y y y" "n n n n" "q" "y n y n"; do
    name=${answers// /}
    swift_policy="$WORK/auth-swift-$name.json"
    cli_policy="$WORK/auth-cli-$name.json"
    printf '%s\n' $answers | "$SEEDS" authorization "$EXPORT" "$swift_policy" > "$WORK/auth-$name.out" 2> "$WORK/auth-$name.err"
    case $name in
        yyyy) "$HEALTHPORT" auth request --policy "$cli_policy" --consumer healthkitport-seeds "${request[@]}" --grant ;;
        nnnn) "$HEALTHPORT" auth request --policy "$cli_policy" --consumer healthkitport-seeds "${request[@]}" --deny ;;
        *)  # on a terminal, with the same answers
            printf '%s\n' $answers | script -qec "'$HEALTHPORT' auth request --policy '$cli_policy' --consumer healthkitport-seeds ${request[*]}" /dev/null > "$WORK/auth-cli-$name.tty" || true ;;
    esac
    check_file "answers $answers: the policy file (auth request)" "$swift_policy" "$cli_policy"
    if [ $name = q ]; then
        # Cancelled at the first question; no policy file was made, so nothing is decided.
        check "answers $answers: the sheet, cut short" "$(paste -sd'|' "$WORK/auth-$name.err")" "$(head -1 <<<"$sheet")|Allow reading HeartRate? [y/n/q] "
        statuses=$(printf '未選択\n未選択'); outcome=リクエスト失敗
    else
        check "answers $answers: the sheet" "$(paste -sd'|' "$WORK/auth-$name.err")" "$(paste -sd'|' <<<"$sheet")"
        statuses=$("$HEALTHPORT" auth status --policy "$cli_policy" BodyMass StepCount | status_word | sort)
        outcome=リクエスト成功
    fi
    after=$("$HEALTHPORT" auth request-status --policy "$cli_policy" "${request[@]}")
    expected=$(printf '%s\n' 対応 shouldRequest "$outcome" "$statuses" "$after")
    # The status loop walks a Set: its lines are compared as a multiset.
    got=$(sed -n '1,3p' "$WORK/auth-$name.out"; sed -n '4,5p' "$WORK/auth-$name.out" | sort; sed -n '6,$p' "$WORK/auth-$name.out")
    check "answers $answers: what the seed printed (auth status, auth request-status)" "$(tr '\n' ' ' <<<"$got")" "$(tr '\n' ' ' <<<"$expected")"
done

# HealthKitPort cuts days in the person's zone (the samples' HKTimeZone: Europe/Paris for the
# sample), aligned with the example's anchor, midnight UTC of 1 January 2000; the sample crosses
# the change to summer time, after which its days begin at 23:00 UTC. The CLI is given the same
# zone and anchor; both sides' interval starts are compared as UTC instants.
echo "== steps per day (statistics), against healthport stats --tz Europe/Paris --anchor-date 2000-01-01T00:00:00Z"
expected=$("$HEALTHPORT" stats "$EXPORT" --type StepCount --interval day --tz Europe/Paris --anchor-date 2000-01-01T00:00:00Z --format csv -q |
    sed 1d | while IFS=, read -r start _ sum _; do echo "$(date -u -d "$start" +%Y-%m-%dT%H:%M:%SZ) $sum"; done)
for path in "$EXPORT" "$WORK/health.sqlite"; do
    got=$("$SEEDS" steps "$path" | sed -n 's/^steps on \([0-9T:Z-]*\): \([0-9]*\)$/\1 \2/p')
    check "$(basename "$path"): daily step sums ($(wc -l <<<"$expected") days)" "$(tr '\n' ' ' <<<"$got")" "$(tr '\n' ' ' <<<"$expected")"
done

[ "$failures" = 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "The seeds' HealthKit code answers as the CLI does"
