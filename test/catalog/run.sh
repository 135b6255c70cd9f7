#!/usr/bin/env bash
# The catalog suite (issue 14): every tool of ai_tool_list(format), in every
# format, checked offline with the model providers' own client libraries
# (check.mjs says which, and how).  Prints TAP, the libraries' versions and
# the catalog's size in bytes and tokens per format.
#
#   1. npm ci into test/catalog/node_modules, when it is missing or older
#      than package-lock.json (the libraries, pinned);
#   2. a fresh database NAT_CATALOG_DB (default nat_catalog) on the server
#      the PG* variables point at, with the extension;
#   3. psql dumps ai_tool_list(format) for each format, with settings in
#      force (row_limit, timeout), as JSON lines;
#   4. node check.mjs checks them.
#
# Usage: PGHOST=... PGPORT=... PGUSER=... test/catalog/run.sh
# Env:   NAT_CATALOG_FILE=file  check this dump instead of a server's (one
#        line per format: FORMAT<TAB>catalog), e.g. a deliberately broken one
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PSQL=${PSQL:-psql}
DB=${NAT_CATALOG_DB:-nat_catalog}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nat_catalog.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
FORMATS="native openai openai_strict anthropic mcp gemini"

# shellcheck source=scripts/node-suite.sh
source "$HERE/../../scripts/node-suite.sh"
node_suite_install "$HERE" test/catalog

dump=${NAT_CATALOG_FILE:-}
if [ -z "$dump" ]; then
    "$PSQL" -X -q -v ON_ERROR_STOP=1 -d postgres \
        -c "DROP DATABASE IF EXISTS \"$DB\"" -c "CREATE DATABASE \"$DB\"" >"$TMP/createdb.log" 2>&1 ||
        node_suite_fail "create database $DB" "$TMP/createdb.log"
    dump=$TMP/catalogs.tsv
    {
        echo "CREATE EXTENSION neon_ai_tools;"
        # settings in force: the catalog advertises these, not the built-ins
        echo "SET neon_ai_tools.row_limit = 5;"
        echo "SET neon_ai_tools.timeout = '2s';"
        for f in $FORMATS; do
            echo "SELECT '$f', ai_tool_list('$f');"
        done
    } >"$TMP/dump.sql"
    "$PSQL" -X -q -At -F $'\t' -v ON_ERROR_STOP=1 -d "$DB" -f "$TMP/dump.sql" >"$dump" 2>"$TMP/psql.err" ||
        node_suite_fail "ai_tool_list(format) for every format" "$TMP/psql.err"
    "$PSQL" -X -q -d postgres -c "DROP DATABASE IF EXISTS \"$DB\"" >/dev/null 2>&1 || true
fi

node "$HERE/check.mjs" "$dump"
