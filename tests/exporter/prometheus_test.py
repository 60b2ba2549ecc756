#!/usr/bin/python3
"""nvitop-exporter scraped by a real Prometheus server (Debian's `prometheus`).

usage: prometheus_test.py NVITOP_EXPORTER_BINARY

On the 8-GPU scenario with 20 stand-in jobs: every metric of docs/exporter.md is in Prometheus with
exactly its labels; the host I/O series are the interfaces, devices and mounts psutil would list;
device and process values are the scenario's at the frozen simulated time; dashboard queries
(count by hostname and index, per-user memory sums) give the expected numbers; a process that
exits disappears.  On the MIG scenario: MIG devices as index="<gpu>:<mig>" with their values and
processes.
"""
import getpass
import json
import math
import os
import re
import sys
import tempfile
import urllib.request

import exporter_lib as lib
from metric_table import METRICS

PROMETHEUS_LABELS = {'instance', 'job'}


def expected_interfaces():
    with open('/proc/net/dev', encoding='ascii') as f:
        return {line.rpartition(':')[0].strip() for line in f.readlines()[2:] if ':' in line}


def expected_partitions():
    names = set()
    with open('/proc/diskstats', encoding='ascii') as f:
        for line in f:
            fields = line.split()
            if len(fields) in (7, 14) or len(fields) >= 18:
                names.add(fields[2])
    return names


def expected_mountpoints():
    """psutil.disk_partitions(all=False) whose disk_usage() works, and "/"."""
    physical = set()
    with open('/proc/filesystems', encoding='ascii') as f:
        for line in f:
            fields = line.split()
            if fields and fields[0] != 'nodev':
                physical.add(fields[0])
            elif fields[1:] == ['zfs']:
                physical.add('zfs')
    mounts = set()
    with open('/proc/self/mounts', encoding='utf-8') as f:
        for line in f:
            fields = line.split()
            if len(fields) < 3 or fields[0] == 'none' or fields[2] not in physical:
                continue
            point = re.sub(r'\\([0-3][0-7][0-7])', lambda m: chr(int(m.group(1), 8)), fields[1])
            try:
                os.statvfs(point)
            except OSError:
                continue
            mounts.add(point)
    # "/" always: in a chroot or a container the table lists no disk visible there.
    mounts.add('/')
    return mounts


def expected_container():
    """Our container label of the stand-ins (they share our cgroup): '' unless this test itself
    runs in a container whose cgroup path names one; then only consistency is checked."""
    with open('/proc/self/cgroup', encoding='utf-8') as f:
        text = f.read()
    if re.search(r'[0-9a-f]{64}|kubepods|lxc', text):
        return None
    return ''


def series_by_name(prom):
    by_name = {}
    for series in prom.query('{job="nvitop"}'):
        labels = dict(series['metric'])
        by_name.setdefault(labels.pop('__name__'), []).append((labels, series['value'][1]))
    return by_name


def check_label_sets(by_name):
    for name, labels in METRICS.items():
        lib.check(name in by_name, f'{name} is missing from Prometheus')
        for series_labels, _ in by_name[name]:
            keys = set(series_labels) - PROMETHEUS_LABELS
            # Prometheus stores an empty label value as no label: on bare metal `container=""`.
            if 'container' in labels and 'container' not in keys:
                keys.add('container')
            lib.check(keys == labels, f'{name} has labels {sorted(keys)}, expected '
                      f'{sorted(labels)}')
    extra = {name for name in by_name
             if name not in METRICS and name != 'up' and not name.startswith('scrape_')}
    lib.check(not extra, f'unexpected metrics: {sorted(extra)}')


def values_of(by_name, name, key):
    return {labels[key]: value for labels, value in by_name[name]}


