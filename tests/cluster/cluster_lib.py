"""Helpers for the cluster view tests: the exporter tests' helpers (exporters on the simulator,
a real Prometheus, certificates, bounded waits) plus bad nodes: a port that refuses connections
and a server that answers slowly or with bad bodies.  Python 3 stdlib only; loopback only."""
import contextlib
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../exporter'))
from exporter_lib import (Exporter, Failure, Prometheus, check, free_port,  # noqa: E402,F401
                          main_wrapper, make_certs, scenario_path, wait_until)

SLOW_S = 10


@contextlib.contextmanager
def refusing_port():
    """A loopback port that is bound but not listening: connections are refused, and no other
    program can take the port while the test runs."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        yield s.getsockname()[1]


class _Handler(http.server.BaseHTTPRequestHandler):
    stop = None  # a threading.Event, set by the owner to end slow answers early

    def do_GET(self):  # noqa: N802
        path = urllib.parse.urlsplit(self.path).path  # a query (name[]) is ignored
        if path == '/slow':
            # Answer only after SLOW_S seconds (or when the test ends).
            self.stop.wait(SLOW_S)
            body, status = b'up 1\n', 200
        elif path.startswith('/html/'):
            body, status = b'<html>Grafana</html>\n', 200
        elif path.startswith('/json/'):
            body, status = b'{"status": "error", "error": "bad query"}\n', 200
        elif path == '/garbage':
            body, status = b'<html><body>It works!</body></html>\n', 200
        elif path == '/other':
            body, status = b'# TYPE up gauge\nup 1\n', 200
        else:
            body, status = b'not found\n', 404
        try:
            self.send_response(status)
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass  # the client gave up first, as it should

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def http_server(handler, on_stop=None):
    """A threading HTTP server on a free loopback port answering with handler (a
    BaseHTTPRequestHandler class); yields its port, and stops it (on_stop() called first) on
    leaving."""
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={'poll_interval': 0.1})
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        if on_stop is not None:
            on_stop()
        server.shutdown()
        server.server_close()
        thread.join(timeout=15)


@contextlib.contextmanager
def bad_server():
    """An HTTP server on loopback: /slow answers after 10 s, /garbage is HTML, /other has no
    nvitop metrics, anything else is 404.  Yields its port."""
    stop = threading.Event()
    handler = type('Handler', (_Handler,), {'stop': stop})
    with http_server(handler, on_stop=stop.set) as port:
        yield port


class ConnectionCount:
    """What a counting server saw: requests, and the client ports they came from (one port per
    TCP connection)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.ports = set()


@contextlib.contextmanager
def counting_server():
    """An HTTP/1.1 server on loopback answering every GET with a minimal nvitop-exporter body
    (one GPU of host "counted"), keeping connections alive.  Yields (port, ConnectionCount)."""
    count = ConnectionCount()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'

        def do_GET(self):  # noqa: N802
            with count.lock:
                count.requests += 1
                count.ports.add(self.client_address[1])
            body = b'gpu_memory_total_MiB{index="0",hostname="counted"} 1024\n'
            self.send_response(200)
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with http_server(Handler) as port:
        yield port, count


@contextlib.contextmanager
def served(routes):
    """An HTTP/1.1 server on loopback answering GET path with routes[path] = (status, body) or
    (status, body, {header: value}); 404 for other paths.  Bodies are bytes, sent as they are.
    Yields its port."""
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'

        def do_GET(self):  # noqa: N802
            # Routed by path: a query (the cluster view's name[]) is ignored, as by
            # dcgm-exporter.
            path = urllib.parse.urlsplit(self.path).path
            status, body, *extra = routes.get(path, (404, b'not found\n'))
            self.send_response(status)
            for key, value in (extra[0] if extra else {}).items():
                self.send_header(key, value.replace('PORT', str(self.server.server_address[1])))
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with http_server(Handler) as port:
        yield port


def run_nvitop(binary, args, timeout=60):
    """(exit status, stdout, stderr) of nvitop with args, without a terminal."""
    env = dict(os.environ)
    env.pop('NVML_SIM_SCENARIO', None)  # the cluster view must not need a local GPU
    start = time.monotonic()
    proc = subprocess.run([binary, *args], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=timeout, check=False)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode(), time.monotonic() - start


def nodes_table(stdout):
    """{address: the rest of its line(s)} of the cluster table, header checked."""
    lines = stdout.splitlines()
    check(lines and lines[0].split()[:3] == ['NODE', 'HOST', 'GPUS'], f'no header: {stdout}')
    rows = {}
    last = None
    for line in lines[1:]:
        if line.startswith('TOTAL  '):
            continue  # the fleet's totals (total_line)
        if line.startswith(' '):
            rows[last] += '\n' + line.strip()
            continue
        address, _, rest = line.partition(' ')
        rows[address] = ' '.join(rest.split())
        last = address
    return rows


def total_line(stdout):
    """The TOTAL line of the cluster table, spaces collapsed."""
    totals = [line for line in stdout.splitlines() if line.startswith('TOTAL  ')]
    check(len(totals) == 1 and stdout.splitlines()[-1] == totals[0],
          f'one TOTAL line, last, expected:\n{stdout}')
    return ' '.join(totals[0].split())


class FleetPrometheus(Prometheus):
    """The exporter tests' Prometheus, scraping several targets every second in one job (and
    itself in another, as a default set-up does)."""

    def __init__(self, targets):
        super().__init__(0)
        listed = ', '.join(f"'{t}'" for t in targets)
        with open(self.config, 'w', encoding='utf-8') as f:
            f.write('global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n'
                    'scrape_configs:\n'
                    '  - job_name: nvitop\n'
                    f'    static_configs:\n      - targets: [{listed}]\n'
                    '  - job_name: prometheus\n'
                    f"    static_configs:\n      - targets: ['127.0.0.1:{self.port}']\n")
        self.targets = targets

    def url(self):
        return f'http://127.0.0.1:{self.port}'

    def wait_targets(self, up, timeout=60):
        """Wait until every target, Prometheus's own included, was scraped at least once and up
        of ours answered (before its first scrape, Prometheus's own target is one of unknown
        health that nothing tells apart from a node: a loaded machine showed it as a sixth row)."""
        def ready():
            health = {}
            with urllib.request.urlopen(self.url() + '/api/v1/targets', timeout=5) as r:
                for t in json.load(r)['data']['activeTargets']:
                    health[t['labels']['instance']] = t['health']
            return (all(h in ('up', 'down') for h in health.values()) and
                    all(health.get(t) in ('up', 'down') for t in self.targets) and
                    sum(health.get(t) == 'up' for t in self.targets) >= up)
        wait_until(ready, timeout, f'Prometheus to scrape its {len(self.targets)} targets',
                   step=0.5)
