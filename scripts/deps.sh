#!/bin/sh
# Install the Debian packages listed in scripts/debian-packages.txt (or in the list named as the
# argument) that are not installed yet.  Run as root on Debian 12.  Does nothing (and needs no
# network) when all are present.
#   usage: scripts/deps.sh [LIST]
set -eu
list=${1:-"$(dirname "$0")/debian-packages.txt"}
missing=""
for pkg in $(grep -v '^#' "$list"); do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $pkg"
    fi
done
if [ -z "$missing" ]; then
    exit 0
fi
echo "deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
    echo "deps: these packages are missing and installing them needs root:$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
