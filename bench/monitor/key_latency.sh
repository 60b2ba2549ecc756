#!/bin/sh
# How fast the monitor answers keys while the driver is stalled (issue #5: within 50 ms, even
# while a refresh is under way), against a floor measured in the same run: the same round trip
# through tmux to `cat`, whose keys the terminal echoes at once.  A key's latency is the time from
# `tmux send-keys` until `tmux capture-pane` shows its effect (h opens the help screen, h again
# closes it; not Esc, which waits ESCDELAY to be told from an escape sequence), so both figures
# include tmux's own round trip.  Prints figures; never fails on a time.
#
# Mode "tree" measures the tree view instead (issue #27: a key answered within a frame with a
# thousand GPU processes and their ancestors), on the scenario NVT_BENCH_PROCESSES picks (20, the
# default, 1000 or 4000; bench_lib.sh) with as many stand-ins, at 200x60 and a 1 s interval, the
# driver not stalled: `Right` scrolls the tree 5 cells (the header's "  PID" goes), `Left` back.
# The keys are spread over several refreshes (a pause of 0.1 to 0.3 s before each), so that some
# arrive while the monitor takes in a new process list, and the 90th percentile is printed too,
# with the CPU time the monitor's UI thread (its main thread) took per second meanwhile.
#
#   sh bench/monitor/key_latency.sh [BUILD_DIR] [KEYS] [stalled|tree]   default 40 keys, stalled
set -eu

source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$source_dir/build}" && pwd)
count=${2:-40}
mode=${3:-stalled}
case $mode in
stalled | tree) ;;
*)
    echo "unknown mode '$mode' (stalled or tree)" >&2
    exit 2
    ;;
esac
nvitop=$build/bin/nvitop
. "$source_dir/bench/bench_lib.sh"
bench_built "$nvitop" "build the project first"
bench_need tmux

socket="nvt-keys-$$"
# Each pane has a server of its own (pane below): clean up the one $socket names at exit.
# shellcheck disable=SC2016
bench_workspace nvt-bench-keys '$socket'
if [ "$mode" = tree ]; then
    bench_scenario
else
    bench_standins 3
    cp "$source_dir/sim/scenarios/workstation-2gpu.json" "$work/scenario.json"
    export NVML_SIM_SCENARIO="$work/scenario.json" NVML_SIM_CALLS_FILE="$work/calls"
fi

now_ns() {
    date +%s%N
}

# pane COMMAND...: a fresh 120x40 pane running COMMAND, on a server of its own (a server that
# is still shutting down cannot take a new session).
panes=0
width=120 height=40
if [ "$mode" = tree ]; then
    width=200 height=60
fi
pane() {
    tmux -L "$socket" kill-server >/dev/null 2>&1 || true
    panes=$((panes + 1))
    socket="nvt-keys-$$-$panes"
    tmux -L "$socket" -f "$work/tmux.conf" new-session -d -s main -x "$width" -y "$height" "$@"
}

screen() {
    tmux -L "$socket" capture-pane -p -t main
}

# wait_screen TEXT PRESENT(1|0): poll until TEXT is (or is no longer) on the screen; 10 s at most.
wait_screen() {
    deadline=$(($(date +%s) + 10))
    while :; do
        if screen | grep -qF -- "$1"; then found=1; else found=0; fi
        [ "$found" = "$2" ] && return 0
        if [ "$(date +%s)" -ge "$deadline" ]; then
            echo "timed out waiting for '$1' (present=$2)" >&2
            exit 1
        fi
    done
}

# Floor: keys typed into cat, echoed by the terminal; each adds one "x" to the screen.
pane cat
wait_screen "" 1
: >"$work/floor"
i=1
while [ "$i" -le "$count" ]; do
    t0=$(now_ns)
    tmux -L "$socket" send-keys -t main x
    until [ "$(screen | tr -cd x | wc -c)" -ge "$i" ]; do :; done
    echo $(($(now_ns) - t0)) >>"$work/floor"
    i=$((i + 1))
done

# median, 90th percentile and max in milliseconds
stats() {
    sort -n "$1" | awk '{ v[NR] = $1 } END {
        printf "%8.1f %8.1f %8.1f", v[int((NR + 1) / 2)] / 1e6, v[int((NR * 9 + 9) / 10)] / 1e6,
            v[NR] / 1e6 }'
}

# header_scrolled: whether the tree view's first line no longer starts with its PID column.
header_scrolled() {
    if screen | head -n 1 | grep -q '^ *PID  USER'; then echo 0; else echo 1; fi
}

