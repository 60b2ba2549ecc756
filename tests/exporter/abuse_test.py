#!/usr/bin/python3
"""nvitop-exporter stays available to a well-behaved scraper while crowds of hostile clients
hold its connections: 300 and 1,000 connections that send nothing, clients that leave with
requests unanswered, slowloris clients (a header line every 2 s) over plain HTTP and TLS, and,
under mutual TLS, clients without a certificate.  The crowds come from 127.0.0.2-127.0.0.9 and
reconnect whenever the exporter drops them; the scraper uses 127.0.0.1.

Every scrape made while a crowd is present must be answered (status 200 and the metrics); the
scraper gives up on one after SCRAPE_TIMEOUT_S, below the exporter's 10 s idle timeout that used
to hold a scrape back.  How fast scrapes are is not checked here (bench/exporter prints it).

usage: abuse_test.py NVITOP_EXPORTER_BINARY
"""
import http.client
import os
import resource
import socket
import ssl
import sys
import tempfile
import threading
import time

import exporter_lib as lib

SCRAPE_TIMEOUT_S = 8
SCRAPES = 6
ADDRESSES = [f'127.0.0.{i}' for i in range(2, 10)]


class Crowd:
    """count connections from ADDRESSES, kept open (reopened when dropped) until stopped.
    mode: 'idle' sends nothing; 'slowloris' sends a request line, then a header line every 2 s;
    'certless' completes a TLS handshake without a client certificate and waits."""

    def __init__(self, port, count, mode, context=None):
        self.port = port
        self.count = count
        self.mode = mode
        self.context = context
        self.stop = threading.Event()
        self.opened = 0
        self.thread = threading.Thread(target=self._run)

    def __enter__(self):
        self.thread.start()
        lib.wait_until(lambda: self.opened >= self.count, 60, f'{self.count} {self.mode} '
                       'connections to be opened')
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=60)

    def _open(self, index):
        source = ADDRESSES[index % len(ADDRESSES)]
        s = socket.create_connection(('127.0.0.1', self.port), timeout=2,
                                     source_address=(source, 0))
        if self.context is not None:
            try:
                s = self.context.wrap_socket(s, server_hostname='127.0.0.1')
            except (ssl.SSLError, OSError):
                s.close()
                raise
        if self.mode == 'slowloris':
            s.sendall(b'GET /metrics HTTP/1.1\r\nHost: slow\r\n')
        s.setblocking(False)
        return s

    def _run(self):
        conns = {}
        next_line = time.monotonic()
        try:
            while not self.stop.is_set():
                for index in range(self.count):
                    if self.stop.is_set():
                        break
                    if index not in conns:
                        try:
                            conns[index] = self._open(index)
                        except (OSError, ssl.SSLError):
                            pass
                        self.opened += 1
                now = time.monotonic()
                for index, s in list(conns.items()):
                    if self._dropped(s, now >= next_line):
                        s.close()
                        del conns[index]
                if now >= next_line:
                    next_line = now + 2
                self.stop.wait(0.2)
        finally:
            for s in conns.values():
                s.close()

    def _dropped(self, s, send_line):
        """Poll one connection; True when the server closed it."""
        try:
            if s.recv(4096) == b'':
                return True
        except (BlockingIOError, ssl.SSLWantReadError):
            pass
        except (OSError, ssl.SSLError):
            return True
        if self.mode == 'slowloris' and send_line:
            try:
                s.send(b'X-a: b\r\n')
            except (BlockingIOError, ssl.SSLWantWriteError):
                pass
            except (OSError, ssl.SSLError):
                return True
        return False


def scrape_ok(exporter, context=None):
    if context is not None:
        conn = http.client.HTTPSConnection('127.0.0.1', exporter.port, timeout=SCRAPE_TIMEOUT_S,
                                           context=context)
    else:
        conn = http.client.HTTPConnection('127.0.0.1', exporter.port, timeout=SCRAPE_TIMEOUT_S)
    try:
        conn.request('GET', '/metrics')
        response = conn.getresponse()
        body = response.read().decode()
        return response.status == 200 and 'gpu_utilization_Percentage{' in body
    except (OSError, ssl.SSLError, http.client.HTTPException) as ex:
        return repr(ex)
    finally:
        conn.close()


def scrapes_during(exporter, crowd, what, context=None):
    results = []
    with crowd:
        for _ in range(SCRAPES):
            results.append(scrape_ok(exporter, context))
            time.sleep(0.5)
    failed = [r for r in results if r is not True]
    lib.check(not failed, f'{what}: {len(failed)} of {SCRAPES} scrapes failed: {failed}')
    lib.check(exporter.proc.poll() is None, f'the exporter died during {what}')


def leave_unanswered(exporter, count):
    """count clients send a request and leave at once; then a scrape."""
    for index in range(count):
        try:
            with socket.create_connection(('127.0.0.1', exporter.port), timeout=2,
                                          source_address=(ADDRESSES[index % 8], 0)) as s:
                s.sendall(b'GET /metrics HTTP/1.1\r\nHost: gone\r\n\r\n')
        except OSError:
            pass
    result = scrape_ok(exporter)
    lib.check(result is True, f'a scrape after {count} clients left: {result}')


def certless_dropped_at_handshake(exporter, context):
    """A client without a certificate gets no chance to send a request: the connection ends at
    the handshake or right after it, with nothing sent by the client."""
    try:
        with socket.create_connection(('127.0.0.1', exporter.port), timeout=5) as raw:
            with context.wrap_socket(raw, server_hostname='127.0.0.1') as s:
                data = s.recv(100)
    except (ssl.SSLError, ConnectionError) as ex:
        return repr(ex)
    except socket.timeout:
        lib.check(False, 'a client without a certificate was kept after its handshake')
    lib.check(data == b'', f'a client without a certificate read {data!r}')
    return 'closed'


def main(argv):
    binary = argv[0]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    scenario = lib.scenario_path('h100-8gpu')
    with lib.Exporter(binary, scenario) as exporter:
        leave_unanswered(exporter, 300)
        for count in (300, 1000):
            scrapes_during(exporter, Crowd(exporter.port, count, 'idle'),
                           f'{count} idle connections')
        scrapes_during(exporter, Crowd(exporter.port, 300, 'slowloris'), 'slowloris')
        lib.check(exporter.stop() == 0, 'the exporter did not leave cleanly on SIGTERM')

    with tempfile.TemporaryDirectory(prefix='nvt-exporter-abuse-') as tmp:
        certs = lib.make_certs(tmp)
        plain = ssl.create_default_context(cafile=certs['ca.crt'])
        tls = ['--certfile', certs['server.crt'], '--keyfile', certs['server.key']]
        with lib.Exporter(binary, scenario, tls) as exporter:
            scrapes_during(exporter, Crowd(exporter.port, 300, 'slowloris', plain),
                           'slowloris over TLS', plain)
        authorised = ssl.create_default_context(cafile=certs['ca.crt'])
        authorised.load_cert_chain(certs['client.crt'], certs['client.key'])
        with lib.Exporter(binary, scenario, tls + ['--client-cafile', certs['ca.crt'],
                                                   '--client-auth-required']) as exporter:
            how = certless_dropped_at_handshake(exporter, plain)
            print(f'a client without a certificate: {how}')
            scrapes_during(exporter, Crowd(exporter.port, 256, 'certless', plain),
                           'clients without a certificate', authorised)


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    lib.main_wrapper(main)
