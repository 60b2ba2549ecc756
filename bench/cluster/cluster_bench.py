"""The cluster view's cost (issue: 200 nodes read directly at a 2 s refresh, and 10/100/1,000
nodes through Prometheus, each at most 2 % of a core; a refresh's CPU time growing no faster
than linearly in the number of nodes).  Prints figures and ratios; never fails on a time.

A load generator in this process serves synthetic nvitop-exporter /metrics for N nodes (8 GPUs
and 20 processes each) and dcgm-exporter /metrics (8 GPUs, its default counters with the
Kubernetes labels) on one loopback port, one path per node (the direct figures are given for
nvitop-exporter nodes alone and for a mix of half dcgm-exporter nodes), and a stand-in of
Prometheus's HTTP API answering nvitop's aggregated queries for N nodes (one series per node per
query; a range query, at the start of the cluster screen, answered with 20 points per node).  The
cluster screen is measured with its UTIL HISTORY sparklines off (a settings file without the
column) and on (the default: the 200-column terminal shows it).  nvitop's CPU is read from /proc (the monitor, in tmux) or getrusage (once mode).  The
floor, measured in the same run: a minimal client (Python's http.client) reading the same N
bodies once, per refresh.

usage: cluster_bench.py BUILD_DIR [SECONDS]"""
import http.server
import itertools
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

GPUS, PROCESSES = 8, 20
# The series the cluster view's summary asks a node for (src/cluster/node.c).
SUMMARY_SERIES = ['nvitop_info', 'gpu_memory_total_MiB', 'gpu_utilization_Percentage',
                  'gpu_memory_used_MiB', 'gpu_power_usage_W', 'gpu_temperature_C',
                  'process_gpu_memory_MiB', 'nvitop_pod_gpu_memory_MiB', 'nvitop_health_flags',
                  'nvitop_xid_last']
SOCKETS = itertools.count()


