#!/usr/bin/python3
"""nvitop-exporter's throughput, and how long a scrape waits while others misbehave.  Prints
figures; never fails on a time.

usage: python3 bench/exporter/abuse_bench.py [BUILD_DIR] [BASELINE_BUILD_DIR]

1. wrk with 16 connections for 10 s (2 threads): requests per second and the 99th percentile of
   latency.  Target: no more than 10 % below the baseline's (a build of an earlier commit, run
   in the same session when given).
2. A scrape made right after wrk's 300 connections for 3 s have left.  Target: 50 ms.
3. Scrapes made while 300 slowloris clients (a header line every 2 s, from 127.0.0.2-9) hold
   connections: the median and the slowest of 10.  Target: 100 ms.

Runs on the simulated 8-GPU server (no stand-in jobs), loopback only.
"""
import http.client
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, '../..')
sys.path.insert(0, os.path.join(SOURCE, 'tests/exporter'))
import abuse_test  # noqa: E402  (its slowloris crowd)


def start(build):
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, 'sim-driver'),
               NVML_SIM_SCENARIO=os.path.join(SOURCE, 'sim/scenarios/h100-8gpu.json'),
               NVML_SIM_TIME='1000')
    port = abuse_test.lib.free_port()
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([os.path.join(build, 'bin/nvitop-exporter'), '--port', str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(100):
        try:
            scrape_ms(port)
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    proc.wait()
    log.seek(0)
    raise RuntimeError('the exporter did not start: ' + log.read().decode())


def scrape_ms(port, timeout=15):
    start_time = time.monotonic()
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout)
    try:
        conn.request('GET', '/metrics')
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f'scrape answered {response.status}')
    finally:
        conn.close()
    return (time.monotonic() - start_time) * 1000


def wrk(port, connections, seconds):
    out = subprocess.run([shutil.which('wrk'), '-t2', f'-c{connections}', f'-d{seconds}s',
                          '--latency', f'http://127.0.0.1:{port}/metrics'], capture_output=True,
                         timeout=seconds + 60, check=False).stdout.decode()
    rate = re.search(r'Requests/sec:\s+([0-9.]+)', out)
    p99 = re.search(r'99%\s+([0-9.]+)(us|ms|s)\b', out)
    scale = {'us': 0.001, 'ms': 1, 's': 1000}
    return (float(rate.group(1)) if rate else float('nan'),
            float(p99.group(1)) * scale[p99.group(2)] if p99 else float('nan'))


def measure(build, name):
    proc, port = start(build)
    try:
        rate, p99 = wrk(port, 16, 10)
        print(f'{name}: 16 connections: {rate:,.0f} req/s, p99 {p99:.2f} ms')
        wrk(port, 300, 3)
        try:
            after = f'{scrape_ms(port):.1f} ms'
        except (OSError, RuntimeError) as ex:
            after = f'failed ({ex!r})'
        print(f'{name}: a scrape right after 300 connections left: {after}')
        times = []
        with abuse_test.Crowd(port, 300, 'slowloris'):
            for _ in range(10):
                try:
                    times.append(scrape_ms(port, timeout=5))
                except (OSError, RuntimeError):
                    times.append(float('inf'))
                time.sleep(0.3)
        times.sort()
        print(f'{name}: scrapes during slowloris (300 clients): median {times[5]:.1f} ms, '
              f'slowest {times[-1]:.1f} ms, {sum(t == float("inf") for t in times)} of 10 failed')
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(SOURCE, 'build')
    if shutil.which('wrk') is None:
        sys.exit('wrk is not installed (scripts/deps.sh installs it)')
    measure(build, 'this build')
    if len(sys.argv) > 2:
        measure(sys.argv[2], 'baseline')


if __name__ == '__main__':
    main()
