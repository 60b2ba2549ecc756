#!/usr/bin/env python3
"""Write the many-process scenarios of sim/scenarios/ from h100-8gpu.json.

    python3 scripts/scale-scenario.py            rewrite h100-8gpu-1000.json and h100-16gpu-4000.json,
                                                 and their idle twins h100-8gpu-idle.json and
                                                 h100-16gpu-idle.json

Each keeps h100-8gpu.json's GPUs (the 16-GPU one repeats them with new UUIDs and bus ids) and
spreads COUNT compute processes over them round-robin, on the placeholders NVT_STANDIN_1..COUNT
(scripts/standins.sh start COUNT starts them; the defaults, 5000001 on, are pids no Linux
process can hold).  One process in eight has SM utilisation, so that the process utilisation
samples grow with the count too.  The idle twins have the same GPUs and no process: the
benchmarks measure a refresh's fixed cost on them, in the same run, and print the cost per
process above it (docs/performance.md, "The cost per process above the fixed cost").
"""
import copy
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.join(HERE, "..", "sim", "scenarios")
DEFAULT_PID = 5000000


def devices(base, gpus):
    out = []
    for i in range(gpus):
        dev = copy.deepcopy(base[i % len(base)])
        if i >= len(base):
            # A second tray: new identities, bus numbers 0x100 further on.
            dev["uuid"] = dev["uuid"][:-4] + "%04x" % (0xB000 + i)
            domain, bus, rest = dev["pci"]["bus_id"].split(":", 2)
            dev["pci"]["bus_id"] = "%s:%02X:%s" % ("00000001", int(bus, 16), rest)
            if "serial" in dev:
                dev["serial"] = str(int(dev["serial"]) + 1000 + i)
        # Accounting mode off: its pid list (nvmlDeviceGetAccountingPids) would hold hundreds of
        # pids, more than the scenario walker's buffer (tests/sim), and nothing here needs it.
        dev["accounting"] = False
        out.append(dev)
    return out


def process(n, gpu_memory_mib, per_gpu):
    entry = {
        "pid": "${NVT_STANDIN_%d:-%d}" % (n, DEFAULT_PID + n),
        "type": "compute",
        "used_mib": max(1, gpu_memory_mib // (per_gpu + 1)),
    }
    if n % 8 == 1:
        entry["sm"] = 10 + n % 80
    return entry


def write(name, gpus, count):
    with open(os.path.join(SCENARIOS, "h100-8gpu.json"), encoding="utf-8") as f:
        scenario = json.load(f)
    scenario["devices"] = devices(scenario["devices"], gpus)
    per_gpu = (count + gpus - 1) // gpus
    lists = [[] for _ in range(gpus)]
    for n in range(1, count + 1):
        lists[(n - 1) % gpus].append(n)
    for dev, pids in zip(scenario["devices"], lists):
        dev["processes"] = ["@%d" % n for n in pids]
    text = json.dumps(scenario, indent=2)
    # One line per process, so that the file stays readable.
    memory = {n: dev["memory"]["total_mib"] for dev, pids in zip(scenario["devices"], lists)
              for n in pids}
    text = re.sub(r'"@(\d+)"',
                  lambda m: json.dumps(process(int(m.group(1)), memory[int(m.group(1))], per_gpu)),
                  text)
    with open(os.path.join(SCENARIOS, name), "w", encoding="utf-8") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    write("h100-8gpu-1000.json", 8, 1000)
    write("h100-16gpu-4000.json", 16, 4000)
    write("h100-8gpu-idle.json", 8, 0)
    write("h100-16gpu-idle.json", 16, 0)
