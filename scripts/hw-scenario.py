#!/usr/bin/env python3
"""Turns what nvml-walk printed (device TAB query TAB answer) into a scenario file for the
simulator (docs/scenarios.md), so that a machine seen once can be replayed: every value becomes a
constant, NOT_SUPPORTED leaves its key out, any other error becomes {"error": NAME}.  Used by
scripts/hw-check.sh.  Usage: hw-scenario.py WALK.tsv [NVITOP.json] [--times WALK-TIMES.tsv]

With the `nvitop --json` of the same machine, the memory in use (and the driver's reservation)
and the GPU processes join it: their pids are the real machine's, which replay as processes that
no longer exist.  With the walker's times, every entry point whose calls took LATENCY_FLOOR_US or
more each becomes a `call_latency`: a walker case's time divided by the answers it printed."""
import argparse
import json
import re
import sys

PCIE_SPEEDS = ["invalid", "2500", "5000", "8000", "16000", "32000", "64000"]
COMPUTE_MODES = ["default", "exclusive_thread", "prohibited", "exclusive_process"]
ARCHITECTURES = ["kepler", "maxwell", "pascal", "volta", "turing", "ampere", "ada", "hopper",
                 "blackwell"]
BRANDS = ["unknown", "quadro", "tesla", "nvs", "grid", "geforce", "titan", "nvidia_vapps",
          "nvidia_vpc", "nvidia_vcs", "nvidia_vws", "nvidia_cloud_gaming", "quadro_rtx",
          "nvidia_rtx", "nvidia", "geforce_rtx", "titan_rtx"]
BUS_TYPES = ["unknown", "pci", "pcie", "fpci", "agp"]
POWER_SOURCES = ["ac", "battery", "undersized"]

TEXT, NUM, BOOL, MILLI = "text", "num", "bool", "milli"

# query as nvml-walk prints it -> (scenario path, kind or list of names, offset for names)
SIMPLE = {
    "nvmlDeviceGetName": ("name", TEXT),
    "nvmlDeviceGetUUID": ("uuid", TEXT),
    "nvmlDeviceGetSerial": ("serial", TEXT),
    "nvmlDeviceGetVbiosVersion": ("vbios", TEXT),
    "nvmlDeviceGetPciInfo_v3": ("pci.bus_id", TEXT),
    "nvmlDeviceGetCurrPcieLinkGeneration": ("pci.link_gen", NUM),
    "nvmlDeviceGetMaxPcieLinkGeneration": ("pci.link_gen_max", NUM),
    "nvmlDeviceGetCurrPcieLinkWidth": ("pci.link_width", NUM),
    "nvmlDeviceGetMaxPcieLinkWidth": ("pci.link_width_max", NUM),
    "nvmlDeviceGetPcieLinkMaxSpeed": ("pci.max_speed_mbps", PCIE_SPEEDS),
    "nvmlDeviceGetPcieReplayCounter": ("pci.replay_counter", NUM),
    "nvmlDeviceGetMemoryInfo(total)": ("memory.total_mib", NUM),
    "nvmlDeviceGetBAR1MemoryInfo(total)": ("bar1.total_mib", NUM),
    "nvmlDeviceGetUtilizationRates(gpu)": ("utilization.gpu", NUM),
    "nvmlDeviceGetUtilizationRates(memory)": ("utilization.memory", NUM),
    "nvmlDeviceGetEncoderUtilization": ("utilization.encoder", NUM),
    "nvmlDeviceGetDecoderUtilization": ("utilization.decoder", NUM),
    "nvmlDeviceGetFanSpeed": ("fan", NUM),
    "nvmlDeviceGetTemperature": ("temperature", NUM),
    "nvmlDeviceGetPowerUsage": ("power.usage_w", MILLI),
    "nvmlDeviceGetPowerManagementLimit": ("power.limit_w", MILLI),
    "nvmlDeviceGetPowerManagementDefaultLimit": ("power.default_limit_w", MILLI),
    "nvmlDeviceGetPowerManagementLimitConstraints(min)": ("power.min_w", MILLI),
    "nvmlDeviceGetPowerManagementLimitConstraints(max)": ("power.max_w", MILLI),
    "nvmlDeviceGetPowerManagementMode": ("power.management", BOOL),
    "nvmlDeviceGetTotalEnergyConsumption": ("power.energy_j", MILLI),
    "nvmlDeviceGetPerformanceState": ("pstate", NUM),
    "nvmlDeviceGetPersistenceMode": ("persistence_mode", BOOL),
    "nvmlDeviceGetDisplayActive": ("display_active", BOOL),
    "nvmlDeviceGetDisplayMode": ("display_mode", BOOL),
    "nvmlDeviceGetComputeMode": ("compute_mode", COMPUTE_MODES),
    "nvmlDeviceGetCudaComputeCapability": ("cuda_capability", TEXT),
    "nvmlDeviceGetEccMode(current)": ("ecc_mode.current", BOOL),
    "nvmlDeviceGetEccMode(pending)": ("ecc_mode.pending", BOOL),
    "nvmlDeviceGetArchitecture": ("architecture", ARCHITECTURES, 2),
    "nvmlDeviceGetBrand": ("brand", BRANDS),
    "nvmlDeviceGetBoardId": ("board_id", NUM),
    "nvmlDeviceGetBoardPartNumber": ("board_part_number", TEXT),
    "nvmlDeviceGetBusType": ("bus_type", BUS_TYPES),
    "nvmlDeviceGetMemoryBusWidth": ("memory_bus_width", NUM),
    "nvmlDeviceGetNumGpuCores": ("cores", NUM),
    "nvmlDeviceGetPowerSource": ("power_source", POWER_SOURCES),
    "nvmlDeviceGetMinorNumber": ("minor_number", NUM),
    "nvmlDeviceGetMultiGpuBoard": ("multi_gpu_board", BOOL),
    "nvmlDeviceGetIrqNum": ("irq", NUM),
    "nvmlDeviceGetCurrentClocksThrottleReasons": ("throttle_reasons", NUM),
    "nvmlDeviceGetInforomImageVersion": ("inforom.image", TEXT),
    "inforom.oem": ("inforom.oem", TEXT),
    "inforom.ecc": ("inforom.ecc", TEXT),
    "inforom.power": ("inforom.power", TEXT),
    "nvmlDeviceGetRetiredPagesPendingStatus": ("retired_pages_pending", BOOL),
    "nvmlDeviceGetAccountingMode": ("accounting", BOOL),
    "nvmlDeviceGetMigMode(current)": ("mig.mode", BOOL),
    "nvmlDeviceGetMaxMigDeviceCount": ("mig.max_count", NUM),
}
for key in ("volatile_corrected", "volatile_uncorrected", "aggregate_corrected",
            "aggregate_uncorrected"):
    SIMPLE["ecc." + key] = ("ecc." + key, NUM)
