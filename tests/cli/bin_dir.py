#!/usr/bin/python3
"""<build>/bin holds only the programs: no test program is run from there.

usage: bin_dir.py CTEST BUILD_DIR

Reads the registered tests (`ctest --show-only=json-v1`) and fails when one runs an executable
from <build>/bin other than an installed program (every program there is installed by
`cmake --install`, checked against the install rules' manifest of a scratch install).
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    ctest, build = sys.argv[1:]
    bin_dir = os.path.realpath(os.path.join(build, 'bin'))
    listing = subprocess.run([ctest, '--show-only=json-v1'], cwd=build, capture_output=True,
                             check=True, timeout=120).stdout
    failures = []
    programs = set()
    for test in json.loads(listing)['tests']:
        command = test.get('command') or []
        if not command:
            continue
        path = os.path.realpath(command[0])
        if os.path.dirname(path) == bin_dir:
            programs.add((test['name'], os.path.basename(path)))
    # What `cmake --install` puts in bin/ (components included): the only names allowed there.
    # Staged with DESTDIR, so that install rules with absolute paths (/etc, units) stay inside.
    with tempfile.TemporaryDirectory(prefix='nvt-bin-dir-') as stage:
        subprocess.run(['cmake', '--install', build, '--prefix', '/usr'], capture_output=True,
                       check=True, timeout=120, env=dict(os.environ, DESTDIR=stage))
        installed = set(os.listdir(os.path.join(stage, 'usr', 'bin')))
    for name, program in sorted(programs):
        if program not in installed:
            failures.append(f'test {name} runs {program} from {bin_dir}, which is not installed')
    for program in ('nvitop', 'nvisel'):
        if not os.access(os.path.join(bin_dir, program), os.X_OK):
            failures.append(f'{program} is not in {bin_dir}')
    for line in failures:
        print('bin_dir: ' + line, file=sys.stderr)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
