"""The cluster screen's users view ('u'): who holds the fleet, over two nodes in our exporter's
format (processes with usernames, one in a container) and a dcgm-exporter node with Kubernetes
pods (tests/cluster/dcgm), with --hosts and through a real Prometheus scraping them: the same
users, GPU memory, GPUs and nodes in tmux."""
import contextlib
import os
import shlex
import sys

from cluster_lib import FleetPrometheus, Failure, check, main_wrapper, served, wait_until
from screen_test import Tmux

BODIES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'dcgm')


def ours(host, gpus, processes):
    """A body in our exporter's format: GPUs (index, used MiB) and processes (index, pid,
    username, container, MiB)."""
    lines = []
    for index, used in gpus:
        labels = f'index="{index}",hostname="{host}"'
        lines += [f'gpu_memory_total_MiB{{{labels}}} 81559',
                  f'gpu_memory_used_MiB{{{labels}}} {used}',
                  f'gpu_utilization_Percentage{{{labels}}} 50']
    for index, pid, user, container, mib in processes:
        lines.append(f'process_gpu_memory_MiB{{index="{index}",hostname="{host}",pid="{pid}",'
                     f'username="{user}",container="{container}"}} {mib}')
    return ('\n'.join(lines) + '\n').encode()


NODE_A = ours('node-a', [(0, 14336), (1, 12288)],
              [(0, 10, 'alice', '', 10240), (1, 11, 'alice', '', 10240), (1, 12, 'bob', '', 2048),
               (0, 13, 'root', 'jupyter', 4096)])
NODE_B = ours('node-b', [(0, 5120)], [(0, 20, 'alice', '', 5120)])

# By GPU memory: the dcgm node's pods (ml/train-0: 2 x 69632 MiB on GPUs 0 and 1; serving/infer-a:
# 20030 MiB on GPU 2), alice on two GPUs of node-a and one of node-b, the container of root's
# process on node-a (counted under its container), bob.
EXPECTED = [
    'USER             GPU MEMORY   GPUS  NODES',
    'ml/train-0         136.0GiB      2      1',
    'alice               25.0GiB      3      2',
    'serving/infer-a     19.6GiB      1      1',
    'jupyter              4.0GiB      1      1',
    'bob                  2.0GiB      1      1',
]


def check_users(command):
    tmux = Tmux(command)
    try:
        # Every node with its data (a soak run pressed 'u' while node-a had not answered yet:
        # "3 users on 2 nodes"), then the view once it has all three.
        wait_until(lambda: all(host in tmux.capture() for host in ('k8s-gpu-7', 'node-a',
                                                                    'node-b')), 30,
                   'the nodes on the screen')
        tmux.keys('u')
        title = 'NVITOP CLUSTER  users  5 users on 3 nodes with data'
        try:
            screen = wait_until(lambda: (lambda s: s if title in s else None)(tmux.capture()),
                                20, 'the users view of every node')
        except Failure:
            screen = tmux.capture()
        lines = [line.rstrip() for line in screen.splitlines()]
        check(title in lines[0], screen)
        start = next(i for i, line in enumerate(lines) if line.startswith('USER '))
        check(lines[start:start + len(EXPECTED)] == EXPECTED,
              f'got {lines[start:start + len(EXPECTED)]}, expected {EXPECTED}\n{screen}')
        tmux.keys('u')
        wait_until(lambda: 'NODE ' in tmux.capture() and 'USER ' not in tmux.capture(), 20,
                   'back to the nodes')
    finally:
        tmux.close()


def test(argv):
    nvitop = argv[0]
    with contextlib.ExitStack() as stack:
        with open(os.path.join(BODIES, 'dcgm-4x-k8s.prom'), 'rb') as f:
            k8s = f.read()
        addresses = [f'127.0.0.1:{stack.enter_context(served({"/metrics": (200, body)}))}'
                     for body in (NODE_A, NODE_B, k8s)]
        check_users(f'{shlex.quote(nvitop)} -U --hosts {",".join(addresses)}; sleep 60')
        with FleetPrometheus(addresses) as prom:
            prom.wait_targets(up=len(addresses))
            check_users(f'{shlex.quote(nvitop)} -U --prometheus {prom.url()}; sleep 60')


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
