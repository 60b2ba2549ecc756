#!/bin/sh
# The Windows programs under wine (tests/windows/CMakeLists.txt registers one test per part):
#   build   cross-build the tree into $NVT_WINDOWS_BUILD and create its wine prefix
#   golden  nvitop.exe -1 against the Linux golden files (tests/golden; host figures masked)
#   json    nvitop.exe --json against docs/nvitop-json.schema.json (tests/cli/validate_json.py)
#   nvisel  nvisel.exe through the Linux table of cases (tests/cli/nvisel_cases.txt)
#   query   nvitop.exe -q (tests/cli/check_query.py)
#   dll     a C program against nvitop.dll, compared with expected text
#   host    the host back-end's fields of real Windows processes (stand-ins) under wine
#   signal  T/K's signal path on stand-ins: the PID-reuse guard refuses another creation time,
#           then TerminateProcess ends the process
#   zip     make windows-zip's package: its files, and nvitop.exe -1 run from the unpacked copy
#   monitor nvitop.exe's console monitor in tmux: it starts, takes keys and quits with q, and the
#           console is left as it was (the report nvitop prints after the monitor shows)
#   wakeups the monitor's event loop waits once per thing that happens, not on a clock of its own:
#           its waits counted in a wineserver trace (count_wakeups.py) against the snapshots
# Exits 77 (skipped) with a message when mingw-w64 or wine is missing.
set -eu
part=${1:?usage: windows_test.sh PART}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${NVT_WINDOWS_BUILD:?}
export NVT_WINDOWS_BUILD=$build

if ! command -v x86_64-w64-mingw32-gcc-posix >/dev/null 2>&1 &&
    ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    echo "SKIP: mingw-w64 is not installed (Debian package gcc-mingw-w64-x86-64)"
    exit 77
fi
if ! command -v wine >/dev/null 2>&1 && [ ! -x /usr/lib/wine/wine64 ]; then
    echo "SKIP: wine is not installed (Debian packages wine and wine64)"
    exit 77
fi
if [ "$part" != build ] && [ ! -f "$build/bin/nvitop.exe" ]; then
    echo "the Windows build is missing: windows_build failed" >&2
    exit 1
fi
export WINEPREFIX=$build/wine-prefix
wrapper=$here/wine-program.sh
fail=0
wineserver=wineserver
command -v wineserver >/dev/null 2>&1 || wineserver=/usr/lib/wine/wineserver64
# One wineserver for every program a part runs: left to itself, it ends 3 s after its last
# program, and each program then starts it and wine's services again (twice the CPU of a program
# under a running server).  Its output goes to /dev/null, not to ctest's pipe, which it would
# hold open; a part killed before its trap runs leaves it for 60 s at most.  Not for wakeups,
# whose program must be the first client of a server it traces.
case $part in
build | wakeups) ;;
*)
    "$wineserver" -p60 </dev/null >/dev/null 2>&1 || true
    trap '"$wineserver" -k 2>/dev/null || true' EXIT
    ;;
esac

case $part in
build)
    cmake -S "$src" -B "$build" -DNVT_WERROR=ON \
        -DCMAKE_TOOLCHAIN_FILE="$src/cmake/mingw-w64-x86_64.cmake" >"$build.configure.log" 2>&1 ||
        { cat "$build.configure.log"; exit 1; }
    nice cmake --build "$build" -j 2
    # The prefix now, once (about 15 s), rather than inside the first test that runs.
    sh "$src/scripts/wine-sim.sh" empty nvitop.exe --version
    ;;
golden)
    for case in h100-8gpu-79 h100-8gpu-120 a100-mig-120 a100-mig-150-color workstation-79 \
        workstation-90-ascii faulty-79 empty-79 unified-memory-79; do
        python3 "$src/tests/golden/run_case.py" "$wrapper" "$case" || fail=1
    done
    ;;
json)
    python3 "$src/tests/cli/validate_json.py" "$wrapper" || fail=1
    ;;