def check_host(by_name):
    for name, key, expected in (('host_net_io_rx_data_MiB', 'interface', expected_interfaces()),
                                ('host_disk_io_read_data_MiB', 'partition',
                                 expected_partitions()),
                                ('host_disk_usage_total_MiB', 'mountpoint',
                                 expected_mountpoints())):
        got = set(values_of(by_name, name, key))
        lib.check(got == expected, f'{name}: {key}s {sorted(got)}, expected {sorted(expected)}')
    st = os.statvfs('/')
    if '/' in expected_mountpoints():
        total = float(values_of(by_name, 'host_disk_usage_total_MiB', 'mountpoint')['/'])
        lib.check(total == st.f_blocks * st.f_frsize / 1048576, f'/ total {total} MiB')
    for labels, value in by_name['host_uptime_Second']:
        lib.check(labels['hostname'] == 'testhost' and float(value) > 0, f'uptime {value}')


def close(a, b, tolerance=1e-6):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= tolerance * max(1.0, abs(b))


def device_expectations(device):
    """Expected values of one physical device of a scenario at the frozen time."""
    memory = device['memory']
    used = lib.sim_round(lib.sim_value(memory['used_mib']) * 1048576) / 1048576
    util = device.get('utilization', {})
    return {
        'gpu_memory_total_MiB': float(memory['total_mib']),
        'gpu_memory_used_MiB': used,
        'gpu_memory_percent_Percentage': round(100 * used / memory['total_mib'], 1),
        'gpu_utilization_Percentage': lib.sim_round(lib.sim_value(util['gpu'])),
        'gpu_memory_utilization_Percentage': lib.sim_round(lib.sim_value(util['memory'])),
        'gpu_clock_sm_MHz': float(device['clocks']['sm']),
        'gpu_clock_memory_MHz': float(device['clocks']['memory']),
        'gpu_temperature_C': lib.sim_round(lib.sim_value(device['temperature'])),
        'gpu_power_limit_W': float(device['power']['limit_w']),
        'gpu_fan_speed_Percentage': (math.nan if device.get('fan') is None else
                                     lib.sim_round(lib.sim_value(device['fan']))),
        'gpu_pcie_tx_throughput_MiBps':
            lib.sim_round(lib.sim_value(device['pci']['tx_kibps'])) / 1024,
    }


def check_devices(by_name, scenario):
    for index, device in enumerate(scenario['devices']):
        for name, expected in device_expectations(device).items():
            got = values_of(by_name, name, 'index')
            lib.check(str(index) in got, f'{name} has no series for GPU {index}')
            # From R555 on the PCIe rate is the mean between two readings of the driver's byte
            # counters (whole KiB/s, microsecond timestamps): within 0.1 % of the scenario's.
            tolerance = 1e-3 if name.startswith('gpu_pcie_') else 1e-6
            lib.check(close(float(got[str(index)]), expected, tolerance),
                      f'{name}{{index="{index}"}} = {got[str(index)]}, expected {expected}')
        links = [labels['link'] for labels, _ in by_name['gpu_nvlink_tx_throughput_MiBps']
                 if labels['index'] == str(index)]
        count = device.get('nvlink', {}).get('links', 0)
        lib.check(sorted(links, key=int) == [str(i) for i in range(count)],
                  f'GPU {index} NVLink links {links}')
        labels = [lb for lb, _ in by_name['gpu_utilization_Percentage']
                  if lb['index'] == str(index)][0]
        lib.check(labels['uuid'] == device['uuid'] and labels['devicename'] == device['name'],
                  f'GPU {index} labels {labels}')


def exported_processes(scenario):
    """(index label, uuid, process spec) of every process on a leaf device, and of every process
    of a MIG device under its GPU too (once per pid), as nvitop-exporter 1.7 lists them: NVML's
    process query on a MIG-enabled GPU answers for all its instances."""
    for index, device in enumerate(scenario['devices']):
        mig = device.get('mig') or {}
        if mig.get('mode'):
            seen = set()
            for instance in mig.get('instances', []):
                for process in instance.get('processes', []):
                    if process['pid'] not in seen:
                        seen.add(process['pid'])
                        yield str(index), device['uuid'], process
            for instance in mig.get('instances', []):
                for process in instance.get('processes', []):
                    yield f'{index}:{instance["slot"]}', instance['uuid'], process
        else:
            for process in device.get('processes', []):
                yield str(index), device['uuid'], process


