#!/usr/bin/python3
"""The exporter's systemd unit (dist/systemd/nvitop-exporter.service.in): it reaches the GPUs on
every systemd (ProtectClock= without DeviceAllow= made older releases block /dev/nvidia*), it
passes `systemd-analyze verify`, and `systemd-analyze security --offline` rates it OK or better.
Skipped, with a message, where systemd-analyze is missing or too old for --offline.

usage: systemd_test.py NVITOP_EXPORTER_BINARY
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import exporter_lib as lib

UNIT = os.path.join(lib.SOURCE, 'dist/systemd/nvitop-exporter.service.in')
NVIDIA_DEVICES = ('/dev/nvidiactl', '/dev/nvidia-uvm', 'char-nvidia-frontend')


def settings(text):
    """{key: [values]} of the unit's settings."""
    found = {}
    for line in text.splitlines():
        match = re.match(r'^([A-Za-z]+)=(.*)$', line)
        if match:
            found.setdefault(match.group(1), []).append(match.group(2))
    return found


def main(argv):
    binary = os.path.abspath(argv[0])
    with open(UNIT, encoding='utf-8') as f:
        text = f.read()
    unit = settings(text)
    if unit.get('ProtectClock', ['no'])[-1] == 'yes' or unit.get('DeviceAllow'):
        allowed = ' '.join(unit.get('DeviceAllow', []))
        for device in NVIDIA_DEVICES:
            lib.check(f'{device} rw' in allowed, f'the unit\'s device allow-list (ProtectClock= '
                      f'makes one) lacks {device}: {allowed!r}')
    analyze = shutil.which('systemd-analyze')
    if analyze is None:
        print('SKIP: systemd-analyze is not installed')
        return
    with tempfile.TemporaryDirectory(prefix='nvt-systemd-') as tmp:
        path = os.path.join(tmp, 'nvitop-exporter.service')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text.replace('@CMAKE_INSTALL_FULL_BINDIR@/nvitop-exporter', binary))
        proc = subprocess.run([analyze, 'verify', '--man=no', path], capture_output=True,
                              timeout=60, check=False)
        out = (proc.stdout + proc.stderr).decode(errors='replace')
        lib.check(proc.returncode == 0 and 'nvitop-exporter.service' not in out,
                  f'systemd-analyze verify: status {proc.returncode}\n{out}')
        proc = subprocess.run([analyze, 'security', '--offline=true', path], capture_output=True,
                              timeout=60, check=False)
        out = (proc.stdout + proc.stderr).decode(errors='replace')
        if proc.returncode != 0 and 'offline' in out:
            print(f'SKIP: systemd-analyze security --offline is not supported here: {out[:200]}')
            return
        match = re.search(r'Overall exposure level for \S+: ([0-9.]+) (\S+)', out)
        lib.check(proc.returncode == 0 and match is not None,
                  f'systemd-analyze security: status {proc.returncode}\n{out[-2000:]}')
        lib.check(float(match.group(1)) <= 3.0,
                  f'exposure level {match.group(1)} {match.group(2)}, expected 3.0 or less')
        print(f'systemd-analyze security: {match.group(1)} {match.group(2)}')


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    lib.main_wrapper(main)
