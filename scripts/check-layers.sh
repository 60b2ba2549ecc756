#!/bin/sh
# Enforce the layer rules of docs/architecture.md by looking at #include lines:
#   cmd/ -> tui/ -> view/, record/ -> <nvitop/*.h> -> src/lib (private) -> util/
#   only src/lib/nvml/ and sim/ include nvml_abi.h; only src/tui/term.c and term_screen.c include curses;
#   only src/lib/host/ names /proc; the library never uses the program-only x* allocators, and
#   reads clocks and resolves symbols with util/ (no private copies).
set -eu
cd "$(dirname "$0")/.."
fail=0
complain() {
    echo "layer rule: $*" >&2
    fail=1
}
check() { # pattern, allowed-path-regex, message, files...
    pattern=$1 allowed=$2 message=$3
    shift 3
    for f in "$@"; do
        [ -f "$f" ] || continue
        # Comment lines do not count: only code can break a layer.
        if grep -vE '^[[:space:]]*(\*|/\*|//)' "$f" | grep -qE "$pattern" &&
            ! echo "$f" | grep -qE "$allowed"; then
            complain "$f: $message"
        fi
    done
}
all=$(git ls-files '*.c' '*.h' 2>/dev/null)
# shellcheck disable=SC2086
check '#include .*nvml_abi\.h' '^(src/lib/nvml/|sim/|tests/abi/|tests/sim/|examples/nvml/|bench/sim/|bench/lib/)' 'only src/lib/nvml/, sim/ and raw-NVML examples, tests and benches may include nvml_abi.h' $all
# shellcheck disable=SC2086
check '#include <(n)?curses' '^src/tui/term(_screen)?\.c$' 'only src/tui/term.c and term_screen.c may include curses' $all
# shellcheck disable=SC2086
check '"/proc' '^(src/lib/host/|tests/|bench/|sim/|examples/nvml/)' 'only src/lib/host/ may name /proc' $all
lib=$(echo "$all" | grep -E '^(src/lib/|include/)' || true)
# shellcheck disable=SC2086
check '#include ".*(view|tui|cmd)/' '^$' 'the library must not include view/tui/cmd headers' $lib
# shellcheck disable=SC2086
check '\bx(malloc|calloc|realloc|strdup)\(' '^$' 'the library checks allocations itself (no x* wrappers)' $lib
# shellcheck disable=SC2086
check '\b(clock_gettime|dlsym)\(' '^$' 'the library reads clocks through util/sys/clock.h and resolves symbols through util/sys/dl.h' $lib
view=$(echo "$all" | grep -E '^src/view/' || true)
# shellcheck disable=SC2086
check '#include ".*(tui|cmd)/|#include "(\.\./)*lib/' '^$' 'view/ uses only the public API and util/' $view
record=$(echo "$all" | grep -E '^src/record/' || true)
# shellcheck disable=SC2086
check '#include ".*(view|tui|cmd)/|#include "(\.\./)*lib/' '^$' 'record/ uses only the public API and util/' $record
[ "$fail" -eq 0 ] && echo "layers: ok"
exit "$fail"
