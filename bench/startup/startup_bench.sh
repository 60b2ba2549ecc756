#!/bin/sh
# Start-up cost of nvitop: `nvitop --version` and `nvitop -1` (8-GPU scenario) against a floor
# measured in the same run, `nvisel --help` (same C runtime, libnvitop, no curses or cluster
# code).  nvitop loads libcurl only when the cluster view starts (docs/architecture.md, "Loaded
# at run time"); OLD=/path/to/an/older/nvitop measures that binary too, for a before/after
# (figures: docs/performance.md, "Start-up and libcurl").
# Also the dynamic loader's work (LD_DEBUG=statistics, relocation cycles) and the number of
# objects mapped.  Prints figures and ratios; never fails on a time.
#
#   sh bench/startup/startup_bench.sh [BUILD_DIR] [RUNS]        default 100 runs of each
set -eu

source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$source_dir/build}" && pwd)
runs=${2:-100}
. "$source_dir/bench/bench_lib.sh"
bench_built "$build/bin/nvitop" "build nvitop first"
bench_built "$build/bin/nvisel" "build nvisel first"
bench_workspace nvt-bench-startup
export NVML_SIM_SCENARIO="$source_dir/sim/scenarios/h100-8gpu.json"

now_ns() { date +%s%N; }

# Milliseconds per run of "$@" (output discarded), over $runs runs.  $work is set by
# bench_workspace.
per_run_ms() {
    start=$(now_ns)
    i=0
    while [ "$i" -lt "$runs" ]; do
        "$@" >/dev/null 2>&1 </dev/null || true
        i=$((i + 1))
    done
    end=$(now_ns)
    echo "$start $end $runs" | awk '{ printf "%.2f", ($2 - $1) / 1e6 / $3 }'
}

# The dynamic loader's total start-up cycles and the number of objects it loaded.
# shellcheck disable=SC2154
loader() {
    LD_DEBUG=statistics LD_DEBUG_OUTPUT="$work/stats" "$@" >/dev/null 2>&1 </dev/null || true
    cycles=$(cat "$work"/stats.* | awk '/total startup time in dynamic loader/ { print $(NF - 1); exit }')
    rm -f "$work"/stats.*
    LD_DEBUG=libs LD_DEBUG_OUTPUT="$work/libs" "$@" >/dev/null 2>&1 </dev/null || true
    objects=$(grep -c 'calling init:' "$work"/libs.* || true)
    rm -f "$work"/libs.*
    echo "loader cycles $cycles, objects $objects"
}

ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }

echo "startup: $runs runs each, 8-GPU scenario"
floor=$(per_run_ms "$build/bin/nvisel" --help)
echo "floor   nvisel --help       $floor ms/run   ($(loader "$build/bin/nvisel" --help))"
for binary in "$build/bin/nvitop" ${OLD:+"$OLD"}; do
    label=nvitop
    [ "$binary" = "$build/bin/nvitop" ] || label="old"
    version=$(per_run_ms "$binary" --version)
    once=$(per_run_ms "$binary" -1)
    echo "$label  --version           $version ms/run   ratio $(ratio "$version" "$floor")" \
        "($(loader "$binary" --version))"
    echo "$label  -1                  $once ms/run   ratio $(ratio "$once" "$floor")" \
        "($(loader "$binary" -1))"
done
