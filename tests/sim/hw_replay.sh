#!/bin/sh
# The real machine, replayed: sim/scenarios/real-h100-580.json is what scripts/hw-check.sh read
# from an H100 on driver 580.159.04 (docs/hardware.md), and tests/sim/expected/real-h100-580-once.txt
# is what `nvitop -1` printed there.  On the simulator the GPU table must read the same, line for
# line, and the process row the same up to its host columns (the real pid does not exist here).
set -eu
: "${NVT_SOURCE_DIR:?run through ctest}" "${NVT_BINARY_DIR:?run through ctest}"
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-hw-replay.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
real="$NVT_SOURCE_DIR/tests/sim/expected/real-h100-580-once.txt"
NVML_SIM_TIME=0 NVML_SIM_SCENARIO="$NVT_SOURCE_DIR/sim/scenarios/real-h100-580.json" \
    COLUMNS=79 "$NVT_BINARY_DIR/bin/nvitop" -1 >"$work/sim.txt" 2>&1
cat "$work/sim.txt"
# Lines 2-9: the driver line and the GPU table (our version number aside).
sed -n -e 's/NVITOP [0-9][0-9.]* /NVITOP x.y.z /' -e 2,9p "$real" >"$work/want"
sed -n -e 's/NVITOP [0-9][0-9.]* /NVITOP x.y.z /' -e 2,9p "$work/sim.txt" >"$work/got"
diff -u "$work/want" "$work/got"
# The process row: GPU, pid, type, GPU memory, %SM and %GMBW.
row='^│   0     497 C +[a-zA-Z/]+ 836\.0MiB  94     5 '
grep -Eq "$row" "$real"
grep -Eq "$row" "$work/sim.txt" || { echo "the process row differs from the real one"; exit 1; }
echo "hw-replay: the simulated H100 reads as the real one"
