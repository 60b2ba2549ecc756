#!/bin/sh
# Every function libnvitop.so exports is described in a section-3 manual page
# (docs/man/*.3.scd, a *nvt_name*(...) line), every page is listed in libnvitop(3), and scdoc
# accepts each page.
#   usage: manpages.sh MAN_DIR SHARED_LIBRARY
set -eu
man=$1 shared=$2
failed=0
for page in "$man"/*.3.scd; do
    name=$(basename "$page" .3.scd)
    if [ "$name" != libnvitop ] && ! grep -q "\*$name\*(3)" "$man/libnvitop.3.scd"; then
        echo "manpages: libnvitop(3) does not list $name(3)" >&2
        failed=1
    fi
    if command -v scdoc >/dev/null 2>&1 && ! scdoc <"$page" >/dev/null; then
        echo "manpages: scdoc rejects $page" >&2
        failed=1
    fi
done
for function in $(nm -D --defined-only "$shared" | awk 'NF >= 3 && $2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u); do
    if ! cat "$man"/*.3.scd | grep -q "\*$function\*("; then
        echo "manpages: $function has no section-3 page (a line '*$function*(...' in docs/man/*.3.scd)" >&2
        failed=1
    fi
done
[ "$failed" -eq 0 ] && echo "manpages: every exported function has its section-3 page"
exit "$failed"