for clock in ("graphics", "sm", "memory", "video"):
    SIMPLE["nvmlDeviceGetClockInfo(%s)" % clock] = ("clocks." + clock, NUM)
    SIMPLE["nvmlDeviceGetMaxClockInfo(%s)" % clock] = ("clocks.%s_max" % clock, NUM)
    SIMPLE["nvmlDeviceGetApplicationsClock(%s)" % clock] = ("clocks.%s_app" % clock, NUM)
    SIMPLE["nvmlDeviceGetMaxCustomerBoostClock(%s)" % clock] = ("clocks.%s_boost" % clock, NUM)
    SIMPLE["nvmlDeviceGetClock(%s,2)" % clock] = ("clocks.%s_app_default" % clock, NUM)
for key in ("shutdown", "slowdown", "mem_max", "gpu_max", "acoustic_min", "acoustic_curr",
            "acoustic_max", "gps_curr"):
    SIMPLE["nvmlDeviceGetTemperatureThreshold(%s)" % key] = ("temperature_thresholds." + key, NUM)

ERROR = re.compile(r"^[A-Z][A-Z_]+$")


def convert(answer, kind, offset):
    if kind == TEXT:
        return answer
    value = float(answer)
    if kind == MILLI:
        return value / 1000.0
    if kind == BOOL:
        return value != 0
    if isinstance(kind, list):
        index = int(value) - offset
        return kind[index] if 0 <= index < len(kind) else None
    return int(value) if value == int(value) else value


def put(device, path, value):
    keys = path.split(".")
    for key in keys[:-1]:
        device = device.setdefault(key, {})
    device[keys[-1]] = value


PROCESS_TYPES = {"C": "compute", "G": "graphics", "C+G": "compute+graphics"}
MIB = 1 << 20