def check_processes(by_name, scenario):
    user = getpass.getuser()
    container = expected_container()
    memory = {(lb['index'], lb['pid']): (lb, float(v))
              for lb, v in by_name['process_gpu_memory_MiB']}
    info = {(lb['index'], lb['pid']): lb for lb, _ in by_name['process_info_info']}
    expected_total = 0.0
    count = 0
    for index, uuid, process in exported_processes(scenario):
        key = (index, str(process['pid']))
        lib.check(key in memory, f'no process_gpu_memory_MiB for pid {key[1]} on {index}')
        labels, value = memory[key]
        spec = lib.sim_value(process.get('used_mib'))
        expected = math.nan if spec is None else lib.sim_round(spec * 1048576) / 1048576
        lib.check(close(value, expected), f'pid {key[1]}: {value} MiB, expected {expected}')
        lib.check(labels['username'] == user and labels['uuid'] == uuid,
                  f'pid {key[1]} labels {labels}')
        lib.check(container is None or labels.get('container', '') == container,
                  f'pid {key[1]} container {labels.get("container")!r}, expected {container!r}')
        with open(f'/proc/{key[1]}/cmdline', 'rb') as f:
            argv = [a.decode() for a in f.read().split(b'\0') if a]
        command = info[key]['command']
        for arg in argv:
            lib.check(' ' in arg or "'" in arg or arg in command,
                      f'pid {key[1]}: {arg!r} not in command {command!r}')
        lib.check(info[key]['status'] in ('sleeping', 'running'), f'status {info[key]}')
        expected_total += expected
        count += 1
    lib.check(len(memory) == count, f'{len(memory)} process series, expected {count}')
    return user, expected_total


def check_dashboard(prom, scenario, user, expected_total, leaf_count):
    counts = prom.query('count by (hostname, index) (gpu_utilization_Percentage)')
    lib.check(len(counts) == leaf_count and all(
        r['metric']['hostname'] == 'testhost' and r['value'][1] == '1' for r in counts),
        f'count by (hostname, index): {counts}')
    sums = prom.query('sum by (username) (process_gpu_memory_MiB{job="nvitop"})')
    lib.check(len(sums) == 1 and sums[0]['metric']['username'] == user and
              close(float(sums[0]['value'][1]), expected_total),
              f'per-user memory sum {sums}, expected {expected_total} for {user}')
    info = prom.query('nvitop_info')
    lib.check(len(info) == 1 and info[0]['metric']['device_count'] ==
              str(len(scenario['devices'])), f'nvitop_info {info}')


def check_exit(prom, exporter, scenario_file, scenario, victim):
    """Drop the victim from the scenario (the job exited) and wait until it is gone."""
    for device in scenario['devices']:
        device['processes'] = [p for p in device.get('processes', [])
                               if str(p['pid']) != victim]
    lib.write_scenario(scenario_file, scenario)
    query = f'process_gpu_memory_MiB{{pid="{victim}"}}'
    lib.wait_until(lambda: not prom.query(query) and
                   f'pid="{victim}"' not in exporter.fetch()[2], 20,
                   f'pid {victim} to disappear')
    lib.check(prom.query('count(process_gpu_memory_MiB)')[0]['value'][1] == '19',
              'the other 19 processes should stay')


# The series a scrape job keeps with `params: {name[]: [...]}` (tests/exporter/filter_test.py).
FILTERED = ['gpu_temperature_C', 'process_rss_memory_MiB']


