#!/usr/bin/env bash
# `healthport mcp` driven by a client no one here wrote: the official Python MCP SDK (`mcp` from
# PyPI, in a virtual environment this script makes) launches the server over stdio on a generated
# store, lists the tools, calls each, answers elicitations (accept, decline, cancel), checks the
# policy file after each, and checks that a denied type leaks nothing (Scripts/mcp/check_client.py).
#
# Usage: Scripts/check-mcp.sh [HEALTHPORT] [GENERATE-EXPORT]
# The virtual environment stays in $HEALTHPORT_MCP_VENV (default .build/mcp-venv), so a second
# run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
healthport="$(realpath -m "${1:-.build/debug/healthport}")"
generate="$(realpath -m "${2:-.build/debug/generate-export}")"
venv="${HEALTHPORT_MCP_VENV:-.build/mcp-venv}"

# The SDK pinned to the major version this script reads (2.x, checked with 2.3.0): its 2.0
# renamed every attribute a client reads, and the next major would break the check the same way.
# A venv holding another version is brought to the pinned range (pip does nothing when it is in).
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet 'mcp>=2,<3'
# .ci/prepare-checks stops here (HEALTHPORT_CHECK_PREPARE): what this check installs is in place.
[ -z "${HEALTHPORT_CHECK_PREPARE:-}" ] || exit 0

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$generate" --days 14 --zip "$work/export.zip" --manifest "$work/manifest.json" >/dev/null
"$healthport" import "$work/export.zip" --store "$work/health.sqlite" -q >/dev/null
policy="$work/assistant.json"
"$healthport" auth request --policy "$policy" --consumer "Python client" --read StepCount,Workout,BodyTemperature --grant
"$healthport" auth request --policy "$policy" --read HeartRate --deny

# Malformed JSON-RPC is answered with a JSON-RPC error, and the server goes on (then ends with
# its input, status 0). Nothing but protocol messages on standard output.
# (Input stays open a moment, so the ping is answered whatever the server's grace at the end.)
out="$( { printf '%s\n' 'this is not JSON' '{"jsonrpc":"2.0","id":1,"method":"ping"}'; sleep 1; } \
    | "$healthport" mcp --store "$work/health.sqlite" --policy "$policy" 2>"$work/stderr")"
grep -q '"error"' <<<"$out" || { echo "FAILED: no JSON-RPC error for malformed input: $out" >&2; exit 1; }
grep -q '"id":1' <<<"$out" || { echo "FAILED: the server stopped after malformed input: $out" >&2; exit 1; }
while IFS= read -r line; do
    "$venv/bin/python" -c 'import json,sys; json.loads(sys.argv[1])' "$line" \
        || { echo "FAILED: not a JSON-RPC message on standard output: $line" >&2; exit 1; }
done <<<"$out"

"$venv/bin/python" Scripts/mcp/check_client.py "$healthport" "$work/health.sqlite" "$policy" "$work/manifest.json" 2>"$work/client-stderr" \
    || { cat "$work/client-stderr" >&2; exit 1; }
# The server's standard error (passed through to the client's) holds no health data.
if grep -q -E 'count/min|HKQuantityTypeIdentifier' "$work/client-stderr" "$work/stderr"; then
    echo "FAILED: health data on standard error" >&2
    exit 1
fi

# `--parser` reaches the runs the tools make (issue 37: it was a task-local, which the tools'
# threads never saw, so `mcp --parser libxml2` read with the scanner). Counted as the audit
# counted it: libxml2's xmlParseChunk calls, through a shim preloaded into the server. libxml2
# alone parses the whole document in 256 KiB pieces; with the scanner libxml2 sees the prolog.
cat > "$work/count.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
static long calls;
static void report(void) {
    const char *path = getenv("HEALTHPORT_CHUNK_COUNT");
    FILE *file = path ? fopen(path, "w") : NULL;
    if (file) { fprintf(file, "%ld\n", calls); fclose(file); }
}
int xmlParseChunk(void *context, const char *chunk, int size, int terminate) {
    static int (*real)(void *, const char *, int, int);
    if (!real) { real = (int (*)(void *, const char *, int, int))dlsym(RTLD_NEXT, "xmlParseChunk"); atexit(report); }
    calls++;
    return real(context, chunk, size, terminate);
}
C
cc -shared -fPIC -o "$work/count.so" "$work/count.c" -ldl
chunks() {
    { printf '%s\n' \
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"check","version":"1"}}}' \
        '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"describe","arguments":{}}}'; sleep 3; } \
        | HEALTHPORT_CHUNK_COUNT="$work/chunks" LD_PRELOAD="$work/count.so" "$healthport" mcp "$work/export.zip" --policy "$policy" "$@" \
        > "$work/parser.out" 2>/dev/null
    grep -q '"id":2' "$work/parser.out" || { echo "FAILED: describe was not answered: $(cat "$work/parser.out")" >&2; exit 1; }
    cat "$work/chunks"
}
scanner=$(chunks)
libxml2=$(chunks --parser libxml2)
echo "mcp --parser: xmlParseChunk called $scanner times with the scanner, $libxml2 with --parser libxml2"
# libxml2 alone takes at least one call per 256 KiB of the document; the scanner leaves it fewer.
size=$(unzip -l "$work/export.zip" | awk '/export\.xml$/ { print $1; exit }')
pieces=$(( size / 262144 ))
[ "$libxml2" -ge "$pieces" ] && [ "$scanner" -lt "$pieces" ] \
    || { echo "FAILED: mcp --parser libxml2 did not read with libxml2 (a ${size}-byte document is $pieces pieces)" >&2; exit 1; }

