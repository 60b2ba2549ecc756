#!/bin/sh
# Run every libFuzzer target of a fuzz build for a few seconds each, seeded from
# tests/fuzz/corpus/<target>/ when that exists.  Fails if any fuzzer finds a crash.
#   usage: scripts/run-fuzzers.sh BUILD_DIR SECONDS
set -eu
build=${1:-build-fuzz}
seconds=${2:-20}
here=$(cd "$(dirname "$0")/.." && pwd)
found=0
for fuzzer in "$build"/bin/fuzz_*; do
    [ -x "$fuzzer" ] || continue
    found=1
    name=$(basename "$fuzzer")
    work=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
    seeds="$here/tests/fuzz/corpus/$name"
    [ -d "$seeds" ] || seeds=""
    echo "fuzz: $name for ${seconds}s"
    # shellcheck disable=SC2086
    # -timeout: one input running longer than 10 s is a hang, reported as a failure with its
    # input saved (libFuzzer checks -max_total_time only between inputs).
    if ! "$fuzzer" -max_total_time="$seconds" -timeout=10 -print_final_stats=0 \
        -artifact_prefix="$work/" "$work" $seeds >"$work/log" 2>&1; then
        tail -n 40 "$work/log" >&2
        echo "fuzz: $name failed; artifacts in $work" >&2
        exit 1
    fi
    rm -rf "$work"
done
[ "$found" -eq 1 ] || echo "fuzz: no fuzz targets built"