def check_filtered(prom, by_name):
    """The job scraping with name[] parameters has those series, the same ones as the whole
    scrape, and no others but Prometheus's own (up, scrape_*)."""
    def names_of_job():
        result = prom.query('count by (__name__) ({job="nvitop_filtered"})')
        return {r['metric']['__name__'] for r in result} - {'up'}
    names = lib.wait_until(lambda: (lambda n: n if set(FILTERED) <= n else None)(names_of_job()),
                           20, 'the filtered job\'s series')
    names = {n for n in names if not n.startswith('scrape_')}
    lib.check(names == set(FILTERED), f'the filtered job has {sorted(names)}')
    for name in FILTERED:
        result = prom.query(f'count({name}{{job="nvitop_filtered"}})')
        count = int(float(result[0]['value'][1])) if result else 0
        lib.check(count == len(by_name[name]), f'{name}: {count} series filtered, '
                  f'{len(by_name[name])} in the whole scrape')


def check_openmetrics(prom):
    """Prometheus asks for OpenMetrics first (its default Accept header): it has the exporter's
    families as that format types them, info families under their base name and every gauge with
    its unit, as nvitop-exporter 1.7 serves them."""
    url = f'http://127.0.0.1:{prom.port}/api/v1/metadata'
    with urllib.request.urlopen(url, timeout=10) as r:
        metadata = json.load(r)['data']
    for family, kind, unit in (('process_info', 'info', ''), ('nvitop', 'info', ''),
                               ('host_uptime_Second', 'gauge', 'Second'),
                               ('gpu_memory_total_MiB', 'gauge', 'MiB')):
        got = metadata.get(family, [{}])[0]
        lib.check(got.get('type') == kind and got.get('unit', '') == unit,
                  f'{family}: metadata {got}, expected type {kind} unit {unit!r}')


def run_scenario(binary, name, standins, full):
    scenario = lib.load_scenario(name, standins)
    with tempfile.TemporaryDirectory(prefix='nvt-exporter-') as tmp:
        scenario_file = os.path.join(tmp, name + '.json')
        lib.write_scenario(scenario_file, scenario)
        filtered = FILTERED if full else None
        with lib.Exporter(binary, scenario_file, ['--interval', '0.5']) as exporter, \
                lib.Prometheus(exporter.port, filtered_names=filtered) as prom:
            prom.wait_scrapes(3)
            by_name = series_by_name(prom)
            if full:
                check_filtered(prom, by_name)
                check_openmetrics(prom)
                check_label_sets(by_name)
                check_host(by_name)
                check_devices(by_name, scenario)
            user, total = check_processes(by_name, scenario)
            leaves = {lb['index'] for lb, _ in by_name['gpu_utilization_Percentage']}
            if full:
                check_dashboard(prom, scenario, user, total, len(leaves))
                victim = str(scenario['devices'][0]['processes'][0]['pid'])
                check_exit(prom, exporter, scenario_file, scenario, victim)
            return by_name


def check_mig(by_name, scenario):
    indices = {lb['index'] for lb, _ in by_name['gpu_memory_total_MiB']}
    lib.check(indices == {'0', '0:0', '0:1', '0:2', '1'}, f'MIG indices {sorted(indices)}')
    totals = values_of(by_name, 'gpu_memory_total_MiB', 'index')
    for instance in scenario['devices'][0]['mig']['instances']:
        index = f'0:{instance["slot"]}'
        lib.check(float(totals[index]) == instance['memory']['total_mib'],
                  f'{index} total {totals[index]}')
    uuids = values_of(by_name, 'gpu_memory_total_MiB', 'uuid')
    lib.check(all(u.startswith(('GPU-', 'MIG-')) for u in uuids), f'uuids {uuids}')


def main(argv):
    binary = argv[0]
    with lib.standins(20) as standins:
        run_scenario(binary, 'h100-8gpu', standins, full=True)
        scenario = lib.load_scenario('a100-mig', standins)
        check_mig(run_scenario(binary, 'a100-mig', standins, full=False), scenario)


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    lib.main_wrapper(main)
