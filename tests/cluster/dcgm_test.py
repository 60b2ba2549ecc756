"""dcgm-exporter nodes, recognised from their bodies with no flag: three loopback servers serving
the bodies of tests/cluster/dcgm (written from dcgm-exporter's documented default counters and
labels: 3.x without Kubernetes labels, 4.x with DCGM_FI_DRIVER_VERSION and pods, 4.x with MIG
instances and DCGM blank values) beside our exporter on the faulty scenario.  nvitop -1 and
--json with --hosts, then the same nodes through a real Prometheus (Debian's) scraping them: the
same lines."""
import contextlib
import json
import os
import shlex
import sys

from cluster_lib import (Exporter, FleetPrometheus, check, main_wrapper, nodes_table, run_nvitop,
                         scenario_path, served, total_line, wait_until)
from once_test import EXPECTED
from screen_test import Tmux

BODIES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'dcgm')

# Checked by hand from the bodies: blank values (DCGM_FP64_BLANK power, DCGM_INT64_NOT_SUPPORTED,
# DCGM_INT32_NOT_SUPPORTED utilisation of a MIG-enabled GPU) are left out of every figure; memory
# is FB used + free + reserved; a MIG-enabled GPU's memory is its instances'; pods are the users;
# dcgm-exporter has no process count (N/A).  Health: 3.x GPU 0 has SW thermal slowdown (0x20) in
# DCGM_FI_DEV_CLOCK_THROTTLE_REASONS and is above its DCGM_FI_DEV_SLOWDOWN_TEMP; 4.x GPU 3 has
# DCGM_FI_DEV_ROW_REMAP_FAILURE and DCGM_FI_DEV_ECC_DBE_VOL_TOTAL 2 (the SW power cap 0x4 is no
# flag); the MIG node's GPU 1 had XID 79.
DCGM_EXPECTED = {
    'dcgm-3x.prom': 'dgx-a 2 0 46% 93% 30.0GiB / 79.2GiB 288W 61C N/A <age> THROTTLE,HOT -',
    'dcgm-4x-k8s.prom': 'k8s-gpu-7 4 0 59% 100% 155.6GiB / 318.4GiB 1671W 71C N/A <age> ECC '
                        'ml/train-0 136.0GiB, serving/infer-a 19.6GiB',
    'dcgm-4x-mig.prom': 'mig-node 2 2 12% 12% 30.5GiB / 158.4GiB 278W 48C N/A <age> XID:79 -',
}

# The fleet: 4 nodes up; 12 GPUs; idle (utilization under 5 %, no process or pod): 3.x GPU 1 and
# 4.x GPU 3 (no pod; the faulty scenario's GPUs are all busy); free memory, total - used of each
# node: 50362 + 166729 + 130970 MiB of the bodies and the faulty node's 50.6 GiB; power 287.514 +
# 1671 + 278.5 + 568 W.
TOTAL = 'TOTAL 4/4 nodes up 12 GPUs 2 idle 390.5GiB free 2805W power'


def check_totals(totals):
    check(totals['nodes'] == 4 and totals['nodes_up'] == 4 and totals['gpu_count'] == 12 and
          totals['gpu_idle_count'] == 2 and round(totals['memory_free_mib'] / 1024, 1) == 390.5 and
          round(totals['power_w']) == 2805, f'{totals}')


def check_rows(out, addresses, expected):
    rows = nodes_table(out)
    for name, address in addresses.items():
        fields = rows[address].split(' ')
        check(fields[11].endswith('s') and fields[11][:-1].isdigit(),
              f'{name}: age {fields[11]}\n{out}')
        fields[11] = '<age>'
        check(' '.join(fields) == expected[name],
              f'{name}: got {" ".join(fields)!r}, expected {expected[name]!r}\n{out}')


