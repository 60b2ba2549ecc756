"""The cluster screen reads each node again and again on one kept-alive connection (and one curl
handle): ten servers that count connections each see many reads over a single one.  A new
connection per read cost more than the read itself (bench/cluster)."""
import contextlib
import shlex
import sys

from cluster_lib import check, counting_server, main_wrapper, wait_until
from screen_test import Tmux, rows_of

NODES = 10
READS = 6


def test(argv):
    nvitop = argv[0]
    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(counting_server()) for _ in range(NODES)]
        addresses = [f'http://127.0.0.1:{port}/metrics' for port, _ in servers]
        tmux = Tmux(f'{shlex.quote(nvitop)} -U --hosts {",".join(addresses)} --interval 0.25; '
                    'sleep 60')
        try:
            wait_until(lambda: all('counted' in rows_of(tmux.capture()).get(a, '')
                                   for a in addresses), 20, 'the nodes on the screen')
            wait_until(lambda: all(count.requests >= READS for _, count in servers), 30,
                       f'{READS} reads of every node')
        finally:
            tmux.close()
        seen = []
        for _, count in servers:
            with count.lock:
                seen.append((count.requests, len(count.ports)))
        check(all(connections == 1 for _, connections in seen),
              f'(reads, connections) of each node: {seen}; expected one connection each')


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
