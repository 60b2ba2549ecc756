#!/usr/bin/python3
"""The README's recipes and claims that a newcomer tries first, checked against the build.

usage: readme_check.py SOURCE_DIR BUILD_DIR

* `man -l build/docs/nvitop.1` is in the README, and the build made that page (when scdoc is
  installed, as the README's `make build` ensures);
* NVML_SIM_TIME is said to count from the simulator's start;
* the legacy-driver recipe runs on the pre-R535 (or legacy) build of the simulator, as
  docs/scenarios.md says that scenario needs, and prints its two V100s and their process with
  nothing on stderr.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, build = sys.argv[1:]
    with open(os.path.join(source, 'README.md'), encoding='utf-8') as f:
        readme = f.read()
    flat = re.sub(r'\s+', ' ', readme)
    failures = []

    if 'man -l build/docs/nvitop.1' not in readme:
        failures.append('README does not say `man -l build/docs/nvitop.1`')
    elif shutil.which('scdoc') and not os.path.isfile(os.path.join(build, 'docs', 'nvitop.1')):
        failures.append('the build made no docs/nvitop.1 for `man -l`')

    if not re.search(r"NVML_SIM_TIME=<seconds>[^.]*from the simulator's start", flat):
        failures.append("README does not say NVML_SIM_TIME counts from the simulator's start")

    recipe = re.search(r'^(LD_LIBRARY_PATH=\S+) \\\n\s+(NVML_SIM_SCENARIO=\S*legacy-driver\.json)'
                       r' (build/bin/nvitop .*)$', readme, re.M)
    if recipe is None:
        failures.append('README has no legacy-driver recipe')
    else:
        library, scenario, command = recipe.groups()
        library_dir = library.split('=', 1)[1].replace('$PWD/build', build)
        if os.path.basename(library_dir) not in ('sim-driver-pre-r535', 'sim-driver-legacy'):
            failures.append(f'the legacy-driver recipe uses {library_dir}, not a pre-R535 build')
        env = dict(os.environ, LD_LIBRARY_PATH=library_dir, NVML_SIM_TIME='1000', COLUMNS='79',
                   NVML_SIM_SCENARIO=scenario.split('=', 1)[1].replace('$PWD', source))
        argv = shlex.split(command)
        argv[0] = os.path.join(build, 'bin', 'nvitop')
        proc = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=60, check=False)
        out = proc.stdout.decode('utf-8', 'replace')
        if proc.returncode != 0 or proc.stderr:
            failures.append(f'the legacy-driver recipe exits {proc.returncode} with stderr '
                            f'{proc.stderr!r}')
        if out.count('V100-PCIE-16GB') != 2 or '14600MiB' not in out:
            failures.append('the legacy-driver recipe does not show the two V100s and the '
                            'process:\n' + out)
    for line in failures:
        print('readme_check: ' + line, file=sys.stderr)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
