"""The cluster screen in a real terminal (tmux): three exporters on their simulated scenarios, a
port that refuses connections and a server that answers after 10 s.  The good nodes appear with
their figures while the slow one is still pending, the bad ones with their reasons, the good ones
keep refreshing while the slow one times out, the sort keys (',' '.' '/' and 'o' + a letter)
reorder the nodes, the filter ('\\') narrows them, 'h' lists the keys, q quits."""
import itertools
import os
import re
import shlex
import subprocess
import sys
import time

from cluster_lib import (Exporter, Failure, bad_server, check, main_wrapper, refusing_port,
                         scenario_path, wait_until)
from once_test import EXPECTED, h100_line

TIMEOUT_S = 8  # the slow node's timeout: long enough to see the others refresh meanwhile


class Tmux:
    """A private tmux server with one pane running a command (a new server each time: one just
    killed may still hold its socket name)."""

    servers = itertools.count()

    def __init__(self, command):
        self.socket = f'nvt-cluster-{os.getpid()}-{next(Tmux.servers)}'
        env = dict(os.environ, TERM='xterm-256color')
        env.pop('NVML_SIM_SCENARIO', None)
        subprocess.run(['tmux', '-L', self.socket, '-f', '/dev/null', 'new-session', '-d', '-x',
                        '200', '-y', '80', command], env=env, check=True, timeout=20)

    def capture(self):
        return subprocess.run(['tmux', '-L', self.socket, 'capture-pane', '-p'],
                              capture_output=True, check=True, timeout=20).stdout.decode()

    def keys(self, *keys):
        subprocess.run(['tmux', '-L', self.socket, 'send-keys', *keys], check=True, timeout=20)

    def close(self):
        subprocess.run(['tmux', '-L', self.socket, 'kill-server'], capture_output=True,
                       check=False, timeout=20)


def rows_of(screen):
    """{address: its line with blanks squeezed} of the node lines on the screen."""
    rows = {}
    for line in screen.splitlines():
        if line.startswith(('127.0.0.1:', 'http://')):
            address, _, rest = line.partition(' ')
            rows[address] = ' '.join(rest.split())
    return rows


# The UTIL HISTORY sparkline in ASCII (-U): 8 levels of 12.5 % each, oldest first.
SPARK_ASCII = '_.:-=+*#'


def history_of(row):
    """The row's UTIL HISTORY (after HEALTH) without its blanks, or None."""
    fields = row.split(' ')
    if len(fields) > 13 and fields[13] and all(c in SPARK_ASCII for c in fields[13]):
        return fields[13]
    return None


def normalized(row):
    """The row with its age replaced by <age> and its UTIL HISTORY left out; (row, age in
    seconds)."""
    fields = row.split(' ')
    age = fields[11]
    fields[11] = '<age>'
    if history_of(row) is not None:
        del fields[13]
    return ' '.join(fields), int(age[:-1]) if age.endswith('s') and age[:-1].isdigit() else None


def order_on(screen):
    return [line.split(' ')[0] for line in screen.splitlines()
            if line.startswith(('127.0.0.1:', 'http://'))]


