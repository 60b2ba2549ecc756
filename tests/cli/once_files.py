#!/usr/bin/python3
"""The /proc files `nvitop -1` opens per GPU process (docs/performance.md, "A thousand GPU
processes"): stat, status and cmdline, each once, and nothing else: not the process's directory
(stat, opened first and read last, shows that the pid named the same process throughout) and not
statm (status's VmRSS is the resident set psutil reports).  The stand-ins' reported resident set
is checked against statm's at the same time.

usage: once_files.py NVITOP

200 stand-ins (scripts/standins.sh) back the first 200 processes of h100-8gpu-1000.json; the
others name pids no Linux process can hold, whose stat is looked up and missing.  Needs strace
(exits 77 without it, or where ptrace is not permitted).  Exits 0 on success, 1 with a message.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

NVITOP = sys.argv[1]
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
SCENARIO = os.path.join(os.environ.get('NVT_SCENARIO_DIR', os.path.join(SOURCE, 'sim/scenarios')),
                        'h100-8gpu-1000.json')
COUNT = 200
# A successful open of a process's directory or of one of its files, absolute or under /proc's
# descriptor: `1234 openat(3, "5678/stat", O_RDONLY|O_CLOEXEC) = 7`.
OPEN = re.compile(r'open(?:at)?\((?:[^,]+, )?"(?:/proc/)?(\d+)(?:/([a-z_]+))?", [^)]*\) = \d+$')
# An open of a process file by its bare name, under a directory descriptor.
BARE = re.compile(r'open(?:at)?\(\d+, "(statm|status|cmdline|environ)", [^)]*\) = \d+$')
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print('FAIL:', what, file=sys.stderr)


def standins(env, action, *extra):
    return subprocess.run(['sh', os.path.join(SOURCE, 'scripts/standins.sh'), action, *extra],
                          env=env, capture_output=True, text=True, timeout=600, check=False)


def statm_rss_kib(pid):
    """statm's resident set of pid in KiB, or None when it has gone."""
    try:
        with open(f'/proc/{pid}/statm', encoding='ascii') as f:
            return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE') // 1024
    except (OSError, IndexError, ValueError):
        return None


def check_opens(trace, pids):
    files = {pid: [] for pid in pids}
    bare = []
    with open(trace, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            found = OPEN.search(line)
            if found and int(found.group(1)) in files:
                files[int(found.group(1))].append(found.group(2) or '(directory)')
            elif BARE.search(line):
                bare.append(line)
    wrong = {pid: sorted(opened) for pid, opened in files.items()
             if sorted(opened) != ['cmdline', 'stat', 'status']}
    for pid, opened in list(wrong.items())[:5]:
        print(f'process {pid} opened {opened}', file=sys.stderr)
    check(not wrong, f'{len(wrong)} of {len(pids)} processes did not open exactly their stat, '
          'status and cmdline, once each')
    check(not bare, f'{len(bare)} process files opened under a directory descriptor: {bare[:3]}')


def check_rss(nvitop_env, pids):
    """Each stand-in's host memory in --json against statm's, read just before and after."""
    before = {pid: statm_rss_kib(pid) for pid in pids}
    out = subprocess.run([NVITOP, '--json'], env=nvitop_env, capture_output=True, text=True,
                         timeout=300)
    after = {pid: statm_rss_kib(pid) for pid in pids}
    check(out.returncode == 0, 'nvitop --json failed: ' + out.stderr)
    if out.returncode != 0:
        return
    seen = {}
    for process in json.loads(out.stdout)['processes']:
        if process['pid'] in before and process.get('rss_bytes') is not None:
            seen[process['pid']] = process['rss_bytes'] // 1024
    check(len(seen) == len(pids), f'{len(seen)} of {len(pids)} stand-ins with a resident set')
    wrong = [(pid, kib, before[pid], after[pid]) for pid, kib in seen.items()
             if kib not in (before[pid], after[pid])]
    check(not wrong, f'resident sets (KiB: ours, statm before, after) unlike statm: {wrong[:5]}')


def main():
    if shutil.which('strace') is None:
        print('SKIP: strace is not installed')
        return 77
    with tempfile.TemporaryDirectory(prefix='nvt-once-files-') as tmp:
        env = dict(os.environ, NVT_STANDIN_STATE=os.path.join(tmp, 'standins'),
                   NVML_SIM_SCENARIO=SCENARIO, COLUMNS='120', TZ='UTC')
        started = standins(env, 'start', str(COUNT))
        try:
            if started.returncode != 0:
                print('SKIP: the stand-ins did not start:', started.stderr.strip())
                return 77
            pids = []
            for line in started.stdout.splitlines():
                key, _, value = line[len('export '):].partition('=')
                env[key] = value.strip('\'"')
                pids.append(int(env[key]))
            trace = os.path.join(tmp, 'trace.txt')
            # LeakSanitizer cannot run under ptrace: a sanitized build checks leaks elsewhere.
            traced_env = dict(env, ASAN_OPTIONS=(env.get('ASAN_OPTIONS', '') +
                                                 ':detect_leaks=0').lstrip(':'))
            run = subprocess.run(['strace', '-f', '-qq', '-e', 'trace=open,openat', '-o', trace,
                                  NVITOP, '-1'], env=traced_env, capture_output=True, text=True,
                                 timeout=300)
            if run.returncode != 0 and not os.path.exists(trace):
                print('SKIP: strace could not run nvitop (ptrace not permitted?):',
                      run.stderr.strip()[:200])
                return 77
            check(run.returncode == 0, 'nvitop -1 under strace failed: ' + run.stderr[-500:])
            shown = sum(1 for pid in pids if re.search(rf' {pid} C ', run.stdout))
            check(shown == COUNT, f'{shown} of {COUNT} stand-ins shown by nvitop -1')
            check_opens(trace, pids)
            check_rss(env, pids)
        finally:
            standins(env, 'stop')
    if failures:
        return 1
    print(f'ok: {COUNT} processes, each its stat, status and cmdline opened once; resident sets '
          'as statm')
    return 0


if __name__ == '__main__':
    sys.exit(main())
