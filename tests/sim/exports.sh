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