def test(argv):
    nvitop, exporter = argv[0], argv[1]
    EXPECTED['h100'] = h100_line()
    with Exporter(exporter, scenario_path('h100-8gpu'), ['--hostname', 'node-h100']) as h100, \
            Exporter(exporter, scenario_path('a100-mig'), ['--hostname', 'node-mig']) as mig, \
            Exporter(exporter, scenario_path('faulty'), ['--hostname', 'node-faulty']) as faulty, \
            refusing_port() as refused, bad_server() as bad:
        good = {'h100': f'127.0.0.1:{h100.port}', 'mig': f'127.0.0.1:{mig.port}',
                'faulty': f'127.0.0.1:{faulty.port}'}
        slow = f'http://127.0.0.1:{bad}/slow'
        refused_address = f'127.0.0.1:{refused}'
        hosts = [good['h100'], refused_address, good['mig'], slow, good['faulty']]
        command = (f'{shlex.quote(nvitop)} -U --hosts {",".join(hosts)} --timeout {TIMEOUT_S} '
                   f'--interval 0.5; echo nvitop-exit=$?; sleep 60')
        tmux = Tmux(command)
        try:
            # The good nodes are shown while the slow one has not answered yet.
            screen = wait_until(lambda: (lambda s: s if all(a in rows_of(s) and
                                                          'node-' in rows_of(s)[a]
                                                          for a in good.values()) else None)(
                tmux.capture()), 20, 'the good nodes on the screen')
            rows = rows_of(screen)
            check(rows.get(slow) == '- pending: waiting for the first answer',
                  f'the slow node while the others answered: {rows.get(slow)!r}\n{screen}')
            check(rows.get(refused_address) == '- refused: connection refused',
                  f'refused node: {rows.get(refused_address)!r}\n{screen}')
            check('NVITOP CLUSTER  5 hosts  5 nodes, 3 ok, 2 not answering' in screen,
                  f'title:\n{screen}')
            for name, address in good.items():
                row, _ = normalized(rows[address])
                check(row == EXPECTED[name], f'{name}: {row!r}, expected {EXPECTED[name]!r}')
            # UTIL HISTORY: the 8-GPU node's 62 % is the fifth level ('=' in ASCII), newest on
            # the right (the terminal is wide enough for the column).
            history = history_of(rows[good['h100']])
            check(history is not None and history.endswith('='),
                  f'UTIL HISTORY of the 8-GPU node: {history!r}\n{screen}')
            check('UTIL HISTORY' in screen, f'no UTIL HISTORY header:\n{screen}')

            # The slow node times out; meanwhile the others kept refreshing (their data stays
            # young although one read of the slow node takes 8 s).
            ages = []

            def timed_out():
                s = tmux.capture()
                r = rows_of(s)
                ages.extend(normalized(r[a])[1] for a in good.values())
                return s if r.get(slow) == f'- timeout: no answer within {TIMEOUT_S} s' else None
            screen = wait_until(timed_out, 30, 'the slow node to time out', step=0.5)
            check(None not in ages and max(ages) < TIMEOUT_S - 2,
                  f'ages of the good nodes while the slow one was read: {ages}')

            # Sort by memory (",." cycle: natural, host, utilization, memory), then reversed.
            tmux.keys('.', '.', '.')
            screen = wait_until(lambda: (lambda s: s if 'Sort: memory ' in s else None)(
                tmux.capture()), 10, 'the memory sort')
            order = order_on(screen)
            check(order[:3] == [good['h100'], good['mig'], good['faulty']] and
                  set(order[3:]) == {refused_address, slow}, f'memory order: {order}\n{screen}')
            tmux.keys('/')
            screen = wait_until(lambda: (lambda s: s if '(reversed)' in s else None)(
                tmux.capture()), 10, 'the reversed sort')
            order = order_on(screen)
            check(order[2:] == [good['faulty'], good['mig'], good['h100']],
                  f'reversed memory order: {order}\n{screen}')
            # The selected line's problem is shown at the bottom: select the refused node.
            # Each step waits for the screen to follow the key (a loaded machine can take
            # seconds under the sanitizers), not a fixed pause.
            def refused_selected(screen):
                last = [line for line in screen.splitlines() if line.strip()][-2:]
                return screen if last and last[0] == 'refused: connection refused' else None

            # Home, then Down as often as the node's row is below the first, sent together and
            # read from the screen, never one more key while the screen may not have followed the
            # last: a Down sent because the screen had not yet shown Home's selection moved past
            # the node in a soak run (`Enter` then opened the slow node).  A try that times out
            # starts again from Home, so keys still on their way land where the last try says.
            screen = None
            for _ in range(3):
                order = order_on(tmux.capture())
                row = order.index(refused_address) if refused_address in order else 0
                tmux.keys('Home', *['Down'] * row)
                try:
                    screen = wait_until(lambda: refused_selected(tmux.capture()), 10,
                                        'the refused node selected')
                    break
                except Failure:
                    pass
            screen = screen or tmux.capture()
            check(refused_selected(screen) is not None, f'no problem line:\n{screen}')
            # Enter on a node that does not answer: the view waits, with the reason.
            # Its first frame may come before the view's own first read has failed: wait for
            # the reason too (run 3 of a soak caught the frame without it).
            tmux.keys('Enter')
            try:
                screen = wait_until(lambda: (lambda s: s if f'Waiting for {refused_address}' in s
                                             and 'refused: connection refused' in s
                                             else None)(tmux.capture()), 10,
                                    'the waiting node view with its reason')
            except Failure:
                screen = tmux.capture()
            check(f'Waiting for {refused_address}' in screen and
                  'refused: connection refused' in screen, f'node view problem:\n{screen}')
            # The view's own reads keep failing (every 0.5 s): the reason stays, and a failed
            # read is never shown as an empty answer ("cannot show this node: no ... GPU
            # metrics", which a CI run caught once its first failed read was drawn).
            time.sleep(4 * 0.5)
            screen = tmux.capture()
            check(f'Waiting for {refused_address}' in screen and
                  'refused: connection refused' in screen and 'cannot show' not in screen,
                  f'node view problem after its reads:\n{screen}')
            tmux.keys('Escape')
            wait_until(lambda: 'NVITOP CLUSTER' in tmux.capture(), 10, 'the nodes again')

            # Enter on the 8-GPU node: its device panel and process table, drawn by the
            # monitor's view code from its metrics.
            tmux.keys('/', 'Home')
            wait_until(lambda: order_on(tmux.capture())[:1] == [good['h100']], 10,
                       'the 8-GPU node first')
            tmux.keys('Enter')
            # The view says "Waiting for ..." until the node's first body is read, then draws
            # it: wait for the whole process table (20 rows), since a capture can come while
            # tmux is still taking in the frame's rows (one soak run read 4 of them).
            def process_rows_of(screen):
                return [line for line in screen.splitlines()
                        if re.match(r'^\|\s+\d+\s+\d+ C ', line)]

            try:
                screen = wait_until(lambda: (lambda s: s if 'Processes:' in s and len(
                    process_rows_of(s)) >= 20 else None)(tmux.capture()), 20, 'the node view')
            except Failure:
                screen = tmux.capture()
            lines = screen.splitlines()
            check(lines[0].split() == ['NODE', good['h100'], 'node-h100'], f'title: {lines[0]!r}')
            check('Driver Version: 570.86.15' in screen and 'CUDA Driver Version: 12.' in screen,
                  f'device panel header:\n{screen}')
            gpu_rows = [line for line in lines if re.match(r'^\|\s+\d+\s+H100 80GB HBM3', line)]
            check(len(gpu_rows) == 8, f'{len(gpu_rows)} GPU rows, expected 8:\n{screen}')
            process_rows = process_rows_of(screen)
            check(len(process_rows) == 20, f'{len(process_rows)} process rows, expected 20:\n'
                  f'{screen}')
            check('@node-h100' in screen, f'process table header:\n{screen}')
            tmux.keys('Escape')
            wait_until(lambda: 'NVITOP CLUSTER' in tmux.capture(), 10, 'the nodes again')

            # 'o' + a letter: by host name (nodes without one first, in the order given), then
            # the same reversed with the upper-case letter (ties keep the order given).
            def sorted_as(name):
                return wait_until(lambda: (lambda s: s if f'Sort: {name} ' in s else None)(
                    tmux.capture()), 10, f'the {name} sort')
            tmux.keys('o', 'h')
            order = order_on(sorted_as('host'))
            check(order == [refused_address, slow, good['faulty'], good['h100'], good['mig']],
                  f'host order: {order}')
            tmux.keys('o', 'H')
            order = order_on(sorted_as('host (reversed)'))
            check(order == [good['mig'], good['h100'], good['faulty'], refused_address, slow],
                  f'reversed host order: {order}')

            # The filter ('\\'): typed text, matched against NODE, HOST and TOP USERS as it is
            # typed, shown in the title; Backspace edits it, Enter keeps it, Esc clears it.
            tmux.keys('\\', 'M', 'i', 'g', 'x')
            screen = wait_until(lambda: (lambda s: s if 'Filter: Migx_' in s else None)(
                tmux.capture()), 10, 'the filter being typed')
            check(order_on(screen) == [] and 'No node matches the filter.' in screen and
                  'Filter: "Migx" (0 shown)' in screen.splitlines()[0], f'no match:\n{screen}')
            tmux.keys('BSpace')
            screen = wait_until(lambda: (lambda s: s if 'Filter: Mig_' in s else None)(
                tmux.capture()), 10, 'the filter after Backspace')
            check(order_on(screen) == [good['mig']], f'filtered: {order_on(screen)}\n{screen}')
            check(screen.splitlines()[0].endswith('5 nodes, 3 ok, 2 not answering  '
                                                  'Filter: "Mig" (1 shown)'),
                  f'title with the filter: {screen.splitlines()[0]!r}')
            tmux.keys('Enter')
            screen = sorted_as('host (reversed)')
            check(order_on(screen) == [good['mig']] and 'Filter: "Mig" (1 shown)' in screen,
                  f'kept filter:\n{screen}')
            tmux.keys('Escape')
            screen = wait_until(lambda: (lambda s: s if 'Filter:' not in s and
                                         len(order_on(s)) == 5 else None)(tmux.capture()), 10,
                                'the filter cleared')

            # The key list, and back with any key.
            tmux.keys('h')
            screen = wait_until(lambda: (lambda s: s if 'NVITOP CLUSTER - keys' in s else None)(
                tmux.capture()), 10, 'the key list')
            check('on oN: sort by NODE (as given)' in screen and
                  '\\: filter the nodes' in screen, f'key list:\n{screen}')
            tmux.keys('x')
            wait_until(lambda: len(order_on(tmux.capture())) == 5, 10, 'the nodes after the keys')
            tmux.keys('q')
            wait_until(lambda: 'nvitop-exit=0' in tmux.capture(), 10, 'nvitop to quit')
        finally:
            tmux.close()


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
