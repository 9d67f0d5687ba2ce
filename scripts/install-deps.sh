#!/usr/bin/env bash
# Installs what the end-to-end checks need and a fresh machine lacks: XBoard under Xvfb, peer
# engines (Fairy-Max, Sjaak II, Fairy-Stockfish), ImageMagick for screenshots, python-chess,
# GNU parallel and Slurm with munge (the sharded-match checks, scripts/shard-check.sh).
# Idempotent: installs only what is missing.
set -euo pipefail

need=()
for pkg_bin in xboard:/usr/games/xboard xvfb:/usr/bin/Xvfb imagemagick:/usr/bin/import \
    fairymax:/usr/games/fairymax sjaakii:/usr/games/sjaakii fairy-stockfish:/usr/games/fairy-stockfish \
    parallel:/usr/bin/parallel slurm-wlm:/usr/sbin/slurmctld munge:/usr/sbin/munged; do
  pkg=${pkg_bin%%:*}; bin=${pkg_bin#*:}
  [ -x "$bin" ] || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing Debian packages: ${need[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! python3 -c 'import chess.engine' 2>/dev/null; then
  echo "installing python-chess" >&2
  python3 -m pip install -q chess
fi
