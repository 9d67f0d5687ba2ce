#!/usr/bin/env bash
# Restores the `kd-g1` gate (batch1 + kd against main, 5+0.05, SPRT [0, 10]) where it was stopped,
# so that it resumes with the same two engines and nothing played twice:
#
#   docs/unlanded/kd/gate/restore.sh [KEEP]      (KEEP defaults to /work/keep)
#
# The match's state names both engines with a checksum of their binary, and our builds are
# reproducible: the same sources with the same FAIRYBRIDGE_COMMIT give the same binary whatever
# the folder or the commit they were applied as (checked 7 Dec: e0b0ecae44 again from `git am` on
# a new worktree). The state also holds the engines' paths, so KEEP must be the folder the gate
# ran in. Then it prints the gate's command, which resumes.
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
keep=${1:-/work/keep}
here=$repo/docs/unlanded/kd
# The commits the two binaries were built from: main's, and branch kd's (batch1 + kd 0001-0002 on
# main; a branch that did not outlive its machine): their ids are in the binaries' version strings.
main_commit=08310251f3e6c86f0e453281e92acdf547ddb1f5
kd_commit=e9f992f4eac22cdf0e54d30bf3d9668869038b48
tmp=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$tmp/base" 2>/dev/null; git -C "$repo" worktree remove --force "$tmp/kd" 2>/dev/null; rm -rf "$tmp"' EXIT

build() { # TREE COMMIT_ID OUT
  (cd "$1" && FAIRYBRIDGE_COMMIT=$2 CARGO_TARGET_DIR=$keep/target-gate nice -n 19 cargo build --release -q)
  mkdir -p "$(dirname "$3")"
  cp "$keep/target-gate/release/fairybridge" "$3"
}
check() { # BIN CHECKSUM
  local sum
  sum=$(sha256sum "$1" | cut -c1-10)
  [ "$sum" = "$2" ] || { echo "restore.sh: $1 is $sum, not $2: not the gated engine" >&2; exit 1; }
}

git -C "$repo" worktree add -q --detach "$tmp/base" "$main_commit"
build "$tmp/base" "$main_commit" "$keep/bin/main-pawns"
check "$keep/bin/main-pawns" 557682bcae

git -C "$repo" worktree add -q --detach "$tmp/kd" "$main_commit"
git -C "$tmp/kd" -c user.name=restore -c user.email=restore@localhost am -q \
  "$here"/../batch1/*.patch "$here"/0001-*.patch "$here"/0002-*.patch
# The commit id the gated binary was built from (its version string), not this new one.
build "$tmp/kd" "$kd_commit" "$keep/bin/kd-g1"
check "$keep/bin/kd-g1" e0b0ecae44

dir=$keep/gates/kd-g1
mkdir -p "$dir"
xz -dc "$here/gate/games.pgn.xz" > "$dir/games.pgn"
cp "$here/gate/state" "$dir/state"
echo "restored $dir; resume with:"
echo "  cd $repo && nice -n 5 scripts/gate.sh --bounds 0,10 --tc 5+0.05 --variant normal --concurrency 2 --games 4000 --referee $keep/bin/main-pawns --dir $dir $keep/bin/kd-g1 $keep/bin/main-pawns"
