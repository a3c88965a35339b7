#!/usr/bin/env bash
# Runs healthport's libFuzzer harnesses (Fuzz/), built with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer's checks that Swift supports, each for SECONDS (default 60), from a
# seed corpus of SampleData/ and ../shared/samples/. A crash, leak or sanitizer report stops
# the script with status 1 and leaves the input in Fuzz/findings/<harness>/ (turn it into a
# regression test). Prints executions per harness.
#
#   Scripts/fuzz.sh [SECONDS] [HARNESS...]      # harnesses: export health-connect scanner predicate policy anchor gpx ecg json store store-upgrade mcp-framing
#   Scripts/fuzz.sh --replay [HARNESS...]       # every input of each corpus and regression folder, once
#
# Builds (with AddressSanitizer in .build/fuzz, without it in .build/fuzz-plain, so that neither
# undoes the other; each configuration in its own folder within):
#   HEALTHPORT_FUZZ_CONFIGURATION   debug (default) or release (-O: what users run, and faster)
#   HEALTHPORT_FUZZ_SANITIZERS      fuzzer,address (default), or fuzzer alone: a long campaign's
#                                   build. AddressSanitizer costs more than half of a harness's
#                                   time (every Swift allocation records its stack); a campaign
#                                   without it reaches ten times the executions, and its corpus
#                                   is then replayed under AddressSanitizer (--replay), so each
#                                   input it kept still meets the sanitizer once.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/samples.sh
REPLAY=0
if [ "${1:-}" = --replay ]; then REPLAY=1; shift; set -- 0 "$@"; fi
SECONDS_EACH="${1:-60}"
# Both cores, or a number of executions to stop at (the campaign before a release: 10 million,
# or two hours on both cores, whichever comes first): HEALTHPORT_FUZZ_WORKERS=2
# HEALTHPORT_FUZZ_RUNS=10000000 Scripts/fuzz.sh 7200.
WORKERS="${HEALTHPORT_FUZZ_WORKERS:-1}"
RUNS="${HEALTHPORT_FUZZ_RUNS:-0}"
# Seconds one input may take before libFuzzer calls it a hang. A campaign run at a low priority
# beside builds is starved for seconds at a time: give it more (HEALTHPORT_FUZZ_TIMEOUT=60), and
# replay what it reports as a timeout on an idle core before calling it a finding.
TIMEOUT="${HEALTHPORT_FUZZ_TIMEOUT:-10}"
shift || true
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=(export health-connect scanner predicate policy anchor gpx ecg json store store-upgrade mcp-framing)
CONFIGURATION="${HEALTHPORT_FUZZ_CONFIGURATION:-debug}"
SANITIZERS="${HEALTHPORT_FUZZ_SANITIZERS:-fuzzer,address}"
case "$CONFIGURATION" in debug | release) ;; *) echo "fuzz.sh: HEALTHPORT_FUZZ_CONFIGURATION is debug or release" >&2; exit 64 ;; esac
case "$SANITIZERS" in fuzzer | fuzzer,address) ;; *) echo "fuzz.sh: HEALTHPORT_FUZZ_SANITIZERS is fuzzer or fuzzer,address" >&2; exit 64 ;; esac
SCRATCH=".build/fuzz"
[ "$SANITIZERS" = fuzzer ] && SCRATCH=".build/fuzz-plain"
WORK="Fuzz/work"
# The healthport that writes some harnesses' seeds (an anchor, NDJSON lines, a store): a build's,
# the debug one unless HEALTHPORT_BINARY names another (CI's release build).
HEALTHPORT="${HEALTHPORT_BINARY:-.build/debug/healthport}"
SHARED="$SAMPLES"

