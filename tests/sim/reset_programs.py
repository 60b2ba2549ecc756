"""Our programs through a GPU reset (sim/scenarios/gpu-reset.json, rewritten while they run): GPU 1
is busy, then falls off the bus, then comes back after a reset ("resets" raised) under a new
handle, idle.  Each program shows the truth in each phase: the busy GPU with its process, a lost
GPU with no value, then the reset GPU's new figures and no process, never a value read through
the old handle beside the new ones.  The long-running programs (exporter, collector, recorder)
live through the three phases; the once report and nvisel run once per phase.  The monitor's
test is tests/tui/reset.sh.

usage: reset_programs.py BINARY_DIR"""
import copy
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'exporter'))
import exporter_lib as lib  # noqa: E402  (after the path is set)

UUID_1 = 'GPU-5e7a1c2d-0b3f-4d6e-8a9b-1c2d3e4f5a02'
BUSY_PID = 4217002
DEADLINE_S = 20

# GPU 1's two rows in the once report, per phase.
ROWS = {
    'busy': ['│   1  A100-SXM4-80GB       N/A │ 00000000:0F:00.0 N/A │',
             '│ N/A   55C  N/A    250W / 400W │  20000MiB / 80.00GiB │     70%'],
    'lost': ['│   1  ERROR: GPU is Lost   N/A │ N/A              N/A │                  N/A │',
             '│ N/A   N/A  N/A      N/A / N/A │            N/A / N/A │     N/A          N/A │'],
    'reset': ['│   1  A100-SXM4-80GB       N/A │ 00000000:0F:00.0 N/A │',
              '│ N/A   31C  N/A     55W / 400W │  600.0MiB / 80.00GiB │      0%'],
}
GPU_0_ROW = '│ N/A   60C  N/A    300W / 400W │  39.06GiB / 80.00GiB │     90%'


def phases():
    """The scenario of each phase: the bundled file is the reset one."""
    reset = lib.load_scenario('gpu-reset', {})
    busy = copy.deepcopy(reset)
    gpu = busy['devices'][1]
    gpu['resets'] = 0
    gpu['memory']['used_mib'] = 20000
    gpu['utilization'] = {'gpu': 70, 'memory': 30}
    gpu['temperature'] = 55
    gpu['power']['usage_w'] = 250
    gpu['processes'] = [{'pid': BUSY_PID, 'type': 'compute', 'used_mib': 19400}]
    lost = copy.deepcopy(busy)
    lost['devices'][1]['lost'] = True
    return {'busy': busy, 'lost': lost, 'reset': reset}


def run(argv, env, timeout=60):
    return subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=timeout, check=False)


def once_phase(text):
    """Which phase a once report shows for GPU 1 (None: something else, e.g. a mix)."""
    lines = text.splitlines()
    found = [name for name, rows in ROWS.items()
             if all(any(line.startswith(row) for line in lines) for row in rows)]
    if len(found) != 1 or not any(line.startswith(GPU_0_ROW) for line in lines):
        return None
    busy_process = any(f' {BUSY_PID} ' in line for line in lines)
    if busy_process != (found[0] == 'busy'):
        return None
    return found[0]


def check_once(bin_dir, env, path, scenarios):
    for name, scenario in scenarios.items():
        lib.write_scenario(path, scenario)
        out = run([os.path.join(bin_dir, 'nvitop'), '-1'], env).stdout.decode()
        lib.check(once_phase(out) == name, f'nvitop -1, {name}:\n{out}')
        data = json.loads(run([os.path.join(bin_dir, 'nvitop'), '--json'], env).stdout)
        text = json.dumps(data['devices'][1])
        if name == 'lost':
            lib.check(UUID_1 not in text and '20000' not in text, f'--json, lost: {text}')
        else:
            lib.check(UUID_1 in text, f'--json, {name}: {text}')
    print('once: ok')


def check_nvisel(bin_dir, env, path, scenarios):
    # Both GPUs have room for 10 GiB free; the busiest is chosen last, the lost one never.
    want = {'busy': '1,0', 'lost': '0', 'reset': '1,0'}
    for name, scenario in scenarios.items():
        lib.write_scenario(path, scenario)
        chosen = run([os.path.join(bin_dir, 'nvisel'), '-O', 'index', '--min-free-memory',
                      '10GiB'], env)
        lib.check(chosen.returncode == 0 and chosen.stdout.decode().strip() == want[name],
                  f'nvisel, {name}: {chosen.stdout!r} (exit {chosen.returncode}) '
                  f'{chosen.stderr!r}')
    print('nvisel: ok')


def wait_for(predicate, what):
    lib.wait_until(predicate, DEADLINE_S, what, step=0.1)


def metric(body, name, index):
    """The value of a GPU metric for this index, with the labels it has, or None."""
    for line in body.splitlines():
        if line.startswith(name + '{') and f'index="{index}"' in line:
            labels, value = line.rsplit(' ', 1)
            return labels, value
    return None


