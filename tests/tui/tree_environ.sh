#!/bin/sh
# The tree-view (docs/nvitop-behaviour.md §3.8) and environment (§3.9) screens on a tree of stand-in
# processes this test starts with a known parent chain:
#
#   sh nvt-tree-root.sh
#   └─ sh nvt-tree-launcher.sh            (its other child, a sleep, is not shown)
#      └─ sh nvt-tree-gpu-job.sh          the GPU process (on GPU 0 and GPU 1)
#         ├─ sleep 2147483645             its direct children
#         └─ sleep 2147483645
#
# Checked: the expected subtree and columns, ASCII glyphs, a child killed from the tree view (and
# dead afterwards), --readonly, the environment variable the test set (with a newline shown as ␤
# or ?), the monitor's own environment when nothing is selected, and another user's process
# showing "Could not read process environment." (the monitor runs as nobody).
. "$(dirname "$0")/tmux_lib.sh"
export LC_ALL=C.UTF-8
# The user the test runs as owns the chain (root in CI, anyone else as well).
ME=$(id -un)

alive() {
    [ -r "/proc/$1/stat" ] || return 1
    state=$(sed -e 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d ' ' -f 1)
    [ -n "$state" ] && [ "$state" != Z ]
}

# children PID: the pids whose parent is PID.
children() {
    for stat in /proc/[0-9]*/stat; do
        ppid=$(sed -e 's/^.*) //' "$stat" 2>/dev/null | cut -d ' ' -f 2) || continue
        [ "$ppid" = "$1" ] && basename "$(dirname "$stat")"
    done
    return 0
}

# wait_file PATH: the chain writes its pids as it starts.
wait_file() {
    deadline=$(($(date +%s) + 10))
    while [ ! -s "$1" ]; do
        [ "$(date +%s)" -lt "$deadline" ] || {
            fail "$1 was not written"
            return 1
        }
        sleep 0.05
    done
}

