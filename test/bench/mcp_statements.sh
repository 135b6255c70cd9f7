#!/usr/bin/env bash
# What unnamed statements cost neon-ai-tools-mcp, measured directly against
# PostgreSQL (no pooler) in one run: the program built from REF's src/mcp
# ("before": a named prepared statement per connection, which PgBouncer in
# transaction mode cannot carry) and from the checkout's ("after": an
# unnamed statement per call, parsed each time; src/mcp/db/db.c).  The
# whole folder is taken from REF, as REF's db.c does not build in today's
# layered tree (src/mcp/base, db, protocol, ...).  Each round feeds each build the same
# session of tools/call requests on stdin (select_query by key, the
# cheapest real call, so parsing weighs most) and times it; rounds
# alternate which build goes first.  Prints calls/s per round, the medians
# and after/before.
#
# Usage: test/bench/mcp_statements.sh REF [calls per round, default 5000] [rounds, default 5]
# Needs the extension installed (make install).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REF=${1:?usage: mcp_statements.sh REF [calls] [rounds]}
CALLS=${2:-5000}
ROUNDS=${3:-5}
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"

nat_mktemp_dir mcpstmt
WORK=$NAT_DIR
mkdir -p "$WORK/before" "$WORK/after/src"
git -C "$NAT_ROOT" archive "$REF" src/mcp | tar -x -C "$WORK/before"
(cd "$NAT_ROOT" && git ls-files -co --exclude-standard -z src/mcp | xargs -0 cp --parents -t "$WORK/after")
for v in before after; do
    cp "$NAT_ROOT/neon_ai_tools.control" "$WORK/$v/"
done
chown -R "$NAT_USER": "$WORK"
for v in before after; do
    nat_run_as_user "$WORK/$v/src/mcp" make -s PG_CONFIG="$NAT_PG_CONFIG" >/dev/null
done

nat_cluster_start nat_mcpstmt
PSQL=("$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -f "$HERE/setup.sql" >/dev/null
"${PSQL[@]}" -c "ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off" >/dev/null

# one session: initialize, then CALLS point selects
{
    echo '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
    for ((i = 1; i <= CALLS; i++)); do
        printf '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"select_query","arguments":{"table":"bench","where":{"id":%d}}}}\n' \
            "$i" $((i % 100000 + 1))
    done
} >"$WORK/input.jsonl"
chown "$NAT_USER": "$WORK/input.jsonl"

# calls per second of one build over the session (all calls must succeed)
rate() {
    local start end ok
    start=$(date +%s.%N)
    ok=$(nat_run_as_user "$WORK" "$WORK/$1/src/mcp/neon-ai-tools-mcp" \
        "host=$PGHOST port=$PGPORT dbname=$PGDATABASE user=$PGUSER" \
        <"$WORK/input.jsonl" 2>/dev/null | grep -c '"isError":false' || true)
    end=$(date +%s.%N)
    [ "$ok" -eq "$CALLS" ] || { echo "$1: $ok of $CALLS calls succeeded" >&2; exit 1; }
    echo "$start $end" | awk -v n="$CALLS" '{printf "%.0f\n", n / ($2 - $1)}'
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

rate before >/dev/null    # warm up (plans, caches)
declare -A rates=([before]="" [after]="")
printf '%-6s %16s %16s\n' round "before calls/s" "after calls/s"
for ((r = 1; r <= ROUNDS; r++)); do
    if ((r % 2)); then order="before after"; else order="after before"; fi
    declare -A this=()
    for v in $order; do
        this[$v]=$(rate "$v")
        rates[$v]+="${this[$v]} "
    done
    printf '%-6s %16s %16s\n' "$r" "${this[before]}" "${this[after]}"
done
b=$(echo "${rates[before]}" | tr ' ' '\n' | grep . | median)
a=$(echo "${rates[after]}" | tr ' ' '\n' | grep . | median)
printf '%-6s %16s %16s   after/before %s\n' median "$b" "$a" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a / b}')"
