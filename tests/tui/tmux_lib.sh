# Shared helpers of the monitor tests: a private tmux server, the simulated driver on a scenario
# copy the test may rewrite, stand-in processes, and polling with deadlines (never fixed sleeps).
#
# A test script sources this file, then calls the functions below.  Everything it starts (tmux
# server, stand-ins, temporary files) is stopped by the EXIT trap.
set -eu

NVITOP=${NVITOP_BIN:-${NVT_BINARY_DIR:-build}/bin/nvitop}
if [ ! -x "$NVITOP" ]; then
    echo "SKIP: $NVITOP is not built"
    exit 77
fi
command -v tmux >/dev/null 2>&1 || {
    echo "SKIP: tmux is not installed"
    exit 77
}

SOURCE_DIR=${NVT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
SCENARIO_DIR=${NVT_SCENARIO_DIR:-$SOURCE_DIR/sim/scenarios}
EXPECTED_DIR=$SOURCE_DIR/tests/tui/expected
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nvt-tui.XXXXXX")
RUNS=0
SOCKET="nvt-tui-$$-0"
STANDINS_STARTED=0
FAILURES=0

tmux_cmd() {
    tmux -L "$SOCKET" "$@"
}

cleanup() {
    tmux_cmd kill-server >/dev/null 2>&1 || true
    # What the monitors wrote to stderr while they ran (sanitizer reports, say) is in their log.
    if [ -s "$WORK/state/nvitop/nvitop.log" ]; then
        echo "--- the monitor's log ($WORK/state/nvitop/nvitop.log):" >&2
        cat "$WORK/state/nvitop/nvitop.log" >&2
    fi
    if [ "$STANDINS_STARTED" = 1 ]; then
        NVT_STANDIN_STATE="$WORK/standins" sh "$SOURCE_DIR/scripts/standins.sh" stop \
            >/dev/null 2>&1 || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

fail() {
    echo "FAIL: $*" >&2
    FAILURES=$((FAILURES + 1))
}

# need_strace: skip the test (exit 77) where strace is not installed.
# skip_under_asan: skip a test of heap sizes in a sanitizer build, whose allocator keeps no
# [heap] of glibc's and whose own memory is much larger.
skip_under_asan() {
    if grep -qF __asan_init "$NVITOP"; then
        echo "SKIP: built with AddressSanitizer"
        exit 77
    fi
}

# heap_kib PID: the resident size of the process's [heap] mapping, in KiB.
heap_kib() {
    awk '/^[0-9a-f]+-[0-9a-f]+ / { heap = ($6 == "[heap]") }
         heap && /^Rss:/ { kib += $2 }
         END { print kib + 0 }' "/proc/$1/smaps"
}

need_strace() {
    command -v strace >/dev/null 2>&1 || {
        echo "SKIP: strace is not installed"
        exit 77
    }
}

# start_standins N: N stand-in processes whose pids the scenarios name (NVT_STANDIN_<i>).
start_standins() {
    eval "$(NVT_STANDIN_STATE="$WORK/standins" sh "$SOURCE_DIR/scripts/standins.sh" start "$1")"
    STANDINS_STARTED=1
}

# use_scenario NAME: copy a bundled scenario to $SCENARIO, which the test may rewrite.
use_scenario() {
    SCENARIO="$WORK/scenario.json"
    cp "$SCENARIO_DIR/$1" "$SCENARIO"
}

# rewrite_scenario SED-EXPRESSION...: change the scenario the running monitor reads (atomically).
rewrite_scenario() {
    for expression in "$@"; do
        printf '%s\n' "$expression" >>"$WORK/scenario.sed"
    done
    sed -f "$WORK/scenario.sed" "$SCENARIO" >"$WORK/scenario.new"
    rm -f "$WORK/scenario.sed"
    mv "$WORK/scenario.new" "$SCENARIO"
}

# write_environment: $WORK/env.sh, the environment of the programs a test runs in its pane.
write_environment() {
    cat >"$WORK/env.sh" <<ENV
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM="${NVT_TEST_TERM:-xterm-256color}"
export NVML_SIM_SCENARIO='$SCENARIO' NVML_SIM_TIME="\${NVML_SIM_TIME:-100}"
export LD_LIBRARY_PATH='${LD_LIBRARY_PATH:-}'
export NVITOP_MONITOR_MODE="${NVITOP_MONITOR_MODE:-}"
# The monitor's stderr log (nvitop(1), FILES) stays with the test, not in the user's home.
export XDG_STATE_HOME="${XDG_STATE_HOME:-$WORK/state}"
# Nor are the user's or the machine's settings files read (or written by S): the test's own.
export XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$WORK/config}"
export NVITOP_SYSTEM_CONFIG="${NVITOP_SYSTEM_CONFIG:-$WORK/system.conf}"
# A tmux pane is no Linux console: keep ncurses from trying the GPM mouse server for TERM=linux
# (libgpm, which it loads for that, leaks a few bytes that ASan would report).
export NCURSES_GPM_TERMS=
ENV
}

# new_pane WIDTH HEIGHT COMMAND...: a fresh tmux server whose one pane runs COMMAND.
new_pane() {
    width=$1
    height=$2
    shift 2
    # A fresh server per run: a server that is still shutting down can not take a new session.
    tmux_cmd kill-server >/dev/null 2>&1 || true
    RUNS=$((RUNS + 1))
    SOCKET="nvt-tui-$$-$RUNS"
    echo "set -g status off" >"$WORK/tmux.conf"
    tmux_cmd -f "$WORK/tmux.conf" new-session -d -s main -x "$width" -y "$height" "$@"
}

# start_monitor WIDTH HEIGHT [nvitop arguments...]: run the monitor in a detached pane.  Its exit
# status lands in $WORK/exit when it ends.  The pane's shell has no job control: the monitor is
# in the pane's process group, which has no parent outside it in the session (see start_shell).
start_monitor() {
    width=$1
    height=$2
    shift 2
    write_environment
    cat >"$WORK/run.sh" <<RUN
. '$WORK/env.sh'
# Ctrl-C reaches the whole foreground process group: this shell must outlive it to record the
# monitor's exit status (a trap, not an ignore, so that the monitor inherits the default).
trap true INT
"\$@"
echo "\$?" >'$WORK/exit'
exec sleep 3600
RUN
    rm -f "$WORK/exit"
    new_pane "$width" "$height" sh "$WORK/run.sh" "$NVITOP" "$@"
}

# start_shell WIDTH HEIGHT: an interactive shell with job control in a detached pane, with the
# monitor's environment, its prompt "nvt$ ".  A command typed there (keys) runs in a process group
# of its own in the foreground, as from a user's shell: ^Z stops it, fg continues it.  (The kernel
# discards a stop in a process group that has no parent outside it in the session, as a pane's
# command without job control is: see start_monitor.)
start_shell() {
    write_environment
    echo "PS1='nvt$ '" >>"$WORK/env.sh"
    new_pane "$1" "$2" env ENV="$WORK/env.sh" sh -i
}

# copy_for_other_user DIR: copies of the monitor, the libnvitop it loads, the simulated driver and
# the CUDA probe in DIR/bin and DIR/lib, readable by every user, for a test that runs the monitor
# as another user: that user may not be able to enter the build tree (a clone under a 0700 home).
copy_for_other_user() {
    mkdir -p "$1/bin" "$1/lib"
    cp "$NVITOP" "$1/bin/nvitop"
    probe=${NVITOP_CUDA_PROBE:-$(dirname "$NVITOP")/nvitop-cuda-probe}
    [ ! -x "$probe" ] || cp "$probe" "$1/bin/nvitop-cuda-probe"
    libnvitop=$(ldd "$NVITOP" | awk '$1 == "libnvitop.so.0" { print $3 }')
    [ -z "$libnvitop" ] || cp "$libnvitop" "$1/lib/libnvitop.so.0"
    driver=""
    old_ifs=$IFS
    IFS=:
    for dir in ${LD_LIBRARY_PATH:-}; do
        if [ -z "$driver" ] && [ -f "$dir/libnvidia-ml.so.1" ]; then
            driver="$dir/libnvidia-ml.so.1"
        fi
    done
    IFS=$old_ifs
    [ -n "$driver" ] || {
        fail "no simulated driver (libnvidia-ml.so.1) in LD_LIBRARY_PATH to copy"
        return 1
    }
    cp "$driver" "$1/lib/libnvidia-ml.so.1"
    chmod -R a+rX "$1"
}

# user_settings LINE...: the user settings file the monitors of this test read (nvitop.conf).
user_settings() {
    mkdir -p "$WORK/config/nvitop"
    printf '%s\n' "$@" >"$WORK/config/nvitop/nvitop.conf"
}

# nvitop_layout: hide what nvitop 1.7 does not have (the device panel's bandwidth column from 140
# columns), for the tests that compare screens with nvitop's.
nvitop_layout() {
    user_settings "[layout]" "bandwidth = hide"
}

capture() {
    tmux_cmd capture-pane -p -t main
}

keys() {
    tmux_cmd send-keys -t main "$@"
}

resize() {
    tmux_cmd resize-window -t main -x "$1" -y "$2"
}

# wait_for TEXT [SECONDS]: poll the screen until it shows TEXT (fixed string).
wait_for() {
    deadline=$(($(date +%s) + ${2:-10}))
    while :; do
        if capture | grep -qF -- "$1"; then
            return 0
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "timed out waiting for '$1'"
            capture >&2
            return 1
        fi
        sleep 0.05
    done
}

# press_until TEXT KEY [SECONDS]: send KEY, then again every second, until the screen shows TEXT.
# For a key sent while the terminal may still be changing modes (just after a stop and continue,
# while curses restores its input and keypad modes, a key typed under heavy load was seen to be
# lost in 2 of about 10 loaded runs): the test checks that keys work, not when they were typed.
press_until() {
    deadline=$(($(date +%s) + ${3:-10}))
    while :; do
        keys "$2"
        next=$(($(date +%s) + 1))
        while [ "$(date +%s)" -le "$next" ]; do
            if capture | grep -qF -- "$1"; then
                return 0
            fi
            sleep 0.05
        done
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "timed out pressing $2 until '$1' showed"
            capture >&2
            return 1
        fi
    done
}

# wait_gone TEXT [SECONDS]: poll until the screen no longer shows TEXT.
wait_gone() {
    deadline=$(($(date +%s) + ${2:-10}))
    while capture | grep -qF -- "$1"; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "timed out waiting for '$1' to disappear"
            capture >&2
            return 1
        fi
        sleep 0.05
    done
}

# wait_exit [SECONDS]: wait for the monitor to end; prints its exit status.
wait_exit() {
    deadline=$(($(date +%s) + ${1:-10}))
    while [ ! -s "$WORK/exit" ]; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "the monitor did not exit"
            return 1
        fi
        sleep 0.05
    done
    cat "$WORK/exit"
}

# record_pane: from now on, what the pane is sent is copied to $WORK/pane.out (tmux pipe-pane).
record_pane() {
    : >"$WORK/pane.out"
    tmux_cmd pipe-pane -t main "cat >>'$WORK/pane.out'"
}

# recorded_count SEQUENCE: how many times the recorded pane was sent SEQUENCE (printf format).
recorded_count() {
    grep -aoF "$(printf "$1")" "$WORK/pane.out" | wc -l
}

# wait_recorded SEQUENCE COUNT WHAT: poll until the recorded pane was sent SEQUENCE COUNT times;
# fail with WHAT after 10 s.
wait_recorded() {
    deadline=$(($(date +%s) + 10))
    while [ "$(recorded_count "$1")" -lt "$2" ]; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "$3 $2 time(s)"
            return 1
        fi
        sleep 0.05
    done
}

# wait_smcup COUNT: poll until the recorded pane was sent into the alternate screen COUNT times.
wait_smcup() {
    wait_recorded '\033[?1049h' "$1" "the pane did not enter the alternate screen"
}

# child_of PID: the first process whose parent is PID.
child_of() {
    for dir in /proc/[0-9]*; do
        parent=$(sed -e 's/^.*) //' "$dir/stat" 2>/dev/null | cut -d' ' -f2)
        if [ "$parent" = "$1" ]; then
            basename "$dir"
            return 0
        fi
    done
    return 1
}

# expect_screen NAME: compare the normalised screen with tests/tui/expected/NAME.txt
# (NVT_UPDATE_EXPECTED=1 rewrites the file instead).
expect_screen() {
    capture | python3 "$SOURCE_DIR/tests/tui/normalize.py" >"$WORK/$1.txt"
    if [ "${NVT_UPDATE_EXPECTED:-0}" = 1 ]; then
        cp "$WORK/$1.txt" "$EXPECTED_DIR/$1.txt"
        return 0
    fi
    if ! diff -u "$EXPECTED_DIR/$1.txt" "$WORK/$1.txt" >&2; then
        fail "screen $1 differs from the expected text"
    fi
}

finish() {
    if [ "$FAILURES" -gt 0 ]; then
        echo "$FAILURES failure(s)" >&2
        exit 1
    fi
    echo "ok"
}
