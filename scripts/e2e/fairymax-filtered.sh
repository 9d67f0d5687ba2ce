#!/bin/bash
# Fairy-Max 5.0b as packaged by Debian (/usr/games/fairymax) segfaults on about half of the commands it
# does not know (measured: `xboard`, `protover 2`, `computer`, `ping 1` -> exit 139 in 10 of 20 runs;
# the same with `foo`). XBoard sends `computer` before every engine-engine game and `result ...` after it,
# neither of which Fairy-Max knows, so a plain match with it dies at random ("Error writing to second
# chess program"). This wrapper drops exactly those two commands on their way to Fairy-Max; everything
# else passes through unchanged, and Fairy-Max's output goes straight to the GUI.
# Usage: as the engine command instead of /usr/games/fairymax (env FAIRYMAX_BIN overrides the binary).
trap '' INT
grep --line-buffered -v -E '^(computer|result)( |$)' | "${FAIRYMAX_BIN:-/usr/games/fairymax}" "$@"
