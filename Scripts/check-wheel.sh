#!/usr/bin/env bash
# Checks the Python package as a user gets it:
#   1. builds the wheel (Scripts/package-wheel.sh), unless WHEEL is given;
#   2. installs it into a fresh virtual environment with its test extras (pytest, pandas,
#      polars, and a Jupyter kernel for the notebook test), and runs python/tests there with a
#      PATH holding that environment and the system's folders only: `healthport` is the wheel's
#      command, `import healthport` the installed package (the tests run from outside python/ and
#      refuse a source tree), HEALTHPORT_BINARY is unset; then `mypy --strict` over the package's
#      source in that environment (python/pyproject.toml, [tool.mypy]);
#   3. installs it with pip into a clean Debian 12 root (debootstrap minbase, the base
#      Scripts/check-package.sh caches, plus python3-venv and nothing else), and there runs
#      `healthport --version`, one conversion of the sample, `python -m healthport`, a read
#      into Arrow and a daily summary, with no Swift, libxml2 or libcurl installed in the root,
#      and every library the binary loads either one manylinux promises or the wheel's own copy.
#
#   Scripts/check-wheel.sh [WHEEL]
#
# Step 3 needs root (chroot, mount) and debootstrap; CHECK_WHEEL_ROOT=0 skips it. The
# debootstrap base and apt's caches are shared with check-package.sh under
# Benchmarks/work/package-root (HEALTHPORT_PACKAGE_CACHE); pip's cache for the root is kept
# there too, so a second run downloads nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
repository="$PWD"

if [ $# -ge 1 ]; then
    wheel="$1"
else
    wheel="$(Scripts/package-wheel.sh | sed -n '$p')"
fi
[ -f "$wheel" ] || { echo "check-wheel.sh: no wheel at '$wheel'" >&2; exit 66; }
wheel="$(realpath "$wheel")"
echo "== $(basename "$wheel"): $(($(stat -c %s "$wheel") / 1024 / 1024)) MiB" >&2

# ---- 2. a fresh virtual environment, and the tests against the installed wheel
venv=".build/wheel-check/venv"
rm -rf "$venv"
python3 -m venv "$venv"
venv="$(realpath "$venv")"
echo "== pip install the wheel and its test extras into $venv" >&2
# Each pinned to the major version (for 0.x, the minor) the checks last passed with.
"$venv/bin/pip" install --quiet "$wheel[test]" "nbclient>=0.11,<0.12" "ipykernel>=7,<8" "nbformat>=5,<6" \
    "mypy>=2,<3" "pandas-stubs>=3,<4"
"$venv/bin/python" -m ipykernel install --prefix "$venv" --name python3 >/dev/null

echo "== pytest python/tests, against the installed package" >&2
(
    cd "$venv"   # not in the repository: nothing there to import by accident
    unset HEALTHPORT_BINARY HEALTHPORT_TEST_SOURCE PYTHONPATH
    export PATH="$venv/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    export JUPYTER_PATH="$venv/share/jupyter" JUPYTER_CONFIG_DIR="$venv/etc/jupyter" JUPYTER_DATA_DIR="$venv/share/jupyter"
    [ "$(command -v healthport)" = "$venv/bin/healthport" ] ||
        { echo "check-wheel.sh: healthport on the PATH is $(command -v healthport), not the wheel's" >&2; exit 1; }
    "$venv/bin/python" -m pytest -p no:cacheprovider --rootdir "$repository/python" -c "$repository/python/pyproject.toml" "$repository/python/tests"
)

echo "== mypy --strict python/src/healthport" >&2
(cd python && "$venv/bin/mypy" --config-file pyproject.toml --cache-dir /dev/null)

# ---- 2b. a copy of python/ outside the repository, pip-installed against a healthport the
# person already has (here the wheel's binary, on PATH): the package needs no repository and
# no HEALTHPORT_BINARY, and its own console script runs that binary.
echo "== pip install a copy of python/, outside the repository, against a healthport on PATH" >&2
copy="$(mktemp -d)"
cp -r python "$copy/python"
rm -rf "$copy/python/src/healthport/_bin"
shipped="$(ls -d "$venv"/lib/python3*/site-packages/healthport/_bin | head -n 1)"
other="$copy/venv"
python3 -m venv "$other"
(
    export PATH="$other/bin:$shipped:/usr/sbin:/usr/bin:/sbin:/bin"
    unset HEALTHPORT_BINARY
    "$other/bin/pip" install --quiet "$copy/python" || { echo "check-wheel.sh: FAIL: pip install of a copy of python/" >&2; exit 1; }
    found="$(cd "$copy" && "$other/bin/python" -c 'import healthport; print(healthport.binary())')"
    [ "$found" = "$(realpath "$shipped/healthport")" ] ||
        { echo "check-wheel.sh: FAIL: the copy runs '$found', not the healthport on PATH" >&2; exit 1; }
    version="$(cd "$copy" && healthport --version)"
    [ "$version" = "$("$shipped/healthport" --version)" ] ||
        { echo "check-wheel.sh: FAIL: the copy's healthport command printed '$version'" >&2; exit 1; }
    echo "   the copy runs $found ($version)" >&2
)
rm -rf "$copy"

# ---- 3. a clean Debian 12 root
if [ "${CHECK_WHEEL_ROOT:-1}" = 0 ]; then
    echo "== CHECK_WHEEL_ROOT=0: no Debian 12 root; check-wheel.sh took $((SECONDS - start)) s" >&2
    exit 0
fi
[ "$(id -u)" = 0 ] || { echo "check-wheel.sh: the Debian 12 root needs root (chroot, mount); CHECK_WHEEL_ROOT=0 skips it" >&2; exit 77; }
command -v debootstrap >/dev/null || { echo "check-wheel.sh: debootstrap not found (apt-get install debootstrap)" >&2; exit 69; }

cache="${HEALTHPORT_PACKAGE_CACHE:-Benchmarks/work/package-root}"
mkdir -p "$cache/archives/partial" "$cache/lists/partial" "$cache/pip"
cache="$(realpath "$cache")"
base="$cache/bookworm-minbase.tgz"
# The mirror apt uses for bookworm here, found as check-package.sh finds it.
mirror="${HEALTHPORT_DEBIAN_MIRROR:-$(
    { cat /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
        awk 'BEGIN { RS = ""; FS = "\n" } /Suites:[^\n]*bookworm/ && !/debian-security/ {
            for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, u, " "); print u[2]; exit } }'
)}"
[ -n "$mirror" ] || mirror="$(grep -hsE '^deb +(\[[^]]*\] +)?[a-z]+://[^ ]+ +bookworm ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{ print ($2 ~ /^\[/) ? $3 : $2; exit }' || true)"
mirror="${mirror:-http://deb.debian.org/debian}"