nvisel)
    # The cases about loading NVML name Linux libraries and their dlerror() texts: left out
    # (wine-sim.sh names the simulator's nvml.dll).
    table=$(mktemp "${TMPDIR:-/tmp}/nvt-nvisel-cases.XXXXXX")
    grep -v 'NVITOP_NVML_LIBRARY\|LD_LIBRARY_PATH' "$src/tests/cli/nvisel_cases.txt" >"$table"
    NVT_WINE_PROGRAM=nvisel.exe python3 "$src/tests/cli/run_table.py" "$wrapper" "$table" nvisel ||
        fail=1
    rm -f "$table"
    ;;
query)
    python3 "$src/tests/cli/check_query.py" "$wrapper" || fail=1
    ;;
dll)
    got=$(NVML_SIM_SCENARIO=$src/sim/scenarios/workstation-2gpu.json \
        NVT_WINE_PROGRAM=$build/tests/dll_client.exe sh "$wrapper" | grep -v '^process')
    want=$(cat "$here/expected/dll_client.txt")
    if [ "$got" != "$want" ]; then
        printf 'dll_client.exe printed:\n%s\nexpected:\n%s\n' "$got" "$want"
        fail=1
    fi
    ;;
host)
    # Three stand-ins take the pids of the scenario's first three processes: their host fields
    # must be read (user as DOMAIN\user, the command line, memory, creation time, parent).
    out=$(NVT_STANDINS=3 NVML_SIM_SCENARIO=$src/sim/scenarios/workstation-2gpu.json \
        NVT_WINE_PROGRAM=$build/tests/dll_client.exe sh "$wrapper")
    printf '%s\n' "$out"
    for rank in 1 2 3; do
        line=$(printf '%s\n' "$out" | grep -F "command [python.exe train.py --rank $rank --epochs 100" ||
            true)
        case $line in
        *"status 0 ppid "*"user ["*\\*"] name [standin.exe]"*"rss ok created ok") ;;
        *)
            echo "stand-in $rank: host fields missing: $line"
            fail=1
            ;;
        esac
    done
    ;;
signal)
    out=$(NVT_STANDINS=2 NVML_SIM_SCENARIO=$src/sim/scenarios/workstation-2gpu.json \
        NVT_WINE_PROGRAM=$build/tests/dll_client.exe sh "$wrapper" terminate)
    printf '%s\n' "$out"
    n=$(printf '%s\n' "$out" |
        grep -c '^terminate [0-9]*: other creation time ERR_NO_SUCH_PROCESS, own OK, then gone$' ||
        true)
    if [ "$n" -ne 2 ]; then
        echo "expected both stand-ins refused with another creation time, then terminated"
        fail=1
    fi
    ;;
zip)
    for tool in zip unzip scdoc man; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            echo "SKIP: $tool is not installed"
            exit 77
        fi
    done
    package=$(sh "$src/scripts/windows-zip.sh" "$build" | tail -n 1)
    unpacked=$build/zip-test
    rm -rf "$unpacked"
    mkdir -p "$unpacked"
    unzip -q "$package" -d "$unpacked"
    top=$(ls "$unpacked")
    for file in nvitop.exe nvisel.exe nvitop.dll lib/libnvitop.dll.a include/nvitop/nvitop.h \
        doc/nvitop.1.txt doc/nvisel.1.txt LICENSE.txt README.txt; do
        if [ ! -s "$unpacked/$top/$file" ]; then
            echo "the zip lacks $file"
            fail=1
        fi
    done
    # The programs need nothing but Windows' DLLs and nvitop.dll beside them.
    out=$(NVML_SIM_SCENARIO=$src/sim/scenarios/workstation-2gpu.json \
        NVT_WINE_PROGRAM=$unpacked/$top/nvitop.exe sh "$wrapper" -1)
    case $out in
    *"GeForce RTX 3090"*) ;;
    *)
        printf 'the zipped nvitop.exe -1 printed:\n%s\n' "$out"
        fail=1
        ;;
    esac
    ;;
