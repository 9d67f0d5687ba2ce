#!/usr/bin/env bash
# Screenshots of fairybridge playing itself in real XBoard (headless, under Xvfb), one per game,
# for the README: docs/xboard-VARIANT.png.
# Usage: scripts/screenshots.sh [VARIANT...]   (default: all five games; needs xboard xvfb imagemagick)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ENGINE=$ROOT/target/release/fairybridge
[ -x "$ENGINE" ] || (cd "$ROOT" && cargo build --release -q)
XBOARD=$(command -v xboard || echo /usr/games/xboard)
VARIANTS=("$@")
[ ${#VARIANTS[@]} -gt 0 ] || VARIANTS=(normal wildcastle pillage wreckage wildrose)
DISP=:$(( 120 + RANDOM % 50 ))
Xvfb "$DISP" -screen 0 1280x1024x24 >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null' EXIT
sleep 1
for v in "${VARIANTS[@]}"; do
  work=$(mktemp -d)
  # Long enough for a few moves of play; legality testing off where XBoard cannot judge (README).
  legality=true
  case "$v" in pillage|wreckage|wildrose) legality=false ;; esac
  # `timeout` is the background job itself, so that killing it ends XBoard and its engines.
  env HOME="$work" DISPLAY="$DISP" timeout 40 "$XBOARD" -fcp "$ENGINE" -scp "$ENGINE" -fd "$work" -sd "$work" \
     -matchMode true -matchGames 1 -variant "$v" -tc 0:30 -inc 0 -testLegality "$legality" \
     -popupExitMessage false -saveSettingsOnExit false -size medium -soundProgram /bin/true \
     >/dev/null 2>&1 &
  xb=$!
  sleep "${SHOT_AT:-14}"
  # The window sits on a black root window: cut that away.
  DISPLAY=$DISP import -window root -trim +repage "$ROOT/docs/xboard-$v.png"
  kill $xb 2>/dev/null || true
  wait $xb 2>/dev/null || true
  rm -rf "$work"
  echo "docs/xboard-$v.png"
done
