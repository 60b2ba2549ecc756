#!/bin/sh
# The exported symbols of libnvitop.so and libnvitop.a must be exactly the functions the public
# headers declare with NVT_API (a new function declared in a header is expected automatically),
# every public prototype must carry NVT_API, public headers define no function-like macro, and
# the shared library has the SONAME and symbol version of its major version, and every exported
# function's comment says which thread may call it.
#   usage: symbols.sh INCLUDE_DIR SHARED_LIBRARY STATIC_LIBRARY MAJOR [OLD_INCLUDE_DIR]
set -eu
include=$1 shared=$2 static=$3 major=$4 old_include=${5:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/nvt-abi.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
fail() {
    echo "abi: $*" >&2
    failed=1
}

# Declarations of the headers: comments, preprocessor lines, the C++ guards (extern "C" { and its
# brace) and everything inside braces (struct bodies, inline function bodies) removed, then one
# statement per line.
for header in "$include"/nvitop/*.h; do
    awk '/^#ifdef __cplusplus/ { skip = 1 } skip { if (/^#endif/) skip = 0; next }
         !/^[[:space:]]*#/' "$header" | awk '
        { text = text $0 " " }
        END {
            out = ""
            while ((start = index(text, "/*")) > 0) {
                rest = substr(text, start + 2)
                stop = index(rest, "*/")
                out = out substr(text, 1, start - 1) " "
                text = stop > 0 ? substr(rest, stop + 2) : ""
            }
            text = out text
            depth = 0
            out = ""
            for (i = 1; i <= length(text); i++) {
                c = substr(text, i, 1)
                if (c == "{") {
                    depth++
                } else if (c == "}") {
                    if (--depth == 0) {
                        out = out ";"
                    }
                } else if (depth == 0) {
                    out = out c
                }
            }
            print out
        }' | tr ';' '\n' >>"$work/statements"
    # Function-like macros: "#define NAME(" with no space before the parenthesis.
    if grep -n '^[[:space:]]*#[[:space:]]*define[[:space:]][[:space:]]*[A-Za-z_][A-Za-z0-9_]*(' \
        "$header" >"$work/macros"; then
        fail "function-like macro in public header $(basename "$header"): $(cat "$work/macros")"
    fi
done

# Every exported function says which thread may call it (docs/api.md, "Ownership and threads"):
# the comment right before each NVT_API declaration must mention threads.
for header in "$include"/nvitop/*.h; do
    awk -v file="$(basename "$header")" '
        /\/\*/ { comment = ""; in_comment = 1 }
        in_comment { comment = comment $0 "\n" }
        /\*\// { in_comment = 0; since = 0; next }
        !in_comment && /^NVT_API/ {
            if (comment !~ /[Tt]hread/ || since > 0) {
                match($0, /nvt_[A-Za-z0-9_]*\(/)
                print file ": " substr($0, RSTART, RLENGTH - 1)
            }
            comment = ""
        }
        !in_comment && /;[[:space:]]*$/ { since++ }
    ' "$header" >>"$work/undocumented"
done
if [ -s "$work/undocumented" ]; then
    fail "public functions whose comment does not say which thread may call them:"
    sed 's/^/    /' "$work/undocumented" >&2
fi

# Function prototypes: a statement with an identifier directly followed by '(' that is not a
# typedef, an inline definition or an initialiser.
grep -E '[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(' "$work/statements" |
    grep -v -E '(^|[[:space:]])(typedef|static|return)[[:space:]]' >"$work/prototypes" || true
grep -v -E '(^|[[:space:]])NVT_API[[:space:]]' "$work/prototypes" >"$work/unmarked" || true
if [ -s "$work/unmarked" ]; then
    fail "public prototypes without NVT_API (they would not be exported):"
    sed 's/^[[:space:]]*/    /' "$work/unmarked" >&2
fi
sed -E 's/^[^(]*[^A-Za-z0-9_(]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\(.*/\1/' "$work/prototypes" |
    sort -u >"$work/declared"
if [ ! -s "$work/declared" ]; then
    fail "no declaration found in $include/nvitop (parser broken?)"
fi
if grep -v '^nvt_' "$work/declared" >"$work/badnames"; then
    fail "public functions outside the nvt_ namespace: $(tr '\n' ' ' <"$work/badnames")"
fi

# Exports.  nm prints "name@@VERSION" for versioned dynamic symbols.
nm -D --defined-only "$shared" | awk 'NF >= 3 && $2 != "A" { print $3 }' >"$work/shared-raw"
sed 's/@.*//' "$work/shared-raw" | sort -u >"$work/shared"
nm -g --defined-only "$static" | awk 'NF >= 3 { print $3 }' | sort -u >"$work/static"

compare() { # compare LABEL FILE
    if ! diff -u "$work/declared" "$2" >"$work/diff"; then
        fail "$1 exports differ from the header declarations (- declared only, + exported only):"
        sed -n '4,$p' "$work/diff" | grep '^[-+]' >&2 || true
    fi
}
compare "$(basename "$shared")" "$work/shared"
compare "$(basename "$static")" "$work/static"

if grep -v "@@NVITOP_$major\(\.[0-9][0-9]*\)*\$" "$work/shared-raw" >"$work/unversioned"; then
    fail "symbols without an NVITOP_$major version node: $(tr '\n' ' ' <"$work/unversioned")"
fi
# Functions the previous minor version's headers (OLD_INCLUDE) lack are in a later node.
if [ -n "$old_include" ]; then
    cat "$old_include"/nvitop/*.h | grep -o 'nvt_[a-z0-9_]*(' | tr -d '(' | sort -u >"$work/old"
    while IFS= read -r entry; do
        name=${entry%%@*} node=${entry##*@}
        if grep -qx "$name" "$work/old"; then
            [ "$node" = "NVITOP_$major" ] || fail "$name (in the 0.1 headers) has version $node"
        elif [ "$node" = "NVITOP_$major" ]; then
            fail "$name is new since $old_include but has the first node $node (libnvitop.map.in)"
        fi
    done <"$work/shared-raw"
fi
soname=$(objdump -p "$shared" | awk '$1 == "SONAME" { print $2 }')
if [ "$soname" != "libnvitop.so.$major" ]; then
    fail "SONAME is '$soname', expected libnvitop.so.$major"
fi

if [ "$failed" -eq 0 ]; then
    echo "abi: $(wc -l <"$work/declared") functions declared; both libraries export exactly them"
fi
exit "$failed"
