#!/bin/sh
# The Debian packages' test (`make package-test`, part of `make check`):
#   1. lintian finds no error or warning in them;
#   2. libnvitop-dev, unpacked on its own, builds an example with `pkg-config nvitop`, which
#      then runs against the unpacked libnvitop0 and simulator with the expected output;
#   3. on a pristine Debian 12 (a debootstrap chroot), the README's `apt install ./build/deb/...`
#      line and apt-get install libnvitop-dev install all four, the simulated driver is not on the linker's path, the pages and completions are
#      there, and `nvitop-sim ... nvitop -1` prints the golden report of the same case.
# The chroot is made once and cached as a tarball in $NVT_CHROOT_CACHE (default
# /var/cache/nvitop-tests), outside the clone; every run unpacks a fresh copy and removes it
# again, with its /proc mount, however the test ends.  Needs root, and Debian's archive the first
# time (debootstrap) and for the packages' dependencies.
#   usage: tests/package/deb_test.sh DEB_DIR
set -eu
debs=${1:?usage: tests/package/deb_test.sh DEB_DIR}
debs=$(cd "$debs" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
cache=${NVT_CHROOT_CACHE:-/var/cache/nvitop-tests}
mirror=${NVT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
tarball=$cache/debian12-minbase.tar.gz
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

fail() {
    echo "package test: $*" >&2
    exit 1
}
[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot, mount)"

deb() {
    set -- "$debs/$1"_*_"$arch".deb
    [ -f "$1" ] || fail "no $1 (run make deb first)"
    echo "$1"
}
nvitop_deb=$(deb nvitop)
lib_deb=$(deb libnvitop0)
dev_deb=$(deb libnvitop-dev)
sim_deb=$(deb nvitop-sim)

work=$(mktemp -d /var/tmp/nvitop-package-test.XXXXXX)
root=$work/root
cleanup() {
    status=$?
    # Never remove the tree while something is still mounted in it.
    if mountpoint -q "$root/proc" 2>/dev/null; then
        umount "$root/proc" || umount -l "$root/proc" || true
    fi
    if mountpoint -q "$root/proc" 2>/dev/null; then
        echo "package test: $root/proc is still mounted; left $work in place" >&2
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1. lintian, on the .changes file (the packages and the build information).
echo "package test: lintian"
lintian --fail-on error,warning --tag-display-limit 0 "$debs"/*.changes ||
    fail "lintian reports errors or warnings (above)"

# 2. The -dev package on its own: pkg-config, headers, the .so link, the shared library.
echo "package test: libnvitop-dev builds an example"
for file in "$lib_deb" "$dev_deb" "$sim_deb"; do
    dpkg-deb -x "$file" "$work/unpacked"
done
libdir=$work/unpacked/usr/lib/$multiarch
# nvitop.pc names its installed prefix (/usr); the unpacked tree stands in for it here.
flags=$(PKG_CONFIG_LIBDIR=$libdir/pkgconfig pkg-config --define-variable=prefix="$work/unpacked/usr" \
    --cflags --libs nvitop) ||
    fail "pkg-config does not find nvitop.pc in libnvitop-dev"
# shellcheck disable=SC2086
cc -o "$work/example-monitor" "$here/examples/lib/monitor.c" $flags ||
    fail "examples/lib/monitor.c does not build against libnvitop-dev"
{
    status=0
    LD_LIBRARY_PATH=$libdir:$libdir/nvitop-sim NVML_SIM_TIME=100 \
        NVML_SIM_SCENARIO=$here/tests/lib/scenarios/examples-2gpu.json \
        "$work/example-monitor" 2>&1 || status=$?
    echo "exit $status"
} >"$work/example.out"
diff -u "$here/tests/lib/expected/monitor-2gpu.out" "$work/example.out" ||
    fail "the example built against libnvitop-dev prints something else"

# 3. A pristine Debian 12.
if [ ! -f "$tarball" ]; then
    echo "package test: making a Debian 12 chroot (once; cached in $tarball)"
    mkdir -p "$cache"
    debootstrap --variant=minbase bookworm "$work/boot" "$mirror" >"$work/debootstrap.log" 2>&1 || {
        tail -n 20 "$work/debootstrap.log" >&2
        fail "debootstrap could not make a Debian 12 chroot from $mirror (no network?" \
            "set NVT_DEBIAN_MIRROR to a reachable mirror); see the log above"
    }
    cp /etc/resolv.conf "$work/boot/etc/resolv.conf"
    chroot "$work/boot" apt-get update -qq || fail "apt-get update fails in the new chroot"
    chroot "$work/boot" apt-get clean
    tar -C "$work/boot" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$work/boot"
fi
mkdir "$root"
tar -C "$root" -xzf "$tarball" || fail "cannot unpack $tarball (remove it to make a new one)"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mkdir -p "$root/src/build/deb"
cp "$nvitop_deb" "$lib_deb" "$dev_deb" "$sim_deb" "$root/src/build/deb/"
chmod 644 "$root"/src/build/deb/*.deb

in_root() {
    chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
}
# The README's own line, run as written from a checkout's top directory, then the -dev package.
readme_line=$(grep '^apt install \./build/deb/' "$here/README.md") ||
    fail "README.md has no 'apt install ./build/deb/...' line"
install_debs() {
    in_root sh -c "cd /src && DEBIAN_FRONTEND=noninteractive $readme_line -y -q \
        --no-install-recommends && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends ./build/deb/${dev_deb##*/}" >"$work/apt.log" 2>&1
}
echo "package test: $readme_line (and libnvitop-dev) on Debian 12"
# The cached package lists may be out of date: refresh them once if the install fails.
if ! install_debs; then
    in_root apt-get update -qq || fail "apt-get update fails in the chroot (no network?)"
    install_debs || {
        cat "$work/apt.log" >&2
        fail "apt cannot install the packages on Debian 12"
    }
fi

for file in /usr/bin/nvitop /usr/bin/nvisel /usr/bin/nvitop-sim \
    /usr/share/man/man1/nvitop.1.gz /usr/share/man/man1/nvisel.1.gz \
    /usr/share/man/man1/nvitop-sim.1.gz /usr/share/bash-completion/completions/nvitop \
    /usr/share/bash-completion/completions/nvisel "/usr/lib/$multiarch/libnvitop.so.0" \
    "/usr/lib/$multiarch/nvitop-sim/libnvidia-ml.so.1" \
    /usr/share/nvitop-sim/scenarios/h100-8gpu.json; do
    [ -e "$root$file" ] || fail "$file is not installed"
done
# The system-wide settings file is a conffile (an admin's edits survive upgrades); the golden
# report below is printed with it in place, so it changes nothing as shipped.
grep -qx /etc/nvitop/nvitop.conf "$root/var/lib/dpkg/info/nvitop.conffiles" ||
    fail "/etc/nvitop/nvitop.conf is not a conffile of the nvitop package"
# The simulated driver must not be found by anything that looks for NVIDIA's.
if in_root ldconfig -p | grep -q libnvidia-ml; then
    fail "the simulated libnvidia-ml.so.1 is on the linker's default path"
fi
if in_root nvitop -1 >"$work/bare.out" 2>&1; then
    fail "nvitop -1 found an NVML library without nvitop-sim"
fi

echo "package test: nvitop -1 on the simulator, from the installed files"
status=0
in_root NVML_SIM_TIME=1000 COLUMNS=79 nvitop-sim -s workstation-2gpu nvitop -1 \
    >"$work/once.raw" 2>"$work/once.err" || status=$?
python3 "$here/tests/golden/normalize.py" <"$work/once.raw" >"$work/once.out"
diff -u "$here/tests/golden/expected/workstation-79.out" "$work/once.out" ||
    fail "nvitop -1 from the packages differs from tests/golden/expected/workstation-79.out"
diff -u "$here/tests/golden/expected/workstation-79.err" "$work/once.err" ||
    fail "nvitop -1 from the packages writes something else on stderr"
[ "$status" -eq "$(cat "$here/tests/golden/expected/workstation-79.rc")" ] ||
    fail "nvitop -1 from the packages exits with $status"
echo "package test: nvitop-sim's scenarios, stand-in jobs and errors"
in_root nvitop-sim -l >"$work/list.out"
[ "$(wc -l <"$work/list.out")" -eq "$(ls "$here"/sim/scenarios/*.json | wc -l)" ] ||
    fail "nvitop-sim -l lists $(tr '\n' ' ' <"$work/list.out")"
if in_root nvitop-sim -s no-such-scenario nvitop -1 >/dev/null 2>"$work/bad.err"; then
    fail "nvitop-sim accepted an unknown scenario"
fi
grep -q "no scenario 'no-such-scenario'" "$work/bad.err" || fail "message: $(cat "$work/bad.err")"
# Two stand-in jobs (perl: the chroot has no python3) appear with their command lines, and
# nothing is left running in the chroot afterwards.
in_root NVML_SIM_TIME=1000 COLUMNS=200 nvitop-sim -j 2 -s workstation-2gpu nvitop -1 \
    >"$work/jobs.out" 2>&1 || fail "nvitop-sim -j 2 failed: $(cat "$work/jobs.out")"
grep -q "finetune.pl --model llama-7b" "$work/jobs.out" ||
    fail "the stand-in jobs do not show: $(cat "$work/jobs.out")"
for proc in /proc/[0-9]*; do
    if [ "$(readlink "$proc/root" 2>/dev/null || true)" = "$root" ]; then
        fail "a process is left running in the chroot: $(tr '\0' ' ' <"$proc/cmdline")"
    fi
done
echo "package test: passed"