export HEALTHPORT_FUZZ=1
# Leak detection is off: Foundation's FileManager leaks a path buffer per call on Linux, which
# would hide real findings; memory growth is bounded by -rss_limit_mb instead.
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
# Swift's backtracer, run after a trap, reads memory in ways AddressSanitizer reports as a second
# (spurious) error; the trap's own message is what matters.
export SWIFT_BACKTRACE="enable=no"
build() {
    local log="$WORK/build-$1.log"
    mkdir -p "$WORK"
    # -enable-testing: the store's harness reads the store's internals (`@testable`).
    if ! swift build -c "$CONFIGURATION" --scratch-path "$SCRATCH" --product "fuzz-$1" \
        -Xswiftc -sanitize="$SANITIZERS" -Xswiftc -use-ld=lld -Xswiftc -enable-testing > "$log" 2>&1; then
        grep -E "error" "$log" | head -n 20 >&2
        echo "fuzz.sh: cannot build fuzz-$1 (see $log)" >&2
        exit 1
    fi
}

# Seeds: real files of each kind, small ones whole.
seed() {
    local harness=$1 corpus="$WORK/corpus/$1"
    mkdir -p "$corpus"
    [ -n "$(ls -A "$corpus" 2>/dev/null)" ] && return 0
    case "$harness" in
        export)
            # Small inputs: the harness reads each input three times (the read, the parallel
            # differential, the salvage), and a zip's document inflated, so an input's time
            # follows its size (-max_len below). Whole samples under 200 KB are cut by libFuzzer
            # to the limit (what is past it reaches the cut-off paths); a zip that stays a
            # readable zip under the limit is made small here.
            { find "$SHARED" -name '*.xml' -size -200k 2>/dev/null | head -n 20 | while read -r f; do cp "$f" "$corpus/$(basename "$(dirname "$f")")-$(basename "$f")"; done; } || true
            { unzip -p SampleData/export.zip apple_health_export/export.xml | head -c 12000 > "$corpus/generated-head.xml"; } || true
            "$HEALTHPORT" convert SampleData/export.zip -q 2>/dev/null | head -n 20 > "$corpus/healthport.ndjson" || true
            # The generated export as a zip of every part (routes, ECGs, clinical records, the
            # CDA document), its export.xml holding the first two of each kind of the root's
            # elements (the element and its type: a workout with its route, a sleep stage, a
            # correlation), each other file cut to 2 KB.
            python3 - SampleData/export.zip "$corpus/small-export.zip" <<'PY' || true
import re, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as source, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as small:
    for info in source.infolist():
        data = source.read(info)
        if info.filename.endswith("/export.xml"):
            text = data.decode()
            # The root's children start one space in; the prolog ends at the first Record.
            parts = re.split(r"(?=\n <(?:Record|Workout|ActivitySummary|Correlation|ClinicalRecord|Audiogram|VisionPrescription)\b)", text)
            kept, seen = [parts[0]], {}
            for part in parts[1:]:
                element = re.match(r"\n <(\w+)(?:[^>]*?\btype=\"([^\"]*)\")?", part)
                key = element.groups()
                seen[key] = seen.get(key, 0) + 1
                if seen[key] <= 2:
                    kept.append(part.split("\n</HealthData>")[0])
            data = ("".join(kept) + "\n</HealthData>\n").encode()
        elif len(data) > 2000:
            data = data[:2000]
        small.writestr(info.filename, data)
