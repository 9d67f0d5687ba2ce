#!/usr/bin/env bash
# Restores the `search2-g1` gate (this folder's two patches on main `3817511` against that main,
# 5+0.05, SPRT [0, 10]) where it was stopped, so that it resumes with the same two engines and
# nothing played twice:
#
#   docs/unlanded/search2/restore.sh [KEEP]      (KEEP defaults to /work/keep)
#
# The match's state names both engines with a checksum of their binary, and our builds are
# reproducible: the same sources with the same FAIRYBRIDGE_COMMIT give the same binary whatever the
# folder or the commit they were applied as. The state also holds the engines' paths, so KEEP must
# be the folder the gate ran in. Then it prints the gate's command, which resumes.
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
keep=${1:-/work/keep}
here=$repo/docs/unlanded/search2
# The commits the two binaries were built from (their ids are in the binaries' version strings):
# main's, and search2's on it (a branch that does not outlive its machine).
main_commit=38175112b6442d79be49d4f410b789e629cdc6eb
search2_commit=f9f5b63f41198ed0426885db612d362380539f15
tmp=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$tmp/base" 2>/dev/null; git -C "$repo" worktree remove --force "$tmp/search2" 2>/dev/null; rm -rf "$tmp"' EXIT

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
build "$tmp/base" "$main_commit" "$keep/bin/main-3817511"
check "$keep/bin/main-3817511" bdba28ed7a

git -C "$repo" worktree add -q --detach "$tmp/search2" "$main_commit"
git -C "$tmp/search2" -c user.name=restore -c user.email=restore@localhost am -q "$here"/*.patch
# The commit id the gated binary was built from (its version string), not this new one.
build "$tmp/search2" "$search2_commit" "$keep/bin/search2m"
check "$keep/bin/search2m" 62b1db0ada

dir=$keep/gates/search2-g1
mkdir -p "$dir"
xz -dc "$here/gate/games.pgn.xz" > "$dir/games.pgn"
cp "$here/gate/state" "$dir/state"
echo "restored $dir; resume with:"
echo "  cd $repo && nice -n 5 scripts/gate.sh --bounds 0,10 --tc 5+0.05 --variant normal --concurrency 2 --games 4000 --referee $keep/bin/main-3817511 --dir $dir $keep/bin/search2m $keep/bin/main-3817511"
