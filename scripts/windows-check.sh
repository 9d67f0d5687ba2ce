#!/usr/bin/env bash
# The engine as WinBoard runs it on Windows: fairybridge.exe, cross-built from Linux for
# x86_64-pc-windows-gnu with mingw-w64, checked under Wine.
#
#   scripts/windows-check.sh [--build-only] [--games N] [--tc TC] [--report FILE]
#
# 1. builds fairybridge.exe and the native engine; checks the exe is a 64-bit console program (PE32+,
#    Windows CUI: WinBoard starts it with pipes and no console window) that imports only DLLs every
#    Windows 10 has (no mingw runtime DLL to ship beside it), and that its version resource (what
#    Windows shows in the file's properties) names the native build's version;
# 2. under Wine: `--version` names the same version and commit as the native build; the CECP and UCI
#    doors read CRLF lines and flush each answer (scripts/windows/wire-check.py waits for every
#    answer before the next command), and `feature myname` and UCI `id name` are the --version
#    line; the definition folder `variants\` beside the exe is loaded without a path; `--variants`
#    takes a Windows path with backslashes and spaces;
# 2b. as WinBoard starts an engine (scripts/windows/winboard-start.c, after WinBoard's
#    StartChildProcess): one command line string to CreateProcess, split by the exe itself; the
#    current directory the /fd folder; no console (DETACHED_PROCESS); stderr the same pipe as
#    stdout. A bare `fairybridge.exe` in its /fd folder with the Load Engine dialog's parameters
#    (`--variants "…\My Variants\spaced knightmate.toml"`), the exe's full quoted path from
#    another folder (variants\ still found beside the exe), and the wire checks through it;
# 3. our match runner (native) plays the Windows engine under Wine against the native engine, N
#    games (default 4, colours alternating) in each of the six built-in games at TC (default
#    2+0.02): every game must end by the rules or adjudication (no forfeit: an illegal move, a
#    time loss, a crash; the runner referees every move). The Windows engine's flag falls 250 ms
#    past its clock (WINE_MARGIN_MS), not the runner's 50 ms: Wine, not the engine, now and then
#    delays a line by 50-150 ms. scripts/windows/wire-lag.py reads the wire transcripts and the
#    summary says what each engine was charged beyond its search and how low its clock fell;
# 4. python-chess drives the Windows engine over CECP (scripts/pychess-check.py --quick) and UCI
#    (scripts/pychess-uci-check.py);
# 5. the 32-bit Zillions DLL check, scripts/windows-dll-check.sh, and the DLL's version resource.
#
# Installs what it lacks and says so: the rustup target, mingw-w64, wine/wine64, python-chess (and,
# through windows-dll-check.sh, the i686 target and wine32). The games are timed: run the script
# where no other match shares the cores. Exit 0 when every check held; the summary (also in
# --report FILE, for docs/) lists each. Logs, PGNs and wire transcripts stay in
# target/windows-check/. Uses CARGO_TARGET_DIR if set.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=x86_64-pc-windows-gnu
target_dir=${CARGO_TARGET_DIR:-$root/target}
exe=$target_dir/$target/release/fairybridge.exe
native=$target_dir/release/fairybridge
out=$target_dir/windows-check
games=4
tc=2+0.02
report=
build_only=0
while [ $# -gt 0 ]; do
    case $1 in
    --build-only) build_only=1 ;;
    --games) games=$2; shift ;;
    --tc) tc=$2; shift ;;
    --report) report=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    *) echo "usage: $0 [--build-only] [--games N] [--tc TC] [--report FILE]" >&2; exit 2 ;;
    esac
    shift
done

rm -rf "$out"
mkdir -p "$out"
work=$out
started=$(date +%s)
summary=$out/summary.txt
: >"$summary"
say() { printf 'windows-check: %s\n' "$*"; }
fail() {
    printf 'windows-check: FAILED: %s\n' "$*" | tee -a "$summary" >&2
    exit 1
}
verified() {
    printf '%s\n' "- $*" >>"$summary"
    say "verified: $*"
}
# apt_install, rust_target, mingw, wine_has_prng, prng_standin.
source "$root/scripts/windows/common.sh"

# --- tools ---
rust_target "$target"
mingw x86_64-w64-mingw32
if ! command -v wine >/dev/null || ! { command -v wine64 >/dev/null || [ -x /usr/lib/wine/wine64 ]; }; then
    apt_install wine wine64
fi

