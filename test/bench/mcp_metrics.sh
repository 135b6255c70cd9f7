#!/usr/bin/env bash
# What the metrics cost (issue 34): neon-ai-tools-mcp --http with metrics
# off (no --admin-listen: nothing is counted) against the same program with
# metrics on (--admin-listen, scraped once a second while it is measured),
# side by side in one run on the same database.  wrk posts the point select
# of mcp_http.sh (test/bench/http/point.lua: select_query by a random key,
# stateless 2026-07-28, keep-alive); rounds alternate the two (and which
# goes first), and the figures are the medians of the rounds: calls/s, p50
# and p99 latency, CPU time per call, and the ratio on / off (also the
# median of each pair of neighbouring rounds' ratios).  Then the counting
# alone (test/bench/mcp/metrics_cost.c, CPU time of the calls one request
# makes, 16 threads on the same counters) as a share of the server's CPU
# per call.  Every response is checked (a failed call fails the run).  Not
# a test.
#
# Usage: test/bench/mcp_metrics.sh [seconds per round, default 10] [rounds, default 6]
# (BENCH_HTTP_CLIENTS="1 16" picks the client counts, default 16;
# BENCH_HTTP_PORT=8881 is the first of the three ports used; MCP_PROGRAM
# names the program, default the installed one; MCP_PROGRAM_OFF, if set, is
# the program for the "off" side instead, e.g. one built before metrics
# existed; BENCH_REUSE_CLUSTER=yes uses the PG* environment's database,
# already loaded with setup.sql)
# Needs wrk (Debian: apt-get install wrk), curl, and the extension and
# neon-ai-tools-mcp installed.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SECONDS_PER_ROUND=${1:-10}
ROUNDS=${2:-6}
# shellcheck source=scripts/cluster.sh
source "$HERE/../../scripts/cluster.sh"

MCP_PROGRAM=${MCP_PROGRAM:-$("$NAT_PG_CONFIG" --bindir)/neon-ai-tools-mcp}
MCP_PROGRAM_OFF=${MCP_PROGRAM_OFF:-$MCP_PROGRAM}
if ! command -v wrk >/dev/null || ! command -v curl >/dev/null || [ ! -x "$MCP_PROGRAM" ]; then
    echo "metrics cost: skipped (needs wrk, curl and an installed neon-ai-tools-mcp)"
    exit 0
fi
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/neon_ai_tools.mcp_metrics.XXXXXX")
nat_on_exit rm -rf "$LOGS"

if [ "${BENCH_REUSE_CLUSTER:-no}" != yes ]; then
    nat_cluster_start nat_bench
    "$NAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -f "$HERE/setup.sql" >/dev/null
    "$NAT_PG_BIN/psql" -X -q -c "ALTER DATABASE $PGDATABASE SET neon_ai_tools.audit = off" >/dev/null
fi

OFF_PORT=${BENCH_HTTP_PORT:-8881}
ON_PORT=$((OFF_PORT + 1))
ADMIN_PORT=$((OFF_PORT + 2))
for port in "$OFF_PORT" "$ON_PORT" "$ADMIN_PORT"; do
    nat_port_free "$port" || { echo "port $port is in use (set BENCH_HTTP_PORT)" >&2; exit 1; }
done

# the same settings as mcp_http.sh: a pool of 16, TCP on the loopback
CONNINFO="host=127.0.0.1 port=$PGPORT dbname=$PGDATABASE user=$PGUSER"
"$MCP_PROGRAM_OFF" --http "127.0.0.1:$OFF_PORT" --pool-size 16 "$CONNINFO" 2>"$LOGS/off.log" &
OFF_PID=$!
nat_on_exit kill "$OFF_PID"
"$MCP_PROGRAM" --http "127.0.0.1:$ON_PORT" --admin-listen "127.0.0.1:$ADMIN_PORT" --pool-size 16 \
    "$CONNINFO" 2>"$LOGS/on.log" &
ON_PID=$!
nat_on_exit kill "$ON_PID"
declare -A PID=([off]=$OFF_PID [on]=$ON_PID) PORT=([off]=$OFF_PORT [on]=$ON_PORT)
for side in off on; do
    for ((i = 0; i < 100; i++)); do
        nat_port_free "${PORT[$side]}" || break
        kill -0 "${PID[$side]}" 2>/dev/null || break
        sleep 0.1
    done
    if nat_port_free "${PORT[$side]}"; then
        echo "metrics $side did not start on port ${PORT[$side]}:" >&2
        cat "$LOGS/$side.log" >&2
        exit 1
    fi
done

