#!/bin/sh
# Other terminal types: the monitor draws from each terminal's own terminfo strings, so an entry
# with padding ("$<5>" in vt100's) or without colours must still give a clean screen; one that
# cannot move the cursor (dumb) gets the report and a clear error instead.
. "$(dirname "$0")/tmux_lib.sh"

start_standins 2
use_scenario workstation-2gpu.json
for term in vt100 linux screen-256color; do
    [ -n "$(find /usr/share/terminfo /lib/terminfo -name "$term" 2>/dev/null | head -1)" ] || continue
    NVT_TEST_TERM=$term start_monitor 100 30
    wait_for " $NVT_STANDIN_2 "
    wait_for "(Press h for help or q to quit)"
    if capture | grep -qF '$<'; then
        fail "TERM=$term: padding specifications reached the screen"
        capture >&2
    fi
    keys Down
    wait_for "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
    keys q
    [ "$(wait_exit)" = 0 ] || fail "TERM=$term: exit status"
done

NVT_TEST_TERM=dumb start_monitor 100 30
[ "$(wait_exit)" = 1 ] || fail "TERM=dumb: exit status"
wait_for "cannot move the cursor"
wait_for "Driver Version:"
finish