def add_report(devices, path):
    """Memory in use and the processes from nvitop --json, by device index."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    for entry in report.get("devices", []):
        device = devices.get(entry.get("index"))
        if device is None or entry.get("mig_index") is not None:
            continue
        total, used = entry.get("memory_total_bytes"), entry.get("memory_used_bytes")
        free = entry.get("memory_free_bytes")
        if None not in (total, used, free):
            put(device, "memory.used_mib", round(used / MIB, 3))
            put(device, "memory.reserved_mib", round((total - used - free) / MIB))
        if entry.get("bar1_used_bytes") is not None:
            put(device, "bar1.used_mib", round(entry["bar1_used_bytes"] / MIB))
    for process in report.get("processes", []):
        where = process.get("device", {})
        device = devices.get(where.get("index"))
        if device is None or where.get("mig_index") is not None:
            continue
        item = {"pid": process["pid"], "type": PROCESS_TYPES.get(process.get("type"), "compute")}
        if process.get("gpu_memory_bytes") is not None:
            item["used_mib"] = round(process["gpu_memory_bytes"] / MIB)
        for key, name in (("sm", "sm_util_percent"), ("mem", "memory_bandwidth_util_percent"),
                          ("enc", "encoder_util_percent"), ("dec", "decoder_util_percent")):
            if process.get(name) is not None:
                item[key] = process[name]
        device.setdefault("processes", []).append(item)


LATENCY_FLOOR_US = 500
# Answers the walker prints under another name than their entry point's.
ANSWER_OF = {"ecc": "nvmlDeviceGetTotalEccErrors", "inforom": "nvmlDeviceGetInforomVersion"}


def call_latencies(times_path, walk_path):
    """Seconds per call of the slow entry points, from the first device's timings."""
    answers = {}
    with open(walk_path, encoding="utf-8", errors="replace") as walk:
        for line in walk:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 3 and fields[0] == "0":
                name = fields[1].split("(", 1)[0]
                name = ANSWER_OF.get(name.split(".", 1)[0], name)
                answers[name] = answers.get(name, 0) + 1
    latency = {}
    with open(times_path, encoding="utf-8") as times:
        for line in times:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3 or fields[0] != "0" or not fields[1].startswith("nvml"):
                continue
            per_call = float(fields[2]) / max(1, answers.get(fields[1], 1))
            if per_call >= LATENCY_FLOOR_US:
                latency[fields[1]] = round(per_call / 1e6, 4)
    return latency


def main():
    parser = argparse.ArgumentParser(description="nvml-walk's answers as a scenario file")
    parser.add_argument("walk")
    parser.add_argument("report", nargs="?")
    parser.add_argument("--times")
    args = parser.parse_args()
    system = {}
    devices = {}
    fans = {}
    links = {}
    with open(args.walk, encoding="utf-8", errors="replace") as walk:
        for line in walk:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3:
                continue
            where, query, answer = fields
            if where == "-":
                system[query] = answer
                continue
            if not where.isdigit():
                continue  # an entry point the driver does not export ("not exported")
            index = int(where)
            device = devices.setdefault(index, {})
            if query.startswith("nvmlDeviceGetFanSpeed_v2(") and not ERROR.match(answer):
                fans.setdefault(index, []).append(int(answer))
                continue
            if query.startswith("nvmlDeviceGetNvLinkState(") and answer == "1":
                links[index] = links.get(index, 0) + 1
                continue
            if query.startswith("nvmlDeviceGetNvLinkRemotePciInfo_v2(") and not ERROR.match(answer):
                remote = device.setdefault("nvlink", {}).setdefault("remote_bus_ids", [])
                if query == "nvmlDeviceGetNvLinkRemotePciInfo_v2(%d)" % len(remote):
                    remote.append(answer)
                continue
            if query == "nvmlDeviceGetNvLinkVersion(0)" and not ERROR.match(answer):
                put(device, "nvlink.version", int(answer))
                continue
            spec = SIMPLE.get(query)
            if spec is None or answer == "NOT_SUPPORTED":
                continue
            if ERROR.match(answer) and spec[1] != TEXT:
                put(device, spec[0], {"error": answer})
                continue
            value = convert(answer, spec[1], spec[2] if len(spec) > 2 else 0)
            if value is not None:
                put(device, spec[0], value)
    if args.report is not None:
        add_report(devices, args.report)
    for index, speeds in fans.items():
        devices[index]["fans"] = speeds
    for index, count in links.items():
        devices[index].setdefault("nvlink", {})["links"] = count
    driver = {"version": system.get("nvmlSystemGetDriverVersion", "0.0"),
              "cuda_version": int(system.get("nvmlSystemGetCudaDriverVersion_v2", "0") or 0)}
    scenario = {"driver": driver}
    if args.times is not None:
        latency = call_latencies(args.times, args.walk)
        if latency:
            scenario["call_latency"] = latency
    scenario["devices"] = [devices[i] for i in sorted(devices) if "uuid" in devices[i]]
    json.dump(scenario, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
