#!/usr/bin/python3
"""Record the simulator while the scenario changes, then replay the recording.

usage: replay_test.py NVITOP NVITOP_RECORD

Each step rewrites the scenario (a process appears, one exits, a GPU is lost, memory climbs, a
MIG machine) and runs `nvitop -1 --record F` and `nvitop --json --record F`: the printed report
and document are what was live at that moment, and the same snapshot went into F.  Then:
  * `nvitop --json --replay F --from ...` gives those documents again, one per line;
  * `nvitop -1 --replay F --at @T` gives each live report again (its time line shows T);
  * times outside the recording, foreign, newer and cut files give a message and exit 1;
  * a recorder killed with SIGKILL (and a record torn by hand) replays up to its last whole frame,
    and the next start appends a new segment.
The simulator's clock is frozen (NVML_SIM_TIME) and the GPU processes are this script and its
children, so host details and ancestors are real.  Exits 0 on success, 1 with a message.
"""
import copy
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import zlib

NVITOP, RECORD = sys.argv[1], sys.argv[2]
SCENARIOS = os.environ['NVT_SCENARIO_DIR']
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print('FAIL:', what, file=sys.stderr)


def run(args, scenario, **kw):
    # The user the expected reports name (user@host), whoever runs the tests.
    env = dict(os.environ, NVML_SIM_SCENARIO=scenario, NVML_SIM_TIME='1000', COLUMNS='120',
               TZ='UTC', LOGNAME='root', USER='root')
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=60, **kw)


def write_json(path, data):
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        json.dump(data, f)
    os.replace(tmp, path)


def steps(tmp):
    """(name, scenario path) for each moment; the scenario files are written as we go."""
    with open(os.path.join(SCENARIOS, 'workstation-2gpu.json'), encoding='utf-8') as f:
        base = json.load(f)
    sleepers = [subprocess.Popen(['sleep', '300']) for _ in range(2)]
    me = os.getpid()
    machine = copy.deepcopy(base)
    machine['devices'][0]['processes'][0]['pid'] = me
    machine['devices'][0]['processes'][1]['pid'] = sleepers[0].pid
    machine['devices'][1]['processes'][0]['pid'] = me
    path = os.path.join(tmp, 'machine.json')
    write_json(path, machine)
    yield 'start', path
    machine['devices'][1]['processes'].append(
        {'pid': sleepers[1].pid, 'type': 'compute', 'used_mib': 1200, 'sm': 10, 'mem': 5,
         'enc': 0, 'dec': 0})
    write_json(path, machine)
    yield 'process appears', path
    del machine['devices'][0]['processes'][1]
    sleepers[0].kill()
    sleepers[0].wait()
    write_json(path, machine)
    yield 'process exits', path
    machine['devices'][0]['memory']['used_mib'] = 24000
    write_json(path, machine)
    yield 'memory climbs', path
    machine['devices'][1]['lost'] = True
    write_json(path, machine)
    yield 'GPU lost', path
    yield 'MIG machine', os.path.join(SCENARIOS, 'a100-mig.json')
    sleepers[1].kill()
    sleepers[1].wait()


