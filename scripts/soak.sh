#!/usr/bin/env bash
# Soak (issue 15 item 3): many fast refereed games, then games under real XBoard, and a count of
# what went wrong, by whom.
#
# Usage: scripts/soak.sh [--short | --refereed-only | --xboard-only] [--out DIR] [ENGINE_PATH]
#   ENGINE_PATH  default target/release/fairybridge (cargo build --release)
#   --short      the CI soak: 26 refereed games (about a minute), no XBoard games (those take
#                half an hour: the full soak only)
#   --refereed-only, --xboard-only  one of the full soak's two phases (about 35 min each)
#   --out DIR    where the PGNs and logs go (default target/soak)
# Env: SOAK_CONCURRENCY (games at once in the match runner, default 2),
#      SOAK_XBOARD_TC (XBoard's sudden-death clock, default 1:00).
#
# Full soak (at least 2,000 refereed games, `fairybridge match` as the referee):
#   - self-play at 1 s + 0.01 s in each of the five games (240 games each);
#   - at 1 s + 0.01 s against Fairy-Max in normal (300; Fairy-Max does not play wildcastle: its
#     `feature variants` lacks it) and against Sjaak II in normal and wildcastle (250 each);
#   - then 20 self-play games per game under real XBoard 4.9.1 (headless, Xvfb), sudden death
#     1 min, pondering on, the five games' XBoards at once: ten pondering engines and five GUIs on
#     the machine, a GUI on a loaded machine.
# The two phases run one after the other: at 1 s + 0.01 s a move may cost 10 ms, which no process
# gets when ten pondering engines share the cores (stop 12 ran them side by side, at load 20-25,
# and its self-play flags were processes not scheduled, docs/reliability.md). The load average is
# sampled every 10 s and reported per phase.
# The report counts, from the PGNs (the runner's Termination reasons, XBoard's result comments)
# and XBoard's debug logs: illegal moves (and other rules infractions), time forfeits, crashes and
# hangs, each split into our engine's and the peer's, and runs that did not finish.
# Exit status: 0 if our engine had none of these, 1 if it had any (or a run did not finish),
# 2 on a usage or setup problem. A peer's failures are reported but do not fail the soak.
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHORT=0
XBOARD_ONLY=0
REFEREED_ONLY=0
OUT="$ROOT/target/soak"
ENGINE=""
while [ $# -gt 0 ]; do
    case "$1" in
        --short) SHORT=1; shift ;;
        --xboard-only) XBOARD_ONLY=1; shift ;;
        --refereed-only) REFEREED_ONLY=1; shift ;;
        --out) OUT="${2:?--out needs a DIR}"; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) ENGINE="$1"; shift ;;
    esac
done
# ENGINE made absolute, XBOARD, FAIRYMAX (the filter), FAIRYMAX_BIN.
. "$ROOT/scripts/e2e/peers.sh"
CONCURRENCY=${SOAK_CONCURRENCY:-2}
SJAAK=$(command -v sjaakii || echo /usr/games/sjaakii)

# XBoard charges 75-165 ms a move for itself on a quiet machine (it reads our move only after
# animating the last one) and 120-300 ms on a loaded one (docs/reliability.md): over a 150-move
# game (XBoard adjudicates a draw there) that is 20-45 s whatever the engine thinks, so a
# sudden-death clock under 1 min cannot hold a long game at that load. The XBoard games get 1 min.
if [ "$SHORT" = 1 ]; then
    SELF_GAMES=4; FM_GAMES=2; SJ_GAMES=2; XB_GAMES=1
else
    SELF_GAMES=240; FM_GAMES=300; SJ_GAMES=250; XB_GAMES=20
fi
XB_TC=${SOAK_XBOARD_TC:-1:00}
GAMES="normal wildcastle pillage wildrose wreckage"

missing=0
for t in "$ENGINE" "$FAIRYMAX_BIN" "$SJAAK" "$XBOARD"; do
    [ -x "$t" ] || { echo "soak: not executable: $t (scripts/install-deps.sh installs the peers)" >&2; missing=1; }
done
for t in Xvfb python3 timeout; do
    command -v "$t" >/dev/null || { echo "soak: missing tool $t (scripts/install-deps.sh)" >&2; missing=1; }
done
[ "$missing" = 0 ] || exit 2

rm -rf "$OUT"
mkdir -p "$OUT/match" "$OUT/xboard"
t0=$SECONDS
echo "soak: engine $ENGINE, output $OUT ($([ "$SHORT" = 1 ] && echo short || echo full))"

