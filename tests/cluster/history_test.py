"""The UTIL HISTORY column (a sparkline of each node's mean utilization): with --hosts, the
view's own history (one sample in -1, shown only when the settings name the column; the screen
draws the samples as they come); with --prometheus, one range query at start fills it, in -1,
--json and on the screen (tmux) alike, from a real Prometheus that scraped a node at 10 % and
then at 90 %."""
import json
import os
import shlex
import sys
import tempfile
import urllib.parse
import urllib.request

from cluster_lib import FleetPrometheus, check, main_wrapper, run_nvitop, served, wait_until
from screen_test import Tmux

CELLS = 20


def body(util):
    labels = 'index="0",hostname="spark-node"'
    lines = [f'gpu_memory_total_MiB{{{labels}}} 81559', f'gpu_memory_used_MiB{{{labels}}} 1024',
             f'gpu_utilization_Percentage{{{labels}}} {util}']
    return ('\n'.join(lines) + '\n').encode()


def write(path, text):
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return path


def history_cell(line, header):
    """The UTIL HISTORY cell of a table line, by the header's column."""
    start = header.index('UTIL HISTORY')
    return line[start:start + CELLS]


def screen_spark(tmux, address):
    """The UTIL HISTORY cell of the node's row on the screen, or None while either is missing."""
    screen = tmux.capture().splitlines()
    header = next((line for line in screen if 'UTIL HISTORY' in line), None)
    row = next((line for line in screen if line.startswith(address)), None)
    return None if header is None or row is None else history_cell(row, header)


def test_hosts(nvitop, workdir):
    routes = {'/metrics': (200, body(40))}
    with served(routes) as port:
        address = f'127.0.0.1:{port}'
        # -1 leaves the column out unless the settings name it (it would be one sample).
        code, out, err, _ = run_nvitop(nvitop, ['-1', '--no-config', '--hosts', address])
        check(code == 0 and err == '' and 'UTIL HISTORY' not in out, f'{code} {err!r}\n{out}')
        named = write(os.path.join(workdir, 'named.conf'),
                      '[cluster]\ncolumns = host, util, history\n')
        code, out, err, _ = run_nvitop(nvitop, ['-1', '--config', named, '--hosts', address])
        lines = out.splitlines()
        check(code == 0 and err == '' and lines[0].split()[-2:] == ['UTIL', 'HISTORY'],
              f'{code} {err!r}\n{out}')
        # 40 % is the fourth of eight levels; the older cells are gaps (blanks), not zeros.
        check(history_cell(lines[1], lines[0]) == ' ' * (CELLS - 1) + '▄', f'{out}')
        code, out, err, _ = run_nvitop(nvitop, ['-1', '-U', '--config', named, '--hosts', address])
        check(out.splitlines()[1].rstrip().endswith(' -'), f'ASCII:\n{out}')

        code, out, err, _ = run_nvitop(nvitop, ['--json', '--no-config', '--hosts', address])
        doc = json.loads(out)
        check(doc['history_step_s'] == 30 and doc['nodes'][0]['history'] == [None] * 19 + [40],
              f'JSON: {out}')

        # The screen (in ASCII, -U: tmux here has no UTF-8 locale): 6 s a cell; the samples as
        # they come, 40 % ('-') then 90 % ('#').  The window (120 s) keeps the 40 % cells on the
        # screen however long a loaded machine takes to show the change (with 1 s cells a CI run
        # saw them scroll out first).
        short = write(os.path.join(workdir, 'short.conf'), '[cluster]\nhistory = 120\n')
        tmux = Tmux(f'{shlex.quote(nvitop)} -U --config {short} --interval 0.25 '
                    f'--hosts {address}; sleep 60')
        try:
            def spark():
                return screen_spark(tmux, address)
            # Two cells of 40 %: the older one stays 40 % whenever the change comes (the newer
            # one may also get samples at 90 %).
            wait_until(lambda: (spark() or '').endswith('--'), 60,
                       lambda: f'40 % in UTIL HISTORY:\n{tmux.capture()}')
            routes['/metrics'] = (200, body(90))
            wait_until(lambda: (spark() or '').endswith('#'), 60,
                       lambda: f'90 % in UTIL HISTORY:\n{tmux.capture()}')
            check(spark().strip().startswith('-'), f'40 % then 90 %: {spark()!r}')
        finally:
            tmux.close()


def scraped(prom, query):
    """The values of an instant query's series in Prometheus."""
    url = f'{prom.url()}/api/v1/query?query={urllib.parse.quote(query)}'
    with urllib.request.urlopen(url, timeout=5) as r:
        return [float(s['value'][1]) for s in json.load(r)['data']['result']]


def test_prometheus(nvitop, workdir):
    routes = {'/metrics': (200, body(10))}
    with served(routes) as port:
        address = f'127.0.0.1:{port}'
        with FleetPrometheus([address]) as prom:
            prom.wait_targets(up=1)
            # Scrapes at 10 % (1 s apart) for 10 s, then at 90 % for 7 s, as Prometheus stores
            # them (the history's slots are 6 s, its window 2 minutes, room for a slow machine):
            # bounded waits for Prometheus's own answers, never a fixed pause.
            count = 'count_over_time(gpu_utilization_Percentage[1m])'
            wait_until(lambda: (scraped(prom, count) or [0])[0] >= 10, 60, 'ten scrapes at 10 %',
                       step=0.5)
            routes['/metrics'] = (200, body(90))
            wait_until(lambda: scraped(prom, 'min_over_time(gpu_utilization_Percentage[7s])') ==
                       [90], 60, 'scrapes at 90 % for 7 s', step=0.5)
            short = write(os.path.join(workdir, 'prom.conf'),
                          '[cluster]\ncolumns = host, util, history\nhistory = 120\n')

            # --json: the range query's points (6 s a slot), oldest first, 10 % then 90 %.
            code, out, err, _ = run_nvitop(nvitop, ['--json', '--config', short,
                                                    '--prometheus', prom.url()])
            doc = json.loads(out)
            node = next(n for n in doc['nodes'] if n['address'] == address)
            history = [v for v in node['history'] if v is not None]
            check(code == 0 and err == '' and doc['history_step_s'] == 6 and
                  len(node['history']) == CELLS, f'{code} {err!r}\n{out}')
            check(len(history) >= 2 and history[0] == 10 and history[-1] == 90 and
                  history == sorted(history), f'history {node["history"]}')

            # -1 with the column named: the same at its level (10 % is the lowest bar).
            code, out, err, _ = run_nvitop(nvitop, ['-1', '--config', short,
                                                    '--prometheus', prom.url()])
            lines = out.splitlines()
            row = next(line for line in lines if line.startswith(address))
            cell = history_cell(row, lines[0]).strip()
            check(code == 0 and cell.startswith('▁') and cell.endswith('█'),
                  f'{code} {err!r}\n{out}')

            # The screen (-U) starts with the history filled in.
            tmux = Tmux(f'{shlex.quote(nvitop)} -U --config {short} --prometheus {prom.url()}; '
                        'sleep 60')
            try:
                def spark():
                    return screen_spark(tmux, address)
                wait_until(lambda: spark() is not None, 60,
                           lambda: f'the node on the screen:\n{tmux.capture()}')
                check(spark().strip().startswith('_') and spark().strip().endswith('#'),
                      f'{spark()!r}\n{tmux.capture()}')
            finally:
                tmux.close()


def test(argv):
    nvitop = argv[0]
    with tempfile.TemporaryDirectory() as workdir:
        test_hosts(nvitop, workdir)
        test_prometheus(nvitop, workdir)


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
