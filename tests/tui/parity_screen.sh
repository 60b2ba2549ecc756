#!/bin/sh
# Main-screen parity with nvitop 1.7 (issue 13, item 5), each found beside nvitop on the bundled
# scenarios: the "@ <clock>MHz" of the MBW/UTL bars from 160 columns, the "╧" that the rule above
# the host panel keeps at the MEM|MBW split, End and Home scrolling to the bottom and top, AVG GPU
# MEM over leaf devices (MIG instances plus non-MIG GPUs), and "No Such Process" after `$`.
. "$(dirname "$0")/tmux_lib.sh"

# rule WIDTH SPLIT: the host panel's top rule, with the joints of the device table, of the graphs
# column (78) and of the bar column's split.
rule() {
    python3 -c '
import sys
width, split = int(sys.argv[1]), int(sys.argv[2])
line = ["═"] * width
line[0], line[32], line[55], line[78], line[-1] = "╞", "╧", "╧", "╪", "╡"
line[split] = "╧"
print("".join(line))' "$1" "$2"
}

# host_rule: the screen line just above "Load Average" (the host panel's top rule).
host_rule() {
    capture | grep -B 1 -F "│ Load Average:" | head -n 1
}

start_standins 20
nvitop_layout
use_scenario h100-8gpu.json

# 1. Clocks and the rule's joint at 160 and 500 columns (full layout: the 2x2 bar grid).  The
# split is at width - right_width - 4 with right_width = (width - 79 - 6) / 2 + 1.
# The scenario's frozen clock makes GPU 3's MBW bar 66% full at 160 columns, which leaves no room
# for its clock (as in once mode): 7 of the 8 bars show it there, all 8 at 500 columns.
for size in 160x80:118:7 500x80:288:8; do
    width=${size%%x*}
    rest=${size#*x}
    height=${rest%%:*}
    rest=${rest#*:}
    split=${rest%:*}
    clocks=${rest#*:}
    start_monitor "$width" "$height" -m full
    wait_for " $NVT_STANDIN_20 C "
    wait_for "@ 2619MHz"
    mbw=$(capture | grep -cE "MBW: .* @ [0-9]+MHz │")
    [ "$mbw" = "$clocks" ] ||
        fail "$width columns: $mbw MBW bars end with the memory clock, not $clocks"
    capture | grep -qE "UTL: .* @ [0-9]+MHz │" || fail "$width columns: no UTL bar shows the SM clock"
    if [ "$(host_rule)" != "$(rule "$width" "$split")" ]; then
        fail "$width columns: the rule above the host panel has no ╧ at the MEM|MBW split"
        host_rule >&2
    fi
    keys q
    [ "$(wait_exit)" = 0 ] || fail "exit status at $width columns"
done

# 2. End shows the bottom of the process table, Home scrolls back to the top (full layout, taller
# than the terminal; the first process row fits at the top).
start_monitor 120 60 -m full
wait_for " $NVT_STANDIN_1 C "
keys End
deadline=$(($(date +%s) + 10))
while ! capture | grep -v '^ *$' | tail -n 1 | grep -q '^╘══'; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        fail "End: the process table's bottom border is not on screen"
        capture >&2
        break
    fi
    sleep 0.05
done
capture | grep -v '^ *$' | tail -n 2 | head -n 1 | grep -qF " $NVT_STANDIN_20 C " ||
    fail "End: the last process is not the last row on screen"
keys Home
wait_for "(Press h for help or q to quit)"
[ "$(capture | head -n 1 | grep -c "(Press h for help or q to quit)")" = 1 ] ||
    fail "Home: the screen is not back at the top"
capture | grep -qF " $NVT_STANDIN_1 C " || fail "Home: the first process is not on screen"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after End/Home"

# 3. AVG GPU MEM on the MIG scenario: (18322 + 9612 + 13 + 26000) MiB of
# (19968 + 9984 + 4864 + 40960) MiB = 71.2% over the three MIG instances and GPU 1 (over the two
# physical GPUs it would be 74.7%).  GPU utilisation is known for GPU 1 only.
use_scenario a100-mig.json
start_monitor 120 60 -m full
wait_for "AVG GPU MEM: 71.2%"
wait_for "AVG GPU UTL: 94.0%"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status on the MIG scenario"

# 4. At 80 columns, `$` scrolls the host columns to their end; an exited process keeps its text,
# at the start of the host columns (column 44).
use_scenario workstation-2gpu.json
start_monitor 80 30
wait_for " $NVT_STANDIN_3 X "
kill "$NVT_STANDIN_1"
wait_for "No Such Process"
keys '$'
wait_gone "%CPU"
wait_for "│   0 "
row=$(capture | grep -F " $NVT_STANDIN_1 " || true)
case $row in
*"No Such Process"*) ;;
*) fail "after \$, the exited process's row lost its text: '$row'" ;;
esac
python3 -c 'import sys; sys.exit(sys.argv[1][44:59] != "No Such Process")' "$row" ||
    fail "after \$, 'No Such Process' is not at column 44: '$row'"
keys '^'
wait_for "%CPU"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after \$"
finish
