#!/usr/bin/env bash
# The Zillions plug-in as Zillions loads it: a 32-bit Windows DLL. Builds fairybridge.dll for
# i686-pc-windows-gnu (mingw-w64), checks that its export table names the six DLL_* calls
# undecorated (`DLL_Search`, not `DLL_Search@36` or `_DLL_Search@36`: Zillions asks
# GetProcAddress for the plain names), that they are still stdcall (each returns with `ret N`,
# popping its own N bytes of arguments, as FAR PASCAL callers expect), and, when wine can run a
# 32-bit program, drives the DLL with tests/c/zillions_driver.c built for Windows
# (LoadLibrary/GetProcAddress; a whole Wreckage game, stopped searches, error codes).
#
# Installs what it lacks and says so: the rustup target, gcc-mingw-w64-i686, wine32 (needs the
# i386 architecture: dpkg --add-architecture). Run from anywhere; uses CARGO_TARGET_DIR if set.
# Exit 0 when everything it checked holds; it prints what it verified.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=i686-pc-windows-gnu
target_dir=${CARGO_TARGET_DIR:-$root/target}
dll=$target_dir/$target/release/fairybridge.dll
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

say() { printf 'windows-dll-check: %s\n' "$*"; }
fail() {
    printf 'windows-dll-check: FAILED: %s\n' "$*" >&2
    exit 1
}
# apt_install, rust_target, mingw, wine_has_prng, prng_standin.
source "$root/scripts/windows/common.sh"

# --- tools ---
rust_target "$target"
mingw i686-w64-mingw32
wine_ok=0
if ! command -v wine >/dev/null || ! dpkg -s wine32:i386 >/dev/null 2>&1; then
    if ! dpkg --print-foreign-architectures | grep -qx i386; then
        say "adding the i386 architecture (dpkg) for wine32"
        dpkg --add-architecture i386
        apt-get update -q >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get update"; }
    fi
    say "installing wine wine32:i386 (apt-get)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends wine wine32:i386 >"$work/apt.log" 2>&1 ||
        say "could not install wine32 (the DLL is still built and inspected): $(tail -1 "$work/apt.log")"
fi
command -v wine >/dev/null && dpkg -s wine32:i386 >/dev/null 2>&1 && wine_ok=1

# --- build ---
say "building $target (cargo build --release --lib --features zillions)"
(cd "$root" && cargo build --release --lib --features zillions --target "$target" -q)
[ -f "$dll" ] || fail "no $dll after the build"
header=$(i686-w64-mingw32-objdump -f "$dll")
grep -q 'file format pei-i386' <<<"$header" || fail "$dll is not a 32-bit PE: $header"
say "verified: $dll is a 32-bit Windows DLL (pei-i386)"

# --- exports: the six names, undecorated ---
# objdump -p lists the export name table as "[ordinal] name" lines.
i686-w64-mingw32-objdump -p "$dll" >"$work/exports.txt"
exports=$(sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' "$work/exports.txt" | sed -n 's/^\s*\[ *[0-9]*\] //p')
calls="DLL_StartNewGame DLL_MakeAMove DLL_Search DLL_CleanUp DLL_IsGameOver DLL_GenerateMoves"
for name in $calls; do
    grep -qx "$name" <<<"$exports" || fail "$name is not exported under its plain name; exports: $(grep DLL_ <<<"$exports" | tr '\n' ' ')"
done
if grep -E '^_?DLL_[A-Za-z]+@[0-9]+$' <<<"$exports" >"$work/decorated.txt"; then
    fail "decorated exports besides the plain ones: $(tr '\n' ' ' <"$work/decorated.txt")"
fi
say "verified: exported undecorated: $calls (no @N or _ forms)"

# --- calling convention: stdcall callees pop their arguments (ret N) ---
# Bytes of arguments: 4 per 32-bit argument.
declare -A arg_bytes=([DLL_StartNewGame]=4 [DLL_MakeAMove]=4 [DLL_Search]=36 [DLL_CleanUp]=0
    [DLL_IsGameOver]=8 [DLL_GenerateMoves]=4)
i686-w64-mingw32-objdump -d --no-show-raw-insn "$dll" >"$work/disasm.txt"
for name in $calls; do
    want=${arg_bytes[$name]}
    # The export's own code: from its label (the linker's stdcall symbol `_NAME@N`) to the next.
    body=$(awk -v re="^[0-9a-f]+ <_?${name}(@[0-9]+)?>:\$" '$0 ~ re {on=1; next} on && /^[0-9a-f]+ <.*>:$/ {exit} on' "$work/disasm.txt")
    [ -n "$body" ] || fail "no code for $name in the disassembly"
    if [ "$want" -eq 0 ]; then
        grep -qE '\sret\s*$' <<<"$body" || fail "$name: no plain ret (no arguments to pop)"
    else
        hex=$(printf '0x%x' "$want")
        grep -qE "\sret\s+\\\$$hex\s*$" <<<"$body" || fail "$name: does not return with ret \$$hex (stdcall pops $want bytes): $(grep -E '\sret' <<<"$body" | head -3 | tr -s ' ')"
    fi
done
say "verified: stdcall: each call pops its own arguments (DLL_Search: ret \$0x24, 9 x 4 bytes)"

# --- run it under wine ---
if [ "$wine_ok" -ne 1 ]; then
    say "NOT RUN: wine32 is not available here, the DLL was not loaded"
    exit 0
fi
i686-w64-mingw32-gcc -O2 -Wall -Werror -static -I"$root/tests/c" -o "$work/zillions_driver.exe" \
    "$root/tests/c/zillions_driver.c" -lpthread
cp "$dll" "$work/fairybridge.dll"
# Rust's std for this target needs Windows 10's bcryptprimitives.dll; for the run under wine only, a
# stand-in sits beside the DLL (scripts/windows/common.sh says why).
if ! wine_has_prng i386; then
    prng_standin i686-w64-mingw32 "$work"
    say "wine has no bcryptprimitives.dll: a stand-in ProcessPrng (over RtlGenRandom) is placed beside the DLL for this run"
fi
# A wine prefix of its own, kept between runs (its first start takes about 30 s).
export WINEPREFIX="$target_dir/windows-dll-check-wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
say "running tests/c/zillions_driver.c (Windows build) under $(wine --version) against fairybridge.dll"
if ! (cd "$work" && timeout 600 wine zillions_driver.exe fairybridge.dll) >"$work/driver.out" 2>"$work/driver.err"; then
    cat "$work/driver.out"
    grep -v '^wine: \|^[0-9a-f]*:err:\|^[0-9a-f]*:fixme:' "$work/driver.err" >&2 || true
    fail "the driver failed under wine"
fi
tr -d '\r' <"$work/driver.out" | sed 's/^/  /'
say "verified: under wine, LoadLibrary + GetProcAddress of the plain names, a whole Wreckage game and the driver's checks pass"
