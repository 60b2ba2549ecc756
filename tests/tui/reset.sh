#!/bin/sh
# The monitor through a GPU reset (sim/scenarios/gpu-reset.json, rewritten while it runs): GPU 1
# falls off the bus (the row of a lost GPU), then comes back after a reset under a new handle; the
# monitor looks the GPU up again and shows its new figures, GPU 0 unchanged throughout.
. "$(dirname "$0")/tmux_lib.sh"

use_scenario gpu-reset.json
start_monitor 120 40
wait_for "│ N/A   31C  N/A     55W / 400W │  600.0MiB / 80.00GiB │      0%"

LOST_ROW="│ N/A   N/A  N/A      N/A / N/A │            N/A / N/A │     N/A          N/A │"
rewrite_scenario 's|"uuid": "GPU-5e7a1c2d-0b3f-4d6e-8a9b-1c2d3e4f5a02",|&\n      "lost": true,|'
wait_for "$LOST_ROW"
capture | grep -qF "300W / 400W │  39.06GiB / 80.00GiB │     90%" || fail "GPU 0 changed while GPU 1 was lost"

# The reset: new handles, new figures.
rewrite_scenario '/"lost": true,/d' 's|"resets": 1,|"resets": 2,|' \
    's|"used_mib": 600,|"used_mib": 7000,|' 's|"temperature": 31,|"temperature": 44,|'
wait_for "│ N/A   44C  N/A     55W / 400W │   7000MiB / 80.00GiB │      0%"
screen=$(capture)
printf '%s\n' "$screen" | grep -qF "│   1  A100-SXM4-80GB       N/A │ 00000000:0F:00.0 N/A │" ||
    fail "GPU 1's name and bus id after the reset"
printf '%s\n' "$screen" | grep -qF "$LOST_ROW" && fail "a lost row after the reset"
printf '%s\n' "$screen" | grep -qF "300W / 400W │  39.06GiB / 80.00GiB │     90%" || fail "GPU 0 changed"

keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after q"
finish
