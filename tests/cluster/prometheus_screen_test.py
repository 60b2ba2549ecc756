"""The cluster screen through a real Prometheus (Debian's, on loopback) scraping two exporters on
their simulated scenarios (8-GPU, MIG) and a port that refuses connections: the nodes' lines as
read directly, the refused target down with Prometheus's reason, and Enter on a node opens its
view (device panel and process table) from that node's series in Prometheus: the same screen as
the node view of the same exporter read directly with --hosts."""
import re
import shlex
import sys

from cluster_lib import (Exporter, FleetPrometheus, check, main_wrapper, refusing_port,
                         scenario_path, wait_until)
from once_test import EXPECTED, h100_line
from screen_test import Tmux, normalized, order_on, rows_of


def node_view(nvitop, args, address, position):
    """The node view of the node at `position` in the list (Home, then Down), as drawn in tmux
    by nvitop with args; its lines."""
    tmux = Tmux(f'{shlex.quote(nvitop)} -U {args}; echo nvitop-exit=$?; sleep 60')
    try:
        wait_until(lambda: (lambda r: address in r and 'node-' in r[address])(
            rows_of(tmux.capture())), 30, f'{address} on the cluster screen ({args})')
        tmux.keys('Home', *(['Down'] * position), 'Enter')
        screen = wait_until(lambda: (lambda s: s if 'Processes:' in s and
                                     s.splitlines()[0].startswith('NODE ') else None)(
            tmux.capture()), 20, f'the node view of {address} ({args})')
        tmux.keys('Escape')
        wait_until(lambda: 'NVITOP CLUSTER' in tmux.capture(), 10, 'the nodes again')
        tmux.keys('q')
        wait_until(lambda: 'nvitop-exit=0' in tmux.capture(), 10, 'nvitop to quit')
        return screen.rstrip('\n').splitlines()
    finally:
        tmux.close()


def test(argv):
    nvitop, exporter = argv[0], argv[1]
    EXPECTED['h100'] = h100_line()
    with Exporter(exporter, scenario_path('h100-8gpu'), ['--hostname', 'node-h100']) as h100, \
            Exporter(exporter, scenario_path('a100-mig'), ['--hostname', 'node-mig']) as mig, \
            refusing_port() as refused:
        good = {'h100': f'127.0.0.1:{h100.port}', 'mig': f'127.0.0.1:{mig.port}'}
        down = f'127.0.0.1:{refused}'
        with FleetPrometheus([*good.values(), down]) as prom:
            prom.wait_targets(up=2)
            source = f'--prometheus {prom.url()} --interval 1'
            tmux = Tmux(f'{shlex.quote(nvitop)} -U {source}; echo nvitop-exit=$?; sleep 60')
            try:
                screen = wait_until(lambda: (lambda s: s if all(
                    a in rows_of(s) and 'node-' in rows_of(s)[a] for a in good.values())
                    else None)(tmux.capture()), 30, 'the nodes through Prometheus')
                rows = rows_of(screen)
                for name, address in good.items():
                    row, _ = normalized(rows[address])
                    check(row == EXPECTED[name], f'{name}: {row!r}, expected {EXPECTED[name]!r}')
                check(rows[down].startswith('- down: ') and 'connection refused' in rows[down],
                      f'down target: {rows[down]!r}')
                order = order_on(screen)
            finally:
                tmux.close()

            # Each good node's view through Prometheus is the one read directly.
            hosts = ','.join(good.values())
            for name, address in good.items():
                through = node_view(nvitop, source, address, order.index(address))
                direct = node_view(nvitop, f'--hosts {hosts} --interval 1', address,
                                   list(good.values()).index(address))
                check(through[0].split() == ['NODE', address, f'node-{name}'],
                      f'title: {through[0]!r}')
                gpu_rows = [line for line in through if re.match(r'^\|\s+\d+\s+\S', line)]
                check(len(gpu_rows) >= 2, f'{name}: no device rows:\n' + '\n'.join(through))
                check(through == direct, f'{name}: through Prometheus:\n' + '\n'.join(through) +
                      '\n\nread directly:\n' + '\n'.join(direct))


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
