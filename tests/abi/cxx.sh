#!/bin/sh
# libnvitop from C++: every public header compiles on its own in a C++ translation unit
# (g++ -Wall -Wextra -pedantic -Werror, C++11 and C++20), and a C++ program that takes the address
# of every exported function links against the library (the headers' extern "C" guards; without
# them the linker looks for mangled names such as nvt_open(nvt_options const*, nvt_context**)).
#   usage: cxx.sh INCLUDE_DIR SHARED_LIBRARY    ($CXX picks the compiler, default g++)
set -eu
include=$1 shared=$2
cxx=${CXX:-g++}
if ! command -v "$cxx" >/dev/null 2>&1; then
    echo "cxx: no C++ compiler '$cxx' (install g++, Debian's build-essential)" >&2
    exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-cxx.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
flags="-Wall -Wextra -pedantic -Werror -I$include ${NVT_SANITIZE_FLAGS:-}"

for std in c++11 c++20; do
    for header in "$include"/nvitop/*.h; do
        name=$(basename "$header")
        printf '#include <nvitop/%s>\nint main() { return 0; }\n' "$name" >"$work/one.cpp"
        if ! $cxx -std=$std $flags -c -o "$work/one.o" "$work/one.cpp" 2>"$work/err"; then
            echo "cxx: <nvitop/$name> does not compile as $std:" >&2
            sed 's/^/    /' "$work/err" >&2
            failed=1
        fi
    done

    # Every exported function, referenced from C++ through the umbrella header.
    nm -D --defined-only "$shared" | awk 'NF >= 3 && $2 == "T" { sub(/@.*/, "", $3); print $3 }' |
        sort -u >"$work/functions"
    {
        echo '#include <nvitop/nvitop.h>'
        echo '#include <cstdio>'
        echo 'typedef void (*any_function)();'
        echo 'static const any_function functions[] = {'
        sed 's/.*/    reinterpret_cast<any_function>(\&&),/' "$work/functions"
        echo '};'
        echo 'int main() {'
        printf '    std::printf("%%u functions, library %%s\\n",\n'
        echo '                static_cast<unsigned>(sizeof functions / sizeof functions[0]),'
        echo '                nvt_version_string());'
        echo '    return 0;'
        echo '}'
    } >"$work/all.cpp"
    if ! $cxx -std=$std $flags -o "$work/all" "$work/all.cpp" "$shared" 2>"$work/err"; then
        echo "cxx: a C++ program using every function does not link ($std):" >&2
        sed 's/^/    /' "$work/err" | head -n 20 >&2
        failed=1
    elif ! LD_LIBRARY_PATH="$(dirname "$shared")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$work/all" >"$work/out"; then
        echo "cxx: the C++ program ($std) did not run" >&2
        failed=1
    else
        echo "cxx ($std): $(cat "$work/out")"
    fi
done
[ "$failed" -eq 0 ] && echo "cxx: every public header compiles and links as C++11 and C++20"
exit "$failed"
