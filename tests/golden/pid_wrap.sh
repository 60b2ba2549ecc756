#!/bin/sh
# The tests that start stand-in jobs (scripts/standins.sh) pass whatever pids the kernel hands
# out: each run below starts in a private pid namespace whose pid counter is set just below
# pid_max (/proc/sys/kernel/ns_last_pid), so that the counter wraps while the stand-ins start.
# Without the restart in standins.sh, stand-ins started after the wrap get lower pids, sort
# before the others and the golden and tmux outputs differ.
#
# Needs root (a pid namespace, and writing ns_last_pid); exits 77 (skipped) otherwise.  The
# namespace also keeps the wrap away from every other process of the machine.
set -eu
: "${NVT_SOURCE_DIR:?run through ctest}" "${NVT_BINARY_DIR:?run through ctest}"

skip() {
    echo "SKIP: $*"
    exit 77
}
command -v unshare >/dev/null 2>&1 || skip "unshare (util-linux) is not installed"
[ "$(id -u)" = 0 ] || skip "needs root to set the pid counter (/proc/sys/kernel/ns_last_pid)"
unshare -p -f --mount-proc sh -c 'echo 1000 >/proc/sys/kernel/ns_last_pid' 2>/dev/null ||
    skip "can not create a pid namespace with a writable /proc/sys/kernel/ns_last_pid"

pid_max=$(cat /proc/sys/kernel/pid_max)
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-pidwrap.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
failures=0

# in_wrapping_namespace OFFSET COMMAND...: run COMMAND in a new pid namespace whose next pid is
# pid_max - OFFSET (pid_max of the machine, read above).  The namespace's first process is a shell that waits for COMMAND (and so
# reaps the stand-ins that are orphaned to it); everything left in the namespace dies with it.
in_wrapping_namespace() {
    offset=$1
    shift
    TMUX_TMPDIR="$work" unshare -p -f --mount-proc sh -c '
        # Since Linux 6.14 each pid namespace has its own pid_max (4194304 in a new one): give
        # it the machine-wide limit the tests meet outside.
        if [ "$(cat /proc/sys/kernel/pid_max)" != "$1" ]; then
            echo "$1" >/proc/sys/kernel/pid_max
        fi
        echo $(($1 - $2)) >/proc/sys/kernel/ns_last_pid
        shift 2
        "$@"' sh "$pid_max" "$offset" "$@"
}

# 1. standins.sh itself: the pids it reports increase although the counter wrapped meanwhile.
for offset in 10 70; do
    if ! in_wrapping_namespace "$offset" sh -c '
        state=$(mktemp -d)
        eval "$(NVT_STANDIN_STATE=$state sh "$1/scripts/standins.sh" start 20 2>/dev/null)"
        NVT_STANDIN_STATE=$state sh "$1/scripts/standins.sh" stop
        rm -rf "$state"
        previous=0
        i=1
        while [ "$i" -le 20 ]; do
            eval "pid=\$NVT_STANDIN_$i"
            if [ "$pid" -le "$previous" ]; then
                echo "stand-in $i has pid $pid, not above $previous" >&2
                exit 1
            fi
            previous=$pid
            i=$((i + 1))
        done
        # The counter must have wrapped, or this run proved nothing.
        [ "$(cat /proc/sys/kernel/ns_last_pid)" -lt 1000 ] ||
            { echo "the pid counter did not wrap" >&2; exit 1; }' sh "$NVT_SOURCE_DIR"; then
        echo "FAIL: standins.sh with the pid counter $offset below pid_max" >&2
        failures=$((failures + 1))
    fi
done

# 2. The golden cases with stand-ins, the wrap falling at different stand-ins (these offsets put
# it among the stand-ins of GPU 4, which sort wrongly without the restart).
for run in 60:standins-h100-79 90:standins-h100-200-compute 120:standins-h100-79 \
    90:standins-workstation-120 90:standins-a100-mig-140; do
    offset=${run%%:*}
    case=${run#*:}
    if ! in_wrapping_namespace "$offset" python3 "$NVT_SOURCE_DIR/tests/golden/run_case.py" \
        "$NVT_BINARY_DIR/bin/nvitop" "$case" >"$work/out.txt" 2>&1; then
        cat "$work/out.txt" >&2
        echo "FAIL: golden case $case with the pid counter $offset below pid_max" >&2
        failures=$((failures + 1))
    fi
done

# 3. Monitor tests in tmux that pick stand-ins by their rows (the first stand-in starts about six
# pids after the script: this offset puts the wrap between stand-ins 1 and 2).
for script in signals keys first_screen; do
    for offset in 9; do
        if ! in_wrapping_namespace "$offset" sh "$NVT_SOURCE_DIR/tests/tui/$script.sh" \
            >"$work/out.txt" 2>&1; then
            cat "$work/out.txt" >&2
            echo "FAIL: tests/tui/$script.sh with the pid counter $offset below pid_max" >&2
            failures=$((failures + 1))
        fi
    done
done

if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo ok
