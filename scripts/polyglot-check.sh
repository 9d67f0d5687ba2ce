#!/usr/bin/env bash
# End-to-end check of the UCI door through Debian's PolyGlot (UCI → XBoard adapter) in real XBoard
# (4.9.1, headless under Xvfb, match mode): our engine over UCI behind PolyGlot plays normal chess
# against our engine over CECP, XBoard judging moves and claims (legality testing on).
#
# Usage: scripts/polyglot-check.sh [ENGINE_PATH]
#   ENGINE_PATH  default target/release/fairybridge (build: cargo build --release)
# Env: PGC_OUT (output dir, default target/polyglot-check), PGC_GAMES (default 1),
#      PGC_TC (XBoard -tc, default 0:10), PGC_INC (default 0.1), PGC_GAME_TIMEOUT (s per game, 150).
#
# OUT gets: polyglot.ini, polyglot.log (every UCI line both ways), xboard.pgn, xboard.debug,
# xboard.stdout. The check FAILS when XBoard had to be killed, the PGN does not hold GAMES games
# with results 1-0, 0-1 or 1/2-1/2, White's moves in it did not all come through a UCI `bestmove`,
# XBoard's logs show an illegal move, a false claim, a time loss
# or a crash, PolyGlot logs an error, or our UCI side sent `info string error`.
# Exit status 0 = pass, 1 = fail, 2 = a tool is missing (scripts/install-deps.sh installs them).
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ENGINE=${1:-$ROOT/target/release/fairybridge}
case "$ENGINE" in /*) ;; *) ENGINE="$PWD/$ENGINE" ;; esac
OUT=${PGC_OUT:-$ROOT/target/polyglot-check}
GAMES=${PGC_GAMES:-1}
TC=${PGC_TC:-0:10}
INC=${PGC_INC:-0.1}
GAME_TIMEOUT=${PGC_GAME_TIMEOUT:-150}
XBOARD=$(command -v xboard || echo /usr/games/xboard)
POLYGLOT=$(command -v polyglot || echo /usr/games/polyglot)

missing=0
for t in "$ENGINE" "$XBOARD" "$POLYGLOT"; do
  [ -x "$t" ] || { echo "not executable: $t (scripts/install-deps.sh installs the peers)" >&2; missing=1; }
done
for t in Xvfb timeout; do
  command -v "$t" >/dev/null || { echo "missing tool: $t (scripts/install-deps.sh)" >&2; missing=1; }
done
[ "$missing" = 0 ] || exit 2

# As scripts/xboard-check.sh: what must not appear in XBoard's logs (case-insensitive ERE).
BAD_PATTERN='illegal move|illegal-move|forfeit|false (win |draw |illegal-move )?claim|invalid'
BAD_PATTERN+='|wins on time|loses on time|flag fell|flags fell|time forfeit'
BAD_PATTERN+='|exited unexpectedly|error writing to|error reading from|failed to start'
BAD_PATTERN+='|extra move|move out of turn'

rm -rf "$OUT"
mkdir -p "$OUT/uci" "$OUT/cecp" "$OUT/home"
cat >"$OUT/polyglot.ini" <<EOF
[PolyGlot]
EngineCommand = $ENGINE
EngineDir = $OUT/uci
EngineName = fairybridge-uci
LogFile = $OUT/polyglot.log
Log = true
Resign = false
[Engine]
Hash = 16
EOF

XVFB_PID=""
XB_PID=""
cleanup() {
  for p in $XB_PID $XVFB_PID; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
}
trap cleanup EXIT

dfile="$OUT/.xvfb-display"
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$dfile" >/dev/null 2>&1 &
XVFB_PID=$!
DISPLAY_NUM=""
for _ in $(seq 1 100); do
  [ -s "$dfile" ] && DISPLAY_NUM=$(tr -dc '0-9' <"$dfile") && [ -n "$DISPLAY_NUM" ] && break
  kill -0 "$XVFB_PID" 2>/dev/null || break
  sleep 0.1
done
[ -n "$DISPLAY_NUM" ] || { echo "Xvfb did not start" >&2; exit 1; }

echo "=== polyglot-check: $GAMES games of normal chess, $ENGINE over UCI (PolyGlot) vs over CECP, -tc $TC -inc $INC"
t0=$SECONDS
HOME="$OUT/home" DISPLAY=":$DISPLAY_NUM" timeout -k 10 $((GAMES * GAME_TIMEOUT + 30)) "$XBOARD" \
  -matchMode true -matchGames "$GAMES" -variant normal -tc "$TC" -inc "$INC" \
  -popupExitMessage false -saveSettingsOnExit false -autoCallFlag true \
  -testLegality true -testClaims true -checkMates true -matchPause 1000 -adjudicateDrawMoves 120 \
  -size medium -soundProgram /bin/true -debugMode true \
  -fcp "$POLYGLOT $OUT/polyglot.ini" -fd "$OUT/uci" -scp "$ENGINE" -sd "$OUT/cecp" \
  -saveGameFile "$OUT/xboard.pgn" -nameOfDebugFile "$OUT/xboard.debug" \
  >"$OUT/xboard.stdout" 2>&1 &
XB_PID=$!
wait "$XB_PID"
rc=$?
XB_PID=""
fail=0
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
  echo "  FAIL: XBoard did not finish (killed, exit $rc)"; fail=1
fi

pgn="$OUT/xboard.pgn"
n=0
[ -f "$pgn" ] && n=$(grep -c '^\[Event ' "$pgn")
[ "$n" = "$GAMES" ] || { echo "  FAIL: PGN holds $n game(s), expected $GAMES"; fail=1; }
if [ -f "$pgn" ]; then
  grep -E '^\[(White|Black|Result) ' "$pgn" | paste - - - | sed 's/^/  /'
  bad=$(grep '^\[Result ' "$pgn" | grep -v -E '"(1-0|0-1|1/2-1/2)"')
  [ -z "$bad" ] || { echo "  FAIL: games without a result: $bad"; fail=1; }
fi

for log in "$OUT/xboard.stdout" "$OUT/xboard.debug"; do
  hits=$(grep -n -i -E "$BAD_PATTERN" "$log" 2>/dev/null)
  [ -z "$hits" ] || { echo "  FAIL: $(basename "$log") reports:"; printf '%s\n' "$hits" | head -10 | sed 's/^/    /'; fail=1; }
done
# Our CECP side must not complain either.
hits=$(grep -n -E '^[0-9]+ <second ?: (Error|tellusererror)' "$OUT/xboard.debug" 2>/dev/null)
[ -z "$hits" ] || { echo "  FAIL: the CECP engine sent errors:"; printf '%s\n' "$hits" | head -5 | sed 's/^/    /'; fail=1; }
# The UCI side as PolyGlot saw it: every `bestmove`, and no error of ours or of PolyGlot's.
if [ ! -s "$OUT/polyglot.log" ]; then
  echo "  FAIL: no PolyGlot log"; fail=1
else
  # Every move White (the UCI side) made in the PGN must have come through a `bestmove`. A fixed
  # minimum would flake: self-play can end by repetition within 20 moves.
  best=$(grep -c 'Engine->Adapter: bestmove' "$OUT/polyglot.log")
  white_moves=0
  [ -f "$pgn" ] && white_moves=$(grep -v '^\[' "$pgn" | tr '\n' ' ' | sed 's/{[^}]*}//g' | tr ' ' '\n' | grep -c -E '^[0-9]+\.$')
  echo "  UCI bestmove lines through PolyGlot: $best, White's moves in the PGN: $white_moves"
  [ "$white_moves" -gt 0 ] || { echo "  FAIL: the UCI side made no move in the PGN"; fail=1; }
  [ "$best" -ge "$white_moves" ] || { echo "  FAIL: fewer UCI bestmoves ($best) than White's moves ($white_moves)"; fail=1; }
  hits=$(grep -n -i -E 'info string error|POLYGLOT.*(error|illegal)|Adapter->XBoard: (Error|Illegal)' "$OUT/polyglot.log")
  [ -z "$hits" ] || { echo "  FAIL: PolyGlot log reports:"; printf '%s\n' "$hits" | head -10 | sed 's/^/    /'; fail=1; }
fi

if [ "$fail" = 0 ]; then
  echo "  PASS polyglot-check ($((SECONDS - t0))s)"
else
  echo "  FAIL polyglot-check ($((SECONDS - t0))s) -- logs in $OUT"
fi
exit "$fail"
