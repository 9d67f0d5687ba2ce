#!/usr/bin/env bash
# Restores the `stack-g1` gate (the stack of this folder's 19 patches against main, 5+0.05, SPRT
# [0, 10]) where it was stopped, so that it resumes with the same two engines and nothing played
# twice:
#
#   docs/unlanded/stack/restore.sh [KEEP]      (KEEP defaults to /work/keep)
#
# The match's state names both engines with a checksum of their binary, and our builds are
# reproducible: the same sources with the same FAIRYBRIDGE_COMMIT give the same binary whatever the
# folder or the commit they were applied as. The state also holds the engines' paths, so KEEP must
# be the folder the gate ran in. Then it prints the gate's command, which resumes.
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
keep=${1:-/work/keep}
here=$repo/docs/unlanded/stack
# The commits the two binaries were built from (their ids are in the binaries' version strings):
# main's, whose engine is still main's, and the stack's (a branch that does not outlive its machine).
main_commit=08310251f3e6c86f0e453281e92acdf547ddb1f5
stack_commit=6c090a93e715d06388ab21e57d61b2607f7ba561
tmp=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$tmp/base" 2>/dev/null; git -C "$repo" worktree remove --force "$tmp/stack" 2>/dev/null; rm -rf "$tmp"' EXIT

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

git -C "$repo" worktree add -q --detach "$tmp/stack" "$main_commit"
git -C "$tmp/stack" -c user.name=restore -c user.email=restore@localhost am -q "$here"/*.patch
# The commit id the gated binary was built from (its version string), not this new one.
build "$tmp/stack" "$stack_commit" "$keep/bin/stack-fit"
check "$keep/bin/stack-fit" 718a22d255

dir=$keep/gates/stack-g1
mkdir -p "$dir"
xz -dc "$here/gate/games.pgn.xz" > "$dir/games.pgn"
cp "$here/gate/state" "$dir/state"
echo "restored $dir; resume with:"
echo "  cd $repo && nice -n 5 scripts/gate.sh --bounds 0,10 --tc 5+0.05 --variant normal --concurrency 2 --games 4000 --referee $keep/bin/main-pawns --dir $dir $keep/bin/stack-fit $keep/bin/main-pawns"
