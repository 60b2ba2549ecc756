"""The settings file's [cluster] section, read with --hosts (it was ignored): the columns it
chooses and rows grouped by a pattern over the node name, in -1 and on the screen (tmux); a bad
pattern warned about; and the screen's horizontal scroll (Right, Left) on a terminal narrower
than the table."""
import contextlib
import os
import shlex
import subprocess
import sys
import tempfile

from cluster_lib import check, main_wrapper, run_nvitop, served, wait_until
from screen_test import Tmux


def body(host, util):
    labels = f'index="0",hostname="{host}"'
    lines = [f'gpu_memory_total_MiB{{{labels}}} 81559', f'gpu_memory_used_MiB{{{labels}}} 1024',
             f'gpu_utilization_Percentage{{{labels}}} {util}',
             f'process_gpu_memory_MiB{{{labels},pid="7",username="user-of-{host}"}} 1024']
    return ('\n'.join(lines) + '\n').encode()


# Given in this order; grouped by rack (the pattern's group), racks by name, the node without a
# rack last, the order given kept within a rack.
HOSTS = [('r2-n1', 10), ('r1-n1', 20), ('x-n9', 30), ('r1-n2', 40)]
SETTINGS = '[cluster]\ncolumns = host, gpus, util, health\ngroup = ^(r\\d+)-\n'


def expected(addresses):
    width = max(len(a) for a in addresses.values())
    rows = [f'{"GROUP":5}  {"NODE":{width}}  HOST   GPUS UTIL  HEALTH']
    for group, host, util in (('r1', 'r1-n1', 20), ('r1', 'r1-n2', 40), ('r2', 'r2-n1', 10),
                              ('-', 'x-n9', 30)):
        rows.append(f'{group:5}  {addresses[host]:{width}}  {host:5}  {1:4} {util:3}%  ok')
    return rows


def test(argv):
    nvitop = argv[0]
    with contextlib.ExitStack() as stack:
        addresses = {}
        for host, util in HOSTS:
            port = stack.enter_context(served({'/metrics': (200, body(host, util))}))
            addresses[host] = f'127.0.0.1:{port}'

        hosts = ','.join(addresses.values())
        workdir = stack.enter_context(tempfile.TemporaryDirectory())
        config = os.path.join(workdir, 'nvitop.conf')
        with open(config, 'w', encoding='utf-8') as f:
            f.write(SETTINGS)
        want = expected(addresses)

        code, out, err, _ = run_nvitop(nvitop, ['-1', '--config', config, '--hosts', hosts])
        check(code == 0 and err == '', f'status {code}, stderr {err!r}\n{out}')
        lines = [line.rstrip() for line in out.splitlines()]
        check(lines[:len(want)] == want, f'got {lines[:len(want)]}, expected {want}\n{out}')

        # A bad pattern: said once, the rows not grouped, every column.
        bad = os.path.join(workdir, 'bad.conf')
        with open(bad, 'w', encoding='utf-8') as f:
            f.write('[cluster]\ngroup = (r\n')
        code, out, err, _ = run_nvitop(nvitop, ['-1', '--config', bad, '--hosts', hosts])
        check(code == 0 and err.startswith("nvitop: [cluster] group: invalid pattern '(r': ") and
              err.endswith(' (rows are not grouped)\n') and err.count('\n') == 1,
              f'status {code}, stderr {err!r}')
        check(out.splitlines()[0].startswith('NODE') and 'TOP USERS' in out.splitlines()[0], out)

        # The screen: the same columns and groups.
        tmux = Tmux(f'{shlex.quote(nvitop)} -U --config {shlex.quote(config)} --hosts {hosts}; '
                    'sleep 60')
        def table():
            screen = [line.rstrip() for line in tmux.capture().splitlines()]
            start = next((i for i, line in enumerate(screen) if line.startswith('GROUP')), None)
            return [] if start is None else screen[start:start + len(want)]

        try:
            # A bounded wait for the positive sign (every node scraped and drawn), generous for
            # a loaded machine: never a timed assertion.
            wait_until(lambda: table() == want, 60, f'the rows {want} on the screen')
        finally:
            tmux.close()

        # Every column on 60 columns: Right shows the table from its 9th cell, Left back.
        tmux = Tmux(f'{shlex.quote(nvitop)} -U --no-config --hosts {hosts}; sleep 60')
        try:
            subprocess.run(['tmux', '-L', tmux.socket, 'resize-window', '-x', '60', '-y', '30'],
                           check=True, timeout=20)

            def header():
                return next((line for line in tmux.capture().splitlines() if 'GPUS' in line), '')

            # Every node scraped and the frame redrawn at the new width.
            wait_until(lambda: '4 nodes, 4 ok' in tmux.capture() and
                       header().startswith('NODE ') and len(header().rstrip()) <= 60, 60,
                       lambda: f'the nodes on the 60-column screen; the screen:\n{tmux.capture()}')
            first = header()
            tmux.keys('Right')
            wait_until(lambda: header() != first, 60, 'the table scrolled')
            check(first[8:].startswith(header().rstrip()[:40]) and
                  '<8' in tmux.capture().splitlines()[0], f'{first!r} then {header()!r}')
            tmux.keys('Left')
            wait_until(lambda: header() == first, 60, 'the table back')
        finally:
            tmux.close()


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
