#!/usr/bin/env bash
# Plays one `fairybridge match` as N shards with GNU parallel — on this machine, or on several
# with --sshlogin — then merges them into one report (stdout, and DIR/report.txt).
#
#   scripts/shard-match.sh [--dir DIR] [--jobs J] [--sshlogin LOGINS] [--basefile FILE]... N -- MATCH-ARGS...
#
#   N              number of shards (whole game pairs each, same seed: give --seed in MATCH-ARGS)
#   --dir DIR      where the shards' PGN and state files go (default: shards)
#   --jobs J       shards at a time per machine (default: N locally, 1 per machine with --sshlogin)
#   --sshlogin L   GNU parallel's: e.g. "8/node1,8/node2" or ":,node1"; fairybridge and the engines
#                  must be at the same paths there; DIR is created there and the shard files are
#                  copied back (parallel --return), so no shared file system is needed
#   --basefile F   copy F (an openings file, an engine) to every machine first (parallel --basefile)
#
# Run the same command again after a failure or a kill: each shard continues from its state file
# (--resume), nothing is played twice. FAIRYBRIDGE names the binary (default: fairybridge in PATH).
set -euo pipefail

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=shards
jobs=""
parallel_args=()
remote=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --sshlogin) parallel_args+=(--sshlogin "$2"); remote=1; shift 2 ;;
    --basefile) parallel_args+=(--basefile "$2"); shift 2 ;;
    -h|--help) usage ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] && [ "$2" = "--" ] || usage
shards=$1
shift 2
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "$0: N must be a positive number, not \"$shards\"" >&2; exit 2; }
command -v parallel >/dev/null || { echo "$0: GNU parallel missing: run scripts/install-deps.sh" >&2; exit 1; }
fb=${FAIRYBRIDGE:-fairybridge}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ -n "$jobs" ] || { [ $remote -eq 1 ] && jobs=1 || jobs=$shards; }
if [ $remote -eq 1 ]; then
  parallel_args+=(--return "$dir/shard-{}.pgn" --return "$dir/shard-{}.state")
fi

# One shell word per argument, so that parallel's remote shell sees them unchanged.
quoted=$(printf '%q ' "$fb" match "$@")
parallel --will-cite --jobs "$jobs" --halt now,fail=1 --line-buffer --tagstring 'shard {}' "${parallel_args[@]}" \
  "mkdir -p $(printf '%q' "$dir") && $quoted --shard {}/$shards --pgn $(printf '%q' "$dir")/shard-{}.pgn --resume $(printf '%q' "$dir")/shard-{}.state >/dev/null" \
  ::: $(seq "$shards")

states=()
for k in $(seq "$shards"); do states+=("$dir/shard-$k.state"); done
"$fb" merge "${states[@]}" | tee "$dir/report.txt"
