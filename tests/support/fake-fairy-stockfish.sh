#!/bin/sh
# A stand-in for Fairy-Stockfish in tests/fsf_perft.rs, failing as FAKE_FSF says:
#   crash     reads its input, then dies of SIGSEGV
#   no-count  answers `uci` (its UCI_Variant lists chess only) but never counts
cat >/dev/null
case "$FAKE_FSF" in
    crash) kill -SEGV $$ ;;
    no-count)
        echo "option name UCI_Variant type combo default chess var chess"
        echo uciok
        ;;
esac
