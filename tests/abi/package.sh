#!/bin/sh
# The installed library as a user's project finds it: `cmake --install` into a temporary prefix,
# then a small CMake project (tests/abi/consumer: C, C++ and static) configured with
# find_package(nvitop) against that prefix, built and run on the simulated driver; and the
# installed nvitop.pc names the prefix itself (no ${pcfiledir}/../.. paths).
#   usage: package.sh BUILD_DIR
set -eu
build=$1
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
failed=0
fail() {
    echo "package: $*" >&2
    failed=1
}

cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || {
    tail -n 20 "$work/install.log" >&2
    fail "cmake --install failed"
    exit 1
}
pc=$(find "$prefix" -name nvitop.pc)
[ -n "$pc" ] || fail "no nvitop.pc installed"
cflags=$(PKG_CONFIG_LIBDIR=$(dirname "$pc") pkg-config --cflags nvitop | sed "s/ *$//")
[ "$cflags" = "-I$prefix/include" ] || fail "pkg-config --cflags gives '$cflags', not -I$prefix/include"
grep -q '^prefix='"$prefix"'$' "$pc" || fail "nvitop.pc does not name the prefix: $(head -n 1 "$pc")"

# The documentation is installed with the library: libnvitop(3) and the API guide.
[ -f "$prefix/share/doc/nvitop/api.md" ] || fail "api.md is not installed in share/doc/nvitop"
if command -v scdoc >/dev/null 2>&1; then
    for page in libnvitop nvt_context nvt_device nvt_snapshot nvt_select_devices; do
        [ -f "$prefix/share/man/man3/$page.3" ] || fail "$page(3) is not installed"
    done
fi

cmake -S "$here/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="${NVT_SANITIZE_FLAGS:-}" \
    -DCMAKE_CXX_FLAGS="${NVT_SANITIZE_FLAGS:-}" >"$work/configure.log" 2>&1 || {
    cat "$work/configure.log" >&2
    fail "find_package(nvitop) does not configure against $prefix"
    exit 1
}
cmake --build "$work/consumer" >"$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    fail "the consumer project does not build"
    exit 1
}
export NVML_SIM_SCENARIO="$NVT_SOURCE_DIR/tests/lib/scenarios/examples-2gpu.json"
for program in consumer-c consumer-cxx consumer-static; do
    LD_LIBRARY_PATH="$prefix/lib:$(dirname "$pc")/..:${LD_LIBRARY_PATH:-}" \
        "$work/consumer/$program" >"$work/out" 2>&1 || fail "$program failed: $(cat "$work/out")"
    cat "$work/out"
done
[ "$failed" -eq 0 ] && echo "package: find_package(nvitop) and nvitop.pc work from $prefix"
exit "$failed"
