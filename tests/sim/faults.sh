#!/bin/sh
# Our programs under sim/scenarios/fault-realism.json show the truth: the processes that started
# between a size and a fill call, the GPU whose utilisation query stalls, the GPU whose
# MemoryInfo_v2 is exported but FUNCTION_NOT_FOUND (v1 stands in) and whose NVLink fields fail,
# and the GPU lost in the middle of the snapshot.
set -eu
: "${NVT_SOURCE_DIR:?run through ctest}" "${NVT_BINARY_DIR:?run through ctest}"
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-faults.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export NVML_SIM_SCENARIO="$NVT_SOURCE_DIR/sim/scenarios/fault-realism.json"
export COLUMNS=120
"$NVT_BINARY_DIR/bin/nvitop" -1 >"$work/once.txt" 2>&1
cat "$work/once.txt"
for pid in 4216001 4216002 4216003 4216004; do
    grep -Eq "^│   0 $pid C +N/A +1?[09][04]00MiB" "$work/once.txt" ||
        { echo "process $pid of GPU 0 missing"; exit 1; }
done
grep -Eq "^│   2 4216005 C +N/A +19400MiB" "$work/once.txt"
grep -Eq "60W / 400W │ +1000MiB / 80.00GiB │ +3% " "$work/once.txt"
grep -Eq "200W / 400W │ +20.12GiB / 80.00GiB │ +40% " "$work/once.txt"
grep -Eq "^│   3  ERROR: GPU is Lost   N/A │ N/A +N/A │" "$work/once.txt"
! grep -q 4216006 "$work/once.txt"
"$NVT_BINARY_DIR/bin/nvitop" --json >"$work/once.json"
python3 - "$work/once.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pids = sorted(p["pid"] for p in d["processes"])
assert pids == [4216001, 4216002, 4216003, 4216004, 4216005], pids
devices = d["devices"]
# MemoryInfo_v2 is FUNCTION_NOT_FOUND on GPU 2: v1 counts the reserved 600 MiB as used.
assert devices[2]["memory_used_bytes"] == (20000 + 600) * 1048576, devices[2]
assert devices[1]["gpu_util_percent"] == 3, devices[1]
# PciInfo_v3 is FUNCTION_NOT_FOUND on GPU 2: _v2 fills only the 16-byte bus id (as a real driver
# does), which the library widens; every GPU keeps its full bus id.
bus_ids = [dev["bus_id"] for dev in devices[:3]]
assert bus_ids == ["00000000:07:00.0", "00000000:0F:00.0", "00000000:47:00.0"], bus_ids
# GPU 3 falls off the bus in the middle of the snapshot: reported lost, its process not listed,
# the other GPUs untouched.
assert devices[3]["status"] == "gpu_is_lost", devices[3]
assert [dev["status"] for dev in devices[:3]] == ["ok"] * 3, [dev["status"] for dev in devices]
print("json: ok")
PY
