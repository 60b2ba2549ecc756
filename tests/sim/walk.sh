#!/bin/sh
# The walker (tests/sim/walk/) over every bundled scenario on every build of the simulated driver:
# each answer of each exported entry point must be what the scenario file says.  A build that
# models one branch (sim-driver-<variant>/branch: its first and end major versions) refuses the
# scenarios of other branches at nvmlInit, with a message naming its branch.
set -eu
: "${NVT_SOURCE_DIR:?run through ctest}" "${NVT_BINARY_DIR:?run through ctest}"
walk="$NVT_BINARY_DIR/tests/nvml-walk"
out=$(mktemp "${TMPDIR:-/tmp}/nvt-walk.XXXXXX")
trap 'rm -f "$out"' EXIT INT TERM
failed=0
runs=0
refused=0
for build in sim-driver sim-driver-r535 sim-driver-pre-r535 sim-driver-legacy; do
    first=0 end=0
    if [ -f "$NVT_BINARY_DIR/$build/branch" ]; then
        read -r first end <"$NVT_BINARY_DIR/$build/branch"
    fi
    for scenario in "$NVT_SOURCE_DIR"/sim/scenarios/*.json; do
        runs=$((runs + 1))
        major=$(sed -n 's/.*"version": *"\([0-9][0-9]*\)\..*/\1/p' "$scenario" | head -n 1)
        if [ "$end" -ne 0 ] && { [ "$major" -lt "$first" ] || [ "$major" -ge "$end" ]; }; then
            refused=$((refused + 1))
            if NVML_SIM_TIME=0 NVML_SIM_SCENARIO="$scenario" \
                "$walk" --library "$NVT_BINARY_DIR/$build/libnvidia-ml.so.1" >"$out" 2>&1 ||
                ! grep -q "is not a version of R$first, the branch this build" "$out"; then
                echo "NOT REFUSED: $build $(basename "$scenario") (driver $major)"
                cat "$out"
                failed=$((failed + 1))
            fi
            continue
        fi
        if ! NVML_SIM_TIME=0 NVML_SIM_SCENARIO="$scenario" \
            "$walk" --library "$NVT_BINARY_DIR/$build/libnvidia-ml.so.1" \
            --check "$scenario" >"$out"; then
            echo "FAILED: $build $(basename "$scenario")"
            failed=$((failed + 1))
        fi
    done
done
# A case for every entry point: the walker refuses to run with one missing, so the count of
# answered queries on the richest scenario is reported for the record.
NVML_SIM_TIME=0 NVML_SIM_SCENARIO="$NVT_SOURCE_DIR/sim/scenarios/h100-8gpu.json" \
    "$walk" --library "$NVT_BINARY_DIR/sim-driver/libnvidia-ml.so.1" >"$out"
echo "walk: $runs runs ($refused refused as another branch's), $failed failed;" \
    "h100-8gpu.json: $(wc -l <"$out") answers"
[ "$failed" -eq 0 ]
