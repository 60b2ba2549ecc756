"""nvitop -1 --hosts (and --json, and the cluster screen) against nodes that answer badly: a body
cut in the middle of a line with complete HTTP framing ("bad data: truncated", never a healthy
node), figures of 1e308, +Inf, -Inf and NaN (one rule: N/A in the table and the node view, null
in JSON), two nodes reporting the same hostname (one warning), a table that fits 80 columns with
long node names (NODE and HOST are cut first), and a screen title that counts HTTP errors and
bad data apart from nodes not answering."""
import json
import os

import shlex

from cluster_lib import Failure, check, main_wrapper, nodes_table, run_nvitop, served, wait_until
from screen_test import Tmux


def body(host, values):
    lines = [f'{name}{{index="0",hostname="{host}"}} {value}' for name, value in values]
    return ('\n'.join(lines) + '\n').encode()


GOOD = [('gpu_memory_total_MiB', '81559'), ('gpu_memory_used_MiB', '1024'),
        ('gpu_utilization_Percentage', '50'), ('gpu_power_usage_W', '300'),
        ('gpu_temperature_C', '60')]
EXTREME = [('gpu_memory_total_MiB', '1e308'), ('gpu_memory_used_MiB', '-1e308'),
           ('gpu_utilization_Percentage', 'NaN'), ('gpu_power_usage_W', '+Inf'),
           ('gpu_temperature_C', '-Inf')]


def run(nvitop, hosts, columns=None):
    env_columns = os.environ.get('COLUMNS')
    if columns is not None:
        os.environ['COLUMNS'] = str(columns)
    try:
        return run_nvitop(nvitop, ['-1', '--timeout', '5', '--hosts', ','.join(hosts)])
    finally:
        if columns is not None:
            if env_columns is None:
                del os.environ['COLUMNS']
            else:
                os.environ['COLUMNS'] = env_columns


def test(argv):
    nvitop = argv[0]
    truncated = body('cut', GOOD) + b'process_gpu_memory_MiB{index="0",pid="1'
    routes = {'/cut': (200, truncated), '/extreme': (200, body('extreme', EXTREME)),
              '/twin-a': (200, body('twin', GOOD)), '/twin-b': (200, body('twin', GOOD)),
              '/a-rather-long-path-for-a-node-name/metrics':
                  (200, body('a-host-name-that-is-much-too-long.example.org', GOOD))}
    with served(routes) as port:
        base = f'127.0.0.1:{port}'
        cut, extreme = f'{base}/cut', f'{base}/extreme'
        code, out, err, _ = run(nvitop, [cut, extreme])
        rows = nodes_table(out)
        check(code == 1 and err == '', f'status {code}, stderr {err!r}')
        want = '- bad data: truncated: the answer ends in the middle of a line'
        check(rows.get(cut) == want, f'truncated: {rows.get(cut)!r}, expected {want!r}\n{out}')
        fields = rows.get(extreme, '').split(' ')
        check(fields[:11] == ['extreme', '1', '0', 'N/A', 'N/A', 'N/A', '/', 'N/A', 'N/A', 'N/A',
                              '0'], f'extreme values: {rows.get(extreme)!r}\n{out}')

        code, out, err, _ = run_nvitop(nvitop, ['--json', '--timeout', '5', '--hosts', extreme])
        summary = json.loads(out)['nodes'][0]['summary']
        for key in ('utilization_mean_pct', 'utilization_max_pct', 'memory_used_mib',
                    'memory_total_mib', 'power_w', 'temperature_max_c'):
            check(summary[key] is None, f'JSON {key}: {summary[key]!r}, expected null')

        twins = [f'{base}/twin-a', f'{base}/twin-b']
        code, out, err, _ = run(nvitop, twins)
        check(code == 0 and err.count('\n') == 1 and
              err.startswith(f'nvitop: warning: {twins[0]} and {twins[1]} report the same '
                             'hostname "twin"'), f'duplicate hostnames: status {code}, {err!r}')

        long_node = f'{base}/a-rather-long-path-for-a-node-name/metrics'
        code, out, err, _ = run(nvitop, [long_node, cut], columns=80)
        lines = out.splitlines()
        header = lines[0]
        age_end = header.index('AGE') + len('AGE')
        check(age_end <= 80, f'AGE ends at column {age_end} of 80:\n{out}')
        row = lines[1]
        check(row.startswith('127.0.0') and '~' in row[:age_end] and
              row[:age_end].rstrip().endswith('s'), f'the long row up to AGE:\n{out}')
        check(row[age_end:].split()[:2] == ['ok', '-'], f'HEALTH and TOP USERS after AGE:\n{out}')

        screen(nvitop, base)


def screen(nvitop, base):
    """The cluster screen: the title's counts, the warning, the extreme node in the table and in
    its node view."""
    hosts = [f'{base}/extreme', f'{base}/cut', f'{base}/missing', f'{base}/twin-a',
             f'{base}/twin-b']
    tmux = Tmux(f'{shlex.quote(nvitop)} -U --hosts {",".join(hosts)} --interval 0.5; sleep 60')
    try:
        title = '5 nodes, 3 ok, 0 not answering, 1 HTTP error, 1 bad data'
        shown = wait_until(lambda: (lambda s: s if title in s else None)(tmux.capture()), 20,
                           f'the title {title!r}')
        check('report the same hostname "twin"' in shown, f'no duplicate warning:\n{shown}')
        row = [line for line in shown.splitlines() if line.startswith(hosts[0])]
        check(row and row[0].split()[1:11] == ['extreme', '1', '0', 'N/A', 'N/A', 'N/A', '/',
                                               'N/A', 'N/A', 'N/A'], f'extreme row:\n{shown}')
        # Only the extreme node (the filter), then its node view.
        tmux.keys('\\', 'e', 'x', 't', 'r', 'e', 'm', 'e', 'Enter')
        wait_until(lambda: '(1 shown)' in tmux.capture() and 'Filter: extreme_' not in
                   tmux.capture(), 20, 'the filter on the extreme node')
        tmux.keys('Enter')
        try:
            view = wait_until(lambda: (lambda s: s if 'Processes:' in s else None)(
                tmux.capture()), 20, 'the node view')
        except Failure as ex:
            raise Failure(f'{ex}:\n{tmux.capture()}') from None
        check('inf' not in view.lower() and 'nan' not in view.lower() and 'N/A' in view and
              '1e+308' not in view, f'node view of extreme values:\n{view}')
        tmux.keys('q')
    finally:
        tmux.close()


if __name__ == '__main__':
    main_wrapper(test)