monitor)
    if ! command -v tmux >/dev/null 2>&1; then
        echo "SKIP: tmux is not installed"
        exit 77
    fi
    socket=nvt-windows-$$
    tmux_() { tmux -L "$socket" "$@"; }
    trap 'tmux_ kill-server 2>/dev/null || true; "$wineserver" -k 2>/dev/null || true' EXIT
    tmux_ -f /dev/null new-session -d -x 120 -y 40 \
        "sh '$src/scripts/wine-sim.sh' workstation-2gpu nvitop.exe; echo NVT-EXIT=\$?; sleep 60"
    # Positive signs only, each waited for a bounded time: the monitor's first frame (its
    # header), then after q the exit status and the report printed after the monitor.  wine's
    # console on a Unix terminal garbles full screens of cursor-addressed text (docs/windows.md),
    # so the frame's contents are not compared.
    wait_for() {
        tries=0
        while ! tmux_ capture-pane -p | grep -q "$1"; do
            tries=$((tries + 1))
            if [ "$tries" -gt 300 ]; then
                echo "not seen within 60 s: $1"
                tmux_ capture-pane -p
                return 1
            fi
            sleep 0.2
        done
    }
    wait_for 'NVITOP 0.2.0' || fail=1
    tmux_ send-keys h # the help screen, then back
    sleep 1
    tmux_ send-keys q
    sleep 1
    tmux_ send-keys q
    wait_for 'NVT-EXIT=0' || fail=1
    tmux_ capture-pane -p | grep -q 'Processes:' || {
        echo "no report after the monitor"
        fail=1
    }
    ;;
wakeups)
    if ! command -v tmux >/dev/null 2>&1; then
        echo "SKIP: tmux is not installed"
        exit 77
    fi
    socket=nvt-windows-$$
    trace=$(mktemp "${TMPDIR:-/tmp}/nvt-wakeups.XXXXXX")
    tmux_() { tmux -L "$socket" "$@"; }
    trap 'tmux_ kill-server 2>/dev/null || true; rm -f "$trace"' EXIT
    # No wineserver of this prefix before: the program is then the trace's first client.
    "$wineserver" -k 2>/dev/null || true
    "$wineserver" -w 2>/dev/null || true
    tmux_ -f /dev/null new-session -d -x 120 -y 40 \
        "WINEDEBUG=+server sh '$src/scripts/wine-sim.sh' workstation-2gpu nvitop.exe 2>'$trace'"
    # A positive sign, bounded: 8 snapshots announced (about 8 s).  Then the count: the event
    # loop waits for a snapshot, a key or its next redraw, so about one wait per snapshot; a
    # loop that woke on a clock of its own to look at the pipe (every 100 ms before) waits ten
    # times as often.  No timing: both counts come from the same run.
    tries=0
    while ! python3 "$here/count_wakeups.py" "$trace" 8 >/dev/null; do
        tries=$((tries + 1))
        if [ "$tries" -gt 600 ]; then
            echo "not 8 snapshots within 120 s"
            python3 "$here/count_wakeups.py" "$trace"
            exit 1
        fi
        sleep 0.2
    done
    tmux_ send-keys q
    counts=$(python3 "$here/count_wakeups.py" "$trace")
    echo "$counts"
    # "event loop thread T: W waits, S snapshots": about one wait a snapshot (11 for 8 here);
    # at most 3 a snapshot, and 4 more for the start, leave room for redraws that fall between
    # snapshots on a loaded machine, and still fail the 100 ms look (77 for 8).
    waits=$(echo "$counts" | sed 's/.*: \([0-9]*\) waits, \([0-9]*\) snapshots/\1/')
    snapshots=$(echo "$counts" | sed 's/.*: \([0-9]*\) waits, \([0-9]*\) snapshots/\2/')
    if [ "$waits" -gt $((3 * snapshots + 4)) ]; then
        echo "the event loop woke more than three times per snapshot"
        fail=1
    fi
    ;;
*)
    echo "unknown part $part" >&2
    exit 2
    ;;
esac
exit "$fail"
