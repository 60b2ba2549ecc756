#!/bin/sh
# The monitor's heap at 200x60: curses keeps its windows (stdscr, curscr, newscr: 28 bytes a
# cell, 984 KiB at this size) one column wide, since the monitor draws the terminal itself
# (docs/architecture.md, the terminal layer).  Measured after the first screen, after a resize to
# 200x60 and after a stop (^Z) that curses' windows pass at the full size.  The bound leaves room
# on both sides: 530-570 KiB with the narrow windows, 1,210-1,680 KiB with full-size ones.
. "$(dirname "$0")/tmux_lib.sh"

skip_under_asan

BOUND_KIB=900

check_heap() {
    kib=$(heap_kib "$monitor")
    echo "heap after $1: $kib KiB ($(grep RssAnon "/proc/$monitor/status" | tr -s "\t " " "))"
    [ "$kib" -gt 0 ] || fail "no [heap] mapping in /proc/$monitor/smaps"
    [ "$kib" -le "$BOUND_KIB" ] || fail "heap after $1: $kib KiB, more than $BOUND_KIB KiB"
}

start_standins 2
use_scenario workstation-2gpu.json
start_monitor 200 60
wait_for " $NVT_STANDIN_2 "
wait_for "Driver Version:"
shell=$(tmux_cmd display-message -p -t main '#{pane_pid}')
monitor=$(child_of "$shell") || fail "no monitor process under the pane's shell"
check_heap "the first screen"

# Only the character type's locale is set (src/cmd/nvitop/output/console.c): where the locale's
# categories are files of their own (Debian's C.UTF-8), only LC_CTYPE's is mapped.
if grep -q '/LC_CTYPE$' "/proc/$monitor/maps"; then
    others=$(grep -E '/LC_[A-Z_]+(/SYS_LC_MESSAGES)?$' "/proc/$monitor/maps" | grep -v '/LC_CTYPE$' |
        awk '{ print $NF }' | sort -u)
    [ -z "$others" ] || fail "locale categories mapped beside LC_CTYPE: $others"
fi

# wait_clears COUNT: poll until the recorded pane was cleared COUNT times (each whole redraw
# clears it first).
wait_clears() {
    wait_recorded '\033[2J' "$1" "the screen was not drawn again"
}

record_pane
resize 120 40
wait_clears 1
resize 200 60
wait_clears 2
wait_for "Driver Version:"
check_heap "a resize"

# The pane's command has no job control: the stop is discarded and the monitor takes the screen
# back at once (see stop_continue.sh), through the same path as after fg.
record_pane
kill -TSTP "$monitor"
wait_smcup 1
wait_for "Driver Version:"
check_heap "a stop"

# curses' windows are one column wide, but a click anywhere still reaches the monitor: one near the
# right edge (SGR report, as xterm sends it) on the first process row selects it.
row=$(capture | grep -nF " $NVT_STANDIN_1 " | head -n 1 | cut -d: -f1)
if [ -n "$row" ]; then
    keys -l "$(printf '\033[<0;199;%sM\033[<0;199;%sm' "$row" "$row")"
    wait_for "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
else
    fail "no row for stand-in 1"
fi

keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
finish
