#!/usr/bin/env bash
# The envelope suite (issue #5): real ai_tool_call() answers, validated
# against response.schema.json.  Prints TAP.
#
#   1. npm ci into test/envelope/node_modules, when it is missing or older
#      than package-lock.json (ajv, pinned);
#   2. a fresh database NAT_ENVELOPE_DB (default nat_envelope) on the server
#      the PG* variables point at, as a superuser (the script sets
#      temp_file_limit, uses postgres_fdw and dblink, and SET ROLE);
#   3. psql runs responses.sql into a file, one labelled answer a line;
#   4. node validate.mjs checks them and prints TAP.
#
# Usage: PGHOST=... PGPORT=... PGUSER=... test/envelope/run.sh
# The extension (and PostgreSQL's contrib modules) must be installed.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PSQL=${PSQL:-psql}
DB=${NAT_ENVELOPE_DB:-nat_envelope}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nat_envelope.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# shellcheck source=scripts/node-suite.sh
source "$HERE/../../scripts/node-suite.sh"
node_suite_install "$HERE" test/envelope

# --- the answers ----------------------------------------------------------------
"$PSQL" -X -q -v ON_ERROR_STOP=1 -d postgres \
    -c "DROP DATABASE IF EXISTS \"$DB\"" -c "CREATE DATABASE \"$DB\"" >"$TMP/createdb.log" 2>&1 ||
    node_suite_fail "create database $DB" "$TMP/createdb.log"
answers=$TMP/responses.jsonl
if ! "$PSQL" -X -v ON_ERROR_STOP=1 -d "$DB" -f "$HERE/responses.sql" >"$answers" 2>"$TMP/psql.err"; then
    echo "# psql output so far (last lines):"
    tail -3 "$answers" | cut -c1-300 | sed 's/^/#   /'
    node_suite_fail "responses.sql runs (psql failed)" "$TMP/psql.err"
fi
"$PSQL" -X -q -d postgres -c "DROP DATABASE IF EXISTS \"$DB\"" >/dev/null 2>&1 || true

echo "# $(grep -c . "$answers") answers from responses.sql"
node "$HERE/validate.mjs" "$answers"
