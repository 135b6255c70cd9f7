#!/usr/bin/env bash
# Benchmarks: ai_tool_call() against the hand-written SQL that returns the
# same rows as jsonb through a prepared statement (pgbench -M prepared),
# in alternating rounds in one run, and backend memory growth over 20,000
# calls.  Not a test: it prints the median tps of each side and the median
# of the rounds' ratios (tool tps / hand-written tps of the same round).
#
# Usage: test/bench/run.sh [seconds per round, default 5] [rounds, default 3]
# (BENCH_WORKLOADS="point range insert insert_audited update scan" picks
# workloads; scan loads a 10-million-row table first, about 30 s and 600 MB;
# point_floor, insert_floor and update_floor compare the tool with a bare
# tool written by hand in PL/pgSQL (setup.sql) instead of the hand-written
# statement; point_wrapped and update_wrapped compare the hand-written
# statement run by the thinnest C function (wrapped/bench_wrapped.c: SPI in
# a subtransaction, built and installed here) with the statement itself;
# BENCH_CLIENTS=N runs N pgbench clients, default 1; BENCH_MEMORY=no and
# BENCH_MCP=no leave out the memory and MCP parts; MCP_PROGRAM names the
# program, default the installed one: the stdio round trips
# against the reference server and mcp_http.sh's HTTP comparison with DBHub)
# Needs the extension built and installed (scripts/test.sh or make install);
# starts and removes its own scratch cluster, under $TMPDIR (TMPDIR=/dev/shm
# keeps it in memory: no disk write-back in the insert rounds).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SECONDS_PER_ROUND=${1:-5}
ROUNDS=${2:-3}
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"
# shellcheck source=test/bench/libraries.sh
source "$HERE/libraries.sh"

nat_cluster_start nat_bench
PSQL=("$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1)
CLIENTS=${BENCH_CLIENTS:-1}
# pgbench threads: one per client, at most one per core
JOBS=$(( CLIENTS < $(nproc) ? CLIENTS : $(nproc) ))
PGBENCH=("$NAT_PG_BIN/pgbench" -n -M prepared -c "$CLIENTS" -j "$JOBS")
"${PSQL[@]}" -f "$HERE/setup.sql" >/dev/null
# Like for like: hand-written SQL writes no audit line, so the tool runs
# without one too; the "audited" row measures the default (audit = writes).
"${PSQL[@]}" -c "ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off" >/dev/null

# tps of one pgbench run of a script (PGOPTIONS may set tool settings);
# the scan workload's transactions take seconds: a fixed count of them
tps() {
    local length=()
    case $1 in scan_*) length=(-t 3) ;; *) length=(-T "$SECONDS_PER_ROUND") ;; esac
    bench_fresh_round "$1"
    "${PGBENCH[@]}" "${length[@]}" -f "$HERE/$1" 2>/dev/null |
        sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-28s %12s %12s %8s\n' workload "tool tps" "SQL tps" ratio
WORKLOADS=${BENCH_WORKLOADS:-point range insert insert_audited update scan point_floor insert_floor update_floor point_wrapped update_wrapped}
case " $WORKLOADS " in *" scan "*) "${PSQL[@]}" -f "$HERE/setup_scan.sql" >/dev/null ;; esac
case " $WORKLOADS " in
    *_wrapped" "*)
        nat_build "$HERE/wrapped" >/dev/null
        nat_install "$HERE/wrapped" >/dev/null
        "${PSQL[@]}" -f "$HERE/wrapped/setup.sql" >/dev/null
        ;;
