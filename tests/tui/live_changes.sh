#!/bin/sh
# Changes while the monitor runs (the simulator re-reads a rewritten scenario): a process appears
# on a GPU, one leaves the driver's list, one exits on the host while the driver still lists it,
# and a GPU falls off the bus; the rest of the screen keeps updating.
. "$(dirname "$0")/tmux_lib.sh"

start_standins 4
use_scenario workstation-2gpu.json
start_monitor 120 40
wait_for " $NVT_STANDIN_3 X "

# A new process on GPU 1.
rewrite_scenario '/NVT_STANDIN_3/s|}$|}, { "pid": "${NVT_STANDIN_4:-1}", "type": "compute", "used_mib": 1234, "sm": 5, "mem": 1, "enc": 0, "dec": 0 }|'
wait_for " $NVT_STANDIN_4 C "
capture | grep -F " $NVT_STANDIN_4 C " | grep -qF "1234MiB" || fail "new process row"

# The driver stops listing a process.
rewrite_scenario '/NVT_STANDIN_2/d' '/NVT_STANDIN_1/s/},$/}/'
wait_gone " $NVT_STANDIN_2 C "

# A listed process exits on the host: its row says so.
kill "$NVT_STANDIN_1"
wait_for "No Such Process"

# GPU 1 falls off the bus: like nvitop, a device lost after start-up keeps its name and shows N/A
# everywhere; GPU 0 keeps its figures.
LOST_ROW="│ N/A   N/A  N/A      N/A / N/A │            N/A / N/A │     N/A          N/A │"
rewrite_scenario 's|"uuid": "GPU-a2c47f09-61d3-4b8e-b5f0-7e9d4c1a8b63",|&\n      "lost": true,|'
wait_for "$LOST_ROW"
capture | grep -qF "20110MiB / 24.00GiB" || fail "GPU 0 disappeared after GPU 1 was lost"

# And back.
rewrite_scenario '/"lost": true,/d'
wait_gone "$LOST_ROW"
wait_for "3700MiB / 24.00GiB"

keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
finish
