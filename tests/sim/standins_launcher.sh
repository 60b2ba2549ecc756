#!/bin/sh
# scripts/standins.sh's two ways of starting more than 64 stand-ins show the same processes: the
# build's nvt-standins ($NVT_STANDIN_LAUNCHER, tests/support/standin_launcher.c) and the perl
# fallback.  Slot by slot: the same command line and the same name; every recorded start time is
# the process's own (so `list` and `stop` know them), and `stop` ends them all.  The launcher
# refuses a bad count with its usage.
set -eu
: "${NVT_SOURCE_DIR:?run through ctest}" "${NVT_STANDIN_LAUNCHER:?run through ctest}"
standins="$NVT_SOURCE_DIR/scripts/standins.sh"
launcher=$NVT_STANDIN_LAUNCHER
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-standins-launcher.XXXXXX")
cleanup() {
    for way in c perl; do
        NVT_STANDIN_STATE=$work/$way sh "$standins" stop >/dev/null 2>&1 || true
    done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail() {
    echo "standins_launcher: $*" >&2
    exit 1
}
command -v perl >/dev/null 2>&1 || { echo "SKIP: perl is not installed"; exit 77; }
count=70

# describe WAY: "<slot> <name> <command line>" of each live stand-in of $work/WAY.
describe() {
    while read -r i pid started; do
        name=$(cat "/proc/$pid/comm")
        command=$(tr '\0' ' ' <"/proc/$pid/cmdline")
        echo "$i $name $command"
    done <"$work/$1/standins"
}

NVT_STANDIN_STATE=$work/c sh "$standins" start "$count" >"$work/c.exports"
(unset NVT_STANDIN_LAUNCHER && NVT_STANDIN_STATE=$work/perl sh "$standins" start "$count") \
    >"$work/perl.exports"
[ "$(grep -c '^export NVT_STANDIN_[0-9]*=[0-9]*$' "$work/c.exports")" -eq "$count" ] ||
    fail "the launcher's start did not export $count pids"
describe c >"$work/c.seen"
describe perl >"$work/perl.seen"
if ! cmp -s "$work/c.seen" "$work/perl.seen"; then
    diff "$work/perl.seen" "$work/c.seen" | head -n 20 >&2
    fail "the launcher's stand-ins differ from perl's"
fi
grep -qx "70 perl perl -e sleep worker.pl --pool gpu6 --slot 70 " "$work/c.seen" ||
    fail "slot 70: $(grep '^70 ' "$work/c.seen")"
# Not perl itself: the build's program, named perl.
pid=$(sed -n 's/^export NVT_STANDIN_1=//p' "$work/c.exports")
[ "$(readlink "/proc/$pid/exe")" = "$(readlink -f "$launcher")" ] ||
    fail "stand-in 1 is not the launcher's program: $(readlink "/proc/$pid/exe")"

[ "$(NVT_STANDIN_STATE=$work/c sh "$standins" list | wc -l)" -eq "$count" ] ||
    fail "list does not know every stand-in (start times)"
NVT_STANDIN_STATE=$work/c sh "$standins" stop
tries=0
while [ -e "/proc/$pid" ] && [ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" != Z ]; do
    tries=$((tries + 1))
    [ "$tries" -lt 100 ] || fail "stand-in 1 (pid $pid) outlived stop"
    sleep 0.05
done

for bad in 0 -1 x 100001 ""; do
    if "$launcher" "$bad" "$work/record" 2>"$work/err"; then
        fail "nvt-standins accepted the count '$bad'"
    fi
    grep -q '^usage: nvt-standins COUNT RECORD' "$work/err" || fail "no usage for '$bad'"
done
if "$launcher" 1 "$work/no/such/dir/record" 2>"$work/err"; then
    fail "nvt-standins wrote to a missing directory"
fi
grep -q "^nvt-standins: $work/no/such/dir/record: No such file or directory" "$work/err" ||
    fail "no reason for an unwritable record: $(cat "$work/err")"
echo ok
