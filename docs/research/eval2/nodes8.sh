#!/bin/sh
# nodes8.sh BIN: depth-8 node count from the start position of each built-in game (UCI).
for v in chess wildcastle pillage wreckage wildrose crazyhouse; do
  n=$(printf "uci\nsetoption name UCI_Variant value $v\nucinewgame\nposition startpos\ngo depth 8\n" | (cat; sleep 10) | timeout 12 nice -n 19 "$1" 2>/dev/null | awk '/^bestmove/{print last; exit} /nodes/{for(i=1;i<=NF;i++) if($i=="nodes") last=$(i+1)}')
  echo "$v $n"
done