root="$(mktemp -d /var/tmp/healthport-wheel-root.XXXXXX)"
mounts=()
cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true; done
    if grep -q " $root" /proc/mounts; then
        echo "check-wheel.sh: $root still has mounts; left in place" >&2
    else
        rm -rf "$root"
    fi
}
trap cleanup EXIT

if [ ! -s "$base" ]; then
    echo "== debootstrap: downloading bookworm minbase from $mirror into $base (once)" >&2
    debootstrap --variant=minbase --make-tarball="$base.partial" bookworm "$root/make" "$mirror" >&2
    mv "$base.partial" "$base"
    rm -rf "$root/make"
fi
echo "== debootstrap: bookworm minbase from $base" >&2
debootstrap --variant=minbase --unpack-tarball="$base" bookworm "$root" "$mirror" > "$root.log" 2>&1 || {
    cat "$root.log" >&2
    exit 70
}
rm -f "$root.log"
echo "deb $mirror bookworm main" > "$root/etc/apt/sources.list"
printf 'Acquire::Check-Valid-Until "false";\nAPT::Sandbox::User "root";\n' > "$root/etc/apt/apt.conf.d/99check-wheel"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# pip in the root reaches PyPI as pip here does: the same certificate authorities and settings.
# The authorities go to a file of their own (PIP_CERT below): apt-get installs ca-certificates
# in the root, which rewrites /etc/ssl/certs/ca-certificates.crt with Debian's list alone.
host_ca="${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}"
[ -f "$host_ca" ] && install -D -m 0644 "$host_ca" "$root/etc/healthport-check/ca-certificates.crt"
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$root/etc/pip.conf"
mount -t proc proc "$root/proc"
mounts+=("$root/proc")
mount --bind "$cache/archives" "$root/var/cache/apt/archives"
mounts+=("$root/var/cache/apt/archives")
mount --bind "$cache/lists" "$root/var/lib/apt/lists"
mounts+=("$root/var/lib/apt/lists")
mkdir -p "$root/root/.cache/pip"
mount --bind "$cache/pip" "$root/root/.cache/pip"
mounts+=("$root/root/.cache/pip")
cp "$wheel" "$root/tmp/"
cp SampleData/export.zip "$root/tmp/export.zip"
# The pip settings of this machine's environment that reach the root (no find-links: its
# folder is not there).
pip_environment=()
for name in PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_TRUSTED_HOST PIP_DEFAULT_TIMEOUT HTTP_PROXY HTTPS_PROXY NO_PROXY http_proxy https_proxy no_proxy; do
    [ -n "${!name:-}" ] && pip_environment+=("$name=${!name}")
