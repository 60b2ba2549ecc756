#!/bin/sh
# A MIG-enabled GPU re-partitioned while the monitor runs (issue 13, item 6): the simulator
# reloads the rewritten a100-mig scenario; a destroyed instance disappears (its row and its
# process), an instance created in a free slot appears with its process, and an instance created
# again in a freed slot with another profile shows its new name and instance ids.
. "$(dirname "$0")/tmux_lib.sh"

# edit_mig PYTHON: run PYTHON on `instances` (the MIG instances of GPU 0) and rewrite the scenario
# atomically.
edit_mig() {
    python3 - "$SCENARIO" "$1" <<'PY'
import json, os, sys
path, code = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    scenario = json.load(f)
instances = scenario["devices"][0]["mig"]["instances"]
exec(code)
with open(path + ".new", "w", encoding="utf-8") as f:
    json.dump(scenario, f, indent=2)
os.replace(path + ".new", path)
PY
}

start_standins 6
use_scenario a100-mig.json
start_monitor 140 50 -m full
ROW2="│ 0:2       1g.5gb @ GI/CI:13/0 │"
wait_for "$ROW2"
wait_for " $NVT_STANDIN_3 C "

# Destroy the 1g.5gb instance (slot 2) and the 2g.10gb one (slot 1) with its two processes.
edit_mig 'instances[:] = [i for i in instances if i["slot"] == 0]'
wait_gone "$ROW2"
wait_gone "│ 0:1 "
wait_gone " $NVT_STANDIN_3 C "
capture | grep -qF "│ 0:0      3g.20gb @ GI/CI: 1/0 │" || fail "the remaining instance disappeared"

# Create a 3g.20gb instance in slot 4, with a process.
edit_mig 'instances.append(dict(instances[0], slot=4, gpu_instance_id=2,
    uuid="MIG-00000000-1111-5222-8333-444444444444",
    memory={"total_mib": 19968, "used_mib": 1234},
    processes=[{"pid": "${NVT_STANDIN_6:-4424306}", "type": "compute", "used_mib": 1200,
                "sm": 1, "mem": 1}]))'
wait_for "│ 0:4      3g.20gb @ GI/CI: 2/0 │" 15
wait_for " $NVT_STANDIN_6 C " 5
capture | grep -F " $NVT_STANDIN_6 C " | grep -F "│ 0:4 " | grep -qF "1200MiB" || { fail "no row for the new instance's process"; capture >&2; }

# Slot 0 destroyed and created again at once with another profile: same slot, new identity.
edit_mig 'instances[0].update(name="NVIDIA A100-SXM4-40GB MIG 2g.10gb", gpu_instance_id=6,
    uuid="MIG-00000000-1111-5222-8333-555555555555")'
wait_for "│ 0:0      2g.10gb @ GI/CI: 6/0 │" 15
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
finish
