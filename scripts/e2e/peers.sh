# Sourced by the scripts that play the engine under real XBoard and against peers (soak.sh,
# xboard-check.sh), once they have set ROOT and read their options into ENGINE: the engine under
# test as an absolute path (default target/release/fairybridge; XBoard starts engines in their own
# directories), and where XBoard and Fairy-Max are.
ENGINE=${ENGINE:-$ROOT/target/release/fairybridge}
case "$ENGINE" in /*) ;; *) ENGINE="$PWD/$ENGINE" ;; esac
XBOARD=$(command -v xboard || echo /usr/games/xboard)
# Fairy-Max through a filter that keeps the two commands it crashes on away from it (see the file).
FAIRYMAX="$ROOT/scripts/e2e/fairymax-filtered.sh"
export FAIRYMAX_BIN=${FAIRYMAX_BIN:-$(command -v fairymax || echo /usr/games/fairymax)}
