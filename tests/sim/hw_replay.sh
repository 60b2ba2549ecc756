#!/bin/sh
# hw_replay.sh NAME: a real machine, replayed.  sim/scenarios/NAME.json is what
# scripts/hw-check.sh read from a real GPU (docs/hardware.md: real-h100-580 an H100, real-h200-580
# an H200, both on driver 580.159.04), and tests/sim/expected/NAME-once.txt is what `nvitop -1`
# printed there.  On the simulator the GPU table must read the same, line for line (the readings
# that move aside), and the process row the same up to its host columns (the real pid does not
# exist here).
set -eu
: "${NVT_SOURCE_DIR:?run through ctest}" "${NVT_BINARY_DIR:?run through ctest}"
[ $# -eq 1 ] || { echo "usage: hw_replay.sh NAME (real-h100-580, ...)" >&2; exit 2; }
name=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-hw-replay.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
real="$NVT_SOURCE_DIR/tests/sim/expected/$name-once.txt"
NVML_SIM_TIME=0 NVML_SIM_SCENARIO="$NVT_SOURCE_DIR/sim/scenarios/$name.json" \
    COLUMNS=79 "$NVT_BINARY_DIR/bin/nvitop" -1 >"$work/sim.txt" 2>&1
cat "$work/sim.txt"
# Lines 2-9: the driver line and the GPU table, our version number aside, and the readings that
# move between the walk and the report (temperature, power draw, utilisation) masked.
mask() {
    sed -n -e 's/NVITOP [0-9][0-9.]* /NVITOP x.y.z /' \
        -e '9s/[0-9][0-9]*C /NNC /; 9s/[0-9][0-9]*W \//NNNW \//; 9s/[0-9][0-9]*% /NN% /' -e 2,9p "$1"
}
mask "$real" >"$work/want"
mask "$work/sim.txt" >"$work/got"
diff -u "$work/want" "$work/got"
# The process row: GPU, pid, type and GPU memory as the real one.
row=$(grep -E '^│ +[0-9]+ +[0-9]+ C' "$real" | awk '{print $2, $3, $4, $6}')
[ -n "$row" ]
got=$(grep -E '^│ +[0-9]+ +[0-9]+ C' "$work/sim.txt" | awk '{print $2, $3, $4, $6}')
[ "$got" = "$row" ] || { echo "process row: got '$got', the real one '$row'"; exit 1; }
echo "hw-replay: the simulated $name reads as the real one"