PY
            # Android's Health Connect export as the zip the phone writes, so that the reader's
            # sniffing meets it (its database's own harness is health-connect).
            { python3 Scripts/healthconnect/make-fixture.py "$WORK/health-connect" > /dev/null &&
                cp "$WORK/health-connect/health_connect_export.zip" "$corpus/health_connect_export.zip"; } || true
            # Cut-off zips, for the salvage path.
            head -c 9000 SampleData/export.zip > "$corpus/cut-off.zip"
            head -c 4000 SampleData/export-older.zip > "$corpus/cut-early.zip"
            ;;
        health-connect)
            # The fixture's databases (today's layout, version 16's tables, version 9's without
            # the local-time columns) in 512-byte pages (VACUUM: about 115 KB, where Android's 4 KB
            # pages make 590 KB), so that mutations reach SQLite's pages and the reader's checks
            # of tables, columns and rows directly.
            for schema in current v16 v9; do
                { python3 Scripts/healthconnect/make-fixture.py --schema "$schema" "$WORK/health-connect-$schema" > /dev/null &&
                    cp "$WORK/health-connect-$schema/health_connect_export.db" "$corpus/$schema.db" &&
                    sqlite3 "$corpus/$schema.db" "PRAGMA page_size = 512; VACUUM;"; } || true
            done
            ;;
        scanner)
            # Export documents only (the harness reads bytes as export.xml): the real samples,
            # a generated head, and one document per construct the scanner hands to libxml2.
            { find "$SHARED" -name '*.xml' -size -200k 2>/dev/null | head -n 20 | while read -r f; do cp "$f" "$corpus/$(basename "$(dirname "$f")")-$(basename "$f")"; done; } || true
            { unzip -p SampleData/export.zip apple_health_export/export.xml | head -c 30000 > "$corpus/generated-head.xml"; } || true
            head='<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2024-01-01 10:00:00 +0100"/>\n'
            record=' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-01-01 09:00:00 +0100" endDate="2024-01-01 09:00:00 +0100" value="72"'
            i=0
            for body in "$record/>" "$record>\n  <MetadataEntry key=\"k\" value=\"a&amp;b&#183;&#11;\tc\"/>\n </Record>" \
                "$record note='x'\n  other=\"&lt;&gt;&quot;&apos;\"/>" " <!-- c --><?pi x?>$record/>" " <Future>text<![CDATA[x]]></Future>" \
                "$record\r\n/>" " <Workout sourceName=\"W\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:30:00 +0100\">\n  <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"2024-01-01 09:10:00 +0100\"/>\n </Workout>"; do
                printf "$head%b\n</HealthData>\n" "$body" > "$corpus/construct-$i.xml"
                i=$((i + 1))
            done
            ;;
        predicate)
            for p in 'quantity > "100 count/min"' 'startDate >= "2024-01-01" AND metadata.HKMetadataKeyHeartRateMotionContext == 1' \
                'sourceRevision.source.name BEGINSWITH[c] "apple"' 'ANY workoutEvents.type == "HKWorkoutEventTypePause"' \
                'value IN {1, 2, 3} OR NOT (count BETWEEN {1, 5})' 'uuid MATCHES "[A-F0-9-]+"' 'endDate < now() - 86400'; do
                printf '%s' "$p" > "$corpus/$(printf '%s' "$p" | cksum | cut -d' ' -f1)"
            done
            ;;
        policy)
            printf '%s' '{"version": 1, "consumer": {"name": "Study"}, "read": {"StepCount": "granted", "HeartRate": "denied"}, "readSince": {"StepCount": "2024-01-01"}, "perObject": {"HKVisionPrescriptionTypeIdentifier": {"granted": ["00000000-0000-0000-0000-000000000001"]}}}' > "$corpus/policy.json"
            ;;
        anchor)
            [ -x "$HEALTHPORT" ] && "$HEALTHPORT" anchor SampleData/export-older.zip --type BodyMass -o "$corpus/anchor" -q || true
            ;;
        gpx)
            # The sample's first route, whatever its name (the sample's dates change with it).
            route="$(unzip -Z1 SampleData/export.zip | grep -m 1 '^apple_health_export/workout-routes/.*\.gpx$' || true)"
            [ -n "$route" ] || { echo "fuzz.sh: the sample holds no route for the gpx corpus" >&2; exit 1; }
            unzip -p SampleData/export.zip "$route" > "$corpus/route.gpx"
            ;;
        ecg)
            unzip -p SampleData/export.zip 'apple_health_export/electrocardiograms/*.csv' > "$corpus/ecg.csv"
            { find "$SHARED" -path '*electrocardiograms*' -name '*.csv' 2>/dev/null | head -n 3 | while read -r f; do cp "$f" "$corpus/"; done; } || true
            ;;
        json)
            [ -x "$HEALTHPORT" ] && "$HEALTHPORT" convert SampleData/export.zip -q 2>/dev/null \
                | awk 'NR > 1 && !seen[substr($0, 1, 40)]++' | head -n 30 | split -l 1 - "$corpus/line-" || true
            ;;
        store)
            # A store file as it is (first byte even), in 512-byte pages so that it stays whole
            # under -max_len; and edits of the harness's own store (first byte odd): one per
            # table, its first row put back with every value as the harness encodes it (a kind
            # byte, then the value, 0x00 and 0x01 escaped as 0x01 0x01 and 0x01 0x02), for the
            # mutations to change one value of one column at a time.
            if [ -x "$HEALTHPORT" ]; then
                "$HEALTHPORT" convert SampleData/export-older.zip --type BodyMass -q 2>/dev/null | head -n 3 > "$WORK/seed.ndjson" || true
                rm -f "$WORK/seed.sqlite"*
                "$HEALTHPORT" import "$WORK/seed.ndjson" --store "$WORK/seed.sqlite" -q > /dev/null 2>&1 || true
                if [ -f "$WORK/seed.sqlite" ]; then
                    sqlite3 "$WORK/seed.sqlite" "PRAGMA journal_mode = DELETE; PRAGMA page_size = 512; VACUUM; PRAGMA journal_mode = WAL;" > /dev/null || true
                    { printf '\x00'; cat "$WORK/seed.sqlite"; } > "$corpus/store-file"
                    python3 - "$WORK/seed.sqlite" "$corpus" <<'PY' || true
