#!/usr/bin/python3
"""The recorder and the replay under damage (docs/recording.md, "Damage").

usage: fault_test.py NVITOP NVITOP_RECORD

Recordings are made by nvitop-record with its settable test clock (NVITOP_RECORD_TEST_TIMES:
frame n gets the n-th time of the list and the recorder does not wait), then damaged by hand:
a flipped byte in a frame, a damaged record header, a zeroed 4 KiB block, a damaged type byte, a
record of an unknown type, two files joined, unknown data at the end, a torn last record, junk
in a directory.  Each case checks exactly which frames come back (by their times), what the
warnings say, the exit status, and that a restarted recorder destroyed no byte.  Exits 0 on
success, 1 with a message.
"""
import calendar
import json
import os
import stat
import subprocess
import sys
import tempfile
import time
import zlib

NVITOP, RECORD = sys.argv[1], sys.argv[2]
# Eight GPUs whose values move with the simulator's clock (not frozen), so that every patch holds
# something.
SCENARIO = os.path.join(os.environ['NVT_SCENARIO_DIR'], 'h100-8gpu.json')
T0 = 1795459134  # 2026-11-23 18:38:54 UTC
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print('FAIL:', what, file=sys.stderr)


def env(times=None, **extra):
    e = dict(os.environ, NVML_SIM_SCENARIO=SCENARIO, COLUMNS='120', TZ='UTC', **extra)
    if times is not None:
        e['NVITOP_RECORD_TEST_TIMES'] = times
    return e


def record(args, times, count, **kw):
    return subprocess.run([RECORD] + args + ['-n', str(count), '--keyframe-every', '8'],
                          env=env(times), capture_output=True, text=True, timeout=60, **kw)


def replay(path, args=('--json', '--from', '@0')):
    """(exit status, frame times, stderr lines) of a JSON replay."""
    out = subprocess.run([NVITOP, '--replay', path] + list(args), env=env(), capture_output=True,
                         text=True, timeout=60)
    times = []
    if '--json' in args:
        times = [round(json.loads(line)['timestamp']) for line in out.stdout.splitlines()]
    return out.returncode, times, out.stderr.splitlines()


def records(data):
    """(offset, type, payload size) of each record, walking the headers."""
    out = []
    at = 32
    while at + 28 <= len(data) and data[at:at + 4] == b'NVRF':
        size = int.from_bytes(data[at + 8:at + 12], 'little')
        out.append((at, data[at + 4], size))
        at += 28 + size
    return out


def frames(data):
    """(offset, type, size) of the frame records (keyframes 2, patches 4)."""
    return [r for r in records(data) if r[1] in (2, 3, 4)]


def next_key(fr, i):
    """The first frame after i that is a keyframe, or the count."""
    for j in range(i + 1, len(fr)):
        if fr[j][1] == 2:
            return j
    return len(fr)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def write(path, data):
    with open(path, 'wb') as f:
        f.write(data)


def base(tmp, name='base.nvtrec', start=T0, count=40):
    path = os.path.join(tmp, name)
    out = record(['-f', path], f'{start}+1x{count}', count)
    check(out.returncode == 0 and out.stderr == '', f'recording {name}: {out.stderr}')
    return path


def expect(path, want, lines, what, code=0, contains=()):
    rc, got, err = replay(path)
    check(rc == code, f'{what}: exit status {rc}, expected {code}: {err}')
    check(got == want, f'{what}: frames {got}, expected {want}')
    check(len(err) == lines, f'{what}: {len(err)} warning lines, expected {lines}: {err}')
    for text in contains:
        check(any(text in line for line in err), f'{what}: no warning says {text!r}: {err}')


