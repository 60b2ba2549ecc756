#!/bin/sh
# The monitor's first screen at 80x24, 120x40 and 200x60, and in ASCII mode, against expected
# text (host figures masked by normalize.py), on the simulated 2-GPU workstation with stand-ins.
. "$(dirname "$0")/tmux_lib.sh"

start_standins 3
nvitop_layout
use_scenario workstation-2gpu.json

for size in 80x24 120x40 200x60; do
    width=${size%x*}
    height=${size#*x}
    start_monitor "$width" "$height"
    wait_for " $NVT_STANDIN_3 X "
    expect_screen "first-$size"
    keys q
    [ "$(wait_exit)" = 0 ] || fail "exit status after q at $size"
done

# ASCII mode: every frame character translated, the host panel always compact.
start_monitor 100 40 --ascii
wait_for " $NVT_STANDIN_3 X "
expect_screen "first-100x40-ascii"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after q in ASCII mode"
finish
