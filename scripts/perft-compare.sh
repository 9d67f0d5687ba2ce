#!/usr/bin/env bash
# Perft speed, side by side in one run: fairybridge and Fairy-Stockfish (UCI `go perft N`) from the
# chess start position. Prints both times and the ratio (FSF time / our time: above 1 = we are faster).
# Usage: scripts/perft-compare.sh [DEPTH]   (default 6; needs Debian fairy-stockfish)
# Builds into $CARGO_TARGET_DIR when it is set (as cargo does), else target/; FAIRYBRIDGE=PATH
# measures that binary instead, without building (to compare two builds under the same load).
set -euo pipefail
cd "$(dirname "$0")/.."
DEPTH=${1:-6}
FSF=${FSF:-/usr/games/fairy-stockfish}
[ -x "$FSF" ] || { echo "perft-compare: $FSF not found (apt-get install fairy-stockfish)" >&2; exit 2; }
if [ -n "${FAIRYBRIDGE:-}" ]; then
  OURS=$FAIRYBRIDGE
else
  cargo build --release -q
  OURS=${CARGO_TARGET_DIR:-target}/release/fairybridge
fi

t0=$(date +%s.%N)
ours_nodes=$("$OURS" perft --variant normal --depth "$DEPTH" 2>/dev/null | awk '/^nodes/ {print $2}')
t1=$(date +%s.%N)
fsf_nodes=$(printf 'uci\nposition startpos\ngo perft %s\nquit\n' "$DEPTH" | "$FSF" 2>/dev/null \
  | awk '/^Nodes searched/ {print $3}')
t2=$(date +%s.%N)

awk -v d="$DEPTH" -v on="$ours_nodes" -v fn="$fsf_nodes" -v t0="$t0" -v t1="$t1" -v t2="$t2" 'BEGIN {
  ot = t1 - t0; ft = t2 - t1
  printf "perft %s from the chess start\n", d
  printf "  fairybridge     %12s nodes  %7.2f s  %6.1f M nodes/s\n", on, ot, on / ot / 1e6
  printf "  Fairy-Stockfish %12s nodes  %7.2f s  %6.1f M nodes/s\n", fn, ft, fn / ft / 1e6
  printf "  ratio (Fairy-Stockfish time / fairybridge time): %.2f\n", ft / ot
}'
[ "$ours_nodes" = "$fsf_nodes" ] || { echo "node counts differ!" >&2; exit 1; }
