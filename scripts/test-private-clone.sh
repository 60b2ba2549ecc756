#!/bin/sh
# Build and run the test suite from a clone of HEAD inside a directory of mode 0700 (as a clone in
# /root is), where the tests that run a program as another user (nobody) cannot reach the build
# tree: they must bring their own readable copies.  The clone is removed afterwards.
#   usage: scripts/test-private-clone.sh [JOBS]
set -eu
jobs=${1:-2}
source_dir=$(cd "$(dirname "$0")/.." && pwd)
private=$(mktemp -d "${TMPDIR:-/tmp}/nvt-private.XXXXXX")
# Removed whatever the tests' result: wine's server (the Windows tests) may still be writing in
# its prefix for a moment, so it is stopped first and the removal is tried twice.
cleanup() {
    prefix=$private/nvitop/build/windows/wine-prefix
    if [ -d "$prefix" ] && command -v wineserver >/dev/null 2>&1; then
        WINEPREFIX=$prefix wineserver -k >/dev/null 2>&1 || true
    fi
    rm -rf "$private" 2>/dev/null || { sleep 2; rm -rf "$private" 2>/dev/null; } || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
chmod 700 "$private"
git clone -q "$source_dir" "$private/nvitop"
echo "test-private-clone: HEAD ($(git -C "$source_dir" rev-parse --short HEAD)) in $private (mode 0700)"
cmake -S "$private/nvitop" -B "$private/nvitop/build" -DNVT_WERROR=ON >/dev/null
cmake --build "$private/nvitop/build" -j "$jobs" >"$private/build.log" 2>&1 || {
    tail -50 "$private/build.log" >&2
    exit 1
}
cd "$private/nvitop/build"
ctest --output-on-failure -j "$jobs"
