#!/bin/sh
# --readonly and NVITOP_MONITOR_MODE=readonly: no signal key opens the confirmation box, the
# signal hint is never shown, and the processes survive every signal key.
. "$(dirname "$0")/tmux_lib.sh"

start_standins 3
use_scenario workstation-2gpu.json

check_readonly() {
    wait_for " $NVT_STANDIN_3 X "
    keys Down
    for key in T K k C-c I; do
        keys "$key"
        wait_for "Read-only mode: sending signals is disabled."
        capture | grep -qF "Send signal to" && fail "$key opened the signal box"
        keys Escape Down
    done
    capture | grep -qF "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)" &&
        fail "signal hint shown in read-only mode"
    for i in 1 2 3; do
        eval "pid=\$NVT_STANDIN_$i"
        kill -0 "$pid" || fail "stand-in $i died"
    done
    keys q
    [ "$(wait_exit)" = 0 ] || fail "exit status"
}

start_monitor 120 40 --readonly
check_readonly

NVITOP_MONITOR_MODE=readonly
export NVITOP_MONITOR_MODE
start_monitor 120 40
check_readonly
finish
