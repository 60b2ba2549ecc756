#!/usr/bin/env python3
"""Rewrite sizeof(a) / sizeof(a[0]) as ARRAY_SIZE(a) (src/util/array.h) in the files named,
adding the include where it is missing.  usage: use-array-size.py FILE..."""
import re
import sys

PATTERN = re.compile(r'sizeof\(([A-Za-z_][A-Za-z0-9_.>-]*)\) / sizeof\(\1\[0\]\)')
for path in sys.argv[1:]:
    with open(path, encoding='utf-8') as f:
        text = f.read()
    new = PATTERN.sub(r'ARRAY_SIZE(\1)', text)
    if new == text:
        continue
    if '#include "util/array.h"' not in new:
        # After the last quoted include, or after the last include of any kind.
        quoted = list(re.finditer(r'^#include "[^"]+"\n', new, re.M))
        anyinc = list(re.finditer(r'^#include [<"][^>"]+[>"]\n', new, re.M))
        spot = (quoted or anyinc)[-1].end()
        new = new[:spot] + '#include "util/array.h"\n' + new[spot:]
    with open(path, 'w', encoding='utf-8') as f:
        f.write(new)
