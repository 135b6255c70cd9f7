#!/usr/bin/env bash
# The catalog suite (issue 14): every tool of ai_tool_list(format), in every
# format (two custom tools among them, issue 17), checked offline with the model providers' own client libraries
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
        # two custom tools (issue 17), whose schemas come from their
        # parameter lists: an enum, bounds, a default, examples, arrays of
        # text, jsonb, numeric(10,2), timestamptz, a boolean
        cat <<'SQL'
\set QUIET on
CREATE TABLE o (id int PRIMARY KEY, customer text, region text, total numeric, tags text[], meta jsonb, at timestamptz);
SELECT ai_tool_define('top_customers', 'Customers of a region by total spent, largest first.',
  'SELECT customer, sum(total) AS spent FROM public.o WHERE region = $1 GROUP BY customer ORDER BY spent DESC LIMIT $2',
  '[{"name": "region", "type": "text", "description": "Sales region.", "enum": ["eu", "us"]},
    {"name": "n", "type": "int", "description": "How many customers.", "default": 3, "minimum": 1, "maximum": 50, "examples": [3, 10]}]') IS NULL AS top_customers_defined \gset
SELECT ai_tool_define('tag_order', 'Tag an order.',
  'UPDATE public.o SET tags = $2, meta = $3, at = $4, total = $5 WHERE id = $1 AND $6 RETURNING id',
  '[{"name": "id", "type": "int"}, {"name": "tags", "type": "text[]", "maxItems": 5},
    {"name": "meta", "type": "jsonb", "required": false}, {"name": "at", "type": "timestamptz", "required": false},
    {"name": "total", "type": "numeric(10,2)", "required": false, "minimum": 0},
    {"name": "ok", "type": "boolean", "default": true}]') IS NULL AS tag_order_defined \gset
SQL
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
