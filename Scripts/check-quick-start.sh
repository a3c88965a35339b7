#!/usr/bin/env bash
# Runs the README's Quick start as a new user would, on a fresh Debian 12 machine that has Swift
# and nothing else: the commands are taken from the README itself (the first code block under
# "## Quick start"), so the README is what is tested, and they must end in the NDJSON lines the
# block promises.
#
#   Scripts/check-quick-start.sh [--keep DIR]
#   Scripts/check-quick-start.sh --here [--keep DIR]
#
# --here: the block runs in this checkout, on this machine, as it is: what CI does first, on its
# fresh machine, before it installs anything (.ci/run), so that the release build the README makes
# is the one the tests and every check then use (a build in a root of its own cannot be shared:
# its paths and its system headers are not this machine's). Without --here, the machine is made
# fresh for the check, for a developer whose machine is not (below).
#
# --keep DIR: after the check (either way), the Quick start's release build is kept in DIR, shaped like a SwiftPM
# scratch folder (release/healthport, release/healthport-mcp, release/generate-export,
# workspace-state.json, and checkouts/ without their git folders, for the licences), so that the
# Debian package and the wheel are made of the very build the README's command made
# (HEALTHPORT_PACKAGE_BUILT=DIR Scripts/package-deb.sh), and the checks run the release binary:
# CI builds release once, here.
#
# The machine is a Debian 12 (bookworm) root made by debootstrap (minbase, from the tarball
# Scripts/check-package.sh caches in Benchmarks/work/package-root, or HEALTHPORT_PACKAGE_CACHE),
# holding:
#   - the packages swift.org's install page lists for Debian 12 (SWIFT_DEBIAN12_PACKAGES below,
#     installed with `apt-get install` as the page says, recommended packages included) and
#     nothing else: not libzstd-dev, zlib1g-dev or anything else healthport needs, which the
#     Quick start must install itself;
#   - the Swift toolchain this machine builds with (the folder holding usr/bin/swift), mounted
#     read-only at the same path. Mounted rather than copied: it is 3.3 GB, a copy would cost
#     that much disk and a minute or more on every run, and a read-only mount proves the build
#     writes nothing into it. It is exactly what swift.org's toolchain tarball unpacks, and it
#     brings no Debian package with it, so the root's packages stay the install page's alone;
#   - a copy of this checkout (without build folders) in /root/healthport, as a clone would be.
# The commands run there as root, with PATH holding the toolchain as swift.org says to set it;
# packages are fetched from the network (apt, and SwiftPM's dependencies from GitHub). The root
# reaches them as this machine does: its resolv.conf, its apt mirror, and, where its git rewrites
# GitHub's URLs (url.<base>.insteadOf, as a sandbox without access to GitHub does, to a local
# mirror), the same rewrites with the mirror's folders mounted read-only; nothing else of the
# machine's.
#
# Needs root (debootstrap, chroot, mount) and debootstrap. The root is removed at the end;
# apt's package and list caches are its own (Benchmarks/work/package-root/quick-start-apt).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

# swift.org, "Install Swift", Linux, Debian 12, tarball: "Install required dependencies".
SWIFT_DEBIAN12_PACKAGES=(
    binutils-gold gcc git libcurl4-openssl-dev libedit-dev libicu-dev libncurses-dev
    libpython3-dev libsqlite3-dev libstdc++-12-dev libxml2-dev pkg-config tzdata uuid-dev
)

