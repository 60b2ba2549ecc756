#!/bin/sh
# The collector, the recorder and the tree view at 20, 1,000 and 4,000 GPU processes (issue 27):
# each benchmark runs against its own floor in the same run (bench-collector, bench-record,
# bench-tree), and this script prints each one's cost per process beside the others and the
# spread across the sizes (the largest over the smallest; target at most 1.5).  The collector
# and the recorder also run on the same GPUs with no process (bench_idle_scenario) in the same
# run: their cost there is a sample's or a frame's fixed cost, and the cost above it divided by
# the processes is what a process adds ("The cost per process above the fixed cost" in
# docs/performance.md).  Prints figures; never fails on a time.
#
#   usage: bench/scale/scale_bench.sh [BUILD_DIR] [SIZES...]   (default sizes: 20 1000 4000)
#
# The scenarios are bench_lib.sh's (h100-8gpu.json, h100-8gpu-1000.json, h100-16gpu-4000.json),
# with as many stand-ins; the tree's /proc fixture has as many GPU processes (and at least
# 10,000 processes in all).  4,000 stand-ins take about 2 GiB and a minute to start.
set -eu
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$source_dir/build}" && pwd)
[ $# -gt 0 ] && shift
sizes=${*:-20 1000 4000}
. "$source_dir/bench/bench_lib.sh"
for program in bench-collector bench-record bench-tree; do
    bench_built "$build/bench/$program" "build the $program target"
done
bench_workspace nvt-bench-scale
results="$work/results"
: >"$results"

# field FILE PATTERN N: the Nth whitespace-separated field of the first line matching PATTERN.
field() {
    awk -v n="$3" "/$2/ { print \$n; exit }" "$1"
}

# median VALUES...: the middle value (the lower middle of an even count).
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# over SIZE KIND PATTERN N: the field (as `field`) of each round's KIND file, one a line.
over() {
    for r in $(seq "$rounds"); do
        field "$work/$2-$1-$r" "$3" "$4"
    done
}

# rounds_above SIZE KIND PATTERN N SCALE: for each round, (KIND's figure - the idle KIND's
# figure of the same round) * SCALE / SIZE, two decimals, one a line: the cost a process adds
# above the fixed cost, each round's pair measured one after the other.
rounds_above() {
    for r in $(seq "$rounds"); do
        awk -v n="$1" -v busy="$(field "$work/$2-$1-$r" "$3" "$4")" \
            -v idle="$(field "$work/$2-idle-$1-$r" "$3" "$4")" -v scale="$5" \
            'BEGIN { printf "%.2f\n", (busy - idle) * scale / n }'
    done
}

# Each size runs the collector and the recorder NVT_BENCH_ROUNDS (5) times, each time on the
# scenario and then on its idle twin, and takes medians: on a shared machine the load drifts
# between runs, and the 20-process scenario's processes are a fifth of its cost, so one pair can
# be off by half.
rounds=${NVT_BENCH_ROUNDS:-5}
for size in $sizes; do
    case $size in 20 | 1000 | 4000) ;; *) echo "scale_bench: sizes are 20, 1000 or 4000" >&2; exit 2 ;; esac
    echo "== $size GPU processes"
    (
        NVT_BENCH_PROCESSES=$size
        bench_scenario
        # As many frames at every size, so that the first frame, a keyframe, weighs the same in
        # each figure.
        frames=100
        for r in $(seq "$rounds"); do
            idle_name=$(basename "$bench_idle_scenario")
            echo "-- round $r of $rounds: $bench_scenario_name, then $idle_name"
            "$build/bench/bench-collector" 10 | tee "$work/collector-$size-$r"
            NVML_SIM_SCENARIO=$bench_idle_scenario "$build/bench/bench-collector" 10 |
                tee "$work/collector-idle-$size-$r"
            "$build/bench/bench-record" "$frames" 0.1 | tee "$work/record-$size-$r"
            NVML_SIM_SCENARIO=$bench_idle_scenario "$build/bench/bench-record" "$frames" 0.1 |
                tee "$work/record-idle-$size-$r"
        done
        NVT_STANDIN_STATE="$work/standins" sh "$source_dir/scripts/standins.sh" stop >/dev/null
    )
    tree_rounds=5
    [ "$size" -ge 4000 ] && tree_rounds=3
    "$build/bench/bench-tree" "$tree_rounds" "$size" | tee "$work/tree-$size"
    # The collector's ms of CPU a second times the seconds between samples is its cost a
    # sample in us; the recorder prints its cost a frame in ms.
    per_sample=$(awk -v s="$(field "$work/collector-$size-1" '^bench-collector:' 7)" \
        'BEGIN { print 1000 * s }')
    collector_above=$(rounds_above "$size" collector '^collector' 4 "$per_sample")
    record_above=$(rounds_above "$size" record 'CPU per frame' 10 1000)
    echo "above the fixed cost, us a process, each round: collector" $collector_above \
        "(a sample); recording" $record_above "(a frame)"
    # shellcheck disable=SC2046,SC2086 # the rounds' figures, one word each
    printf '%s %s %s %s %s %s\n' "$size" \
        "$(median $(over "$size" collector '^per process:' 4))" "$(median $collector_above)" \
        "$(median $(over "$size" record 'per process and frame' 7))" "$(median $record_above)" \
        "$(field "$work/tree-$size" 'per process:' 3)" >>"$results"
done

echo
echo "== cost per process (us): collector per sample, recording per frame (as measured, and above"
echo "   the fixed cost: the same GPUs with no process; medians of $rounds rounds), tree rebuild"
echo "   per host process"
awk '
    { size[NR] = $1; for (k = 2; k <= 6; k++) { v[NR, k] = $k } }
    END {
        printf "%-10s %12s %12s %12s %12s %12s\n", "processes", "collector", "above fixed",
            "recording", "above fixed", "tree"
        for (i = 1; i <= NR; i++) {
            printf "%-10s %12s %12s %12s %12s %12s\n", size[i], v[i, 2], v[i, 3], v[i, 4],
                v[i, 5], v[i, 6]
        }
        printf "%-10s", "spread"
        for (k = 2; k <= 6; k++) {
            lo = ""; hi = ""
            for (i = 1; i <= NR; i++) {
                x = v[i, k] + 0
                if (v[i, k] == "" || x <= 0) { continue }
                if (lo == "" || x < lo) { lo = x }
                if (hi == "" || x > hi) { hi = x }
            }
            if (lo == "") { printf " %12s", "-" } else { printf " %11.2fx", hi / lo }
        }
        printf "   (largest / smallest; target at most 1.5x)\n"
    }' "$results"
