#!/usr/bin/python3
"""nvitop-exporter against hostile clients: malformed requests, slow clients holding connections
open, and a paced load of about 1,000 requests per second for 10 s (wrk); meanwhile a well-behaved
client's scrapes are all answered, the exporter does not crash, and its RSS stays flat.

usage: hostile_test.py NVITOP_EXPORTER_BINARY
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import ctypes
import ctypes.util

import exporter_lib as lib

HERE = os.path.dirname(os.path.abspath(__file__))
SLOW_CLIENTS = 100
LOAD_SECONDS = 10


def raw_request(port, data, read=True, timeout=10):
    """Send raw bytes; the status line of the answer, or '' when the server closed without one
    (or kept the connection open, waiting for the rest, for timeout seconds)."""
    with socket.create_connection(('127.0.0.1', port), timeout=timeout) as s:
        s.sendall(data)
        if not read:
            return ''
        try:
            s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        answer = b''
        try:
            while len(answer) < 200:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    return answer.split(b'\r\n', 1)[0].decode('latin-1')


def check_malformed(exporter):
    port = exporter.port
    cases = [
        (b'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 200'),
        (b'GET /metrics?name[]=gpu HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 200'),
        (b'HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 200'),
        (b'GET / HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 404'),
        (b'GET /metrics/../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 404'),
        (b'GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 404'),
        (b'DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 405'),
        (b'POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello', 'HTTP/1.1 405'),
        (b'\x00\xff\xfe garbage \x01\r\n\r\n', None),
        (b'GET /metrics HTTP/9.9\r\n\r\n', None),
        (b'GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ' + b'a' * 200000 + b'\r\n\r\n', None),
        (b'GET /metrics HTTP/1.1\r\nContent-Length: -1\r\n\r\n', None),
        (b'GET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', None),
        (b'G', None),
    ]
    for data, expected in cases:
        try:
            status = raw_request(port, data, timeout=10 if expected else 2)
        except (ConnectionError, BrokenPipeError):
            status = ''
        if expected is not None:
            lib.check(status.startswith(expected), f'{data[:40]!r}: {status!r}, expected '
                      f'{expected!r}')
        else:
            # Refused one way or another: an error status or a closed connection.
            lib.check(not status.startswith('HTTP/1.1 200'), f'{data[:40]!r} got {status!r}')
        lib.check(exporter.proc.poll() is None, f'the exporter died after {data[:40]!r}')
    status, _, body = exporter.fetch()
    lib.check(status == 200 and 'gpu_utilization_Percentage{' in body, 'scrape after malformed')


def raw_answer(port, data, timeout=5):
    """Send raw bytes and read the whole answer until the server closes (bounded)."""
    answer = b''
    with socket.create_connection(('127.0.0.1', port), timeout=timeout) as s:
        try:
            s.sendall(data)
        except OSError:
            return answer
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline and len(answer) < 65536:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    return answer


def microhttpd_version():
    """libmicrohttpd's version as a tuple of numbers, from the library the exporter links."""
    name = ctypes.util.find_library('microhttpd') or 'libmicrohttpd.so.12'
    library = ctypes.CDLL(name)
    library.MHD_get_version.restype = ctypes.c_char_p
    return tuple(int(part) for part in library.MHD_get_version().decode().split('.')[:3])


def check_single_answer(exporter):
    """Every error answer carries one status line and each header once.  libmicrohttpd before
    1.0 sends the status line and headers of its answer to a bad Content-Length twice (its request
    parser queues the error answer, then its state machine builds the answer's header again); no
    callback of that version runs in between, so those cases are checked only from 1.0 on
    (docs/architecture.md, "The exporter")."""
    fixed_upstream = microhttpd_version() >= (1, 0, 0)
    # (request, status code, whether libmicrohttpd < 1.0 repeats the answer's header)
    cases = [
        (b'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n', '400', True),
        (b'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', '400', True),
        (b'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n',
         '413', True),
        (b'POST /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', '400',
         False),
        (b'POST /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'
         b'FFFFFFFFFFFFFFFFFF\r\n', '413', False),
        (b'GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ' + b'a' * 40000 + b'\r\n\r\n', '431', False),
        (b'GET /' + b'a' * 70000 + b' HTTP/1.1\r\nHost: x\r\n\r\n', '414', False),
        (b'GET /metrics HTTP/9.9\r\n\r\n', '505', False),
        (b'DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n', '405', False),
        (b'GET / HTTP/1.1\r\nHost: x\r\n\r\n', '404', False),
    ]
    for data, code, library_defect in cases:
        answer = raw_answer(exporter.port, data)
        head, _, _ = answer.partition(b'\r\n\r\n')
        lines = head.decode('latin-1').split('\r\n')
        what = f'{data[:48]!r}'
        lib.check(lines[0].startswith(f'HTTP/1.1 {code} '), f'{what}: {lines[0]!r}, expected {code}')
        statuses = answer.count(b'HTTP/1.1 ')
        names = [line.split(':', 1)[0].lower() for line in lines[1:]]
        if not library_defect or fixed_upstream:
            lib.check(statuses == 1, f'{what}: {statuses} status lines in {answer[:400]!r}')
            lib.check(len(names) == len(set(names)), f'{what}: repeated headers {names}')
        elif statuses != 1:
            print(f'known libmicrohttpd < 1.0 defect: {what} answered with {statuses} status lines')
        lib.check(exporter.proc.poll() is None, f'the exporter died after {what}')


