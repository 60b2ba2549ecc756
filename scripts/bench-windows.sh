#!/bin/sh
# The Windows start-up figure of docs/windows.md: `nvitop.exe -1` on the simulated 8-GPU server
# against an empty console program (tests/windows/empty.c), both under the same wine prefix with
# one wineserver kept running, in one hyperfine run.  Prints hyperfine's table; the difference of
# the means is what nvitop.exe adds to wine's own start-up (the goal: at most 20 ms).
#   usage: scripts/bench-windows.sh [BUILD_DIR] [RUNS]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build-windows}" && pwd)
runs=${2:-30}
command -v hyperfine >/dev/null 2>&1 || { echo "bench-windows.sh: hyperfine is not installed" >&2; exit 2; }
wine=wine
command -v wine >/dev/null 2>&1 || wine=/usr/lib/wine/wine64
winpath() {
    printf 'Z:%s' "$1" | tr / '\\'
}
export WINEPREFIX=${WINEPREFIX:-$build/wine-prefix}
export WINEDEBUG=-all
export NVITOP_NVML_LIBRARY="$(winpath "$build/sim-driver/nvml.dll")"
export NVML_SIM_SCENARIO="$(winpath "$src/sim/scenarios/h100-8gpu.json")"
export COLUMNS=120
# Create the prefix if needed, then keep one wineserver for every run.
sh "$src/scripts/wine-sim.sh" empty nvitop.exe --version >/dev/null
wineserver=wineserver
command -v wineserver >/dev/null 2>&1 || wineserver=/usr/lib/wine/wineserver64
"$wineserver" -k 2>/dev/null || true
"$wineserver" -w 2>/dev/null || true
"$wineserver" -p
trap '"$wineserver" -k 2>/dev/null || true' EXIT
hyperfine -N --warmup 3 --runs "$runs" \
    -n 'empty.exe' "$wine $build/tests/empty.exe" \
    -n 'nvitop.exe -1' "$wine $build/bin/nvitop.exe -1"
