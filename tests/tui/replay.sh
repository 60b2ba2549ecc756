#!/bin/sh
# The replay monitor (`nvitop --replay FILE`, docs/recording.md): a recording of the simulator is
# made while the test changes the scenario, one frame per step with `nvitop -1 --record`:
#
#   frame 1  three stand-ins on the GPUs
#   frame 2  a fourth process appears on GPU 1 (a child of nvt-replay-parent.sh)
#   frame 3  stand-in 2 exits from GPU 0
#   frame 4  GPU 0's memory climbs above 95 %
#   frame 5  nothing changes
#
# Then the monitor replays it in tmux.  Checked: stepping frame by frame shows each frame's
# process rows and memory figures exactly as `nvitop -1 --replay FILE --at T` prints them; the
# event keys land on the appearance, the exit and the memory climb; a typed time (HH:MM:SS) jumps
# there; the signal keys only show the read-only note (the stand-in is still alive); the tree view
# shows the recorded parent of the fourth process, which no longer exists on this machine; the
# environment screen says it was not recorded; the metrics screen opens on a recorded process;
# the help screen lists the time line's keys; playing runs to the end and pauses there; quitting
# prints the report of the frame shown last.
. "$(dirname "$0")/tmux_lib.sh"
export TZ=UTC

alive() {
    [ -r "/proc/$1/stat" ] || return 1
    state=$(sed -e 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d ' ' -f 1)
    [ -n "$state" ] && [ "$state" != Z ]
}

start_standins 3
use_scenario workstation-2gpu.json
REC="$WORK/replay.nvtrec"

