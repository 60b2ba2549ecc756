#!/usr/bin/python3
"""nvitop-exporter's cost on the simulated 8-GPU server with 20 stand-in jobs.  Prints figures
and ratios against floors measured in the same run; never fails on a time.

usage: python3 bench/exporter/exporter_bench.py [BUILD_DIR] [SECONDS]   (default build, 30 s)

1. CPU per scrape: the exporter with a one-hour interval (it samples once), scraped SCRAPES times
   back to back as Prometheus scrapes (gzip accepted, a fresh connection each time); its CPU time
   over the scrapes divided by their number.  Target: 0.5 ms.
2. Steady state: the exporter at --interval 1 scraped every second for SECONDS, against
   bench-exporter-floor (the same snapshots alone, on the same schedule) and bench-monitor-floor
   (the monitor's snapshots at --interval 1).  Target: at most 1.5x the floor.  The exporter
   scraped, the exporter not scraped and both floors run at the same time, over the same
   SECONDS: on a shared machine whose load drifts, measuring them one after the other moved the
   ratio by 0.4 from one run to the next.  All four run NVT_BENCH_WARMUP_S seconds (default 20)
   before the measured ones: the library reads each process's identity (status, command line)
   again 5 to 15 s after it first meets it, once, which is start-up, not steady state.
3. Resident memory of the exporter at the end (VmRSS, and the peak VmHWM).  Target: 8 MiB.

NVT_BENCH_PROCESSES=1000 or 4000 runs it on h100-8gpu-1000.json or h100-16gpu-4000.json with as
many stand-ins, with fewer scrapes in 1. (docs/performance.md, "A thousand GPU processes": targets
there 1 % of a core scraped every second and 20 MiB).  In 2., a third exporter runs on the same
GPUs with no process (h100-8gpu-idle.json or h100-16gpu-idle.json), scraped every second too: its
CPU time is the fixed cost, and (scraped - fixed) / processes / refreshes the cost a process adds
("The cost per process above the fixed cost").

CPU time is the process's own utime + stime from /proc/PID/stat, which includes the threads that
have exited; the floors report getrusage(RUSAGE_SELF), the same thing.
"""
import gzip
import http.client
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, '../..')
SCRAPES = 2000
TICKS = os.sysconf('SC_CLK_TCK')
SCENARIOS = {20: 'h100-8gpu.json', 1000: 'h100-8gpu-1000.json', 4000: 'h100-16gpu-4000.json'}
IDLE_SCENARIOS = {20: 'h100-8gpu-idle.json', 1000: 'h100-8gpu-idle.json',
                  4000: 'h100-16gpu-idle.json'}
PROCESSES = int(os.environ.get('NVT_BENCH_PROCESSES', '20'))
if PROCESSES not in SCENARIOS:
    PROCESSES = 20
SCRAPES = max(50, SCRAPES * 20 // PROCESSES)
WARMUP = int(os.environ.get('NVT_BENCH_WARMUP_S', '20'))


def cpu_s(pid):
    """utime + stime of the whole process, exited threads included (clock ticks)."""
    with open(f'/proc/{pid}/stat', encoding='ascii') as f:
        fields = f.read().rpartition(')')[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def run_time_s(pid):
    """The scheduler's run time of the live threads (nanoseconds, so precise over a short run);
    it misses threads that exited, which cpu_s() counts: both are printed."""
    total = 0
    for task in os.listdir(f'/proc/{pid}/task'):
        try:
            with open(f'/proc/{pid}/task/{task}/schedstat', encoding='ascii') as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total / 1e9


def status_kib(pid, key):
    with open(f'/proc/{pid}/status', encoding='ascii') as f:
        for line in f:
            if line.startswith(key + ':'):
                return int(line.split()[1])
    return 0


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def scrape(port):
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    try:
        conn.request('GET', '/metrics', headers={'Accept-Encoding': 'gzip'})
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f'scrape answered {response.status}')
        return len(body), len(gzip.decompress(body))
    finally:
        conn.close()


def start_exporter(build, env, interval):
    port = free_port()
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([os.path.join(build, 'bin/nvitop-exporter'), '--port', str(port),
                             '--interval', str(interval)], env=env, stderr=log,
                            stdout=subprocess.DEVNULL)
    for _ in range(100):
        try:
            scrape(port)
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    proc.wait()
    log.seek(0)
    raise RuntimeError('the exporter did not start: ' + log.read().decode())


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)


def scrape_every_second(ports, seconds):
    start = time.monotonic()
    for i in range(seconds):
        for port in ports:
            scrape(port)
        delay = start + i + 1 - time.monotonic()
        if delay > 0:
            time.sleep(delay)


