#!/usr/bin/env bash
# The fixed cost of a tool call: the backend's CPU time per call of
# ai_tool_call() minus its CPU time per run of the hand-written query that
# returns the same rows as jsonb, both in the same PL/pgSQL loop (no client
# round trip), in alternating rounds.  What is left is what the call's
# machinery costs (subtransaction, settings, timer, guards, argument
# validation, planning the SQL, the envelope), not what the query costs.
#
#   call:  select_query of the one-row table bench_one, '*'
#          vs SELECT COALESCE(jsonb_agg(to_jsonb(o)), '[]') FROM bench_one o
#   point: select_query {"id": n} on the 100,000-row table bench
#          vs SELECT COALESCE(jsonb_agg(to_jsonb(b)), '[]') FROM bench b WHERE id = n
#
# Both sides build their arguments the same way (a constant for call,
# jsonb_build_object for the tool's point and an integer for the query's).
# The figure is CPU time (/proc/self/schedstat), which other work on the
# machine disturbs less than the wall clock; the median and the minimum
# of the rounds are printed.
#
# Usage: test/bench/fixedcost.sh [rounds, default 8] [REF]
# (with REF, the library built from commit REF is measured too, as
# "before"; FIXEDCOST_CALLS calls per round, default 20000)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROUNDS=${1:-8}
REF=${2:-}
COUNT=${FIXEDCOST_CALLS:-20000}
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"
BUILDS=(after)
# shellcheck source=test/bench/libraries.sh
source "$HERE/libraries.sh"
if [ -n "$REF" ]; then
    bench_libraries fixedcost "$REF"
    BUILDS=(before after)
fi

nat_cluster_start nat_fixedcost
PSQL=("$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -f "$HERE/setup.sql" >/dev/null
"${PSQL[@]}" >/dev/null <<SQL
ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off;
-- the backend's time on a CPU, in ns
CREATE FUNCTION cpu_ns() RETURNS bigint LANGUAGE sql
  AS \$\$ SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint \$\$;
SQL

declare -A STMT=(
    [call_tool]="j := ai_tool_call('select_query', '{\"table\": \"bench_one\"}')"
    [call_sql]="SELECT COALESCE(jsonb_agg(to_jsonb(o)), '[]') INTO j FROM bench_one o"
    [point_tool]="j := ai_tool_call('select_query', jsonb_build_object('table', 'bench', 'where', jsonb_build_object('id', 1 + (i * 7919) % 100000)))"
    [point_sql]="SELECT COALESCE(jsonb_agg(to_jsonb(b)), '[]') INTO j FROM bench b WHERE id = 1 + (i * 7919) % 100000")

# microseconds of CPU per statement, after 200 warm-up runs
per_call() {
    "$NAT_PG_BIN/psql" -X -At -c "DO \$\$
DECLARE t0 bigint; i int; j jsonb;
BEGIN
  FOR i IN 1..200 LOOP ${STMT[$1]}; END LOOP;
  t0 := cpu_ns();
  FOR i IN 1..$COUNT LOOP ${STMT[$1]}; END LOOP;
  IF j IS NULL OR (jsonb_typeof(j) = 'object' AND j->>'success' <> 'true') THEN RAISE EXCEPTION '%', j; END IF;
  RAISE NOTICE '%', round((cpu_ns() - t0) / 1000.0 / $COUNT, 3);
END \$\$" 2>&1 | sed -n 's/.*NOTICE: *//p'
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

declare -A times
for b in "${BUILDS[@]}"; do
    for s in "${!STMT[@]}"; do times[$b.$s]=""; done
done
for ((r = 1; r <= ROUNDS; r++)); do
    for w in call point; do
        # alternate which side (and which build) goes first
        if ((r % 2)); then sides="tool sql"; else sides="sql tool"; fi
        for b in "${BUILDS[@]}"; do
            bench_use "$b"
            for s in $sides; do times[$b.${w}_$s]+="$(per_call "${w}_$s") "; done
        done
    done
done

echo "microseconds of CPU per call ($COUNT a round, $ROUNDS rounds${REF:+; before: $(git -C "$NAT_ROOT" rev-parse --short "$REF")})"
printf '%-13s %9s %9s %9s %9s %12s %12s\n' workload "tool med" "SQL med" "tool min" "SQL min" "fixed (med)" "fixed (min)"
for b in "${BUILDS[@]}"; do
    for w in call point; do
        tm=$(printf '%s\n' ${times[$b.${w}_tool]} | median)
        sm=$(printf '%s\n' ${times[$b.${w}_sql]} | median)
        tn=$(printf '%s\n' ${times[$b.${w}_tool]} | sort -n | head -1)
        sn=$(printf '%s\n' ${times[$b.${w}_sql]} | sort -n | head -1)
        label=$w
        [ -n "$REF" ] && label="$w ($b)"
        awk -v l="$label" -v tm="$tm" -v sm="$sm" -v tn="$tn" -v sn="$sn" \
            'BEGIN { printf "%-13s %9.2f %9.2f %9.2f %9.2f %12.2f %12.2f\n", l, tm, sm, tn, sn, tm - sm, tn - sn }'
    done
done
