#!/usr/bin/python3
"""Any user can start a GPU process whose command line is not UTF-8, and a host name can be any
bytes: the exposition must stay valid UTF-8 all the same, or Prometheus marks the whole target
down ("invalid UTF-8 label value").  A real Prometheus scrapes an exporter whose first GPU process
runs with argv[0] = b'\\xff\\xfe' and whose --hostname is not UTF-8; the target stays up, and the
invalid bytes arrive as U+FFFD.

usage: utf8_test.py NVITOP_EXPORTER_BINARY
"""
import os
import signal
import subprocess
import sys
import tempfile

import exporter_lib as lib

REPLACEMENT = '\ufffd'


def main(argv):
    binary = argv[0]
    # A shell with a command line of invalid UTF-8 (exec -a $'\xff\xfe' sh -c ...), which stays
    # (its script does not end with the sleep).
    job = subprocess.Popen([b'\xff\xfe', b'-c', b'sleep 120; exit 0', b'caf\xe9', b'\x1b[2J'],
                           executable='/bin/sh', stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        def cmdline():
            with open(f'/proc/{job.pid}/cmdline', 'rb') as f:
                return f.read().startswith(b'\xff\xfe\0')
        lib.wait_until(cmdline, 10, 'the job\'s argv[0] to be set')
        scenario = lib.load_scenario('h100-8gpu', {'NVT_STANDIN_1': str(job.pid)})
        with tempfile.TemporaryDirectory(prefix='nvt-exporter-utf8-') as tmp:
            path = os.path.join(tmp, 'scenario.json')
            lib.write_scenario(path, scenario)
            with lib.Exporter(binary, path, ['--hostname', b'node\xff7']) as exporter:
                try:
                    status, _, _ = exporter.fetch()
                except UnicodeDecodeError as ex:
                    raise lib.Failure(f'the exposition is not UTF-8: {ex}') from None
                lib.check(status == 200, f'scrape: {status}')
                with lib.Prometheus(exporter.port) as prom:
                    prom.wait_scrapes(2)
                    up = prom.query('up{job="nvitop"}')
                    lib.check(up and up[0]['value'][1] == '1', f'the target is down: {up}')
                    info = prom.query(f'process_info_info{{pid="{job.pid}"}}')
                    lib.check(len(info) >= 1, f'no process_info_info for pid {job.pid}')
                    labels = info[0]['metric']
                    want = f'{REPLACEMENT}{REPLACEMENT} -c "sleep 120; exit 0" caf{REPLACEMENT} \x1b[2J'
                    lib.check(labels.get('command') == want,
                              f'command label {labels.get("command")!r}, expected {want!r}')
                    host = f'node{REPLACEMENT}7'
                    lib.check(labels.get('hostname') == host,
                              f'hostname label {labels.get("hostname")!r}, expected {host!r}')
    finally:
        os.killpg(job.pid, signal.SIGKILL)
        job.wait(timeout=10)


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    lib.main_wrapper(main)
