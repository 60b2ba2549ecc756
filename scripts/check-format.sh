#!/bin/sh
# Check (or with --fix, apply) clang-format on every tracked C file.
set -eu
cd "$(dirname "$0")/.."
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build*')
[ -n "$files" ] || exit 0
if [ "${1:-}" = "--fix" ]; then
    # shellcheck disable=SC2086
    clang-format -i $files
    exit 0
fi
bad=0
for f in $files; do
    if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "not clang-formatted: $f" >&2
        bad=1
    fi
done
[ "$bad" -eq 0 ] && echo "format: ok"
exit "$bad"