FAILED=$LOGS/failed
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# one wrk run: prints "calls/s p50_us p99_us cpu_us_per_call"; the "on"
# side is scraped once a second meanwhile, as Prometheus would
round() {
    local side=$1 clients=$2 seconds=$3 threads before after line scraper=""
    threads=$((clients < $(nproc) ? clients : $(nproc)))
    if [ "$side" = on ]; then
        (while :; do curl -sf -o /dev/null "http://127.0.0.1:$ADMIN_PORT/metrics" || exit 1; sleep 1; done) &
        scraper=$!
    fi
    before=$(cpu_ticks "${PID[$side]}")
    line=$(wrk -t "$threads" -c "$clients" -d "${seconds}s" -s "$HERE/http/point.lua" \
        "http://127.0.0.1:${PORT[$side]}/mcp" -- neon 2>>"$LOGS/wrk.log" | tail -1)
    after=$(cpu_ticks "${PID[$side]}")
    [ -z "$scraper" ] || kill "$scraper" 2>/dev/null || true
    read -r rps p50 p99 requests bad errors <<<"$line"
    if [ "${bad:-1}" != 0 ] || [ "${errors:-1}" != 0 ] || [ "${requests:-0}" = 0 ]; then
        echo "metrics $side, $clients clients: $requests calls, $bad bad responses, $errors socket errors" >&2
        tail -3 "$LOGS/wrk.log" >&2
        touch "$FAILED"
    fi
    awk -v r="$rps" -v a="$p50" -v b="$p99" -v n="$requests" -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" \
        'BEGIN { printf "%s %s %s %.1f\n", r, a, b, (n > 0) ? t * 1e6 / hz / n : 0 }'
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

round off 16 3 >/dev/null
round on 16 3 >/dev/null

printf '%-8s %-14s %10s %9s %9s %12s\n' clients metrics "calls/s" "p50 ms" "p99 ms" "CPU µs/call"
for clients in ${BENCH_HTTP_CLIENTS:-16}; do
    declare -A results=([off]="" [on]="")
    ratios=""
    for ((r = 1; r <= ROUNDS; r++)); do
        order=(off on)
        ((r % 2)) || order=(on off)
        declare -A this=()
        for side in "${order[@]}"; do
            this[$side]=$(round "$side" "$clients" "$SECONDS_PER_ROUND")
            results[$side]+="${this[$side]}"$'\n'
        done
        # each pair of neighbouring rounds gives a ratio of its own
        ratios+="$(awk -v a="${this[on]}" -v b="${this[off]}" 'BEGIN { split(a, x, " "); split(b, y, " "); print x[1] / y[1] }')"$'\n'
        unset this
    done
    for side in off on; do
        for col in 1 2 3 4; do
            m[col]=$(printf '%s' "${results[$side]}" | awk -v c="$col" 'NF {print $c}' | median)
        done
        printf -v "stats_$side" '%s %s %s %s' "${m[1]}" "${m[2]}" "${m[3]}" "${m[4]}"
    done
    pair_median=$(printf '%s' "$ratios" | awk 'NF' | median)
    # shellcheck disable=SC2154  # set by printf -v above
    awk -v c="$clients" -v n="$stats_on" -v d="$stats_off" -v p="$pair_median" -v rs="$(printf '%s' "$ratios" | tr '\n' ' ')" 'BEGIN {
        split(n, a, " "); split(d, b, " ")
        printf "%-8s %-14s %10.0f %9.3f %9.3f %12.0f\n", c, "off", b[1], b[2] / 1000, b[3] / 1000, b[4]
        printf "%-8s %-14s %10.0f %9.3f %9.3f %12.0f\n", c, "on (scraped)", a[1], a[2] / 1000, a[3] / 1000, a[4]
        printf "%-8s %-14s %9.3fx %9.2f %9.2f %12.2f\n", c, "ratio on / off", a[1] / b[1], a[2] / b[2], a[3] / b[3], a[4] / b[4]
        printf "%-8s %-14s %9.3fx (per pair of rounds: %s)\n", c, "median pair", p, rs
    }'
    unset results
done
# The counting alone, in CPU time (other load on the machine does not
# count), against the off side's CPU per call at the last client count
if make -s -C "$HERE/../../src/mcp" metrics-cost PG_CONFIG="$NAT_PG_CONFIG" >"$LOGS/cost.log" 2>&1; then
    line=$("$HERE/mcp/metrics_cost" 16)
    echo "counting alone: $line"
    # shellcheck disable=SC2154
    awk -v l="$line" -v s="$stats_off" 'BEGIN {
        split(s, b, " "); n = split(l, w, " ")
        for (i = 1; i <= n; i++) { if (w[i] == "off,") off = w[i - 3]; if (w[i] == "on") on = w[i - 1] }
        printf "counting alone: %.3f µs per call, %.4f of the server CPU per call with metrics off (%.0f µs)\n",
            (on - off) / 1000, (on - off) / 1000 / b[4], b[4]
    }'
fi
if [ -e "$FAILED" ]; then
    echo "metrics cost: some calls failed (see above): these figures are not valid" >&2
    exit 1
fi
