#!/bin/sh
# Builds the Debian packages (debian/) with dpkg-buildpackage, in a copy of the source tree under
# OUT_DIR, so that nothing is written to the checkout (dpkg-buildpackage writes its results
# beside the tree it builds, and debhelper writes into debian/).  The .deb files end up in
# OUT_DIR.
#   usage: scripts/build-deb.sh OUT_DIR
set -eu
out=${1:?usage: scripts/build-deb.sh OUT_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
version=$(dpkg-parsechangelog -l "$here/debian/changelog" -S Version)
upstream=$(sed -n 's/^project(nvitop VERSION \([0-9.]*\).*/\1/p' "$here/CMakeLists.txt")
if [ "$version" != "$upstream" ]; then
    echo "build-deb: debian/changelog says $version, CMakeLists.txt says $upstream;" \
        "add a changelog entry (dch -v $upstream)" >&2
    exit 1
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
src="$out/nvitop-$version"
rm -rf "$src" "$out"/*.deb "$out"/*.ddeb "$out"/*.changes "$out"/*.buildinfo
mkdir -p "$src"
# The files of the checkout (tracked ones and new ones not ignored), without build trees.
if git -C "$here" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$here" && git ls-files -z --cached --others --exclude-standard) |
        (cd "$here" && xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$src"
else
    (cd "$here" && tar -cf - --exclude='./build*' --exclude='./.git' .) | tar -xf - -C "$src"
fi
(cd "$src" && dpkg-buildpackage -b -us -uc -j"${JOBS:-2}")
ls "$out"/*.deb
