#!/usr/bin/env python3
"""The reference a daily summary's rows of one type are checked against, day by day, made by
another command than the summary: `healthport stats` of the type, read as the Health app reads
the type's day (docs/reference/daily-measures.md), or, for sleep, `healthport sleep`'s nights.

    reference.py HEALTHPORT TYPE ZONE INPUT...      (INPUT: an export, or --store PATH)

Prints a CSV with `day` and the columns to compare (`sum`, `average`, `minimum`, `maximum`,
`duration`, `inBed`, `count`), one row per day the reference shows. Exits 64 when stats takes
no such type (a workout, a type healthport does not know), as stats does, and 2 for a category
type this check has no rule for (add it below, from the reference's table).
"""
from __future__ import annotations

import csv
import io
import subprocess
import sys

# Each category type of the generated exports: the samples that count toward its day (a
# `--where` on stats) and the figures its day has. Quantity types are stats' own numbers.
CATEGORY_RULES = {
    # The hours stood (HKCategoryValueAppleStandHour.stood is 0): a count, no time.
    "HKCategoryTypeIdentifierAppleStandHour": ("value == 0", ("count",)),
    # A symptom: the samples that say it was there (severity notPresent is 1), counted.
    "HKCategoryTypeIdentifierHeadache": ("value != 1", ("count",)),
    # An event: counted, never timed.
    "HKCategoryTypeIdentifierHighHeartRateEvent": (None, ("count",)),
    # Sessions: the time covered, sources merged, and the sessions.
    "HKCategoryTypeIdentifierMindfulSession": (None, ("duration", "count")),
}
SLEEP = "HKCategoryTypeIdentifierSleepAnalysis"
COLUMNS = ("sum", "average", "minimum", "maximum", "duration", "inBed", "count")


def run(arguments: list[str]) -> tuple[int, str]:
    result = subprocess.run(arguments, capture_output=True, check=False)
    if result.returncode not in (0, 64):
        sys.stderr.write(result.stderr.decode())
    return result.returncode, result.stdout.decode("utf-8")


def main() -> int:
    healthport, kind, zone, source = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(("day", *COLUMNS))
    common = [*source, "--tz", zone, "--format", "csv", "--quiet"]
    if kind == SLEEP:
        # A day's sleep is the night that ended that morning: its asleep time and time in bed.
        status, text = run([healthport, "sleep", *common])
        if status != 0:
            return status
        for night in csv.DictReader(io.StringIO(text)):
            out.writerow((night["night"], "", "", "", "", night["asleep"], night["inBed"], ""))
        return 0
    where: list[str] = []
    compared = COLUMNS
    if kind.startswith("HKCategoryTypeIdentifier"):
        if kind not in CATEGORY_RULES:
            print(f"reference.py: no rule for {kind}: add it to CATEGORY_RULES", file=sys.stderr)
            return 2
        predicate, compared = CATEGORY_RULES[kind]
        where = ["--where", predicate] if predicate else []
    status, text = run([healthport, "stats", *common, "--type", kind, *where])
    if status != 0:
        return status
    for row in csv.DictReader(io.StringIO(text)):
        out.writerow((row["startDate"][:10], *(row.get(column, "") if column in compared else "" for column in COLUMNS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
