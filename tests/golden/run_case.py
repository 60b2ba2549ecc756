#!/usr/bin/python3
"""Run one golden case of cases.txt and compare it with the expected files.

usage: run_case.py NVITOP_BINARY CASE_NAME

The simulated driver must be on LD_LIBRARY_PATH and NVT_SCENARIO_DIR must name the scenarios
(CTest sets both).  STANDINS=<n> in a case's environment starts n stand-in jobs
(scripts/standins.sh) whose PIDs the scenario names, so that host data and commands are real.  The simulator's clock is frozen (NVML_SIM_TIME) so that time-dependent
scenario values are stable; host-dependent figures are masked by normalize.py.  Exits 0 when
stdout, stderr and the exit status all match, 1 otherwise (with a diff), 77 for an unknown case.
"""
import difflib
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import normalize  # noqa: E402

FROZEN_TIME = '1000'


def load_cases(path=os.path.join(HERE, 'cases.txt')):
    cases = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            fields = [field.strip() for field in line.split(' | ')]
            name, scenario, columns, env, args = fields[:5]
            masks = shlex.split(fields[5]) if len(fields) > 5 else []
            cases[name] = {
                'scenario': scenario,
                'columns': columns,
                'env': [] if env == '-' else env.split(),
                'args': shlex.split(args),
                'masks': masks,
            }
    return cases


def start_standins(count, state):
    """Start stand-in jobs (scripts/standins.sh); returns their NVT_STANDIN_<i> variables."""
    script = os.path.join(HERE, '../../scripts/standins.sh')
    env = dict(os.environ, NVT_STANDIN_STATE=state)
    out = subprocess.run(['sh', script, 'start', str(count)], env=env, capture_output=True,
                         check=True, timeout=60).stdout.decode()
    variables = {}
    for line in out.splitlines():
        if line.startswith('export '):
            key, _, value = line[len('export '):].partition('=')
            variables[key] = value.strip("'\"")
    return variables


def stop_standins(state):
    script = os.path.join(HERE, '../../scripts/standins.sh')
    subprocess.run(['sh', script, 'stop'], env=dict(os.environ, NVT_STANDIN_STATE=state),
                   capture_output=True, check=False, timeout=60)


def run(binary, case):
    env = {k: v for k, v in os.environ.items()
           if k not in ('NO_COLOR', 'FORCE_COLOR', 'ANSI_COLORS_DISABLED', 'CUDA_VISIBLE_DEVICES',
                        'NVITOP_MONITOR_MODE', 'NVITOP_GPU_UTILIZATION_THRESHOLDS',
                        'NVITOP_MEMORY_UTILIZATION_THRESHOLDS')}
    scenario_dir = os.environ.get('NVT_SCENARIO_DIR', os.path.join(HERE, '../../sim/scenarios'))
    env['NVML_SIM_SCENARIO'] = os.path.join(scenario_dir, case['scenario'] + '.json')
    env['NVML_SIM_TIME'] = FROZEN_TIME
    env['COLUMNS'] = case['columns']
    standins = 0
    for item in case['env']:
        key, _, value = item.partition('=')
        if key == 'STANDINS':
            standins = int(value)
        else:
            env[key] = value
    with tempfile.TemporaryDirectory(prefix='nvt-golden-') as state:
        if standins:
            env.update(start_standins(standins, state))
        try:
            proc = subprocess.run([binary, *case['args']], env=env, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=60, check=False)
        finally:
            if standins:
                stop_standins(state)
    out = normalize.normalize(proc.stdout.decode('utf-8', 'replace'), case['masks'])
    return out, proc.stderr.decode('utf-8', 'replace'), proc.returncode


def expected(name):
    base = os.path.join(HERE, 'expected', name)
    with open(base + '.out', encoding='utf-8') as f:
        out = f.read()
    with open(base + '.err', encoding='utf-8') as f:
        err = f.read()
    with open(base + '.rc', encoding='utf-8') as f:
        rc = int(f.read().strip())
    return out, err, rc


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, name = sys.argv[1:]
    cases = load_cases()
    if name not in cases:
        print(f'unknown case {name!r}', file=sys.stderr)
        return 77
    got = run(binary, cases[name])
    want = expected(name)
    ok = True
    for label, g, w in (('stdout', got[0], want[0]), ('stderr', got[1], want[1])):
        if g != w:
            ok = False
            sys.stdout.writelines(difflib.unified_diff(
                w.splitlines(True), g.splitlines(True), f'expected {label}', f'actual {label}'))
    if got[2] != want[2]:
        ok = False
        print(f'exit status: expected {want[2]}, got {got[2]}')
    print(f'{name}: {"ok" if ok else "FAILED"}')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
