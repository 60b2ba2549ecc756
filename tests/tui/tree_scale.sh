#!/bin/sh
# The tree view (docs/nvitop-behaviour.md §3.8) with a thousand GPU processes
# (h100-8gpu-1000.json behind 1,000 stand-ins; docs/performance.md, "A thousand GPU processes"):
# every GPU process is drawn under its ancestors, the tree reaches its last process, and keys are
# answered while the process lists keep arriving (the sampler reads the tree's host processes;
# src/tui/live/tree_hosts.h).  Waits are bounded; no time is asserted.
. "$(dirname "$0")/tmux_lib.sh"

start_standins 1000
use_scenario h100-8gpu-1000.json
start_monitor 200 60 --interval 0.5
wait_for "worker.pl" 60
keys t
wait_for "PID  USER  DEVICE  NLWP" 20

# Every GPU process row carries a branch: it hangs under an ancestor (the stand-ins' parent, up
# to the root), none of them is a root of its own.
wait_for "├─ perl -e sleep worker.pl" 20
capture >"$WORK/tree.txt"
gpu_rows=$(grep -c "GPU [0-9].*worker\.pl" "$WORK/tree.txt" || true)
[ "$gpu_rows" -ge 50 ] || fail "only $gpu_rows GPU process rows on a 60-row screen"
grep "GPU [0-9].*worker\.pl" "$WORK/tree.txt" | grep -v "[├└]─ perl -e sleep worker\.pl" \
    >"$WORK/roots.txt" || true
[ ! -s "$WORK/roots.txt" ] || {
    fail "GPU processes drawn without an ancestor:"
    cat "$WORK/roots.txt" >&2
}
sed -n 2p "$WORK/tree.txt" | grep -q " Host " || fail "the first row is not an ancestor (Host)"

# Keys while new process lists keep arriving: Right scrolls the tree by 5 cells (the header's PID
# column goes), Left brings it back, End selects the last process, at the end of the tree.
header_scrolled() {
    capture | head -n 1 | grep -q '^ *PID  USER' && return 1
    return 0
}
wait_header() {
    deadline=$(($(date +%s) + 10))
    while :; do
        if header_scrolled; then scrolled=1; else scrolled=0; fi
        [ "$scrolled" = "$1" ] && return 0
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "the header did not scroll ($2)"
            capture >&2
            return 1
        fi
        sleep 0.05
    done
}
round=1
while [ "$round" -le 5 ]; do
    keys Right
    wait_header 1 "Right, round $round"
    keys Left
    wait_header 0 "Left, round $round"
    round=$((round + 1))
done
keys End
wait_for "└─ perl -e sleep worker.pl" 20
capture | tail -n 1 | grep -q "└─ perl -e sleep worker.pl" ||
    fail "the last row is not the tree's last process"
keys q
wait_gone "PID  USER  DEVICE  NLWP" 20
keys q
[ "$(wait_exit 20)" = 0 ] || fail "exit status"
finish
