#!/usr/bin/env bash
# Citus against one node, in the same rounds (issue 31): the tool/hand-written
# ratio of the point select and the 1000-row range select (run.sh's scripts)
# in a database with Citus (bench distributed by id over a coordinator and
# two workers) and in a database without it on the same coordinator.
#
# Usage: test/bench/citus.sh [seconds per run, default 5] [rounds, default 5]
#   BENCH_WORKLOADS="point range point_floor" (default "point range";
#   point_floor: run.sh's bare PL/pgSQL tool, a subtransaction and nothing else)
#   (as root or as a user who can run initdb; needs Citus installed:
#   scripts/test-citus.sh installs it)
# Prints, per workload, the median tps of each side and the median of the
# rounds' ratios in each database, and Citus's ratio less one node's.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SECS=${1:-5}
ROUNDS=${2:-5}
WORKLOADS=${BENCH_WORKLOADS:-point range}
PG_CONFIG=${PG_CONFIG:-$(command -v pg_config || echo /usr/lib/postgresql/15/bin/pg_config)}
BIN=$("$PG_CONFIG" --bindir)
[ -f "$("$PG_CONFIG" --pkglibdir)/citus.so" ] || { echo "citus.sh: Citus is not installed (scripts/test-citus.sh)"; exit 2; }

DIR=$(mktemp -d "${TMPDIR:-/tmp}/neon_ai_tools.bench-citus.XXXXXX")
PORT=${BENCH_PORT:-5761}
as_user() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- env LC_ALL=C.UTF-8 "$@"; else env LC_ALL=C.UTF-8 "$@"; fi
}
[ "$(id -u)" -ne 0 ] || chown postgres: "$DIR"
stop_all() {
    for i in 0 1 2; do as_user "$BIN/pg_ctl" -D "$DIR/n$i" -m immediate stop >/dev/null 2>&1 || true; done
    rm -rf "$DIR"
}
trap stop_all EXIT

for i in 0 1 2; do
    as_user "$BIN/initdb" -D "$DIR/n$i" -E UTF8 --locale=C.UTF-8 -A trust >/dev/null
    cat >>"$DIR/n$i/postgresql.conf" <<EOF
port = $((PORT + i))
unix_socket_directories = '$DIR'
listen_addresses = ''
shared_preload_libraries = 'citus,neon_ai_tools'
max_prepared_transactions = 20
shared_buffers = 128MB
neon_ai_tools.audit = off
EOF
    as_user "$BIN/pg_ctl" -D "$DIR/n$i" -l "$DIR/n$i.log" -w start >/dev/null
done
psql_on() { local port=$1 db=$2; shift 2; as_user "$BIN/psql" -X -q -h "$DIR" -p "$port" -d "$db" -v ON_ERROR_STOP=1 "$@"; }
for i in 0 1 2; do
    psql_on $((PORT + i)) postgres -c "CREATE DATABASE citus_db" -c "CREATE DATABASE plain_db" >/dev/null
    psql_on $((PORT + i)) citus_db -c "CREATE EXTENSION citus" >/dev/null
done
psql_on "$PORT" citus_db -c "SELECT citus_set_coordinator_host('$DIR', $PORT)" \
    -c "SELECT citus_add_node('$DIR', $((PORT + 1)))" -c "SELECT citus_add_node('$DIR', $((PORT + 2)))" >/dev/null
for db in citus_db plain_db; do
    psql_on "$PORT" "$db" -f "$HERE/setup.sql" >/dev/null
done
psql_on "$PORT" citus_db -c "SELECT create_distributed_table('bench', 'id')" -c "VACUUM ANALYZE bench" >/dev/null

# tps of one pgbench run of a script in a database
tps() {
    as_user "$BIN/pgbench" -n -M prepared -h "$DIR" -p "$PORT" -T "$SECS" -f "$HERE/$2.sql" "$1" 2>/dev/null |
        sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-8s %-9s %10s %10s %7s\n' workload database tool hand ratio
for w in $WORKLOADS; do
    declare -A T=() H=() R=()
    for r in $(seq 1 "$ROUNDS"); do
        for db in citus_db plain_db; do
            # point_floor: the bare PL/pgSQL tool (a subtransaction, no guard)
            ts=${w}_tool; hs=${w%_floor}_sql
            case $w in *_floor) ts=$w ;; esac
            if [ $((r % 2)) -eq 1 ]; then t=$(tps $db $ts); h=$(tps $db $hs)
            else h=$(tps $db $hs); t=$(tps $db $ts); fi
            T[$db]+="$t "; H[$db]+="$h "
            R[$db]+="$(awk -v t="$t" -v h="$h" 'BEGIN {printf "%.3f", t / h}') "
        done
    done
    for db in citus_db plain_db; do
        printf '%-8s %-9s %10.0f %10.0f %7.3f\n' "$w" "$db" \
            "$(tr ' ' '\n' <<<"${T[$db]}" | grep . | median)" \
            "$(tr ' ' '\n' <<<"${H[$db]}" | grep . | median)" \
            "$(tr ' ' '\n' <<<"${R[$db]}" | grep . | median)"
    done
    c=$(tr ' ' '\n' <<<"${R[citus_db]}" | grep . | median)
    p=$(tr ' ' '\n' <<<"${R[plain_db]}" | grep . | median)
    printf '%-8s Citus ratio - one node ratio: %+.3f (rounds: citus %s; one node %s)\n' "$w" \
        "$(awk -v c="$c" -v p="$p" 'BEGIN {print c - p}')" "${R[citus_db]}" "${R[plain_db]}"
    unset T H R
done
