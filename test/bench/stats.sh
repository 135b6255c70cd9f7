#!/usr/bin/env bash
# What ai_tool_stats costs (issue 34: at most 0.02 of the point-select
# throughput): the point workload (point_tool.sql) with
# neon_ai_tools.track_stats on and off, in alternating rounds in one
# cluster that preloads the library.  Not a test: it prints the median tps
# of each side and the median of the rounds' on/off ratios (each round's
# two sides back to back, the order alternating).
#
# On a loaded machine throughput moves by more than the 2% to measure, so
# it also measures the backend's own CPU time (utime + stime of
# /proc/self/stat, read by the backend) over BENCH_CALLS (default 10000)
# point calls in one statement, on and off alternating, and prints the
# median of the rounds' off/on ratios: the throughput a CPU-bound server
# keeps with the statistics on.
#
# Usage: test/bench/stats.sh [seconds per round, default 5] [rounds, default 5]
# (BENCH_CLIENTS=N runs N pgbench clients, default 1: with more, they share
# the table's entry in shared memory.)  Needs the extension installed.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SECONDS_PER_ROUND=${1:-5}
ROUNDS=${2:-5}
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"

nat_cluster_start nat_stats_bench
PSQL=("$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1)
CLIENTS=${BENCH_CLIENTS:-1}
JOBS=$(( CLIENTS < $(nproc) ? CLIENTS : $(nproc) ))
PGBENCH=("$NAT_PG_BIN/pgbench" -n -M prepared -c "$CLIENTS" -j "$JOBS")
# the statistics need the library preloaded: restart with it (pg_ctl
# restart keeps the start options)
"${PSQL[@]}" -d postgres -c "ALTER SYSTEM SET shared_preload_libraries = 'neon_ai_tools'" >/dev/null
nat_run_as_user / "$NAT_PG_BIN/pg_ctl" -D "$NAT_CLUSTER_DATA" -w -l "$NAT_CLUSTER_LOG" restart >/dev/null
"${PSQL[@]}" -f "$HERE/setup.sql" >/dev/null
"${PSQL[@]}" -c "ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off" >/dev/null

tps() {
    PGOPTIONS="-c neon_ai_tools.track_stats=$1" "${PGBENCH[@]}" -T "$SECONDS_PER_ROUND" \
        -f "$HERE/point_tool.sql" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

on_tps="" off_tps="" ratios=""
for ((r = 1; r <= ROUNDS; r++)); do
    if ((r % 2)); then order="on off"; else order="off on"; fi
    for v in $order; do
        t=$(tps "$v")
        if [ "$v" = on ]; then on=$t; on_tps+="$t "; else off=$t; off_tps+="$t "; fi
    done
    ratios+="$(awk -v a="$on" -v b="$off" 'BEGIN { print a / b }') "
    echo "round $r: on $on tps, off $off tps"
done
calls=$("${PSQL[@]}" -Atc "SELECT sum(calls) FROM ai_tool_stats WHERE tool = 'select_query'")
printf '%-28s %12s %12s %8s\n' workload "stats on" "stats off" on/off
awk -v w="point ($CLIENTS client(s))" \
    -v a="$(printf '%s\n' $on_tps | median)" -v b="$(printf '%s\n' $off_tps | median)" \
    -v r="$(printf '%s\n' $ratios | median)" \
    'BEGIN { printf "%-28s %12.0f %12.0f %8.3f\n", w, a, b, r }'
echo "calls counted by ai_tool_stats (track_stats = on rounds): $calls"

# --- CPU time per call -------------------------------------------------------
# One session, on and off alternating in it (no connection's start in the
# measure), each round BENCH_CALLS calls in one statement, timed by the
# backend's own time on a CPU (/proc/self/schedstat, in ns).
CALLS=${BENCH_CALLS:-10000}
CPU_ROUNDS=${BENCH_CPU_ROUNDS:-$((ROUNDS * 4))}
cpu_script() {
    local r v
    cat <<SQL
CREATE FUNCTION pg_temp.cpu_ns() RETURNS bigint LANGUAGE sql AS
\$\$ SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint \$\$;
SELECT count(ai_tool_call('select_query', '{"table": "bench", "where": {"id": 1}}')) FROM generate_series(1, 500) \\g /dev/null
SQL
    for ((r = 1; r <= CPU_ROUNDS; r++)); do
        if ((r % 2)); then order="on off"; else order="off on"; fi
        for v in $order; do
            cat <<SQL
SET neon_ai_tools.track_stats = $v;
SELECT pg_temp.cpu_ns() AS c0 \\gset
SELECT count(ai_tool_call('select_query', jsonb_build_object('table', 'bench', 'where',
       jsonb_build_object('id', 1 + (g * 7919) % 100000)))) FROM generate_series(1, $CALLS) g \\g /dev/null
SELECT '$r $v ' || (pg_temp.cpu_ns() - :c0);
SQL
        done
    done
}
cpu_out=$(cpu_script | "${PSQL[@]}" -At)
[ -z "${BENCH_VERBOSE:-}" ] || echo "$cpu_out"
# per round: off ns / on ns (the throughput kept with the statistics on)
cpu_ratios=$(awk '{ ns[$1, $2] = $3; n = $1 } END { for (r = 1; r <= n; r++) print ns[r, "off"] / ns[r, "on"] }' <<<"$cpu_out")
on_ns=$(awk '$2 == "on" { print $3 }' <<<"$cpu_out" | median)
off_ns=$(awk '$2 == "off" { print $3 }' <<<"$cpu_out" | median)
printf '%-28s %12s %12s %8s\n' "backend CPU ($CPU_ROUNDS rounds)" "stats on" "stats off" off/on
awk -v a="$on_ns" -v b="$off_ns" -v r="$(printf '%s\n' $cpu_ratios | median)" -v n="$CALLS" \
    'BEGIN { printf "%-28s %9.2f us %9.2f us %8.3f\n", "point, per call", a / 1000 / n, b / 1000 / n, r }'
