#!/bin/sh
# Colours and attributes as the terminal shows them (tmux capture-pane -e): the monitor writes
# them itself from terminfo strings, so check the ones every user sees, with and without
# --colorful, and that a terminal without colours gets none.
. "$(dirname "$0")/tmux_lib.sh"

esc=$(printf '\033')
# has_line TEXT: the coloured screen has a line containing TEXT (fixed string, may hold ESC).
has_line() {
    if ! tmux_cmd capture-pane -e -p -t main | grep -qF -- "$1"; then
        fail "no line with '$(printf '%s' "$1" | cat -v)'"
        tmux_cmd capture-pane -e -p -t main | cat -v >&2
    fi
}

start_standins 3
use_scenario workstation-2gpu.json
start_monitor 140 45
wait_for " $NVT_STANDIN_3 X "
# The busy GPU 0 in red, the idle GPU 1 in yellow (its memory is at 15 %), in the device panel
# and as the GPU column of their processes; the help key bold, italic and magenta.
has_line "│${esc}[31m   0  GeForce RTX 3090"
has_line "│${esc}[33m   1  GeForce RTX 3090"
has_line "│${esc}[31m   0${esc}[39m"
has_line "│${esc}[33m   1${esc}[39m"
has_line "(Press ${esc}[1;3m${esc}[35mh"
# The kill box as nvitop 1.7 draws it: the chosen button (SIGKILL after K) reversed on a red
# background (its colours swapped), the other signals' names in red.
keys Down
wait_for "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
keys K
wait_for "Send signal to process "
has_line "${esc}[41mSIG"
has_line "${esc}[31mSIG"
keys Escape
wait_gone "Send signal to process "
# The tree view's signal hint inside its cyan reverse header: keys on yellow, signal names on red
# (reversed, they read yellow and red on cyan), a blank before it.
keys t
wait_for "NLWP"
has_line "${esc}[43m^C"
has_line "${esc}[41mINT"
has_line "${esc}[41mKILL"
keys t
wait_for " $NVT_STANDIN_3 X "
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"

# --colorful: the bars take the 256-colour gradient.
start_monitor 140 45 --colorful
wait_for " $NVT_STANDIN_3 X "
has_line "${esc}[38;5;"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status with --colorful"

# A terminal without colours: attributes only.
NVT_TEST_TERM=vt100 start_monitor 140 45
wait_for " $NVT_STANDIN_3 X "
if tmux_cmd capture-pane -e -p -t main | grep -q "${esc}\[[34][0-7]m\|${esc}\[38;5"; then
    fail "colours on a terminal without colours"
fi
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status on vt100"
finish
