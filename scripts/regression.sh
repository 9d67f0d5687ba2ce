#!/usr/bin/env bash
# Regression match between two builds of fairybridge: which one is stronger?
#
#   scripts/regression.sh REV_A REV_B [VARIANT...]
#
# REV_A and REV_B are git revisions (HEAD~3, a branch, a sha), or `.` for the working tree as it is
# (uncommitted changes included). Each revision is checked out with `git worktree` into
# target/regression/<sha> and built there with `cargo build --release` (its own target dir); the
# referee is the working tree's `fairybridge match`. For every variant (default: every variant both
# builds list) it plays an SPRT match REV_B vs REV_A with the hypotheses elo0=-ELO, elo1=+ELO, so
# that the test ends in one of two verdicts: H1 (REV_B is stronger) or H0 (REV_A is stronger); if
# the game cap comes first, neither is shown to be stronger. PGNs and full reports land in
# target/regression/results/.
#
# Environment: TC (time control per engine, default 5+0.05), GAMES (cap per variant, default 1000),
# ELO (default 10), ALPHA and BETA (default 0.05), CONCURRENCY (default 1), SEED (default 1),
# TIMEMARGIN (ms, default 100).
#
# The worktrees stay for the next run (only changed files are rebuilt); remove one with
# `git worktree remove target/regression/<sha>`, or run `git worktree prune` after deleting target/.
set -euo pipefail

usage() {
  sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
[ $# -ge 2 ] || usage
rev_a=$1
rev_b=$2
shift 2

root=$(git rev-parse --show-toplevel)
cd "$root"
TC=${TC:-5+0.05}
GAMES=${GAMES:-1000}
ELO=${ELO:-10}
ALPHA=${ALPHA:-0.05}
BETA=${BETA:-0.05}
CONCURRENCY=${CONCURRENCY:-1}
SEED=${SEED:-1}
TIMEMARGIN=${TIMEMARGIN:-100}
out_dir=target/regression/results
mkdir -p "$out_dir"

log() { printf 'regression: %s\n' "$*" >&2; }

# Builds a revision; prints the path of its binary.
build() {
  local rev=$1
  if [ "$rev" = "." ]; then
    log "building the working tree"
    cargo build --release --quiet >&2
    echo "$root/target/release/fairybridge"
    return
  fi
  local sha
  sha=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "regression: unknown revision $rev" >&2; exit 2; }
  local dir=target/regression/$sha
  if [ ! -d "$dir" ]; then
    log "checking out $rev ($sha) into $dir"
    git worktree add --detach --quiet "$dir" "$sha" >&2
  fi
  log "building $rev in $dir"
  (cd "$dir" && cargo build --release --quiet) >&2
  echo "$root/$dir/target/release/fairybridge"
}

label() {
  if [ "$1" = "." ]; then echo "working-tree"; else git rev-parse --short "$1^{commit}"; fi
}

bin_a=$(build "$rev_a")
bin_b=$(build "$rev_b")
log "building the referee (working tree)"
cargo build --release --quiet >&2
referee=$root/target/release/fairybridge
name_a="A-$(label "$rev_a")"
name_b="B-$(label "$rev_b")"
[ "$name_a" != "$name_b" ] || name_b="$name_b-2"

if [ $# -eq 0 ]; then
  # Every variant both builds play, in the order REV_B lists them.
  mapfile -t list_a < <("$bin_a" variants | awk '{print $1}')
  mapfile -t list_b < <("$bin_b" variants | awk '{print $1}')
  set --
  for v in "${list_b[@]}"; do
    for w in "${list_a[@]}"; do [ "$v" = "$w" ] && set -- "$@" "$v"; done
  done
fi

summary=()
for variant in "$@"; do
  stamp=$(date -u +%Y%m%d-%H%M%S)
  pgn=$out_dir/$variant-$stamp.pgn
  report=$out_dir/$variant-$stamp.txt
  log "$variant: $name_b vs $name_a, tc=$TC, SPRT elo0=-$ELO elo1=$ELO, at most $GAMES games"
  set +e
  "$referee" match \
    --engine "cmd=$bin_b" "name=$name_b" \
    --engine "cmd=$bin_a" "name=$name_a" \
    --each "tc=$TC" --variant "$variant" --games "$GAMES" --concurrency "$CONCURRENCY" \
    --seed "$SEED" --timemargin "$TIMEMARGIN" --pgn "$pgn" \
    --sprt "elo0=-$ELO" "elo1=$ELO" "alpha=$ALPHA" "beta=$BETA" >"$report"
  status=$?
  set -e
  cat "$report"
  if [ $status -ne 0 ]; then
    summary+=("$variant: the match failed (exit status $status)")
    continue
  fi
  score=$(grep -m1 '^Score of' "$report" | sed 's/^Score of [^:]*: //')
  elo=$(grep -m1 '^Elo difference' "$report")
  if grep -q 'H1 accepted' "$report"; then
    verdict="$rev_b is stronger than $rev_a"
  elif grep -q 'H0 accepted' "$report"; then
    verdict="$rev_a is stronger than $rev_b"
  else
    verdict="neither is stronger (no SPRT verdict within $GAMES games)"
  fi
  summary+=("$variant: $verdict  [$name_b vs $name_a: $score; $elo]")
done

echo
echo "Regression $rev_a (A) vs $rev_b (B), tc=$TC, SPRT [-$ELO, +$ELO] alpha=$ALPHA beta=$BETA:"
for line in "${summary[@]}"; do
  echo "  $line"
done
