#!/usr/bin/env bash
# The release bundles, from this source tree: a zip for Windows (WinBoard) and a tarball for Linux
# (XBoard), named after the build's version and commit (build.rs), e.g.
#   target/bundle/fairybridge-0.1.0+1aeafcb-windows-x86_64.zip
#   target/bundle/fairybridge-0.1.0+1aeafcb-linux-x86_64.tar.gz
# Each holds the engine (fairybridge.exe, built for x86_64-pc-windows-gnu with mingw-w64; or the
# native fairybridge), zillions/fairybridge.dll (the 32-bit Zillions plug-in, i686-pc-windows-gnu),
# variants/ (the example definitions, which the engine loads from beside itself without a path),
# definitions/ (the six built-in games' files) and README-windows.txt or README-linux.txt
# (release/, with the version filled in).
#
#   scripts/bundle.sh [--out DIR] [--windows-only | --linux-only]
#
# The exe's name for itself (`--version`, `feature myname`, `id name`: one constant) and the version
# resource of the exe and the DLL must be the native build's version: one tree, one commit.
#
# Installs what it lacks and says so: the rustup targets, mingw-w64, zip. Needs no Wine (the
# Windows engine is checked by scripts/windows-check.sh). A build from modified sources is named
# `.dirty` (and said so): release from a clean checkout. Uses CARGO_TARGET_DIR if set.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
out=$target_dir/bundle
windows=1
linux=1
while [ $# -gt 0 ]; do
    case $1 in
    --out) out=$2; shift ;;
    --windows-only) linux=0 ;;
    --linux-only) windows=0 ;;
    *) echo "usage: $0 [--out DIR] [--windows-only | --linux-only]" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { printf 'bundle: %s\n' "$*"; }
fail() {
    printf 'bundle: FAILED: %s\n' "$*" >&2
    exit 1
}
# apt_install, rust_target, mingw.
source "$root/scripts/windows/common.sh"

# --- tools ---
rust_target i686-pc-windows-gnu
mingw i686-w64-mingw32
if [ "$windows" -eq 1 ]; then
    rust_target x86_64-pc-windows-gnu
    mingw x86_64-w64-mingw32
    command -v zip >/dev/null || apt_install zip
fi

# --- builds ---
cd "$root"
say "building the native engine (its --version names the bundles)"
cargo build --release --bin fairybridge -q
native=$target_dir/release/fairybridge
version=$("$native" --version | head -1 | sed 's/^fairybridge //')
commit=$("$native" --version | sed -n 's/^commit //p')
case $version in
*.dirty) say "WARNING: built from modified sources: the bundles are named $version" ;;
esac
say "building the Zillions plug-in (i686-pc-windows-gnu, --features zillions)"
cargo build --release --lib --features zillions --target i686-pc-windows-gnu -q
dll=$target_dir/i686-pc-windows-gnu/release/fairybridge.dll
i686-w64-mingw32-objdump -f "$dll" | grep -q 'file format pei-i386' || fail "$dll is not a 32-bit DLL"
# FILE PREFIX: FILE's version resource (build.rs; what Windows shows in its properties) names this
# build: the DLL has no other way to say which build it is.
version_resource() {
    local rc
    rc=$("$2-windres" -i "$1" -O rc 2>&1) || fail "$1 has no resources: $rc"
    grep -qF "VALUE \"FileVersion\", \"$version\"" <<<"$rc" && grep -qF "VALUE \"Comments\", \"commit $commit\"" <<<"$rc" ||
        fail "$1's version resource does not name $version (commit $commit): $rc"
}
version_resource "$dll" i686-w64-mingw32
if [ "$windows" -eq 1 ]; then
    say "building fairybridge.exe (x86_64-pc-windows-gnu)"
    cargo build --release --bin fairybridge --target x86_64-pc-windows-gnu -q
    exe=$target_dir/x86_64-pc-windows-gnu/release/fairybridge.exe
    x86_64-w64-mingw32-objdump -f "$exe" | grep -q 'file format pei-x86-64' || fail "$exe is not a 64-bit PE"
    # The exe's own name for itself must be the native build's: one tree, one commit.
    grep -aq "fairybridge $version" "$exe" || fail "$exe does not carry the version $version"
    version_resource "$exe" x86_64-w64-mingw32
fi

# --- contents ---
# DIR README: the files both bundles share, and the readme with the version filled in.
lay_out() {
    local dir=$1 readme=$2 glibc=${3:-}
    mkdir -p "$dir/variants" "$dir/definitions" "$dir/zillions"
    cp "$root"/fixtures/variants/examples/*.toml "$dir/variants/"
    cp "$root"/fixtures/variants/*.toml "$dir/definitions/"
    cp "$dll" "$dir/zillions/fairybridge.dll"
    # The title's underline (line 2) as long as the title with the version filled in.
    sed -e "s/@VERSION@/$version/g" -e "s/@COMMIT@/$commit/g" -e "s/@GLIBC@/$glibc/g" \
        "$root/release/$readme" | awk 'NR == 2 && /^=+$/ { gsub(/./, "=", title); print title; next } { title = $0; print }' \
        >"$dir/$readme"
    grep -q '@[A-Z]*@' "$dir/$readme" && fail "$readme has a placeholder left: $(grep -o '@[A-Z]*@' "$dir/$readme" | head -1)"
    return 0
}
if [ "$windows" -eq 1 ]; then
    name=fairybridge-$version-windows-x86_64
    dir=$work/$name
    lay_out "$dir" README-windows.txt
    cp "$exe" "$dir/fairybridge.exe"
    # Windows' own line endings for the text files a Windows user opens in Notepad.
    for f in "$dir/README-windows.txt" "$dir"/variants/*.toml "$dir"/definitions/*.toml; do
        sed -i 's/\r*$/\r/' "$f"
    done
    rm -f "$out/$name.zip"
    (cd "$work" && zip -q -r -X "$out/$name.zip" "$name")
    say "$out/$name.zip ($(stat -c %s "$out/$name.zip") bytes)"
    (cd "$work" && find "$name" -type f | sort | sed 's/^/  /')
fi
if [ "$linux" -eq 1 ]; then
    name=fairybridge-$version-linux-x86_64
    dir=$work/$name
    # The newest glibc symbol version the binary asks for: the oldest glibc it runs on.
    glibc=$(objdump -T "$native" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)
    lay_out "$dir" README-linux.txt "$glibc"
    # Not stripped: the bundles hold the very files scripts/windows-check.sh and the tests check.
    cp "$native" "$dir/fairybridge"
    tar -C "$work" --owner=0 --group=0 --numeric-owner -czf "$out/$name.tar.gz" "$name"
    say "$out/$name.tar.gz ($(stat -c %s "$out/$name.tar.gz") bytes)"
    (cd "$work" && find "$name" -type f | sort | sed 's/^/  /')
fi
