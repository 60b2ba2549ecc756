"""The cluster view asks a node for only the series it summarises (/metrics?name[]=..., which
Prometheus's client libraries, nvitop-exporter 1.7's among them, and our exporter answer with
those series alone), and for the whole answer where it needs it:

* `-1` and the screen ask for the ten series the summary reads, and nothing else;
* a node that refuses the query (HTTP 400) or answers it without GPU series is read again whole,
  shows its figures, and is read whole from then on;
* the node view (Enter) reads its node whole, and draws its process table from it; the other
  nodes stay filtered;
* against our own exporter, `-1` shows the same figures either way (a URL with a query of its
  own is read as given, so the whole answer is one command away)."""
import contextlib
import http.server
import shlex
import subprocess
import sys
import threading
import urllib.parse

from cluster_lib import Exporter, check, http_server, main_wrapper, scenario_path, wait_until
from screen_test import Tmux, rows_of

SUMMARY = ['nvitop_info', 'gpu_memory_total_MiB', 'gpu_utilization_Percentage',
           'gpu_memory_used_MiB', 'gpu_power_usage_W', 'gpu_temperature_C',
           'process_gpu_memory_MiB', 'nvitop_pod_gpu_memory_MiB', 'nvitop_health_flags',
           'nvitop_xid_last']

BODY = ('gpu_memory_total_MiB{{index="0",hostname="{host}",uuid="GPU-1"}} 1024\n'
        'gpu_memory_used_MiB{{index="0",hostname="{host}",uuid="GPU-1"}} 512\n'
        'gpu_utilization_Percentage{{index="0",hostname="{host}",uuid="GPU-1"}} 37\n'
        'process_gpu_memory_MiB{{index="0",hostname="{host}",uuid="GPU-1",pid="4242",'
        'username="ann"}} 500\n'
        'process_info_info{{index="0",hostname="{host}",uuid="GPU-1",pid="4242",'
        'username="ann",status="running",command="train.py --rank 0"}} 1.0\n')


@contextlib.contextmanager
def recording_server(host, filtered_answer):
    """An HTTP/1.1 server answering /metrics with a small exporter body of hostname `host`, and
    /metrics?name[]=... with filtered_answer: 'filter' (the named series), 'refuse' (HTTP 400) or
    'nothing' (200 without GPU series).  Yields (port, the list of request paths)."""
    paths = []
    lock = threading.Lock()
    body = BODY.format(host=host)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'

        def do_GET(self):  # noqa: N802
            with lock:
                paths.append(self.path)
            split = urllib.parse.urlsplit(self.path)
            names = urllib.parse.parse_qs(split.query).get('name[]')
            status, text = 200, body
            if names and filtered_answer == 'refuse':
                status, text = 400, 'unknown argument\n'
            elif names and filtered_answer == 'nothing':
                text = 'up 1\n'
            elif names:
                text = ''.join(line + '\n' for line in body.splitlines()
                               if line.split('{', 1)[0] in names)
            data = text.encode()
            self.send_response(status)
            self.send_header('Content-Length', str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    with http_server(Handler) as port:
        yield port, paths


def names_of(path):
    split = urllib.parse.urlsplit(path)
    return split.path, urllib.parse.parse_qs(split.query).get('name[]')


def once(nvitop, *args):
    result = subprocess.run([nvitop, '-1', '--hosts', *args], capture_output=True, text=True,
                            timeout=60, check=False)
    return result.returncode, result.stdout + result.stderr


def check_once(nvitop):
    with recording_server('filtering', 'filter') as (good, good_paths), \
            recording_server('refusing', 'refuse') as (refusing, refusing_paths), \
            recording_server('empty', 'nothing') as (empty, empty_paths):
        code, out = once(nvitop, f'127.0.0.1:{good},127.0.0.1:{refusing},127.0.0.1:{empty}')
        check(code == 0, f'-1: exit {code}\n{out}')
        for host in ('filtering', 'refusing', 'empty'):
            check(f' {host} ' in out, f'{host} not shown:\n{out}')
        check(' ok ' in out and 'bad data' not in out and 'HTTP 400' not in out,
              f'-1 output:\n{out}')
        check([names_of(p) for p in good_paths] == [('/metrics', SUMMARY)],
              f'filtering node asked for {good_paths}')
        for paths in (refusing_paths, empty_paths):
            check([names_of(p) for p in paths] == [('/metrics', SUMMARY), ('/metrics', None)],
                  f'a node that answers the filter badly is read again whole: {paths}')


def check_screen(nvitop):
    with recording_server('filtering', 'filter') as (good, good_paths), \
            recording_server('refusing', 'refuse') as (refusing, refusing_paths):
        addresses = [f'127.0.0.1:{good}', f'127.0.0.1:{refusing}']
        tmux = Tmux(f'{shlex.quote(nvitop)} -U --hosts {",".join(addresses)} --interval 0.25; '
                    'sleep 60')
        try:
            wait_until(lambda: all('ing' in rows_of(tmux.capture()).get(a, '')
                                   for a in addresses) and len(refusing_paths) >= 5 and
                       len(good_paths) >= 4, 20, 'the nodes on the screen, read a few times')
            refused = [names_of(p)[1] for p in list(refusing_paths)]
            check(refused[0] == SUMMARY and all(n is None for n in refused[1:]),
                  f'the refusing node after its first read: {refusing_paths}')
            # Enter on the first node (natural order): its view is drawn from a whole answer.
            tmux.keys('Home', 'Enter')
            screen = wait_until(lambda: (lambda s: s if 'train.py' in s else None)(
                tmux.capture()), 20, 'the node view with the process command')
            check(f'NODE 127.0.0.1:{good}' in screen, f'node view:\n{screen}')
            # Drawn from a whole answer: every read from now on is whole.
            before = len(good_paths)
            wait_until(lambda: len(good_paths) >= before + 3, 20, 'reads of the viewed node')
            viewed = [names_of(p)[1] for p in list(good_paths)[before:]]
            check(viewed and all(n is None for n in viewed),
                  f'the viewed node is read whole: {good_paths[before:]}')
            # Back to the list: filtered again.
            tmux.keys('Escape')
            wait_until(lambda: 'NVITOP CLUSTER' in tmux.capture(), 10, 'the nodes again')
            back = len(good_paths)
            wait_until(lambda: len(good_paths) >= back + 3, 20, 'reads after the view')
            again = [names_of(p)[1] for p in list(good_paths)[back + 1:]]
            check(again and all(n == SUMMARY for n in again),
                  f'filtered again after the view: {good_paths[back:]}')
        finally:
            tmux.close()


def check_exporter(nvitop, exporter_binary):
    """Our exporter: the filtered read and the whole one (a query of its own) give one line."""
    with Exporter(exporter_binary, scenario_path('h100-8gpu'), ['--hostname', 'node-h100',
                                                                '--interval', '60']) as exporter:
        code, filtered = once(nvitop, f'127.0.0.1:{exporter.port}')
        code2, whole = once(nvitop, f'http://127.0.0.1:{exporter.port}/metrics?whole=1')
        check(code == 0 and code2 == 0, f'exits {code} {code2}\n{filtered}\n{whole}')

        def node_line(text):
            return [' '.join(line.split()[1:]) for line in text.splitlines()
                    if 'node-h100' in line]
        check(node_line(filtered) and node_line(filtered) == node_line(whole),
              f'filtered:\n{filtered}\nwhole:\n{whole}')


def test(argv):
    nvitop, exporter = argv[0], argv[1]
    check_once(nvitop)
    check_screen(nvitop)
    check_exporter(nvitop, exporter)


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
