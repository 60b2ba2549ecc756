#!/bin/sh
# Every key of the main and help screens (docs/nvitop-behaviour.md §3.12) in a real terminal: help,
# display modes, selection and tags, sorting, horizontal and vertical scrolling, refresh, the signal
# box opened and cancelled, and quitting.  Mouse actions are covered by the unit tests.
. "$(dirname "$0")/tmux_lib.sh"

HINT="(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"

start_standins 3
use_scenario workstation-2gpu.json
start_monitor 120 40
wait_for " $NVT_STANDIN_3 X "

# Help: h and ? open it, any key returns.
for key in h '?'; do
    keys "$key"
    wait_for "Press any key to return."
    wait_for "ob oB: sort by %GMBW"
    wait_for "Ctrl-L: repaint the whole screen"
    keys x
    wait_for "Processes:"
done
capture | grep -qF "Press any key" && fail "help screen still shown"

# Display modes: compact, full, auto.
keys c
wait_for "│ GPU Fan Temp Perf Pwr:Usg/Cap │"
capture | grep -qF "Load Average: " && ! capture | grep -qF "[ CPU:" && fail "host panel not compact"
keys f
wait_for "│ GPU  Name        Persistence-M│"
wait_for "├────────────╴120s├"
keys a
wait_for "│ GPU  Name        Persistence-M│"

# Selection: Down selects the first process, which is ours, so the signal hint appears.
keys Down
wait_for "$HINT"
keys Escape
wait_gone "$HINT"
keys End Up Home Tab BTab
wait_for "$HINT"
keys Escape M-j
wait_for "$HINT"
keys Escape M-k
wait_for "$HINT"
# Tagging moves down; Esc clears tags and selection.
keys Space
wait_for "$HINT"
keys Escape
wait_gone "$HINT"

# Sorting: o + letter, upper case reverses, `,` `.` step, `/` inverts.
keys o c
wait_for "%CPU▼"
keys o C
wait_for "%CPU▲"
keys o b
wait_for "GMBW▼"
keys o p
wait_for "PID▲"
keys /
wait_for "PID▼"
keys .
wait_for "USER▲"
keys '>'
wait_for "GPU-MEM▼"
keys '<'
wait_for "USER▲"
keys , ,
wait_gone "▲"
keys o N
wait_for "│ ID▼"
keys o n
wait_gone "▼"

# Horizontal scrolling of the host columns.
keys Right
wait_for "│ GPU     PID      USER  GPU-MEM %SM %GMBW  CPU  %MEM"
keys C-a
wait_for "│ GPU     PID      USER  GPU-MEM %SM %GMBW  %CPU  %MEM"
keys M-l
wait_for "│ GPU     PID      USER  GPU-MEM %SM %GMBW  CPU  %MEM"
keys M-h
wait_for "│ GPU     PID      USER  GPU-MEM %SM %GMBW  %CPU  %MEM"
keys C-e
wait_gone "%MEM  TIME"
keys C-a
keys '$'
wait_gone "%MEM  TIME"
keys '^'
wait_for "%CPU  %MEM  TIME  COMMAND"

# Refresh keeps the screen and drops the selection.
keys Down
wait_for "$HINT"
keys r
wait_gone "$HINT"
keys F5 C-r R
wait_for "Processes:"

# Signal keys open the box with the right button; Esc and q cancel it.
keys Down
wait_for "$HINT"
keys C-c
wait_for "Send signal to process $NVT_STANDIN_1("
keys Escape
wait_gone "Send signal to process"
keys Down
keys I
wait_for "Send signal to process"
keys q
wait_gone "Send signal to process"
kill -0 "$NVT_STANDIN_1" 2>/dev/null || fail "a cancelled box sent a signal"

# Vertical scrolling: a short terminal scrolls the whole stack (no selection to follow).
keys Escape
resize 120 16
wait_for "(Press h for help or q to quit)"
keys ']'
wait_gone "(Press h for help or q to quit)"
keys '['
wait_for "(Press h for help or q to quit)"
keys PageDown PageDown
wait_gone "(Press h for help or q to quit)"
keys PageUp PageUp
wait_for "(Press h for help or q to quit)"
keys M-J
wait_gone "(Press h for help or q to quit)"
keys M-K
wait_for "(Press h for help or q to quit)"

keys Q

[ "$(wait_exit)" = 0 ] || fail "exit status after Q"
finish
