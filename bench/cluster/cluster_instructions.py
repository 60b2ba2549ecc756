"""The cluster view's cost in instructions, which a loaded machine does not change (the CPU shares
of cluster_bench.py move with the load): valgrind's callgrind counts the instructions of one
`nvitop -1` read of 200 nodes, minus a read of one node (the process's start), per node, for
nvitop-exporter nodes alone and for half dcgm-exporter nodes; and of one `--prometheus` read of
1,000 nodes minus an empty fleet's.  The nodes are cluster_bench.py's synthetic ones.  Callgrind
counts each byte that `rep movsb` copies as an instruction, so large memcpy()s weigh more here
than on the CPU.  Prints figures; never fails on them.

usage: cluster_instructions.py BUILD_DIR"""
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile

import cluster_bench

NODES = 200


def instructions(nvitop, args, env, work, tag):
    """Instructions of one run of nvitop under callgrind (a long timeout: it runs ~50x slower)."""
    out = os.path.join(work, f'callgrind.{tag}')
    subprocess.run(['valgrind', '--tool=callgrind', f'--callgrind-out-file={out}', nvitop,
                    '--timeout', '120', *args], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True, timeout=900)
    with open(out, encoding='utf-8') as f:
        for line in f:
            if line.startswith('totals:') or line.startswith('summary:'):
                return int(line.split()[1])
    raise RuntimeError(f'no totals in {out}')


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    if shutil.which('valgrind') is None:
        print('cluster_instructions: valgrind not installed; skipped')
        return
    nvitop = os.path.abspath(os.path.join(build, 'bin/nvitop'))
    env = dict(os.environ, TERM='xterm-256color')
    env.pop('NVML_SIM_SCENARIO', None)
    # A client that gives up (none should) is no traceback on the terminal.
    socketserver.BaseServer.handle_error = lambda *args: None
    gen = cluster_bench.Generator(1000)
    work = tempfile.mkdtemp(prefix='nvt-cluster-instructions-')
    try:
        def hosts(count, mixed, query=''):
            path = os.path.join(work, f'hosts-{count}-{mixed}{query}')
            with open(path, 'w', encoding='ascii') as f:
                for i in range(count):
                    kind = 'dcgm' if mixed and i % 2 else 'node'
                    f.write(f'http://127.0.0.1:{gen.port}/{kind}/{i}/metrics{query}\n')
            return '@' + path

        one = instructions(nvitop, ['-1', '--no-config', '--hosts', hosts(1, False)], env, work,
                           'one')
        # "?whole": a URL with a query of its own is read as given, the whole answer (as every
        # node was before the cluster view asked for the summary's series by name).
        for mixed, query, name in ((False, '', 'nodes (nvitop-exporter)'),
                                   (False, '?whole', 'nodes (nvitop-exporter), whole answers'),
                                   (True, '', 'nodes, half dcgm-exporter')):
            many = instructions(nvitop, ['-1', '--no-config', '--hosts',
                                         hosts(NODES, mixed, query)], env, work, f'many-{mixed}')
            print(f'cluster: -1 --hosts, {NODES} {name}: {(many - one) / (NODES - 1):,.0f} '
                  f'instructions per node ({many:,} in all, {one:,} for one node)')
        url = f'http://127.0.0.1:{gen.port}'
        gen.prometheus_nodes = 0
        empty = instructions(nvitop, ['-1', '--no-config', '--prometheus', url], env, work, 'p0')
        gen.prometheus_nodes = 1000
        full = instructions(nvitop, ['-1', '--no-config', '--prometheus', url], env, work, 'p1000')
        print(f'cluster: -1 --prometheus, 1000 nodes: {(full - empty) / 1000:,.0f} instructions '
              f'per node ({full:,} in all, {empty:,} for an empty fleet)')
    finally:
        gen.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
