#!/bin/sh
# The process metrics screen (docs/nvitop-behaviour.md §3.10): Enter on a selected process opens it,
# its value row and graph labels follow the process as the scenario changes, %DEC shows the decoder
# (nvitop shows the encoder), g/G switch the lower-right graph, h and e show the help and the
# process's environment and come back, Enter, Esc, q and Q return to the main screen (q does not
# quit), and a process that exits while its screen is open keeps its graphs under an "exited" mark.
. "$(dirname "$0")/tmux_lib.sh"

MAIN="(Press h for help or q to quit)"

start_standins 3
use_scenario workstation-2gpu.json
# Encoder and decoder differ, so that the %DEC column shows which one it is.
rewrite_scenario '/NVT_STANDIN_2/s/"enc": 0, "dec": 0/"enc": 7, "dec": 33/'
start_monitor 100 40
wait_for " $NVT_STANDIN_3 X "

# Without a selection Enter does nothing: once the Down after it has selected the first row, the
# Enter was handled too (keys are taken in order).
keys Enter Down
wait_for "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
capture | grep -qF "Process:" && fail "Enter without a selection opened the metrics screen"

# The second row: the compute job on GPU 0.
keys Down
keys Enter
wait_for "%DEC"
# GPU, pid + type, user, GPU-MEM, %SM, %GMBW, %ENC, %DEC (the decoder's 33, not the encoder's 7).
capture | grep -qE "│ +0 +$NVT_STANDIN_2 C [^ ]+ +19800MiB +85 +40 +7 +33 " ||
    fail "value row of the metrics screen"
capture | grep -qE "^│ GPU +PID +USER +GPU-MEM +%SM %GMBW %ENC %DEC +%CPU +%MEM +TIME +COMMAND" ||
    fail "header row of the metrics screen"
wait_for "GPU-SM: 85.0%"
wait_for "GPU-MEM: 19800MiB (80.6%)"
wait_for "MAX GPU-MEM: 19800MiB (80.6%) / 24.00GiB"
capture | grep -qF "╴30s├" || fail "time marks"
capture | grep -qF "├╴" || fail "y-ticks"

# Over time: the job shrinks and slows down; the value row and the labels follow, the maxima stay.
rewrite_scenario '/NVT_STANDIN_2/s/"used_mib": 19800, "sm": 85/"used_mib": 5000, "sm": 20/'
wait_for " 5000MiB "
wait_for "  GPU-SM: 20.0%"
wait_for "GPU-MEM: 5000MiB (20.3%)"
capture | grep -qF "MAX GPU-SM: 85.0%" || { fail "MAX GPU-SM after the change"; capture >&2; }
capture | grep -qF "MAX GPU-MEM: 19800MiB (80.6%)" || fail "MAX GPU-MEM after the change"

# g cycles the lower-right graph: memory bandwidth, encoder, decoder, SM; G goes back.
keys g
wait_for "GPU-MBW: 40.0%"
keys g
wait_for "GPU-ENC: 7.0%"
keys g
wait_for "GPU-DEC: 33.0%"
keys g
wait_for "GPU-SM: 20.0%"
keys G
wait_for "GPU-DEC: 33.0%"

# Help and back.
keys h
wait_for "Press any key to return."
capture | grep -qF "g G: metrics screen" || fail "the help screen lists g G"
keys x
wait_for "GPU-DEC: 33.0%"

# The environment of the same process and back.
keys e
wait_for "Environment of process $NVT_STANDIN_2"
keys e
wait_for "GPU-DEC: 33.0%"

# Every way back to the main screen; q there does not quit.
for key in Escape q Q Enter; do
    keys "$key"
    wait_for "$MAIN"
    wait_gone "Process:"
    keys Enter
    wait_for "%DEC"
done
[ -s "$WORK/exit" ] && fail "q on the metrics screen quit the monitor"
keys Escape
wait_for "$MAIN"

# The C+G job on GPU 1 exits while its metrics screen is open: the graphs stay, marked.
keys Down
keys Enter
wait_for "%DEC"
capture | grep -qE "│ +1 +$NVT_STANDIN_3 X " || fail "metrics screen of the C+G job"
wait_for "MAX GPU-MEM: 3400MiB (13.8%)" # a completed second: the graphs have a column
kill "$NVT_STANDIN_3"
wait_for "exited at"
capture | grep -qF "MAX GPU-MEM: 3400MiB (13.8%)" || fail "the graphs' labels vanished at the exit"
capture | grep -qF "⢸│" || { fail "the graphs vanished at the exit"; capture >&2; }
# Frozen: nothing is read any more.  The positive sign that time went by for the monitor, in
# place of a fixed sleep: its sampler went on reading (the read system calls of /proc/PID/io grew
# by what two passes make, about 6 a second on this screen; the UI thread reads nothing without
# a key).
shell=$(tmux_cmd display-message -p -t main '#{pane_pid}')
monitor=$(child_of "$shell") || fail "no monitor process under the pane's shell"
reads() {
    awk '$1 == "syscr:" { print $2 }' "/proc/$monitor/io"
}
capture >"$WORK/exited-1"
before=$(reads)
deadline=$(($(date +%s) + 20))
while [ "$(($(reads) - before))" -lt 12 ]; do
    [ "$(date +%s)" -lt "$deadline" ] || {
        fail "the monitor's sampler read nothing more after the exit"
        break
    }
    sleep 0.1
done
capture >"$WORK/exited-2"
cmp -s "$WORK/exited-1" "$WORK/exited-2" || fail "the graphs of an exited process kept changing"
keys q
wait_for "$MAIN"

keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
finish
