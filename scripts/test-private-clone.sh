#!/bin/sh
# Build and run the test suite from a clone of HEAD inside a directory of mode 0700 (as a clone in
# /root is), where the tests that run a program as another user (nobody) cannot reach the build
# tree: they must bring their own readable copies.  The clone is removed afterwards.
#   usage: scripts/test-private-clone.sh [JOBS]
set -eu
jobs=${1:-2}
source_dir=$(cd "$(dirname "$0")/.." && pwd)
private=$(mktemp -d "${TMPDIR:-/tmp}/nvt-private.XXXXXX")
trap 'rm -rf "$private"' EXIT INT TERM
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