def steady(build, env, seconds):
    """The exporter at --interval 1 scraped every second (as Prometheus does, gzip accepted), a
    second one not scraped, a third on the same GPUs with no process, scraped every second, and
    both floors, over the same seconds after WARMUP seconds of the same (the library reads each
    process's identity again 5 to 15 s after meeting it, once: a start-up cost, not the steady
    state's): (run time, utime+stime, VmRSS, VmHWM) of each exporter, and each floor's
    figures."""
    busy, port = start_exporter(build, env, 1)
    idle, _ = start_exporter(build, env, 1)
    fixed_env = dict(env, NVML_SIM_SCENARIO=os.path.join(SOURCE, 'sim/scenarios',
                                                         IDLE_SCENARIOS[PROCESSES]))
    fixed, fixed_port = start_exporter(build, fixed_env, 1)
    procs = (busy, idle, fixed)
    time.sleep(2)
    floor_env = dict(env, NVT_BENCH_WARMUP_S=str(WARMUP))
    floors = {name: subprocess.Popen([os.path.join(build, 'bench', name),
                                      str(seconds + WARMUP), '1'],
                                     env=floor_env, stdout=subprocess.PIPE)
              for name in ('bench-exporter-floor', 'bench-monitor-floor')}
    scrape_every_second((port, fixed_port), WARMUP)
    before = [(run_time_s(p.pid), cpu_s(p.pid)) for p in procs]
    scrape_every_second((port, fixed_port), seconds)
    figures = []
    for p, (run_time, ticks) in zip(procs, before):
        figures.append((run_time_s(p.pid) - run_time, cpu_s(p.pid) - ticks,
                        status_kib(p.pid, 'VmRSS'), status_kib(p.pid, 'VmHWM')))
        stop(p)
    floor_figures = {}
    for name, p in floors.items():
        out = p.communicate(timeout=seconds + 60)[0].decode()
        floor_figures[name] = {k: float(v) for k, v in (item.split('=') for item in out.split())}
    return figures[0], figures[1], figures[2], floor_figures


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(SOURCE, 'build'))
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    with tempfile.TemporaryDirectory(prefix='nvt-bench-exporter-') as state:
        env = dict(os.environ, NVT_STANDIN_STATE=state,
                   LD_LIBRARY_PATH=os.path.join(build, 'sim-driver'),
                   NVML_SIM_SCENARIO=os.path.join(SOURCE, 'sim/scenarios', SCENARIOS[PROCESSES]))
        out = subprocess.run(['sh', os.path.join(SOURCE, 'scripts/standins.sh'), 'start',
                              str(PROCESSES)],
                             env=env, capture_output=True, check=True, timeout=600).stdout.decode()
        for line in out.splitlines():
            key, _, value = line[len('export '):].partition('=')
            env[key] = value.strip('\'"')
        try:
            run(build, env, seconds)
        finally:
            subprocess.run(['sh', os.path.join(SOURCE, 'scripts/standins.sh'), 'stop'], env=env,
                           capture_output=True, check=False, timeout=60)


def run(build, env, seconds):
    # 1. CPU per scrape.
    proc, port = start_exporter(build, env, 3600)
    sizes = scrape(port)
    before = cpu_s(proc.pid)
    wall = time.monotonic()
    for _ in range(SCRAPES):
        scrape(port)
    wall = time.monotonic() - wall
    per_scrape_ms = (cpu_s(proc.pid) - before) / SCRAPES * 1000
    stop(proc)
    print(f'{SCENARIOS[PROCESSES]}, {PROCESSES} processes')
    print(f'exposition: {sizes[1]} bytes, {sizes[0]} gzip-compressed')
    print(f'per scrape: {per_scrape_ms:.3f} ms CPU ({SCRAPES} scrapes in {wall:.1f} s; '
          f'target 0.5 ms)')

    # 2. Steady state against the floors, measured at the same time.
    busy, idle, fixed, floors = steady(build, env, seconds)
    exporter_floor = floors['bench-exporter-floor']
    monitor_floor = floors['bench-monitor-floor']
    print(f'steady state over {seconds} s at --interval 1, after {WARMUP} s of the same '
          f'(all five at the same time):')
    for label, (run_time, ticks, _, _) in (('not scraped', idle),
                                           ('scraped every second', busy)):
        print(f'  exporter, {label + ":":21} {run_time:.3f} s CPU '
              f'({run_time / seconds * 100:.2f} % of a core; utime+stime {ticks:.2f} s; '
              f'{run_time / seconds / PROCESSES * 1e6:.2f} us per process per refresh)')
    print(f'  fixed cost: the exporter on the same GPUs with no process, scraped every second: '
          f'{fixed[0] / seconds * 1e6:.1f} us a refresh; the scraped exporter above it: '
          f'{(busy[0] - fixed[0]) / seconds / PROCESSES * 1e6:.2f} us per process per refresh')
    used = busy[0]
    for name, figures in (('bench-exporter-floor', exporter_floor),
                          ('bench-monitor-floor', monitor_floor)):
        ratio = used / figures['cpu_s'] if figures['cpu_s'] > 0 else float('inf')
        print(f'  {name + ":":32} {figures["cpu_s"]:.3f} s CPU -> ratio {ratio:.2f} '
              f'(scraped; target 1.5)')
    print(f'resident memory: {busy[2]} KiB (peak {busy[3]} KiB; target 8192 KiB); '
          f'the floor: {int(exporter_floor["rss_kib"])} KiB')
    print('nvitop-exporter 1.7 (Python) not measured: its packages are not reachable here')


if __name__ == '__main__':
    main()
