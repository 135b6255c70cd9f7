#!/usr/bin/env bash
# Cost of applying a role's policy under SET ROLE (src/run/role_policy.c):
# microseconds of CPU per ai_tool_call() of the one-row select ("call"
# workload of percall.sh) in a PL/pgSQL loop, with the installed build, as
#
#   before    (with REF) the library built from commit REF, as session
#   session   logged in as bench_plain, a role with no neon_ai_tools.*
#             values (nothing to apply: the fast path)
#   plain     logged in as the superuser, SET LOCAL ROLE bench_plain
#   policy    the same to bench_policy, which has four values (cached)
#   uncached  the same in a transaction that has an XID, where the role's
#             values are read from pg_db_role_setting at every call
#
# in rotating order, round after round, in one cluster; the median and the
# minimum of the rounds are printed, and each minus the session's.  The
# time is the backend's time on a CPU (/proc/self/schedstat, nanoseconds),
# not the wall clock: on a shared machine the neighbours' load moves it
# much less.
#
# Usage: test/bench/setrole.sh [rounds, default 8] [REF]
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROUNDS=${1:-8}
REF=${2:-}
COUNT=${SETROLE_CALLS:-20000}
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"
MODES=(session plain policy uncached)
# shellcheck source=test/bench/libraries.sh
source "$HERE/libraries.sh"
if [ -n "$REF" ]; then
    bench_libraries setrole "$REF"
    MODES=(before "${MODES[@]}")
fi

nat_cluster_start nat_setrole
PSQL=("$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -f "$HERE/setup.sql" >/dev/null
"${PSQL[@]}" >/dev/null <<SQL
ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off;
CREATE ROLE bench_plain LOGIN;
CREATE ROLE bench_policy;
GRANT SELECT ON bench_one TO bench_plain, bench_policy;
-- the backend's time on a CPU, in ns, for whichever role the loop runs as
CREATE FUNCTION cpu_ns() RETURNS bigint LANGUAGE sql SECURITY DEFINER
  AS \$\$ SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint \$\$;
LOAD 'neon_ai_tools';
ALTER ROLE bench_policy SET neon_ai_tools.max_rows = 100;
ALTER ROLE bench_policy SET neon_ai_tools.read_only = on;
ALTER ROLE bench_policy SET neon_ai_tools.enabled_tools = 'select_query, list_tables';
ALTER ROLE bench_policy SET neon_ai_tools.lock_timeout = '1s';
SQL

declare -A SETUP=(
    [before]=""
    [session]=""
    [plain]="PERFORM set_config('role', 'bench_plain', true);"
    [policy]="PERFORM set_config('role', 'bench_policy', true);"
    [uncached]="PERFORM pg_current_xact_id(); PERFORM set_config('role', 'bench_policy', true);")

# microseconds of CPU per call, after 50 warm-up calls
per_call() {
    local login=()
    if [ "$1" = before ]; then bench_use before; else bench_use after; fi
    # the same privileges (a superuser skips their checks) in every mode
    case $1 in before | session) login=(-U bench_plain) ;; esac
    "$NAT_PG_BIN/psql" -X -At "${login[@]}" -c "DO \$\$
DECLARE t0 bigint; i int; j jsonb;
BEGIN
  ${SETUP[$1]}
  FOR i IN 1..50 LOOP j := ai_tool_call('select_query', '{\"table\": \"bench_one\"}'); END LOOP;
  t0 := cpu_ns();
  FOR i IN 1..$COUNT LOOP j := ai_tool_call('select_query', '{\"table\": \"bench_one\"}'); END LOOP;
  IF j->>'success' <> 'true' THEN RAISE EXCEPTION '%', j; END IF;
  RAISE NOTICE '%', round((cpu_ns() - t0) / 1000.0 / $COUNT, 3);
END \$\$" 2>&1 | sed -n 's/.*NOTICE: *//p'
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

declare -A times
for m in "${MODES[@]}"; do times[$m]=""; done
for ((r = 1; r <= ROUNDS; r++)); do
    # rotate the order of the modes from round to round
    for ((k = 0; k < ${#MODES[@]}; k++)); do
        m=${MODES[(k + r) % ${#MODES[@]}]}
        times[$m]+="$(per_call "$m") "
    done
done

echo "microseconds of CPU per call ($COUNT calls a round, $ROUNDS rounds${REF:+; before: $(git -C "$NAT_ROOT" rev-parse --short "$REF")})"
printf '%-9s %9s %9s %12s %12s\n' mode median min "median - s" "min - s"
sm=$(printf '%s\n' ${times[session]} | median)
sn=$(printf '%s\n' ${times[session]} | sort -n | head -1)
for m in "${MODES[@]}"; do
    md=$(printf '%s\n' ${times[$m]} | median)
    mn=$(printf '%s\n' ${times[$m]} | sort -n | head -1)
    awk -v m="$m" -v md="$md" -v mn="$mn" -v sm="$sm" -v sn="$sn" \
        'BEGIN { printf "%-9s %9.2f %9.2f %12.2f %12.2f\n", m, md, mn, md - sm, mn - sn }'
done
