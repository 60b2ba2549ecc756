#!/bin/sh
# The host side's files per process per refresh with hundreds of GPU processes
# (docs/performance.md, "A thousand GPU processes"): in the steady state a process's /proc files
# are read again through descriptors kept open, not opened afresh, whatever the count; a
# process's status and cmdline, read again every 10 s or so (spread over the passes), are kept
# open too within half the descriptor budget, and opened again past it.  Before, at most 128 processes kept theirs and every other one opened two files on
# every refresh.  strace follows every thread (-f): the sampler thread does the reading.
. "$(dirname "$0")/tmux_lib.sh"

need_strace

count=300
start_standins "$count"
# The 1,000-process scenario: stand-ins back its first $count processes; the others name pids no
# Linux process can hold (their directory is looked up and missing, which opens nothing).
use_scenario h100-8gpu-1000.json
start_monitor 200 60 --interval 0.5
wait_for "worker.pl" 60
shell=$(tmux_cmd display-message -p -t main '#{pane_pid}')
monitor=$(child_of "$shell") || fail "no monitor process under the pane's shell"

# A pass reads /proc/stat through its kept descriptor ("cpu " starts it): that marks the passes.
timeout 6 strace -qq -f -p "$monitor" -e trace=openat,pread64 -s 4 -o "$WORK/strace.txt" \
    >"$WORK/strace.out" 2>&1 || true
if ! grep -q 'pread64(' "$WORK/strace.txt" 2>/dev/null; then
    cat "$WORK/strace.out" >&2
    echo "SKIP: strace could not trace the monitor (ptrace not permitted?)"
    exit 77
fi
# From the second pass on (the first may be the one that met the processes).
awk '/pread64\(.*"cpu "/ { passes++ } passes >= 2' "$WORK/strace.txt" >"$WORK/steady.txt"
passes=$(grep -c 'pread64(.*"cpu "' "$WORK/steady.txt" || true)
[ "$passes" -ge 4 ] || fail "fewer than 4 passes traced in 6 s ($passes)"
# Opens that succeeded of a process's directory or files: openat(fd, "1234/stat", ...) = 7.
opens=$(grep -cE 'openat\([0-9A-Z_]+, "[0-9]+(/[a-z]+)?", .*\) += [0-9]+$' "$WORK/steady.txt" ||
    true)
rereads=$(grep -cE 'pread64\(.*\) += [0-9]+$' "$WORK/steady.txt" || true)
echo "$passes passes: $opens opens of process files, $rereads reads through kept descriptors"
# At most half an open per process per pass (status and cmdline of a tenth of them, say).
limit=$((passes * count / 2))
[ "$opens" -le "$limit" ] ||
    fail "$opens opens of process files in $passes passes of $count processes (limit $limit)"
[ "$FAILURES" = 0 ] || grep -E 'openat\([0-9A-Z_]+, "[0-9]+' "$WORK/steady.txt" | head -20 >&2

keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after tracing"
cp "$WORK/steady.txt" /tmp/scale-probe/steady.txt 2>/dev/null || true
finish
