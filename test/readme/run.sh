#!/usr/bin/env bash
# The readme suite (issue 33, item 5): the README cannot drift from the code.
# Prints TAP:
#   - examples.pl: every ```sql block of README.md is marked runnable or
#     illustrative, and each runnable one, run in README order on the demo
#     data, prints the output shown under it;
#   - figures.mjs: each figures table of README.md equals a fresh
#     measurement (figures.sql on the demo data, tokens by test/catalog's
#     pinned gpt-tokenizer).
#
# It needs a scratch cluster of its own (PG* variables, a superuser): the
# examples create roles, a database and run ALTER SYSTEM.  Its databases are
# made UTF8 with the C.UTF-8 locale, whatever the cluster's default.
#
# Usage: PGHOST=... PGPORT=... PGUSER=... test/readme/run.sh [--figures [--write]]
#   --figures          only the figures tables
#   --figures --write  rewrite README.md's figures tables from the measurement
#                      (scripts/readme-figures.sh does this on a scratch cluster)
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
README=${NAT_README:-$ROOT/README.md}
PSQL=${PSQL:-psql}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nat_readme.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
examples=1 write=
[ "${1:-}" != --figures ] || { examples=; shift; }
[ "${1:-}" != --write ] || write=--write

# shellcheck source=scripts/node-suite.sh
source "$ROOT/scripts/node-suite.sh"

# a fresh database DB (UTF8, C.UTF-8) with the demo data, and SQL run in it
demo_db() {
    local db=$1
    shift
    if ! "$PSQL" -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS \"$db\"" \
        -c "CREATE DATABASE \"$db\" TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'" \
        >"$TMP/createdb.log" 2>&1; then
        node_suite_fail "database $db (UTF8, C.UTF-8)" "$TMP/createdb.log"
    fi
    if ! "$PSQL" -X -q -v ON_ERROR_STOP=1 -d "$db" "$@" -f "$ROOT/scripts/demo-data.sql" \
        >"$TMP/demo.log" 2>&1; then
        node_suite_fail "the demo data in $db" "$TMP/demo.log"
    fi
}

rc=0
if [ -n "$examples" ]; then
    demo_db nat_readme
    PGDATABASE=nat_readme PSQL=$PSQL perl "$HERE/examples.pl" "$README" || rc=1
fi

node_suite_install "$ROOT/test/catalog" test/catalog
demo_db nat_readme_figures -c 'CREATE EXTENSION neon_ai_tools'
"$PSQL" -X -q -At -F $'\t' -v ON_ERROR_STOP=1 -d nat_readme_figures -f "$HERE/figures.sql" \
    >"$TMP/figures.tsv" 2>"$TMP/figures.err" ||
    node_suite_fail "the figures' measurement (figures.sql)" "$TMP/figures.err"
node "$HERE/figures.mjs" $write "$TMP/figures.tsv" "$README" || rc=1
exit "$rc"
