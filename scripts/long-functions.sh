#!/bin/sh
# List the C functions of src/ longer than a limit, longest first, and fail
# (exit 1) when there is one.  A function is counted from the line with its
# name to its closing brace, as PostgreSQL's layout writes them (return
# type on its own line, name at column 0, braces at column 0).
#
# Usage: scripts/long-functions.sh [LIMIT [FILE...]]   (default 150, src/**/*.c)
#        scripts/long-functions.sh 0                    every function, by length
set -eu
cd "$(dirname "$0")/.."
limit=${1:-150}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- $(find src -name '*.c' | sort)
out=$(awk '
FNR == 1 { inbody = 0; cand = ""; }
/^[A-Za-z_][A-Za-z0-9_]*\(/ { if (!inbody) { cand = $0; candline = FNR } }
/^\{/ { if (!inbody && cand != "") { inbody = 1; name = cand; start = candline } next }
/^\}/ { if (inbody) { inbody = 0; cand = ""; n = FNR - start + 1;
        sub(/\(.*/, "", name); printf "%d %s:%d %s\n", n, FILENAME, start, name } }
' "$@" | sort -rn | awk -v limit="$limit" '$1 > limit')
[ -n "$out" ] || exit 0
echo "$out"
[ "$limit" -eq 0 ] && exit 0
echo "$(echo "$out" | wc -l) function(s) over $limit lines" >&2
exit 1
