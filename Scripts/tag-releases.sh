#!/usr/bin/env bash
# Makes healthport's release tags (vMAJOR.MINOR.PATCH, CHANGELOG.md) in this clone from its own
# history, so that a clone that did not receive the tags (a mirror, CI's checkout, a fork) names
# the same commits: `git checkout v0.5.0`, `Scripts/make-store-fixtures.sh v0.6.0`.
#
#   Scripts/tag-releases.sh              # every release before the current version
#   Scripts/tag-releases.sh --current    # and the current version, at this commit (a release)
#
# A release's tag is on the last commit that wrote what it names:
# - before 0.6.0 every build said 0.1.0; those releases are named after the fact by the store
#   layout each wrote (CHANGELOG.md), at the commits Tests/Fixtures/stores/README.md records;
# - from 0.6.0, the version in HealthportVersion.swift: a version's tag is on the parent of the
#   commit that raised it.
# Existing tags of those names are moved (`git tag -f`); nothing is pushed.
set -euo pipefail
cd "$(dirname "$0")/.."
version_file="Sources/HealthportCommandLine/HealthportVersion.swift"
version_of() { sed -n 's/.*static let version = "\([0-9.]*\)".*/\1/p'; }
tag() {
    git tag -f "$1" "$2" > /dev/null
    echo "$1 $(git rev-parse --short "$2^{commit}")"
}
# Versions at or after 0.6.0 (numeric comparison, part by part).
named_by_version() { [ "$(printf '%s\n%s\n' 0.6.0 "$1" | sort -V | head -n 1)" = 0.6.0 ]; }

while IFS='|' read -r _ _ release commit _; do
    release="$(echo $release)" commit="$(echo $commit)"
    named_by_version "${release#v}" || tag "$release" "$commit"
done < <(grep -E '^\| v[0-9]+ \| v0\.[0-9]+\.[0-9]+ \| [0-9a-f]{40} \|' Tests/Fixtures/stores/README.md)

previous=""
for commit in $(git log --follow --reverse --format=%H -- "$version_file"); do
    version="$(git show "$commit:$version_file" 2> /dev/null | version_of)"
    [ -n "$version" ] || continue
    if [ -n "$previous" ] && [ "$version" != "$previous" ] && named_by_version "$previous"; then
        tag "v$previous" "$commit^"
    fi
    previous="$version"
done
if [ "${1:-}" = --current ]; then
    tag "v$(version_of < "$version_file")" HEAD
fi
