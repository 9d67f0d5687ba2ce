#!/usr/bin/env bash
# End-to-end check with the real XBoard (Debian 4.9.1), headless under Xvfb, in match mode.
#
# Usage: scripts/xboard-check.sh [--only NAME[,NAME...]] [--list] [ENGINE_PATH]
#   ENGINE_PATH  default target/release/fairybridge (build: cargo build --release)
#   --only NAME  run only the named run(s) from the list at the bottom of this file
#   --list       print the run names and exit
# Env: XBC_OUT (output root, default target/xboard-check), XBC_GAME_TIMEOUT (seconds allowed per game
#      before XBoard is killed, default 150), XBC_SHOT_AT (seconds into a run for the screenshot, default 12).
#
# For every run, OUT=target/xboard-check/NAME/ gets: xboard.pgn (the games), xboard.debug (XBoard's
# debug log: every line to and from both engines), xboard.png (screenshot), xboard.stdout, and the
# engines' working directories first/ and second/.
#
# A run FAILS when:
#   - XBoard had to be killed by the timeout, or the PGN does not hold GAMES games;
#   - a game has no proper result (Result tag other than 1-0, 0-1, 1/2-1/2);
#   - our engine made a false (win/draw/illegal-move) claim (an opponent's is shown, not failed);
#   - XBoard's debug log or stdout has any of: illegal move, forfeit, invalid, "Engine did not send
#     setup", a time loss ("White wins on time", "Black's flag fell", "Both flags fell" are
#     XBoard 4.9.1's wordings), an engine crash ("exited unexpectedly", "Error writing to ...
#     chess program"), or a stale move ("Undoing extra move", "Ignoring extra move", "Ignoring
#     move out of turn") -- see BAD_PATTERN;
#   - our engine (whichever of first/second runs ENGINE_PATH) sent an "Error" or "tellusererror" line.
# Exit status: 0 when every selected run passed, 1 otherwise (2 = usage/setup problem).
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ONLY=""
LIST=0
ENGINE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --only) ONLY="${2:-}"; shift 2 || { echo "--only needs a NAME" >&2; exit 2; } ;;
    --only=*) ONLY="${1#--only=}"; shift ;;
    --list) LIST=1; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) ENGINE="$1"; shift ;;
  esac
done
# ENGINE made absolute, XBOARD, FAIRYMAX (the filter), FAIRYMAX_BIN.
. "$ROOT/scripts/e2e/peers.sh"
OUTROOT=${XBC_OUT:-$ROOT/target/xboard-check}
GAME_TIMEOUT=${XBC_GAME_TIMEOUT:-150}
SHOT_AT=${XBC_SHOT_AT:-12}
FSF=${FSF:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}

# Settings used by every run (the run's own arguments come after these and can override them).
COMMON_ARGS=(
  -matchMode true               # engine-vs-engine match, exit when done
  -popupExitMessage false       # no "match finished" popup that would keep XBoard alive
  -saveSettingsOnExit false     # never write an .xboardrc
  -autoCallFlag true            # time losses are called (and logged) by XBoard
  -testLegality true -testClaims true -checkMates true   # XBoard judges moves and result claims
  -matchPause 1000              # ms between games (default 10000)
  -adjudicateDrawMoves 80       # bound the runtime (CI budget): draw after 80 moves
  -size medium -soundProgram /bin/true
  -debugMode true
)

# What must not appear in XBoard's debug log or its stdout (case-insensitive ERE). Time-loss wordings
# of XBoard 4.9.1: "White wins on time", "Black wins on time", "White's flag fell", "Both flags fell".
# A false claim is judged by who made it (false_claims below): an opponent's (Fairy-Max has claimed
# repetitions that were not) is not our engine's fault, so it is outside this pattern.
FALSE_CLAIM='false (win |draw |illegal-move )?claim'
BAD_PATTERN='illegal move|illegal-move|forfeit|invalid|did not send setup'
BAD_PATTERN+='|wins on time|loses on time|flag fell|flags fell|time forfeit'
BAD_PATTERN+='|exited unexpectedly|error writing to|error reading from|failed to start'
BAD_PATTERN+='|extra move|move out of turn'   # stale/out-of-turn "move" lines (ping/force handling)

# false_claims DEBUG_LOG: one line per false claim XBoard reported, "CLAIMANT: LINE", where CLAIMANT
# is first or second, the engine whose last result or "Illegal move" line came before XBoard's verdict
# (debug-log tags are "<first : " and "<second: "), or "unknown" when no engine line came before it.
false_claims() {
  awk -v pat="$FALSE_CLAIM" '
    /^[0-9]+ <(first|second) ?: (1-0|0-1|1\/2-1\/2|Illegal move)/ {
      claimant = ($2 ~ /^<first/) ? "first" : "second"
    }
    tolower($0) ~ pat && !/^[0-9]+ <(first|second) ?: / { print (claimant == "" ? "unknown" : claimant) ": " NR ": " $0 }
  ' "$1"
}

