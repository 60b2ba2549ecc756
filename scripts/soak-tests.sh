#!/bin/sh
# Run the whole ctest suite of a build N times with two CPU-bound processes beside it (a loaded
# machine, where timing flakes show), and print how often each test failed.
#   usage: scripts/soak-tests.sh N [BUILD_DIR] [JOBS]
# SOAK_LOGS=DIR keeps the ctest log of each failed run there (with the failed tests' output).
# Exit status 0 when every run passed, 1 otherwise.  The burners are stopped on any exit.
set -eu
runs=${1:?usage: soak-tests.sh N [BUILD_DIR] [JOBS]}
build=${2:-build}
jobs=${3:-2}
case $runs in '' | *[!0-9]*) echo "soak-tests: N must be a whole number" >&2; exit 2 ;; esac
[ -f "$build/CTestTestfile.cmake" ] || { echo "soak-tests: $build is not a configured build" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-soak.XXXXXX")
burners=""
cleanup() {
    for pid in $burners; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
for _ in 1 2; do
    sh -c 'while :; do :; done' &
    burners="$burners $!"
done
: >"$work/failed"
# Which tree the runs test, for the record (a soak is of one commit).
commit=$(git -C "$(dirname "$0")/.." describe --always --dirty 2>/dev/null || echo unknown)
echo "soak-tests: $runs run(s) of $build (source $commit), ctest -j $jobs," \
    "two CPU-bound processes beside"
i=1
while [ "$i" -le "$runs" ]; do
    start=$(date +%s)
    if (cd "$build" && ctest -j "$jobs" --output-on-failure >"$work/run-$i.log" 2>&1); then
        echo "soak-tests: run $i/$runs passed ($(($(date +%s) - start)) s)"
    else
        grep -E '^[[:space:]]+[0-9]+ - ' "$work/run-$i.log" | sed -e 's/^[[:space:]]*[0-9]* - //' \
            -e 's/ (.*//' >"$work/failed-$i"
        cat "$work/failed-$i" >>"$work/failed"
        if [ -n "${SOAK_LOGS:-}" ] && mkdir -p "$SOAK_LOGS"; then
            cp "$work/run-$i.log" "$SOAK_LOGS/run-$i.log"
        fi
        echo "soak-tests: run $i/$runs failed ($(($(date +%s) - start)) s):" \
            "$(tr '\n' ' ' <"$work/failed-$i")"
    fi
    i=$((i + 1))
done
echo "soak-tests: failures per test over $runs run(s), two CPU-bound processes beside:"
if [ -s "$work/failed" ]; then
    sort "$work/failed" | uniq -c | sort -rn
    exit 1
fi
echo "      0 (every run passed)"
