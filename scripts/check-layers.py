#!/usr/bin/env python3
"""Enforce the layer rules of docs/architecture.md on every #include of src/ and include/.

Each include is resolved as the compiler does for this project: the including file's own folder
first, then the include directories the build gives (src/, include/, src/lib/); an angle include
of <nvitop/...> is the public API.  The folder of the including file and of the included one
each map to a layer (LAYERS, longest prefix wins), and the edge must be in ALLOWED.  Sub-folders
of a layer may include each other.  A few narrower rules follow the table (RULES).

usage: check-layers.py [ROOT]   (ROOT: the tree to check, by default this repository; the files
                                 are git's tracked ones where ROOT is a git work tree)
Prints "layers: ok" and exits 0, or one line per broken rule and exits 1.
"""
import os
import re
import subprocess
import sys

# Folder prefix -> layer.  The longest matching prefix wins; files outside every prefix (tests,
# benches, examples, the simulator) are not layered, except by RULES.
LAYERS = {
    'src/util/': 'util',
    'include/nvitop/': 'api',
    'src/lib/': 'lib',
    'src/view/': 'view',
    'src/record/': 'record',
    'src/cluster/': 'cluster',
    'src/settings/': 'settings',
    'src/tui/': 'tui',
    'src/cmd/': 'cmd',
}

# Layer -> the layers it may include (besides itself).  Lower layers never include higher ones:
#   util <- api <- lib;  api, util <- view, record, cluster;  view <- settings;
#   view, record, cluster, settings <- tui <- cmd.
ALLOWED = {
    'util': set(),
    'api': set(),
    'lib': {'api', 'util'},
    'view': {'api', 'util'},
    'record': {'api', 'util'},
    'cluster': {'api', 'util'},
    'settings': {'view', 'api', 'util'},
    'tui': {'view', 'record', 'cluster', 'settings', 'api', 'util'},
    'cmd': {'tui', 'view', 'record', 'cluster', 'settings', 'api', 'util'},
}

INCLUDE_DIRS = ('src', 'include', 'src/lib')

# (what a code line matches, the path prefixes allowed to, the message), for every tracked C file.
RULES = (
    (r'#\s*include\s+.*nvml_abi\.h',
     ('src/lib/nvml/', 'sim/', 'tests/abi/', 'tests/sim/', 'tests/support/', 'examples/nvml/',
      'bench/sim/',
      'bench/lib/'),
     'only src/lib/nvml/, sim/ and raw-NVML examples, tests and benches may include nvml_abi.h'),
    (r'#\s*include\s+<n?curses', ('src/tui/term.c', 'src/tui/term_screen.c'),
     'only src/tui/term.c and term_screen.c may include curses'),
    (r'"/proc', ('src/lib/host/', 'tests/', 'bench/', 'sim/', 'examples/nvml/'),
     'only src/lib/host/ may name /proc'),
)
# The same, for the library (src/lib/ and include/) only.
LIBRARY_RULES = (
    (r'\bx(malloc|calloc|realloc|strdup)\(',
     'the library checks allocations itself (no x* wrappers)'),
    (r'\b(clock_gettime|dlsym)\(',
     'the library reads clocks through util/sys/clock.h and resolves symbols through '
     'util/sys/dl.h'),
)

INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]')
COMMENT = re.compile(r'^\s*(\*|/\*|//)')


def tracked_files(root):
    if os.path.isdir(os.path.join(root, '.git')) or os.path.isfile(os.path.join(root, '.git')):
        out = subprocess.run(['git', '-C', root, 'ls-files', '*.c', '*.h'], check=True,
                             capture_output=True, text=True).stdout
        return [f for f in out.splitlines() if os.path.isfile(os.path.join(root, f))]
    found = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(('.c', '.h')):
                found.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(found)


def layer_of(path):
    best = None
    for prefix, layer in LAYERS.items():
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, layer)
    return best[1] if best else None


def resolve(path, kind, name, files):
    if kind == '<':
        return 'include/' + name if name.startswith('nvitop/') else None
    for base in (os.path.dirname(path),) + INCLUDE_DIRS:
        candidate = os.path.normpath(os.path.join(base, name))
        if candidate in files:
            return candidate
    return None


def check(root):
    files = tracked_files(root)
    known = set(files)
    problems = []
    for path in files:
        with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
            lines = [line for line in f if not COMMENT.match(line)]
        source = layer_of(path)
        for line in lines:
            for pattern, allowed, message in RULES:
                if re.search(pattern, line) and not path.startswith(allowed):
                    problems.append(f'{path}: {message}')
            if path.startswith(('src/lib/', 'include/')):
                for pattern, message in LIBRARY_RULES:
                    if re.search(pattern, line):
                        problems.append(f'{path}: {message}')
            match = INCLUDE.match(line)
            if source is None or match is None:
                continue
            target = resolve(path, match.group(1), match.group(2), known)
            if target is None:
                continue  # a system header
            target_layer = layer_of(target)
            if target_layer is None or target_layer == source:
                if target_layer is None and not target.startswith('src/'):
                    problems.append(f'{path}: includes {target}, outside the layered source')
                continue
            if target_layer not in ALLOWED[source]:
                problems.append(f'{path}: {source}/ may not include {target_layer}/ ({target})')
    return sorted(set(problems))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    problems = check(os.path.abspath(root))
    for problem in problems:
        print(f'layer rule: {problem}', file=sys.stderr)
    if problems:
        return 1
    print('layers: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
