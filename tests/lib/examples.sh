#!/bin/sh
# Run the library's example programs against the simulated driver and compare their output with
# tests/lib/expected/<case>.out.  The clock of the simulator is frozen and the scenarios name
# processes that do not exist, so the output is the same on every machine.
#   usage: examples.sh [--update]     (--update rewrites the expected files)
set -eu
src=${NVT_SOURCE_DIR:?}
bin=${NVT_BINARY_DIR:?}/examples
scenarios=$src/tests/lib/scenarios
expected=$src/tests/lib/expected
update=0
[ "${1:-}" = "--update" ] && update=1
export NVML_SIM_TIME=100
unset CUDA_VISIBLE_DEVICES FORCE_COLOR
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0

# check NAME SCENARIO SKIP_LINES PROGRAM [ARGS...]
check() {
    name=$1 scenario=$2 skip=$3
    shift 3
    status=0
    NVML_SIM_SCENARIO=$scenarios/$scenario "$bin/$@" >"$work/raw" 2>&1 || status=$?
    { tail -n "+$((skip + 1))" "$work/raw"; echo "exit $status"; } >"$work/$name.out"
    if [ "$update" -eq 1 ]; then
        cp "$work/$name.out" "$expected/$name.out"
    elif ! diff -u "$expected/$name.out" "$work/$name.out"; then
        echo "examples: $name differs from $expected/$name.out" >&2
        failed=1
    fi
}

check monitor-2gpu examples-2gpu.json 0 example-monitor
check monitor-mig examples-mig.json 0 example-monitor
check colored-monitor-2gpu examples-2gpu.json 1 example-colored-monitor
CUDA_VISIBLE_DEVICES=1,0 check colored-monitor-cuda-order examples-2gpu.json 1 \
    example-colored-monitor
check snapshots-mig examples-mig.json 0 example-snapshots 1,0
check snapshots-mig-uuid examples-mig.json 0 example-snapshots GPU-5e3b8a31
check select-2gpu examples-2gpu.json 0 example-select 10GiB
check select-2gpu-none examples-2gpu.json 0 example-select 30GiB
check select-mig examples-mig.json 0 example-select 5GiB
if [ -x "$bin/example-collector" ]; then
    check collector-2gpu examples-2gpu.json 0 example-collector 2
fi
cudart=${NVT_BINARY_DIR}/tests/lib/libfakecuda.so
check processes-2gpu examples-2gpu.json 0 example-processes 0 "$cudart"
CUDA_VISIBLE_DEVICES=1,0 check processes-cuda-order examples-2gpu.json 0 example-processes 1 \
    /nonexistent/libcudart.so
check processes-mig examples-mig.json 0 example-processes 0 /nonexistent/libcudart.so
check processes-bad-ordinal examples-2gpu.json 0 example-processes 7 /nonexistent/libcudart.so
check host-fixture examples-2gpu.json 0 example-host "$src/tests/fixtures/proc/basic"
if [ -x "$bin/example-cxx-devices" ]; then
    check cxx-devices-2gpu examples-2gpu.json 0 example-cxx-devices
    check cxx-devices-mig examples-mig.json 0 example-cxx-devices
fi
[ "$failed" -eq 0 ] && echo "examples: all outputs as expected"
exit "$failed"
