#!/bin/sh
# Pack the Windows cross-build (make windows) into nvitop-<version>-windows-x86_64.zip in the
# build directory: the programs and nvitop.dll, the import library and headers, the manual pages
# as text, LICENSE and a README for Windows (docs/windows.md).
#   usage: scripts/windows-zip.sh BUILD_DIR
set -eu
build=${1:?usage: windows-zip.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^project(nvitop VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
name=nvitop-$version-windows-x86_64
stage=$build/zip/$name
rm -rf "$build/zip"
mkdir -p "$stage/lib" "$stage/include" "$stage/doc"
cp "$build/bin/nvitop.exe" "$build/bin/nvisel.exe" "$build/bin/nvitop.dll" "$stage/"
# The debugging information stays in the build tree.
x86_64-w64-mingw32-strip --strip-debug "$stage/nvitop.exe" "$stage/nvisel.exe" "$stage/nvitop.dll"
cp "$build/lib/libnvitop.dll.a" "$stage/lib/"
cp -r "$src/include/nvitop" "$stage/include/"
cp "$src/LICENSE" "$stage/LICENSE.txt"
cp "$src/dist/windows/README.txt" "$stage/README.txt"
# Manual pages as plain text with Windows line ends (scdoc, then man's formatter without
# highlighting).
for page in nvitop.1 nvisel.1; do
    scdoc < "$src/docs/man/$page.scd" > "$build/zip/$page"
    MANWIDTH=80 MAN_KEEP_FORMATTING=0 man -l -E UTF-8 "$build/zip/$page" 2>/dev/null | col -bx \
        | sed 's/$/\r/' > "$stage/doc/$page.txt"
done
(cd "$build/zip" && rm -f "../$name.zip" && zip -q -r -X "../$name.zip" "$name")
echo "$build/$name.zip"
