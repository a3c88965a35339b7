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
healthport="$(realpath "${1:-.build/debug/healthport}")"
generate="$(realpath "${2:-.build/debug/generate-export}")"
venv="${HEALTHPORT_MCP_VENV:-.build/mcp-venv}"

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import mcp.client.stdio' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet mcp
fi

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