import sqlite3, struct, sys
database = sqlite3.connect(sys.argv[1])
def escaped(data):
    return data.replace(b"\x01", b"\x01\x02").replace(b"\x00", b"\x01\x01")
def field(value):
    if value is None:
        return b""
    if isinstance(value, int):
        return b"\x00" + escaped(struct.pack(">q", value))
    if isinstance(value, float):
        return b"\x01" + escaped(struct.pack(">d", value))
    if isinstance(value, bytes):
        return b"\x02" + escaped(value)
    return b"\x03" + escaped(str(value).encode())
tables = [name for (name,) in database.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
for index, table in enumerate(tables):
    row = database.execute(f'SELECT * FROM "{table}" LIMIT 1').fetchone()
    if row is None:
        continue
    # The table's index (0 as the count: a 0x00 byte would end the field), an even operation.
    edit = bytes([index or len(tables), 2])
    with open(f"{sys.argv[2]}/edit-{table}", "wb") as seed:
        seed.write(b"\x01" + b"\x00".join([edit] + [field(value) for value in row]))
PY
                fi
            fi
            ;;
        store-upgrade)
            # An older store's rows (after a first byte the harness skips, fields split at NUL:
            # anchor, export date, header, a device, then objects of six fields: uuid, kind,
            # type, start, end, body).
            body='{"kind":"quantitySample","uuid":"00000000-0000-4000-8000-000000000001","sampleType":"HKQuantityTypeIdentifierHeartRate","startDate":"2024-01-01T09:00:00+01:00","endDate":"2024-01-01T09:00:00+01:00","quantity":{"value":72,"unit":"count/min"}}'
            printf '\x01\x01\x002024-01-01 10:00:00 +0100\x00{"kind":"export","locale":"en_US"}\x00{"name":"Watch"}\x0000000000-0000-4000-8000-000000000001\x00quantitySample\x00HKQuantityTypeIdentifierHeartRate\x00\x65\x92\x80\x01\x01\x00\x65\x92\x80\x01\x01\x00%s' "$body" > "$corpus/older-store"
            ;;
        mcp-framing)
            # Three bytes of parameters (bound, kept prefix, piece sizes), then a client's
            # messages: whole, cut, empty lines, CRLF, over the bound, an id late or nested.
            init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}'
            call='{"jsonrpc":"2.0","id":"call-2","method":"tools/call","params":{"name":"query_samples","arguments":{"types":["StepCount"],"pageSize":2}}}'
            printf '\377\100\001%s\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n%s\n' "$init" "$call" > "$corpus/session"
            printf '\020\010\007%s\n\n\n%s' "$call" "$init" > "$corpus/over-bound-no-final-newline"
            printf '\310\077\003{"params":{"id":5,"x":[1,{"id":6}]},"id":-1.5e3}\r\n{"id":"a\\"b\\u00e9"}\n' > "$corpus/ids"
            printf '\030\002\142%s%s\n' "$init" "$init" > "$corpus/two-in-one-line"
            ;;
    esac
}