# ---- refereed games: fairybridge match --------------------------------------------------------
# match NAME VARIANT GAMES ENGINE-ARGS...: one match; a runner that does not finish in time (a
# hang the runner itself did not catch) is killed and reported.
match() {
    local name=$1 variant=$2 games=$3
    shift 3
    local limit=$((games * 20 + 120)) s=$SECONDS
    timeout -k 10 "$limit" "$ENGINE" match "$@" --each tc=1+0.01 --variant "$variant" --games "$games" \
        --concurrency "$CONCURRENCY" --maxmoves 200 --pgn "$OUT/match/$name.pgn" \
        >"$OUT/match/$name.out" 2>"$OUT/match/$name.err"
    local rc=$?
    echo "$name $variant $games $rc" >>"$OUT/match/runs.txt"
    printf '  %-22s %4d games  exit %d  %4ds\n' "$name" "$games" "$rc" $((SECONDS - s))
}

refereed() {
echo "== refereed games at 1 s + 0.01 s (fairybridge match, concurrency $CONCURRENCY)"
for g in $GAMES; do
    # From the game's opening suite: from the start alone, self-play repeats a few games (Wild
    # Rose's is decided at ply 2: 1. Nxe7, and every reply leaves a rose attacked).
    match "self-$g" "$g" "$SELF_GAMES" --openings "$ROOT/fixtures/openings/$g.epd" \
        --engine cmd="$ENGINE" name=fairybridge-1 --engine cmd="$ENGINE" name=fairybridge-2
done
match fairymax-normal normal "$FM_GAMES" --engine cmd="$ENGINE" name=fairybridge --engine cmd="$FAIRYMAX" name=fairymax
for g in normal wildcastle; do
    match "sjaakii-$g" "$g" "$SJ_GAMES" --engine cmd="$ENGINE" name=fairybridge --engine cmd="$SJAAK" name=sjaakii
done
}

