#!/usr/bin/env python3
"""Runs a command N times; prints the best wall time (s) and its peak RSS (MB) as JSON.

Output goes to /dev/null (the benchmark measures conversion, not the disk)."""
import json, os, resource, subprocess, sys, time

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
results = [run_once(argv) for _ in range(runs)]
best = min(results)
print(json.dumps({"seconds": best[0], "peak_rss_mb": max(r[1] for r in results)}))
