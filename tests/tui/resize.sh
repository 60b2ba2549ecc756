#!/bin/sh
# Resizing: a storm of sizes down to 1x1 and back, narrow terminals showing the width notice
# (docs/nvitop-behaviour.md §3.14), and the screen intact afterwards.
. "$(dirname "$0")/tmux_lib.sh"

start_standins 3
use_scenario workstation-2gpu.json
start_monitor 100 30
wait_for " $NVT_STANDIN_3 X "

for size in 1x1 2x2 10x5 40x3 78x24 79x2 300x80 1x80 80x1 5x5 120x40 70x24; do
    resize "${size%x*}" "${size#*x}"
done
wait_for "nvitop needs at least a width of 79 to render, the"
wait_for "current width is 70."
expect_screen "notice-70x24"

# Keys other than q are ignored while the notice is shown; q still quits later.
keys Down
resize 79 24
wait_for " $NVT_STANDIN_3 X "
wait_for "(Press h for help or q to quit)"
resize 1 1
resize 200 60
wait_for " $NVT_STANDIN_3 X "
wait_for "AVG GPU UTL:"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after the resize storm"
finish
