#!/usr/bin/python3
"""nvitop-exporter's command line and start-up: --help and --version, nvitop-exporter's
validation rules with argparse's messages (status 2), and the start-up failures with their
messages (status 1): NVML missing, no device, the port taken, an address that cannot be bound.
On success the devices found are printed as nvitop-exporter prints them.

usage: cli_test.py NVITOP_EXPORTER_BINARY
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

import exporter_lib as lib

USAGE_START = 'usage: nvitop-exporter [--help] [--version] [--hostname HOSTNAME]'


def run(binary, args, scenario='h100-8gpu', env=None, timeout=30):
    environment = dict(os.environ, NVML_SIM_SCENARIO=lib.scenario_path(scenario))
    environment.update(env or {})
    proc = subprocess.run([binary, *args], env=environment, capture_output=True,
                          timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def expect(binary, args, status, stderr_part, stdout_part='', **kwargs):
    code, out, err = run(binary, args, **kwargs)
    lib.check(code == status and stderr_part in err and stdout_part in out,
              f'{args}: status {code} (expected {status})\nstdout: {out}\nstderr: {err}\n'
              f'expected in stderr: {stderr_part!r}, in stdout: {stdout_part!r}')


def main(argv):
    binary = argv[0]
    with tempfile.TemporaryDirectory(prefix='nvt-exporter-cli-') as tmp:
        cert = os.path.join(tmp, 'cert.pem')
        with open(cert, 'w', encoding='ascii') as f:
            f.write('not a certificate\n')
        err = 'nvitop-exporter: error: '
        cases = [
            (['--help'], 0, '', 'Prometheus exporter built on top of `nvitop`.'),
            (['-h'], 0, '', '--client-auth-required'),
            (['--version'], 0, '', 'nvitop-exporter '),
            (['--interval', '0.1'], 2, err + 'the interval 0.1s is too short, which may cause '
             'performance issues. Expected 1/4 or higher.', ''),
            (['--interval', '0'], 2,
             err + "argument --interval: invalid positive float value: '0'", ''),
            (['--interval', 'x'], 2,
             err + "argument --interval: invalid positive float value: 'x'", ''),
            (['--port', 'http'], 2, err + "argument --port/-p: invalid int value: 'http'", ''),
            (['--bogus'], 2, err + 'unrecognized arguments: --bogus', ''),
            (['--certfile', cert], 2,
             err + '`--certfile` and `--keyfile` must be specified together.', ''),
            (['--certfile', cert, '--keyfile', '/nonexistent.key'], 2,
             err + '`--keyfile` not found: /nonexistent.key', ''),
            (['--client-cafile', cert, '--client-auth-required'], 2,
             err + 'Mutual TLS options require `--certfile` and `--keyfile`.', ''),
            (['--certfile', cert, '--keyfile', cert, '--client-cafile', cert], 2,
             err + '`--client-cafile` / `--client-capath` and `--client-auth-required` must be '
             'specified together to enable mutual TLS.', ''),
            (['--certfile', cert, '--keyfile', cert, '--client-auth-required'], 2,
             err + '`--client-cafile` / `--client-capath` and `--client-auth-required` must be '
             'specified together to enable mutual TLS.', ''),
            (['--certfile', cert, '--keyfile', cert, '--client-capath', cert,
              '--client-auth-required'], 2,
             err + f'`--client-capath` not a directory: {cert}', ''),
        ]
        for args, status, stderr_part, stdout_part in cases:
            expect(binary, args, status, stderr_part, stdout_part)
        code, _, usage_err = run(binary, ['--bogus'])
        lib.check(usage_err.startswith(USAGE_START), f'usage line: {usage_err!r}')

    # The driver: missing library, no device.
    expect(binary, [], 1, 'FATAL ERROR: NVIDIA Management Library (NVML) not found.',
           env={'NVITOP_NVML_LIBRARY': '/nonexistent/libnvidia-ml.so.1'})
    expect(binary, [], 1, 'NVML ERROR: No NVIDIA devices found.', scenario='empty')

    # The port taken, and an address no interface has.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(('127.0.0.1', 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        expect(binary, ['--port', str(port)], 1,
               f'ERROR: Address http://127.0.0.1:{port} is already in use. Please specify a '
               'different port via `--port <PORT>`.')
    port = lib.free_port()
    expect(binary, ['--bind-address', '192.0.2.1', '--port', str(port)], 1,
           f'ERROR: Cannot assign requested address at http://192.0.2.1:{port}. Please specify '
           'a different address via `--bind-address <ADDRESS>`.')

    # Start-up lines, as nvitop-exporter prints them.
    with lib.Exporter(binary, lib.scenario_path('a100-mig')) as exporter:
        _, _, body = exporter.fetch()
    # MIG processes under their GPU too, before their MIG devices list them, as nvitop-exporter
    # 1.7 exports what NVML answers for a MIG-enabled GPU (all its instances' processes).
    series = [(re.search(r'index="([^"]*)"', line).group(1),
               re.search(r'pid="([^"]*)"', line).group(1))
              for line in body.splitlines() if line.startswith('process_gpu_memory_MiB{')]
    expected_series = [('0', '4424301'), ('0', '4424302'), ('0', '4424303'),
                       ('0:0', '4424301'), ('0:1', '4424302'), ('0:1', '4424303'),
                       ('1', '4424304'), ('1', '4424305')]
    lib.check(series == expected_series, f'MIG process series: {series}')
    lines = exporter.stderr().splitlines()
    expected = [
        'INFO: Found 2 physical device(s) and 3 MIG device(s).',
        'INFO: GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-4e1f7c2a-93b5-4d08-a6e2-1c8f5b3d7a90)',
        'INFO:   MIG 3g.20gb     Device  0: (UUID: MIG-7c2e9f41-0b6a-5d3c-8e17-4a9f2c6b1d58)',
        'INFO:   MIG 2g.10gb     Device  1: (UUID: MIG-1a8d3b6e-5f27-5c94-b0e3-7d2c9a4f6e15)',
        'INFO:   MIG 1g.5gb      Device  2: (UUID: MIG-e5b9c0d2-3a41-5f86-9c7b-2d8e1f4a6c37)',
        'INFO: GPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-b2d95e30-6c14-4f7a-8d29-5e0a3c7f1b64)',
        f'INFO: Start the exporter on testhost at http://127.0.0.1:{exporter.port}/metrics.',
        '',
        'INFO: Interrupted by user.',
    ]
    lib.check(lines == expected, 'start-up lines:\n' + '\n'.join(lines))
    lib.check(exporter.proc.returncode == 0, f'SIGTERM: status {exporter.proc.returncode}')

    # A lost GPU as nvitop-exporter 1.7 names it: in the start-up line and its labels.
    with lib.Exporter(binary, lib.scenario_path('faulty')) as exporter:
        _, _, body = exporter.fetch()
    lines = exporter.stderr().splitlines()
    lib.check('INFO: GPU 0: ERROR: GPU is Lost (UUID: N/A)' in lines,
              'lost GPU start-up line:\n' + '\n'.join(lines))
    lib.check('gpu_memory_total_MiB{hostname="testhost",index="0",devicename="ERROR: GPU is Lost",'
              'uuid="N/A"} NaN' in body.splitlines(), 'lost GPU labels')
    # Its processes do not exist here: the driver still lists them, psutil cannot read them, and
    # 1.7's failsafe status for that is "terminated".
    infos = [line for line in body.splitlines() if line.startswith('process_info_info{')]
    lib.check(infos and all('status="terminated",command="No Such Process"' in line
                            for line in infos), 'status of a process that is gone:\n' +
              '\n'.join(infos))

    # SIGTERM while passes overrun the interval: the 8-GPU scenario's PCIe counters take 20 ms
    # per call, some 0.3 s a pass, longer than --interval 0.25.
    with lib.Exporter(binary, lib.scenario_path('h100-8gpu'), ['--interval', '0.25']) as exporter:
        exporter.fetch()
        time.sleep(1.5)  # past the first wait: every later pass starts late
        code = exporter.stop()
    lib.check(code == 0 and exporter.stderr().endswith('INFO: Interrupted by user.\n'),
              f'SIGTERM with overrunning passes: status {code}')


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    lib.main_wrapper(main)