CHAIN="$WORK/chain"
mkdir -p "$CHAIN"
cat >"$CHAIN/nvt-tree-root.sh" <<'EOF'
sh nvt-tree-launcher.sh &
wait
EOF
cat >"$CHAIN/nvt-tree-launcher.sh" <<'EOF'
sleep 2147483646 &
sh nvt-tree-gpu-job.sh &
echo $! >gpu.pid.tmp
mv gpu.pid.tmp gpu.pid
wait
EOF
cat >"$CHAIN/nvt-tree-gpu-job.sh" <<'EOF'
sleep 2147483645 &
sleep 2147483645 &
wait
EOF
# The variable the environment screen must show, with a newline in its value.
(cd "$CHAIN" && NVT_TREE_SECRET="checkpoint
/data/run-7" exec sh nvt-tree-root.sh) </dev/null >/dev/null 2>&1 &
ROOT=$!
stop_chain() {
    for pid in $(children "$GPU_JOB") "$GPU_JOB" $(children "$LAUNCHER") "$LAUNCHER" "$ROOT"; do
        kill "$pid" 2>/dev/null || true
    done
}
wait_file "$CHAIN/gpu.pid"
GPU_JOB=$(cat "$CHAIN/gpu.pid")
LAUNCHER=$(sed -e 's/^.*) //' "/proc/$GPU_JOB/stat" | cut -d ' ' -f 2)
# sleeping_children PID: how many children of PID run `sleep 2147483645`.  A child shows its
# parent's command line (sh nvt-tree-gpu-job.sh) from its fork until its exec, and the monitor keeps
# a command line it has read for a while: start the monitor only once both children have exec'd.
sleeping_children() {
    for child in $(children "$1"); do
        tr '\0' ' ' <"/proc/$child/cmdline" 2>/dev/null || true
        echo
    done | grep -c '^sleep 2147483645 $' || true
}
trap 'stop_chain; cleanup' EXIT INT TERM
deadline=$(($(date +%s) + 10))
while [ "$(sleeping_children "$GPU_JOB")" -lt 2 ]; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        fail "the job's two children did not start sleep"
        finish
    fi
    sleep 0.05
done

# Every GPU process of the scenario is the job: one tree node on GPU 0 and GPU 1.
export NVT_STANDIN_1="$GPU_JOB" NVT_STANDIN_2="$GPU_JOB" NVT_STANDIN_3="$GPU_JOB"
use_scenario workstation-2gpu.json

# subtree: the COMMAND column of the chain's rows, cut at the root's column (the root's own place
# in the machine's tree, above the test, differs between machines).
subtree() {
    capture | python3 -c '
import re, sys
col = None
for line in sys.stdin.read().splitlines():
    if "sh nvt-tree-root.sh" in line:
        col = line.index("sh nvt-tree-root.sh")
    if col is not None and re.search("nvt-tree-|sleep 2147483645", line):
        print(line[col:])'
}

# The screen is read until it shows the expected rows (at most 10 s): a capture can fall between
# two frames of the monitor (seen under load: an empty read right after a rebuild).
expect_subtree() {
    printf '%s\n' "$@" >"$WORK/subtree.expected"
    deadline=$(($(date +%s) + 10))
    while :; do
        subtree >"$WORK/subtree.txt"
        cmp -s "$WORK/subtree.expected" "$WORK/subtree.txt" && return 0
        [ "$(date +%s)" -lt "$deadline" ] || break
        sleep 0.1
    done
    diff -u "$WORK/subtree.expected" "$WORK/subtree.txt" >&2 || fail "tree differs ($1)"
}

start_monitor 120 50
wait_for " $GPU_JOB X "
keys t
# The tree's own header (the main screen shows the job's command line too: waiting for that raced
# the key, and the checks below then read the main screen).
wait_for "DEVICE  NLWP"
wait_for "sh nvt-tree-gpu-job.sh"
# The header: columns as wide as their widest value (TIME here depends on the machine's uptime).
capture | head -n 1 | grep -E '^ +PID  USER +DEVICE  NLWP  %CPU  %MEM +TIME  COMMAND *$' \
    >/dev/null || fail "header line"
expect_subtree "sh nvt-tree-root.sh" \
    "└─ sh nvt-tree-launcher.sh" \
    "   └─ sh nvt-tree-gpu-job.sh" \
    "      ├─ sleep 2147483645" \
    "      └─ sleep 2147483645"
# Columns: the GPU process lists both devices, the others are host processes.
capture | grep -E "^ *$GPU_JOB  [^ ]+ +GPU 0,1 +1 " >/dev/null || fail "GPU job row"
capture | grep -E "^ *$LAUNCHER  [^ ]+ +Host +1 " >/dev/null || fail "launcher row"
capture | grep -F "sleep 2147483646" && fail "a child of a non-GPU process is shown"

# Help from the tree and back; t returns to the main screen.
keys h
wait_for "Press any key to return."
keys x
wait_for "sh nvt-tree-gpu-job.sh"
keys t
wait_for "(Press h for help or q to quit)"

# Kill a child of the job from the tree: the main screen's selection (the job) moves to the tree,
# Down selects its first child.
keys Down
wait_for "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
keys t
wait_for "DEVICE  NLWP"
wait_for "sh nvt-tree-gpu-job.sh"
keys Down K
wait_for "Send signal to process "
victim=$(capture | sed -n 's/.*Send signal to process \([0-9]*\)(.*/\1/p' | head -n 1)
children "$GPU_JOB" | grep -qx "$victim" || fail "the box names $victim, not a child of the job"
keys Enter
deadline=$(($(date +%s) + 10))
while alive "$victim" && [ "$(date +%s)" -lt "$deadline" ]; do
    sleep 0.05
done
alive "$victim" && fail "process $victim survived SIGKILL from the tree view"
alive "$GPU_JOB" || fail "the GPU job died instead"
# The tree follows at its next rebuild: one child left.
deadline=$(($(date +%s) + 10))
while [ "$(subtree | grep -c 'sleep 2147483645')" != 1 ] && [ "$(date +%s)" -lt "$deadline" ]; do
    sleep 0.1
done
expect_subtree "sh nvt-tree-root.sh" \
    "└─ sh nvt-tree-launcher.sh" \
    "   └─ sh nvt-tree-gpu-job.sh" \
    "      └─ sleep 2147483645"

# The signal cleared the tree's selection: e shows the monitor's own environment, and q goes
# back to the tree, then to the main screen.
keys e
wait_for "Environment of process "
capture | head -n 1 | grep -E "^Environment of process [0-9]+ \($ME@Host\): .*/nvitop *\$" \
    >/dev/null || fail "the monitor's own environment"
keys q
wait_for "sh nvt-tree-gpu-job.sh"
keys q
wait_for "(Press h for help or q to quit)"

# The job's environment: sorted by name, the newline shown as ␤, r re-reads.
keys Down e
wait_for "Environment of process $GPU_JOB ($ME@GPU: Compute+Graphics): sh nvt-tree-gpu-job.sh"
wait_for "NVT_TREE_SECRET=checkpoint␤/data/run-7"
capture | sed -n '2p' | grep -qx '#*' || fail "second line is not a rule of #"
capture | sed -n '3,$p' | sed -n 's/^\([A-Z_a-z0-9]*\)=.*/\1/p' >"$WORK/names"
LC_ALL=C sort -c "$WORK/names" 2>/dev/null || fail "variables are not sorted by name"
keys r
wait_for "NVT_TREE_SECRET=checkpoint␤/data/run-7"
keys Escape
wait_for "(Press h for help or q to quit)"
# Nothing selected: the monitor's own environment.
keys Escape
wait_gone "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
keys e
wait_for "($ME@Host): "
keys q
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"

# Another user's process: the monitor runs as nobody and the job is root's.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    chmod 755 "$WORK"
    chmod 644 "$SCENARIO"
    # nobody may not enter the build tree (a clone under /root, mode 0700): it runs copies of the
    # monitor, the library and the simulated driver from the test's own readable directory.
    copy_for_other_user "$WORK/other"
    cat >"$WORK/as-nobody.sh" <<EOF
export LD_LIBRARY_PATH='$WORK/other/lib' NVITOP_CUDA_PROBE='$WORK/other/bin/nvitop-cuda-probe'
exec setpriv --reuid=nobody --regid=nogroup --clear-groups '$WORK/other/bin/nvitop' "\$@"
EOF
    chmod 755 "$WORK/as-nobody.sh"
    real_nvitop=$NVITOP
    NVITOP="$WORK/as-nobody.sh"
    start_monitor 120 50
    wait_for " $GPU_JOB X "
    # Another user's rows in the tree are dim as a whole, as nvitop draws them: no bold green
    # prefix (SGR 1 or 32) on them.
    keys t
    wait_for "sh nvt-tree-launcher.sh"
    row=$(tmux_cmd capture-pane -e -p -t main | grep -F "sh nvt-tree-launcher.sh")
    printf '%s\n' "$row" | grep -qE '\[([0-9;]*;)?(1|32)(;[0-9;]*)?m' &&
        fail "another user's tree row has a bold or green part: $row"
    keys q
    wait_for " $GPU_JOB X "
    keys Down e
    wait_for "Environment of process $GPU_JOB ($ME@GPU: Compute+Graphics)"
    wait_for "Could not read process environment."
    capture | grep -F "NVT_TREE_SECRET" && fail "another user's environment is shown"
    keys q q
    [ "$(wait_exit)" = 0 ] || fail "exit status (nobody)"
    NVITOP=$real_nvitop
else
    echo "note: not root, the other-user case is not run"
fi

# ASCII glyphs and --readonly (last: the job ends with its last child).
start_monitor 120 50 --ascii --readonly
wait_for " $GPU_JOB X "
keys Down t
wait_for "sh nvt-tree-gpu-job.sh"
expect_subtree "sh nvt-tree-root.sh" \
    "+- sh nvt-tree-launcher.sh" \
    "   +- sh nvt-tree-gpu-job.sh" \
    "      +- sleep 2147483645"
keys Down K
wait_for "Read-only mode: sending signals is disabled."
keys e
wait_for "NVT_TREE_SECRET=checkpoint?/data/run-7"
# That is the environment of the job's remaining child (the tree's selection): once it has
# exited, r says so instead of showing anything.
child=$(children "$GPU_JOB" | head -n 1)
wait_for "Environment of process $child ($ME@Host): sleep 2147483645"
kill -9 "$child"
deadline=$(($(date +%s) + 10))
while [ -e "/proc/$child" ] && [ "$(date +%s)" -lt "$deadline" ]; do
    sleep 0.05
done
keys r
wait_for "Process $child has exited: its environment is gone."
capture | grep -F "NVT_TREE_SECRET" && fail "the environment of an exited process is shown"
keys q q q
[ "$(wait_exit)" = 0 ] || fail "exit status (ascii)"

finish
