#!/usr/bin/python3
"""Mask the host-dependent parts of an `nvitop -1` report so that it can be compared exactly.

What is masked (everything else is compared byte for byte, escape sequences included):
  * the timestamp line (the first line)           -> "<TIMESTAMP>"
  * the version in "NVITOP <version>"              -> "#" per character
  * the contents of the host bars "[ CPU: ... ]", "[ MEM: ... ]", "[ SWP: ... ]" and of
    "( Load Average: ... )"                         -> "#" per cell, the prefix is kept
  * "user@host" on the "Processes:" line            -> "#" per cell, and its colours are dropped
    (their positions depend on the lengths of the names)
  * in process rows, the USER column and the %CPU, %MEM and TIME columns
                                                    -> "#" per cell
  * with --mask-pid, the PID column of process rows (stand-in jobs get new PIDs every run)
  * whether the viewer is the superuser: other users' process rows are dimmed ("ESC[2m...ESC[0m",
    the dimming is removed)
  * anything matching a --mask REGEX given on the command line (for values that come from the
    host in a scenario, e.g. the host memory a unified-memory GPU reports) -> "#" per cell
Widths are kept, so a line that is too long or too short still fails.  Escape sequences are
skipped when counting cells.  Reads stdin, writes stdout.
"""
import re
import sys
import unicodedata

ESC = re.compile(r'\x1b\[[0-9;]*m')


def cells(text):
    """(start, end, is_escape) pieces of text; escape sequences are zero-width."""
    out = []
    pos = 0
    for m in ESC.finditer(text):
        out.extend((i, i + 1, False) for i in range(pos, m.start()))
        out.append((m.start(), m.end(), True))
        pos = m.end()
    out.extend((i, i + 1, False) for i in range(pos, len(text)))
    return out


def width(ch):
    return 2 if unicodedata.east_asian_width(ch) in 'WF' else 1


def mask_columns(line, first, last):
    """Replace the visible cells [first, last) of line with '#'."""
    result = []
    col = 0
    for start, end, is_escape in cells(line):
        piece = line[start:end]
        if is_escape:
            result.append(piece)
            continue
        w = width(piece)
        result.append('#' * w if first <= col < last else piece)
        col += w
    return ''.join(result)


def visible(line):
    return ESC.sub('', line)


def mask_brackets(line):
    plain = visible(line)
    for m in re.finditer(r'\[ (CPU|MEM|SWP): [^\]]*\]|\( Load Average:[^)]*\)', plain):
        keep = 7 if m.group(0).startswith('[') else 15
        line = mask_columns(line, m.start() + keep, m.end() - 2)
    return line


def mask_regexes(line, patterns):
    plain = visible(line)
    for pattern in patterns:
        for m in re.finditer(pattern, plain):
            line = mask_columns(line, m.start(), m.end())
    return line


def normalize(text, options=()):
    """The masked form of a report; options are normalize.py's command-line options."""
    patterns = []
    mask_pid = False
    args = list(options)
    while args:
        if args[0] == '--mask' and len(args) >= 2:
            patterns.append(args[1])
            args = args[2:]
        elif args[0] == '--mask-pid':
            mask_pid = True
            args = args[1:]
        else:
            raise SystemExit(f'normalize.py: unknown option {args[0]!r}')
    lines = [mask_regexes(line, patterns) for line in text.split('\n')]
    in_processes = False
    host_columns = None
    for i, line in enumerate(lines):
        plain = visible(line)
        if i == 0 and plain:
            lines[i] = '<TIMESTAMP>'
            continue
        m = re.search(r'NVITOP (\S+)', plain)
        if m:
            lines[i] = mask_columns(line, m.start(1), m.end(1))
            continue
        if '[ CPU: ' in plain or '[ MEM: ' in plain:
            lines[i] = mask_brackets(line)
            continue
        if 'Processes:' in plain:
            line = visible(line)
            in_processes = True
            start = plain.index('Processes:') + len('Processes:')
            tail = plain.rstrip()
            lines[i] = mask_columns(line, start, len(tail) - 2)
            continue
        if in_processes and '%CPU' in plain and 'COMMAND' in plain:
            host_columns = (plain.index('%CPU') - 1, plain.index('COMMAND'))
            continue
        if in_processes and host_columns and re.match(r'^[│|]\s*\d', plain):
            line = re.sub(r'\x1b\[2m(.*?)\x1b\[0m', r'\1', line)
            line = mask_columns(line, 16, 23)
            if mask_pid:
                line = mask_columns(line, 6, 13)
            lines[i] = mask_columns(line, host_columns[0], host_columns[1])
    return '\n'.join(lines)


if __name__ == '__main__':
    sys.stdout.write(normalize(sys.stdin.read(), sys.argv[1:]))
