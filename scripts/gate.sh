#!/usr/bin/env bash
# The strength gate: does CANDIDATE gain on BASELINE, or at least not lose? A pentanomial SPRT with
# our own match runner, from the game's opening suite, colours swapped within each pair of games.
#
#   scripts/gate.sh [OPTIONS] CANDIDATE BASELINE
#
# CANDIDATE and BASELINE are git revisions of this repository (a sha, branch, tag, HEAD~1), `.`
# for the working tree as it is (uncommitted changes included), or the path of a fairybridge
# binary. A revision is checked out with `git worktree` into target/gate/build/<sha> and built there
# (`nice -n 19 cargo build --release`, its own target dir, kept for the next run).
#
# Options:
#   --gain            SPRT elo0=0 elo1=5: does the candidate gain? (the default)
#   --nonreg          SPRT elo0=-5 elo1=0: is the candidate no weaker?
#   --bounds E0,E1    other SPRT bounds (normalized Elo)
#   --alpha A, --beta B   the SPRT's error rates (default 0.05 each)
#   --tc TC           time control of both engines (default 5+0.05)
#   --variant NAME    the game (default normal)
#   --openings FILE   start positions (default fixtures/openings/NAME.epd), played in order
#   --variants FILE   a user-defined game's definition file, given to the referee and both engines
#   --games N         game cap: the match stops there without a verdict (default 20000)
#   --concurrency N   games at once (default 1)
#   --seed N          the match's seed (default 1)
#   --timemargin MS   how far a clock may fall below zero before the flag counts (default 100)
#   --candidate-key K=V, --baseline-key K=V, --each-key K=V   extra `--engine` keys (repeatable),
#                     e.g. option.Hash=64 or depth=N
#   --referee BIN     the `fairybridge match` that plays the games (default: the working tree's
#                     build, target/release/fairybridge, built if needed)
#   --dir DIR         results (default target/gate/CAND-vs-BASE-VARIANT-TC-E0,E1-GAMES)
#
# The results directory holds copies of both engines (so a rebuild cannot change a player), the
# PGN (games.pgn, with each move's thinking time), the match's --resume state file (state), the
# runner's report (report.txt) and the summary (summary.txt). Run the same command again after a
# stop, a crash or Ctrl-C and it continues where it was: nothing is played twice.
#
# It prints the verdict, the Elo difference with its 95% interval, the games (W/D/L and the pairs'
# pentanomial counts), each side's forfeits, the mean thinking time a move of each side (from the
# PGN's comments), and the command. Exit code: 0 when H1 is accepted (PASS: a gain with --gain, no regression with
# --nonreg), 1 when H0 is accepted (FAIL), 3 when the game cap came first (no verdict), 2 on bad
# arguments or a failed build or match.
#
# Run it where nothing else competes for the cores (one game at a time per free core).
set -euo pipefail