def check_slow_clients(exporter):
    """Many connections that send half a request and wait: normal scrapes are still answered.
    They come from four other loopback addresses, 25 each, below the per-address cap (the
    scraper's own address would otherwise be the one capped; abuse_test.py tests the caps)."""
    slow = []
    try:
        for i in range(SLOW_CLIENTS):
            s = socket.create_connection(('127.0.0.1', exporter.port), timeout=10,
                                         source_address=(f'127.0.0.{2 + i % 4}', 0))
            s.sendall(b'GET /metrics HTTP/1.1\r\nHost: slow\r\n')
            slow.append(s)
        for _ in range(5):
            status, _, _ = exporter.fetch()
            lib.check(status == 200, f'scrape with {SLOW_CLIENTS} slow clients: {status}')
    finally:
        for s in slow:
            s.close()


def under_sanitizer(binary):
    with open(binary, 'rb') as f:
        return b'__asan_init' in f.read()


def check_load(exporter, binary):
    wrk = shutil.which('wrk')
    lib.check(wrk is not None, 'wrk is not installed (scripts/deps.sh installs it)')
    for _ in range(3):
        exporter.fetch(headers={'Accept-Encoding': 'gzip'})
    rss_before = exporter.rss_kib()
    results = {'ok': 0, 'failed': []}

    def scraper(stop):
        while not stop.is_set():
            try:
                status, _, body = exporter.fetch(headers={'Accept-Encoding': 'gzip'})
                if status == 200 and body.startswith('# HELP nvitop_info'):
                    results['ok'] += 1
                else:
                    results['failed'].append(status)
            except OSError as ex:
                results['failed'].append(repr(ex))
            stop.wait(0.5)

    stop = threading.Event()
    thread = threading.Thread(target=scraper, args=(stop,))
    thread.start()
    try:
        proc = subprocess.run([wrk, '-t2', '-c10', f'-d{LOAD_SECONDS}s', '--timeout', '5s',
                               '-s', os.path.join(HERE, 'paced.lua'),
                               f'http://127.0.0.1:{exporter.port}/metrics'],
                              capture_output=True, timeout=LOAD_SECONDS + 30, check=False)
    finally:
        stop.set()
        thread.join(timeout=30)
    out = proc.stdout.decode()
    lib.check(proc.returncode == 0, f'wrk failed: {out} {proc.stderr.decode()}')
    lib.check('Non-2xx' not in out and 'Socket errors' not in out, f'wrk saw errors:\n{out}')
    match = re.search(r'(\d+) requests in', out)
    lib.check(match and int(match.group(1)) >= LOAD_SECONDS * 100, f'too few requests:\n{out}')
    lib.check(not results['failed'] and results['ok'] >= LOAD_SECONDS,
              f'well-behaved scrapes: {results["ok"]} ok, failed {results["failed"]}')
    lib.check(exporter.proc.poll() is None, 'the exporter died under load')
    rss_after = exporter.rss_kib()
    print(f'load: {match.group(1)} requests in {LOAD_SECONDS}s; RSS {rss_before} -> '
          f'{rss_after} KiB')
    if not under_sanitizer(binary):
        lib.check(rss_after - rss_before < 2048,
                  f'RSS grew from {rss_before} to {rss_after} KiB under load')


def main(argv):
    binary = argv[0]
    with lib.Exporter(binary, lib.scenario_path('h100-8gpu')) as exporter:
        check_malformed(exporter)
        check_single_answer(exporter)
        check_slow_clients(exporter)
        check_load(exporter, binary)
        lib.check(exporter.stop() == 0, 'the exporter did not leave cleanly on SIGTERM')


if __name__ == '__main__':
    sys.path.insert(0, HERE)
    lib.main_wrapper(main)
