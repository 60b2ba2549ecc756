#!/bin/sh
# scripts/standins.sh keeps its state in a directory of the user's own when NVT_STANDIN_STATE is
# not set: $XDG_RUNTIME_DIR/nvitop-standins, or ${TMPDIR:-/tmp}/nvitop-standins-<uid> with mode
# 0700, and refuses one that is a symbolic link or belongs to someone else.
set -eu
: "${NVT_SOURCE_DIR:?run through ctest}"
standins="$NVT_SOURCE_DIR/scripts/standins.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-standins-state.XXXXXX")
unset NVT_STANDIN_STATE
cleanup() {
    XDG_RUNTIME_DIR=$work/xdg sh "$standins" stop >/dev/null 2>&1 || true
    (unset XDG_RUNTIME_DIR && TMPDIR=$work/tmp sh "$standins" stop) >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail() {
    echo "standins_state: $*" >&2
    exit 1
}
mkdir -m 700 "$work/xdg" "$work/tmp"

# 1. $XDG_RUNTIME_DIR when set.
XDG_RUNTIME_DIR=$work/xdg sh "$standins" start 1 >/dev/null
[ -f "$work/xdg/nvitop-standins/standins" ] || fail "no state in \$XDG_RUNTIME_DIR/nvitop-standins"
[ "$(XDG_RUNTIME_DIR=$work/xdg sh "$standins" list | wc -l)" -eq 1 ] || fail "list under XDG"
XDG_RUNTIME_DIR=$work/xdg sh "$standins" stop
[ ! -f "$work/xdg/nvitop-standins/standins" ] || fail "stop left the record"

# 2. Without it, a per-user directory under TMPDIR, mode 0700.
unset XDG_RUNTIME_DIR
dir=$work/tmp/nvitop-standins-$(id -u)
TMPDIR=$work/tmp sh "$standins" start 1 >/dev/null
[ -f "$dir/standins" ] || fail "no state in $dir"
[ "$(stat -c %a "$dir")" = 700 ] || fail "$dir has mode $(stat -c %a "$dir"), not 700"
TMPDIR=$work/tmp sh "$standins" stop

# 3. Someone else's directory, or a symbolic link, at that place is refused with a message.
if [ "$(id -u)" -eq 0 ]; then
    chown nobody "$dir"
    if TMPDIR=$work/tmp sh "$standins" start 1 >"$work/out" 2>"$work/err"; then
        fail "started in a directory owned by nobody"
    fi
    grep -q "is not a directory of your own" "$work/err" || fail "message: $(cat "$work/err")"
    [ ! -s "$work/out" ] || fail "printed exports despite refusing"
    chown 0 "$dir"
fi
rm -rf "$dir"
mkdir "$work/elsewhere"
ln -s "$work/elsewhere" "$dir"
if TMPDIR=$work/tmp sh "$standins" start 1 >/dev/null 2>"$work/err"; then
    fail "started through a symbolic link"
fi
grep -q "is not a directory of your own" "$work/err" || fail "message: $(cat "$work/err")"
[ -z "$(ls "$work/elsewhere")" ] || fail "wrote through the symbolic link"
echo "standins_state: ok"
