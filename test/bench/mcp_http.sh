#!/usr/bin/env bash
# MCP over HTTP: neon-ai-tools-mcp --http against DBHub (@bytebase/dbhub
# 1.4.0, its HTTP transport) on the same database, in one run.  wrk posts
# stateless MCP 2026-07-28 tools/call requests on keep-alive connections, a
# point select by a random key: select_query {"table":"bench","where":
# {"id":N}} against execute_sql "SELECT * FROM bench WHERE id = N".  At 1
# and 16 clients, rounds alternate the servers (and which goes first); the
# figures are the medians of the rounds: calls/s, p50 and p99 latency, and
# the CPU time the server process spent per call.  Every response is
# checked (HTTP 200, a successful tool result holding the row): a run with
# a failed call says so and exits 1.  Not a test.
#
# Usage: test/bench/mcp_http.sh [seconds per round, default 10] [rounds, default 3]
# (BENCH_HTTP_CLIENTS="1 16" picks the client counts; BENCH_HTTP_PORT=8871
# is the first of the two ports the servers listen on; MCP_PROGRAM names the
# program, default the installed one; BENCH_REUSE_CLUSTER=yes uses the PG*
# environment's database, already loaded with setup.sql, as run.sh does)
# Needs wrk (Debian: apt-get install wrk), node and npm (DBHub is installed
# into test/bench/http/node_modules from its package-lock.json when
# missing), and the extension and neon-ai-tools-mcp installed.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SECONDS_PER_ROUND=${1:-10}
ROUNDS=${2:-3}
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"

MCP_PROGRAM=${MCP_PROGRAM:-$("$NAT_PG_CONFIG" --bindir)/neon-ai-tools-mcp}
if ! command -v wrk >/dev/null || ! command -v node >/dev/null || ! command -v npm >/dev/null ||
    [ ! -x "$MCP_PROGRAM" ]; then
    echo "MCP over HTTP: skipped (needs wrk, node, npm and an installed neon-ai-tools-mcp)"
    exit 0
fi
DBHUB_DIR=$HERE/http
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/neon_ai_tools.mcp_http.XXXXXX")
nat_on_exit rm -rf "$LOGS"
if [ ! -d "$DBHUB_DIR/node_modules" ] || [ "$DBHUB_DIR/package-lock.json" -nt "$DBHUB_DIR/node_modules" ]; then
    bash "$HERE/../../scripts/npm-ci.sh" "$DBHUB_DIR" >"$LOGS/npm.log" 2>&1 ||
        { echo "installing DBHub failed:" >&2; tail -20 "$LOGS/npm.log" >&2; exit 1; }
    touch "$DBHUB_DIR/node_modules"
fi

if [ "${BENCH_REUSE_CLUSTER:-no}" != yes ]; then
    nat_cluster_start nat_bench
    "$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -f "$HERE/setup.sql" >/dev/null
    "$NAT_PG_BIN/psql" -X -q -c "ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off" >/dev/null
fi

NEON_PORT=${BENCH_HTTP_PORT:-8871}
DBHUB_PORT=$((NEON_PORT + 1))
for port in "$NEON_PORT" "$DBHUB_PORT"; do
    nat_port_free "$port" || { echo "port $port is in use (set BENCH_HTTP_PORT)" >&2; exit 1; }
done

# Both servers reach the database the same way: TCP on the loopback.  The
# program gets a pool of 16 connections, one per client at 16 clients;
# Its log line per request (the default) goes to a file.
# DBHub keeps its own pool (node-postgres, at most 10 connections) and runs
# as Node.js programs are deployed (NODE_ENV=production: Express's faster mode).
"$MCP_PROGRAM" --http "127.0.0.1:$NEON_PORT" --pool-size 16 \
    "host=127.0.0.1 port=$PGPORT dbname=$PGDATABASE user=$PGUSER" 2>"$LOGS/neon.log" &
NEON_PID=$!
nat_on_exit kill "$NEON_PID"
NODE_ENV=production node "$DBHUB_DIR/node_modules/@bytebase/dbhub/dist/index.js" --transport=http \
    --host=127.0.0.1 --port="$DBHUB_PORT" \
    --dsn="postgres://$PGUSER@127.0.0.1:$PGPORT/$PGDATABASE?sslmode=disable" >"$LOGS/dbhub.log" 2>&1 &
