#!/bin/sh
# The repository stands alone: no tracked file may cite the background documents the project
# started from (the specification, peer survey, design and anchor notes, or anything beside the
# checkout), because readers of the repository do not have them. What nvitop does is cited from
# docs/nvitop-behaviour.md, the design from docs/architecture.md. Run by `make lint`.
#
# usage: check-references.sh [PATH-REGEX]
#   PATH-REGEX (extended regex, optional) leaves out the files whose paths match it; only for
#   checking part of the tree while other branches still hold references. `make lint` checks all.
set -eu
cd "$(dirname "$0")/.."
# Written so that this file does not match itself.
pattern='(SPEC|PEERS|DESIGN|ANCHORS)[.]md|(^|[^A-Za-z_])(SPEC|PEERS) §|[.][.]/shared'
skip=${1:-}

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    found=$(git grep -nIE "$pattern" -- . || true)
else
    found=$(grep -rnIE "$pattern" --exclude-dir=.git --exclude-dir='build*' . |
        sed 's|^\./||' || true)
fi
if [ -n "$skip" ] && [ -n "$found" ]; then
    found=$(printf '%s\n' "$found" | grep -vE "^($skip)" || true)
fi
if [ -n "$found" ]; then
    printf '%s\n' "$found" >&2
    echo "references: $(printf '%s\n' "$found" | wc -l) line(s) cite documents the repository" \
        "does not contain; cite docs/nvitop-behaviour.md, docs/exporter.md or" \
        "docs/architecture.md instead" >&2
    exit 1
fi
echo "references: ok"
