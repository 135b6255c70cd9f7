#!/usr/bin/env bash
# What an empty read's hints cost (neon_ai_tools.empty_result_hints,
# src/answer/empty_hints.c): the backend's CPU time per select_query call
# with the hints on (the default, query) and off, in PL/pgSQL loops (no
# client round trip, after 200 warm-up calls of each), in blocks of calls
# that alternate between the two in one backend, round after round.
#
#   point:        {"id": n} on the 100,000-row bench table: rows found, so
#                 no hint is looked for (the cost must not be measurable)
#   empty_stats:  {"status": "Active"} on hint_stats (indexed, analyzed):
#                 "active" from the column's statistics
#   empty_probe:  the same on hint_probe (indexed, no statistics): from
#                 the bounded query's index probes
#   empty_scan:   the same on hint_scan (no index, no statistics): the read
#                 scans 100,000 rows, the bounded query the first 1,000
#   empty_small:  the same on hint_small (200 rows, no index, no
#                 statistics): the read and the bounded query scan it all
#   empty_rls_scan, empty_rls_probe: hint_small and hint_probe under
#                 row-level security (a policy that lets every row through,
#                 read through a SECURITY DEFINER function of another role,
#                 on both sides): the bounded read is a query as the role
#   point_aa:     point with the hints off on both sides: the noise of the
#                 method, for comparison (not in the default set)
#
# The figure is CPU time (/proc/self/schedstat); the median and the
# minimum of the rounds are printed, and on / off of the medians.
#
# Usage: test/bench/empty_hints.sh [rounds, default 8]
# (HINTS_WORKLOADS="point point_aa" picks workloads)
# (HINTS_CALLS calls per round, default 20000; empty_scan makes a hundredth
# as many: each reads the whole table)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROUNDS=${1:-8}
COUNT=${HINTS_CALLS:-20000}
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"

nat_cluster_start nat_hints
PSQL=("$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -f "$HERE/setup.sql" >/dev/null
"${PSQL[@]}" -f "$HERE/setup_hints.sql" >/dev/null
"${PSQL[@]}" >/dev/null <<SQL
ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off;
-- the backend's time on a CPU, in ns
CREATE FUNCTION cpu_ns() RETURNS bigint LANGUAGE sql
  AS \$\$ SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint \$\$;
SQL

read -r -a WORKLOADS <<<"${HINTS_WORKLOADS:-point empty_stats empty_probe empty_scan empty_small empty_rls_scan empty_rls_probe}"
declare -A STMT=(
    [point]="j := ai_tool_call('select_query', jsonb_build_object('table', 'bench', 'where', jsonb_build_object('id', 1 + (i * 7919) % 100000)))"
    [empty_stats]="j := ai_tool_call('select_query', '{\"table\": \"hint_stats\", \"where\": {\"status\": \"Active\"}}')"
    [empty_probe]="j := ai_tool_call('select_query', '{\"table\": \"hint_probe\", \"where\": {\"status\": \"Active\"}}')"
    [empty_scan]="j := ai_tool_call('select_query', '{\"table\": \"hint_scan\", \"where\": {\"status\": \"Active\"}}')"
    [empty_small]="j := ai_tool_call('select_query', '{\"table\": \"hint_small\", \"where\": {\"status\": \"Active\"}}')")
# the answer a workload must give with the hints on (checked once a round)
STMT[point_aa]=${STMT[point]}
STMT[empty_rls_scan]="j := as_hint_agent('{\"table\": \"public.hint_rls\", \"where\": {\"status\": \"Active\"}}')"
STMT[empty_rls_probe]="j := as_hint_agent('{\"table\": \"public.hint_rls_probe\", \"where\": {\"status\": \"Active\"}}')"
declare -A EXPECT=([point]="rows" [empty_stats]="active" [empty_probe]="active" [empty_scan]="active" [empty_small]="active" [point_aa]="rows"
    [empty_rls_scan]="active" [empty_rls_probe]="active")

# microseconds of CPU per call with the hints on (query) and off, in one
# backend: after warm-up calls on both, blocks of calls alternate between
# the two settings (which goes first alternating too), so that the
# machine's drift falls on both alike; prints "on off".  Each block is a
# transaction of its own, its setting SET before it: a setting changed
# inside the measured transaction would make every subtransaction's end
# there walk all the settings (the call's and the hints' own).
per_round() {
    local n=$COUNT warm=200 blocks=20 on=query b m
    [ "$1" = empty_scan ] && n=$((COUNT / 100)) && warm=20 && blocks=10
    [ "$1" = point_aa ] && on=off
    {
        for m in "$on" off; do
            echo "SET neon_ai_tools.empty_result_hints = $m;"
            echo "DO \$\$ DECLARE i int; j jsonb; BEGIN
  FOR i IN 1..$warm LOOP ${STMT[$1]}; END LOOP;
  IF j->>'success' <> 'true' THEN RAISE EXCEPTION '%', j; END IF;
  IF '$m' = 'query' AND '${EXPECT[$1]}' = 'active' AND j->>'did_you_mean' IS DISTINCT FROM 'active' THEN RAISE EXCEPTION 'no hint: %', j; END IF;
  IF '$m' = 'off' AND j ? 'did_you_mean' THEN RAISE EXCEPTION 'a hint with hints off: %', j; END IF;
END \$\$;"
        done
        for ((b = 1; b <= blocks * 2; b++)); do
            if (((b + $2) % 2 == 0)); then m=$on; else m=off; fi
            echo "SET neon_ai_tools.empty_result_hints = $m;"
            echo "DO \$\$ DECLARE t0 bigint; i int; j jsonb; BEGIN
  t0 := cpu_ns();
  FOR i IN 1..$((n / blocks)) LOOP ${STMT[$1]}; END LOOP;
  RAISE NOTICE '$((b + $2)) %', cpu_ns() - t0;
END \$\$;"
        done
    } | "$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 2>&1 | sed -n 's/.*NOTICE: *//p' |
        awk -v n="$n" '{ if ($1 % 2 == 0) on += $2; else off += $2 }
            END { printf "%.3f %.3f\n", on / 1000 / n, off / 1000 / n }'
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

declare -A times
for ((r = 1; r <= ROUNDS; r++)); do
    for w in "${WORKLOADS[@]}"; do
        read -r on off <<<"$(per_round "$w" "$r")"
        times[$w.query]+="$on "
        times[$w.off]+="$off "
    done
done

echo "microseconds of CPU per select_query call ($COUNT a round, $ROUNDS rounds)"
printf '%-12s %9s %9s %9s %9s %14s\n' workload "on med" "off med" "on min" "off min" "on/off (med)"
for w in "${WORKLOADS[@]}"; do
    om=$(printf '%s\n' ${times[$w.query]} | median)
    fm=$(printf '%s\n' ${times[$w.off]} | median)
    on=$(printf '%s\n' ${times[$w.query]} | sort -n | head -1)
    fn=$(printf '%s\n' ${times[$w.off]} | sort -n | head -1)
    awk -v l="$w" -v om="$om" -v fm="$fm" -v on="$on" -v fn="$fn" \
        'BEGIN { printf "%-12s %9.2f %9.2f %9.2f %9.2f %14.3f\n", l, om, fm, on, fn, om / fm }'
done
