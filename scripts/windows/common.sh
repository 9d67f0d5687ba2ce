# Shared by the Windows scripts (windows-dll-check.sh, windows-check.sh, bundle.sh): installing the
# tools a cross build and Wine need, and the Wine stand-in for Windows 10's bcryptprimitives.dll.
# Source it after setting `work` (a scratch folder) and defining `say` and `fail`.

apt_install() {
    say "installing $* (apt-get)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >"$work/apt.log" 2>&1 ||
        { cat "$work/apt.log" >&2; fail "apt-get install $*"; }
}

# TARGET: the rust target, added with rustup when missing.
rust_target() {
    if ! rustup target list --installed | grep -qx "$1"; then
        say "installing the rust target $1 (rustup)"
        rustup target add "$1" || fail "rustup target add $1"
    fi
}

# PREFIX: the mingw-w64 C compiler and binutils for PREFIX (x86_64-w64-mingw32, i686-w64-mingw32).
mingw() {
    local arch=${1%%-*}
    if ! command -v "$1-gcc" >/dev/null || ! command -v "$1-objdump" >/dev/null; then
        apt_install "gcc-mingw-w64-${arch//_/-}" "binutils-mingw-w64-${arch//_/-}"
    fi
}

# ARCH (x86_64 or i386): whether Wine's ARCH system has Windows 10's bcryptprimitives.dll.
wine_has_prng() {
    local dir
    for dir in /usr/lib/*-linux-gnu/wine/"$1"-windows /usr/lib/wine/"$1"-windows /opt/wine*/lib/wine/"$1"-windows; do
        [ -e "$dir/bcryptprimitives.dll" ] && return 0
    done
    return 1
}

# PREFIX DIR: Rust's std for the windows-gnu targets takes its random numbers from Windows 10's
# bcryptprimitives.dll (ProcessPrng); Wine 8.0 (Debian 12) has none. For runs under Wine only, a
# stand-in over RtlGenRandom is built into DIR, beside the program (never shipped: Windows 10 and
# later have the system one). Prints nothing; returns 0 when DIR has a stand-in.
prng_standin() {
    cat >"$work/prng.c" <<'EOF_C'
#include <windows.h>
#define SystemFunction036 NTAPI SystemFunction036
#include <ntsecapi.h>
#undef SystemFunction036
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) { return RtlGenRandom(data, (ULONG)len); }
EOF_C
    "$1-gcc" -O2 -Wall -Werror -shared -Wl,--kill-at -o "$2/bcryptprimitives.dll" "$work/prng.c" -ladvapi32
}
