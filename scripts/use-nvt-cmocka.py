#!/usr/bin/env python3
"""Replace the cmocka preamble (a comment, clang-format off, the four C headers cmocka needs, the
cmocka include, clang-format on) by #include "nvt_cmocka.h" (tests/support) in the files named.
usage: use-nvt-cmocka.py FILE..."""
import re
import sys

BLOCK = re.compile(r'(?:/\*[^\n]*cmocka[^\n]*\*/\n)?/\* clang-format off \*/\n'
                   r'(?:#include <(?:stdarg|stddef|setjmp|stdint)\.h>\n){4}'
                   r'#include <cmocka\.h>\n/\* clang-format on \*/\n')
for path in sys.argv[1:]:
    with open(path, encoding='utf-8') as f:
        text = f.read()
    new, count = BLOCK.subn('#include "nvt_cmocka.h"\n', text)
    if count == 0:
        print(f'{path}: no cmocka preamble found', file=sys.stderr)
        continue
    with open(path, 'w', encoding='utf-8') as f:
        f.write(new)
