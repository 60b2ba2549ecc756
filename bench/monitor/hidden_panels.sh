#!/bin/sh
# What hidden panels and the bandwidth column cost the monitor (issue 12): NVML calls (the
# simulator's counts) and system calls on /proc files (strace -y: open, read and pread of any
# descriptor under /proc) per second, on the 8-GPU scenario with 20 stand-ins, for
#   shown       the default layout at 120 columns (nvitop's)
#   host-hidden the same with "host-panel = hide" in the settings
#   bandwidth   200 columns: the PCIe/NVLink column shown (the PCIe query: 20 ms per GPU)
# and the ratios host-hidden / shown.  Prints figures; never fails on a number.
#
#   sh bench/monitor/hidden_panels.sh [BUILD_DIR] [SECONDS]     default 10 s each
set -eu
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$source_dir/build}" && pwd)
seconds=${2:-10}
nvitop=$build/bin/nvitop
. "$source_dir/bench/bench_lib.sh"
bench_built "$nvitop" "build the nvitop-bin target"
bench_need tmux
bench_need strace

socket="nvt-bench-hidden-$$"
bench_workspace nvt-bench-hidden "$socket"
export NVML_SIM_SCENARIO="$source_dir/sim/scenarios/h100-8gpu.json"
export XDG_CONFIG_HOME="$work/config" NVITOP_SYSTEM_CONFIG="$work/none.conf"
export XDG_STATE_HOME="$work/state"
bench_standins 20
printf '[layout]\nhost-panel = hide\n' >"$work/hidden.conf"
printf '[layout]\nhost-panel = show\n' >"$work/shown.conf"

# measure LABEL WIDTH CONFIG: run the monitor under strace in a WIDTHx50 pane for $seconds after
# its first screen, quit, and print "nvml_calls pcie_calls proc_syscalls lifetime_s".
measure() {
    label=$1 width=$2 config=$3
    tmux -L "$socket" kill-server >/dev/null 2>&1 || true
    cat >"$work/run.sh" <<RUN
export NVML_SIM_CALLS_FILE='$work/calls-$label'
exec strace -f -y -qq -e trace=openat,read,pread64 -o '$work/strace-$label' \
    '$nvitop' -m full --config '$config'
RUN
    started=$(date +%s.%N)
    tmux -L "$socket" -f "$work/tmux.conf" new-session -d -s main -x "$width" -y 50 \
        sh "$work/run.sh"
    deadline=$(($(date +%s) + 30))
    until tmux -L "$socket" capture-pane -p -t main | grep -qF "Processes:"; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            echo "$label did not start" >&2
            exit 1
        fi
        sleep 0.1
    done
    sleep "$seconds"
    tmux -L "$socket" send-keys -t main q
    deadline=$(($(date +%s) + 30))
    while [ ! -s "$work/calls-$label" ] && [ "$(date +%s)" -lt "$deadline" ]; do
        sleep 0.1
    done
    sleep 0.5
    lifetime=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    nvml=$(awk '{ n += $2 } END { print n + 0 }' "$work/calls-$label")
    pcie=$(awk '$1 == "nvmlDeviceGetPcieThroughput" { n = $2 } END { print n + 0 }' \
        "$work/calls-$label")
    proc=$(grep -c '</proc' "$work/strace-$label" || true)
    echo "$nvml $pcie $proc $lifetime"
}

shown=$(measure shown 120 "$work/shown.conf")
hidden=$(measure hidden 120 "$work/hidden.conf")
wide=$(measure wide 200 "$work/shown.conf")
awk -v shown="$shown" -v hidden="$hidden" -v wide="$wide" -v seconds="$seconds" '
function row(name, text,   f) {
    split(text, f, " ")
    printf "%-12s %12.1f %12.1f %14.1f\n", name, f[1] / f[4], f[2] / f[4], f[3] / f[4]
    rate[name] = f[3] / f[4]; nvml[name] = f[1] / f[4]
}
BEGIN {
    printf "monitor on h100-8gpu.json, -m full, %d s after the first screen (rates over the\n", seconds
    printf "whole life of each run, start-up included; strace slows the program down)\n"
    printf "%-12s %12s %12s %14s\n", "", "nvml_calls/s", "pcie_calls/s", "proc_syscalls/s"
    row("shown", shown); row("host-hidden", hidden); row("bandwidth", wide)
    printf "host-hidden / shown: nvml %.2f, /proc %.2f: /proc/meminfo, loadavg, uptime and\n",
        nvml["host-hidden"] / nvml["shown"], rate["host-hidden"] / rate["shown"]
    printf "sys/kernel/hostname are no longer read; the process columns (%%CPU, %%MEM, TIME,\n"
    printf "COMMAND) still read /proc/<pid>/* and /proc/stat, as they show them\n"
}'
