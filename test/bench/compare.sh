#!/usr/bin/env bash
# Before/after benchmark in one run: the tool/hand-written throughput ratio
# of the extension built from an earlier commit ("before") and of the
# installed build ("after"), measured in alternating rounds in one cluster:
# each round puts one build's library in place and runs pgbench on the tool
# script and on the hand-written script (new connections load the library
# anew).  Prints both ratios and after/before per workload.
#
# Usage: test/bench/compare.sh REF [seconds per round, default 5] [rounds, default 3]
# (BENCH_WORKLOADS picks workloads, as for run.sh; default: point range
# insert update scan).  Needs the extension installed (make install); the
# installed library is put back at the end.  Both builds must share the
# install script's version.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REF=${1:?usage: compare.sh REF [seconds] [rounds]}
SECONDS_PER_ROUND=${2:-5}
ROUNDS=${3:-3}
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"

# shellcheck source=test/bench/libraries.sh
source "$HERE/libraries.sh"
bench_libraries compare "$REF"

nat_cluster_start nat_compare
PSQL=("$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1)
PGBENCH=("$NAT_PG_BIN/pgbench" -n -M prepared -c 1 -j 1)
"${PSQL[@]}" -f "$HERE/setup.sql" >/dev/null
"${PSQL[@]}" -c "ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off" >/dev/null

# a new file, not the old one rewritten: a backend may still map it
# as in run.sh: the scan workload runs a fixed number of transactions
tps() {
    local length=()
    case $1 in scan_*) length=(-t 3) ;; *) length=(-T "$SECONDS_PER_ROUND") ;; esac
    bench_fresh_round "$1"
    "${PGBENCH[@]}" "${length[@]}" -f "$HERE/$1" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

echo "before: $(git -C "$NAT_ROOT" rev-parse --short "$REF"); after: the installed build"
printf '%-24s %14s %14s %12s\n' workload "before ratio" "after ratio" after/before
WORKLOADS=${BENCH_WORKLOADS:-point range insert update scan}
case " $WORKLOADS " in *" scan "*) "${PSQL[@]}" -f "$HERE/setup_scan.sql" >/dev/null ;; esac
for w in $WORKLOADS; do
    declare -A ratios=()
    for v in before after; do ratios[$v]=""; done
    for ((r = 1; r <= ROUNDS; r++)); do
        if ((r % 2)); then order="before after"; else order="after before"; fi
        for v in $order; do
            bench_use "$v"
            t=$(tps "${w}_tool.sql")
            h=$(tps "${w}_sql.sql")
            ratios[$v]+="$(awk -v t="$t" -v h="$h" 'BEGIN { print t / h }') "
        done
    done
    b=$(printf '%s\n' ${ratios[before]} | median)
    a=$(printf '%s\n' ${ratios[after]} | median)
    awk -v w="$w" -v b="$b" -v a="$a" 'BEGIN { printf "%-24s %14.2f %14.2f %12.2f\n", w, b, a, a / b }'
    unset ratios
done
