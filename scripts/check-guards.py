#!/usr/bin/env python3
"""Every header's include guard names its path: include/nvitop/X.h (and the earlier version's
copies in tests/abi/headers-*/nvitop/) -> NVITOP_X_H, any other
header P -> NVITOP_<P upper-cased, '/', '.' and '-' as '_'> (src/tui/live/sampler.h ->
NVITOP_SRC_TUI_LIVE_SAMPLER_H), so a moved header cannot keep a name that another one may take.

usage: check-guards.py [--fix] [PATH...]   (default: every header git tracks)
Prints "guards: ok", or one line per header whose guard differs (--fix rewrites them).
"""
import os
import re
import subprocess
import sys

GUARD = re.compile(r'^#ifndef (\w+)\n#define (\w+)\n', re.M)


def expected(path):
    # The public headers, and the copies of an earlier version's that tests/abi builds against.
    public = re.match(r'^(include|tests/abi/headers-[^/]+)/nvitop/(.*)$', path)
    if public:
        return 'NVITOP_' + re.sub(r'[/.-]', '_', public.group(2)).upper()
    return 'NVITOP_' + re.sub(r'[/.-]', '_', path).upper()


def main():
    args = sys.argv[1:]
    fix = '--fix' in args
    paths = [a for a in args if a != '--fix']
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    os.chdir(root)
    if not paths:
        paths = subprocess.run(['git', 'ls-files', '*.h'], check=True, capture_output=True,
                               text=True).stdout.split()
    wrong = []
    for path in paths:
        if not path.endswith('.h') or not os.path.isfile(path):
            continue
        with open(path, encoding='utf-8') as f:
            text = f.read()
        match = GUARD.search(text)
        want = expected(path)
        if match is None:
            wrong.append(f'{path}: no #ifndef/#define include guard')
            continue
        if match.group(1) == want and match.group(2) == want:
            continue
        old = match.group(1)
        if not fix:
            wrong.append(f'{path}: guard {old}, expected {want}')
            continue
        text = re.sub(r'\b%s\b' % re.escape(old), want, text)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
    for line in wrong:
        print(f'include guard: {line}', file=sys.stderr)
    if wrong:
        return 1
    print('guards: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
