#!/usr/bin/env bash
# The search speed of two builds side by side: builds OLD and NEW (commits, or `.` for the work
# tree as it is, uncommitted changes included) and runs `fairybridge bench` of each in turn, RUNS
# times each, alternating so that a change of the machine's load falls on both alike. Prints every
# run, the mean nodes per second of each and the ratio NEW / OLD (above 1: NEW is faster), and
# says when the node counts differ (the search itself changed, not only its speed).
# Usage: scripts/bench-compare.sh OLD NEW [DEPTH] [RUNS]   (default: the bench's depth, 3 runs)
# The commits are checked out with `git worktree` into a temporary folder, built there with one
# target folder for both (the dependencies are built once) and removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
OLD=$1 NEW=$2 DEPTH=${3:-} RUNS=${4:-3}
case "$RUNS" in '' | *[!0-9]* | 0) echo "bench-compare: RUNS must be a positive number" >&2; exit 2 ;; esac
case "$DEPTH" in *[!0-9]*) echo "bench-compare: DEPTH must be a number" >&2; exit 2 ;; esac

TMP=$(mktemp -d)
cleanup() {
  for side in old new; do
    if [ -d "$TMP/$side" ]; then git worktree remove --force "$TMP/$side" >/dev/null 2>&1 || true; fi
  done
  rm -rf "$TMP"
}
trap cleanup EXIT

# build SIDE REV: the binary of REV at $TMP/SIDE.bin.
build() {
  local side=$1 rev=$2 src
  if [ "$rev" = . ]; then
    src=.
  else
    git rev-parse --verify --quiet "$rev^{commit}" >/dev/null || { echo "bench-compare: no commit $rev" >&2; exit 2; }
    git worktree add --detach --quiet "$TMP/$side" "$rev"
    src=$TMP/$side
  fi
  echo "building $side ($rev)" >&2
  CARGO_TARGET_DIR=$TMP/target cargo build --release --quiet --manifest-path "$src/Cargo.toml" --bin fairybridge
  cp "$TMP/target/release/fairybridge" "$TMP/$side.bin"
}
build old "$OLD"
build new "$NEW"

depth_args=()
[ -n "$DEPTH" ] && depth_args=(--depth "$DEPTH")
# The last line of `fairybridge bench`: "bench NODES nodes NPS nps".
for ((i = 1; i <= RUNS; i++)); do
  for side in old new; do
    line=$("$TMP/$side.bin" bench "${depth_args[@]}" 2>/dev/null | tail -n 1)
    echo "$side $line"
  done
done | awk -v old="$OLD" -v new="$NEW" '
  { print; nodes[$1] = $3; sum[$1] += $5; runs[$1]++ }
  END {
    o = sum["old"] / runs["old"]; n = sum["new"] / runs["new"]
    printf "old %s: mean %d nps\nnew %s: mean %d nps\nratio new/old %.3f\n", old, o, new, n, n / o
    if (nodes["old"] != nodes["new"])
      printf "node counts differ (%s old, %s new): the search changed, not only its speed\n", nodes["old"], nodes["new"]
  }'
