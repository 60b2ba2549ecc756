#!/bin/sh
# The monitor reads /proc for the process rows it shows (docs/performance.md, "A thousand GPU
# processes"), with 300 GPU processes (stand-ins) on the 1,000-process scenario:
#  1. on the main screen in nvitop's natural order, the stat files a pass reads are those of the
#     rows on screen and a screen above and below, not all 300;
#  2. sorted by %CPU (`oc`), which needs every row's, a pass reads all of them again;
#  3. rows scrolled into view show their %CPU at the next frame: with a 60 s interval, after a
#     refresh (`r`) has left the rows below the screen with their kept readings (%CPU N/A), a
#     scroll far down wakes the sampler at once, without waiting for the next interval.
# strace follows every thread (-f): the sampler thread does the reading.  A process is read from
# its stat file, whose text starts with "<pid> (", or, while it has not run since, from its
# schedstat, three numbers on a line (src/lib/host/quiet_stat.c): that is how those reads are told
# from the other files' (statm's line has seven numbers).
. "$(dirname "$0")/tmux_lib.sh"

need_strace

count=300
start_standins "$count"
use_scenario h100-8gpu-1000.json

# monitor_pid: the monitor under the pane's shell.
monitor_pid() {
    shell=$(tmux_cmd display-message -p -t main '#{pane_pid}')
    child_of "$shell" || fail "no monitor process under the pane's shell"
}

# process_reads FILE: the reads of processes' stat or schedstat files in the trace FILE.
process_reads() {
    grep -cE 'read(64)?\([0-9]+, "([0-9]+ \(|[0-9]+ [0-9]+ [0-9]+\\n")' "$1" 2>/dev/null || true
}

# stat_reads_per_pass NAME: trace the monitor for 5 s; prints the passes traced (each reads
# /proc/stat, "cpu ", through its kept descriptor) from the second on and the processes read in
# them (process_reads).
stat_reads_per_pass() {
    timeout 5 strace -qq -f -p "$monitor" -e trace=pread64,read -s 48 -o "$WORK/$1.txt" \
        >"$WORK/$1.out" 2>&1 || true
    if ! grep -q 'pread64(' "$WORK/$1.txt" 2>/dev/null; then
        cat "$WORK/$1.out" >&2
        echo "SKIP: strace could not trace the monitor (ptrace not permitted?)"
        exit 77
    fi
    awk '/"cpu  / { passes++ } passes >= 2' "$WORK/$1.txt" >"$WORK/$1.steady"
    passes=$(grep -c '"cpu  ' "$WORK/$1.steady" || true)
    reads=$(process_reads "$WORK/$1.steady")
    echo "$passes $reads"
}

start_monitor 200 60 --interval 0.5
wait_for "worker.pl" 60
monitor=$(monitor_pid)

set -- $(stat_reads_per_pass natural)
passes=$1 reads=$2
echo "natural order: $reads reads of processes in $passes passes"
[ "$passes" -ge 4 ] || fail "fewer than 4 passes traced in 5 s ($passes)"
# The screen shows about 30 rows; with a screen above and below, under 100 processes are read.
[ "$reads" -le $((passes * count / 2)) ] ||
    fail "natural order: $reads process reads in $passes passes of $count processes"

keys o c
wait_for "%CPU▼" 10
set -- $(stat_reads_per_pass cpu)
passes=$1 reads=$2
echo "sorted by %CPU: $reads reads of processes in $passes passes"
[ "$passes" -ge 4 ] || fail "fewer than 4 passes traced in 5 s ($passes)"
[ "$reads" -ge $((passes * count * 9 / 10)) ] ||
    fail "sorted by %CPU: $reads process reads in $passes passes of $count processes"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after tracing"

# 3.  The rows' %CPU column: the 8 cells before "%MEM"'s in a row of the worker stand-ins.
start_monitor 200 60 --interval 60
wait_for "worker.pl" 60
monitor=$(monitor_pid)
strace -qq -f -p "$monitor" -e trace=pread64,read -s 48 -o "$WORK/scroll.txt" \
    >"$WORK/scroll.out" 2>&1 &
tracer=$!
# Processes read in the trace so far.
traced_reads() {
    process_reads "$WORK/scroll.txt"
}
# Wait (at most 20 s) for the tracer to be attached: the sampler reads /proc/stat every second.
deadline=$(($(date +%s) + 20))
until grep -q '"cpu  ' "$WORK/scroll.txt" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; do
    sleep 0.1
done
keys r
deadline=$(($(date +%s) + 20))
until [ "$(traced_reads)" -gt 0 ] || [ "$(date +%s)" -ge "$deadline" ]; do
    sleep 0.1
done
[ "$(traced_reads)" -gt 0 ] || fail "no pass after the refresh key"
before=$(traced_reads)
# Far below the screen and its margin: 150 lines down.
keys $(seq 150 | sed 's/.*/]/')
# Once scrolled (the table's title is off the screen), the rows shown: worker stand-ins with a
# number in %CPU (not N/A), and processes read since the scroll, both within 20 s (the interval
# is 60 s).  Both at once: the keys may arrive in bursts, and a screen scrolled only part of the
# way shows rows that the refresh read already (a soak run took such a screen for the last one
# and found no read yet).
deadline=$(($(date +%s) + 20))
while :; do
    capture >"$WORK/screen.txt"
    scrolled=$(grep -c 'Processes:' "$WORK/screen.txt" || true)
    workers=$(grep -c 'worker.pl' "$WORK/screen.txt" || true)
    na=$(grep 'worker.pl' "$WORK/screen.txt" | grep -cE 'N/A +[0-9.]+ +[0-9:]+ +' || true)
    reads=$(($(traced_reads) - before))
    if [ "$scrolled" = 0 ] && [ "$workers" -gt 10 ] && [ "$na" = 0 ] && [ "$reads" -gt 0 ]; then
        break
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
        fail "rows scrolled into view: $na of $workers with %CPU N/A after 20 s (title" \
            "$scrolled), $reads processes read since the scroll"
        cat "$WORK/screen.txt" >&2
        break
    fi
    sleep 0.1
done
kill "$tracer" 2>/dev/null || true
wait "$tracer" 2>/dev/null || true
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after scrolling"
finish
