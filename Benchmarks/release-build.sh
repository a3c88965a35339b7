# Sourced by the benchmark scripts, from the repository's root: the release build they all measure,
# made by the README's own command (`swift build -c release --static-swift-stdlib`, with the link
# flags Package.swift sets), so a benchmark after the Quick start, or the Quick start after a
# benchmark, builds nothing again, and what is measured is what the Debian package and the wheel
# ship. Sets BIN, the folder of healthport and generate-export, unless the caller set it to measure
# binaries kept aside (a baseline).
#
#   . Benchmarks/release-build.sh
if [ -z "${BIN:-}" ]; then
    swift build -c release --static-swift-stdlib --product healthport >/dev/null
    swift build -c release --static-swift-stdlib --product generate-export >/dev/null
    BIN="$(swift build -c release --static-swift-stdlib --show-bin-path)"
fi
