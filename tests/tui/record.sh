#!/bin/sh
# `nvitop --record FILE` in the monitor: the file grows while the monitor runs (a reader sees the
# frames recorded so far), a change of the machine shows up in the recording, and the report
# printed after the session is not recorded a second time.
. "$(dirname "$0")/tmux_lib.sh"

use_scenario workstation-2gpu.json
REC="$WORK/monitor.nvtrec"
replay_json() {
    LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-} "$NVITOP" --json --replay "$REC" "$@" 2>"$WORK/replay.err"
}
start_monitor 120 30 --record "$REC" --interval 0.5
wait_for "(Press h for help or q to quit)"
# GPU 0's memory changes; the monitor samples it and records it.
rewrite_scenario 's/"used_mib": 20110/"used_mib": 12345/'
deadline=$(($(date +%s) + 15))
until replay_json | grep -qF '"memory_used_bytes": 12944670720'; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        fail "the recording never showed the new memory figure"
        cat "$WORK/replay.err" >&2
        break
    fi
    sleep 0.1
done
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
frames=$(replay_json --from @0 | wc -l)
[ "$frames" -ge 2 ] || fail "only $frames frames recorded"
# The monitor records only snapshots with a process list: each has the scenario's 3 processes.
bad=$(replay_json --from @0 | grep -cv '"pid": .*"pid": .*"pid": ' || true)
[ "$bad" = 0 ] || fail "$bad recorded frames without the three processes"
[ ! -s "$WORK/replay.err" ] || fail "replay warned: $(cat "$WORK/replay.err")"
finish
