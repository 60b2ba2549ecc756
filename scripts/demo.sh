#!/bin/sh
# Start stand-in GPU jobs, point the simulated driver at a scenario, and run the most complete
# front end on it.  The stand-ins are stopped again however the front end exits.
#   usage: scripts/demo.sh BUILD_DIR SCENARIO
set -eu
build=${1:-build}
scenario=${2:-sim/scenarios/h100-8gpu.json}
here=$(cd "$(dirname "$0")/.." && pwd)
state=$(mktemp -d "${TMPDIR:-/tmp}/nvitop-demo.XXXXXX")
cleanup() {
    NVT_STANDIN_STATE=$state sh "$here/scripts/standins.sh" stop >/dev/null 2>&1 || true
    rm -rf "$state"
}
trap cleanup EXIT INT TERM
export NVT_STANDIN_STATE="$state"
eval "$(sh "$here/scripts/standins.sh" start)"
export LD_LIBRARY_PATH="$here/$build/sim-driver${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export NVML_SIM_SCENARIO="$here/$scenario"
if [ -x "$here/$build/bin/nvitop" ] && [ -t 0 ] && [ -t 1 ]; then
    "$here/$build/bin/nvitop"
elif [ -x "$here/$build/bin/nvitop" ]; then
    "$here/$build/bin/nvitop" -1
else
    "$here/$build/bin/example-list-devices"
fi
