#!/bin/sh
# Layout control and the settings file in a real terminal (issue 12): the H, P, b, g, G, + and -
# keys with the text they show, the bandwidth column with the scenario's PCIe figures, S saving
# the settings atomically and a new monitor starting from them, and the PCIe query skipped when
# nothing shows it and made every 5 s for the column alone, and two clocks per GPU read, not four
# (the simulator's call counts).
. "$(dirname "$0")/tmux_lib.sh"

# pcie_calls: nvmlDeviceGetPcieThroughput calls of the last monitor (after it quit).
pcie_calls() {
    awk '$1 == "nvmlDeviceGetPcieThroughput" { n = $2 } END { print n + 0 }' "$WORK/calls"
}

# host_rows: the rows of the host panel (from "Load Average" to the "SWP" row).
host_rows() {
    capture | awk '/│ Load Average:/ { start = NR } /│ SWP: / { print NR - start + 1; exit }'
}

# clock_ticks N: wait until the clock line has changed N times (the sampler takes a snapshot every
# second, so more than N - 1 snapshots were taken meanwhile).
clock_ticks() {
    n=0
    last=$(capture | head -n 1)
    deadline=$(($(date +%s) + 10 + $1))
    while [ "$n" -lt "$1" ]; do
        now=$(capture | head -n 1)
        if [ "$now" != "$last" ]; then
            n=$((n + 1))
            last=$now
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "the clock did not tick $1 times"
            return 1
        fi
        sleep 0.05
    done
}

start_standins 3
use_scenario h100-8gpu.json
export NVML_SIM_CALLS_FILE="$WORK/calls"

# 1. A settings file: host panel hidden, power on the upper graph, graphs 3 rows tall, colourful;
# the theme and the thresholds from the command line (saved with the rest by S).
user_settings "# test" "[monitor]" "colors = colorful" "[layout]" "host-panel = hide" \
    "graph-upper = power" "graph-height = 3" "[collect]" "tag = kept"
start_monitor 120 70 -m full --light --gpu-util-thresh 60 20
wait_for "Processes:"
capture | grep -qF "Load Average" && fail "host panel shown although the settings hide it"
capture | grep -qF "PCIe" && fail "bandwidth column at 120 columns"
# The process panel still names the host (not sampled with the host panel hidden).
capture | grep -qF "@$(uname -n | cut -c 1-8)" || fail "no host name in the process panel"
keys H
wait_for "│ Load Average:"
wait_for " AVG GPU PWR: "
wait_for " AVG GPU UTL: "
[ "$(host_rows)" = 7 ] || fail "host panel graphs are $(host_rows) rows, not 7 (height 3)"
keys +
wait_for " AVG GPU PWR: "
[ "$(host_rows)" = 9 ] || fail "+ did not make the graphs taller: $(host_rows) rows"
# g and G step the upper and lower graphs to their next metric.
keys g
wait_for " AVG GPU RX: "
keys G
wait_for " AVG GPU MEM: "
# P hides and shows the process panel.
keys P
wait_gone "Processes:"
keys P
wait_for "Processes:"
# S saves the settings; the file is whole and no temporary is left beside it.
keys S
wait_for "Settings saved to $WORK/config/nvitop/nvitop.conf"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after S"
saved="$WORK/config/nvitop/nvitop.conf"
for line in "mode = full" "host-panel = show" "process-panel = show" "graph-upper = pcie-rx" \
    "graph-lower = memory" "graph-height = 4" "sort = natural" "tag = kept" "theme = light" \
    "colors = colorful" "gpu-util-thresh = 20 60" "mem-util-thresh = 10 80"; do
    grep -qxF "$line" "$saved" || fail "saved settings lack '$line'"
done
[ "$(ls "$WORK/config/nvitop")" = nvitop.conf ] || fail "files beside the settings: $(ls "$WORK/config/nvitop")"
# A PCIe graph needs the PCIe query.
[ "$(pcie_calls)" -gt 0 ] || fail "no PCIe query while a graph plotted PCIe RX"

# 2. A new monitor starts from the saved settings (mode full came from the file, not -m).
start_monitor 120 70
wait_for " AVG GPU RX: "
wait_for " AVG GPU MEM: "
[ "$(host_rows)" = 9 ] || fail "graph height not restored: $(host_rows) rows"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after reload"

# 3. Nothing shows PCIe: the 20 ms query is never made.
user_settings "[monitor]" "mode = full"
start_monitor 120 70
wait_for " AVG GPU MEM: "
wait_for " AVG GPU UTL: "
clock_ticks 3
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status without bandwidth"
[ "$(pcie_calls)" = 0 ] || fail "$(pcie_calls) PCIe queries while nothing showed PCIe"
# The bars show the SM and memory clocks only: two clock queries per GPU and snapshot (one
# utilisation query per GPU and snapshot), not the four of NVT_SAMPLE_CLOCKS; only the closing
# report after q reads all four clocks of the 8 GPUs.
clocks=$(awk '$1 == "nvmlDeviceGetClockInfo" { n = $2 } END { print n + 0 }' "$WORK/calls")
utils=$(awk '$1 == "nvmlDeviceGetUtilizationRates" { n = $2 } END { print n + 0 }' "$WORK/calls")
[ "$utils" -gt 16 ] && [ "$clocks" = $((2 * (utils - 8) + 4 * 8)) ] ||
    fail "$clocks clock queries for $utils utilisation queries (expected 2 per GPU and snapshot)"

# 4. The bandwidth column from 140 columns: the scenario's PCIe figures, NVLink below; b hides
# and shows it.
start_monitor 160 70 -m full
wait_for "│ PCIe   RX   3.43GiB/s  TX  692.4MiB/s │"
# The help screen names the layout and save keys.
keys h
wait_for "      H P b: toggle host/process/bandwidth      g G: upper/lower graph metric"
wait_for "        + -: graph height                         S: save the settings"
keys x
wait_for "│ PCIe   RX   3.43GiB/s  TX  692.4MiB/s │"
wait_for "│ NVLink RX "
keys b
wait_gone "PCIe   RX"
keys b
wait_for "│ PCIe   RX   3.43GiB/s  TX  692.4MiB/s │"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status with bandwidth"
[ "$(pcie_calls)" -gt 0 ] || fail "no PCIe query while the bandwidth column was shown"

# 5. The column alone reads PCIe with the slow fields (every 5 s), not with every snapshot: the
# 20 ms query sleeps 16 times per reading on 8 GPUs.  Counted in readings, not in time: a
# snapshot reads each GPU's utilisation once, a PCIe reading makes two queries per GPU.
start_monitor 160 70 -m full
wait_for "│ PCIe   RX   3.43GiB/s  TX  692.4MiB/s │"
clock_ticks 8
wait_for "│ PCIe   RX   3.43GiB/s  TX  692.4MiB/s │"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status with the column alone"
snapshots=$(awk '$1 == "nvmlDeviceGetUtilizationRates" { print int($2 / 8) }' "$WORK/calls")
readings=$(($(pcie_calls) / 16))
[ "$snapshots" -ge 8 ] || fail "only $snapshots snapshots in 8 clock ticks"
[ $((readings * 5)) -le $((snapshots + 10)) ] ||
    fail "$readings PCIe readings in $snapshots snapshots: not every 5 s"

finish
