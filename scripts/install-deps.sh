#!/usr/bin/env bash
# Installs what the tests and end-to-end checks need and a fresh machine lacks: XBoard under Xvfb,
# peer engines (Fairy-Max, Sjaak II, Fairy-Stockfish), PolyGlot (UCI to XBoard, scripts/polyglot-check.sh),
# make (the OpenBench-style build), ImageMagick for screenshots, python-chess, GNU parallel and
# Slurm with munge (the sharded-match checks, scripts/shard-check.sh).
# Idempotent: installs only what is missing.
#
#   scripts/install-deps.sh              everything
#   scripts/install-deps.sh NAME...      only these (Debian package names, or python-chess);
#                                        the tests call it this way for the peer they need
set -euo pipefail

all="xboard:/usr/games/xboard xvfb:/usr/bin/Xvfb imagemagick:/usr/bin/import \
fairymax:/usr/games/fairymax sjaakii:/usr/games/sjaakii fairy-stockfish:/usr/games/fairy-stockfish \
parallel:/usr/bin/parallel slurm-wlm:/usr/sbin/slurmctld munge:/usr/sbin/munged \
polyglot:/usr/games/polyglot make:/usr/bin/make"

wanted() { # NAME: is NAME asked for (everything is, without arguments)?
  [ "$#" -gt 0 ] || return 1
  local name=$1; shift
  [ "$#" -eq 0 ] && return 0
  for w in "$@"; do [ "$w" = "$name" ] && return 0; done
  return 1
}

for w in "$@"; do
  case " $all python-chess " in
    *" $w:"* | *" $w "*) ;;
    *) echo "install-deps.sh: unknown dependency '$w'" >&2; exit 2 ;;
  esac
done

need=()
for pkg_bin in $all; do
  pkg=${pkg_bin%%:*}; bin=${pkg_bin#*:}
  wanted "$pkg" "$@" || continue
  [ -x "$bin" ] || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing Debian packages: ${need[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if wanted python-chess "$@" && ! python3 -c 'import chess.engine' 2>/dev/null; then
  echo "installing python-chess" >&2
  # A Debian python3 refuses pip installs outside a virtual environment (PEP 668) unless told.
  python3 -m pip install -q chess 2>/dev/null || python3 -m pip install -q --break-system-packages chess
fi