done
[ -f "$root/etc/healthport-check/ca-certificates.crt" ] && pip_environment+=("PIP_CERT=/etc/healthport-check/ca-certificates.crt")

echo "== inside the root: apt-get install python3-venv; pip install ./$(basename "$wheel")" >&2
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive WHEEL="/tmp/$(basename "$wheel")" PIP_DISABLE_PIP_VERSION_CHECK=1 "${pip_environment[@]}" \
    /bin/bash -euo pipefail -c '
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends python3-venv >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
    fail() { echo "check-wheel.sh: FAIL: $*" >&2; exit 1; }

    echo "-- nothing of Swift, libxml2 or libcurl installed here"
    ! command -v swift >/dev/null || fail "swift is on PATH"
    # Not in this list: libzstd (minbase has it: dpkg needs it) and SQLite (python3 brings it,
    # for its sqlite3 module). The wheel carries its own copies all the same, and the ldd check
    # below shows that the binary loads those copies, not these.
    ! ldconfig -p | grep -E "libswift|libFoundation|libdispatch|libxml2|libcurl" || fail "a library the wheel should carry is installed"

    python3 -m venv /opt/healthport
    /opt/healthport/bin/pip install --quiet "$WHEEL" || fail "pip install of the wheel"
    export PATH="/opt/healthport/bin:$PATH"

    echo "-- healthport --version"
    [ "$(command -v healthport)" = /opt/healthport/bin/healthport ] || fail "healthport is not the environment'"'"'s"
    healthport --version
    binary="$(python -c "import healthport; print(healthport.binary())")"
    ! ldd "$binary" | grep "not found" || fail "a library the binary needs is missing from the wheel"
    # Every library loaded is the copy in the wheel (healthport.libs/) or one manylinux promises.
    # (ldd prints the RUNPATH as it is, $ORIGIN/../../healthport.libs: compared resolved.)
    libs="$(realpath "$(dirname "$binary")/../../healthport.libs")"
    stray="$(ldd "$binary" | awk '"'"'/=> \// { print $1 " " $3 }'"'"' | while read -r name path; do
        [ "$(dirname "$(realpath "$path")")" = "$libs" ] || echo "$name $path"; done |
        grep -vE "^(libc|libm|libstdc\+\+|libgcc_s|libz|libresolv|libpthread|libdl|librt)\.so" || true)"
    [ -z "$stray" ] || fail "the binary loads libraries from outside the wheel: $stray"

    echo "-- healthport convert /tmp/export.zip --format ndjson"
    healthport convert /tmp/export.zip --format ndjson -q > /tmp/export.ndjson
    head -n 2 /tmp/export.ndjson | cut -c 1-120
    lines="$(wc -l < /tmp/export.ndjson)"
    echo "($lines lines)"
    head -n 1 /tmp/export.ndjson | grep -q "\"kind\":\"export\"" || fail "the first line is not the export envelope"
    [ "$lines" -gt 100 ] || fail "only $lines lines"

    echo "-- python -m healthport, a read into Arrow, a daily summary"
    [ "$(python -m healthport --version)" = "$(healthport --version)" ] || fail "python -m healthport"
    python - <<"PY"
import healthport
tables = healthport.read("/tmp/export.zip", types="StepCount", quiet=True)
steps = tables["StepCount"]
print(f"StepCount: {steps.num_rows} rows, {steps.num_columns} columns")
assert steps.num_rows == 336, steps.num_rows
days = healthport.daily_summary("/tmp/export.zip", types="StepCount", quiet=True)
first = days.slice(0, 1).to_pylist()[0]
print("daily summary of StepCount:", days.num_rows, "days; the first:", first["date"], first["sum"], "steps")
assert days.num_rows == 14 and first["sum"] == 7885, first
PY
'
echo "== check-wheel.sh took $((SECONDS - start)) s" >&2