DBHUB_PID=$!
nat_on_exit kill "$DBHUB_PID"
declare -A PID=([neon]=$NEON_PID [dbhub]=$DBHUB_PID) PORT=([neon]=$NEON_PORT [dbhub]=$DBHUB_PORT)
declare -A URL=([neon]="http://127.0.0.1:$NEON_PORT/mcp" [dbhub]="http://127.0.0.1:$DBHUB_PORT/mcp")
for side in neon dbhub; do
    for ((i = 0; i < 100; i++)); do
        nat_port_free "${PORT[$side]}" || break
        kill -0 "${PID[$side]}" 2>/dev/null || break
        sleep 0.1
    done
    if nat_port_free "${PORT[$side]}"; then
        echo "$side did not start on port ${PORT[$side]}:" >&2
        cat "$LOGS/$side.log" >&2
        exit 1
    fi
done

FAILED=$LOGS/failed

# CPU time (user + system, in clock ticks) a process has used so far
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# One wrk run against one server: prints "calls/s p50_us p99_us cpu_us_per_call"
# (point.lua checks every response; a bad one fails the run)
round() {
    local side=$1 clients=$2 seconds=$3 threads before after line
    threads=$((clients < $(nproc) ? clients : $(nproc)))
    before=$(cpu_ticks "${PID[$side]}")
    line=$(wrk -t "$threads" -c "$clients" -d "${seconds}s" -s "$HERE/http/point.lua" \
        "${URL[$side]}" -- "$side" 2>>"$LOGS/wrk.log" | tail -1)
    after=$(cpu_ticks "${PID[$side]}")
    # line: calls/s p50_us p99_us requests bad_responses socket_errors
    read -r rps p50 p99 requests bad errors <<<"$line"
    if [ "${bad:-1}" != 0 ] || [ "${errors:-1}" != 0 ] || [ "${requests:-0}" = 0 ]; then
        echo "$side, $clients clients: $requests calls, $bad bad responses, $errors socket errors" >&2
        tail -3 "$LOGS/wrk.log" >&2
        touch "$FAILED"
    fi
    awk -v r="$rps" -v a="$p50" -v b="$p99" -v n="$requests" -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" \
        'BEGIN { printf "%s %s %s %.1f\n", r, a, b, (n > 0) ? t * 1e6 / hz / n : 0 }'
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# warm up both (JIT, connection pools, plan caches) at 16 clients
round neon 16 3 >/dev/null
round dbhub 16 3 >/dev/null

printf '%-8s %-22s %10s %9s %9s %12s\n' clients server "calls/s" "p50 ms" "p99 ms" "CPU µs/call"
for clients in ${BENCH_HTTP_CLIENTS:-1 16}; do
    declare -A results=([neon]="" [dbhub]="")
    for ((r = 1; r <= ROUNDS; r++)); do
        order=(neon dbhub)
        ((r % 2)) || order=(dbhub neon)
        for side in "${order[@]}"; do
            results[$side]+="$(round "$side" "$clients" "$SECONDS_PER_ROUND")"$'\n'
        done
    done
    for side in neon dbhub; do
        for col in 1 2 3 4; do
            m[col]=$(printf '%s' "${results[$side]}" | awk -v c="$col" 'NF {print $c}' | median)
        done
        printf -v "stats_$side" '%s %s %s %s' "${m[1]}" "${m[2]}" "${m[3]}" "${m[4]}"
    done
    # shellcheck disable=SC2154  # set by printf -v above
    awk -v c="$clients" -v n="$stats_neon" -v d="$stats_dbhub" 'BEGIN {
        split(n, a, " "); split(d, b, " ")
        printf "%-8s %-22s %10.0f %9.3f %9.3f %12.0f\n", c, "neon-ai-tools-mcp", a[1], a[2] / 1000, a[3] / 1000, a[4]
        printf "%-8s %-22s %10.0f %9.3f %9.3f %12.0f\n", c, "DBHub 1.4.0", b[1], b[2] / 1000, b[3] / 1000, b[4]
        printf "%-8s %-22s %9.2fx %9.2f %9.2f %12.2f\n", c, "ratio neon / DBHub", a[1] / b[1], a[2] / b[2], a[3] / b[3], a[4] / b[4]
    }'
    unset results
done
if [ -e "$FAILED" ]; then
    echo "MCP over HTTP: some calls failed (see above): these figures are not valid" >&2
    exit 1
fi
