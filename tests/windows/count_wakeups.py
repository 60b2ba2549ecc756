#!/usr/bin/env python3
"""Count, in a wineserver trace of nvitop.exe's monitor (WINEDEBUG=+server), the waits of its
event loop against the snapshots its sampler announced (tests/windows/windows_test.sh, part
wakeups).

  count_wakeups.py TRACE [MIN_SNAPSHOTS]

The event loop's thread is the program's first thread (the first init_first_thread of the trace:
the program is the first client that the trace's wineserver sees, and the processes that wine
starts for it come after).  Its waits are its select requests of kind WAIT (WaitForSingleObject,
WaitForMultipleObjects for any); I/O completions are of kind WAIT_ALL, signal deliveries carry no
handles.  A snapshot is the sampler's one-byte write of "s" to its pipe.  Prints both counts; with
MIN_SNAPSHOTS, exits 1 while fewer snapshots have been seen (the caller waits for that many), and 0
once they have.
"""
import re
import sys

FIRST_THREAD = re.compile(r'^([0-9a-f]{4}): init_first_thread\(\) = 0 ')
WAIT = re.compile(r'^([0-9a-f]{4}): select\( .*data=\{WAIT,handles=')
SNAPSHOT = re.compile(r'^[0-9a-f]{4}: write\( .*data=\{73\} \)')


def count(path):
    ui_thread = None
    waits = 0
    snapshots = 0
    with open(path, encoding='utf-8', errors='replace') as trace:
        for line in trace:
            if ui_thread is None:
                first = FIRST_THREAD.match(line)
                if first:
                    ui_thread = first.group(1)
                continue
            wait = WAIT.match(line)
            if wait and wait.group(1) == ui_thread:
                waits += 1
            elif SNAPSHOT.match(line):
                snapshots += 1
    return ui_thread, waits, snapshots


def main():
    ui_thread, waits, snapshots = count(sys.argv[1])
    print(f'event loop thread {ui_thread}: {waits} waits, {snapshots} snapshots')
    if len(sys.argv) > 2:
        return 0 if snapshots >= int(sys.argv[2]) else 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
