#!/bin/sh
# How fast the monitor answers keys while the driver is stalled (issue #5: within 50 ms, even
# while a refresh is under way), against a floor measured in the same run: the same round trip
# through tmux to `cat`, whose keys the terminal echoes at once.  A key's latency is the time from
# `tmux send-keys` until `tmux capture-pane` shows its effect (h opens the help screen, h again
# closes it; not Esc, which waits ESCDELAY to be told from an escape sequence), so both figures
# include tmux's own round trip.  Prints figures; never fails on a time.
#
#   sh bench/monitor/key_latency.sh [BUILD_DIR] [KEYS]      default 40 keys
set -eu

source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$source_dir/build}" && pwd)
count=${2:-40}
nvitop=$build/bin/nvitop
. "$source_dir/bench/bench_lib.sh"
bench_built "$nvitop" "build the project first"
bench_need tmux

socket="nvt-keys-$$"
# Each pane has a server of its own (pane below): clean up the one $socket names at exit.
# shellcheck disable=SC2016
bench_workspace nvt-bench-keys '$socket'
bench_standins 3
cp "$source_dir/sim/scenarios/workstation-2gpu.json" "$work/scenario.json"
export NVML_SIM_SCENARIO="$work/scenario.json" NVML_SIM_CALLS_FILE="$work/calls"

now_ns() {
    date +%s%N
}

# pane COMMAND...: a fresh 120x40 pane running COMMAND, on a server of its own (a server that
# is still shutting down cannot take a new session).
panes=0
pane() {
    tmux -L "$socket" kill-server >/dev/null 2>&1 || true
    panes=$((panes + 1))
    socket="nvt-keys-$$-$panes"
    tmux -L "$socket" -f "$work/tmux.conf" new-session -d -s main -x 120 -y 40 "$@"
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

# median and max in milliseconds
stats() {
    sort -n "$1" | awk '{ v[NR] = $1 } END {
        printf "%8.1f %8.1f", v[int((NR + 1) / 2)] / 1e6, v[NR] / 1e6 }'
}
floor=$(stats "$work/floor")
monitor=$(stats "$work/monitor")
echo "keys answered while the driver is stalled: $count keys each (workstation-2gpu.json)"
printf "%-28s %8s %8s\n" "" "median" "max"
printf "%-28s %s ms\n" "monitor (driver stalled)" "$monitor"
printf "%-28s %s ms\n" "floor (tmux round trip)" "$floor"
echo "$monitor $floor" | awk '{ printf "%-28s %8.2f %8.2f\n", "ratio", \
    ($3 > 0 ? $1 / $3 : 0), ($4 > 0 ? $2 / $4 : 0) }'
echo "target: keys answered within 50 ms (the floor's tmux round trip included)"
