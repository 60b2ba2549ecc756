#!/bin/sh
# Start stand-in GPU jobs, point the simulated driver at a scenario, and run the most complete
# front end on it.  The stand-ins are stopped again however the front end exits.
#   usage: scripts/demo.sh BUILD_DIR SCENARIO
set -eu
build=${1:-build}
scenario=${2:-sim/scenarios/h100-8gpu.json}
here=$(cd "$(dirname "$0")/.." && pwd)
# Relative paths are relative to the source tree (as the Makefile passes them).
case $build in /*) ;; *) build="$here/$build" ;; esac
case $scenario in /*) ;; *) scenario="$here/$scenario" ;; esac
state=$(mktemp -d "${TMPDIR:-/tmp}/nvitop-demo.XXXXXX")
cleanup() {
    NVT_STANDIN_STATE=$state sh "$here/scripts/standins.sh" stop >/dev/null 2>&1 || true
    rm -rf "$state"
}
trap cleanup EXIT INT TERM
export NVT_STANDIN_STATE="$state"
eval "$(sh "$here/scripts/standins.sh" start)"
export LD_LIBRARY_PATH="$build/sim-driver${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export NVML_SIM_SCENARIO="$scenario"
if [ -x "$build/bin/nvitop" ] && [ -t 0 ] && [ -t 1 ]; then
    "$build/bin/nvitop"
elif [ -x "$build/bin/nvitop" ]; then
    "$build/bin/nvitop" -1
else
    "$build/examples/example-list-devices"
fi
