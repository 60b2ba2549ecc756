#!/bin/sh
# Show wine's console damage to virtual-terminal output on a Unix terminal, with the smallest
# program that draws as the monitor does (tests/windows/vt_rows.c), in a tmux window of COLSxROWS
# (default 120x40): the rows tmux shows, then where the byte stream wine's console sent to the
# terminal has line breaks that vt_rows.exe never wrote (docs/windows.md, "The monitor").
#
#   scripts/wine-vt-repro.sh [BUILD_DIR [COLS ROWS]]   (BUILD_DIR: the Windows build, with tests/)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build-windows}" && pwd)
cols=${2:-120}
rows=${3:-40}
program=$build/tests/vt_rows.exe
for tool in tmux wine; do
    command -v "$tool" >/dev/null 2>&1 || { echo "wine-vt-repro.sh: $tool is not installed" >&2; exit 2; }
done
[ -f "$program" ] || { echo "wine-vt-repro.sh: no $program (make windows)" >&2; exit 2; }
export WINEPREFIX=${WINEPREFIX:-$build/wine-prefix}
export WINEDEBUG=-all WINEDLLOVERRIDES=mscoree,mshtml=
dir=$(mktemp -d "${TMPDIR:-/tmp}/nvt-vt-repro.XXXXXX")
socket=nvt-vt-repro-$$
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$dir"' EXIT
tmux -L "$socket" -f /dev/null new-session -d -x "$cols" -y "$rows" "sleep 1; wine '$program' 0 20"
tmux -L "$socket" pipe-pane -o "cat >'$dir/stream'"
tries=0
while ! tmux -L "$socket" capture-pane -p | grep -q '^window '; do
    tries=$((tries + 1))
    [ "$tries" -le 300 ] || { echo "wine-vt-repro.sh: vt_rows.exe drew nothing" >&2; exit 1; }
    sleep 0.1
done
sleep 1
echo "== what tmux shows (each row should be NN and '=' up to column $cols)"
tmux -L "$socket" capture-pane -p
echo "== line breaks in the stream wine's console wrote (vt_rows.exe wrote none)"
python3 - "$dir/stream" "$cols" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
cols = int(sys.argv[2])
start = data.find(b'\x1b[?1049h')
pieces = data[start:].split(b'\r\n')
print(f'{len(pieces) - 1} breaks; the bytes between them, escape sequences counted:')
print(' '.join(str(len(p.replace(b'\r', b''))) for p in pieces[:12]), '...')
print(f'(wine counts every byte of an escape sequence as a cell and wraps after {cols})')
PY
