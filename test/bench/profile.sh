#!/usr/bin/env bash
# Where a tool call's time goes, by perf (Debian's linux-perf): one backend
# runs a workload's calls in a PL/pgSQL loop (no client round trip) and
# perf samples that backend alone, with call graphs.  Printed per workload:
#   - inclusive share (self + callees) of the steps of a call, in the order
#     a call goes through them (validate, plan, execute, render, and the
#     fixed machinery around them);
#   - the functions with the most self time.
# Percentages are of the backend's samples while the loop ran; the loop's
# own PL/pgSQL overhead is in them (as "exec_stmts" and its callees).
#
# Usage: test/bench/profile.sh [seconds per workload, default 5]
# (PROFILE_WORKLOADS picks workloads: call point insert update; PROFILE_OUT
# keeps the perf data; perf needs
# root or kernel.perf_event_paranoid <= 1.)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SECONDS_PER=${1:-5}
command -v perf >/dev/null || { echo "profile.sh: perf is not installed (apt-get install linux-perf)" >&2; exit 1; }
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"
nat_cluster_start nat_profile
PSQL=("$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -f "$HERE/setup.sql" >/dev/null
"${PSQL[@]}" -c "ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off" >/dev/null
# PROFILE_OUT=DIR keeps the perf data there (for perf report by hand)
if [ -n "${PROFILE_OUT:-}" ]; then
    mkdir -p "$PROFILE_OUT"
    OUT=$PROFILE_OUT
else
    nat_mktemp_dir profile
    OUT=$NAT_DIR
fi

declare -A CALL
CALL[call]="ai_tool_call('select_query', '{\"table\": \"bench_one\"}')"
CALL[point]="ai_tool_call('select_query', jsonb_build_object('table', 'bench', 'where', jsonb_build_object('id', 1 + (i * 7919) % 100000)))"
CALL[insert]="ai_tool_call('insert_data', jsonb_build_object('table', 'bench_ins', 'rows', d, 'returning', '[]'::jsonb))"
CALL[update]="ai_tool_call('update_data', jsonb_build_object('table', 'bench', 'set', jsonb_build_object('qty', i % 100), 'where', jsonb_build_object('id', jsonb_build_object('between', jsonb_build_array(1 + (i * 7919) % 99990, 10 + (i * 7919) % 99990))), 'returning', '[]'::jsonb))"

# The steps of a call, outermost first: name shown, then the function.
STEPS=(
    "the call (nat_run_tool_call)|nat_run_tool_call"
    "  subtransaction begin|BeginInternalSubTransaction"
    "  subtransaction release|ReleaseCurrentSubTransaction"
    "  settings (GUC nest level)|apply_call_settings"
    "  settings restored|AtEOXact_GUC"
    "  timer arm|nat_timer_arm"
    "  timer disarm|nat_timer_disarm"
    "  guards begin|nat_guard_begin"
    "  validate: normalize|nat_normalize_args"
    "  validate: decode|nat_decode_args"
    "  plan: resolve the table|nat_resolve_call_table"
    "  plan: where|nat_deparse_where"
    "  plan: select_query|select_query"
    "  plan: insert_data|insert_data"
    "  plan: update_data|update_data"
    "  execute: the plan|nat_run_plan"
    "    plan cache|nat_prepare_cached"
    "    executor start|standard_ExecutorStart"
    "    executor run|standard_ExecutorRun"
    "    columns header|nat_prepare_columns"
    "    rows rendered|sink_receive"
    "  render: the envelope|nat_response_finish"
    "  free the call|MemoryContextDelete"
    "  audit|nat_audit_call"
    "arguments built by the loop|jsonb_build_object"
)

for w in ${PROFILE_WORKLOADS:-call point insert update}; do
    app="nat_profile_$w"
    # calls enough to outlast the sampling window; the backend is found by
    # its application_name
    PGAPPNAME=$app "$NAT_PG_BIN/psql" -X -q -c "DO \$\$
DECLARE i bigint; j jsonb; d jsonb; t0 timestamptz := clock_timestamp();
BEGIN
  SELECT doc INTO d FROM bench_doc;
  i := 0;
  WHILE clock_timestamp() < t0 + interval '$((SECONDS_PER + 3)) seconds' LOOP
    i := i + 1;
    j := ${CALL[$w]};
  END LOOP;
  IF j->>'success' <> 'true' THEN RAISE EXCEPTION '%', j; END IF;
END \$\$" &
    loop=$!
    pid=""
    for _ in $(seq 50); do
        pid=$("$NAT_PG_BIN/psql" -X -At -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$app' AND state = 'active'")
        [ -n "$pid" ] && break
        sleep 0.1
    done
    [ -n "$pid" ] || { echo "profile.sh: backend of $w not found" >&2; exit 1; }
    sleep 1    # warm-up: catalog caches, plan cache
    perf record -q -F 999 --call-graph dwarf,16384 -p "$pid" -o "$OUT/$w.data" -- sleep "$SECONDS_PER" >/dev/null 2>&1
    wait "$loop"

    echo "== $w: $(perf report -i "$OUT/$w.data" --stdio 2>/dev/null | sed -n 's/^# Samples: *\([0-9.]*[KM]*\) .*/\1 samples/p' | head -1)"
    # "  12.34%  0.10%  [.] symbol   -   -": symbol = what follows "[.] " up
    # to two spaces
    perf report -i "$OUT/$w.data" --children --sort symbol --stdio -g none 2>/dev/null |
        awk '/^ +[0-9.]+%/ { sym = $0; sub(/^[^]]*\] /, "", sym); sub(/  .*/, "", sym);
                             if (!(sym in incl)) incl[sym] = $1 }
             END { for (s in incl) print s "\t" incl[s] }' > "$OUT/$w.incl"
    printf '   %-34s %9s\n' "step (inclusive)" "share"
    for step in "${STEPS[@]}"; do
        label=${step%%|*}
        fn=${step##*|}
        share=$(awk -F'\t' -v f="$fn" '$1 == f { print $2 }' "$OUT/$w.incl")
        [ -n "$share" ] && printf '   %-34s %9s\n' "$label" "$share"
    done
    printf '   %-34s %9s  %s\n' "top self time" "share" "object"
    perf report -i "$OUT/$w.data" --no-children --sort symbol,dso --stdio -g none 2>/dev/null |
        awk '/^ +[0-9.]+%/ { pct = $1; line = $0; sub(/^[^]]*\] /, "", line);
                             n = split(line, f, /  +/);
                             printf "   %-34s %9s  %s\n", substr(f[1], 1, 34), pct, f[2] }' |
        head -12 || true    # head closes the pipe early
done
