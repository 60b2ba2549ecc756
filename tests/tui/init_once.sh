#!/bin/sh
# One monitor session, then the report printed after it: the driver is initialised and shut down
# exactly once per process (the monitor's sampling thread borrows the program's context), which
# is what the simulator's call counts show.
. "$(dirname "$0")/tmux_lib.sh"

use_scenario workstation-2gpu.json
NVML_SIM_CALLS_FILE="$WORK/calls"
export NVML_SIM_CALLS_FILE
start_monitor 100 30
wait_for "(Press h for help or q to quit)"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
[ -s "$WORK/calls" ] || fail "the simulator wrote no call counts"
inits=$(awk '$1 ~ /^nvmlInit/ { n += $2 } END { print n + 0 }' "$WORK/calls")
shutdowns=$(awk '$1 == "nvmlShutdown" { n += $2 } END { print n + 0 }' "$WORK/calls")
[ "$inits" = 1 ] || fail "nvmlInit called $inits times"
[ "$shutdowns" = 1 ] || fail "nvmlShutdown called $shutdowns times"
finish