# The largest input each harness is given. An input's time follows its size where the harness
# reads it several times: the export harness at 256 KB ran about 330 inputs a CPU-second on its
# corpus, at 16 KB about 1,050 (docs/benchmarks.md). The Health Connect databases need their
# 130 KB; the others' inputs are small, or whole stores. A corpus or regression input over the
# limit is cut to it when the campaign loads it (the regression inputs are replayed whole by the
# unit tests, and by --replay, which gives every input whole).
max_len() {
    [ "$REPLAY" = 1 ] && { echo 1048576; return; }
    case "$1" in
        export) echo 16384 ;;
        health-connect) echo 163840 ;;
        # A store's file in 512-byte pages (the seed, 40 KB) or a few edits; an older store's rows.
        store) echo 65536 ;;
        store-upgrade) echo 16384 ;;
        *) echo 262144 ;;
    esac
}

status=0
printf '%-12s %12s %10s  %s\n' harness executions "exec/s" result
for harness in "${HARNESSES[@]}"; do
    build "$harness"
    seed "$harness"
    findings="Fuzz/findings/$harness"
    mkdir -p "$findings"
    log="$WORK/$harness.log"
    # An earlier run's logs, of more workers than this one, would be counted with this run's.
    rm -f "$log" "$log".*
    set +e
    # Harnesses write each input to a file (the store harness a database): on a memory file
    # system when there is one.
    if [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm/; else unset TMPDIR; fi
    # WORKERS processes share the corpus (each its own log), each stopping after RUNS / WORKERS
    # executions or SECONDS, whichever comes first. Fuzz/regressions/<harness> (committed) holds
    # every input that once failed: run first.
    pids=()
    started=$(date +%s)
    for worker in $(seq 1 "$WORKERS"); do
        per_worker=()
        [ "$RUNS" -gt 0 ] && per_worker=(-runs=$(( RUNS / WORKERS )))
        # A replay runs each input once (-runs=0 with folders), one worker.
        [ "$REPLAY" = 1 ] && { per_worker=(-runs=0); [ "$worker" = 1 ] || continue; }
        "$SCRATCH/$CONFIGURATION/fuzz-$harness" -max_total_time="$SECONDS_EACH" "${per_worker[@]}" -timeout="$TIMEOUT" -rss_limit_mb=2048 -max_len="$(max_len "$harness")" -detect_leaks=0 \
            -artifact_prefix="$findings/" -print_final_stats=1 "$WORK/corpus/$harness" \
            $( [ -d "Fuzz/regressions/$harness" ] && echo "Fuzz/regressions/$harness" ) > "$log.$worker" 2>&1 &
        pids+=($!)
    done
    code=0
    for pid in "${pids[@]}"; do wait "$pid" || code=$?; done
    set -e
    cat "$log".* > "$log"
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | awk '{ total += $1 } END { print total + 0 }')
    elapsed=$(( $(date +%s) - started ))
    rate=$(( runs / (elapsed > 0 ? elapsed : 1) ))
    if [ "$code" -eq 0 ]; then
        printf '%-12s %12s %10s  %s\n' "$harness" "$runs" "$rate" "ok ($elapsed s, $WORKERS worker(s))"
    else
        printf '%-12s %12s %10s  %s\n' "$harness" "$runs" "$rate" "FAILED (status $code; see $log and $findings)"
        grep -m 3 -E 'ERROR|Fatal error|panic' "$log" || true
        status=1
    fi
done
exit $status