def test(argv):
    nvitop, exporter = argv[0], argv[1]
    with contextlib.ExitStack() as stack:
        addresses = {}
        for name in DCGM_EXPECTED:
            with open(os.path.join(BODIES, name), 'rb') as f:
                body = f.read()
            port = stack.enter_context(served({'/metrics': (200, body)}))
            addresses[name] = f'127.0.0.1:{port}'
        faulty = stack.enter_context(
            Exporter(exporter, scenario_path('faulty'), ['--hostname', 'node-faulty']))
        addresses['faulty'] = f'127.0.0.1:{faulty.port}'
        expected = {**DCGM_EXPECTED, 'faulty': EXPECTED['faulty']}

        code, out, err, _ = run_nvitop(nvitop, ['-1', '--hosts', ','.join(addresses.values())])
        check(code == 0 and err == '', f'status {code}, stderr {err!r}\n{out}')
        check_rows(out, addresses, expected)
        check(total_line(out) == TOTAL, f'got {total_line(out)!r}, expected {TOTAL!r}')

        code, out, err, _ = run_nvitop(nvitop, ['--json', '--hosts',
                                                ','.join(addresses.values())])
        check(code == 0, f'status {code}, stderr {err!r}')
        doc = json.loads(out)
        check_totals(doc['totals'])
        nodes = {n['address']: n for n in doc['nodes']}
        k8s = nodes[addresses['dcgm-4x-k8s.prom']]['summary']
        check(k8s['exporter'] == 'dcgm-exporter' and k8s['driver_version'] == '550.54.15' and
              k8s['process_count'] is None and k8s['gpu_count'] == 4 and
              k8s['memory_total_mib'] == 4 * 81506 and
              k8s['top_users'] == [{'username': 'ml/train-0', 'gpu_memory_mib': 139264},
                                   {'username': 'serving/infer-a', 'gpu_memory_mib': 20030}],
              f'{k8s}')
        old = nodes[addresses['dcgm-3x.prom']]['summary']
        check(old['driver_version'] is None and old['power_w'] == 287.514 and
              old['health'] == ['throttle', 'hot'] and old['xid_last'] is None, f'{old}')
        mig = nodes[addresses['dcgm-4x-mig.prom']]['summary']
        check(mig['health'] == ['xid'] and mig['xid_last'] == 79, f'{mig}')
        ours = nodes[addresses['faulty']]['summary']
        check(ours['exporter'] == 'nvitop-exporter' and ours['process_count'] == 4 and
              ours['health'] == ['lost'], f'{ours}')

        with FleetPrometheus(list(addresses.values())) as prom:
            prom.wait_targets(up=len(addresses))
            code, out, err, _ = run_nvitop(nvitop, ['-1', '--prometheus', prom.url()])
            check(code == 0 and err == '', f'status {code}, stderr {err!r}\n{out}')
            check_rows(out, addresses, expected)
            check(len(nodes_table(out)) == len(addresses), f'extra rows:\n{out}')
            check(total_line(out) == TOTAL, f'got {total_line(out)!r}, expected {TOTAL!r}')
            code, out, err, _ = run_nvitop(nvitop, ['--json', '--prometheus', prom.url()])
            doc = json.loads(out)
            check_totals(doc['totals'])
            nodes = {n['address']: n for n in doc['nodes']}
            mig = nodes[addresses['dcgm-4x-mig.prom']]['summary']
            check(mig['exporter'] == 'dcgm-exporter' and mig['driver_version'] == '535.161.08' and
                  mig['process_count'] is None and mig['mig_count'] == 2 and
                  mig['health'] == ['xid'] and mig['xid_last'] == 79, f'{mig}')

        # The cluster screen, and Enter on the MIG node: its device panel, MIG devices included.
        command = f'{shlex.quote(nvitop)} -U --hosts {addresses["dcgm-4x-mig.prom"]}; sleep 60'
        tmux = Tmux(command)
        try:
            wait_until(lambda: 'mig-node' in tmux.capture(), 20, 'the MIG node on the screen')
            # The same totals as -1's, on the line under the title.
            check('TOTAL  1/1 nodes up  2 GPUs  0 idle  127.9GiB free  278W power' in
                  tmux.capture().splitlines()[1], tmux.capture())
            tmux.keys('Enter')
            wanted = ('Driver Version: 535.161.08', 'A100-SXM4-80GB', '0:1      3g.40gb',
                      '0:2      3g.40gb', '20224MiB / 39.28GiB', 'No running processes found')
            wait_until(lambda: all(w in tmux.capture() for w in wanted), 20,
                       'the node view of the MIG node')
            # Health per GPU, on the line under the title: the XID is GPU 1's.
            check(tmux.capture().splitlines()[1].rstrip() == 'Health: GPU 1 XID:79',
                  tmux.capture())
        finally:
            tmux.close()
        # The other nodes' health per GPU in their node views (the flags of DCGM_EXPECTED, and
        # the faulty scenario's lost GPU).
        for name, health in (('dcgm-3x.prom', 'Health: GPU 0 THROTTLE,HOT'),
                             ('dcgm-4x-k8s.prom', 'Health: GPU 3 ECC'),
                             ('faulty', 'Health: GPU 0 LOST')):
            tmux = Tmux(f'{shlex.quote(nvitop)} -U --hosts {addresses[name]}; sleep 60')
            try:
                wait_until(lambda: '1 ok' in tmux.capture().splitlines()[0], 20,
                           f'{name} answering')
                tmux.keys('Enter')
                wait_until(lambda: 'Health:' in tmux.capture(), 20, f'the node view of {name}')
                line = tmux.capture().splitlines()[1].rstrip()
                check(line == health, f'{name}: got {line!r}, expected {health!r}')
            finally:
                tmux.close()


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