if [ "$mode" = tree ]; then
    pane "$nvitop" -m --interval 1
    wait_screen "(Press h for help or q to quit)" 1
    tmux -L "$socket" send-keys -t main t
    wait_screen "PID  USER  DEVICE  NLWP" 1
    # Every GPU process is on the screen's rows or below them: wait for the rows to fill.
    rows=$((bench_processes + 1 < height - 1 ? bench_processes + 1 : height - 1))
    deadline=$(($(date +%s) + 20))
    until [ "$(screen | grep -c "GPU [0-9]")" -ge $((rows - 2)) ]; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            echo "the tree view never showed its processes" >&2
            exit 1
        fi
        sleep 0.1
    done
    monitor_pid=$(tmux -L "$socket" display-message -p -t main '#{pane_pid}')
    ui_ticks() {
        # utime + stime of the main thread (fields 14 and 15 of its stat, after the name).
        sed -e 's/^.*) //' "/proc/$monitor_pid/task/$monitor_pid/stat" |
            awk '{ print $12 + $13 }'
    }
    ticks0=$(ui_ticks)
    wall0=$(now_ns)
    : >"$work/monitor"
    i=1
    while [ "$i" -le "$count" ]; do
        sleep "0.$((1 + i % 3))"
        scrolled=$((i % 2))
        key=Left
        [ "$scrolled" = 1 ] && key=Right
        t0=$(now_ns)
        tmux -L "$socket" send-keys -t main "$key"
        deadline=$(($(date +%s) + 10))
        until [ "$(header_scrolled)" = "$scrolled" ]; do
            if [ "$(date +%s)" -ge "$deadline" ]; then
                echo "timed out waiting for $key" >&2
                exit 1
            fi
        done
        echo $(($(now_ns) - t0)) >>"$work/monitor"
        i=$((i + 1))
    done
    ticks=$(($(ui_ticks) - ticks0))
    wall=$(($(now_ns) - wall0))
    tmux -L "$socket" send-keys -t main q
    floor=$(stats "$work/floor")
    monitor=$(stats "$work/monitor")
    echo "keys answered in the tree view: $count keys each ($bench_scenario_name," \
        "$bench_processes processes, 200x60, 1 s interval)"
    printf "%-28s %8s %8s %8s\n" "" "median" "p90" "max"
    printf "%-28s %s ms\n" "tree view (Right, Left)" "$monitor"
    printf "%-28s %s ms\n" "floor (tmux round trip)" "$floor"
    echo "$ticks $(getconf CLK_TCK) $wall" | awk '{ printf "UI thread CPU: %.1f ms a second" \
        " over the keys\n", $1 * 1000 / $2 / ($3 / 1e9) }'
    exit 0
fi

# The monitor, its sampling thread stuck in a driver call for ten minutes.
help="Press any key to return."
pane "$nvitop" -m
wait_screen "(Press h for help or q to quit)" 1
sed -i "1s|^{\$|{ \"call_latency\": {\"nvmlDeviceGetUtilizationRates\": 600},|" "$work/scenario.json"
deadline=$(($(date +%s) + 10))
until grep -q "^nvmlDeviceGetUtilizationRates " "$work/calls" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        echo "the sampling thread never reached the stalled call" >&2
        exit 1
    fi
    sleep 0.05
done
: >"$work/monitor"
i=1
while [ "$i" -le "$count" ]; do
    present=$((i % 2))
    t0=$(now_ns)
    tmux -L "$socket" send-keys -t main h
    wait_screen "$help" "$present"
    echo $(($(now_ns) - t0)) >>"$work/monitor"
    i=$((i + 1))
done
tmux -L "$socket" send-keys -t main q

floor=$(stats "$work/floor")
monitor=$(stats "$work/monitor")
echo "keys answered while the driver is stalled: $count keys each (workstation-2gpu.json)"
printf "%-28s %8s %8s %8s\n" "" "median" "p90" "max"
printf "%-28s %s ms\n" "monitor (driver stalled)" "$monitor"
printf "%-28s %s ms\n" "floor (tmux round trip)" "$floor"
echo "$monitor $floor" | awk '{ printf "%-28s %8.2f %8.2f %8.2f\n", "ratio", \
    ($4 > 0 ? $1 / $4 : 0), ($5 > 0 ? $2 / $5 : 0), ($6 > 0 ? $3 / $6 : 0) }'
echo "target: keys answered within 50 ms (the floor's tmux round trip included)"
