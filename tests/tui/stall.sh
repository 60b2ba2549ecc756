#!/bin/sh
# A stalled driver (issue #5): the scenario is rewritten so that a query the sampling thread makes
# every refresh stalls for a long time.  While the thread is stuck in it, keys and the mouse are
# still answered, and q quits at once: the terminal is restored, the exit status is 0, and no
# report is printed (it would need the driver).  The deadlines are far shorter than the stall, so
# passing proves that the UI never waited for the driver.
. "$(dirname "$0")/tmux_lib.sh"

STALL_S=60
DEADLINE_S=5
HINT="(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"

# The simulator writes its call counts when a call begins a stall (docs/scenarios.md), so the
# file appearing while the monitor runs says that the sampling thread is now stuck.
NVML_SIM_CALLS_FILE="$WORK/calls.txt"
export NVML_SIM_CALLS_FILE

start_standins 3
use_scenario workstation-2gpu.json

# For comparison, a healthy driver: q prints the final report (docs/nvitop-behaviour.md §1.5 step
# 11).
start_monitor 120 40
wait_for " $NVT_STANDIN_3 X "
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after q"
wait_for "Driver Version:"
rm -f "$NVML_SIM_CALLS_FILE"

start_monitor 120 40
wait_for " $NVT_STANDIN_3 X "
[ ! -e "$NVML_SIM_CALLS_FILE" ] || fail "call counts written before the stall"

# Memory and utilisation are read every second; utilisation stalls from now on.
rewrite_scenario "1s|^{\$|{ \"call_latency\": {\"nvmlDeviceGetUtilizationRates\": $STALL_S},|"
stall_start=$(date +%s)
deadline=$((stall_start + 10))
until grep -q "^nvmlDeviceGetUtilizationRates " "$NVML_SIM_CALLS_FILE" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        fail "the sampling thread never reached the stalled call"
        break
    fi
    sleep 0.05
done
stall_start=$(date +%s)

# Keys: select a process, open and close the help screen, clear the selection.
keys Down
wait_for "$HINT" "$DEADLINE_S"
keys h
wait_for "Press any key to return." "$DEADLINE_S"
keys h
wait_gone "Press any key to return." "$DEADLINE_S"
wait_for "$HINT" "$DEADLINE_S"
keys Escape
wait_gone "$HINT" "$DEADLINE_S"
wait_for "(Press h for help or q to quit)" "$DEADLINE_S"

# The mouse: a click (SGR report, as xterm sends it) on the first process row selects it.
row=$(capture | grep -nF " $NVT_STANDIN_1 " | head -n 1 | cut -d: -f1)
if [ -n "$row" ]; then
    keys -l "$(printf '\033[<0;20;%sM\033[<0;20;%sm' "$row" "$row")"
    wait_for "$HINT" "$DEADLINE_S"
else
    fail "no row for stand-in 1"
fi

# Quitting: at once, with the normal status, the terminal back to the shell's screen.
keys q
[ "$(wait_exit "$DEADLINE_S")" = 0 ] || fail "exit status after q during a stall"
[ "$(tmux_cmd display-message -p -t main '#{alternate_on}')" = 0 ] ||
    fail "the terminal was left in the alternate screen"
wait_gone "(Press h for help or q to quit)" "$DEADLINE_S"
capture | grep -qF "Driver Version:" && fail "a report was printed from a stalled driver"
[ $(($(date +%s) - stall_start)) -lt "$STALL_S" ] || fail "the test outlived the stall"
finish
