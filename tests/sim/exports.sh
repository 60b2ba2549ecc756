#!/bin/sh
# The main simulated driver exports exactly the NVML entry points of src/lib/nvml/nvml_abi.h plus
# nvmlErrorString: nothing is missing and nothing internal leaks.
set -eu
: "${NVT_SOURCE_DIR:?run through ctest}" "${NVT_BINARY_DIR:?run through ctest}"
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-exports.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
{
    sed -n 's/.*X(\(nvml[A-Za-z0-9_]*\),.*/\1/p' "$NVT_SOURCE_DIR/src/lib/nvml/nvml_abi.h"
    echo nvmlErrorString
} | sort >"$work/expected"
nm -D --defined-only "$NVT_BINARY_DIR/sim-driver/libnvidia-ml.so.1" | awk '{print $3}' |
    sort >"$work/actual"
diff -u "$work/expected" "$work/actual"
[ "$(wc -l <"$work/expected")" -gt 70 ]
echo "exports: $(wc -l <"$work/actual") entry points"
# sim/exports.txt is the one table of exported names: the same names, and docs/scenarios.md
# prints each with its branch.
grep '^nvml' "$NVT_SOURCE_DIR/sim/exports.txt" | awk '{print $1}' | sort >"$work/table"
diff -u "$work/expected" "$work/table"
grep '^nvml' "$NVT_SOURCE_DIR/sim/exports.txt" | while read -r name branch; do
    grep -qF "| \`$name\` | $branch |" "$NVT_SOURCE_DIR/docs/scenarios.md" ||
        { echo "docs/scenarios.md lacks the row of $name ($branch)"; exit 1; }
done
# The legacy build models R418: every R418 name, and nothing from R460 on.
nm -D --defined-only "$NVT_BINARY_DIR/sim-driver-legacy/libnvidia-ml.so.1" | awk '{print $3}' |
    sort >"$work/legacy"
grep -E '^nvml[A-Za-z0-9_]+ +R418$' "$NVT_SOURCE_DIR/sim/exports.txt" | awk '{print $1}' |
    sort | comm -23 - "$work/legacy" >"$work/missing"
[ ! -s "$work/missing" ] || { echo "legacy build lacks:"; cat "$work/missing"; exit 1; }
grep -E '^nvml[A-Za-z0-9_]+ +R(4[6-9]|5)[0-9]+$' "$NVT_SOURCE_DIR/sim/exports.txt" |
    awk '{print $1}' | sort | comm -12 - "$work/legacy" >"$work/extra"
[ ! -s "$work/extra" ] || { echo "legacy build exports later names:"; cat "$work/extra"; exit 1; }
# Every name in the table is a real entry point: the driver read on real hardware (driver
# 580.159.04, docs/hardware.md) exports each of them.
LC_ALL=C sort "$NVT_SOURCE_DIR/tests/sim/expected/real-580.159.04-exports.txt" >"$work/real"
LC_ALL=C sort "$work/table" | LC_ALL=C comm -23 - "$work/real" >"$work/unreal"
[ ! -s "$work/unreal" ] || { echo "not exported by a real driver:"; cat "$work/unreal"; exit 1; }