# All in one function: bash reads it whole before running it, so that editing or rebasing this file
# during a long gate cannot change the running one.
main() {
  usage() {
    awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2
    exit 2
  }
  die() {
    printf 'gate: %s\n' "$*" >&2
    exit 2
  }
  log() { printf 'gate: %s\n' "$*" >&2; }

  root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
  # The command as typed, each word quoted only where the shell needs it.
  quote() {
    if [[ $1 =~ ^[A-Za-z0-9_./=+:,@%-]+$ ]]; then printf '%s' "$1"; else printf '%q' "$1"; fi
  }
  invocation="scripts/gate.sh"
  for word in "$@"; do invocation+=" $(quote "$word")"; done

  elo0=0 elo1=5 alpha=0.05 beta=0.05 tc=5+0.05 variant=normal openings="" games=20000
  concurrency=1 seed=1 timemargin=100 referee="" dir=""
  cand_keys=() base_keys=() each_keys=() positional=() variant_files=()
  need() { [ $# -ge 2 ] || die "$1 needs a value"; }
  while [ $# -gt 0 ]; do
    case $1 in
      --gain) elo0=0 elo1=5 ;;
      --nonreg) elo0=-5 elo1=0 ;;
      --bounds) need "$@"; IFS=, read -r elo0 elo1 <<<"$2"; shift ;;
      --alpha) need "$@"; alpha=$2; shift ;;
      --beta) need "$@"; beta=$2; shift ;;
      --tc) need "$@"; tc=$2; shift ;;
      --variant) need "$@"; variant=$2; shift ;;
      --openings) need "$@"; openings=$2; shift ;;
      --variants) need "$@"; variant_files+=("$(realpath "$2")"); each_keys+=(arg=--variants "arg=$(realpath "$2")"); shift ;;
      --games) need "$@"; games=$2; shift ;;
      --concurrency) need "$@"; concurrency=$2; shift ;;
      --seed) need "$@"; seed=$2; shift ;;
      --timemargin) need "$@"; timemargin=$2; shift ;;
      --candidate-key) need "$@"; cand_keys+=("$2"); shift ;;
      --baseline-key) need "$@"; base_keys+=("$2"); shift ;;
      --each-key) need "$@"; each_keys+=("$2"); shift ;;
      --referee) need "$@"; referee=$2; shift ;;
      --dir) need "$@"; dir=$2; shift ;;
      -h | --help) usage ;;
      --) shift; positional+=("$@"); break ;;
      -*) die "unknown option $1 (see --help)" ;;
      *) positional+=("$1") ;;
    esac
    shift
  done
  [ ${#positional[@]} -eq 2 ] || usage
  candidate=${positional[0]}
  baseline=${positional[1]}
  number='^-?[0-9]+([.][0-9]+)?$'
  [[ $elo0 =~ $number && $elo1 =~ $number ]] || die "bounds must be two numbers E0,E1, got \"$elo0,$elo1\""
  awk -v a="$elo0" -v b="$elo1" 'BEGIN { exit !(a < b) }' || die "bounds need E0 < E1, got $elo0,$elo1"
  [[ $games =~ ^[0-9]+$ ]] && [ "$games" -ge 2 ] || die "--games must be a number of at least 2, got $games"
  games=$(( (games + 1) / 2 * 2 ))
  [[ $concurrency =~ ^[0-9]+$ ]] && [ "$concurrency" -ge 1 ] || die "--concurrency must be at least 1"
  [ -n "$openings" ] || openings=$root/fixtures/openings/$variant.epd
  [ -f "$openings" ] || die "no opening suite $openings (make one with \`fairybridge openings --variant $variant\`)"
  openings=$(realpath "$openings")

  cd "$root"

  # What a revision or binary is called in names and paths.
  checksum() { sha256sum "$1" | cut -c1-10; }

  # Builds revision $1 (or takes the binary $1); prints the path of the binary.
  build() {
    local what=$1
    if [ "$what" = "." ]; then
      log "building the working tree"
      nice -n 19 cargo build --release --quiet >&2 || die "the working tree does not build"
      echo "$root/target/release/fairybridge"
    elif [ -f "$what" ] && [ -x "$what" ]; then
      realpath "$what"
    else
      local sha
      sha=$(git rev-parse --verify --quiet "$what^{commit}") || die "$what is neither a git revision nor an executable file"
      local tree=$root/target/gate/build/$sha
      if [ ! -d "$tree" ]; then
        log "checking out $what ($sha) into $tree"
        git worktree add --detach --quiet "$tree" "$sha" >&2
      fi
      log "building $what in $tree"
      (cd "$tree" && nice -n 19 cargo build --release --quiet) >&2 || die "revision $what does not build"
      echo "$tree/target/release/fairybridge"
    fi
  }

  # The label of revision or binary $1: a short sha, or the binary's name and checksum.
  label() {
    local what=$1
    if [ "$what" = "." ]; then
      echo "worktree"
    elif [ -f "$what" ] && [ -x "$what" ]; then
      echo "$(basename "$what")@$(checksum "$what")"
    else
      git rev-parse --short "$what^{commit}" 2>/dev/null || die "$what is neither a git revision nor an executable file"
    fi
  }

  cand_label=$(label "$candidate")
  base_label=$(label "$baseline")
  if [ "$candidate" = "." ]; then
    cand_bin=$(build .)
    cand_label="worktree@$(checksum "$cand_bin")"
  fi
  if [ "$baseline" = "." ]; then
    base_bin=$(build .)
    base_label="worktree@$(checksum "$base_bin")"
  fi
  [ -n "$dir" ] || dir=$root/target/gate/$(printf %s "$cand_label-vs-$base_label-$variant-$tc-$elo0,$elo1-$games" | tr / _)
  mkdir -p "$dir"
  dir=$(realpath "$dir")

  # The players: copies in the results directory, made once (a rerun plays the same binaries).
  player() {
    local what=$1 copy=$2 built=${3:-}
    if [ ! -x "$copy" ]; then
      [ -n "$built" ] || built=$(build "$what")
      cp "$built" "$copy.tmp" && mv "$copy.tmp" "$copy"
    fi
  }
  player "$candidate" "$dir/candidate" "${cand_bin:-}"
  player "$baseline" "$dir/baseline" "${base_bin:-}"
  if [ -z "$referee" ]; then
    if [ ! -x "$dir/referee" ]; then
      log "building the referee (the working tree's fairybridge match)"
      nice -n 19 cargo build --release --quiet >&2 || die "the working tree does not build (the referee)"
      cp target/release/fairybridge "$dir/referee.tmp" && mv "$dir/referee.tmp" "$dir/referee"
    fi
    referee=$dir/referee
  fi
  [ -x "$referee" ] || die "the referee $referee is not an executable file"

  cand_name="candidate-$cand_label"
  base_name="baseline-$base_label"
  [ "$cand_name" != "$base_name" ] || base_name="$base_name-2"
  printf '%s\n' "$invocation" >"$dir/command"

  engine_args() {
    local name=$1 bin=$2
    shift 2
    printf '%s\n' --engine "cmd=$bin" "name=$name" "$@"
  }
  mapfile -t cand_engine < <(engine_args "$cand_name" "$dir/candidate" "${cand_keys[@]}")
  mapfile -t base_engine < <(engine_args "$base_name" "$dir/baseline" "${base_keys[@]}")
  referee_args=()
  for f in "${variant_files[@]}"; do referee_args+=(--variants "$f"); done
  match=("$referee" "${referee_args[@]}" match "${cand_engine[@]}" "${base_engine[@]}"
    --each "tc=$tc" "${each_keys[@]}" --variant "$variant" --games "$games" --concurrency "$concurrency"
    --openings "$openings" order=sequential --seed "$seed" --timemargin "$timemargin"
    --pgn "$dir/games.pgn" --resume "$dir/state"
    --sprt "elo0=$elo0" "elo1=$elo1" "alpha=$alpha" "beta=$beta" model=pentanomial)

  log "$cand_name vs $base_name: $variant, tc $tc, SPRT [$elo0, $elo1], at most $games games, results in $dir"
  set +e
  "${match[@]}" >"$dir/report.txt"
  status=$?
  set -e
  [ $status -eq 0 ] || { cat "$dir/report.txt"; die "the match failed (exit status $status); see $dir"; }

  report=$dir/report.txt
  score=$(grep -m1 '^Score of' "$report" | sed 's/^Score of [^:]*: //')
  elo_line=$(grep -m1 '^Elo difference' "$report" | sed 's/,.*//; s/^Elo difference: //')
  interval=$(grep -m1 '^Elo 95% interval' "$report" | sed 's/^Elo 95% interval: //')
  ptnml=$(grep -m1 '^Ptnml' "$report" | sed 's/^Ptnml(0-2): //')
  llr=$(grep -m1 '^SPRT (pentanomial' "$report" | sed 's/.*: llr /llr /; s/ - .*//')
  # W - L - D [score] N, from the candidate's side.
  read -r wins losses draws played < <(echo "$score" | awk '{ print $1, $3, $5, $7 }')
  # Games each engine lost by forfeit (illegal move, crash, time, false claim): the rank table's last
  # column.
  forfeits() { awk -v n="$1" '$1 ~ /^[0-9]+$/ && $2 == n { print $NF }' "$report"; }
  cand_forfeits=$(forfeits "$cand_name")
  base_forfeits=$(forfeits "$base_name")
  if grep -q 'H1 accepted' "$report"; then
    verdict="PASS: H1 accepted (elo >= $elo1 rather than <= $elo0)"
    code=0
  elif grep -q 'H0 accepted' "$report"; then
    verdict="FAIL: H0 accepted (elo <= $elo0 rather than >= $elo1)"
    code=1
  else
    verdict="no verdict: the cap of $games games came first"
    code=3
  fi

  # Mean thinking time a move of each engine, from the PGN's move comments (`+0.25/12 0.81s`): the
  # moves of a game alternate sides from its FEN's side to move (a Wild Rose turn of several moves
  # counts its sub-moves alternately too).
  times=$(python3 - "$dir/games.pgn" "$cand_name" "$base_name" <<'EOF'
import re, sys
path, names = sys.argv[1], sys.argv[2:]
total = {n: 0.0 for n in names}
count = {n: 0 for n in names}
text = open(path, encoding="utf-8").read()
for game in re.split(r"\n\n(?=\[)", text):
    tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]', game, re.M))
    body = re.sub(r"^\[.*\]$", "", game, flags=re.M)
    side = 1 if tags.get("FEN", "").split(" ")[1:2] == ["b"] else 0
    players = [tags.get("White"), tags.get("Black")]
    for m in re.finditer(r"\{([^}]*)\}", body):
        t = re.search(r"(\d+(?:\.\d+)?)s$", m.group(1).strip())
        if not t:
            continue
        who = players[side]
        if who in total:
            total[who] += float(t.group(1))
            count[who] += 1
        side = 1 - side
for n in names:
    mean = f"{total[n] / count[n]:.3f} s" if count[n] else "-"
    print(f"{n} {mean} ({count[n]} moves)")
EOF
  ) || times="(the PGN could not be read for times)"

  summary=$(cat <<EOF
gate: $cand_name vs $base_name, $variant, tc $tc, SPRT [$elo0, $elo1] pentanomial alpha $alpha beta $beta
verdict: $verdict
elo: $elo_line, 95% interval $interval ($llr)
games: $played of at most $games: W $wins D $draws L $losses (candidate's side), pentanomial $ptnml
forfeits: $cand_name ${cand_forfeits:-?}, $base_name ${base_forfeits:-?}
mean thinking time a move:
$(printf '%s\n' "$times" | sed 's/^/  /')
command: $invocation
results: $dir
EOF
  )
  printf '%s\n' "$summary" | tee "$dir/summary.txt"
  exit $code
}

main "$@"
