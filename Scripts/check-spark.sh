#!/usr/bin/env bash
# Runs the Spark job (Scripts/spark/convert_exports.py) in local[2] mode on four generated
# exports and one damaged one, with pyspark from PyPI in a private virtual environment and Java
# from Debian, and checks: the lake equals `healthport convert --partition person,type` on one
# machine, file for file and byte for byte; Spark SQL reads it with partition discovery and the
# counts and sums equal the generator's known answers; a task that fails on its first attempt
# (injected) leaves no duplicate rows; the damaged export is in _manifest.json as failed; and
# --resume converts nothing again.
#
#   Scripts/check-spark.sh [path/to/healthport [path/to/generate-export]]
set -euo pipefail
cd "$(dirname "$0")/.."
HEALTHPORT="$(realpath -m "${1:-.build/debug/healthport}")"
GENERATE="${2:-.build/debug/generate-export}"
VENV="${SPARK_VENV:-Benchmarks/work/venv-spark}"
# Pinned to the major versions checked (pyspark 4, pyarrow 26; the same venv as
# check-parquet.sh, whose pins these must equal): a new major is a change to check, not a
# surprise in CI. pip does nothing when the venv already holds versions in range.
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet 'pyspark>=4,<5' 'pyarrow>=26,<27'
# .ci/prepare-checks stops here (HEALTHPORT_CHECK_PREPARE): what this check installs is in place.
[ -z "${HEALTHPORT_CHECK_PREPARE:-}" ] || exit 0
command -v java >/dev/null || { echo "Java is needed (apt-get install openjdk-17-jre-headless)"; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# Parquet when this healthport writes it, else CSV: the job passes the format through.
FORMAT=csv
# (The help is read whole first: `| grep -q` under pipefail failed whenever grep left before the
# help was written, and the check then ran on CSV.)
case "$("$HEALTHPORT" convert --help)" in *parquet*) FORMAT=parquet ;; esac

mkdir -p "$WORK/exports"
for person in ada bob cy dee; do
    seed=$(printf '%s' "$person" | cksum | cut -d' ' -f1)
    "$GENERATE" --days 8 --seed "$seed" --zip "$WORK/exports/$person.zip" --manifest "$WORK/$person.json" >/dev/null
    "$HEALTHPORT" convert "$WORK/exports/$person.zip" --quiet --type StepCount > "$WORK/$person.steps.ndjson"
done
head -c 20000 "$WORK/exports/ada.zip" > "$WORK/exports/broken.zip"

# One machine: the reference lake (the damaged export fails there too).
"$HEALTHPORT" convert "$WORK"/exports/*.zip --quiet --format "$FORMAT" --partition person,type --jobs 2 --output "$WORK/lake-local" || true

export PYSPARK_PYTHON="$VENV/bin/python" HEALTHPORT_SPARK_FAIL_FIRST_ATTEMPT=1
"$VENV/bin/spark-submit" --master 'local[2,3]' --conf spark.ui.enabled=false --files "$HEALTHPORT" \
    Scripts/spark/convert_exports.py --inputs "$WORK/exports/*.zip" --output "$WORK/lake-spark" --format "$FORMAT" \
    --partition person,type > "$WORK/spark.log" 2>&1 || { tail -n 40 "$WORK/spark.log"; exit 1; }
grep -c 'injected failure' "$WORK/spark.log" > /dev/null || { echo "FAIL no attempt failed: the injection did not run"; exit 1; }
unset HEALTHPORT_SPARK_FAIL_FIRST_ATTEMPT
"$VENV/bin/spark-submit" --master 'local[2]' --conf spark.ui.enabled=false --files "$HEALTHPORT" \
    Scripts/spark/convert_exports.py --inputs "$WORK/exports/*.zip" --output "$WORK/lake-spark" --format "$FORMAT" \
    --partition person,type --resume > "$WORK/resume.log" 2>&1 || { tail -n 40 "$WORK/resume.log"; exit 1; }

"$VENV/bin/python" - "$WORK" "$FORMAT" <<'PY'
import filecmp, json, os, sys
from pyspark.sql import SparkSession, functions as F
work, fmt = sys.argv[1], sys.argv[2]
failures = 0
def check(what, got, expected):
    global failures
    ok = got == expected
    failures += not ok
    print("%-4s %-55s %s%s" % ("ok" if ok else "FAIL", what, got, "" if ok else "  (expected %s)" % (expected,)))

def files(root):
    found = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name != "_manifest.json":
                found.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(found)
local, spark_lake = files(work + "/lake-local"), files(work + "/lake-spark")
check("the same files as on one machine (count)", len(spark_lake), len(local))
check("the same file names as on one machine", spark_lake == local, True)
different = [f for f in local if f in spark_lake and not filecmp.cmp(work + "/lake-local/" + f, work + "/lake-spark/" + f, shallow=False)]
check("files differing from one machine's", different, [])
check("no staging left", os.path.exists(work + "/lake-spark/_staging"), False)

manifest = json.load(open(work + "/lake-spark/_manifest.json"))
status = {os.path.basename(e["input"]): e["status"] for e in manifest["inputs"]}
check("manifest: four complete, the damaged one failed", status, {"ada.zip": "complete", "bob.zip": "complete", "broken.zip": "failed", "cy.zip": "complete", "dee.zip": "complete"})
check("manifest: the failure says why", bool([e for e in manifest["inputs"] if e["status"] == "failed" and e.get("error")]), True)

people = ["ada", "bob", "cy", "dee"]
known = {p: json.load(open("%s/%s.json" % (work, p))) for p in people}
steps = {p: sum(json.loads(l)["quantity"]["value"] for l in open("%s/%s.steps.ndjson" % (work, p)) if '"quantitySample"' in l) for p in people}
spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
def table(name):
    path = work + "/lake-spark"
    reader = spark.read.option("basePath", path)
    if fmt == "parquet":
        # Spark refuses the UUID annotation when inferring; the helper gives it the schema.
        sys.path.insert(0, "Scripts/spark")
        from healthport_lake import read_table
        return read_table(spark, path, name)
    return reader.option("header", True).option("inferSchema", True).csv(path + "/person=*/type=%s" % name)
rows = {r["person"]: r["count"] for r in table("HeartRate").groupBy("person").count().collect()}
for p in people:
    check("HeartRate rows, person=" + p + " (partition discovery)", rows.get(p), known[p]["objectsByType"]["HKQuantityTypeIdentifierHeartRate"])
value = "quantity_value" if fmt == "csv" else ("quantity_value" if "quantity_value" in table("StepCount").columns else "value")
sums = {r["person"]: r["s"] for r in table("StepCount").groupBy("person").agg(F.sum(value).alias("s")).collect()}
for p in people:
    check("StepCount sum, person=" + p, round(sums.get(p, 0), 6), round(steps[p], 6))
uuids = table("HeartRate").select("uuid")
check("no duplicate rows after the failed first attempts", uuids.count(), uuids.distinct().count())
spark.stop()
sys.exit(1 if failures else 0)
PY
grep -q 'healthport-spark: 0 converted, 1 failed, 4 skipped' "$WORK/resume.log" || { echo "FAIL --resume converted again:"; grep healthport-spark "$WORK/resume.log"; exit 1; }
echo "ok   --resume: the four complete exports skipped, the damaged one tried again"
echo "Spark converted the exports into the lake one machine writes ($FORMAT)"
