#!/bin/bash
# run.sh TAG ENV... : carried run with env on big set, compare vs big_main_fresh
tag=$1; shift
export GAMES=40,56,72,88,104,120,136,152,168,184
env "$@" python3 iter_nodes.py ./fb-x 100000 games.pgn carried ${HASH:-16} > r_$tag.json 2>/dev/null
echo "== $tag $* ${HASH}"; python3 an.py r_$tag.json big_main_fresh.json 2>/dev/null | awk 'NR<=2 || /^d( 5| 8|10)/'
