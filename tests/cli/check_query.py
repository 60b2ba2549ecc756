#!/usr/bin/python3
"""Check `nvitop --query` (the igpu-style detailed report, docs/nvitop-behaviour.md §8.3) on the
bundled scenarios.

usage: check_query.py NVITOP_BINARY

The expected lines are written by hand from the scenario files and igpu's formats (label
widths 13/6/12/14/9/11, two decimals, "(Max: …)"), not taken from our output.  Every scenario
must also produce one block per physical GPU and exit 0.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.environ.get('NVT_SCENARIO_DIR', os.path.join(HERE, '../../sim/scenarios'))

WORKSTATION_GPU0 = [
    'INDEX        : 0',
    'BOARD NAME   : NVIDIA GeForce RTX 3090',
    'UUID         : GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40',
    'GPU MEMORY:',
    '    Total :   24576.00 MiB (100.00%)',
    '    Used  :   20110.00 MiB ( 81.83%)',
    '    Free  :    4466.00 MiB ( 18.17%)',
    'GPU UTILIZATION:',
    '    Performance : P2',
    '    Temperature : 71.00C',
    '    Graphics    : [|||||||||||||||||||||    ] 87.00%',
    '    Fan         : [||||||||||||||||||       ] 72.00%',
    'PCI INFO:',
    '    Bus           : 1A',
    '    Bus ID        : 00000000:1A:00.0',
    '    Link Width    : 16x (Max: 16x)',
    'POWER INFO:',
    '    Draw       : 312.00 W',
    '    Limit      : 350.00 W',
    'PROCESSES',
    '    PID    | NAME                 | USER                 | PARENT   | CREATION TIME        | GPU MEM',
    '    4215418 | N/A                  | N/A                  | N/A      | N/A                  | 19800 ',
]


# igpu reads nvmlDeviceGetMemoryInfo (v1), whose "used" counts the driver's reservation: GPU 0
# of fault-realism.json has 40000 MiB used and 600 reserved of 81920 (a real H100 on driver 580
# reserves 480 MiB, docs/hardware.md).
RESERVED_GPU0 = [
    '    Total :   81920.00 MiB (100.00%)',
    '    Used  :   40600.00 MiB ( 49.56%)',
    '    Free  :   41320.00 MiB ( 50.44%)',
]


def run(binary, scenario, *args):
    env = dict(os.environ, NVML_SIM_SCENARIO=os.path.join(SCENARIOS, scenario), NVML_SIM_TIME='1000')
    proc = subprocess.run([binary, '--query', *args], env=env, capture_output=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    return proc.returncode, proc.stdout.decode('utf-8')


def main():
    binary = sys.argv[1]
    problems = []
    rc, text = run(binary, 'workstation-2gpu.json')
    lines = text.split('\n')
    for line in WORKSTATION_GPU0:
        if line not in lines:
            problems.append(f'workstation-2gpu: missing line {line!r}')
    for name in sorted(os.listdir(SCENARIOS)):
        if not name.endswith('.json'):
            continue
        rc, text = run(binary, name)
        if rc != 0:
            problems.append(f'{name}: exit status {rc}')
        blocks = text.count('\nGPU MEMORY:\n')
        if blocks == 0 and 'No visible devices found' not in text:
            problems.append(f'{name}: no device block')
    rc, text = run(binary, 'fault-realism.json', '-o', '0')
    lines = text.split('\n')
    for line in RESERVED_GPU0:
        if line not in lines:
            problems.append(f'fault-realism: missing line {line!r}')
    rc, text = run(binary, 'workstation-2gpu.json', '-o', '1')
    if text.count('INDEX        : ') != 1 or 'INDEX        : 1' not in text:
        problems.append('-o 1 did not restrict the report to GPU 1')
    for problem in problems:
        print(problem)
    print(f'{len(problems)} problem(s)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
