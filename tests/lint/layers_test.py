#!/usr/bin/env python3
"""scripts/check-layers.py against a small tree with violations planted in it, and against the
repository itself.

The planted tree has one file per layer with an include that the layer table allows, and one
with each include it forbids (util/ -> cmd/, cluster/ -> tui/, tui/ -> cmd/, view/ -> cluster/,
view/ -> the private library, lib/ -> view/, through the own folder, src/ and a relative path),
plus the narrower rules (curses outside term.c, /proc outside lib/host, x* allocators in the
library).  The exact list of complaints is checked.

usage: layers_test.py SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

FILES = {
    # Allowed edges.
    'include/nvitop/api.h': '#include <stdint.h>\n',
    'src/util/text/str.h': '#include <stddef.h>\n',
    'src/lib/nvml/nvml.c': '#include "nvml/nvml_abi.h"\n#include "util/text/str.h"\n'
                           '#include <nvitop/api.h>\n',
    'src/lib/nvml/nvml_abi.h': '',
    'src/view/render.h': '#include <nvitop/api.h>\n#include "util/text/str.h"\n',
    'src/cluster/node.h': '#include "util/text/str.h"\n',
    'src/record/frame.h': '#include <nvitop/api.h>\n',
    'src/tui/app.c': '#include "view/render.h"\n#include "cluster/node.h"\n'
                     '#include "record/frame.h"\n#include "screens/screen.h"\n',
    'src/tui/screens/screen.h': '#include "../app.h"\n',
    'src/tui/app.h': '',
    'src/tui/term.c': '#include <ncurses.h>\n',
    'src/cmd/nvitop/main.c': '#include "tui/app.h"\n#include "options.h"\n',
    'src/cmd/nvitop/options.h': '',
    'src/lib/host/linux.c': 'static const char *p = "/proc/stat";\n',
    # Planted violations.
    'src/util/bad_util.c': '#include "cmd/nvitop/options.h"\n',
    'src/cluster/bad_cluster.c': '#include "tui/app.h"\n',
    'src/tui/bad_tui.c': '#include "cmd/nvitop/options.h"\n',
    'src/view/bad_view.c': '#include "cluster/node.h"\n#include "nvml/nvml_abi.h"\n',
    'src/view/bad_relative.c': '#include "../tui/app.h"\n',
    'src/lib/bad_lib.c': '#include "view/render.h"\n'
                         'void *p(void) { return xmalloc(1); }\n',
    'src/view/bad_curses.c': '/* #include <ncurses.h> in a comment does not count */\n'
                             '#include <ncurses.h>\n',
    'src/tui/bad_proc.c': 'static const char *p = "/proc/self/stat";\n',
}

EXPECTED = [
    'src/cluster/bad_cluster.c: cluster/ may not include tui/ (src/tui/app.h)',
    'src/lib/bad_lib.c: lib/ may not include view/ (src/view/render.h)',
    'src/lib/bad_lib.c: the library checks allocations itself (no x* wrappers)',
    'src/tui/bad_proc.c: only src/lib/host/ may name /proc',
    'src/tui/bad_tui.c: tui/ may not include cmd/ (src/cmd/nvitop/options.h)',
    'src/util/bad_util.c: util/ may not include cmd/ (src/cmd/nvitop/options.h)',
    'src/view/bad_cluster_view.c: view/ may not include cluster/ (src/cluster/node.h)',
    'src/view/bad_curses.c: only src/tui/term.c and term_screen.c may include curses',
    'src/view/bad_relative.c: view/ may not include tui/ (src/tui/app.h)',
    'src/view/bad_view.c: only src/lib/nvml/, sim/ and raw-NVML examples, tests and benches may '
    'include nvml_abi.h',
    'src/view/bad_view.c: view/ may not include cluster/ (src/cluster/node.h)',
    'src/view/bad_view.c: view/ may not include lib/ (src/lib/nvml/nvml_abi.h)',
]


def run(checker, root):
    return subprocess.run([sys.executable, checker, root], capture_output=True, text=True,
                          timeout=120)


def main():
    source = sys.argv[1]
    checker = os.path.join(source, 'scripts', 'check-layers.py')
    failures = []
    with tempfile.TemporaryDirectory(prefix='nvt-layers-') as root:
        files = dict(FILES)
        files['src/view/bad_cluster_view.c'] = '#include "../cluster/node.h"\n'
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), 'w', encoding='utf-8') as f:
                f.write(text)
        result = run(checker, root)
        got = sorted(line.removeprefix('layer rule: ') for line in result.stderr.splitlines())
        if result.returncode != 1:
            failures.append(f'planted tree: exit {result.returncode}, expected 1')
        for line in sorted(set(EXPECTED) - set(got)):
            failures.append(f'not reported: {line}')
        for line in sorted(set(got) - set(EXPECTED)):
            failures.append(f'reported, not planted: {line}')
        # Without the planted files the same tree passes.
        for path in files:
            if '/bad_' in path:
                os.remove(os.path.join(root, path))
        result = run(checker, root)
        if result.returncode != 0 or result.stdout.strip() != 'layers: ok':
            failures.append(f'clean tree: exit {result.returncode}: {result.stderr.strip()}')
    result = run(checker, source)
    if result.returncode != 0:
        failures.append(f'the repository breaks the layer rules:\n{result.stderr}')
    for failure in failures:
        print(f'FAIL: {failure}', file=sys.stderr)
    if not failures:
        print('layers_test: ok')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
