#!/usr/bin/env bash
# Installs the Debian package as a user would, on a machine that has never seen Swift, and checks
# what the user then expects: a clean Debian 12 (bookworm) root made by debootstrap from Debian's
# own packages, `apt-get install ./healthport_….deb` there (which must find every dependency the
# package names), then inside it `healthport --version`, `healthport convert` on the bundled
# sample, `man healthport`, bash completion of `healthport con<TAB>`, and a clean purge.
#
#   Scripts/check-package.sh [PATH.deb]      # without a path, Scripts/package-deb.sh builds one
#
# The root is debootstrap's minbase variant. Its packages are downloaded once into a tarball
# (debootstrap --make-tarball) kept under Benchmarks/work/package-root/, with apt's package and
# list caches beside it; later runs unpack the tarball (--unpack-tarball) and download nothing
# they already have. The mirror is the one apt uses here (/etc/apt/sources.list*), or
# HEALTHPORT_DEBIAN_MIRROR. The root lives in a temporary folder under /var/tmp and is removed at
# the end. Needs root (chroot, mount) and debootstrap (apt-get install debootstrap).
#
# Why debootstrap and chroot rather than a namespace over the host: the host has the Swift
# toolchain, its ICU and its Foundation on disk; a root made from Debian's packages alone proves
# that nothing of them is needed, and that Depends: names every library the binary loads.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

[ "$(id -u)" = 0 ] || { echo "check-package.sh: needs root (debootstrap, chroot, mount)" >&2; exit 77; }
command -v debootstrap >/dev/null || { echo "check-package.sh: debootstrap not found (apt-get install debootstrap)" >&2; exit 69; }

cache="${HEALTHPORT_PACKAGE_CACHE:-Benchmarks/work/package-root}"
mkdir -p "$cache/archives/partial" "$cache/lists/partial"
cache="$(realpath "$cache")"
base="$cache/bookworm-minbase.tgz"
# The mirror apt uses for bookworm here (deb822 .sources first, then one-line lists).
mirror="${HEALTHPORT_DEBIAN_MIRROR:-$(
    { cat /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
        awk 'BEGIN { RS = ""; FS = "\n" } /Suites:[^\n]*bookworm/ && !/debian-security/ {
            for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, u, " "); print u[2]; exit } }'
)}"
[ -n "$mirror" ] || mirror="$(grep -hsE '^deb +(\[[^]]*\] +)?[a-z]+://[^ ]+ +bookworm ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{ print ($2 ~ /^\[/) ? $3 : $2; exit }' || true)"
mirror="${mirror:-http://deb.debian.org/debian}"

root="$(mktemp -d /var/tmp/healthport-root.XXXXXX)"
mounts=()
cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true; done
    # Never remove the root while something (the caches) is still mounted inside it.
    if grep -q " $root" /proc/mounts; then
        echo "check-package.sh: $root still has mounts; left in place" >&2
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
# .ci/prepare-checks stops here (HEALTHPORT_CHECK_PREPARE): the Debian root's base is made.
[ -z "${HEALTHPORT_CHECK_PREPARE:-}" ] || exit 0

