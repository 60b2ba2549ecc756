#!/bin/sh
# A Windows program of the cross-build ($NVT_WINE_PROGRAM, default nvitop.exe) as a Linux test
# script expects a program: run under wine on the scenario of $NVML_SIM_SCENARIO
# (scripts/wine-sim.sh), with Windows line ends turned into Unix ones on stdout and stderr, so that
# the Linux tests' expected text applies unchanged.  The exit status is the program's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvt-wine-program.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rc=0
sh "$here/../../scripts/wine-sim.sh" "${NVML_SIM_SCENARIO:?}" "${NVT_WINE_PROGRAM:-nvitop.exe}" \
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
tr -d '\r' <"$tmp/out"
tr -d '\r' <"$tmp/err" >&2
exit "$rc"
