#!/usr/bin/python3
"""Run every line of a command-line table (see nvitop_flags.txt) against a program.

usage: run_table.py PROGRAM TABLE PROG_NAME

For each line: run PROGRAM with the arguments and environment, then check the exit status, the
last line of stderr and, when the line gives one after " || " (a Python string literal), stdout;
for a usage error (exit status 2 and "PROG_NAME: error: ...") also that stderr starts with
"usage: PROG_NAME" and stdout is empty (argparse's behaviour).  Prints every mismatch; exits 1 if there was any.
"""
import ast
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.environ.get('NVT_SCENARIO_DIR', os.path.join(HERE, '../../sim/scenarios'))
CLEAN = ('NO_COLOR', 'FORCE_COLOR', 'CUDA_VISIBLE_DEVICES', 'NVITOP_MONITOR_MODE',
         'NVITOP_GPU_UTILIZATION_THRESHOLDS', 'NVITOP_MEMORY_UTILIZATION_THRESHOLDS')


def parse(line):
    """(status, env, args, last stderr line, stdout or None)."""
    status, env, rest = line.split(' | ', 2)
    args, _, last = rest.partition(' |')
    last = last[1:] if last.startswith(' ') else last
    stdout = None
    if ' || ' in last:
        last, _, literal = last.partition(' || ')
        stdout = ast.literal_eval(literal)
    elif last.startswith('| '):
        last, stdout = '', ast.literal_eval(last[2:])
    return int(status), env.strip(), args.strip(), last, stdout


def run_line(program, prog_name, line):
    status, env_text, args, want_last, want_stdout = parse(line)
    env = {k: v for k, v in os.environ.items() if k not in CLEAN}
    env['NVML_SIM_SCENARIO'] = os.path.join(SCENARIOS, 'workstation-2gpu.json')
    env['NVML_SIM_TIME'] = '1000'
    env['COLUMNS'] = '80'
    if env_text != '-':
        for item in env_text.split():
            key, _, value = item.partition('=')
            if key == 'SCENARIO':
                env['NVML_SIM_SCENARIO'] = os.path.join(HERE, 'scenarios', value + '.json')
            elif key == 'SIM':
                env['NVML_SIM_SCENARIO'] = os.path.join(SCENARIOS, value + '.json')
            else:
                env[key] = value
    proc = subprocess.run([program, *shlex.split(args)], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=60, check=False)
    err = proc.stderr.decode('utf-8', 'replace').rstrip('\n')
    last = err.split('\n')[-1] if err else ''
    problems = []
    if proc.returncode != status:
        problems.append(f'exit status {proc.returncode}, expected {status}')
    if last != want_last:
        problems.append(f'last stderr line {last!r}, expected {want_last!r}')
    if want_stdout is not None and proc.stdout.decode('utf-8', 'replace') != want_stdout:
        problems.append(f'stdout {proc.stdout!r}, expected {want_stdout!r}')
    if status == 2 and want_last.startswith(f'{prog_name}: error:'):
        if not err.startswith(f'usage: {prog_name} '):
            problems.append('stderr does not start with the usage block')
        if proc.stdout:
            problems.append('stdout is not empty')
    return problems


def main():
    program, table, prog_name = sys.argv[1:4]
    failures = 0
    with open(table, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            problems = run_line(program, prog_name, line)
            if problems:
                failures += 1
                print(f'FAIL: {line}')
                for problem in problems:
                    print(f'    {problem}')
    print(f'{failures} failure(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