# The fourth GPU process has a parent of its own, stopped once the recording is made: the tree
# view must then show it from the recording.
cat >"$WORK/nvt-replay-parent.sh" <<'EOF'
sleep 2147483641 &
echo $! >child.pid.tmp
mv child.pid.tmp child.pid
wait
EOF
(cd "$WORK" && exec sh nvt-replay-parent.sh) </dev/null >/dev/null 2>&1 &
PARENT=$!
deadline=$(($(date +%s) + 10))
until [ -s "$WORK/child.pid" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || {
        fail "the parent script did not start its child"
        finish
    }
    sleep 0.05
done
CHILD=$(cat "$WORK/child.pid")
export NVT_STANDIN_4="$CHILD"

record_frame() {
    NVML_SIM_SCENARIO="$SCENARIO" NVML_SIM_TIME=100 COLUMNS=120 \
        "$NVITOP" -1 --record "$REC" >/dev/null 2>>"$WORK/record.err" || fail "recording failed"
    # One frame a second at least, so that each has its own HH:MM:SS.
    sleep 1.1
}

record_frame
rewrite_scenario 's/\("pid": "${NVT_STANDIN_3:-4215420}".*}\)$/\1, { "pid": "${NVT_STANDIN_4:-1}", "type": "compute", "used_mib": 1200, "sm": 10, "mem": 5, "enc": 0, "dec": 0 }/'
record_frame
rewrite_scenario '/NVT_STANDIN_2/d' 's/\("pid": "${NVT_STANDIN_1:-4215313}".*}\),$/\1/'
record_frame
rewrite_scenario 's/"used_mib": 20110/"used_mib": 24000/'
record_frame
record_frame
kill "$CHILD" "$PARENT" 2>/dev/null || true

# The frames' times, from the JSON Lines of the recording.
"$NVITOP" --json --replay "$REC" --from @0 | sed -e 's/^[^}]*"timestamp": \([0-9.]*\).*/\1/' \
    >"$WORK/times"
[ "$(wc -l <"$WORK/times")" = 5 ] || fail "expected 5 frames, got $(wc -l <"$WORK/times")"
time_of() {
    sed -n "${1}p" "$WORK/times"
}

# What a frame shows that must be identical on both sides: the process rows and the memory column.
rows_of() {
    grep -E '^│ +[0-9]+ +[0-9]+ |MiB / 24\.00GiB' || true
}

# The monitor's screen must show the rows of the once report at frame $1.
expect_frame() {
    COLUMNS=120 "$NVITOP" -1 --replay "$REC" --at "@$(time_of "$1")" | rows_of >"$WORK/once.txt"
    deadline=$(($(date +%s) + 10))
    while :; do
        capture | rows_of >"$WORK/screen.txt"
        if capture | grep -qF " $1/5 " && cmp -s "$WORK/once.txt" "$WORK/screen.txt"; then
            return 0
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "frame $1 differs from the once report at its time"
            diff -u "$WORK/once.txt" "$WORK/screen.txt" >&2 || true
            capture >&2
            return 1
        fi
        sleep 0.05
    done
}

start_monitor 120 40 --replay "$REC"
wait_for "REPLAY PAUSED"
wait_for "(Press h for help or q to quit)"
# The help screen lists the time line's keys.
keys h
wait_for "n N: next / previous event"
wait_for "@: jump to a typed time"
keys Space
wait_for "REPLAY PAUSED"
# Frame by frame, forward and back.
for i in 1 2 3 4 5; do
    expect_frame "$i"
    keys ')'
done
wait_for "End of the recording."
keys '('
expect_frame 4

# Events: from the first frame, the appearance, then the exit, then the memory climb.
keys '@'
wait_for "Jump to"
keys "@$(time_of 1)" Enter
expect_frame 1
keys n
wait_for "Event: process $CHILD appeared (GPU 1)."
expect_frame 2
keys n
wait_for "Event: process $NVT_STANDIN_2 exited (GPU 0)."
expect_frame 3
grep -qF " $NVT_STANDIN_2 " "$WORK/screen.txt" && fail "the exited process is still shown"
keys n
wait_for "Event: GPU 0 memory above 95%."
expect_frame 4
keys n
wait_for "No further event in the recording."
keys N
wait_for "Event: process $NVT_STANDIN_2 exited (GPU 0)."
expect_frame 3

# A typed time: the third frame's second (the first whole second after it).
third=$(time_of 3)
keys '@'
wait_for "Jump to"
keys "$(date -u -d "@$(( ${third%.*} + 1 ))" +%H:%M:%S)" Enter
expect_frame 3
keys '@'
wait_for "Jump to"
keys "1999-01-01 00:00" Enter
wait_for "is outside the recording"
expect_frame 3

# Read-only: the signal keys show the note and open no box; the stand-in lives on.
keys '@'
wait_for "Jump to"
keys "@$(time_of 1)" Enter
expect_frame 1
keys Down
keys K
wait_for "Read-only mode: sending signals is disabled."
keys T I C-c
capture | grep -qF "Send signal" && fail "a signal box opened in a replay"
alive "$NVT_STANDIN_1" || fail "stand-in 1 is gone"
alive "$NVT_STANDIN_2" || fail "stand-in 2 is gone"

# The tree view at frame 2: the fourth process under its recorded parent, gone from this machine.
keys ')'
expect_frame 2
alive "$PARENT" && fail "the parent script still runs: the tree would not show the recording"
keys t
wait_for "sh nvt-replay-parent.sh"
wait_for "sleep 2147483641"
wait_for "children not on a GPU: not recorded"
keys e
wait_for "Environment not recorded"
keys q
keys q
wait_for "REPLAY PAUSED"

# The metrics screen on the fourth process (the last row, GPU 1), from its recorded figures.
keys End Enter
wait_for "Process:"
wait_for "sleep 2147483641"
wait_for "GPU-MEM: 1200MiB"
# The time line has the last row; the screen draws above it (its bottom border right above).
capture | tail -n 1 | grep -q "^REPLAY PAUSED" || fail "the time line is not on the last row"
capture | tail -n 2 | head -n 1 | grep -q "^╘" ||
    fail "the time line covers the metrics screen's bottom row"
keys q
wait_for "REPLAY PAUSED"

# Playing: from the first frame at x2 the replay runs to the end (about 3 s) and pauses there.
keys '@'
wait_for "Jump to"
keys "@$(time_of 1)" Enter
expect_frame 1
keys x
wait_for "REPLAY PAUSED  x2 "
keys p
wait_for "REPLAY PLAYING x2 "
wait_for " 5/5 "
wait_for "End of the recording: paused."
wait_for "REPLAY PAUSED  x2 "

# Quitting prints the report of the moment shown last (frame 3 here), as a live monitor prints
# the machine's, under the monitor's place in the terminal.
keys '(' '('
expect_frame 3
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
COLUMNS=120 "$NVITOP" -1 --replay "$REC" --at "@$(time_of 3)" >"$WORK/once-full.txt"
capture | rows_of >"$WORK/after.txt"
rows_of <"$WORK/once-full.txt" >"$WORK/once.txt"
[ -s "$WORK/once.txt" ] && cmp -s "$WORK/once.txt" "$WORK/after.txt" || {
    fail "after q: not the report of the frame shown last"
    diff -u "$WORK/once.txt" "$WORK/after.txt" >&2 || true
}
capture | grep -qF "REPLAY" && fail "the time line is still on the screen after q"
finish