# The Quick start's commands: the first fenced block after the "## Quick start" heading.
commands="$(awk '
    /^## / { inside = ($0 == "## Quick start") }
    inside && /^```/ { if (block) exit; block = 1; next }
    inside && block { print }
' README.md)"
[ -n "$commands" ] || { echo "check-quick-start.sh: no code block under '## Quick start' in README.md" >&2; exit 65; }
echo "== the Quick start, as README.md writes it:" >&2
printf '%s\n' "$commands" | sed 's/^/    /' >&2
keep=""
here=0
while [ $# -gt 0 ]; do
    case "$1" in
        --print) exit 0 ;;
        --keep) [ -n "${2:-}" ] || { echo "check-quick-start.sh: --keep needs a folder" >&2; exit 64; }; keep="$2"; shift ;;
        --here) here=1 ;;
        *) echo "check-quick-start.sh: unknown argument '$1' (use --print, --keep DIR, --here)" >&2; exit 64 ;;
    esac
    shift
done

fail() { echo "check-quick-start.sh: FAIL: $*" >&2; exit 1; }
# What the block's last command printed must be the 3 NDJSON lines it promises. swift build reports
# its progress on standard output too, as a person sees it; what the last command printed is what
# follows the build's last line ("Build complete!", or "Build of product ... complete!").
check_conversion() {
    local output="$1" converted="$1.converted" lines
    awk '/^Build (of product .* )?complete/ { n = NR } { line[NR] = $0 } END { for (i = n + 1; i <= NR; i++) print line[i] }' \
        "$output" > "$converted"
    echo "-- what the conversion printed:" >&2
    cut -c 1-160 "$converted" >&2
    lines="$(wc -l < "$converted")"
    [ "$lines" = 3 ] || fail "$lines lines after the build, not the 3 NDJSON lines of 'head -n 3'"
    head -n 1 "$converted" | grep -q '^{"kind":"export",' || fail "the first line is not the export header"
    sed -n '2,3p' "$converted" | grep -v '^{"kind":"[a-zA-Z]*","uuid":"[0-9A-F-]\{36\}",.*}$' >/dev/null &&
        fail "lines 2 and 3 are not objects with a kind and a uuid"
    return 0
}

# --keep: the build's programs, its workspace state and its checkouts (for the licences), copied to
# DIR, shaped like a SwiftPM scratch folder.
keep_build() {
    local built="$1" program
    [ -n "$keep" ] || return 0
    rm -rf "$keep"
    mkdir -p "$keep/release" "$keep/checkouts"
    for program in healthport healthport-mcp generate-export; do
        cp -L "$built/release/$program" "$keep/release/$program" || fail "the Quick start's build has no $program to keep"
    done
    cp "$built/workspace-state.json" "$keep/"
    tar -C "$built/checkouts" --exclude=.git -c . | tar -x -C "$keep/checkouts"
    echo "== the release build kept in $keep (release/, checkouts/, workspace-state.json)" >&2
}

if [ "$here" = 1 ]; then
    echo "== here, in $PWD: the Quick start" >&2
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
    # Its standard error (the build's warnings among it) is printed as it comes, for CI's log.
    bash -euo pipefail -c "$commands" > "$out/quick-start.out" ||
        fail "the Quick start stopped (its standard error above)"
    check_conversion "$out/quick-start.out"
    # Every command the README documents runs after the Quick start's build: `healthport mcp`
    # too, which runs the healthport-mcp program built beside healthport.
    PATH="$PWD/.build/release:$PATH" healthport mcp --help >/dev/null 2>&1 ||
        fail "healthport mcp --help failed after the Quick start's build"
    keep_build "$PWD/.build"
    echo "== check-quick-start.sh: the README's Quick start works here; took $((SECONDS - start)) s" >&2
    exit 0
fi

[ "$(id -u)" = 0 ] || { echo "check-quick-start.sh: needs root (debootstrap, chroot, mount)" >&2; exit 77; }
command -v debootstrap >/dev/null || { echo "check-quick-start.sh: debootstrap not found (apt-get install debootstrap)" >&2; exit 69; }
swift="$(command -v swift)" || { echo "check-quick-start.sh: no swift on PATH" >&2; exit 69; }
toolchain="$(dirname "$(dirname "$(dirname "$(realpath "$swift")")")")"
[ -x "$toolchain/usr/bin/swift" ] || { echo "check-quick-start.sh: cannot tell the toolchain's folder from $swift" >&2; exit 69; }

cache="${HEALTHPORT_PACKAGE_CACHE:-Benchmarks/work/package-root}"
mkdir -p "$cache"
cache="$(realpath "$cache")"
base="$cache/bookworm-minbase.tgz"
# apt's caches of its own, beside the shared debootstrap base: CI runs this check beside
# check-wheel.sh, whose root's apt-get would otherwise wait for (or fail on) the same cache's lock.
apt_cache="$cache/quick-start-apt"
mkdir -p "$apt_cache/archives/partial" "$apt_cache/lists/partial"
# The mirror apt uses for bookworm here, as check-package.sh finds it.
mirror="${HEALTHPORT_DEBIAN_MIRROR:-$(
    { cat /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
        awk 'BEGIN { RS = ""; FS = "\n" } /Suites:[^\n]*bookworm/ && !/debian-security/ {
            for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, u, " "); print u[2]; exit } }'
)}"
[ -n "$mirror" ] || mirror="$(grep -hsE '^deb +(\[[^]]*\] +)?[a-z]+://[^ ]+ +bookworm ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{ print ($2 ~ /^\[/) ? $3 : $2; exit }' || true)"
mirror="${mirror:-http://deb.debian.org/debian}"

root="$(mktemp -d /var/tmp/healthport-quick-start.XXXXXX)"
mounts=()
cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true; done
    # Never remove the root while something (the toolchain, the caches) is mounted inside it.
    if grep -q " $root" /proc/mounts; then
        echo "check-quick-start.sh: $root still has mounts; left in place" >&2
    else
        rm -rf "$root"
    fi
}
trap cleanup EXIT
# Stopped by CI (a step beside it failed) or by a person: the cleanup still runs.
trap 'exit 143' TERM
trap 'exit 130' INT

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
printf 'Acquire::Check-Valid-Until "false";\nAPT::Sandbox::User "root";\n' > "$root/etc/apt/apt.conf.d/99check-quick-start"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mounts+=("$root/proc")
mount --bind "$apt_cache/archives" "$root/var/cache/apt/archives"
mounts+=("$root/var/cache/apt/archives")
mount --bind "$apt_cache/lists" "$root/var/lib/apt/lists"
mounts+=("$root/var/lib/apt/lists")
mkdir -p "$root$toolchain"
mount --bind "$toolchain" "$root$toolchain"
mounts+=("$root$toolchain")
mount -o remount,bind,ro "$root$toolchain"

# How this machine's git reaches GitHub, lent to the root: its URL rewrites, and the local folders
# they point to, read-only.
: > "$root/etc/gitconfig"
while read -r key value; do
    base="${key#url.}"
    base="${base%.insteadof}"
    folder="${base%/}"
    if [ "${folder#/}" != "$folder" ] && [ -d "$folder" ] && ! grep -q " $root$folder " /proc/mounts; then
        mkdir -p "$root$folder"
        mount --bind "$folder" "$root$folder"
        mounts+=("$root$folder")
        mount -o remount,bind,ro "$root$folder"
    fi
    git config --file "$root/etc/gitconfig" --add "url.$base.insteadOf" "$value"
done < <(cd / && { git config --system --get-regexp '^url\..*\.insteadof$' || true; git config --global --get-regexp '^url\..*\.insteadof$' || true; })

# The checkout, as a clone holds it: what is here, without build products and work folders.
mkdir -p "$root/root/healthport"
tar -c --exclude=./.build --exclude='./.build-*' --exclude=./.git --exclude=./Benchmarks/work \
    --exclude=./Fuzz/work --exclude=./Fuzz/findings --exclude=./dist --exclude=./.swiftpm --exclude=__pycache__ . |
    tar -x -C "$root/root/healthport"
printf '%s\n' "$commands" > "$root/root/quick-start.sh"

in_root() {
    chroot "$root" /usr/bin/env -i PATH="$toolchain/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@"
}

echo "== inside the root: apt-get install (swift.org's list for Debian 12): ${SWIFT_DEBIAN12_PACKAGES[*]}" >&2
in_root /bin/bash -euo pipefail -c '
    apt-get update -qq
    apt-get install -y -qq "$@" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
' bash "${SWIFT_DEBIAN12_PACKAGES[@]}"
for package in libzstd-dev zlib1g-dev; do
    if in_root dpkg -s "$package" >/dev/null 2>&1; then
        echo "check-quick-start.sh: note: $package came with swift.org's list; the check still runs" >&2
    fi
done

echo "== inside the root, in /root/healthport: the Quick start" >&2
quick=$SECONDS
if ! in_root /bin/bash -c 'cd /root/healthport && bash -euo pipefail /root/quick-start.sh' \
    > "$root/quick-start.out" 2> "$root/quick-start.err"; then
    tail -n 40 "$root/quick-start.err" >&2
    echo "check-quick-start.sh: FAIL: the Quick start stopped (last lines of its standard error above)" >&2
    exit 1
fi
echo "(the Quick start took $((SECONDS - quick)) s)" >&2

check_conversion "$root/quick-start.out"
# Every command the README documents runs after the Quick start's build: `healthport mcp` too,
# which runs the healthport-mcp program built beside healthport.
in_root /bin/bash -c 'cd /root/healthport && PATH="$PWD/.build/release:$PATH" healthport mcp --help' >/dev/null 2>&1 ||
    fail "healthport mcp --help failed after the Quick start's build"
keep_build "$root/root/healthport/.build"
echo "== check-quick-start.sh: the README's Quick start works on a fresh Debian 12; took $((SECONDS - start)) s" >&2
