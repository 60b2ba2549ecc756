"""Our programs under a GPU lost in the middle of a snapshot (sim/scenarios/fault-realism.json:
GPU 3 answers GPU_IS_LOST from its 9th query on): every program shows it as a lost GPU, with no
value read before the loss beside N/A ones, and nvisel never chooses it.  The once report and the
monitor (tests/tui/faults.sh) show the row of a GPU lost at start; the exporter labels it as
nvitop-exporter 1.7 does with every value NaN; the collector records no value for it; a recording
replays the same row.

usage: faults_programs.py BINARY_DIR"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'exporter'))
import exporter_lib as lib  # noqa: E402  (after the path is set)

LOST_ROWS = [
    '│   3  ERROR: GPU is Lost   N/A │ N/A              N/A │                  N/A │ '
    'MEM: ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░ N/A │',
    '│ N/A   N/A  N/A      N/A / N/A │            N/A / N/A │     N/A          N/A │ '
    'UTL: ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░ N/A │',
]


def run(argv, env, timeout=60):
    return subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=timeout, check=False)


def check_rows(text, what):
    lines = text.splitlines()
    for row in LOST_ROWS:
        lib.check(row in lines, f'{what}: no lost-GPU row {row!r} in\n{text}')
    # The three other GPUs keep their values.
    lib.check('│ N/A   60C  N/A    300W / 400W │  39.06GiB / 80.00GiB │     90%' in text,
              f'{what}: GPU 0 changed:\n{text}')


def main(args):
    binary_dir = args[0]
    bin_dir = os.path.join(binary_dir, 'bin')
    env = dict(os.environ, COLUMNS='120', LANG='C.UTF-8', LC_ALL='C.UTF-8',
               NVML_SIM_SCENARIO=lib.scenario_path('fault-realism'),
               LD_LIBRARY_PATH=os.path.join(binary_dir, 'sim-driver'))
    env.pop('CUDA_VISIBLE_DEVICES', None)

    once = run([os.path.join(bin_dir, 'nvitop'), '-1'], env)
    check_rows(once.stdout.decode(), 'nvitop -1')
    print('once: ok')

    # nvisel: the lost GPU is never chosen; asking for all four is a short list (exit 4).
    chosen = run([os.path.join(bin_dir, 'nvisel'), '-O', 'index'], env)
    lib.check(chosen.returncode == 0 and chosen.stdout.decode().strip() == '1,2,0',
              f'nvisel chose {chosen.stdout!r} (exit {chosen.returncode}): {chosen.stderr!r}')
    short = run([os.path.join(bin_dir, 'nvisel'), '-n', '4', '-O', 'index'], env)
    lib.check(short.returncode == 4 and short.stdout.decode().strip() == '1,2,0' and
              'Not enough devices found' in short.stderr.decode(),
              f'nvisel -n 4: {short.stdout!r} exit {short.returncode} {short.stderr!r}')
    print('nvisel: ok')

    # The collector: GPU 3's keys are there with no value; the other GPUs have numbers.
    collect = run([os.path.join(bin_dir, 'nvitop-collect'), '-f', 'jsonl', '-i', '0.25', '-e',
                   '60', '--', 'true'], env)
    lib.check(collect.returncode == 0, f'nvitop-collect: {collect.stderr!r}')
    rows = [json.loads(line) for line in collect.stdout.decode().splitlines()]
    lib.check(len(rows) >= 1, 'nvitop-collect wrote no row')
    for row in rows:
        lost = {k: v for k, v in row.items() if '/gpu:3/' in k}
        lib.check(lost and all(v is None for v in lost.values()),
                  f'collector values of the lost GPU: {lost}')
        used = row.get('metrics-daemon/gpu:0/memory_used (MiB)/last')
        lib.check(isinstance(used, (int, float)) and used >= 40000,
                  f'collector GPU 0 memory used: {used}')
    print('collector: ok')

    # A recording replays the same rows.
    with tempfile.TemporaryDirectory(prefix='nvt-faults-') as work:
        recording = os.path.join(work, 'f.nvtrec')
        record = run([os.path.join(bin_dir, 'nvitop-record'), '-f', recording, '-n', '1'], env)
        lib.check(record.returncode == 0, f'nvitop-record: {record.stderr!r}')
        replay = run([os.path.join(bin_dir, 'nvitop'), '--replay', recording, '-1'], env)
        check_rows(replay.stdout.decode(), 'nvitop --replay -1')
    print('recorder: ok')

    # The exporter: the labels of a lost GPU, every value NaN; GPU 0 untouched.
    with lib.Exporter(os.path.join(bin_dir, 'nvitop-exporter'),
                      lib.scenario_path('fault-realism'),
                      args=('--bind-address', '127.0.0.1'),
                      extra_env={'LD_LIBRARY_PATH': env['LD_LIBRARY_PATH']}) as exporter:
        lib.check('INFO: GPU 3: ERROR: GPU is Lost (UUID: N/A)' in exporter.stderr(),
                  f'exporter start-up: {exporter.stderr()}')
        _, _, body = exporter.fetch()
        lost = [line for line in body.splitlines() if 'index="3"' in line]
        lib.check(len(lost) > 10, f'exporter: no series of GPU 3:\n{body}')
        for line in lost:
            lib.check('devicename="ERROR: GPU is Lost",uuid="N/A"}' in line and
                      line.endswith(' NaN'), f'exporter: {line}')
        lib.check('gpu_memory_used_MiB{hostname="testhost",index="0",devicename="NVIDIA '
                  'A100-SXM4-80GB",uuid="GPU-7c1d0b7e-52a4-4a43-9b1e-6e2f1c0a5d01"} 40000' in body,
                  'exporter: GPU 0 memory used')
    print('exporter: ok')


if __name__ == '__main__':
    lib.main_wrapper(main)
