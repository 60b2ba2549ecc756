#!/bin/sh
# tests/windows/wine-program.sh's second run, without wine: a stand-in runner (NVT_WINE_SIM) that
# answers as scripted, one answer per run, counted in a file.  A run that lost its wineserver
# (wine's "wine client error:" on stderr, or a failure with nothing on stdout or stderr) is run
# once more and the second answer is the one given; a program's own failure (a message and a
# status) is given as it is, after one run; a second lost run is kept.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-wine-program-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The runner: answer N (N = this run's number) is the file answers/N: "RC|STDOUT|STDERR".
cat >"$work/runner.sh" <<'RUNNER'
n=$(($(cat "$WORK/runs") + 1))
echo "$n" >"$WORK/runs"
IFS='|' read -r rc out err <"$WORK/answers/$n"
[ -z "$out" ] || printf '%s\n' "$out"
[ -z "$err" ] || printf '%s\n' "$err" >&2
exit "$rc"
RUNNER
fail=0
# check NAME WANT_RC WANT_OUT WANT_ERR WANT_RUNS ANSWER...
check() {
    name=$1 want_rc=$2 want_out=$3 want_err=$4 want_runs=$5
    shift 5
    rm -rf "$work/answers"
    mkdir "$work/answers"
    i=0
    for answer in "$@"; do
        i=$((i + 1))
        printf '%s\n' "$answer" >"$work/answers/$i"
    done
    echo 0 >"$work/runs"
    rc=0
    WORK=$work NVT_WINE_SIM=$work/runner.sh NVML_SIM_SCENARIO=any \
        sh "$here/wine-program.sh" -x >"$work/out" 2>"$work/err" || rc=$?
    got="$rc|$(cat "$work/out")|$(cat "$work/err")|$(cat "$work/runs")"
    want="$want_rc|$want_out|$want_err|$want_runs"
    if [ "$got" != "$want" ]; then
        echo "FAIL: $name: got '$got', want '$want'"
        fail=1
    fi
}
check "a success" 0 "ok" "" 1 "0|ok|"
check "the program's own failure" 2 "" "nvisel: error: bad" 1 "2||nvisel: error: bad"
check "a silent failure, then the answer" 2 "" "nvisel: error: bad" 2 "1||" "2||nvisel: error: bad"
check "wine's client error, then the answer" 0 "ok" "" 2 \
    "1||wine client error:1: recvmsg: Connection reset by peer" "0|ok|"
check "two silent failures" 1 "" "" 2 "1||" "1||"
check "a failure with output only" 1 "partial" "" 1 "1|partial|"
[ "$fail" -eq 0 ] && echo "wine_program_test: ok"
exit "$fail"
