#!/bin/sh
# Run a program of the Windows build under wine on the simulated driver: the Windows counterpart
# of nvitop-sim (docs/windows.md).
#
#   scripts/wine-sim.sh SCENARIO PROGRAM [ARGS...]
#
# SCENARIO is a file or the name of a bundled one (h100-8gpu); PROGRAM a path or the name of a
# program of the build (nvitop.exe, nvisel.exe).  The build is $NVT_WINDOWS_BUILD (default
# build-windows, as `make windows` makes it) and the wine prefix $WINEPREFIX (default
# <build>/wine-prefix, created on first use, which takes wine about 15 s).  With NVT_STANDINS=N,
# N stand-in jobs (tests/windows/standin.c: real Windows processes with job-like command lines)
# run meanwhile and NVT_STANDIN_1..N hold their Windows pids, which scenarios may name; they are
# stopped when the program exits.  The program's exit status is this script's.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: wine-sim.sh SCENARIO PROGRAM [ARGS...]" >&2
    exit 2
fi
src=$(cd "$(dirname "$0")/.." && pwd)
build=${NVT_WINDOWS_BUILD:-$src/build-windows}
build=$(cd "$build" && pwd)
scenario=$1
program=$2
shift 2
case $scenario in
*/* | *.json) ;;
*) scenario=$src/sim/scenarios/$scenario.json ;;
esac
if [ ! -f "$scenario" ]; then
    echo "wine-sim.sh: no scenario $scenario" >&2
    exit 2
fi
case $program in
*/*) ;;
*) program=$build/bin/$program ;;
esac

if command -v wine >/dev/null 2>&1; then
    wine=wine
elif [ -x /usr/lib/wine/wine64 ]; then
    wine=/usr/lib/wine/wine64
else
    echo "wine-sim.sh: wine is not installed (Debian packages wine and wine64)" >&2
    exit 2
fi

# A Unix path as wine sees it: drive Z: is the root of the file system.
winpath() {
    abs=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
    printf 'Z:%s' "$abs" | tr / '\\'
}

export WINEPREFIX=${WINEPREFIX:-$build/wine-prefix}
export WINEDEBUG=${WINEDEBUG:--all}
# No Mono or Gecko installer dialogues when the prefix is created.
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
if command -v wineserver >/dev/null 2>&1; then
    wineserver=wineserver
else
    wineserver=/usr/lib/wine/wineserver64
fi
# Make the prefix in a directory of its own and move it into place only once every process of its
# creation has ended.  Under load a service of wine crashed while `wineboot -i` ran (winedbg
# attached to it): the prefix was left half made, its wineboot waiting for ever, and every program
# started in it after waited too (the CI's ASan run lost two Windows tests that way).  A try that
# does not end within its bounds is killed and made again, twice at most.
make_prefix() {
    fresh="$WINEPREFIX.new.$$"
    rm -rf "$fresh"
    mkdir -p "$fresh"
    WINEPREFIX="$fresh" timeout 300 "$wine" wineboot -i >/dev/null 2>&1 || true
    # The registry files are written when the prefix's wineserver ends.
    if WINEPREFIX="$fresh" timeout 120 "$wineserver" -w && [ -f "$fresh/system.reg" ]; then
        # Another run may have made it meanwhile: keep theirs (mv -T fails on a full directory).
        mv -T "$fresh" "$WINEPREFIX" 2>/dev/null || rm -rf "$fresh"
        return 0
    fi
    WINEPREFIX="$fresh" "$wineserver" -k 2>/dev/null || true
    rm -rf "$fresh"
    return 1
}
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    mkdir -p "$(dirname "$WINEPREFIX")"
    rmdir "$WINEPREFIX" 2>/dev/null || true # an empty one left by an earlier version of this
    make_prefix || make_prefix || make_prefix || {
        echo "wine-sim.sh: could not make the wine prefix $WINEPREFIX" >&2
        exit 2
    }
fi
NVITOP_NVML_LIBRARY=$(winpath "$build/sim-driver/nvml.dll")
NVML_SIM_SCENARIO=$(winpath "$scenario")
# Programs outside <build>/bin (the tests' helpers) find nvitop.dll there.
WINEPATH=$(winpath "$build/bin")
export NVITOP_NVML_LIBRARY NVML_SIM_SCENARIO WINEPATH

count=${NVT_STANDINS:-0}
if [ "$count" -eq 0 ]; then
    exec "$wine" "$program" "$@"
fi

# Stand-ins: standin.exe prints NVT_STANDIN_<i>=<pid> lines, then keeps its jobs until the file
# "stop" exists.  (Not until its standard input ends: a wine process, or the wineserver it starts,
# can inherit a pipe's other end and keep it open for ever; a soak run hung 40 minutes on that.)
dir=$(mktemp -d "${TMPDIR:-/tmp}/nvt-wine-sim.XXXXXX")
stop=$(winpath "$dir/stop")
cleanup() {
    : >"$dir/stop"
    if [ -n "${standin_pid:-}" ]; then
        # Bounded: 30 s for the jobs to end, then the stand-in is killed (its job object ends the
        # jobs with it).
        waited=0
        while kill -0 "$standin_pid" 2>/dev/null && [ "$waited" -lt 300 ]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        kill -KILL "$standin_pid" 2>/dev/null || true
        wait "$standin_pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# The files exist before the stand-in starts: the loop below must not read them before the
# background job has created them (grep -c then prints nothing).
: >"$dir/pids"
: >"$dir/err"
"$wine" "$build/tests/standin.exe" "$count" "$stop" </dev/null >>"$dir/pids" 2>>"$dir/err" &
standin_pid=$!
tries=0
while [ "$(grep -c '^NVT_STANDIN_' "$dir/pids" || true)" -lt "$count" ]; do
    tries=$((tries + 1))
    if [ "$tries" -gt 600 ] || ! kill -0 "$standin_pid" 2>/dev/null; then
        echo "wine-sim.sh: the stand-ins did not start" >&2
        cat "$dir/err" >&2
        exit 1
    fi
    sleep 0.1
done
while IFS='=' read -r name pid; do
    pid=$(printf '%s' "$pid" | tr -d '\r')
    export "$name=$pid"
done <"$dir/pids"
rc=0
"$wine" "$program" "$@" || rc=$?
exit "$rc"