def record_and_replay(tmp):
    rec = os.path.join(tmp, 'moments.nvtrec')
    live = []
    for name, scenario in steps(tmp):
        report = run([NVITOP, '-1', '--record', rec], scenario)
        doc = run([NVITOP, '--json', '--record', rec], scenario)
        check(report.returncode == 0 and doc.returncode == 0, f'{name}: live runs failed: '
              f'{report.stderr}{doc.stderr}')
        live.append((name, scenario, report.stdout, json.loads(doc.stdout)))
    lines = run([NVITOP, '--json', '--replay', rec, '--from', '@0'], live[0][1])
    check(lines.returncode == 0, 'JSON Lines replay failed: ' + lines.stderr)
    docs = [json.loads(line) for line in lines.stdout.splitlines()]
    check(len(docs) == 2 * len(live), f'{len(docs)} JSON lines for {2 * len(live)} frames')
    for i, (name, scenario, report, doc) in enumerate(live):
        check(docs[2 * i + 1] == doc, f'{name}: the replayed JSON differs from the live one')
        stamp = docs[2 * i]['timestamp']
        replayed = run([NVITOP, '-1', '--replay', rec, '--at', '@' + repr(stamp)], scenario)
        check(replayed.returncode == 0, f'{name}: replay failed: {replayed.stderr}')
        want = report.splitlines()
        got = replayed.stdout.splitlines()
        check(got[1:] == want[1:], f'{name}: the replayed report differs:\n'
              + '\n'.join(got) + '\n--- live ---\n' + '\n'.join(want))
        check(got[0] == time.strftime('%a %b %d %H:%M:%S %Y', time.gmtime(stamp)),
              f'{name}: the time line shows {got[0]!r}')
    # What the steps changed is visible in the replay.
    check(len(docs[1]['processes']) == 3 and len(docs[3]['processes']) == 4
          and len(docs[5]['processes']) == 3, 'process counts per moment')
    check(docs[9]['devices'][1].get('status') not in (None, 'OK')
          or 'Lost' in json.dumps(docs[9]['devices'][1]), 'the lost GPU is recorded as lost')
    check(any(d.get('mig_index') is not None or 'MIG' in json.dumps(d)
              for d in docs[11]['devices']), 'MIG devices are recorded')
    # --at with HH:MM and ISO forms, and a time outside the recording.
    first = docs[0]['timestamp']
    hhmm = time.strftime('%H:%M:%S', time.gmtime(first + 0.999))
    at = run([NVITOP, '--json', '--replay', rec, '--at', hhmm], live[0][1])
    check(at.returncode == 0 and json.loads(at.stdout)['timestamp'] <= first + 0.999,
          '--at HH:MM:SS: ' + at.stderr)
    before = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(first - 3600))
    out = run([NVITOP, '-1', '--replay', rec, '--at', before], live[0][1])
    check(out.returncode == 1 and 'is outside the recording' in out.stderr
          and out.stdout == '', '--at before the start: ' + out.stderr)
    out = run([NVITOP, '-1', '--replay', rec, '--at', 'noon'], live[0][1])
    check(out.returncode == 1 and "'noon' is not a time" in out.stderr, '--at noon: ' + out.stderr)
    # An invalid --only index gets nvitop's message and exit status 1, as live.
    out = run([NVITOP, '-1', '--replay', rec, '-o', '5'], live[0][1])
    live_out = run([NVITOP, '-1', '-o', '5'], live[-1][1])
    check(out.returncode == 1 and out.stderr == live_out.stderr
          and 'Invalid device index: 5' in out.stderr, '--only 5: ' + out.stderr)
    out = run([NVITOP, '-1', '--replay', rec, '--from', '@0'], live[0][1])
    check(out.returncode == 2 and 'only with --json' in out.stderr, '--from without --json')
    # -m without a terminal: the report, then the live monitor's error, and a failure status.
    out = run([NVITOP, '-m', '--replay', rec], live[0][1], stdin=subprocess.DEVNULL)
    check(out.returncode == 1 and 'Driver Version' in out.stdout
          and out.stderr == 'ERROR: You must run monitor mode from a TTY terminal.\n',
          f'-m --replay without a terminal: {out.returncode} {out.stderr!r}')
    return rec


