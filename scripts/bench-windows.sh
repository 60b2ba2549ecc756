#!/bin/sh
# The Windows start-up figure of docs/windows.md: `nvitop.exe -1` on the simulated 8-GPU server
# against an empty console program (tests/windows/empty.c), both under the same wine prefix with
# one wineserver kept running, in one hyperfine run.  The programs and DLLs run as the zip ships
# them, stripped of debugging information (copies in a temporary folder).  Prints hyperfine's
# table, then nvitop.exe's time, the floor, the difference (the goal: at most 20 ms) and the ratio.
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
strip=x86_64-w64-mingw32-strip
command -v "$strip" >/dev/null 2>&1 || { echo "bench-windows.sh: $strip is not installed" >&2; exit 2; }
shipped=$(mktemp -d "${TMPDIR:-/tmp}/nvt-bench-windows.XXXXXX")
cp "$build/bin/nvitop.exe" "$build/bin/nvitop.dll" "$build/sim-driver/nvml.dll" \
    "$build/tests/empty.exe" "$build/tests/idle_frame.exe" "$shipped/"
"$strip" "$shipped"/*.exe "$shipped"/*.dll
export WINEPREFIX=${WINEPREFIX:-$build/wine-prefix}
export WINEDEBUG=-all
export NVITOP_NVML_LIBRARY="$(winpath "$shipped/nvml.dll")"
export NVML_SIM_SCENARIO="$(winpath "$src/sim/scenarios/h100-8gpu.json")"
export COLUMNS=120
# Create the prefix if needed, then keep one wineserver for every run.
NVT_WINDOWS_BUILD=$build sh "$src/scripts/wine-sim.sh" empty nvitop.exe --version >/dev/null
wineserver=wineserver
command -v wineserver >/dev/null 2>&1 || wineserver=/usr/lib/wine/wineserver64
"$wineserver" -k 2>/dev/null || true
"$wineserver" -w 2>/dev/null || true
"$wineserver" -p
trap '"$wineserver" -k 2>/dev/null || true; rm -rf "$shipped"' EXIT
results=$shipped/results.json
hyperfine -N --warmup 3 --runs "$runs" --export-json "$results" \
    -n 'empty.exe' "$wine $shipped/empty.exe" \
    -n 'nvitop.exe -1' "$wine $shipped/nvitop.exe -1"
# The figures of the goal, from this run: nvitop.exe -1, the floor, what it adds and the ratio.
python3 - "$results" <<'PY'
import json, sys
floor, ours = json.load(open(sys.argv[1]))['results']
for what in ('mean', 'median', 'min'):
    print(f'{what:6}: nvitop.exe -1 {ours[what] * 1e3:6.1f} ms, empty.exe {floor[what] * 1e3:6.1f} ms, '
          f'+{(ours[what] - floor[what]) * 1e3:5.1f} ms, ratio {ours[what] / floor[what]:.2f}')
cpu = lambda r: (r['user'] + r['system']) * 1e3
print(f'CPU   : nvitop.exe -1 {cpu(ours):6.1f} ms, empty.exe {cpu(floor):6.1f} ms, '
      f'+{cpu(ours) - cpu(floor):5.1f} ms')
PY
# hyperfine runs one program's runs, then the other's: on a shared machine the load drifts between
# the two blocks.  Paired runs, one of each in turn, compare each run with its neighbour.
python3 - "$runs" "$wine" "$shipped" <<'PY'
import statistics, subprocess, sys, time
runs, wine, shipped = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def once(*args):
    start = time.perf_counter()
    subprocess.run([wine, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1e3
floor, ours = [], []
for _ in range(runs):
    floor.append(once(f'{shipped}/empty.exe'))
    ours.append(once(f'{shipped}/nvitop.exe', '-1'))
added = sorted(o - f for o, f in zip(ours, floor))
print(f'paired: {runs} pairs, nvitop.exe -1 median {statistics.median(ours):.1f} ms, empty.exe '
      f'median {statistics.median(floor):.1f} ms; added per pair: median {statistics.median(added):+.1f} ms, '
      f'quartiles {added[len(added) // 4]:+.1f} / {added[3 * len(added) // 4]:+.1f} ms; ratio of medians '
      f'{statistics.median(ours) / statistics.median(floor):.2f}')
PY

# The monitor's CPU: nvitop.exe under wine against the Linux nvitop ($NVT_LINUX_BUILD, default
# build) on the same scenario, and against idle_frame.exe (tests/windows/idle_frame.c: a wait on
# the console and one row written each second, the least a monitor refreshing every second does:
# the floor under wine), each in a tmux window of 160x50 for $SECONDS_MONITOR seconds (default 60)
# after a 3 s start; the CPU time of the program's processes (for wine, the program's and its
# prefix's wineserver's) from /proc, as a percentage of one core.
linux_build=$(cd "${NVT_LINUX_BUILD:-$src/build}" && pwd)
seconds=${SECONDS_MONITOR:-60}
socket=nvt-bench-windows-$$
ticks=$(getconf CLK_TCK)
cpu_of() { # pids...: utime + stime in ticks, summed
    total=0
    for p in "$@"; do
        set -- $(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null || echo "x x x x x x x x x x x 0 0")
        total=$((total + ${12} + ${13}))
    done
    echo "$total"
}
prefix_server() { # the wineserver of this prefix (each prefix has its own; the name is wineserver64)
    for p in $(pgrep wineserver); do
        if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "WINEPREFIX=$WINEPREFIX"; then
            echo "$p"
        fi
    done
}
measure() { # name, pattern of the program's processes, command
    name=$1
    pattern=$2
    shift 2
    tmux -L "$socket" -f /dev/null new-session -d -x 160 -y 50 "$*"
    sleep 3
    pids=""
    for p in $(pgrep -f "$pattern"); do
        case $(cat "/proc/$p/comm" 2>/dev/null) in
        tmux* | sh | bash) ;;
        *) pids="$pids $p" ;;
        esac
    done
    [ "$name" != linux ] && pids="$pids $(prefix_server)"
    before=$(cpu_of $pids)
    sleep "$seconds"
    after=$(cpu_of $pids)
    tmux -L "$socket" kill-server 2>/dev/null || true
    echo "$name monitor: $(echo "scale=3; ($after - $before) * 100 / $ticks / $seconds" | bc) % of a core ($((after - before)) ticks of 1/$ticks s in $seconds s)"
    last_ticks=$((after - before))
}
# The Linux monitor must not see the Windows driver's path (NVITOP_NVML_LIBRARY, set above for
# wine): with it, it found no driver and drew an error screen at almost no cost (the figures of
# "0 to 0.05 %" measured before 2026-11-27).  None of them sees the -1 runs' COLUMNS.
measure linux "$linux_build/bin/nvitop" \
    "env -u NVITOP_NVML_LIBRARY -u COLUMNS LD_LIBRARY_PATH=$linux_build/sim-driver NVML_SIM_SCENARIO=$src/sim/scenarios/h100-8gpu.json $linux_build/bin/nvitop"
measure wine 'nvitop.exe' "env -u COLUMNS $wine $shipped/nvitop.exe"
wine_ticks=$last_ticks
measure floor 'idle_frame.exe' "env -u COLUMNS $wine $shipped/idle_frame.exe"
if [ "$last_ticks" -gt 0 ]; then
    echo "wine monitor / wine floor: $(echo "scale=2; $wine_ticks / $last_ticks" | bc)"
fi
