#!/bin/sh
# A Windows program of the cross-build ($NVT_WINE_PROGRAM, default nvitop.exe) as a Linux test
# script expects a program: run under wine on the scenario of $NVML_SIM_SCENARIO
# (scripts/wine-sim.sh), with Windows line ends turned into Unix ones on stdout and stderr, so that
# the Linux tests' expected text applies unchanged.  The exit status is the program's.
#
# When the program succeeded, wine's notice that one of its own processes crashed ("wine:
# Unhandled page fault ... starting debugger...") is dropped from stderr: a service the
# wineserver started with the program's stderr (winedevice's ntoskrnl.exe crashed so, once in a
# loaded soak run) is not the program.  A crash of the program itself exits non-zero and keeps it.
#
# A run that lost its wineserver is run once more: one that says so ("wine client error:...",
# wine's own words: the CI run of 2026-11-27 saw "recvmsg: Connection reset by peer" as nvisel.exe
# exited), and one that failed without a word on stdout or stderr (the CI run of 2026-11-28 saw
# `nvisel.exe -M x` end with status 1 and nothing written: every failure of our programs prints a
# message, so that was wine's, not the program's).  The programs run through here only read (the
# once report, --json, -q, nvisel), so a second run is the same question asked again.  A second
# such failure is kept.  NVT_WINE_SIM names the runner (default scripts/wine-sim.sh; the test of
# this script puts a stand-in there).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvt-wine-program.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
run() {
    rc=0
    sh "${NVT_WINE_SIM:-$here/../../scripts/wine-sim.sh}" "${NVML_SIM_SCENARIO:?}" \
        "${NVT_WINE_PROGRAM:-nvitop.exe}" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
}
run "$@"
if grep -q '^wine client error:' "$tmp/err" ||
    { [ "$rc" -ne 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; }; then
    run "$@"
fi
tr -d '\r' <"$tmp/out"
if [ "$rc" -eq 0 ]; then
    tr -d '\r' <"$tmp/err" | grep -v '^wine: Unhandled .*, starting debugger\.\.\.$' >&2 || true
else
    tr -d '\r' <"$tmp/err" >&2
fi
exit "$rc"
