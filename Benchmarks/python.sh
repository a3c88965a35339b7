#!/usr/bin/env bash
# The Python package's benchmark (issue 44's target): the time from `healthport.read(...)` to
# pandas data frames of every table, on the 1-year generated export (the zip, as the Health app
# writes it), against the command's own Parquet conversion of the same export, run alternately
# (each Python run between two command runs), best of RUNS:
#
#   read(export) + to_pandas() of every table / healthport convert --format parquet <= 1.5
#
# The Python side runs in a fresh interpreter each time, with pyarrow and pandas imported before
# the clock starts (an analysis session has them loaded); its peak RSS is printed, since the
# frames are in memory where the command's tables are on disk. read() has the binary write
# its Parquet uncompressed (the files live for one call): that conversion is timed too, and the
# ratio to it printed, so that what the Python side itself costs is seen apart.
#
#   Benchmarks/python.sh                         # RUNS=3 by default
#   HEALTHPORT=.build/release/healthport Benchmarks/python.sh   # another binary
#
# The package is installed from python/ into Benchmarks/work/venv-python (pandas pinned to the
# major version tested) and runs the binary named by HEALTHPORT, the same binary the conversion
# is timed with. The default is the one the wheel carries: the README's release build
# (Benchmarks/release-build.sh), which Scripts/package-deb.sh packages.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
WORK="Benchmarks/work"
mkdir -p "$WORK"

. Benchmarks/release-build.sh
BIN_FOLDER="$BIN"
if [ -n "${HEALTHPORT:-}" ]; then
    BIN="$(realpath "$HEALTHPORT")"
else
    BIN="$(realpath "$BIN_FOLDER/healthport")"
fi
GENERATE="$BIN_FOLDER/generate-export"

# The 1-year export and its zip, as Benchmarks/run.sh makes them (shared with it).
file="$WORK/export-1y-d1.xml"
[ -s "$file" ] || "$GENERATE" --days 365 --density 1 --no-forbidden-characters --output "$file" >/dev/null
zip="$WORK/zip-1y-d1/export.zip"
if [ ! -s "$zip" ]; then
    mkdir -p "$(dirname "$zip")"
    python3 - "$file" "$zip" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
    z.write(sys.argv[1], "apple_health_export/export.xml")
PY
fi

VENV="$WORK/venv-python"
if ! "$VENV/bin/python" -c 'import healthport, pandas' 2>/dev/null || [ python/src -nt "$VENV/.installed" ]; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "./python[pandas]" 2>&1 | grep -v 'HEALTHPORT_WHEEL_ROOT' >&2 || true
    "$VENV/bin/python" -c 'import healthport, pandas'
    touch "$VENV/.installed"
fi

HEALTHPORT_BINARY="$BIN" "$VENV/bin/python" - "$BIN" "$zip" "$RUNS" "$WORK" <<'PY'
import json, os, shutil, subprocess, sys, time

binary, export, runs, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
output = os.path.join(work, "python-parquet-out")

def convert(*options):
    shutil.rmtree(output, ignore_errors=True)
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.execv(binary, [binary, "convert", export, "--format", "parquet", "--output", output, "--quiet", *options])
    _, status, usage = os.wait4(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the conversion failed"
    return time.perf_counter() - start, usage.ru_maxrss / 1024

READ = r'''
import json, resource, sys, time
import healthport, pandas, pyarrow
start = time.perf_counter()
tables = healthport.read(sys.argv[1], quiet=True, progress=False)
frames = tables.to_pandas()
seconds = time.perf_counter() - start
rows = sum(len(frame) for frame in frames.values())
print(json.dumps({"seconds": seconds, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rows": rows, "tables": len(frames)}))
'''

def read():
    result = subprocess.run([sys.executable, "-c", READ, export], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)

cli, python, uncompressed = [], [], []
for _ in range(runs):
    cli.append(convert())
    python.append(read())
    uncompressed.append(convert("--compression", "none"))
shutil.rmtree(output, ignore_errors=True)
best_cli = min(cli)
best_python = min(python, key=lambda r: r["seconds"])
size = os.path.getsize(export) / 1e6
print("%-58s %9s" % ("1-year export, zip (%.0f MB), best of %d" % (size, runs), ""))
print("%-58s %9.2f s   peak RSS %6.1f MB" % ("healthport convert --format parquet", best_cli[0], best_cli[1]))
# What read() runs: the same conversion, uncompressed (its files live for one call).
print("%-58s %9.2f s" % ("  the same, --compression none (what read() runs)", min(uncompressed)[0]))
print("%-58s %9.2f s   peak RSS %6.1f MB (Python)" % ("healthport.read(export) + to_pandas(), every table", best_python["seconds"], max(r["rss"] for r in python)))
print("%-58s %9d rows in %d tables" % ("frames", best_python["rows"], best_python["tables"]))
ratio = best_python["seconds"] / best_cli[0]
print("%-58s %9.2f x   (target <= 1.5: %s)" % ("read to pandas / Parquet conversion", ratio, "met" if ratio <= 1.5 else "NOT met"))
print("%-58s %9.2f x" % ("read to pandas / uncompressed conversion", best_python["seconds"] / min(uncompressed)[0]))
PY
