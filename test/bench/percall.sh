#!/usr/bin/env bash
# Cost of one call inside the backend, before and after a change: the
# microseconds one ai_tool_call() takes in a PL/pgSQL loop (no client round
# trip, no pgbench), for the library built from commit REF ("before") and
# the installed one ("after"), in alternating rounds in one cluster.  The
# median and the minimum of the rounds are printed: on a shared machine the
# minimum is the figure least disturbed by other work.
#
# Usage: test/bench/percall.sh REF [rounds, default 8]
# (PERCALL_WORKLOADS picks workloads: call point range insert update.)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REF=${1:?usage: percall.sh REF [rounds]}
ROUNDS=${2:-8}
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"

# shellcheck source=test/bench/libraries.sh
source "$HERE/libraries.sh"
bench_libraries percall "$REF"

nat_cluster_start nat_percall
PSQL=("$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -f "$HERE/setup.sql" >/dev/null
"${PSQL[@]}" -c "ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off" >/dev/null

# the call of each workload (i is the loop counter, d the 100-row document)
declare -A CALL COUNT
CALL[call]="ai_tool_call('select_query', '{\"table\": \"bench_one\"}')"
COUNT[call]=20000
CALL[point]="ai_tool_call('select_query', jsonb_build_object('table', 'bench', 'where', jsonb_build_object('id', 1 + (i * 7919) % 100000)))"
COUNT[point]=20000
CALL[range]="ai_tool_call('select_query', jsonb_build_object('table', 'bench', 'where', jsonb_build_object('id', jsonb_build_object('between', jsonb_build_array(1 + (i * 7919) % 99000, 1000 + (i * 7919) % 99000))), 'limit', 1000))"
COUNT[range]=300
CALL[insert]="ai_tool_call('insert_data', jsonb_build_object('table', 'bench_ins', 'rows', d, 'returning', '[]'::jsonb))"
COUNT[insert]=300
CALL[update]="ai_tool_call('update_data', jsonb_build_object('table', 'bench', 'set', jsonb_build_object('qty', i % 100), 'where', jsonb_build_object('id', jsonb_build_object('between', jsonb_build_array(1 + (i * 7919) % 99990, 10 + (i * 7919) % 99990))), 'returning', '[]'::jsonb))"
COUNT[update]=3000

# microseconds per call, after 50 warm-up calls (plan cache, catalog caches)
per_call() {
    local w=$1
    "$NAT_PG_BIN/psql" -X -At -c "DO \$\$
DECLARE t0 timestamptz; i int; j jsonb; d jsonb;
BEGIN
  SELECT doc INTO d FROM bench_doc;
  FOR i IN 1..50 LOOP j := ${CALL[$w]}; END LOOP;
  t0 := clock_timestamp();
  FOR i IN 1..${COUNT[$w]} LOOP j := ${CALL[$w]}; END LOOP;
  IF j->>'success' <> 'true' THEN RAISE EXCEPTION '%', j; END IF;
  RAISE NOTICE '%', round(extract(epoch FROM clock_timestamp() - t0) * 1000000 / ${COUNT[$w]}, 2);
END \$\$" 2>&1 | sed -n 's/.*NOTICE: *//p'
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

echo "before: $(git -C "$NAT_ROOT" rev-parse --short "$REF"); after: the installed build; microseconds per call"
printf '%-8s %12s %12s %12s %12s %10s %10s\n' workload "before med" "after med" "before min" "after min" "a/b med" "a/b min"
for w in ${PERCALL_WORKLOADS:-call point range insert update}; do
    declare -A times=([before]="" [after]="")
    for ((r = 1; r <= ROUNDS; r++)); do
        if ((r % 2)); then order="before after"; else order="after before"; fi
        for v in $order; do
            bench_use "$v"
            times[$v]+="$(per_call "$w") "
        done
    done
    bm=$(printf '%s\n' ${times[before]} | median)
    am=$(printf '%s\n' ${times[after]} | median)
    bn=$(printf '%s\n' ${times[before]} | sort -n | head -1)
    an=$(printf '%s\n' ${times[after]} | sort -n | head -1)
    awk -v w="$w" -v bm="$bm" -v am="$am" -v bn="$bn" -v an="$an" \
        'BEGIN { printf "%-8s %12.2f %12.2f %12.2f %12.2f %10.3f %10.3f\n", w, bm, am, bn, an, am / bm, an / bn }'
    unset times
done
