#!/usr/bin/env python3
"""Apple's own rings against `healthport days` (issue 48): on every real export of the oracle
folder (../shared/oracle, read from its PROVENANCE.md's "Use" lines: which rings each export can
check, and the days its excused.txt traces to gaps in the export itself), every day's computed
move (active energy), exercise minutes and stand hours must be Apple's `ActivitySummary` value.

    check_rings.py HEALTHPORT ORACLE_FOLDER

Prints one line per export and ring (checked days, equal days) and every day that differs;
exits 1 when a day that is not excused differs, 0 otherwise. The data stays where it is: it has
no licence, and nothing of it is copied.
"""
from __future__ import annotations

import csv
import io
import re
import subprocess
import sys
from pathlib import Path

COLUMNS = {"move": ("active_energy_kcal", "apple_move_kcal"), "exercise": ("exercise_min", "apple_exercise_min"),
           "stand": ("stand_hours", "apple_stand_hours")}
USE = re.compile(r"shared/oracle/(\S+/export\.xml) --rings (\S+)(?: --excuse shared/oracle/(\S+))?")


def excused(path: Path | None) -> set[tuple[str, str]]:
    if path is None or not path.exists():
        return set()
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        date, ring = line.split()[:2]
        found.add((date, ring))
    return found


def number(text: str | None) -> float:
    return float(text) if text else 0.0


def check(healthport: str, export: Path, rings: list[str], excuses: set[tuple[str, str]]) -> int:
    result = subprocess.run([healthport, "days", str(export), "--format", "csv", "-q"], capture_output=True, check=False)
    if result.returncode != 0:
        print(f"{export}: healthport days failed ({result.returncode}): {result.stderr.decode()[:300]}")
        return 1
    rows = list(csv.DictReader(io.StringIO(result.stdout.decode("utf-8"))))
    failures = 0
    for ring in rings:
        computed, apple = COLUMNS[ring]
        checked = exact = close = 0
        for row in rows:
            date = row["date"]
            # Apple's placeholder rows (1969-12-30, 1969-12-31), days without a summary, and days
            # the ring is zero (the Watch not worn: nothing to compare).
            if date < "2000" or not row.get(apple) or number(row.get(apple)) == 0:
                continue
            if (date, ring) in excuses:
                continue
            checked += 1
            mine, theirs = number(row.get(computed)), number(row.get(apple))
            # Both are rounded alike (whole kilocalories, minutes, hours). Stand hours are
            # counted, and must be equal; a kilocalorie or a minute either way is Apple's ring
            # rounding its own minute-by-minute data, which the export never holds (a minute
            # written across the boundary Apple cut its minute at).
            if mine == theirs:
                exact += 1
            elif ring != "stand" and abs(mine - theirs) <= 1:
                close += 1
                print(f"  {export.parent.name}/{export.name} {date} {ring}: healthport {mine:g}, Apple {theirs:g} (within one)")
            else:
                failures += 1
                print(f"  {export.parent.name}/{export.name} {date} {ring}: healthport {mine:g}, Apple {theirs:g}: DIFFERS")
        name = "/".join(export.parts[-3:]) if export.parent.name.startswith("20") else "/".join(export.parts[-2:])
        print(f"{name}: {ring}: {exact} of {checked} days exact, {close} within one, {checked - exact - close} differ")
        if checked == 0:
            print(f"  no day to check for {ring}")
            failures += 1
    return failures


def main() -> int:
    healthport, oracle = sys.argv[1], Path(sys.argv[2])
    failures = 0
    exports = 0
    for provenance in sorted(oracle.glob("*/PROVENANCE.md")):
        for match in USE.finditer(provenance.read_text(encoding="utf-8")):
            export = oracle / match.group(1)
            excuse = oracle / match.group(3) if match.group(3) else None
            exports += 1
            failures += check(healthport, export, match.group(2).split(","), excused(excuse))
    if exports == 0:
        print(f"no export with a Use line under {oracle}")
        return 1
    print(f"{exports} exports checked, {failures} days differ by more than one")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
