#!/usr/bin/env bash
# Writes Tests/Fixtures/stores/: a store made by each earlier release of healthport, one per
# store layout (the tags v0.1.0 to v0.6.0, CHANGELOG.md), from the same two small exports, so
# that StoreFixtureUpgradeTests can open each with today's healthport and compare its answers
# with a fresh import (issue 51: old stores as fixtures, not stores made by today's migrator).
#
#   Scripts/make-store-fixtures.sh [TAG...]      # default: every tag v0.1.0 .. v0.6.0
#
# Each tag is checked out in one worktree (/work/fixtures by default, WORKTREE=...) and built
# there (debug, the healthport product alone); one worktree keeps the dependencies' build from
# tag to tag. The exports are made once, by this checkout's healthport (the generator and
# convert --format export), and kept beside the stores: a later generator must not change
# what the stores were made from.
#
# For each release: import export-a.zip, write the changes' anchor (changes --store
# --anchor-output, what a consumer holds), import export-b.zip (export-a without its second
# day: tombstones), write the anchor again. The store's file is copied once the process has
# ended (its write-ahead log checkpointed), with the commit that wrote it in README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
repository="$PWD"
fixtures="Tests/Fixtures/stores"
worktree="${WORKTREE:-/work/fixtures}"
tags=("$@")
[ ${#tags[@]} -gt 0 ] || tags=(v0.1.0 v0.2.0 v0.3.0 v0.4.0 v0.5.0 v0.6.0)
healthport=".build/debug/healthport"
[ -x "$healthport" ] || { echo "make-store-fixtures.sh: build this checkout first (swift build)" >&2; exit 69; }

mkdir -p "$fixtures"
if [ ! -f "$fixtures/export-a.zip" ]; then
    work="$(mktemp -d)"
    # Two days across the change to summer time in Paris, every kind of object the generator
    # makes (samples, series, correlations, a workout, sleep, clinical records, an audiogram, a
    # prescription, elements newer than the model).
    .build/debug/generate-export --days 2 --density 1 --seed 11 --first-day 2024-03-30 --time-zone Europe/Paris \
        --zip "$fixtures/export-a.zip" > /dev/null
    # The first day alone: what the second day held is deleted by the second import.
    "$healthport" convert "$fixtures/export-a.zip" -q --format export --end 2024-03-31 --tz Europe/Paris \
        --output "$fixtures/export-b.zip"
    rm -rf "$work"
fi

[ -d "$worktree" ] || git worktree add --detach "$worktree" "${tags[0]}"
for tag in "${tags[@]}"; do
    commit="$(git rev-parse --short "$tag^{commit}")"
    layout="v${tag#v0.}"
    layout="${layout%.0}"
    echo "== $tag ($commit): layout $layout"
    git -C "$worktree" checkout --quiet --detach "$tag"
    (cd "$worktree" && swift build --product healthport > "/tmp/make-store-fixtures-$tag.log" 2>&1) ||
        { tail -n 20 "/tmp/make-store-fixtures-$tag.log"; exit 1; }
    old="$worktree/.build/debug/healthport"
    work="$(mktemp -d)"
    store="$work/health.sqlite"
    "$old" import "$repository/$fixtures/export-a.zip" --store "$store" -q
    "$old" changes --store "$store" -q --anchor-output "$work/anchor-a" > /dev/null
    "$old" import "$repository/$fixtures/export-b.zip" --store "$store" -q --force
    "$old" changes --store "$store" -q --anchor-output "$work/anchor-b" > /dev/null
    [ ! -s "$store-wal" ] || { echo "make-store-fixtures.sh: $tag left a write-ahead log" >&2; exit 1; }
    cp "$store" "$fixtures/$layout.sqlite"
    cp "$work/anchor-a" "$fixtures/$layout.anchor-a"
    cp "$work/anchor-b" "$fixtures/$layout.anchor-b"
    chmod 0644 "$fixtures/$layout".*
    rm -rf "$work"
done

# The fixtures' note: which release wrote each store, at which commit.
{
    echo "# Stores written by earlier releases"
    echo
    echo "Made by \`Scripts/make-store-fixtures.sh\` (which says how), read by"
    echo "\`Tests/healthportTests/StoreFixtureUpgradeTests.swift\`. Each store holds the same two imports:"
    echo "\`export-a.zip\` (two days made by the generator), then \`export-b.zip\` (its first day alone, so"
    echo "the second day's objects are tombstones); \`vN.anchor-a\` and \`vN.anchor-b\` are the anchors"
    echo "\`changes --store --anchor-output\` wrote after each import (positions before layout v3, tokens"
    echo "after). Never edit these files: they stand for stores people have on disk."
    echo
    echo "| layout | release | commit that wrote it |"
    echo "| --- | --- | --- |"
    for tag in v0.1.0 v0.2.0 v0.3.0 v0.4.0 v0.5.0 v0.6.0; do
        layout="v${tag#v0.}"
        layout="${layout%.0}"
        [ -f "$fixtures/$layout.sqlite" ] || continue
        echo "| $layout | $tag | $(git rev-parse "$tag^{commit}") |"
    done
} > "$fixtures/README.md"
echo "== done: $(ls "$fixtures")"