def check_exporter(bin_dir, env, path, scenarios):
    lib.write_scenario(path, scenarios['busy'])
    with lib.Exporter(os.path.join(bin_dir, 'nvitop-exporter'), path,
                      args=('--bind-address', '127.0.0.1'),
                      extra_env={'LD_LIBRARY_PATH': env['LD_LIBRARY_PATH']}) as exporter:
        state = {}

        def scrape_shows(value):
            _, _, body = exporter.fetch()
            state['body'] = body
            found = metric(body, 'gpu_memory_used_MiB', 1)
            return found is not None and found[1] == value

        wait_for(lambda: scrape_shows('20000.0'), 'the exporter to show GPU 1 busy')
        lib.check(f'pid="{BUSY_PID}"' in state['body'], 'exporter, busy: no process series')
        lib.write_scenario(path, scenarios['lost'])
        wait_for(lambda: scrape_shows('NaN'), 'the exporter to show GPU 1 lost')
        for line in state['body'].splitlines():
            if 'index="1"' in line and not line.startswith('#'):
                lib.check(line.endswith(' NaN') and f'pid="{BUSY_PID}"' not in line,
                          f'exporter, lost: {line}')
        lib.write_scenario(path, scenarios['reset'])
        wait_for(lambda: scrape_shows('600.0'), 'the exporter to show GPU 1 after the reset')
        body = state['body']
        labels = f'index="1",devicename="NVIDIA A100-SXM4-80GB",uuid="{UUID_1}"'
        for name, value in (('gpu_memory_used_MiB', '600.0'), ('gpu_utilization_Percentage', '0.0'),
                            ('gpu_temperature_C', '31.0')):
            found = metric(body, name, 1)
            lib.check(found is not None and labels in found[0] and found[1] == value,
                      f'exporter, reset: {name} {found}')
        lib.check(f'pid="{BUSY_PID}"' not in body, 'exporter, reset: the old process is listed')
        lib.check(metric(body, 'gpu_memory_used_MiB', 0)[1] == '40000.0', 'exporter: GPU 0 changed')
    print('exporter: ok')


def collector_phase(row):
    """The phase of a collector row's last values for GPU 1 (None for a mix)."""
    used = row.get('metrics-daemon/gpu:1/memory_used (MiB)/last', 'missing')
    temp = row.get('metrics-daemon/gpu:1/temperature (C)/last', 'missing')
    return {(20000, 55): 'busy', (None, None): 'lost', (600, 31): 'reset'}.get((used, temp))


def check_collector(bin_dir, env, path, scenarios, work):
    lib.write_scenario(path, scenarios['busy'])
    out = os.path.join(work, 'collect.jsonl')
    stop = os.path.join(work, 'stop')
    job = f'while [ ! -e {stop} ]; do sleep 0.05; done'
    proc = subprocess.Popen([os.path.join(bin_dir, 'nvitop-collect'), '-f', 'jsonl', '-o', out,
                             '-i', '0.25', '-e', '0.5', '--', 'sh', '-c', job],
                            env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def rows():
        if not os.path.exists(out):
            return []
        with open(out, encoding='utf-8') as f:
            return [json.loads(line) for line in f if line.endswith('\n')]

    try:
        for name in ('busy', 'lost', 'reset'):
            lib.write_scenario(path, scenarios[name])
            wait_for(lambda name=name: any(collector_phase(r) == name for r in rows()),
                     f'a collector row with GPU 1 {name}')
    finally:
        with open(stop, 'w', encoding='utf-8'):
            pass
        _, err = proc.communicate(timeout=30)
    lib.check(proc.returncode == 0, f'nvitop-collect: {err!r}')
    seen = [collector_phase(r) for r in rows()]
    order = ['busy', 'lost', 'reset']
    lib.check(None not in seen and seen == sorted(seen, key=order.index),
              f'collector phases out of order or mixed: {seen}')
    lib.check(seen[-1] == 'reset', f'collector: last row {seen[-1]}')
    print('collector: ok')


def check_recorder(bin_dir, env, path, scenarios, work):
    lib.write_scenario(path, scenarios['busy'])
    recording = os.path.join(work, 'r.nvtrec')
    proc = subprocess.Popen([os.path.join(bin_dir, 'nvitop-record'), '-f', recording, '-i',
                             '0.25'], env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def replay():
        if not os.path.exists(recording):
            return None
        return once_phase(run([os.path.join(bin_dir, 'nvitop'), '--replay', recording, '-1'],
                              env).stdout.decode())

    try:
        for name in ('busy', 'lost', 'reset'):
            lib.write_scenario(path, scenarios[name])
            wait_for(lambda name=name: replay() == name,
                     f'the recording to replay GPU 1 {name}')
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    lib.check(proc.returncode == 0, f'nvitop-record: {err!r}')
    lib.check(replay() == 'reset', 'the finished recording does not end with the reset GPU')
    print('recorder: ok')


def main(args):
    binary_dir = args[0]
    bin_dir = os.path.join(binary_dir, 'bin')
    with tempfile.TemporaryDirectory(prefix='nvt-reset-') as work:
        path = os.path.join(work, 'scenario.json')
        env = dict(os.environ, COLUMNS='120', LANG='C.UTF-8', LC_ALL='C.UTF-8',
                   NVML_SIM_SCENARIO=path, NVML_SIM_TIME='0',
                   LD_LIBRARY_PATH=os.path.join(binary_dir, 'sim-driver'))
        env.pop('CUDA_VISIBLE_DEVICES', None)
        scenarios = phases()
        check_once(bin_dir, env, path, scenarios)
        check_nvisel(bin_dir, env, path, scenarios)
        check_exporter(bin_dir, env, path, scenarios)
        check_collector(bin_dir, env, path, scenarios, work)
        check_recorder(bin_dir, env, path, scenarios, work)


if __name__ == '__main__':
    lib.main_wrapper(main)
