#!/bin/sh
# scripts/hw-check.sh on the simulator: every step runs and succeeds, the reports show the
# scenario's machine, and the scenario it writes loads and answers as the walk it came from.
set -eu
: "${NVT_SOURCE_DIR:?run through ctest}" "${NVT_BINARY_DIR:?run through ctest}"
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-hw-check.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
scenario="$NVT_SOURCE_DIR/sim/scenarios/h100-8gpu.json"
# The side-by-side step with a stand-in for nvtop: a second nvitop (it ignores nvtop's -d).
cat >"$work/nvtop" <<EOF
#!/bin/sh
exec "$NVT_BINARY_DIR/bin/nvitop" --interval 1
EOF
chmod +x "$work/nvtop"
NVML_SIM_TIME=0 NVML_SIM_SCENARIO="$scenario" LD_LIBRARY_PATH="$NVT_BINARY_DIR/sim-driver" \
    HW_CHECK_NVTOP="$work/nvtop" HW_CHECK_VS_S=3 HW_CHECK_MONITOR_S=5 BUILD="$NVT_BINARY_DIR" sh "$NVT_SOURCE_DIR/scripts/hw-check.sh" \
    "$work/out" >"$work/log"
cat "$work/log"
for step in exports.txt walk.tsv nvitop-once.txt nvitop.json nvitop-query.txt list-devices.txt \
    scenario.json; do
    grep -qx "$step: exit 0" "$work/log" || { echo "step $step failed"; exit 1; }
    [ -s "$work/out/$step" ] || { echo "step $step wrote nothing"; exit 1; }
done
grep -q 'Driver Version: 570.86.15' "$work/out/nvitop-once.txt"
# The walker timed each entry point: the simulated PCIe throughput blocks 20 ms, as documented.
awk -F '\t' '$2 == "nvmlDeviceGetPcieThroughput" && $3 >= 20000 {n++} END {exit n > 0 ? 0 : 1}' \
    "$work/out/walk-times.tsv"
grep -qx 'nvmlDeviceGetFanSpeed_v2' "$work/out/exports.txt"
if command -v tmux >/dev/null 2>&1; then
    grep -q 'NVIDIA H100 80GB HBM3\|Driver Version: 570.86.15' "$work/out/monitor.txt"
    # Both monitors were measured, and both screens captured.
    grep -q '^nvitop / nvtop: CPU [0-9.]*, RSS [0-9.]*$' "$work/out/monitor-vs-nvtop.txt"
    [ "$(grep -c 'Processes:' "$work/out/monitor-vs-nvtop.txt")" -eq 2 ]
    # Both programs' resident memory by mapping, each with its own executable and its heap (the
    # anonymous mappings where a sanitizer's allocator replaces the heap).
    [ "$(grep -c '^--- nv[a-z]*: resident KiB by mapping$' "$work/out/monitor-vs-nvtop-smaps.txt")" -eq 2 ]
    grep -q '^ *[0-9][0-9]* \[\(heap\|anonymous\)\]$' "$work/out/monitor-vs-nvtop-smaps.txt"
    grep -q '^ *[0-9][0-9]* .*/bin/nvitop$' "$work/out/monitor-vs-nvtop-smaps.txt"
fi
# The written scenario replays the machine: walking it checks every value it holds.
NVML_SIM_TIME=0 NVML_SIM_SCENARIO="$work/out/scenario.json" \
    "$NVT_BINARY_DIR/tests/nvml-walk" --library "$NVT_BINARY_DIR/sim-driver/libnvidia-ml.so.1" \
    --check "$work/out/scenario.json" >/dev/null
echo "hw-check: $(wc -l <"$work/out/walk.tsv") answers walked, scenario replays"
