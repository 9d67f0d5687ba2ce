#!/usr/bin/env bash
# Restores a paused gate of docs/unlanded/NAME so that it resumes where it was stopped, with the
# same two engines and nothing played twice:
#
#   docs/unlanded/restore-gate.sh NAME [KEEP]      (KEEP defaults to /work/keep)
#
# NAME/gate.conf names the gate (`gate`), main's commit and the candidate's (the ids in the two
# binaries' version strings: `main_commit`, `candidate_commit`), the binaries' names under KEEP/bin
# (`main_bin`, `candidate_bin`), their checksums (`main_sum`, `candidate_sum`: the match state
# names each engine with it) and the checksums of their code (`main_code`, `candidate_code`:
# without symbols and build id). NAME/*.patch is the candidate on main_commit; NAME/gate holds
# the match's state and PGN.
#
# The engines come from the gate's own folder (KEEP/gates/GATE keeps the copies it played) or
# KEEP/bin when their checksums still match; otherwise they are rebuilt. A rebuild elsewhere has
# the same code but not the same bytes (LLVM names local symbols with suffixes that differ from
# build to build, and so does the build id): then the script says so and stops, since the state
# can only be resumed with the very binaries it names; the gate is begun again from the patch.
set -euo pipefail
name=${1:?usage: restore-gate.sh NAME [KEEP]}
keep=${2:-/work/keep}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
here=$repo/docs/unlanded/$name
# shellcheck source=/dev/null
. "$here/gate.conf"
dir=$keep/gates/$gate
tmp=$(mktemp -d)
# The trees exist only where an engine was rebuilt.
trap 'for tree in "$tmp/main" "$tmp/candidate"; do [ ! -d "$tree" ] || git -C "$repo" worktree remove --force "$tree"; done; rm -rf "$tmp"' EXIT

sum_of() { sha256sum "$1" | cut -c1-10; }
code_of() {
  objcopy --strip-all --remove-section=.note.gnu.build-id "$1" "$tmp/code" && sum_of "$tmp/code"
}
# Builds main, or the candidate (main with this folder's patches), into OUT, as the gate's
# binary was built: under the commit id in its version string, not the new one `git am` makes.
build() { # main|candidate OUT
  local tree=$tmp/$1 commit=$main_commit
  git -C "$repo" worktree add -q --detach "$tree" "$main_commit"
  if [ "$1" = candidate ]; then
    git -C "$tree" -c user.name=restore -c user.email=restore@localhost am -q "$here"/*.patch
    commit=$candidate_commit
  fi
  (cd "$tree" && FAIRYBRIDGE_COMMIT=$commit CARGO_TARGET_DIR=$keep/target-gate nice -n 19 cargo build --release -q)
  cp "$keep/target-gate/release/fairybridge" "$2"
}
# Puts the engine with checksum SUM at KEEP/bin/BIN: kept, or rebuilt (`build WHICH`) and
# checked. Returns 1 if only a rebuild of the same code but other bytes could be had.
engine() { # WHICH BIN SUM CODE KEPT_COPY
  local which=$1 name=$2 bin=$keep/bin/$2 sum=$3 code=$4 kept=$5
  mkdir -p "$keep/bin"
  if [ -f "$bin" ] && [ "$(sum_of "$bin")" = "$sum" ]; then
    return 0
  fi
  if [ -f "$kept" ] && [ "$(sum_of "$kept")" = "$sum" ]; then
    cp "$kept" "$bin"
    return 0
  fi
  build "$which" "$tmp/rebuilt"
  local got
  got=$(sum_of "$tmp/rebuilt")
  if [ "$got" = "$sum" ]; then
    cp "$tmp/rebuilt" "$bin"
    return 0
  fi
  if [ "$(code_of "$tmp/rebuilt")" = "$code" ]; then
    echo "restore-gate.sh: $name rebuilt with the same code but other bytes ($got, not $sum)" >&2
    return 1
  fi
  echo "restore-gate.sh: $name rebuilt is not the gated engine (its code differs)" >&2
  exit 1
}

resumable=1
engine main "$main_bin" "$main_sum" "$main_code" "$dir/baseline" || resumable=0
engine candidate "$candidate_bin" "$candidate_sum" "$candidate_code" "$dir/candidate" || resumable=0
if [ "$resumable" = 0 ]; then
  echo "restore-gate.sh: the state names binaries that are gone; begin the gate again (new --dir)" >&2
  exit 1
fi

# The state with more games played: this folder's, or the one kept here.
played() { if [ -f "$1" ]; then grep -c '^game ' "$1" || true; else echo 0; fi; }
mkdir -p "$dir"
if [ "$(played "$here/gate/state")" -gt "$(played "$dir/state")" ]; then
  xz -dc "$here/gate/games.pgn.xz" > "$dir/games.pgn"
  cp "$here/gate/state" "$dir/state"
fi
echo "restored $dir; resume with:"
echo "  cd $repo && nice -n 5 scripts/gate.sh --bounds 0,10 --tc 5+0.05 --variant normal --concurrency 2 --games 4000 --referee $keep/bin/$main_bin --dir $dir $keep/bin/$candidate_bin $keep/bin/$main_bin"
