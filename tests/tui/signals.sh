#!/bin/sh
# Sending signals through the confirmation box (docs/nvitop-behaviour.md §3.7): SIGKILL to the
# selected stand-in, SIGTERM to two tagged ones, and a process that exits and is replaced while the
# box is open is not signalled (the identity check: pid + create time).
. "$(dirname "$0")/tmux_lib.sh"

# alive PID: the process exists and is not a zombie.
alive() {
    [ -r "/proc/$1/stat" ] || return 1
    state=$(sed -e 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d ' ' -f 1)
    [ -n "$state" ] && [ "$state" != Z ]
}

# wait_dead PID [SECONDS]
wait_dead() {
    deadline=$(($(date +%s) + ${2:-10}))
    while alive "$1"; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "process $1 is still alive"
            return 1
        fi
        sleep 0.05
    done
}

# wait_reaped PID [SECONDS]: the pid is gone from /proc altogether (a zombie still has its
# identity, and signalling a zombie succeeds).
wait_reaped() {
    deadline=$(($(date +%s) + ${2:-10}))
    while [ -e "/proc/$1" ]; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "process $1 was not reaped"
            return 1
        fi
        sleep 0.05
    done
}

start_standins 5
use_scenario workstation-2gpu.json
start_monitor 120 40
wait_for " $NVT_STANDIN_3 X "

# SIGKILL to the selected process (the first row: stand-in 1 on GPU 0).
keys Down
wait_for "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
keys K
wait_for "Send signal to process $NVT_STANDIN_1("
keys Enter
wait_dead "$NVT_STANDIN_1"
wait_gone "Send signal to process"
wait_for "No Such Process"
alive "$NVT_STANDIN_2" || fail "an unselected process died"

# SIGTERM to two tagged processes: stand-in 2 (now first: vanished processes sort last in their
# GPU's group) and stand-in 3 (GPU 1).
keys Down Space Down Space
wait_for "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
keys T
wait_for "Send signal to the following processes?"
wait_for "$NVT_STANDIN_2("
wait_for "$NVT_STANDIN_3("
keys t
wait_dead "$NVT_STANDIN_2"
wait_dead "$NVT_STANDIN_3"

# The selected process exits and another takes its row before the box is confirmed: nothing is
# signalled, and the monitor says why.
rewrite_scenario "s/NVT_STANDIN_1:-/NVT_STANDIN_4:-/" "s/NVT_STANDIN_2:-/NVT_STANDIN_5:-/"
wait_for " $NVT_STANDIN_4 G "
keys Escape Down
wait_for "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
keys I
wait_for "Send signal to process $NVT_STANDIN_4("
kill -9 "$NVT_STANDIN_4"
wait_reaped "$NVT_STANDIN_4"
keys Enter
wait_for "is gone (or its pid was reused): no signal sent."
alive "$NVT_STANDIN_5" || fail "the replacement process was signalled"

keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
finish
