#!/bin/sh
# The monitor's steady-state cost on the 8-GPU, 20-process scenario, against a floor measured in
# the same run (bench-monitor-floor: the same snapshots on the same schedule, no curses):
# CPU time (utime + stime from /proc), NVML calls per second (the simulator's call counts) and
# resident memory, with ratios.  Prints figures; never fails on a time.
#
#   sh bench/monitor/monitor_bench.sh [BUILD_DIR] [SECONDS]          1 s interval, default 60 s
#   sh bench/monitor/monitor_bench.sh --soak [BUILD_DIR] [SECONDS]   0.25 s interval, default
#                                        600 s: RSS and open descriptors over time (stay flat)
set -eu

mode=bench
if [ "${1:-}" = --soak ]; then
    mode=soak
    shift
fi
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$source_dir/build}" && pwd)
if [ "$mode" = soak ]; then
    seconds=${2:-600}
    interval=0.25
else
    seconds=${2:-60}
    interval=1
fi
nvitop=$build/bin/nvitop
floor=$build/bin/bench-monitor-floor
for program in "$nvitop" "$floor"; do
    [ -x "$program" ] || {
        echo "missing $program: build the nvitop-bin and bench-monitor-floor targets" >&2
        exit 2
    }
done
command -v tmux >/dev/null 2>&1 || {
    echo "tmux is needed (the monitor runs in a tmux pane)" >&2
    exit 2
}

work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-bench-monitor.XXXXXX")
socket="nvt-bench-$$"
cleanup() {
    tmux -L "$socket" kill-server >/dev/null 2>&1 || true
    NVT_STANDIN_STATE="$work/standins" sh "$source_dir/scripts/standins.sh" stop >/dev/null 2>&1 ||
        true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color
export LD_LIBRARY_PATH="$build/sim-driver" NVML_SIM_SCENARIO="$source_dir/sim/scenarios/h100-8gpu.json"
eval "$(NVT_STANDIN_STATE="$work/standins" sh "$source_dir/scripts/standins.sh" start 20)"

ticks_per_s=$(getconf CLK_TCK)
# cpu_ticks PID: utime + stime (fields 14 and 15 of /proc/PID/stat, counted after the ')').
cpu_ticks() {
    sed -e 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}
rss_kib() {
    awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}
fd_count() {
    ls "/proc/$1/fd" | wc -l
}
sum_calls() {
    [ -s "$1" ] && awk '{ n += $2 } END { print n + 0 }' "$1" || echo 0
}

# The monitor, in a 200x60 pane (exec: the pane's pid is the monitor's).
echo "set -g status off" >"$work/tmux.conf"
tmux -L "$socket" -f "$work/tmux.conf" new-session -d -s main -x 200 -y 60 \
    "export NVML_SIM_CALLS_FILE='$work/calls-monitor'; exec '$nvitop' -m --interval $interval"
pid=$(tmux -L "$socket" display-message -p -t main '#{pane_pid}')
deadline=$(($(date +%s) + 20))
until tmux -L "$socket" capture-pane -p -t main | grep -qF "Processes:"; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        echo "the monitor did not start" >&2
        exit 1
    fi
    sleep 0.1
done

if [ "$mode" = soak ]; then
    step=$((seconds / 20 > 0 ? seconds / 20 : 1))
    echo "soak: ${seconds}s at ${interval}s interval; monitor pid $pid"
    printf '%8s %10s %6s\n' elapsed_s rss_kib fds
    elapsed=0
    while [ "$elapsed" -le "$seconds" ]; do
        printf '%8d %10d %6d\n' "$elapsed" "$(rss_kib "$pid")" "$(fd_count "$pid")"
        sleep "$step"
        elapsed=$((elapsed + step))
    done
    tmux -L "$socket" send-keys -t main q
    exit 0
fi

start_ticks=$(cpu_ticks "$pid")
start_time=$(date +%s.%N)
sleep "$seconds"
end_ticks=$(cpu_ticks "$pid")
end_time=$(date +%s.%N)
rss=$(rss_kib "$pid")
tmux -L "$socket" send-keys -t main q
deadline=$(($(date +%s) + 20))
while [ -d "/proc/$pid" ] && [ "$(date +%s)" -lt "$deadline" ]; do
    sleep 0.1
done
monitor_calls=$(sum_calls "$work/calls-monitor")

floor_out=$(NVML_SIM_CALLS_FILE="$work/calls-floor" "$floor" "$seconds" "$interval")
floor_calls=$(sum_calls "$work/calls-floor")

awk -v ticks="$((end_ticks - start_ticks))" -v hz="$ticks_per_s" -v t0="$start_time" \
    -v t1="$end_time" -v rss="$rss" -v calls="$monitor_calls" -v seconds="$seconds" \
    -v floor="$floor_out" -v fcalls="$floor_calls" 'BEGIN {
    split(floor, f, /[ =]/)
    wall = t1 - t0
    cpu = ticks / hz
    fcpu = f[2]; frss = f[4]
    pct = 100 * cpu / wall; fpct = 100 * fcpu / seconds
    rate = calls / seconds; frate = fcalls / seconds
    printf "monitor on h100-8gpu.json, 1 s interval, %.0f s (20 stand-in processes)\n", wall
    printf "%-8s %12s %12s %14s %10s\n", "", "cpu_s", "cpu_%core", "nvml_calls/s", "rss_kib"
    printf "%-8s %12.3f %12.4f %14.1f %10d\n", "monitor", cpu, pct, rate, rss
    printf "%-8s %12.3f %12.4f %14.1f %10d\n", "floor", fcpu, fpct, frate, frss
    printf "ratio    %12s %12.2f %14.2f %10.2f\n", "", (fpct > 0 ? pct / fpct : 0), \
        (frate > 0 ? rate / frate : 0), (frss > 0 ? rss / frss : 0)
    printf "targets: cpu <= 0.10 %% of a core (nvtop), nvml calls/s <= 100, rss <= 8192 KiB\n"
    printf "note: cpu_s counts clock ticks (1/%d s); run longer for finer figures\n", hz
}'
