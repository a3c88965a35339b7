#!/usr/bin/env python3
"""Compares two healthport binaries on one command, runs interleaved (A, B, A, B, …): the best
CPU time (user + system) and wall time of each, and B's change against A.

    Benchmarks/compare.py RUNS OLD_BINARY NEW_BINARY ARGUMENTS...
    Benchmarks/compare.py 9 /tmp/healthport-before .build/release/healthport \\
        convert Benchmarks/work/export-4y-d1.xml --format ndjson --quiet --jobs 1

For speed work between two commits: interleaving spreads the machine's drift over both, so a
few per cent is visible on the shared VMs where separate runs of Benchmarks/run.sh differ by
ten. Output goes to /dev/null."""
import os, resource, subprocess, sys, time

runs, binaries, arguments = int(sys.argv[1]), {"old": sys.argv[2], "new": sys.argv[3]}, sys.argv[4:]
cpu = {name: float("inf") for name in binaries}
wall = dict(cpu)
for _ in range(runs):
    for name, binary in binaries.items():
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([binary] + arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        cpu[name] = min(cpu[name], used)
        wall[name] = min(wall[name], elapsed)
print("cpu  old %.3f s  new %.3f s  %+.1f%%" % (cpu["old"], cpu["new"], 100 * (cpu["new"] / cpu["old"] - 1)))
print("wall old %.3f s  new %.3f s  %+.1f%%" % (wall["old"], wall["new"], 100 * (wall["new"] / wall["old"] - 1)))