def node_body(i):
    host = f'node{i:04d}'
    lines = [f'nvitop_info{{hostname="{host}",device_count="8",driver_version="550.90.07",'
             f'cuda_driver_version="12.4"}} 1.0']
    for g in range(GPUS):
        labels = (f'hostname="{host}",index="{g}",devicename="NVIDIA H100 80GB HBM3",'
                  f'uuid="GPU-{i:08x}-0000-0000-0000-{g:012x}"')
        for name, value in (('gpu_utilization_Percentage', 50 + g), ('gpu_memory_total_MiB', 81559),
                            ('gpu_memory_used_MiB', 40000 + g), ('gpu_memory_free_MiB', 41559),
                            ('gpu_power_usage_W', 612.5), ('gpu_power_limit_W', 700),
                            ('gpu_temperature_C', 60 + g), ('gpu_fan_speed_Percentage', 'NaN'),
                            ('gpu_clock_sm_MHz', 1980), ('gpu_memory_utilization_Percentage', 40),
                            ('gpu_pcie_tx_throughput_MiBps', 400.5),
                            ('gpu_pcie_rx_throughput_MiBps', 2000.5)):
            lines.append(f'{name}{{{labels}}} {value}')
        for p in range(PROCESSES // GPUS + (1 if g < PROCESSES % GPUS else 0)):
            pid = 100000 + g * 10 + p
            plabels = f'{labels},pid="{pid}",username="user{p}",container=""'
            lines.append(f'process_info_info{{{plabels},status="running",'
                         f'command="python train.py --rank {g}"}} 1.0')
            for name, value in (('process_gpu_memory_MiB', 20000 + p),
                                ('process_gpu_sm_utilization_Percentage', 40),
                                ('process_cpu_percent_Percentage', 99.5),
                                ('process_rss_memory_MiB', 3000), ('process_running_time_Second', 3600)):
                lines.append(f'{name}{{{plabels}}} {value}')
    return ('\n'.join(lines) + '\n').encode()


DCGM_FIELDS = (('DCGM_FI_DEV_SM_CLOCK', 1980), ('DCGM_FI_DEV_MEM_CLOCK', 2619),
               ('DCGM_FI_DEV_MEMORY_TEMP', 9223372036854775794), ('DCGM_FI_DEV_GPU_TEMP', 61),
               ('DCGM_FI_DEV_POWER_USAGE', 612.5),
               ('DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION', 123456789012),
               ('DCGM_FI_DEV_PCIE_REPLAY_COUNTER', 0), ('DCGM_FI_DEV_GPU_UTIL', 57),
               ('DCGM_FI_DEV_MEM_COPY_UTIL', 40), ('DCGM_FI_DEV_ENC_UTIL', 0),
               ('DCGM_FI_DEV_DEC_UTIL', 0), ('DCGM_FI_DEV_XID_ERRORS', 0),
               ('DCGM_FI_DEV_FB_FREE', 41230), ('DCGM_FI_DEV_FB_USED', 40000),
               ('DCGM_FI_DEV_FB_RESERVED', 329), ('DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL', 0),
               ('DCGM_FI_DEV_VGPU_LICENSE_STATUS', 0),
               ('DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS', 0),
               ('DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS', 0), ('DCGM_FI_DEV_ROW_REMAP_FAILURE', 0))


def dcgm_body(i):
    """A dcgm-exporter 4.x answer (default counters, Kubernetes labels on) for 8 GPUs."""
    host = f'dcgm{i:04d}'
    lines = []
    for name, value in DCGM_FIELDS:
        lines.append(f'# HELP {name} {name}.')
        lines.append(f'# TYPE {name} gauge')
        for g in range(GPUS):
            lines.append(f'{name}{{gpu="{g}",UUID="GPU-{i:08x}-0000-0000-0000-{g:012x}",'
                         f'pci_bus_id="00000000:{g + 0x18:02X}:00.0",device="nvidia{g}",'
                         f'modelName="NVIDIA H100 80GB HBM3",Hostname="{host}",'
                         f'DCGM_FI_DRIVER_VERSION="550.54.15",container="main",'
                         f'namespace="team{g % 3}",pod="job-{g // 2}"}} {value}')
    return ('\n'.join(lines) + '\n').encode()


class Generator:
    """One HTTP server: /node/<i>/metrics for every node, and /api/v1/query and /api/v1/targets
    as Prometheus would answer them for the first `prometheus_nodes` nodes."""

    def __init__(self, count):
        self.body = node_body(0)
        self.dcgm = dcgm_body(0)
        self.count = count
        self.prometheus_nodes = 0
        self.answers = {}
        gen = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def do_GET(self):  # noqa: N802
                if self.path.startswith('/node/'):
                    # name[] arguments keep only those series, as nvitop-exporter 1.7
                    # (prometheus_client) and ours answer them; any other query is ignored.
                    query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                    body = gen.filtered(query.get('name[]'))
                elif self.path.startswith('/dcgm/'):
                    body = gen.dcgm
                elif self.path.startswith('/api/v1/query'):
                    query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                    kind = 'range' if self.path.startswith('/api/v1/query_range') else 'query'
                    body = gen.prometheus_answer(kind, query.get('query', [''])[0])
                elif self.path.startswith('/api/v1/targets'):
                    body = gen.prometheus_answer('targets')
                else:
                    body = b''
                self.send_response(200 if body else 404)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up (the monitor quit)

            def log_message(self, *args):
                pass

        class Server(http.server.ThreadingHTTPServer):
            # socketserver's default backlog of 5 drops the connections of 200 nodes read at
            # once (their SYNs are retried after 1 and 3 s, past a 3 s timeout); an exporter
            # listens with the system's.
            request_queue_size = 1024
            daemon_threads = True

        self.server = Server(('127.0.0.1', 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def filtered(self, names):
        """The node body, or its lines of the given series (cached per list of names)."""
        if not names:
            return self.body
        key = tuple(sorted(names))
        if key not in self.answers:
            self.answers[key] = b''.join(
                line + b'\n' for line in self.body.splitlines()
                if line.split(b'{', 1)[0].split(b' ', 1)[0].decode() in names)
        return self.answers[key]

    def prometheus_answer(self, kind, query=''):
        key = (kind, query, self.prometheus_nodes)
        if key not in self.answers:
            self.answers[key] = self.build_answer(kind, self.prometheus_nodes, query)
        return self.answers[key]

    @staticmethod
    def aggregate(query):
        """What Prometheus answers for one of nvitop's queries about a synthetic node: a list of
        (extra labels, value) per node."""
        per_gpu_procs = [PROCESSES // GPUS + (1 if g < PROCESSES % GPUS else 0) for g in range(GPUS)]
        users, user_gpus = {}, {}
        for g in range(GPUS):
            for p in range(per_gpu_procs[g]):
                users[f'user{p}'] = users.get(f'user{p}', 0) + 20000 + p
                user_gpus[f'user{p}'] = user_gpus.get(f'user{p}', 0) + 1
        table = (
            ('"flag"', lambda: []),  # the health flags: none
            ('unless', lambda: [({}, 0)]),  # idle GPUs
            ('hostname)', lambda: [({}, GPUS)]),
            ('index=~', lambda: []),
            ('avg by', lambda: [({}, sum(50 + g for g in range(GPUS)) / GPUS)]),
            ('max by (instance, job) (gpu_utilization', lambda: [({}, 50 + GPUS - 1)]),
            ('gpu_memory_used', lambda: [({}, sum(40000 + g for g in range(GPUS)))]),
            ('gpu_memory_total', lambda: [({}, 81559 * GPUS)]),
            ('gpu_power_usage', lambda: [({}, 612.5 * GPUS)]),
            ('gpu_temperature', lambda: [({}, 60 + GPUS - 1)]),
            ('topk', lambda: [({'username': u}, v) for u, v in
                              sorted(users.items(), key=lambda kv: -kv[1])[:16]]),
            ('count by (instance, job, username)', lambda: [({'username': u}, v) for u, v in
                                                            user_gpus.items()]),
            ('count by (instance, job) (process', lambda: [({}, PROCESSES)]),
            ('nvitop_info', lambda: [({'driver_version': '550.90.07'}, 1)]),
        )
        for needle, answer in table:
            if needle in query:
                return answer()
        return []

    @classmethod
    def build_answer(cls, kind, count, query=''):
        now = round(time.time(), 3)  # Prometheus's sample times are in milliseconds
        stamp = time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(now)) + '.5Z'
        if kind == 'targets':
            targets = [{'labels': {'instance': f'node{i:04d}:8000', 'job': 'nvitop'},
                        'health': 'up', 'lastError': '', 'lastScrape': stamp}
                       for i in range(count)]
            return json.dumps({'status': 'success', 'data': {'activeTargets': targets}}).encode()
        rows = cls.aggregate(query)
        # As Prometheus answers an aggregation: only the labels of its "by (...)" clause.
        by_host = 'hostname)' in query
        def sample(value):
            if kind == 'range':  # 20 points 30 s apart, as the history's range query asks
                return {'values': [[round(now - 30 * k, 3), str(value)] for k in range(19, -1, -1)]}
            return {'value': [now, str(value)]}
        result = [{'metric': {'instance': f'node{i:04d}:8000', 'job': 'nvitop',
                              **({'hostname': f'node{i:04d}'} if by_host else {}), **labels},
                   **sample(value)}
                  for i in range(count) for labels, value in rows]
        return json.dumps({'status': 'success',
                           'data': {'resultType': 'matrix' if kind == 'range' else 'vector',
                                    'result': result}}).encode()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_cpu(args, env):
    """CPU seconds of one child run."""
    before = children_cpu()
    subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False, timeout=120)
    return children_cpu() - before


def proc_cpu(pid):
    with open(f'/proc/{pid}/stat', encoding='ascii') as f:
        fields = f.read().rpartition(')')[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def monitor_cpu(nvitop, args, seconds, env):
    """CPU share of one core used by the cluster screen over `seconds` (after a warm-up)."""
    # A new server each time: one just killed may still hold its socket name.
    socket = f'nvt-cluster-bench-{os.getpid()}-{next(SOCKETS)}'
    command = ' '.join([nvitop, *args])
    subprocess.run(['tmux', '-L', socket, '-f', '/dev/null', 'new-session', '-d', '-x', '200',
                    '-y', '50', f'exec {command}'], env=env, check=True, timeout=20)
    try:
        pid = int(subprocess.run(['tmux', '-L', socket, 'display', '-p', '#{pane_pid}'],
                                 capture_output=True, check=True, timeout=20).stdout)
        time.sleep(3)  # the first reads of every node
        start_cpu, start = proc_cpu(pid), time.monotonic()
        time.sleep(seconds)
        return (proc_cpu(pid) - start_cpu) / (time.monotonic() - start)
    finally:
        subprocess.run(['tmux', '-L', socket, 'kill-server'], check=False, timeout=20)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20
    nvitop = os.path.abspath(os.path.join(build, 'bin/nvitop'))
    env = dict(os.environ, TERM='xterm-256color')
    env.pop('NVML_SIM_SCENARIO', None)
    gen = Generator(1000)
    work = tempfile.mkdtemp(prefix='nvt-cluster-bench-')
    try:
        # The cluster screen without its sparklines (every column but history), and with them
        # (the default settings).
        off = os.path.join(work, 'off.conf')
        with open(off, 'w', encoding='ascii') as f:
            f.write('[cluster]\ncolumns = host, gpus, mig, util, max, memory, power, temp, procs, '
                    'age, health, users\n')
        sparklines = (('off', ['--config', off]), ('on', ['--no-config']))
        direct = 200
        hosts = os.path.join(work, 'hosts')
        whole = os.path.join(work, 'whole')
        mixed = os.path.join(work, 'mixed')
        with open(hosts, 'w', encoding='ascii') as f, open(mixed, 'w', encoding='ascii') as m, \
                open(whole, 'w', encoding='ascii') as w:
            for i in range(direct):
                f.write(f'http://127.0.0.1:{gen.port}/node/{i}/metrics\n')
                # A URL with a query of its own is read as given: the whole answer, as the
                # cluster view read every node before it asked for its series by name.
                w.write(f'http://127.0.0.1:{gen.port}/node/{i}/metrics?whole\n')
                kind = 'dcgm' if i % 2 else 'node'
                m.write(f'http://127.0.0.1:{gen.port}/{kind}/{i}/metrics\n')
        summary = [f'name[]={n}' for n in SUMMARY_SERIES]
        print(f'cluster: synthetic nodes of {GPUS} GPUs and {PROCESSES} processes, '
              f'{len(gen.body)} bytes of /metrics each ({len(gen.filtered(SUMMARY_SERIES))} of '
              f'the series the summary reads); dcgm-exporter nodes of {GPUS} GPUs, '
              f'{len(gen.dcgm)} bytes each')
        once = run_cpu([nvitop, '-1', '--no-config', '--hosts', '@' + hosts], env)
        # The floor: a minimal client (Python's http.client on one kept-alive connection) reading
        # the same bodies as the screen, minus the same interpreter doing nothing.
        fetch = ('import http.client,sys\n'
                 f'c=http.client.HTTPConnection("127.0.0.1",{gen.port},timeout=30)\n'
                 f'for i in range(int(sys.argv[1])):\n'
                 '    c.request("GET",f"/node/{i}/metrics"+sys.argv[2]); c.getresponse().read()\n')

        def floor_of(query):
            return (min(run_cpu([sys.executable, '-c', fetch, str(direct), query], env)
                        for _ in range(3)) -
                    min(run_cpu([sys.executable, '-c', fetch, '0', query], env) for _ in range(3)))
        floors = {'the summary\'s series': floor_of('?' + '&'.join(summary)),
                  'whole answers': floor_of('?whole')}
        print(f'  direct, {direct} nodes, once: {once * 1000:.1f} ms CPU (process start included);'
              ' floor (http.client reading the same bodies): ' +
              ', '.join(f'{v * 1000:.1f} ms for {k}' for k, v in floors.items()))
        for reads, listed, floor in (('the summary\'s series', hosts,
                                      floors['the summary\'s series']),
                                     ('whole answers', whole, floors['whole answers'])):
            for name, settings in sparklines:
                if reads == 'whole answers' and name == 'off':
                    continue
                share = monitor_cpu(nvitop, [*settings, '--hosts', '@' + listed, '--interval',
                                             '2'], seconds, env)
                per_refresh = share * 2
                print(f'  direct, {direct} nodes, {reads}, cluster screen at a 2 s refresh, '
                      f'sparklines {name}: {share * 100:.2f} % of a core (target 1.6 %; '
                      f'{per_refresh * 1000:.1f} ms per refresh, {per_refresh / floor:.2f}x the '
                      'floor)')
        once = run_cpu([nvitop, '-1', '--no-config', '--hosts', '@' + mixed], env)
        print(f'  direct, {direct} nodes, half dcgm-exporter, once: {once * 1000:.1f} ms CPU')
        share = monitor_cpu(nvitop, ['--no-config', '--hosts', '@' + mixed, '--interval', '2'],
                            seconds, env)
        print(f'  direct, {direct} nodes, half dcgm-exporter, cluster screen at a 2 s refresh, '
              f'sparklines on: {share * 100:.2f} % of a core ({share * 2 / direct * 1e6:.0f} us '
              'per node and refresh)')
        # One refresh's own cost: a once run minus a once run on an empty fleet (the process's
        # start and the fifteen requests), per node; flat when the cost is linear in the nodes.
        def once_cpu(count):
            gen.prometheus_nodes = count
            return min(run_cpu([nvitop, '-1', '--no-config', '--prometheus',
                                f'http://127.0.0.1:{gen.port}'], env) for _ in range(3))
        empty = once_cpu(0)
        print(f'  prometheus,    0 nodes, once: {empty * 1000:.1f} ms CPU (process start and '
              'fifteen requests)')
        for count in (10, 100, 1000):
            cpu = once_cpu(count)
            print(f'  prometheus, {count:4d} nodes, once: {cpu * 1000:.1f} ms CPU; '
                  f'{(cpu - empty) * 1000:.1f} ms for the nodes, '
                  f'{(cpu - empty) / count * 1000:.3f} ms per node')
        for name, settings in sparklines:
            share = monitor_cpu(nvitop, [*settings, '--prometheus', f'http://127.0.0.1:{gen.port}',
                                         '--interval', '2'], seconds, env)
            print(f'  prometheus, 1000 nodes, cluster screen at a 2 s refresh, sparklines {name}: '
                  f'{share * 100:.2f} % of a core (target 0.7 %)')
    finally:
        gen.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
