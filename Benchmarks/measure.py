#!/usr/bin/env python3
"""Runs a command N times; prints the best wall time (s) and its peak RSS (MB) as JSON.

With REFERENCE set (a shell-quoted command), the reference runs before each run of the command
and its best time is printed too ("reference_seconds"): a ratio of two bests taken side by side
stays meaningful on a machine whose speed drifts over minutes, as these shared VMs' does.
REFERENCE2, a second reference, runs alike ("reference2_seconds").

Output goes to /dev/null (the benchmark measures conversion, not the disk)."""
import json, os, shlex, subprocess, sys, time

def run_once(argv):
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.execvp(argv[0], argv)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"measure: {' '.join(argv)} failed with {status}")
    return elapsed, usage.ru_maxrss / 1024.0

runs = int(sys.argv[1])
argv = sys.argv[2:]
reference = shlex.split(os.environ.get("REFERENCE", ""))
reference2 = shlex.split(os.environ.get("REFERENCE2", ""))
results, references, references2 = [], [], []
for _ in range(runs):
    if reference:
        references.append(run_once(reference)[0])
    if reference2:
        references2.append(run_once(reference2)[0])
    results.append(run_once(argv))
report = {"seconds": min(results)[0], "peak_rss_mb": max(r[1] for r in results)}
if references:
    report["reference_seconds"] = min(references)
if references2:
    report["reference2_seconds"] = min(references2)
print(json.dumps(report))
