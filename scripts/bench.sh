#!/bin/sh
# Run every benchmark of bench/ against the simulated 8-GPU server (20 processes), then the
# monitor, -1 and exporter ones with 1,000 and 4,000 processes, and the collector, recorder and
# tree view ones at 20, 1,000 and 4,000 with their cost per process side by side.  Each prints its figures and a
# ratio against a floor measured in the same run; none fails on a time.
#   usage: scripts/bench.sh BUILD_DIR [MONITOR_SECONDS]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
seconds=${2:-60}
scenario="$here/sim/scenarios/h100-8gpu.json"
run() {
    echo
    echo "== $*"
    "$@"
}
LD_LIBRARY_PATH="$build/sim-driver" run "$build/bench/bench-sim" "$scenario"
LD_LIBRARY_PATH="$build/sim-driver" NVML_SIM_SCENARIO="$scenario" run "$build/bench/bench-lib-snapshot"
LD_LIBRARY_PATH="$build/sim-driver" NVML_SIM_SCENARIO="$scenario" run "$build/bench/bench-collector"
run "$build/bench/bench-once"
run sh "$here/bench/startup/startup_bench.sh" "$build"
run "$build/bench/bench-tree"
LD_LIBRARY_PATH="$build/sim-driver" NVML_SIM_SCENARIO="$scenario" run "$build/bench/bench-replay"
LD_LIBRARY_PATH="$build/sim-driver" NVML_SIM_SCENARIO="$scenario" run "$build/bench/bench-record"
# bench-record-sqlite (the same frames in SQLite, for comparison) is built only when
# libsqlite3-dev is installed.
if [ -x "$build/bench/bench-record-sqlite" ]; then
    LD_LIBRARY_PATH="$build/sim-driver" NVML_SIM_SCENARIO="$scenario" \
        run "$build/bench/bench-record-sqlite"
fi
run sh "$here/bench/monitor/monitor_bench.sh" "$build" "$seconds"
run sh "$here/bench/monitor/monitor_bench.sh" --metrics "$build" "$seconds"
run sh "$here/bench/monitor/key_latency.sh" "$build"
run python3 "$here/bench/exporter/exporter_bench.py" "$build" "$seconds"
run python3 "$here/bench/cluster/cluster_bench.py" "$build" "$seconds"
run python3 "$here/bench/cluster/cluster_instructions.py" "$build"
# The same with a thousand and with four thousand GPU processes (docs/performance.md, "A thousand
# GPU processes"): h100-8gpu-1000.json and h100-16gpu-4000.json, each with stand-ins of its own
# (small perl sleepers; 4,000 take about 2 GiB and a minute to start).
for processes in 1000 4000; do
    run env NVT_BENCH_PROCESSES=$processes "$build/bench/bench-once" 10
    run env NVT_BENCH_PROCESSES=$processes sh "$here/bench/monitor/monitor_bench.sh" "$build" \
        "$seconds"
    run env NVT_BENCH_PROCESSES=$processes python3 "$here/bench/exporter/exporter_bench.py" \
        "$build" "$seconds"
done
run sh "$here/bench/scale/scale_bench.sh" "$build"