XVFB_PID=""
XB_PID=""
SHOT_PID=""
DISPLAY_NUM=""

cleanup() {
  for p in $SHOT_PID $XB_PID $XVFB_PID; do
    kill "$p" 2>/dev/null
  done
  wait 2>/dev/null
}
trap cleanup EXIT
trap 'echo "interrupted"; exit 130' INT TERM

start_xvfb() {
  [ -n "$XVFB_PID" ] && kill -0 "$XVFB_PID" 2>/dev/null && return 0
  mkdir -p "$OUTROOT"
  local dfile="$OUTROOT/.xvfb-display.$$"
  rm -f "$dfile"
  # -displayfd: Xvfb picks a free display number itself and writes it to fd 3 once it accepts clients.
  Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$dfile" >/dev/null 2>&1 &
  XVFB_PID=$!
  local i
  for i in $(seq 1 100); do
    if [ -s "$dfile" ]; then
      DISPLAY_NUM=$(tr -dc '0-9' <"$dfile")
      rm -f "$dfile"
      [ -n "$DISPLAY_NUM" ] && return 0
    fi
    kill -0 "$XVFB_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "Xvfb did not start" >&2
  rm -f "$dfile"
  return 1
}

selected() {   # selected NAME -> 0 if NAME is to be run
  [ -z "$ONLY" ] && return 0
  local n
  for n in ${ONLY//,/ }; do [ "$n" = "$1" ] && return 0; done
  return 1
}

RUN_NAMES=()
PASSED=()
FAILED=()

# run_match NAME VARIANT GAMES FIRST SECOND [extra xboard args...]
#   NAME     run name (output dir target/xboard-check/NAME, used by --only)
#   VARIANT  XBoard -variant name
#   GAMES    number of games (XBoard alternates colours)
#   FIRST, SECOND  engine commands (-fcp / -scp); ENGINE_PATH is "ours", anything else an opponent
#   extra    more XBoard options, e.g. the time control: -tc 0:15 -inc 0.2
run_match() {
  local name=$1 variant=$2 games=$3 first=$4 second=$5
  shift 5
  RUN_NAMES+=("$name")
  [ "$LIST" = 2 ] && return 0
  [ "$LIST" = 1 ] && { echo "$name: $variant, $games games, $(basename "$first") vs $(basename "$second"), $*"; return 0; }
  selected "$name" || return 0

  local out="$OUTROOT/$name" t0=$SECONDS fail=0 ours=() hits
  rm -rf "$out"
  mkdir -p "$out/first" "$out/second" "$out/home"
  [ "$first" = "$ENGINE" ] && ours+=(first)
  [ "$second" = "$ENGINE" ] && ours+=(second)
  echo "=== $name: variant $variant, $games games, first=$first second=$second $*"

  start_xvfb || { FAILED+=("$name (no Xvfb)"); return 1; }
  local limit=$((games * GAME_TIMEOUT + 30))
  HOME="$out/home" DISPLAY=":$DISPLAY_NUM" timeout -k 10 "$limit" "$XBOARD" \
    "${COMMON_ARGS[@]}" -matchGames "$games" -variant "$variant" \
    -fcp "$first" -fd "$out/first" -scp "$second" -sd "$out/second" \
    -saveGameFile "$out/xboard.pgn" -nameOfDebugFile "$out/xboard.debug" -savePositionFile "$out/final.fen" \
    "$@" >"$out/xboard.stdout" 2>&1 &
  XB_PID=$!
  ( sleep "$SHOT_AT"; kill -0 "$XB_PID" 2>/dev/null &&
      DISPLAY=":$DISPLAY_NUM" import -window root -trim +repage "$out/xboard.png" 2>/dev/null ) &
  SHOT_PID=$!
  wait "$XB_PID"
  local rc=$?
  XB_PID=""
  kill "$SHOT_PID" 2>/dev/null; wait "$SHOT_PID" 2>/dev/null; SHOT_PID=""
  local secs=$((SECONDS - t0))

  # --- XBoard itself
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo "  FAIL: XBoard did not finish within ${limit}s (killed, exit $rc)"; fail=1
  elif [ "$rc" != 0 ]; then
    echo "  note: XBoard exit status $rc"
  fi
  [ -s "$out/xboard.stdout" ] && sed 's/^/  xboard: /' "$out/xboard.stdout" | head -5

  # --- the PGN: game count, results, termination comments
  local pgn="$out/xboard.pgn" n=0
  [ -f "$pgn" ] && n=$(grep -c '^\[Event ' "$pgn")
  if [ "$n" != "$games" ]; then
    echo "  FAIL: PGN holds $n game(s), expected $games"; fail=1
  fi
  if [ -f "$pgn" ]; then
    # One line per game: White, Black, Result tag, start FEN (if any), last comment + result token.
    awk -v variant="$variant" '
      function flush() {
        if (!have) return
        term = ""
        if (match(body, /\{[^}]*\}[ \t]*(1-0|0-1|1\/2-1\/2|\*)[ \t]*$/)) term = substr(body, RSTART, RLENGTH)
        else if (match(body, /(1-0|0-1|1\/2-1\/2|\*)[ \t]*$/)) term = substr(body, RSTART, RLENGTH)
        moves = 0; tmp = body
        gsub(/\{[^}]*\}/, " ", tmp)
        while (match(tmp, /(^|[ \t])[0-9]+\.[ \t]/)) { moves++; tmp = substr(tmp, RSTART + RLENGTH) }
        bad = (result !~ /^(1-0|0-1|1\/2-1\/2)$/) ? "  <-- no result" : ""
        if (variant != "normal" && var != variant) bad = bad "  <-- Variant tag \"" var "\""
        printf "  game %d: %s - %s  [%s]  %s  (%d moves)%s\n", ++g, white, black, result, term, moves, bad
        if (fen != "") printf "          start %s\n", fen
        if (bad != "") nbad++
        have = 0; body = ""; fen = ""; var = "normal"; result = "?"
      }
      BEGIN { var = "normal" }
      /^\[Event / { flush(); have = 1; next }
      /^\[White /  { white = $0; sub(/^\[White "/, "", white); sub(/"\]$/, "", white); next }
      /^\[Black /  { black = $0; sub(/^\[Black "/, "", black); sub(/"\]$/, "", black); next }
      /^\[Result / { result = $0; sub(/^\[Result "/, "", result); sub(/"\]$/, "", result); next }
      /^\[FEN /    { fen = $0; sub(/^\[FEN "/, "", fen); sub(/"\]$/, "", fen); next }
      /^\[Variant / { var = $0; sub(/^\[Variant "/, "", var); sub(/"\]$/, "", var); next }
      /^\[/ { next }
      { body = body " " $0 }
      END { flush(); exit (nbad > 0) }
    ' "$pgn" || { echo "  FAIL: a game without a proper result or with the wrong variant"; fail=1; }
  fi

  # --- XBoard's own messages (e.g. 'Illegal move "a1a5" from first machine' goes only here)
  hits=$(grep -n -i -E "$BAD_PATTERN" "$out/xboard.stdout")
  if [ -n "$hits" ]; then
    echo "  FAIL: XBoard reported:"
    printf '%s\n' "$hits" | head -10 | sed 's/^/    /'
    fail=1
  fi

  # --- XBoard's debug log
  local dbg="$out/xboard.debug"
  if [ ! -s "$dbg" ]; then
    echo "  FAIL: no debug log $dbg"; fail=1
  else
    local hits
    hits=$(grep -n -i -E "$BAD_PATTERN" "$dbg")
    if [ -n "$hits" ]; then
      echo "  FAIL: XBoard debug log reports problems ($(printf '%s\n' "$hits" | wc -l) lines):"
      printf '%s\n' "$hits" | head -20 | sed 's/^/    /'
      fail=1
    fi
    local who claim
    while IFS= read -r claim; do
      [ -n "$claim" ] || continue
      who=${claim%%:*}
      if [ "$who" = unknown ] || printf '%s\n' "${ours[@]}" | grep -qx "$who"; then
        echo "  FAIL: a false claim by our engine ($who): ${claim#*: }"
        fail=1
      else
        echo "  note (opponent): a false claim by $who: ${claim#*: }"
      fi
    done < <(false_claims "$dbg")
    for who in "${ours[@]}"; do
      # Debug-log tags are "<first : " and "<second: ".
      local tag="<$who"
      hits=$(grep -n -E "^[0-9]+ $tag ?: (Error|tellusererror)" "$dbg")
      if [ -n "$hits" ]; then
        echo "  FAIL: our engine ($who) sent error lines:"
        printf '%s\n' "$hits" | head -20 | sed 's/^/    /'
        fail=1
      fi
    done
    # Opponents' complaints are not our engine's fault, but show them (they can explain odd games).
    for who in first second; do
      printf '%s\n' "${ours[@]}" | grep -qx "$who" && continue
      hits=$(grep -E "^[0-9]+ <$who ?: (Error|Illegal)" "$dbg" | sed 's/^[0-9]* //' | sort | uniq -c)
      [ -n "$hits" ] && printf '%s\n' "$hits" | head -5 | sed 's/^/  note (opponent): /'
    done
  fi
  [ -f "$out/xboard.png" ] && echo "  screenshot: $out/xboard.png"

  if [ "$fail" = 0 ]; then
    echo "  PASS $name (${secs}s)"
    PASSED+=("$name")
  else
    echo "  FAIL $name (${secs}s) -- logs in $out"
    FAILED+=("$name")
  fi
  return "$fail"
}

# ----------------------------------------------------------------------------------------------
# The runs. To add a variant: append one line
#     run_match NAME VARIANT GAMES FIRST_CMD SECOND_CMD [xboard args, e.g. the time control]
# NAME must be unique (it is the output folder and the --only key); VARIANT is XBoard's -variant name
# and must be in the engine's `feature variants=` (and the opponent's); use "$ENGINE" for our engine,
# "$FAIRYMAX" (Fairy-Max behind its crash filter) or e.g. /usr/games/sjaakii as an opponent. Keep the
# time control generous enough that a loaded 2-core machine does not decide games on time. Runs
# execute in order, each with a fresh XBoard on the shared Xvfb display.
runs() {
  run_match fairymax-normal  normal     2 "$ENGINE" "$FAIRYMAX" -tc 0:15 -inc 0.2
  run_match self-wildcastle  wildcastle 2 "$ENGINE" "$ENGINE"   -tc 0:10 -inc 0.3
  # Engine-defined variants: XBoard learns board, pieces and moves from our `setup`/`piece` lines.
  # Pillage: legality testing off -- XBoard 4.9.1 cannot judge a super pawn's promotion (it lets
  # only pawns and lances promote, and a lance is a pawn to its e.p. code); every other move it
  # accepts with legality testing on (README, Pillage).
  run_match self-pillage     pillage    2 "$ENGINE" "$ENGINE"   -tc 0:10 -inc 0.2 -testLegality false
  # Wreckage: XBoard cannot judge three-leg moves or hook captures; legality testing off (README).
  run_match self-wreckage    wreckage   2 "$ENGINE" "$ENGINE"   -tc 0:10 -inc 0.2 -testLegality false
  # Wild Rose: growing-roses turns go over the wire in several parts (protocol/wildrose-turns.md).
  run_match self-wildrose    wildrose   2 "$ENGINE" "$ENGINE"   -tc 0:15 -inc 0.3 -testLegality false
  # Crazyhouse: XBoard knows the game (holdings, drops, promoted pieces) and judges every move with
  # legality testing on. Against Fairy-Stockfish (CECP) too with --only fsf-crazyhouse (not in the
  # default list, for CI's time; tests/match_crazyhouse.rs plays Fairy-Stockfish in every CI run).
  run_match self-crazyhouse  crazyhouse 2 "$ENGINE" "$ENGINE"   -tc 0:15 -inc 0.3
  if [ -n "$ONLY" ]; then
    run_match fsf-crazyhouse crazyhouse 2 "$ENGINE" "$FSF" -tc 0:15 -inc 0.3
  fi
}
# ----------------------------------------------------------------------------------------------

main() {
  # First pass: only collect the names (validates --only before anything starts).
  local mode=$LIST
  LIST=2
  runs
  LIST=$mode
  if [ "$LIST" = 1 ]; then runs; return 0; fi
  if [ -n "$ONLY" ]; then
    local n
    for n in ${ONLY//,/ }; do
      printf '%s\n' "${RUN_NAMES[@]}" | grep -qx -- "$n" || { echo "unknown run: $n (see --list)" >&2; exit 2; }
    done
  fi
  RUN_NAMES=()

  local missing=0 t
  for t in "$ENGINE" "$XBOARD" "$FAIRYMAX" "$FAIRYMAX_BIN"; do
    [ -x "$t" ] || { echo "not executable: $t" >&2; missing=1; }
  done
  for t in Xvfb import timeout; do
    command -v "$t" >/dev/null || { echo "missing tool: $t" >&2; missing=1; }
  done
  [ "$missing" = 0 ] || exit 2
  echo "engine: $ENGINE"

  local t0=$SECONDS
  runs
  echo "=== summary: ${#PASSED[@]} passed, ${#FAILED[@]} failed, $((SECONDS - t0))s"
  [ "${#FAILED[@]}" -gt 0 ] && { echo "failed: ${FAILED[*]}"; return 1; }
  return 0
}

main
exit $?
