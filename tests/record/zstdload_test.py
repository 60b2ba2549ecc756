"""libzstd is loaded only by recordings and replays: no program has it among its NEEDED entries,
the running monitor and `nvitop -1` never map it, nvitop-record and `--replay` do, and a missing
libzstd (NVITOP_LIBZSTD_LIBRARY) is one line, exit status 1 and no file left behind."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../support'))
from loaded_libs import loaded_libs, monitor_maps, needed  # noqa: E402

NVITOP, RECORD, EXPORTER = sys.argv[1], sys.argv[2], sys.argv[3]
SCENARIO = os.path.join(os.environ['NVT_SCENARIO_DIR'], 'h100-8gpu.json')
LOADED = 'libzstd.so'
DRAWN = b'Driver Version: 570.86.15'  # the 8-GPU scenario's driver, in the header
MISSING = '/nonexistent/libzstd.so.1'
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print('FAIL:', what, file=sys.stderr)


def run(args, **extra):
    env = dict(os.environ, NVML_SIM_SCENARIO=SCENARIO, COLUMNS='120', **extra)
    return subprocess.run(args, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60, check=False)


def main():
    for binary in (NVITOP, RECORD, EXPORTER):
        libs = needed(binary)
        check(not any(LOADED in n for n in libs), f'{binary} NEEDs libzstd: {libs}')

    code, out, opened = loaded_libs(NVITOP, ['-1'], SCENARIO)
    check(code == 0 and 'H100' in out, f'nvitop -1: exit {code}\n{out}')
    check(not any(LOADED in o for o in opened), f'nvitop -1 loaded libzstd: {opened}')
    maps = monitor_maps(NVITOP, SCENARIO, DRAWN, check)
    check(not any(LOADED in m for m in maps), f'the monitor maps libzstd: {sorted(set(maps))}')

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'zstd.nvtrec')
        # The recorder and the replay do load it (so the checks above would see it).
        code, _, opened = loaded_libs(RECORD, ['-f', path, '-n', '2', '-i', '0.25'], SCENARIO)
        check(code == 0 and os.path.exists(path), f'nvitop-record: exit {code}')
        check(any(LOADED in o for o in opened), f'nvitop-record did not load libzstd: {opened}')
        code, out, opened = loaded_libs(NVITOP, ['-1', '--replay', path], SCENARIO)
        check(code == 0 and 'H100' in out, f'nvitop -1 --replay: exit {code}\n{out}')
        check(any(LOADED in o for o in opened), f'--replay did not load libzstd: {opened}')

        # Without it: one line each, and the recorder leaves no file.
        expected = f'recordings need libzstd ({MISSING}): install the libzstd1 package\n'
        fresh = os.path.join(tmp, 'fresh.nvtrec')
        proc = run([RECORD, '-f', fresh, '-n', '2'], NVITOP_LIBZSTD_LIBRARY=MISSING)
        check(proc.returncode == 1 and proc.stderr == 'nvitop-record: ' + expected,
              f'nvitop-record without libzstd: exit {proc.returncode}: {proc.stderr!r}')
        check(not os.path.exists(fresh), 'nvitop-record without libzstd left a file')
        proc = run([NVITOP, '-1', '--replay', path], NVITOP_LIBZSTD_LIBRARY=MISSING)
        check(proc.returncode == 1 and expected in proc.stderr and proc.stdout == '',
              f'--replay without libzstd: exit {proc.returncode}: {proc.stderr!r}')
    if failures:
        sys.exit(1)
    print('zstdload: ok')


if __name__ == '__main__':
    main()