esac
for w in $WORKLOADS; do
    tool=()
    hand=()
    # the tool's script, and what it is compared with: the hand-written
    # statement, or for *_floor the same statement in a PL/pgSQL function
    # with the tool's arguments, a subtransaction and an envelope; for
    # *_wrapped the tool's side is the hand-written statement in a C
    # function
    script=${w%_audited}
    script=${script%_floor}
    script=${script%_wrapped}
    subject=${script}_tool.sql
    reference=${script}_sql.sql
    [ "$w" != "${w%_floor}" ] && reference=$w.sql
    [ "$w" != "${w%_wrapped}" ] && subject=$w.sql
    options=""
    [ "$w" = insert_audited ] && options="-c neon_ai_tools.audit=writes"
    for ((r = 1; r <= ROUNDS; r++)); do
        # alternate which goes first, so drift affects both alike
        if ((r % 2)); then
            tool+=("$(PGOPTIONS="$options" tps "$subject")")
            hand+=("$(tps "$reference")")
        else
            hand+=("$(tps "$reference")")
            tool+=("$(PGOPTIONS="$options" tps "$subject")")
        fi
    done
    t=$(printf '%s\n' "${tool[@]}" | median)
    h=$(printf '%s\n' "${hand[@]}" | median)
    # the ratio of each round's pair (run back to back), then their median:
    # the machine's speed drifts over seconds, and a pair shares its drift
    ratio=$(for ((r = 0; r < ROUNDS; r++)); do
        awk -v t="${tool[r]}" -v h="${hand[r]}" 'BEGIN { print t / h }'
    done | median)
    case $w in
        call) label="fixed cost (one-row table)" ;;
        point) label="point select by key" ;;
        range) label="1000-row range select" ;;
        insert) label="100-row insert" ;;
        insert_audited) label="100-row insert, audited" ;;
        update) label="10-row filtered update" ;;
        scan) label="10M-row ILIKE scan" ;;
        point_floor) label="point select / its floor" ;;
        insert_floor) label="100-row insert / its floor" ;;
        update_floor) label="10-row update / its floor" ;;
        point_wrapped) label="point select, C-wrapped" ;;
        update_wrapped) label="10-row update, C-wrapped" ;;
    esac
    awk -v l="$label" -v t="$t" -v h="$h" -v x="$ratio" 'BEGIN { printf "%-28s %12.1f %12.1f %8.2f\n", l, t, h, x }'
done

[ "${BENCH_MEMORY:-yes}" = no ] && [ "${BENCH_MCP:-yes}" = no ] && exit 0
if [ "${BENCH_MEMORY:-yes}" != no ]; then
    growth=$("${PSQL[@]}" -At -f "$HERE/memory.sql" | tail -1)
    printf '%-28s %s bytes over 20,000 calls (after a 2,000-call warm-up)\n' "memory growth" "$growth"
fi
[ "${BENCH_MCP:-yes}" = no ] && exit 0

# MCP: tools/call round trips of neon-ai-tools-mcp against the reference MCP
# Postgres server, over loopback TCP, with the same SDK client
MCP_PROGRAM=${MCP_PROGRAM:-$("$NAT_PG_CONFIG" --bindir)/neon-ai-tools-mcp}
export MCP_PROGRAM
if command -v node >/dev/null && bash "$HERE/../../scripts/npm-ci.sh" --available && [ -x "$MCP_PROGRAM" ]; then
    if [ ! -d "$HERE/mcp/node_modules" ] || [ "$HERE/mcp/package-lock.json" -nt "$HERE/mcp/node_modules" ]; then
        bash "$HERE/../../scripts/npm-ci.sh" "$HERE/mcp" >/dev/null 2>&1
    fi
    echo
    node "$HERE/mcp/latency.mjs" "$MCP_PROGRAM" 127.0.0.1 "$PGPORT" "$PGDATABASE" "$PGUSER" 1000
else
    echo "MCP latency: skipped (needs node, npm and an installed neon-ai-tools-mcp)"
fi

# MCP over HTTP: neon-ai-tools-mcp --http against DBHub, at 1 and 16 clients,
# on this run's database
echo
BENCH_REUSE_CLUSTER=yes bash "$HERE/mcp_http.sh" "$SECONDS_PER_ROUND" "$ROUNDS"