# ---- real XBoard: self-play, sudden death, pondering on -----------------------------------------
XVFB_PID=""
cleanup() { [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null; }
trap cleanup EXIT
dfile="$OUT/xboard/.display"
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$dfile" >/dev/null 2>&1 &
XVFB_PID=$!
for _ in $(seq 1 100); do [ -s "$dfile" ] && break; sleep 0.1; done
DISPLAY_NUM=$(tr -dc '0-9' <"$dfile" 2>/dev/null)
[ -n "$DISPLAY_NUM" ] || { echo "soak: Xvfb did not start" >&2; exit 2; }

# xboard_games GAME: one XBoard playing XB_GAMES self-play games of GAME.
xboard_games() {
    local g=$1 dir="$OUT/xboard/$1" s=$SECONDS legality=true rc
    mkdir -p "$dir/first" "$dir/second" "$dir/home"
    # XBoard cannot judge Pillage's super-pawn promotions, Wreckage's hook captures or Wild Rose's
    # turns (README): legality testing off there; our engine still answers an illegal move.
    [ "$g" = normal ] || [ "$g" = wildcastle ] || legality=false
    HOME="$dir/home" DISPLAY=":$DISPLAY_NUM" timeout -k 10 $((XB_GAMES * 200 + 60)) "$XBOARD" \
        -matchMode true -matchGames "$XB_GAMES" -variant "$g" -tc "$XB_TC" -inc 0 -ponderNextMove true \
        -fcp "$ENGINE" -fd "$dir/first" -scp "$ENGINE" -sd "$dir/second" \
        -popupExitMessage false -saveSettingsOnExit false -autoCallFlag true \
        -testLegality "$legality" -testClaims "$legality" -matchPause 500 -adjudicateDrawMoves 150 \
        -size medium -soundProgram /bin/true -debugMode true -nameOfDebugFile "$dir/xboard.debug" \
        -saveGameFile "$dir/xboard.pgn" >"$dir/xboard.stdout" 2>&1
    rc=$?
    echo "$g $XB_GAMES $rc" >>"$OUT/xboard/runs.txt"
    printf '  %-22s %4d games  exit %d  %4ds\n' "xboard-$g" "$XB_GAMES" "$rc" $((SECONDS - s))
}

under_xboard() {
    echo "== real XBoard, self-play, sudden death $XB_TC, pondering on, the five games at once"
    local pids=()
    for g in $GAMES; do
        xboard_games "$g" &
        pids+=($!)
    done
    wait "${pids[@]}"
}

# sample_load PHASE: the 1-minute load average every 10 s, until killed.
sample_load() {
    while :; do
        echo "$1 $(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/load.txt"
        sleep 10
    done
}
: >"$OUT/load.txt"
phase() {
    local name=$1
    shift
    sample_load "$name" &
    local sampler=$!
    "$@"
    kill "$sampler" 2>/dev/null
    wait "$sampler" 2>/dev/null
}

if [ "$XBOARD_ONLY" = 1 ]; then
    : >"$OUT/match/runs.txt"
else
    phase refereed refereed
fi
if [ "$SHORT" = 1 ] || [ "$REFEREED_ONLY" = 1 ]; then
    : >"$OUT/xboard/runs.txt"
else
    phase xboard under_xboard
fi

# ---- the report -----------------------------------------------------------------------------
python3 - "$OUT" <<'EOF'
import glob, os, re, sys

out = sys.argv[1]
OURS = re.compile(r"^fairybridge")
kinds = ["illegal", "time", "crash", "hang"]
count = {(who, k): 0 for who in ("ours", "peer") for k in kinds}
examples = []
games = {"match": 0, "xboard": 0}
unfinished = []


def pgn_games(path):
    text = open(path, encoding="utf-8", errors="replace").read() if os.path.exists(path) else ""
    for chunk in re.split(r"\n(?=\[Event )", text):
        if not chunk.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', chunk, re.M))
        comments = re.findall(r"\{([^}]*)\}", chunk)
        yield tags, (comments[-1] if comments else "")


def add(who, kind, where, text):
    count[(who, kind)] += 1
    # Every fault of ours is listed; of the peers' (often dozens of flags), the first ten.
    if who == "ours" or sum(e.startswith("peer") for _, e in examples) < 10:
        examples.append((where, f"{who} {kind}: {text}"))


# The match runner: one PGN per run; its Termination and last comment name the forfeit.
for line in open(os.path.join(out, "match", "runs.txt")):
    name, variant, n, rc = line.split()
    played = 0
    for tags, last in pgn_games(os.path.join(out, "match", name + ".pgn")):
        played += 1
        term = tags.get("Termination", "")
        if term in ("normal", "adjudication"):
            continue
        loser_colour = "White" if last.startswith("White") else "Black" if last.startswith("Black") else None
        loser = tags.get(loser_colour, "") if loser_colour else ""
        who = "ours" if OURS.match(loser) else "peer"
        if term == "time forfeit":
            add(who, "hang" if "stalled" in last else "time", name, last)
        elif term == "rules infraction":
            add(who, "illegal", name, last)
        else:  # abandoned: a crash, a failed start, an aborted game
            add(who, "crash", name, last)
    games["match"] += played
    if rc != "0" or played != int(n):
        unfinished.append(f"{name}: exit {rc}, {played} of {n} games")

# XBoard: our engine plays both sides. Its results, and its debug log, tell what went wrong.
BAD = {
    "time": re.compile(r"wins on time|loses on time|flag fell|flags fell", re.I),
    "illegal": re.compile(r"illegal move|false (win |draw )?claim|invalid", re.I),
    "crash": re.compile(r"exited unexpectedly|error writing to|error reading from|failed to start", re.I),
}
for line in open(os.path.join(out, "xboard", "runs.txt")):
    g, n, rc = line.split()
    d = os.path.join(out, "xboard", g)
    played = 0
    for tags, last in pgn_games(os.path.join(d, "xboard.pgn")):
        played += 1
        # XBoard's own verdicts: a flag, a forfeit for a move it refused, a dead engine.
        for kind in ("time", "illegal", "crash"):
            if BAD[kind].search(last):
                add("ours", kind, f"xboard-{g}", last)
    games["xboard"] += played
    debug = os.path.join(d, "xboard.debug")
    text = open(debug, encoding="utf-8", errors="replace").read() if os.path.exists(debug) else ""
    # The engines' own lines: "<first : Illegal move: ..." (an engine refusing the other's move).
    for m in re.finditer(r"^\d+ <(first|second) ?: (Illegal move.*|Error.*|tellusererror.*)$", text, re.M):
        add("ours", "illegal", f"xboard-{g}", m.group(2))
    for kind in ("crash",):
        for m in BAD[kind].finditer(text):
            add("ours", kind, f"xboard-{g}", text[max(0, m.start() - 60):m.end()].splitlines()[-1])
    if rc in ("124", "137"):
        add("ours", "hang", f"xboard-{g}", f"XBoard killed after its time limit ({played} of {n} games)")
    if played != int(n):
        unfinished.append(f"xboard-{g}: exit {rc}, {played} of {n} games")

total = games["match"] + games["xboard"]
print(f"\nsoak: {total} games ({games['match']} refereed by fairybridge match, {games['xboard']} under XBoard)")
for who in ("ours", "peer"):
    label = "our engine" if who == "ours" else "the peers"
    print(f"  {label:10}: " + ", ".join(f"{count[(who, k)]} {k if k != 'time' else 'time forfeits'}"
                                     .replace("illegal", "illegal moves").replace("crash", "crashes")
                                     .replace("hang", "hangs") for k in kinds))
loads = {}
for line in open(os.path.join(out, "load.txt")):
    phase, value = line.split()
    loads.setdefault(phase, []).append(float(value))
for phase, values in loads.items():
    print(f"  load average during the {phase} games: mean {sum(values) / len(values):.1f}, "
          f"max {max(values):.1f} ({len(values)} samples, {os.cpu_count()} cores)")
for where, e in sorted(examples, key=lambda x: not x[1].startswith("ours")):
    print(f"    {where}: {e}")
for u in unfinished:
    print("  did not finish:", u)
bad = sum(count[("ours", k)] for k in kinds) + len(unfinished)
sys.exit(1 if bad else 0)
EOF
rc=$?
echo "soak: $((SECONDS - t0)) s, $( [ $rc = 0 ] && echo PASS || echo FAIL )"
exit $rc
