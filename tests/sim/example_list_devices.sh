#!/bin/sh
# Runs example-list-devices against the workstation scenario with three real stand-in processes
# (scripts/standins.sh) and compares its output, pids replaced by <1>..<3>, with the expected
# text.  Also checks that `standins.sh stop` really stops them.
set -eu
: "${NVT_SOURCE_DIR:?run through ctest}" "${NVT_BINARY_DIR:?run through ctest}"
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-example.XXXXXX")
export NVT_STANDIN_STATE="$work/standins"
cleanup() {
    sh "$NVT_SOURCE_DIR/scripts/standins.sh" stop || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
eval "$(sh "$NVT_SOURCE_DIR/scripts/standins.sh" start 3)"
export NVML_SIM_SCENARIO="$NVT_SCENARIO_DIR/workstation-2gpu.json"
export NVML_SIM_TIME=0
"$NVT_BINARY_DIR/examples/example-list-devices" >"$work/out.txt"
sed -e "s/pid $NVT_STANDIN_1:/pid <1>:/" -e "s/pid $NVT_STANDIN_2:/pid <2>:/" \
    -e "s/pid $NVT_STANDIN_3:/pid <3>:/" "$work/out.txt" >"$work/actual.txt"
diff -u "$NVT_SOURCE_DIR/tests/sim/expected/list-devices-workstation.txt" "$work/actual.txt"

[ "$(sh "$NVT_SOURCE_DIR/scripts/standins.sh" list | wc -l)" -eq 3 ]
sh "$NVT_SOURCE_DIR/scripts/standins.sh" stop
sh "$NVT_SOURCE_DIR/scripts/standins.sh" stop # idempotent
for pid in "$NVT_STANDIN_1" "$NVT_STANDIN_2" "$NVT_STANDIN_3"; do
    tries=0
    while [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; do
        tries=$((tries + 1))
        if [ "$tries" -gt 500 ]; then
            echo "stand-in $pid survived standins.sh stop" >&2
            exit 1
        fi
        sleep 0.02
    done
done
echo "example-list-devices: ok"
