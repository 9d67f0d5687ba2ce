#!/usr/bin/env bash
# CI: one match played three ways must give one report — in one run, as 2 shards with GNU parallel
# (scripts/shard-match.sh), and as a 2-task Slurm job array with its merge step (scripts/match.sbatch)
# on a single-node cluster started here (scripts/slurm-local.sh). The engines are fairybridge at
# fixed depths, so every game repeats exactly.
#   scripts/shard-check.sh target/release/fairybridge
set -euo pipefail
cd "$(dirname "$0")/.."
fb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export FAIRYBRIDGE=$fb
work=$(mktemp -d /tmp/fairybridge-shards.XXXXXX)
chmod 755 "$work"
cleanup() { scripts/slurm-local.sh stop "$work/slurm" >/dev/null 2>&1 || true; }
trap cleanup EXIT

cat >"$work/openings.epd" <<'EPD'
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1
EPD
args=(--engine "cmd=$fb" name=Deep depth=2 --engine "cmd=$fb" name=Shallow depth=1
      --each st=10 --games 2 --rounds 6 --maxmoves 60 --seed 5 --timemargin 2000
      --openings "$work/openings.epd" order=random --sprt elo0=0 elo1=2)

"$fb" match "${args[@]}" >"$work/local.txt" 2>/dev/null
grep -q '^Ptnml(0-2)' "$work/local.txt" || { cat "$work/local.txt"; echo "no report" >&2; exit 1; }
echo "one run:"; cat "$work/local.txt"

scripts/shard-match.sh --dir "$work/parallel" 2 -- "${args[@]}" >"$work/parallel.txt"
diff -u "$work/local.txt" "$work/parallel.txt"
echo "GNU parallel, 2 shards: the same report"

scripts/slurm-local.sh start "$work/slurm"
export SLURM_CONF=$work/slurm/slurm.conf
OUT=$work/slurm-out sbatch --wait --array=1-2 --output="$work/slurm-task-%a.out" \
  scripts/match.sbatch "${args[@]}" >/dev/null || { tail -n 20 "$work"/slurm-task-*.out >&2; exit 1; }
merge_job=$(cat "$work/slurm-out/merge.jobid")
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$merge_job" 2>/dev/null)" ] && break
  sleep 0.1
done
[ -s "$work/slurm-out/report.txt" ] || { cat "$work/slurm-out/merge.out" >&2 || true; echo "no merged report" >&2; exit 1; }
diff -u "$work/local.txt" "$work/slurm-out/report.txt"
echo "Slurm job array, 2 shards and a merge job: the same report"
cleanup
trap - EXIT
rm -rf "$work"
