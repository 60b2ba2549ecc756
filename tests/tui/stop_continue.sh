#!/bin/sh
# Stopped (SIGTSTP, as ^Z sends) and continued: curses repaints its own blank idea of the screen,
# so the monitor must draw everything again, not only what changed since; keys still work.
. "$(dirname "$0")/tmux_lib.sh"

start_standins 2
use_scenario workstation-2gpu.json
start_monitor 120 40
wait_for " $NVT_STANDIN_2 "
wait_for "Driver Version:"
shell=$(tmux_cmd display-message -p -t main '#{pane_pid}')
monitor=$(child_of "$shell") || fail "no monitor process under the pane's shell"

# curses stops the whole process group (the pane's shell too): continue both.
kill -TSTP "$monitor"
wait_gone "Driver Version:"
kill -CONT "$monitor" "$shell"
# The header never changes: it is back only if the whole screen was drawn again.
wait_for "Driver Version:"
wait_for " $NVT_STANDIN_2 "
press_until "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)" Down
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after a stop and continue"
finish