# --- build ---
say "building the native engine and $target (cargo build --release --bin fairybridge)"
(cd "$root" && cargo build --release --bin fairybridge -q)
(cd "$root" && cargo build --release --bin fairybridge --target "$target" -q)
[ -f "$exe" ] || fail "no $exe after the build"
x86_64-w64-mingw32-objdump -f "$exe" | grep -q 'file format pei-x86-64' || fail "$exe is not a 64-bit PE"
x86_64-w64-mingw32-objdump -p "$exe" >"$out/exe-headers.txt"
grep -qE 'Subsystem\s+0+3\s+\(Windows CUI\)' "$out/exe-headers.txt" || fail "$exe is not a console program: $(grep Subsystem "$out/exe-headers.txt")"
imports=$(sed -n 's/^\s*DLL Name: //p' "$out/exe-headers.txt" | tr 'A-Z' 'a-z' | sort -u)
# Windows 10's own DLLs (api-ms-win-* are its API sets); anything else would have to ship beside the exe.
system_dll='^(kernel32|ntdll|advapi32|bcrypt|bcryptprimitives|userenv|ws2_32|msvcrt|ucrtbase|shell32|user32|secur32|crypt32|oleaut32|ole32|synchronization|api-ms-win-[a-z0-9-]+)\.dll$'
others=$(grep -vE "$system_dll" <<<"$imports" || true)
[ -z "$others" ] || fail "$exe needs DLLs Windows does not have: $others"
verified "fairybridge.exe is a 64-bit Windows console program (PE32+, Windows CUI), $(stat -c %s "$exe") bytes; imports only Windows DLLs: $(tr '\n' ' ' <<<"$imports")"
native_name=$("$native" --version | head -1)
native_commit=$("$native" --version | sed -n 's/^commit //p')
# FILE KIND PREFIX: FILE's VERSIONINFO (build.rs, windres) must name the native build's version and commit.
version_resource() {
    local rc version
    rc=$("$3-windres" -i "$1" -O rc 2>&1) || fail "$1: no resources: $rc"
    version=${native_name#fairybridge }
    for want in "VALUE \"FileVersion\", \"$version\"" "VALUE \"ProductVersion\", \"$version\"" \
        "VALUE \"Comments\", \"commit $native_commit\""; do
        grep -qF "$want" <<<"$rc" || fail "$1's version resource lacks $want: $rc"
    done
    verified "$2's version resource (file properties, Details): FileVersion and ProductVersion $version, Comments commit $native_commit, FileDescription $(sed -n 's/.*VALUE "FileDescription", //p' <<<"$rc")"
}
version_resource "$exe" fairybridge.exe x86_64-w64-mingw32
[ "$build_only" -eq 1 ] && { cat "$summary"; exit 0; }

# --- Wine ---
# The engine's folder has a space in its name, as C:\Program Files\… has.
bin="$out/My Engines/fairybridge"
mkdir -p "$bin/variants"
cp "$exe" "$bin/fairybridge.exe"
if ! wine_has_prng x86_64; then
    prng_standin x86_64-w64-mingw32 "$bin"
    verified "Wine has no bcryptprimitives.dll: a stand-in ProcessPrng (over RtlGenRandom) sits beside the exe for these runs (never shipped)"
fi
# A prefix of its own, kept between runs (its first start takes about 30 s), and one wineserver for
# the whole run, so that each engine start does not start (and a killed game does not stop) it.
export WINEPREFIX="$target_dir/windows-check-wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
mkdir -p "$WINEPREFIX"
# (Exit code 2: a server for this prefix runs already, e.g. left by an earlier run; it serves.)
wineserver -p 2>/dev/null || say "a wineserver for $WINEPREFIX was running already: used as it is"
trap 'wineserver -k 2>/dev/null || true' EXIT
wine cmd /c exit >/dev/null 2>&1 || true
# The engine as a program of its own, for the match runner and python-chess.
wrapper=$out/fairybridge-wine
printf '#!/bin/sh\nexec wine "%s" "$@"\n' "$bin/fairybridge.exe" >"$wrapper"
chmod +x "$wrapper"
say "$(wine --version); engine: $wrapper"

wine_version=$("$wrapper" --version | tr -d '\r')
[ "$(head -1 <<<"$wine_version")" = "$native_name" ] || fail "versions differ: native $native_name, Windows $(head -1 <<<"$wine_version")"
grep -qx "target $target" <<<"$wine_version" || fail "the exe's --version names no target $target: $wine_version"
verified "under Wine, fairybridge.exe --version: $(tr '\n' ' ' <<<"$wine_version")(the native build: $native_name)"

python3 "$root/scripts/windows/wire-check.py" --name "$native_name" "$wrapper" | tee "$out/wire-check.txt"
grep -q FAILED "$out/wire-check.txt" && fail "CRLF input or per-line output (scripts/windows/wire-check.py)"
verified "CRLF lines read and every answer flushed on its own; feature myname and id name are the --version line: $(tr -s ' \n' ' ' <"$out/wire-check.txt")"

# The definition folder beside the exe, found without a path; --variants with a Windows path with
# backslashes and spaces (a file inheriting from one of the folder's games).
cp "$root"/fixtures/variants/examples/*.toml "$bin/variants/"
spaced="$out/My Variants"
mkdir -p "$spaced"
printf 'name = "spaced-knightmate"\ninherit = "knightmate"\ndescription = "knightmate, from a folder with a space"\n[xboard]\nbuiltin = false\n' \
    >"$spaced/spaced knightmate.toml"
windows_path="Z:$(tr / '\\' <<<"$spaced/spaced knightmate.toml")"
"$wrapper" --variants "$windows_path" variants >"$out/variants.txt" 2>"$out/variants.err" ||
    { cat "$out/variants.err" >&2; fail "fairybridge.exe --variants \"$windows_path\" variants"; }
for name in normal wildcastle pillage wreckage wildrose crazyhouse; do
    grep -q "^$name " "$out/variants.txt" || fail "$name is not among the exe's games: $(cat "$out/variants.txt")"
done
for f in "$bin"/variants/*.toml; do
    name=$(sed -n 's/^name *= *"\(.*\)"/\1/p' "$f" | head -1)
    grep -q "^$name " "$out/variants.txt" || fail "$name ($f, in variants\\ beside the exe) was not loaded: $(cat "$out/variants.err")"
done
grep -q "^spaced-knightmate " "$out/variants.txt" || fail "--variants \"$windows_path\" was not loaded: $(cat "$out/variants.err")"
verified "variants\\ beside the exe loaded without a path ($(ls "$bin/variants" | tr '\n' ' ')); --variants \"$windows_path\" loaded"

# --- as WinBoard starts it ---
# winboard-start.exe sits in a folder of its own (CreateProcess looks for a bare name in the
# starting program's folder before the current directory: it must not find the engine there).
winboard=$out/WinBoard
mkdir -p "$winboard"
x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -Werror -o "$winboard/winboard-start.exe" "$root/scripts/windows/winboard-start.c" ||
    fail "could not build scripts/windows/winboard-start.c"
windows() { printf 'Z:%s' "$(tr / '\\' <<<"$1")"; }
bin_windows=$(windows "$bin")
# DIR COMMAND: what /fd=DIR /fcp={COMMAND} starts, listing its games (`variants`).
as_winboard() {
    FB_COMMAND="$2 variants" wine "$winboard/winboard-start.exe" "$1" </dev/null | tr -d '\r'
}
# /fcp=fairybridge.exe /fd=<its folder>, and the Load Engine dialog's "command-line parameters:".
command="fairybridge.exe --variants \"$windows_path\""
as_winboard "$bin_windows" "$command" >"$out/winboard-start-1.txt" 2>&1 ||
    { cat "$out/winboard-start-1.txt" >&2; fail "as WinBoard: /fd=$bin_windows /fcp={$command}"; }
for name in spaced-knightmate knightmate minicannon wreckage; do
    grep -q "^$name " "$out/winboard-start-1.txt" || fail "as WinBoard, /fcp={$command}: no $name in $(cat "$out/winboard-start-1.txt")"
done
# The full quoted path from another folder (WinBoard's own): variants\ is still the exe's.
command="\"$bin_windows\\fairybridge.exe\""
as_winboard "$(windows "$winboard")" "$command" >"$out/winboard-start-2.txt" 2>&1 ||
    { cat "$out/winboard-start-2.txt" >&2; fail "as WinBoard: /fcp={$command} from WinBoard's folder"; }
grep -q "^minishogi " "$out/winboard-start-2.txt" || fail "as WinBoard, /fcp={$command} from another folder: variants\\ beside the exe not loaded: $(cat "$out/winboard-start-2.txt")"
# The wire checks through WinBoard's pipes: stderr merged into stdout.
launcher=$out/fairybridge-winboard
printf '#!/bin/sh\nFB_COMMAND=%s exec wine "%s" "%s" "$@"\n' "'\"$bin_windows\\fairybridge.exe\"'" "$winboard/winboard-start.exe" \
    "$(windows "$winboard")" >"$launcher"
chmod +x "$launcher"
python3 "$root/scripts/windows/wire-check.py" --merged-stderr --name "$native_name" "$launcher" | tee "$out/wire-check-winboard.txt"
grep -q FAILED "$out/wire-check-winboard.txt" && fail "the wire checks as WinBoard starts the engine (scripts/windows/wire-check.py --merged-stderr)"
verified "as WinBoard starts it (scripts/windows/winboard-start.c: CreateProcess with one command line, DETACHED_PROCESS, the /fd folder current, stderr = stdout): /fd=$bin_windows /fcp={fairybridge.exe --variants \"$windows_path\"} and /fcp={\"$bin_windows\\fairybridge.exe\"} from WinBoard's folder list the six games, the examples of variants\\ beside the exe and the spaced file; the wire checks through it: $(tr -s ' \n' ' ' <"$out/wire-check-winboard.txt")"

# --- games: the native match runner, the Windows engine under Wine against the native engine ---
# Wine delivers a line between the runner and the Windows engine a few ms later than a Linux pipe
# does, and now and then 50-60 ms later (wineserver scheduling on a loaded machine): the Windows
# engine's flag counts only beyond this margin (the native engine keeps the runner's 50 ms). The
# wire transcripts (--debug) show what each move was charged beyond its thinking.
wine_margin=${WINE_MARGIN_MS:-250}
: >"$out/games.txt"
for variant in normal wildcastle pillage wreckage wildrose crazyhouse; do
    pgn=$out/match-$variant.pgn
    if ! "$native" match --engine "cmd=$wrapper" name=windows "timemargin=$wine_margin" --engine "cmd=$native" name=linux \
        --each "tc=$tc" --variant "$variant" --games "$games" --concurrency 1 --pgn "$pgn" --debug \
        >"$out/match-$variant.txt" 2>"$out/match-$variant.err"; then
        tail -5 "$out/match-$variant.err" >&2
        fail "the match in $variant exited with an error"
    fi
    played=$(grep -c '^\[Termination ' "$pgn" || true)
    faults=$(grep '^\[Termination ' "$pgn" | grep -v -e '"normal"' -e '"adjudication"' | sort | uniq -c | tr -s ' \n' ' ' || true)
    [ "$played" -eq "$games" ] || fail "$variant: $played of $games games in $pgn"
    [ -z "$faults" ] || fail "$variant: games not ended by the rules: $faults(see $pgn)"
    score=$(grep -m1 '^Score of ' "$out/match-$variant.txt" || true)
    printf '%-11s %s\n' "$variant" "$score" | tee -a "$out/games.txt"
    python3 "$root/scripts/windows/wire-lag.py" "$out/match-$variant.err" --engine windows --engine linux |
        sed 's/^/              /' | tee -a "$out/games.txt"
done
verified "the native match runner played fairybridge.exe under Wine (time margin $wine_margin ms) against the native engine (50 ms), $games games at tc=$tc in each of the six games, every one ended by the rules or adjudication (no forfeit, no illegal move); what the runner charged beyond each engine's search, and the clocks (a move 'against its clock' above 0 went past it):"
sed 's/^/    /' "$out/games.txt" >>"$summary"

# --- python-chess over CECP and UCI ---
# shellcheck disable=SC2016
python3 -c 'import chess' 2>/dev/null || "$root/scripts/install-deps.sh" python-chess
python3 "$root/scripts/pychess-check.py" "$wrapper" --quick --ply-cap 120 --out "$out/pychess" >"$out/pychess.txt" 2>&1 ||
    { tail -20 "$out/pychess.txt" >&2; fail "python-chess over CECP (scripts/pychess-check.py; $out/pychess)"; }
verified "python-chess over CECP (scripts/pychess-check.py --quick): $(tail -1 "$out/pychess.txt")"
python3 "$root/scripts/pychess-uci-check.py" "$wrapper" --ply-cap 60 --out "$out/pychess-uci" >"$out/pychess-uci.txt" 2>&1 ||
    { tail -20 "$out/pychess-uci.txt" >&2; fail "python-chess over UCI (scripts/pychess-uci-check.py; $out/pychess-uci)"; }
verified "python-chess over UCI (scripts/pychess-uci-check.py): $(tail -1 "$out/pychess-uci.txt")"

# --- the 32-bit Zillions DLL ---
"$root/scripts/windows-dll-check.sh" >"$out/dll-check.txt" 2>&1 ||
    { tail -20 "$out/dll-check.txt" >&2; fail "the Zillions DLL check (scripts/windows-dll-check.sh)"; }
verified "the Zillions DLL check (scripts/windows-dll-check.sh): $(grep -c 'verified:' "$out/dll-check.txt") checks verified, the last: $(grep 'verified:' "$out/dll-check.txt" | tail -1 | sed 's/.*verified: //')"
version_resource "$target_dir/i686-pc-windows-gnu/release/fairybridge.dll" "the Zillions fairybridge.dll" i686-w64-mingw32

elapsed=$(($(date +%s) - started))
{
    printf '\nAll checks held. %s, %s, commit %s; %s s.\n' "$(date -u +'%Y-%m-%d %H:%M UTC')" "$(wine --version)" \
        "$("$native" --version | sed -n 's/^commit //p')" "$elapsed"
} >>"$summary"
cat "$summary"
if [ -n "$report" ]; then
    cp "$summary" "$report"
    say "summary written to $report"
fi
