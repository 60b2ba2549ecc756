#!/bin/sh
# The monitor under a GPU lost in the middle of a snapshot (sim/scenarios/fault-realism.json: GPU 3
# answers GPU_IS_LOST from its 9th query on): the row of a lost GPU, no value read before the loss
# beside N/A ones, the other GPUs unchanged, and q still quits cleanly.
. "$(dirname "$0")/tmux_lib.sh"

use_scenario fault-realism.json
start_monitor 120 50
wait_for "ERROR: GPU is Lost" 20
screen=$(capture)
printf '%s\n' "$screen" | grep -qF "│   3  ERROR: GPU is Lost   N/A │ N/A              N/A │                  N/A │" ||
    fail "no lost-GPU row"
printf '%s\n' "$screen" | grep -qF "│ N/A   N/A  N/A      N/A / N/A │            N/A / N/A │     N/A          N/A │" ||
    fail "the lost GPU shows values"
printf '%s\n' "$screen" | grep -qF "300W / 400W │  39.06GiB / 80.00GiB │" || fail "GPU 0 changed"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after q"
finish
