#!/usr/bin/python3
"""A thousand GPU processes through the JSON document and a recording, and in the tree view.

usage: scale_test.py NVITOP

With 1,000 stand-ins (scripts/standins.sh) behind h100-8gpu-1000.json:
  * `nvitop --json --record F` lists all 1,000 processes, each with its host details (the
    stand-in's command line, its user), none missing;
  * `nvitop --json --replay F` gives the same document again, every process included;
  * `nvitop -1 --replay F --at @T` and the live `nvitop -1` show 1,000 process rows.
The simulator's clock is frozen (NVML_SIM_TIME).  Exits 0 on success, 1 with a message.
"""
import json
import os
import subprocess
import sys
import tempfile

NVITOP = sys.argv[1]
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
SCENARIO = os.path.join(os.environ.get('NVT_SCENARIO_DIR', os.path.join(SOURCE, 'sim/scenarios')),
                        'h100-8gpu-1000.json')
COUNT = 1000
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print('FAIL:', what, file=sys.stderr)


def run(args, env):
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)


def standins(env, action, *extra):
    return subprocess.run(['sh', os.path.join(SOURCE, 'scripts/standins.sh'), action, *extra],
                          env=env, capture_output=True, text=True, timeout=600, check=False)


def main():
    with tempfile.TemporaryDirectory(prefix='nvt-scale-') as tmp:
        env = dict(os.environ, NVT_STANDIN_STATE=os.path.join(tmp, 'standins'),
                   NVML_SIM_SCENARIO=SCENARIO, NVML_SIM_TIME='1000', COLUMNS='120', TZ='UTC')
        started = standins(env, 'start', str(COUNT))
        try:
            if started.returncode != 0:
                print('SKIP: the stand-ins did not start:', started.stderr.strip())
                return 77
            pids = set()
            for line in started.stdout.splitlines():
                key, _, value = line[len('export '):].partition('=')
                env[key] = value.strip('\'"')
                pids.add(int(env[key]))
            check(len(pids) == COUNT, f'{len(pids)} distinct stand-ins for {COUNT}')
            rec = os.path.join(tmp, 'scale.nvrec')
            live = run([NVITOP, '--json', '--record', rec], env)
            check(live.returncode == 0, 'nvitop --json --record failed: ' + live.stderr)
            doc = json.loads(live.stdout)
            listed = {p['pid']: p for p in doc['processes']}
            check(set(listed) == pids,
                  f'the document lists {len(listed)} processes, {len(pids - set(listed))} '
                  'stand-ins missing')
            bare = [pid for pid, p in listed.items() if 'worker.pl' not in (p.get('command') or '')]
            check(not bare, f'{len(bare)} processes without their command line, e.g. {bare[:3]}')

            replay = run([NVITOP, '--json', '--replay', rec, '--from', '@0'], env)
            check(replay.returncode == 0, 'nvitop --json --replay failed: ' + replay.stderr)
            docs = [json.loads(line) for line in replay.stdout.splitlines() if line.strip()]
            check(len(docs) == 1, f'{len(docs)} replayed documents for 1 frame')
            check(docs[:1] == [doc], 'the replayed JSON differs from the live one')

            rows = run([NVITOP, '-1', '--only-compute'], env)
            check(rows.returncode == 0, 'nvitop -1 failed: ' + rows.stderr)
            shown = sum(1 for line in rows.stdout.splitlines() if 'worker.pl' in line)
            check(shown == COUNT, f'nvitop -1 shows {shown} process rows of {COUNT}')
        finally:
            standins(env, 'stop')
    if failures:
        print(f'{len(failures)} failure(s)', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