def bad_files(tmp, rec):
    scenario = os.path.join(SCENARIOS, 'workstation-2gpu.json')
    foreign = os.path.join(tmp, 'foreign.nvtrec')
    with open(foreign, 'w', encoding='utf-8') as f:
        f.write('#!/bin/sh\necho hello\n')
    out = run([NVITOP, '-1', '--replay', foreign], scenario)
    check(out.returncode == 1 and 'not an nvitop recording' in out.stderr, 'foreign: ' + out.stderr)
    with open(rec, 'rb') as f:
        data = f.read()
    newer = bytearray(data)
    newer[8] = 3
    newer[28:32] = zlib.crc32(bytes(newer[:28])).to_bytes(4, 'little')
    path = os.path.join(tmp, 'newer.nvtrec')
    with open(path, 'wb') as f:
        f.write(newer)
    out = run([NVITOP, '-1', '--replay', path], scenario)
    check(out.returncode == 1 and 'recorded by a newer nvitop (format 3.0)' in out.stderr,
          'newer: ' + out.stderr)
    # Cut at a few bytes spread over the file: the replay stops at the last whole frame.
    total = len(run([NVITOP, '--json', '--replay', rec, '--from', '@0'], scenario).stdout
                .splitlines())
    previous = 0
    for cut in range(40, len(data), max(1, len(data) // 23)):
        path = os.path.join(tmp, 'cut.nvtrec')
        with open(path, 'wb') as f:
            f.write(data[:cut])
        out = run([NVITOP, '--json', '--replay', path, '--from', '@0'], scenario)
        frames = len(out.stdout.splitlines())
        check(out.returncode in (0, 1) and frames >= previous and frames <= total,
              f'cut at {cut}: rc {out.returncode}, {frames} frames: {out.stderr}')
        check(out.returncode == 0 or 'no whole frame' in out.stderr, f'cut at {cut}: message')
        previous = frames
    # A flipped byte inside a frame: the frames around it still replay, one warning says which
    # frame is damaged and how many frames are lost with it, exit 0 (tests/record/fault_test.py
    # checks exactly which frames come back).
    bad = bytearray(data)
    bad[len(data) // 2] ^= 0xFF
    path = os.path.join(tmp, 'flipped.nvtrec')
    with open(path, 'wb') as f:
        f.write(bad)
    out = run([NVITOP, '--json', '--replay', path, '--from', '@0'], scenario)
    frames = len(out.stdout.splitlines())
    check(out.returncode == 0 and out.stderr.count('\n') == 1 and 'damaged' in out.stderr
          and 0 < frames < total, f'flipped byte: {frames} of {total} frames: {out.stderr}')


def frames_in(path, scenario):
    out = run([NVITOP, '--json', '--replay', path, '--from', '@0'], scenario)
    return len(out.stdout.splitlines()), out.stderr


def kill_safety(tmp):
    scenario = os.path.join(SCENARIOS, 'workstation-2gpu.json')
    path = os.path.join(tmp, 'killed.nvtrec')
    env = dict(os.environ, NVML_SIM_SCENARIO=scenario, NVML_SIM_TIME='1000')
    proc = subprocess.Popen([RECORD, '-f', path, '--interval', '0.25'], env=env)
    deadline = time.monotonic() + 30
    count = 0
    while time.monotonic() < deadline and count < 3:
        time.sleep(0.25)
        if os.path.exists(path):
            count, _ = frames_in(path, scenario)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    count, err = frames_in(path, scenario)
    check(count >= 3, f'after SIGKILL: {count} frames: {err}')
    # A kill in the middle of a write leaves a torn record: make one for certain, longer than
    # what the restart appends, so that appending over it without cutting it would show.
    with open(path, 'ab') as f:
        f.write(b'NVRF\x02\x00\x00\x00\x00\x00\x01\x00' + bytes(40000))
    torn, err = frames_in(path, scenario)
    check(torn == count and 'not a whole record' in err, f'torn tail: {torn} frames: {err}')
    out = subprocess.run([RECORD, '-f', path, '--count', '2', '--interval', '0.25'], env=env,
                         capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, 'restart: ' + out.stderr)
    after, err = frames_in(path, scenario)
    check(after == count + 2 and err == '', f'restart appended {after - count} frames: {err}')


def directory(tmp):
    """nvitop-record -o DIR: rotation and the byte limit, a restart appending to today's file,
    and the directory replayed as one recording."""
    scenario = os.path.join(SCENARIOS, 'h100-8gpu.json')
    env = dict(os.environ, NVML_SIM_SCENARIO=scenario, NVML_SIM_TIME='1000')
    out_dir = os.path.join(tmp, 'daily')
    limit = 12000
    for _ in range(2):
        out = subprocess.run([RECORD, '-o', out_dir, '-i', '0.25', '-n', '12', '--retain-bytes',
                              str(limit), '--keyframe-every', '4'], env=env, capture_output=True,
                             text=True, timeout=60)
        check(out.returncode == 0 and out.stderr == '', 'nvitop-record -o: ' + out.stderr)
    names = sorted(os.listdir(out_dir))
    sizes = [os.path.getsize(os.path.join(out_dir, n)) for n in names]
    check(len(names) >= 2 and all(n.startswith('nvitop-') and n.endswith('.nvtrec') for n in names),
          f'daily files: {names}')
    # The limit holds but for the file being written, which may pass a quarter of it.
    check(sum(sizes) <= limit + limit // 4 + max(sizes), f'{sum(sizes)} bytes for a {limit} limit')
    count, err = frames_in(out_dir, scenario)
    check(0 < count <= 24 and err == '', f'the directory replays {count} frames: {err}')
    out = subprocess.run([RECORD, '--interval', '0.1', '-o', out_dir], env=env,
                         capture_output=True, text=True, timeout=60)
    check(out.returncode == 2 and 'expected seconds from 0.25' in out.stderr,
          'interval 0.1: ' + out.stderr)
    out = subprocess.run([RECORD, '-n', '1'], env=env, capture_output=True, text=True, timeout=60)
    check(out.returncode == 2 and 'give one of --output DIR and --file FILE' in out.stderr,
          'no output: ' + out.stderr)


def older_format():
    """Recordings of each format kept in the tree (tests/record/fixtures) still read the same:
    later versions must keep reading them (docs/recording.md, "Versions").  The format-2.0 one
    has keyframes and patches (5 frames, a keyframe every 3); --at lands on a patched frame."""
    here = os.path.dirname(os.path.abspath(__file__))
    scenario = os.path.join(SCENARIOS, 'a100-mig.json')
    cases = [('1.0', ['--json', '--from', '@0'], 'a100-mig-format-1.0.jsonl'),
             ('1.0', ['-1', '--at', '2026-11-23T16:14:22Z'], 'a100-mig-format-1.0-at.txt'),
             ('2.0', ['--json', '--from', '@0'], 'a100-mig-format-2.0.jsonl'),
             ('2.0', ['-1', '--at', '@1795459134.682485'], 'a100-mig-format-2.0-at.txt')]
    for version, args, name in cases:
        fixture = os.path.join(here, 'fixtures', f'a100-mig-format-{version}.nvtrec')
        out = run([NVITOP, '--replay', fixture] + args, scenario)
        with open(os.path.join(here, 'expected', name), encoding='utf-8') as f:
            want = f.read()
        check(out.returncode == 0 and out.stdout == want and out.stderr == '',
              f'{name}: the format-{version} fixture reads differently: {out.stderr}')


def main():
    with tempfile.TemporaryDirectory() as tmp:
        rec = record_and_replay(tmp)
        bad_files(tmp, rec)
        kill_safety(tmp)
        directory(tmp)
    older_format()
    if failures:
        print(f'{len(failures)} failure(s)', file=sys.stderr)
        return 1
    print('replay: ok')
    return 0


sys.exit(main())
