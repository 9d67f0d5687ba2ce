#!/usr/bin/env bash
# CI's strength smoke: a few fast games of a build against itself and against a baseline revision,
# through scripts/gate.sh. It fails on any forfeit (an illegal move, a crash, a time loss, a false
# claim) and on a match that could not be played, never on the score: a clock that falls to
# nothing, or a search that stops answering, fails loudly here.
#
#   scripts/strength-smoke.sh BINARY [BASELINE]
#
# BASELINE: a git revision (default 9ae88ff, the engine before issue 15's time changes, which
# scripts/gate.sh builds in target/gate/build/) or a binary. Environment: SMOKE_TC (default
# 2+0.02), SMOKE_GAMES (games per match, default 4).
set -euo pipefail

[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
binary=$(realpath "$1")
baseline=${2:-9ae88ff}
tc=${SMOKE_TC:-2+0.02}
games=${SMOKE_GAMES:-4}
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
# A clone without that history (shallow) cannot build the baseline: then only the self-play half
# runs, and the log says so loudly.
have_baseline=1
if [ ! -x "$baseline" ] && ! git rev-parse --verify --quiet "$baseline^{commit}" >/dev/null; then
  echo "strength-smoke: WARNING: the baseline $baseline is not in this clone's history (a shallow clone?): playing against itself only" >&2
  have_baseline=0
fi

# One gate, fresh (not resumed); checks that it played and that nobody forfeited.
smoke() {
  local what=$1 base=$2 dir=target/strength-smoke/$1
  rm -rf "$dir"
  local status=0
  scripts/gate.sh --nonreg --tc "$tc" --games "$games" --referee "$binary" --dir "$dir" "$binary" "$base" || status=$?
  case $status in
    0 | 1 | 3) ;;
    *) echo "strength-smoke: $what: the gate failed (exit status $status)" >&2; return 1 ;;
  esac
  local line
  line=$(grep '^forfeits:' "$dir/summary.txt")
  if ! sed 's/^forfeits: //' <<<"$line" | tr ',' '\n' | awk '$NF != "0" { bad = 1 } END { exit bad }'; then
    echo "strength-smoke: $what: a forfeit ($line); see $dir/games.pgn" >&2
    return 1
  fi
  grep -q "^games: $games of at most $games:" "$dir/summary.txt" || {
    echo "strength-smoke: $what: not all $games games were played; see $dir" >&2
    return 1
  }
  echo "strength-smoke: $what: $games games at $tc, no forfeit"
}

smoke self "$binary"
[ $have_baseline = 0 ] || smoke baseline "$baseline"
