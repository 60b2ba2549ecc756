#!/bin/sh
# The replay monitor's event search (n, N) past damaged frames (docs/recording.md, "Damage" and
# "The replay monitor").  nvitop-record records 620 frames with its test clock (one a second,
# a keyframe every 8): 50 with three GPU processes, 560 after stand-in 2 exited (the event at
# frame 51), 10 after it came back (the event at frame 611).  Then two frames are damaged: a patch
# at frame 88 (frames 88-90 lost) and the keyframe of frame 611, the event itself (611-618 lost).
# From frame 601, n finds the return at frame 619, the first frame after the damage; N searches
# back in windows of 512 frames, the first of which starts on the damaged frame 88, and finds the
# exit at frame 51; n from there goes forward past both damaged spans.
. "$(dirname "$0")/tmux_lib.sh"
export TZ=UTC
RECORD=${NVITOP_RECORD_BIN:-$(dirname "$NVITOP")/nvitop-record}
[ -x "$RECORD" ] || {
    echo "SKIP: $RECORD is not built"
    exit 77
}

start_standins 3
use_scenario workstation-2gpu.json
cp "$SCENARIO" "$WORK/three.json"
REC="$WORK/damaged.nvtrec"
T0=1795459134

record() { # record FIRST COUNT
    NVML_SIM_SCENARIO="$SCENARIO" NVITOP_RECORD_TEST_TIMES="$(($T0 + $1))+1x$2" \
        "$RECORD" -f "$REC" -n "$2" --keyframe-every 8 2>>"$WORK/record.err" ||
        fail "recording failed: $(cat "$WORK/record.err")"
}
record 0 50
rewrite_scenario '/NVT_STANDIN_2/d' 's/\("pid": "${NVT_STANDIN_1:-4215313}".*}\),$/\1/'
record 50 560
cp "$WORK/three.json" "$SCENARIO"
record 610 10

# Flip a byte in the payload of frames 88 and 611 (indices 87 and 610).
python3 - "$REC" <<'PY'
import sys
path = sys.argv[1]
data = bytearray(open(path, 'rb').read())
at, frames = 32, []
while at + 28 <= len(data) and data[at:at + 4] == b'NVRF':
    size = int.from_bytes(data[at + 8:at + 12], 'little')
    if data[at + 4] in (2, 4):
        frames.append((at, size))
    at += 28 + size
assert len(frames) == 620, len(frames)
for i in (87, 610):
    at, size = frames[i]
    data[at + 28 + size // 2] ^= 0x20
open(path, 'wb').write(bytes(data))
PY
"$NVITOP" --json --replay "$REC" --from @0 >/dev/null 2>"$WORK/warnings" ||
    fail "the damaged recording does not replay"
[ "$(grep -c 'frames lost' "$WORK/warnings")" = 2 ] ||
    fail "expected two damaged spans: $(cat "$WORK/warnings")"

start_monitor 120 40 --replay "$REC" --at "@$(($T0 + 600))"
wait_for "REPLAY PAUSED"
wait_for " 601/620 "
keys n
wait_for "Event: process $NVT_STANDIN_2 appeared (GPU 0)."
wait_for " 619/620 "
keys '@'
wait_for "Jump to"
keys "@$(($T0 + 600))" Enter
wait_for " 601/620 "
keys N
wait_for "Event: process $NVT_STANDIN_2 exited (GPU 0)."
wait_for " 51/620 "
keys n
wait_for "Event: process $NVT_STANDIN_2 appeared (GPU 0)."
wait_for " 619/620 "
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
finish
