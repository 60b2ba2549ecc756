"""nvitop -1 --hosts and --json --hosts: three exporters on their own simulated scenarios (8-GPU,
MIG, faulty), a port that refuses connections, a server that answers after 10 s, and bad bodies:
each good node's summary as expected, each bad one with its reason, none delaying the others."""
import json
import sys

from cluster_lib import (SLOW_S, Exporter, bad_server, check, main_wrapper, nodes_table,
                         refusing_port, run_nvitop, scenario_path)
from exporter_lib import FROZEN_TIME, sim_round, sim_value

# The frozen simulated time of exporter_lib (1000 s) makes every value fixed.  The 8-GPU node's
# line is computed from its scenario (below); the others were checked by hand once (MIG: two
# 40 GiB A100s, GPU 0 split in three MIG devices, five processes; faulty: four GPUs, one lost).
EXPECTED = {
    'mig': 'node-mig 2 3 63% 63% 60.8GiB / 80.0GiB 438W 55C 5 <age> ok N/A 53.4GiB',
    'faulty': 'node-faulty 4 0 62% 100% 36.4GiB / 87.0GiB 568W 88C 4 <age> LOST N/A 22.2GiB',
}


def h100_line():
    """The 8-GPU node's expected line, from the scenario at the frozen time."""
    with open(scenario_path('h100-8gpu'), encoding='utf-8') as f:
        devices = json.load(f)['devices']
    util = [sim_round(sim_value(d['utilization']['gpu'], FROZEN_TIME)) for d in devices]
    used = sum(sim_value(d['memory']['used_mib'], FROZEN_TIME) for d in devices) / 1024
    total = sum(d['memory']['total_mib'] for d in devices) / 1024
    power = sum(sim_value(d['power']['usage_w'], FROZEN_TIME) for d in devices)
    temp = max(sim_round(sim_value(d['temperature'], FROZEN_TIME)) for d in devices)
    procs = sum(len(d.get('processes', [])) for d in devices)
    process_mib = sum(sim_value(p['used_mib'], FROZEN_TIME) or 0 for d in devices
                      for p in d.get('processes', []))
    return (f'node-h100 {len(devices)} 0 {sum(util) / len(util):.0f}% {max(util):.0f}% '
            f'{used:.1f}GiB / {total:.1f}GiB {power:.0f}W {temp:.0f}C {procs} <age> ok '
            f'N/A {process_mib / 1024:.1f}GiB')