def reader_cases(tmp):
    path = base(tmp)
    data = read(path)
    fr = frames(data)
    times = [T0 + i for i in range(len(fr))]
    check(len(fr) == 40 and fr[0][1] == 2 and fr[8][1] == 2 and fr[10][1] == 4
          and all(size > 0 for _, _, size in fr), f'the base recording: {fr}')
    expect(path, times, 0, 'undamaged')
    bad = os.path.join(tmp, 'bad.nvtrec')

    # A flipped byte in a patch's payload: that frame and the ones up to the next keyframe.
    at, _, size = fr[10]
    damaged = bytearray(data)
    damaged[at + 28 + size // 2] ^= 0x40
    write(bad, damaged)
    lost = range(10, next_key(fr, 10))
    expect(bad, [t for i, t in enumerate(times) if i not in lost], 1, 'flipped payload byte',
           contains=(f'the frame at byte {at} is damaged', f'{len(lost)} frames lost'))
    rc, _, err = replay(bad, ['-1', '--at', f'@{T0 + 11}'])
    check(rc == 1 and any('damaged' in line for line in err), f'--at a lost frame: {rc} {err}')
    rc, _, err = replay(bad, ['-1', '--at', f'@{T0 + next_key(fr, 10)}'])
    check(rc == 0 and err == [], f'--at the keyframe after the damage: {rc} {err}')
    rc, got, err = replay(bad, ['--json', '--from', f'@{T0 + 5}', '--to', f'@{T0 + 20}'])
    check(rc == 0 and got == [t for t in times[5:21] if t - T0 not in lost] and len(err) == 1,
          f'--from/--to across the damage: {rc} {got} {err}')

    # Damage at every record boundary (its marker) and inside every record's payload: exactly
    # the frames that depend on the damaged record are lost, with one warning.
    for at, kind, size in records(data):
        index = [f[0] for f in fr].index(at) if kind != 1 else None
        lost = range(index, next_key(fr, index)) if index is not None else range(0)
        want = [t for i, t in enumerate(times) if i not in lost]
        for where, what in ((at, 'marker'), (at + 28 + size // 2, 'payload')):
            damaged = bytearray(data)
            damaged[where] ^= 0x10
            write(bad, damaged)
            expect(bad, want, 1, f'the {what} of the record (type {kind}) at byte {at}')

    # A damaged segment record (the file's first record): no frame is lost.
    damaged = bytearray(data)
    damaged[32] ^= 0x01
    write(bad, damaged)
    expect(bad, times, 1, 'damaged segment record', contains=('0 frames lost',))

    # A damaged record header (its length): the reader finds the next record again.
    at, _, size = fr[12]
    damaged = bytearray(data)
    damaged[at + 9] ^= 0x01
    write(bad, damaged)
    lost = range(12, next_key(fr, 12))
    expect(bad, [t for i, t in enumerate(times) if i not in lost], 1, 'damaged record length',
           contains=(f'damaged from byte {at} to byte {at + 28 + size}',
                     f'{len(lost)} frames lost'))

    # A zeroed 4 KiB block in the middle of the file.
    start = len(data) // 2
    damaged = bytearray(data)
    damaged[start:start + 4096] = bytes(4096)
    write(bad, damaged)
    hit = [i for i, (a, _, s) in enumerate(fr) if a < start + 4096 and a + 28 + s > start]
    lost = range(hit[0], next_key(fr, hit[-1]))
    expect(bad, [t for i, t in enumerate(times) if i not in lost], 1, 'zeroed block',
           contains=(f'{len(lost)} frames lost',))

    # A damaged type byte: the CRC says it is no record of an unknown type.
    at = fr[20][0]
    damaged = bytearray(data)
    damaged[at + 4] = 0x44
    write(bad, damaged)
    lost = range(20, next_key(fr, 20))
    expect(bad, [t for i, t in enumerate(times) if i not in lost], 1, 'damaged type byte',
           contains=(f'damaged from byte {at}',))

    # A whole record of a type this reader does not know: skipped with a note, nothing lost.
    payload = b'a record from a newer nvitop'
    head = bytearray(b'NVRF' + bytes([9, 0, 0, 0]) + len(payload).to_bytes(4, 'little')
                     + bytes(4) + bytes(8))
    head += zlib.crc32(payload, zlib.crc32(bytes(head))).to_bytes(4, 'little')
    at = fr[6][0]
    write(bad, data[:at] + bytes(head) + payload + data[at:])
    expect(bad, times, 1, 'unknown record type', contains=('type 9', 'a newer nvitop'))

    # Two recordings joined: both replay.
    other = base(tmp, 'other.nvtrec', T0 + 100, 10)
    write(bad, data + read(other))
    expect(bad, times + [T0 + 100 + i for i in range(10)], 1, 'joined files',
           contains=(f'another recording begins at byte {len(data)}',))

    # A directory: damage in one day's file ends nothing after it.
    day = os.path.join(tmp, 'days')
    os.mkdir(day)
    damaged = bytearray(data)
    damaged[fr[10][0] + 28 + 3] ^= 0x01
    write(os.path.join(day, 'nvitop-2026-11-23-000.nvtrec'), damaged)
    write(os.path.join(day, 'nvitop-2026-11-24-000.nvtrec'), read(other))
    lost = range(10, next_key(fr, 10))
    expect(day, [t for i, t in enumerate(times) if i not in lost]
           + [T0 + 100 + i for i in range(10)], 1, 'damage in one day of a directory')


def writer_cases(tmp):
    """A restart keeps every byte that may hold history and says what it found."""
    path = base(tmp, 'w.nvtrec')
    data = read(path)
    fr = frames(data)
    times = [T0 + i for i in range(len(fr))]
    more = [T0 + 1000, T0 + 1001]

    def restart(case, damaged, note, want, lines):
        p = os.path.join(tmp, f'w-{case}.nvtrec')
        write(p, damaged)
        out = record(['-f', p], f'{T0 + 1000}+1x2', 2)
        check(out.returncode == 0, f'{case}: restart failed: {out.stderr}')
        err = out.stderr.splitlines()
        check(len(err) == 1 and note in err[0], f'{case}: the restart says {err}')
        after = read(p)
        check(after[:len(damaged)] == damaged or 'cut' in note,
              f'{case}: the restart changed the {len(damaged)} bytes it found')
        check(len(after) > len(damaged) or 'cut' in note, f'{case}: nothing appended')
        expect(p, want, lines, f'{case}, after the restart')

    damaged = bytearray(data)
    damaged[20000 if len(data) > 20000 else len(data) // 2] ^= 0x01
    hit = [i for i, (a, _, s) in enumerate(fr)
           if a <= (20000 if len(data) > 20000 else len(data) // 2) < a + 28 + s]
    lost = range(hit[0], next_key(fr, hit[0])) if hit else range(0)
    restart('flipped', bytes(damaged), 'kept 1 damaged span',
            [t for i, t in enumerate(times) if i not in lost] + more, 1 if hit else 0)
    other = base(tmp, 'w-other.nvtrec', T0 + 100, 10)
    restart('joined', data + read(other), 'kept 1 other recording appended to it',
            times + [T0 + 100 + i for i in range(10)] + more, 1)
    restart('trailing', data + b'not a record ' * 500, 'kept 6500 bytes at its end',
            times + more, 1)
    torn = data + b'NVRF\x04\x00\x00\x00' + (4000).to_bytes(4, 'little') + bytes(300)
    restart('torn', torn, 'cut a torn last record', times + more, 0)
    # nvitop --record says what it found too, and keeps it.
    p = os.path.join(tmp, 'w-once.nvtrec')
    write(p, data + b'not a record ' * 500)
    out = subprocess.run([NVITOP, '-1', '--record', p], env=env(), capture_output=True,
                         text=True, timeout=60)
    check(out.returncode == 0 and read(p)[:len(data) + 6500] == data + b'not a record ' * 500
          and out.stderr == f'nvitop: --record: note: {p}: kept 6500 bytes at its end that are '
          'no whole record; appending a new segment after them\n',
          f'nvitop -1 --record on a file with trailing data: {out.stderr!r}')
    p = os.path.join(tmp, 'w-zeros.nvtrec')
    write(p, data + bytes(70000))
    out = record(['-f', p], f'{T0 + 1000}+1x2', 2)
    check(out.returncode == 0 and out.stderr == '' and len(read(p)) < len(data) + 70000,
          f'trailing zeros (a killed writer\'s room) are cut quietly: {out.stderr}')
    # -o: today's file with damage is kept whole.
    day = os.path.join(tmp, 'wdays')
    out = record(['-o', day], f'{T0}+1x40', 40)
    name = os.path.join(day, 'nvitop-2026-11-23-000.nvtrec')
    check(out.returncode == 0 and os.path.exists(name), f'-o: {out.stderr} {os.listdir(day)}')
    damaged = bytearray(read(name))
    damaged[len(damaged) // 2] ^= 0x01
    write(name, damaged)
    out = record(['-o', day], f'{T0 + 50}+1x2', 2)
    check(out.returncode == 0 and read(name)[:len(damaged)] == bytes(damaged)
          and 'kept 1 damaged span' in out.stderr, f'-o restart: {out.stderr}')


def junk(tmp):
    """Only regular files whose header is a recording's are read; the rest is listed once."""
    day = os.path.join(tmp, 'junk')
    os.mkdir(day)
    good = base(tmp, 'good.nvtrec', T0, 10)
    write(os.path.join(day, 'nvitop-2026-11-23-000.nvtrec'), read(good))
    write(os.path.join(day, 'nvitop-2026-11-26-000.nvtrec'), b'')
    write(os.path.join(day, 'program.nvtrec'), read('/bin/true'))
    os.mkdir(os.path.join(day, 'sub.nvtrec'))
    os.symlink(os.path.join(tmp, 'missing'), os.path.join(day, 'dangling.nvtrec'))
    os.mkfifo(os.path.join(day, 'fifo.nvtrec'))
    expect(day, [T0 + i for i in range(10)], 5, 'a directory with junk',
           contains=('nvitop-2026-11-26-000.nvtrec: empty', 'program.nvtrec: not an nvitop',
                     'sub.nvtrec: a directory', 'dangling.nvtrec: a dangling link',
                     'fifo.nvtrec: not a regular file'))
    rc, _, err = replay(day, ['-1'])
    check(rc == 0 and len(err) == 5, f'-1 --replay DIR with junk: {rc} {err}')
    # A recorder whose daily name is taken by junk goes on in the next part.
    write(os.path.join(day, 'nvitop-2026-11-23-001.nvtrec'), b'junk')
    os.mkdir(os.path.join(day, 'nvitop-2026-11-23-002.nvtrec'))
    write(os.path.join(day, 'nvitop-2026-11-23-000.nvtrec'), read(good))
    out = record(['-o', day], f'{T0 + 50}+1x2', 2)
    check(out.returncode == 0 and os.path.exists(os.path.join(day, 'nvitop-2026-11-23-003.nvtrec'))
          and read(os.path.join(day, 'nvitop-2026-11-23-001.nvtrec')) == b'junk',
          f'-o with junk under today\'s names: {out.stderr} {sorted(os.listdir(day))}')
    rc, _, err = replay(os.path.join(day, 'fifo.nvtrec'), ['-1'])
    check(rc == 1 and any('not a regular file' in line for line in err), f'a FIFO: {rc} {err}')


def private(tmp):
    """Files 0600 and directories 0700 whatever the umask."""
    old = os.umask(0o022)
    try:
        day = os.path.join(tmp, 'private', 'nested')
        out = record(['-o', day], f'{T0}+1x2', 2)
        check(out.returncode == 0, f'-o a missing nested directory: {out.stderr}')
        mode = stat.S_IMODE(os.stat(day).st_mode)
        check(mode == 0o700, f'the directory is {mode:o}')
        for name in os.listdir(day):
            mode = stat.S_IMODE(os.stat(os.path.join(day, name)).st_mode)
            check(mode == 0o600, f'{name} is {mode:o}')
        path = os.path.join(tmp, 'private.nvtrec')
        out = record(['-f', path], f'{T0}+1x2', 2)
        mode = stat.S_IMODE(os.stat(path).st_mode)
        check(out.returncode == 0 and mode == 0o600, f'-f: {mode:o} {out.stderr}')
        day = os.path.join(tmp, 'shared')
        out = record(['-o', day, '--group-read'], f'{T0}+1x2', 2)
        modes = [stat.S_IMODE(os.stat(os.path.join(day, n)).st_mode) for n in os.listdir(day)]
        mode = stat.S_IMODE(os.stat(day).st_mode)
        check(out.returncode == 0 and mode == 0o750 and modes == [0o640],
              f'--group-read: directory {mode:o}, files {[f"{m:o}" for m in modes]}')
        path = os.path.join(tmp, 'once.nvtrec')
        out = subprocess.run([NVITOP, '-1', '--record', path], env=env(), capture_output=True,
                             text=True, timeout=60)
        mode = stat.S_IMODE(os.stat(path).st_mode)
        check(out.returncode == 0 and mode == 0o600, f'nvitop --record: {mode:o} {out.stderr}')
    finally:
        os.umask(old)


def complete(tmp):
    """nvitop --record records what nvitop-record does; a GPU lost while a recorder runs replays
    as a live nvitop -1 shows it."""
    path = os.path.join(tmp, 'complete.nvtrec')
    out = subprocess.run([NVITOP, '-1', '--record', path], env=env(NVML_SIM_TIME='1000'),
                         capture_output=True, text=True, timeout=60)
    live = subprocess.run([NVITOP, '--json'], env=env(NVML_SIM_TIME='1000'), capture_output=True,
                          text=True, timeout=60)
    rc, _, err = replay(path)
    got = subprocess.run([NVITOP, '--json', '--replay', path], env=env(), capture_output=True,
                         text=True, timeout=60)
    check(out.returncode == 0 and rc == 0 and got.returncode == 0, f'-1 --record: {err}')
    want = json.loads(live.stdout)['devices'][0]
    have = json.loads(got.stdout)['devices'][0]
    for key in ('uuid', 'bar1_total_bytes', 'bar1_used_bytes', 'encoder_util_percent',
                'decoder_util_percent'):
        check(have.get(key) is not None and have.get(key) == want.get(key),
              f'nvitop -1 --record: {key} replays as {have.get(key)!r}, live {want.get(key)!r}')
    # A GPU lost while nvitop-record runs (its context opened the GPU before).
    with open(SCENARIO, encoding='utf-8') as f:
        machine = json.load(f)
    scenario = os.path.join(tmp, 'losing.json')
    with open(scenario, 'w', encoding='utf-8') as f:
        json.dump(machine, f)
    path = os.path.join(tmp, 'lost.nvtrec')
    e = dict(env(), NVML_SIM_SCENARIO=scenario)
    proc = subprocess.Popen([RECORD, '-f', path, '-i', '0.25', '-n', '400'], env=e,
                            stderr=subprocess.PIPE)
    for _ in range(200):
        if os.path.exists(path) and len(frames(read(path))) >= 2:
            break
        time.sleep(0.05)
    machine['devices'][1]['lost'] = True
    with open(scenario + '.tmp', 'w', encoding='utf-8') as f:
        json.dump(machine, f)
    os.replace(scenario + '.tmp', scenario)
    shown = ''
    for _ in range(200):
        time.sleep(0.1)
        shown = subprocess.run([NVITOP, '-1', '--replay', path], env=e, capture_output=True,
                               text=True, timeout=60).stdout
        if 'ERROR: GPU is Lost' in shown:
            break
    proc.terminate()
    proc.wait()
    live = subprocess.run([NVITOP, '-1'], env=e, capture_output=True, text=True, timeout=60)
    row = [line for line in live.stdout.splitlines() if 'GPU is Lost' in line]
    check(len(row) == 1 and row[0] in shown.splitlines(),
          f'a GPU lost while recording replays as {shown!r}, live {row!r}')


def monitor_record(tmp):
    """nvitop --record in the monitor (in tmux, umask 022): a private file whose frames hold every
    field nvitop-record's frames of the same moment hold, and a GPU lost while the monitor records
    replays as live."""
    if subprocess.run(['sh', '-c', 'command -v tmux'], capture_output=True).returncode != 0:
        print('monitor --record: skipped (no tmux)')
        return
    with open(SCENARIO, encoding='utf-8') as f:
        machine = json.load(f)
    scenario = os.path.join(tmp, 'monitor-losing.json')
    with open(scenario, 'w', encoding='utf-8') as f:
        json.dump(machine, f)
    e = dict(env(NVML_SIM_TIME='1000'), NVML_SIM_SCENARIO=scenario)
    reference = os.path.join(tmp, 'monitor-reference.nvtrec')
    out = subprocess.run([RECORD, '-f', reference, '-n', '1'], env=e, capture_output=True,
                         text=True, timeout=60)
    check(out.returncode == 0, f'nvitop-record: {out.stderr}')
    path = os.path.join(tmp, 'monitor-rec', 'monitor.nvtrec')
    os.mkdir(os.path.dirname(path))
    tmux = ['tmux', '-L', f'nvt-monitor-record-{os.getpid()}']
    conf = os.path.join(tmp, 'tmux.conf')
    write(conf, b'set -g status off\n')
    names = ('LD_LIBRARY_PATH', 'NVML_SIM_SCENARIO', 'NVML_SIM_TIME', 'TZ')
    command = ' '.join(f"{k}='{v}'" for k, v in e.items() if k in names)
    subprocess.run(tmux + ['-f', conf, 'new-session', '-d', '-s', 'main', '-x', '160', '-y', '50',
                           f"umask 022; env {command} TERM=xterm-256color '{NVITOP}' --record "
                           f"'{path}' --interval 0.5"], check=True, env=e)
    try:
        count = lambda: len(frames(read(path))) if os.path.exists(path) else 0
        check(wait_for(lambda: count() >= 2), 'the monitor recorded nothing')
        mode = stat.S_IMODE(os.stat(path).st_mode)
        check(mode == 0o600, f'the monitor\'s recording is {mode:o} under umask 022')
        got = subprocess.run([NVITOP, '--json', '--replay', path], env=e, capture_output=True,
                             text=True, timeout=60)
        want = subprocess.run([NVITOP, '--json', '--replay', reference], env=e,
                              capture_output=True, text=True, timeout=60)
        have = json.loads(got.stdout)['devices'] if got.returncode == 0 else []
        need = json.loads(want.stdout)['devices'] if want.returncode == 0 else []
        check(len(have) == len(need) == 8, f'devices: {len(have)} {len(need)} {got.stderr}')
        for mine, theirs in zip(have, need):
            missing = {k: (mine.get(k), v) for k, v in theirs.items()
                       if v is not None and mine.get(k) != v}
            check(missing == {}, f'the monitor\'s frame of GPU {theirs.get("index")} differs '
                  f'from nvitop-record\'s: {missing}')
        # GPU 1 is lost while the monitor records.
        machine['devices'][1]['lost'] = True
        with open(scenario + '.tmp', 'w', encoding='utf-8') as f:
            json.dump(machine, f)
        os.replace(scenario + '.tmp', scenario)
        shown = ''
        for _ in range(200):
            time.sleep(0.1)
            shown = subprocess.run([NVITOP, '-1', '--replay', path], env=e, capture_output=True,
                                   text=True, timeout=60).stdout
            if 'ERROR: GPU is Lost' in shown:
                break
        live = subprocess.run([NVITOP, '-1'], env=e, capture_output=True, text=True, timeout=60)
        row = [line for line in live.stdout.splitlines() if 'GPU is Lost' in line]
        check(len(row) == 1 and row[0] in shown.splitlines(),
              f'a GPU lost while the monitor records replays as {shown!r}, live {row!r}')
    finally:
        subprocess.run(tmux + ['kill-server'], capture_output=True, check=False)


def at(path, when, tz='UTC'):
    """(exit status, the frame's time, stderr) of --json --at."""
    out = subprocess.run([NVITOP, '--json', '--replay', path, '--at', when],
                         env=dict(env(), TZ=tz), capture_output=True, text=True, timeout=60)
    stamp = json.loads(out.stdout)['timestamp'] if out.returncode == 0 and out.stdout else None
    return out.returncode, stamp, out.stderr


def iso(t):
    return time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(t))


def times_cases(tmp):
    """Clock steps, DST days in two time zones, invalid dates, the first frame's second."""
    # The clock set back by 30 s (half a minute recorded twice), then by an hour.
    path = os.path.join(tmp, 'stepped.nvtrec')
    out = record(['-f', path], f'{T0}+1x120,{T0 + 90.5}+1x60,{T0 - 3600.5}+1x60', 240)
    check(out.returncode == 0, 'stepped clock: ' + out.stderr)
    rc, stamp, err = at(path, f'@{T0 + 100}')
    check(rc == 0 and stamp == T0 + 99.5 and 'recorded 2 times' in err
          and 'nothing was recorded' not in err, f'--at a time recorded twice: {rc} {stamp} {err}')
    rc, stamp, err = at(path, f'@{T0 + 60}')
    check(rc == 0 and stamp == T0 + 60 and err == '', f'--at before the step: {rc} {stamp} {err}')
    rc, stamp, err = at(path, f'@{T0 - 3570}')
    check(rc == 0 and stamp == T0 - 3570.5 and err == '',
          f'--at inside the hour the clock went back: {rc} {stamp} {err}')
    rc, stamp, err = at(path, iso(T0 + 150))
    check(rc == 0 and stamp == T0 + 149.5, f'--at the end: {rc} {stamp} {err}')
    # DST: the 23-hour spring day in Berlin, the 25-hour autumn day in New York.
    # Each runs from 00:10 on the DST day to 00:30 on the next (local), a frame every 10 minutes.
    for tz, start, count, want in (('Europe/Berlin', 1774739400, 141, 1774785600),
                                   ('America/New_York', 1793506200, 153, 1793559600)):
        path = os.path.join(tmp, f'dst-{tz.replace("/", "-")}.nvtrec')
        out = record(['-f', path], f'{start}+600x{count}', count)
        check(out.returncode == 0, f'{tz}: {out.stderr}')
        rc, stamp, err = at(path, '14:00', tz)
        check(rc == 0 and stamp is not None and stamp <= want and want - stamp < 600,
              f'{tz}: --at 14:00 on the DST day: {rc} {stamp} (want {want}) {err}')
    # 01:30 on the New York autumn day occurs twice: the note says which one is shown.
    rc, stamp, err = at(path, '2026-11-01T01:30', 'America/New_York')
    check(rc == 0 and stamp is not None and 'occurs twice' in err and '1793511000' in err
          and '1793514600' in err, f'--at an hour that occurs twice: {rc} {stamp} {err}')
    rc, _, err = at(path, '2026-02-30')
    check(rc == 1 and '2026-02 has no day 30' in err, f'--at 2026-02-30: {rc} {err}')
    rc, _, err = at(path, '2026-02-29T10:00')
    check(rc == 1 and 'has no day 29' in err, f'--at 2026-02-29: {rc} {err}')
    # The first frame at :54.49: --at that second holds it.
    path = os.path.join(tmp, 'first.nvtrec')
    out = record(['-f', path], f'{T0 + 0.49}+1x3', 3)
    rc, stamp, err = at(path, time.strftime('%H:%M:%S', time.gmtime(T0)))
    check(rc == 0 and stamp == T0 + 0.49, f'--at the first frame\'s second: {rc} {stamp} {err}')


def json_times(path, args, tz='UTC'):
    """(exit status, frame times, stderr lines) of --json --replay path args in time zone tz."""
    out = subprocess.run([NVITOP, '--json', '--replay', path] + args, env=dict(env(), TZ=tz),
                         capture_output=True, text=True, timeout=60)
    return (out.returncode, [json.loads(line)['timestamp'] for line in out.stdout.splitlines()],
            out.stderr.splitlines())


def range_cases(tmp):
    """--from/--to across a clock set back: every era's frames in the range, in the order they
    were recorded, with a note; and "JSON for the last day" after a step back over midnight."""
    path = os.path.join(tmp, 'range.nvtrec')
    out = record(['-f', path], f'{T0}+1x120,{T0 + 90.5}+1x60,{T0 - 3600.5}+1x60', 240)
    check(out.returncode == 0, 'range recording: ' + out.stderr)
    era1 = [T0 + i for i in range(120)]
    era2 = [T0 + 90.5 + i for i in range(60)]
    era3 = [T0 - 3600.5 + i for i in range(60)]
    for args in (['--from', '@0'], ['--to', f'@{T0 + 1000}']):
        rc, got, err = json_times(path, args)
        check(rc == 0 and got == era1 + era2 + era3 and len(err) == 2
              and all('the clock was set back' in line for line in err),
              f'--json {args} over three eras: {rc} {len(got)} frames {err}')
    rc, got, err = json_times(path, ['--from', f'@{T0 + 100}', '--to', f'@{T0 + 110}'])
    check(rc == 0 and got == era1[100:111] + era2[10:20] and len(err) == 1
          and 'at frame 131 of 240' in err[0] and 'in the order they were recorded' in err[0],
          f'a range recorded twice: {rc} {got} {err}')
    rc, got, err = json_times(path, ['--from', f'@{T0 - 3570}', '--to', f'@{T0 - 3560}'])
    check(rc == 0 and got == era3[31:41] and err == [],
          f'a range in the hour the clock went back: {rc} {got} {err}')
    # JSON for the last day: the clock set back an hour at 00:20 (local), to 23:20 the day before,
    # and recording on for 30 minutes; the last day is 00:00-00:19, nothing of the day before.
    # In a directory of daily files (UTC dates) and in a file, in two time zones.
    for tz, midnight in (('UTC', 1795478400), ('Europe/Berlin', 1795478400 - 3600)):
        times = f'{midnight - 3600}+60x80,{midnight + 1200 - 3600}+60x30'
        day = os.path.join(tmp, f'lastday-{tz.replace("/", "-")}')
        out = record(['-o', day], times, 110)
        one = os.path.join(tmp, f'lastday-{tz.replace("/", "-")}.nvtrec')
        out2 = record(['-f', one], times, 110)
        check(out.returncode == 0 and out2.returncode == 0, f'{tz}: {out.stderr} {out2.stderr}')
        want = [midnight + 60 * i for i in range(20)]
        for where in (day, one):
            for args in (['--from', '00:00'], ['--from', '2026-11-24'],
                         ['--from', '00:00', '--to', '23:59']):
                rc, got, err = json_times(where, args, tz)
                check(rc == 0 and got == want and err == [],
                      f'{tz}: the last day ({args}) of {os.path.basename(where)}: {rc} '
                      f'{[iso(t) for t in got[:3]]}..{[iso(t) for t in got[-3:]]} '
                      f'({len(got)} frames) {err}')
    # --to a time of day is the first one after --from: a range over midnight.
    rc, got, err = json_times(one, ['--from', '23:50', '--to', '00:05'], 'Europe/Berlin')
    midnight = 1795478400 - 3600
    check(rc == 0 and got == [midnight - 600 + 60 * i for i in range(16)] and err == [],
          f'--from 23:50 --to 00:05: {rc} {[iso(t) for t in got]} {err}')
    # The 25-hour day in New York (2026-11-01, a frame every 10 minutes from 00:10): --from the
    # date --to 23:59 is the whole day, 24 h 50 min of frames.
    ny = os.path.join(tmp, 'range-ny.nvtrec')
    out = record(['-f', ny], '1793506200+600x153', 153)
    rc, got, err = json_times(ny, ['--from', '2026-11-01', '--to', '23:59'], 'America/New_York')
    check(out.returncode == 0 and rc == 0 and got == [1793506200 + 600 * i for i in range(149)]
          and err == [], f'New York\'s 25-hour day: {rc} {len(got)} frames {err}')


def retention(tmp):
    """--retain-days 7 counts the days of today and before: a file dated in the future and a
    look-alike name are kept and count for nothing; a file named by a wrong clock but written
    today is aged by when it was written."""
    day = os.path.join(tmp, 'retention')
    os.mkdir(day)
    small = read(base(tmp, 'small.nvtrec', T0, 2))
    names = [f'nvitop-2026-11-{d:02d}-000.nvtrec' for d in range(15, 23)]
    names += ['nvitop-2027-01-01-000.nvtrec', 'nvitop-2026-1x-01-000.nvtrec',
              'nvitop-2020-01-01-000.nvtrec']
    for name in names:
        write(os.path.join(day, name), small)
        stamp = T0 - 3600 if '2020' in name else calendar.timegm(time.strptime(
            name[7:17], '%Y-%m-%d')) + 3600 if '1x' not in name else T0
        os.utime(os.path.join(day, name), (stamp, stamp))
    out = record(['-o', day, '--retain-days', '7'], f'{T0}+1x2', 2)
    check(out.returncode == 0, 'retention: ' + out.stderr)
    left = sorted(os.listdir(day))
    want = sorted([f'nvitop-2026-11-{d:02d}-000.nvtrec' for d in range(17, 24)]
                  + ['nvitop-2027-01-01-000.nvtrec', 'nvitop-2026-1x-01-000.nvtrec',
                     'nvitop-2020-01-01-000.nvtrec'])
    check(left == want, f'retention kept {left}, expected {want}')
    # --retain-bytes removes by the day a file is aged by: a file named by a wrong clock (2020)
    # but written today goes after the older days, not first (its name sorts first).
    day = os.path.join(tmp, 'retention-bytes')
    os.mkdir(day)
    big = read(base(tmp, 'big.nvtrec', T0 - 3 * 86400, 20))
    names = [f'nvitop-2026-11-{d}-000.nvtrec' for d in (20, 21, 22)] + [
        'nvitop-2020-01-01-000.nvtrec']
    for name in names:
        write(os.path.join(day, name), big)
        stamp = T0 - 3600 if '2020' in name else calendar.timegm(time.strptime(
            name[7:17], '%Y-%m-%d')) + 3600
        os.utime(os.path.join(day, name), (stamp, stamp))
    limit = int(2.5 * len(big) + len(small))
    out = record(['-o', day, '--retain-bytes', str(limit)], f'{T0}+1x2', 2)
    left = sorted(os.listdir(day))
    want = sorted(names[2:] + ['nvitop-2026-11-23-000.nvtrec'])
    check(out.returncode == 0 and left == want,
          f'--retain-bytes {limit} ({len(big)}-byte files) kept {left}, expected {want}: '
          f'{out.stderr}')


def wait_for(what, seconds=30):
    """Poll what() every 0.05 s until it is true, at most seconds."""
    for _ in range(int(seconds / 0.05)):
        if what():
            return True
        time.sleep(0.05)
    return False


def full_disk_inner(tmp):
    """Run as root in a private mount namespace: a recorder on a small tmpfs that fills up, then
    has room again."""
    mnt = os.path.join(tmp, 'small')
    os.mkdir(mnt)
    subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=192k', 'tmpfs', mnt], check=True)
    path = os.path.join(mnt, 'r.nvtrec')
    log = os.path.join(tmp, 'stderr.txt')
    with open(log, 'w', encoding='utf-8') as err:
        proc = subprocess.Popen([RECORD, '-f', path, '-i', '0.25', '--keyframe-every', '4'],
                                env=env(), stdout=subprocess.DEVNULL, stderr=err)
    try:
        full_disk_steps(mnt, path, log, proc)
        full_disk_monitor(tmp, mnt)
        full_disk_retention(tmp, mnt)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        subprocess.run(['tmux', '-L', f'nvt-record-{os.getpid()}', 'kill-server'],
                       capture_output=True, check=False)
        # The monitor may take a moment to exit after its terminal went away.
        wait_for(lambda: subprocess.run(['umount', mnt], capture_output=True).returncode == 0, 10)


def full_disk_monitor(tmp, mnt):
    """nvitop --record in the monitor (in tmux): the note line says the recording paused, and
    again when it records again."""
    if subprocess.run(['sh', '-c', 'command -v tmux'], capture_output=True).returncode != 0:
        print('full disk, monitor: skipped (no tmux)')
        return
    for name in os.listdir(mnt):
        os.unlink(os.path.join(mnt, name))
    path = os.path.join(mnt, 'monitor.nvtrec')
    tmux = ['tmux', '-L', f'nvt-record-{os.getpid()}']
    conf = os.path.join(tmp, 'tmux.conf')
    write(conf, b'set -g status off\n')
    subprocess.run(tmux + ['-f', conf, 'new-session', '-d', '-s', 'main', '-x', '160', '-y', '50',
                           'env'] + [f'{k}={v}' for k, v in env().items()
                                     if k in ('LD_LIBRARY_PATH', 'NVML_SIM_SCENARIO', 'TZ')]
                   + ['TERM=xterm-256color', NVITOP, '--record', path, '--interval', '0.5'],
                   check=True, env=env())
    screen = lambda: subprocess.run(tmux + ['capture-pane', '-p', '-t', 'main'],
                                    capture_output=True, text=True).stdout
    count = lambda: len(frames(read(path))) if os.path.exists(path) else 0
    check(wait_for(lambda: count() >= 2), f'the monitor recorded nothing: {screen()}')
    fd = os.open(os.path.join(mnt, 'fill'), os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, bytes(4096))
    except OSError:
        pass
    os.close(fd)
    check(wait_for(lambda: 'Recording paused: the disk is full' in screen()),
          f'the monitor does not say the recording paused: {screen()}')
    before = count()
    os.unlink(os.path.join(mnt, 'fill'))
    check(wait_for(lambda: 'Recording again' in screen()),
          f'the monitor does not say it records again: {screen()}')
    check(wait_for(lambda: count() > before), 'the monitor records no frame after the pause')


def fill(mnt):
    """Fill the tmpfs at mnt with one file, 'fill'."""
    fd = os.open(os.path.join(mnt, 'fill'), os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, bytes(4096))
    except OSError:
        pass
    os.close(fd)


def full_disk_retention(tmp, mnt):
    """A full disk under --retain-bytes: the oldest files are removed, one at a time, to make room,
    and no frame is lost; without a byte limit nothing is removed and the recorder pauses."""
    old = read(base(tmp, 'old.nvtrec', T0 - 3 * 86400, 20))
    # In the order they go: by the day they are aged by; the file named by a wrong clock (2020)
    # but written today goes last.
    names = [f'nvitop-2026-11-{d}-000.nvtrec' for d in (20, 21, 22)]
    names.append('nvitop-2020-01-01-000.nvtrec')
    for limit in ([], ['--retain-bytes', '100M']):
        for name in os.listdir(mnt):
            if os.path.isdir(os.path.join(mnt, name)):
                for inner in os.listdir(os.path.join(mnt, name)):
                    os.unlink(os.path.join(mnt, name, inner))
                os.rmdir(os.path.join(mnt, name))
            else:
                os.unlink(os.path.join(mnt, name))
        day = os.path.join(mnt, 'days')
        os.mkdir(day)
        for name in names:
            write(os.path.join(day, name), old)
        os.utime(os.path.join(day, names[-1]), (T0 - 3600, T0 - 3600))
        fill(mnt)
        out = record(['-o', day] + limit, f'{T0}+1x40', 40)
        left = [n for n in names if n in os.listdir(day)]
        today = os.path.join(day, 'nvitop-2026-11-23-000.nvtrec')
        rc, got, _ = replay(today) if os.path.exists(today) else (1, [], [])
        if not limit:
            check(out.returncode == 0 and left == names and 'not recording until there is room'
                  in out.stderr and 'removed' not in out.stderr,
                  f'a full disk without a byte limit: {out.returncode} {left} {out.stderr!r}')
            continue
        removed = [n for n in names if n not in left]
        said = [line for line in out.stderr.splitlines() if 'to make room' in line]
        check(out.returncode == 0 and rc == 0 and got == [T0 + i for i in range(40)],
              f'--retain-bytes on a full disk: {out.returncode} {len(got)} frames {out.stderr!r}')
        check(removed != [] and removed == names[:len(removed)] and len(said) == len(removed)
              and all(n in line for n, line in zip(removed, said))
              and 'not recording' not in out.stderr,
              f'--retain-bytes on a full disk removed {removed}, said {out.stderr!r}')


def full_disk_steps(mnt, path, log, proc):
    said = lambda text: text in read(log).decode()
    count = lambda: len(frames(read(path))) if os.path.exists(path) else 0
    check(wait_for(lambda: count() >= 2), 'the recorder on tmpfs wrote no frame')
    fd = os.open(os.path.join(mnt, 'fill'), os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, bytes(4096))
    except OSError:
        pass
    os.close(fd)
    check(wait_for(lambda: said('not recording until there is room')),
          f'a full disk is not said: {read(log)}')
    before = count()
    time.sleep(0.6)
    check(proc.poll() is None, f'the recorder stopped at a full disk: {read(log)}')
    os.unlink(os.path.join(mnt, 'fill'))
    check(wait_for(lambda: said('recording again')), f'no resumption said: {read(log)}')
    check(wait_for(lambda: count() >= before + 2), 'no frame after the disk had room again')
    proc.terminate()
    check(proc.wait() == 0, f'the recorder exits {proc.returncode}')
    text = read(log).decode()
    check(text.count('not recording until there is room') == 1 and text.count('\n') == 2,
          f'the recorder said: {text!r}')
    rc, got, err = replay(path)
    check(rc == 0 and len(got) >= before + 2 and err == [] and got == sorted(got),
          f'the recording after a full disk: {rc} {len(got)} frames {err}')
    segments = [r for r in records(read(path)) if r[1] == 1]
    check(len(segments) == 2, f'{len(segments)} segments: a new one after the full disk')


def full_disk(tmp):
    """ENOSPC on a small tmpfs, mounted in a private mount namespace (root only)."""
    out = subprocess.run(['unshare', '-m', sys.executable, __file__, NVITOP, RECORD, '--full-disk',
                          tmp], capture_output=True, text=True, timeout=120)
    if out.returncode == 77 or 'ok' not in out.stdout and 'FAIL' not in out.stderr:
        print(f'full disk: skipped (no private mount namespace here: {out.stderr.strip()})')
        return
    check(out.returncode == 0, 'full disk: ' + out.stderr)


def main():
    if len(sys.argv) > 4 and sys.argv[3] == '--full-disk':
        if os.geteuid() != 0:
            return 77
        full_disk_inner(sys.argv[4])
        print('full disk: ok' if not failures else 'full disk: failed')
        return 1 if failures else 0
    with tempfile.TemporaryDirectory() as tmp:
        times_cases(tmp)
        range_cases(tmp)
        retention(tmp)
        full_disk(tmp)
        reader_cases(tmp)
        writer_cases(tmp)
        junk(tmp)
        private(tmp)
        complete(tmp)
        monitor_record(tmp)
    if failures:
        print(f'{len(failures)} failure(s)', file=sys.stderr)
        return 1
    print('faults: ok')
    return 0


sys.exit(main())
