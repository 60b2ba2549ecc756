#!/bin/sh
# The UI thread's system calls per frame (docs/performance.md, "The main screen's CPU"): with
# no key pressed and no signal, a frame must not ask curses for input (its poll(stdin, 0)) nor
# read the signal wake-up pipe: the loop's poll() already said neither is readable.  strace
# attaches to the main thread only (no -f): that is the UI thread.  Keys still work afterwards.
. "$(dirname "$0")/tmux_lib.sh"

need_strace

start_standins 2
use_scenario workstation-2gpu.json
start_monitor 120 40 --interval 1
wait_for " $NVT_STANDIN_2 "
shell=$(tmux_cmd display-message -p -t main '#{pane_pid}')
monitor=$(child_of "$shell") || fail "no monitor process under the pane's shell"

# About three frames; strace ends on its timeout (status 124), not on an error.
timeout 3.5 strace -qq -p "$monitor" -e trace=poll,ppoll,read -o "$WORK/strace.txt" \
    >"$WORK/strace.out" 2>&1 || true
if ! grep -q 'poll(' "$WORK/strace.txt" 2>/dev/null; then
    cat "$WORK/strace.out" >&2
    echo "SKIP: strace could not trace the monitor (ptrace not permitted?)"
    exit 77
fi
# From the first waiting poll on: the session's first read asks curses and the pipe regardless.
sed -n '/^poll(.*, [1-9][0-9]*[) ]/,$p' "$WORK/strace.txt" >"$WORK/frames.txt"
frames=$(grep -c '^poll(.*, [1-9][0-9]*[) ]' "$WORK/frames.txt" || true)
[ "$frames" -ge 2 ] || fail "fewer than 2 waiting polls in 3.5 s ($frames)"
# poll(stdin, 0) from curses's get_wch when nothing was typed.
stdin_polls=$(grep -c '^poll(\[{fd=0, events=POLLIN}\], 1, 0)' "$WORK/frames.txt" || true)
[ "$stdin_polls" = 0 ] || fail "curses asked for keys $stdin_polls times with none typed"
# The wake-up pipe: with no signal its read finds nothing (EAGAIN); the sampler's pipe gives one
# byte a frame, read once (a short read ends it), and is found empty only when the loop woke for
# something else, so empty reads must not outnumber the ones that got a byte.
empty=$(grep -c '^read(.*EAGAIN' "$WORK/frames.txt" || true)
full=$(grep -c '^read(.*= [1-9][0-9]*$' "$WORK/frames.txt" || true)
[ "$empty" -le "$full" ] || fail "$empty empty reads for $full with bytes (the wake-up pipe read)"
[ "$FAILURES" = 0 ] || cat "$WORK/strace.txt" >&2

keys Down
wait_for "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after tracing"
finish