def test(argv):
    EXPECTED['h100'] = h100_line()
    nvitop, exporter = argv[0], argv[1]
    with Exporter(exporter, scenario_path('h100-8gpu'), ['--hostname', 'node-h100']) as h100, \
            Exporter(exporter, scenario_path('a100-mig'), ['--hostname', 'node-mig']) as mig, \
            Exporter(exporter, scenario_path('faulty'), ['--hostname', 'node-faulty']) as faulty, \
            refusing_port() as refused, bad_server() as bad:
        good = {'h100': f'127.0.0.1:{h100.port}', 'mig': f'127.0.0.1:{mig.port}',
                'faulty': f'127.0.0.1:{faulty.port}'}
        slow = f'http://127.0.0.1:{bad}/slow'
        hosts = [good['h100'], f'127.0.0.1:{refused}', good['mig'], slow, good['faulty'],
                 f'http://127.0.0.1:{bad}/garbage', f'http://127.0.0.1:{bad}/missing',
                 f'http://127.0.0.1:{bad}/other']
        code, out, err, elapsed = run_nvitop(nvitop, ['-1', '--timeout', '2', '--hosts',
                                                      ','.join(hosts)])
        check(code == 1, f'exit status {code} (1: some node did not answer); stderr: {err}')
        check(err == '', f'stderr: {err}')
        rows = nodes_table(out)
        for name, address in good.items():
            # A node's age is that of its answer when the table is printed: up to the slowest
            # node's 2 s timeout, since all are printed together.
            fields = rows[address].split(' ')
            check(fields[11] in ('0s', '1s', '2s'), f'{name}: age {fields[11]}\n{out}')
            fields[11] = '<age>'
            rows[address] = ' '.join(fields)
        check(len(rows) == len(hosts), f'{len(rows)} rows for {len(hosts)} hosts:\n{out}')
        for name, address in good.items():
            check(rows.get(address) == EXPECTED[name],
                  f'{name}: got {rows.get(address)!r}, expected {EXPECTED[name]!r}\n{out}')
        expected_bad = {
            f'127.0.0.1:{refused}': '- refused: connection refused',
            slow: '- timeout: no answer within 2 s',
            f'http://127.0.0.1:{bad}/garbage':
                '- bad data: malformed metrics: line 1: expected a metric name',
            f'http://127.0.0.1:{bad}/missing': '- http error: HTTP 404',
            f'http://127.0.0.1:{bad}/other':
                '- bad data: no nvitop-exporter (gpu_*) or dcgm-exporter (DCGM_FI_*) GPU '
                'metrics in the answer',
        }
        for address, text in expected_bad.items():
            check(rows.get(address) == text, f'{address}: got {rows.get(address)!r}, '
                  f'expected {text!r}\n{out}')
        # The output above already says the slow node timed out after 2 s, not after its 10 s;
        # this only guards against a regression that waited for it anyway.
        check(elapsed < SLOW_S, f'the run took {elapsed:.1f}s: the slow node delayed it')

        code, out, err, _ = run_nvitop(nvitop, ['--json', '--timeout', '2', '--hosts',
                                                ','.join([good['mig'], f'127.0.0.1:{refused}',
                                                          slow])])
        check(code == 1 and err == '', f'--json: status {code}, stderr {err}')
        doc = json.loads(out)
        check(doc['schema'] == 'nvitop-cluster' and doc['schema_version'] == 1, f'{doc}')
        check(doc['source'] == {'kind': 'hosts', 'url': None}, f'{doc["source"]}')
        nodes = doc['nodes']
        check([n['state'] for n in nodes] == ['ok', 'refused', 'timeout'], f'{nodes}')
        summary = nodes[0]['summary']
        check(summary['hostname'] == 'node-mig' and summary['gpu_count'] == 2 and
              summary['mig_count'] == 3 and summary['process_count'] == 5 and
              summary['driver_version'] == '550.90.07', f'{summary}')
        check(round(summary['memory_total_mib']) == 81920, f'{summary}')
        check(summary['top_users'][0]['username'] == 'N/A', f'{summary}')
        check(nodes[0]['reason'] is None and nodes[0]['http_status'] == 200, f'{nodes[0]}')
        check(nodes[1]['reason'] == 'connection refused' and nodes[1]['summary'] is None and
              nodes[1]['age_s'] is None, f'{nodes[1]}')
        check(nodes[2]['reason'] == 'no answer within 2 s', f'{nodes[2]}')

    # Bad command lines: clear messages, status 2.
    for args, message in (
            (['-1', '--hosts', ','], 'argument --hosts: no hosts in \',\''),
            (['-1', '--hosts', '@/nonexistent/hosts'],
             "argument --hosts: cannot read hosts file '/nonexistent/hosts': No such file or "
             'directory'),
            (['-1', '--hosts', 'ftp://x'],
             "argument --hosts: unsupported scheme (http or https only): 'ftp://x'"),
            (['-1', '--hosts', 'a:1', '--cert', 'c.pem'], '--cert and --key must be given together'),
            (['-1', '--hosts', 'a:1', '--prometheus', 'http://p'],
             'argument --prometheus: not allowed with argument --hosts')):
        code, out, err, _ = run_nvitop(nvitop, args)
        last = err.strip().splitlines()[-1] if err.strip() else ''
        check(code == 2 and last == f'nvitop: error: {message}',
              f'{args}: status {code}, stderr {err!r}')
    # The cluster screen needs a terminal, as the monitor does.
    code, out, err, _ = run_nvitop(nvitop, ['-m', '--hosts', 'a:1'])
    check(code == 1 and out == '' and
          err == 'ERROR: You must run monitor mode from a TTY terminal.\n',
          f'-m without a terminal: status {code}, stdout {out!r}, stderr {err!r}')


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
