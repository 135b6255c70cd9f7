#!/bin/sh
# Fail (exit 1) when the C sources are not as pgindent writes them, or when
# typedefs.list is not what scripts/typedefs.sh makes of the sources today
# (pgindent formats a declaration by whether its type is in that list).
#
# The tree is formatted by PostgreSQL 17's pgindent (pg_bsd_indent 2.1.2),
# which comes with Debian's postgresql-server-dev-17 beside pg_config: the
# pgindent part runs with a 17 pg_config only (CI: trixie).  Other versions
# format differently (19's writes "fmt, ..." and rewraps comments), so with
# them, and with 15 and 16 that ship no pgindent, it is skipped and says so;
# the typedefs.list part always runs.
#
# Usage: scripts/pgindent-check.sh [PG_CONFIG]
set -eu
cd "$(dirname "$0")/.."
pg_config=${1:-${PG_CONFIG:-pg_config}}

if ! sh scripts/typedefs.sh | diff -u typedefs.list - > /tmp/typedefs.$$.diff; then
    cat /tmp/typedefs.$$.diff
    rm -f /tmp/typedefs.$$.diff
    echo "typedefs.list is out of date: scripts/typedefs.sh > typedefs.list" >&2
    exit 1
fi
rm -f /tmp/typedefs.$$.diff
echo "typedefs.list: complete"

major=$("$pg_config" --version | sed 's/^PostgreSQL \([0-9]*\).*/\1/')
if [ "$major" != 17 ]; then
    echo "pgindent: skipped (the tree is formatted by PostgreSQL 17's pgindent; $pg_config is $major's)"
    exit 0
fi
bindir=$("$pg_config" --bindir)
sharedir=$("$pg_config" --sharedir)
if [ ! -x "$bindir/pgindent" ] || [ ! -x "$bindir/pg_bsd_indent" ] || [ ! -f "$sharedir/typedefs.list" ]; then
    echo "pgindent: skipped (no pgindent, pg_bsd_indent or typedefs.list beside $pg_config)"
    exit 0
fi
out=$(make -s pgindent PG_CONFIG="$pg_config" PGINDENT_OPTS=--diff 2>&1) || {
    echo "$out"
    echo "pgindent failed" >&2
    exit 1
}
if [ -n "$out" ]; then
    echo "$out"
    echo "pgindent would change the files above: make pgindent PG_CONFIG=$pg_config" >&2
    exit 1
fi
echo "pgindent: no change"
