#!/usr/bin/env bash
# The tool against the hand-written prepared SQL at 1, 2 and 16 pgbench
# clients (issue 19, item 4): run.sh's point select and 100-row insert at
# each client count, alternating rounds, one table of ratios.  A ratio that
# falls as clients grow would mean shared state serialising backends.
# point_wrapped (the hand-written statement in the thinnest C function,
# run.sh) shows what any function-based tool can reach at each count.
#
# Usage: test/bench/concurrency.sh [seconds per round, default 5] [rounds, default 3]
# (CONCURRENCY_CLIENTS="1 2 16" and BENCH_WORKLOADS="point insert
# point_wrapped" pick.)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SECONDS_PER_ROUND=${1:-5}
ROUNDS=${2:-3}
printf '%-8s %-28s %12s %12s %8s\n' clients workload "tool tps" "SQL tps" ratio
for c in ${CONCURRENCY_CLIENTS:-1 2 16}; do
    BENCH_CLIENTS=$c BENCH_WORKLOADS=${BENCH_WORKLOADS:-point insert point_wrapped} \
        BENCH_MEMORY=no BENCH_MCP=no \
        bash "$HERE/run.sh" "$SECONDS_PER_ROUND" "$ROUNDS" 2>/dev/null |
        awk -v c="$c" 'NR > 1 && /[0-9]/ && !/^==/ { printf "%-8s %s\n", c, $0 }'
done