if [ $# -ge 1 ]; then
    deb="$1"
else
    deb="$(Scripts/package-deb.sh | sed -n '$p')"
fi
[ -f "$deb" ] || { echo "check-package.sh: no package at '$deb'" >&2; exit 66; }
deb="$(realpath "$deb")"
version="$(dpkg-deb -f "$deb" Version)"
upstream="${version%-*}"

echo "== debootstrap: bookworm minbase from $base" >&2
debootstrap --variant=minbase --unpack-tarball="$base" bookworm "$root" "$mirror" > "$root.log" 2>&1 || {
    cat "$root.log" >&2
    exit 70
}
rm -f "$root.log"

# apt inside the root: the same mirror; snapshot mirrors serve Release files past their
# Valid-Until date, as the host's apt configuration allows too.
echo "deb $mirror bookworm main" > "$root/etc/apt/sources.list"
# The caches are bind-mounted from the host and owned by root: apt downloads as root, not _apt.
printf 'Acquire::Check-Valid-Until "false";\nAPT::Sandbox::User "root";\n' > "$root/etc/apt/apt.conf.d/99check-package"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mounts+=("$root/proc")
mount --bind "$cache/archives" "$root/var/cache/apt/archives"
mounts+=("$root/var/cache/apt/archives")
mount --bind "$cache/lists" "$root/var/lib/apt/lists"
mounts+=("$root/var/lib/apt/lists")
cp "$deb" "$root/tmp/"
cp SampleData/export.zip "$root/tmp/export.zip"

echo "== inside the root: apt-get install ./$(basename "$deb") man-db bash-completion" >&2
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive EXPECTED_VERSION="$upstream" DEB="/tmp/$(basename "$deb")" \
    /bin/bash -euo pipefail -c '
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "$DEB" man-db bash-completion >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
    fail() { echo "check-package.sh: FAIL: $*" >&2; exit 1; }

    echo "-- no Swift toolchain in sight"
    ! command -v swift >/dev/null || fail "swift is on PATH"
    [ ! -e /opt/swift ] || fail "/opt/swift exists"
    ! ldconfig -p | grep -E "libswift|libFoundation|libdispatch" || fail "a Swift runtime library is installed"
    ! ldd /usr/bin/healthport | grep "not found" || fail "a library the binary needs is missing (Depends: incomplete)"

    echo "-- healthport --version"
    got="$(healthport --version)"
    echo "$got"
    [ "$got" = "$EXPECTED_VERSION" ] || fail "--version says $got, the package $EXPECTED_VERSION"

    echo "-- healthport mcp runs healthport-mcp, the only binary that loads libcurl"
    [ "$(healthport-mcp --version)" = "$EXPECTED_VERSION" ] || fail "healthport-mcp --version"
    ! ldd /usr/bin/healthport-mcp | grep "not found" || fail "a library healthport-mcp needs is missing (Depends: incomplete)"
    ! ldd /usr/bin/healthport | grep libcurl || fail "healthport loads libcurl"
    served="$(healthport mcp --policy /tmp/policy.json --store /tmp/no-store.sqlite </dev/null 2>&1 || true)"
    echo "$served" | grep -q "no store here" || fail "healthport mcp did not run healthport-mcp: $served"

    echo "-- healthport convert /tmp/export.zip --format ndjson | head -n 3"
    healthport convert /tmp/export.zip --format ndjson > /tmp/export.ndjson 2>/tmp/convert.err
    echo "(warnings on standard error, as the sample means them: $(wc -l < /tmp/convert.err))"
    head -n 3 /tmp/export.ndjson | cut -c 1-160
    lines="$(wc -l < /tmp/export.ndjson)"
    echo "($lines lines)"
    head -n 1 /tmp/export.ndjson | grep -q "\"kind\":\"export\"" || fail "the first line is not the export envelope"
    [ "$lines" -gt 100 ] || fail "only $lines lines"

    echo "-- man healthport"
    man -w healthport
    [ "$(man -w healthport)" = /usr/share/man/man1/healthport.1.gz ] || fail "man -w finds no healthport(1)"
    man -w healthport-formats healthport-predicates >/dev/null || fail "sections 5 and 7 not found"
    MANPAGER=cat MANWIDTH=80 man healthport 2>/dev/null | sed -n "1,6p"
    MANPAGER=cat man healthport 2>/dev/null | grep -q "^NAME" || fail "man healthport renders no NAME section"

    echo "-- bash: healthport con<TAB>"
    offered="$(bash -c "
        source /usr/share/bash-completion/bash_completion
        _completion_loader healthport   # what bash does on the first <TAB>: finds completions/healthport
        function=\$(complete -p healthport | sed -n \"s/.*-F \\([^ ]*\\) .*/\\1/p\")
        [ -n \"\$function\" ] || exit 1
        COMP_LINE=\"healthport con\"; COMP_POINT=\${#COMP_LINE}
        COMP_WORDS=(healthport con); COMP_CWORD=1
        \$function healthport con healthport
        printf \"%s\n\" \"\${COMPREPLY[@]}\"
    ")" || fail "no completion function registered for healthport"
    echo "$offered"
    [ "$offered" = convert ] || fail "con<TAB> offers \"$offered\", not convert"

    echo "-- apt-get purge healthport"
    apt-get purge -y -qq healthport >/dev/null 2>&1
    [ ! -e /usr/bin/healthport ] && [ ! -e /usr/bin/healthport-mcp ] && [ ! -e /usr/share/man/man1/healthport.1.gz ] || fail "files left after purge"
'
size="$(stat -c %s "$deb")"
echo "== $(basename "$deb"): $((size / 1024)) KiB, installed $(dpkg-deb -f "$deb" Installed-Size) KiB; check-package.sh took $((SECONDS - start)) s" >&2
