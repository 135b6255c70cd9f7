#!/usr/bin/env bash
# Run every test suite of neon_ai_tools on a fresh Debian bookworm machine:
# installs the dependencies, builds (warnings fail the run), installs the
# extension, then runs each suite as an unprivileged user and counts the
# individual results.  The last line is always "N passed, N failed".
#
# Usage: scripts/test.sh            (as root, or as a user with sudo)
# Env:   NAT_SUITE_TIMEOUT=seconds  per-suite limit (default 1200)
#        NAT_TEST_SKIP="suite|file ..."  suites (mcpauth) or TAP files
#                                   (004_mcp) to leave out, named in the
#                                   summary (the matrix leaves the MCP
#                                   program's out of one of its chroots)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
deps_secs=$SECONDS
bash "$HERE/install-deps.sh"
deps_secs=$((SECONDS - deps_secs))
# shellcheck source=scripts/cluster.sh
source "$HERE/cluster.sh"

NAT_SUITE_TIMEOUT=${NAT_SUITE_TIMEOUT:-1200}
TOTAL_PASS=0
TOTAL_FAIL=0
TESTS_RAN=0   # results from test suites proper (a failed build is not one)
SUMMARY=("$(printf '%-10s installed in %ss' deps "$deps_secs")")
FAILURES=()   # "suite: not ok ..." lines, for the summary

# --- result counting --------------------------------------------------------
# shellcheck source=scripts/results.sh
source "$HERE/results.sh"

record() {
    local name=$1 pass=$2 fail=$3 skip=$4 note=${5:-} secs=${6:-}
    TOTAL_PASS=$((TOTAL_PASS + pass))
    TOTAL_FAIL=$((TOTAL_FAIL + fail))
    [ "$name" = build ] || TESTS_RAN=$((TESTS_RAN + pass + fail))
    SUMMARY+=("$(printf '%-10s %4d passed, %4d failed, %4d skipped%s%s' \
        "$name" "$pass" "$fail" "$skip" "${secs:+  ${secs}s}" "${note:+  ($note)}")")
}

# the failing results of a suite's log, named in the summary
note_failures() {
    local name=$1 log=$2 line
    while IFS= read -r line; do
        FAILURES+=("failed: $name: $line")
    done < <(failed_results "$log")
}

# skipped NAME: is NAME (a suite, or a TAP file without .pl) in NAT_TEST_SKIP?
skipped() {
    case " ${NAT_TEST_SKIP:-} " in *" $1 "*) return 0 ;; esac
    return 1
}

# run_suite NAME FORMAT CMD...: run CMD in the work copy as the unprivileged
# user, show and keep its output, count results by FORMAT (regress or tap).  A
# non-zero exit with no counted failure (a crash, a dead TAP script, a
# timeout) still counts as one failure.  Adding a suite is one call.
run_suite() {
    local name=$1 format=$2 rc note="" start=$SECONDS
    shift 2
    local log=$LOGS/$name.log
    if skipped "$name"; then
        return 0
    fi
    echo
    echo "==================== suite: $name ===================="
    set +e
    nat_run_as_user "$WORK" timeout -k 30 "$NAT_SUITE_TIMEOUT" "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    set -e
    case $format in
        regress) count_regress "$log" ;;
        tap) count_tap "$log" ;;
        *) echo "run_suite: unknown format $format" >&2; return 2 ;;
    esac
    if [ "$rc" -ne 0 ] && [ "$C_FAIL" -eq 0 ]; then
        C_FAIL=1
        note="exit code $rc"
        [ "$rc" -ne 124 ] || note="timed out after ${NAT_SUITE_TIMEOUT}s"
    fi
    record "$name" "$C_PASS" "$C_FAIL" "$C_SKIP" "$note" $((SECONDS - start))
    [ "$C_FAIL" -eq 0 ] || note_failures "$name" "$log"
    echo "--- suite $name: $C_PASS passed, $C_FAIL failed, $C_SKIP skipped${note:+ ($note)}"
    return "$rc"
}

finish() {
    echo
    echo "==================== summary ===================="
    printf '%s\n' "${SUMMARY[@]}"
    [ "${#FAILURES[@]}" -eq 0 ] || printf '%s\n' "${FAILURES[@]}"
    local status=0
    if [ "$TESTS_RAN" -eq 0 ]; then
        echo "no tests ran"
        status=1
    fi
    [ "$TOTAL_FAIL" -eq 0 ] || status=1
    echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
    exit "$status"
}

# --- work copy ----------------------------------------------------------------
# pg_regress writes results/ into the source tree and TAP writes tmp_check/,
# so the suites run in a copy owned by the unprivileged user; the checkout
# itself is left untouched.  git ls-files copies the sources without build
# products; outside a git checkout, copy everything and make clean.
nat_mktemp_dir work
WORK=$NAT_DIR/src
LOGS=$NAT_DIR/logs
mkdir -p "$WORK" "$LOGS"
if git -C "$NAT_ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$NAT_ROOT" ls-files -z --cached --others --exclude-standard |
        tar -C "$NAT_ROOT" --null --ignore-failed-read -T - -cf - 2>/dev/null |
        tar -C "$WORK" -xf -
    clean=0
else
    cp -a "$NAT_ROOT/." "$WORK/"
    clean=1
fi
[ "$(id -un)" = "$NAT_USER" ] || chown -R "$NAT_USER": "$NAT_DIR"
if [ "$clean" -eq 1 ]; then
    nat_run_as_user "$WORK" make -s clean PG_CONFIG="$NAT_PG_CONFIG" >/dev/null
fi

# --- build ----------------------------------------------------------------------
# A clean build from scratch, so every warning is seen; any warning fails.
echo "==================== build ===================="
build_start=$SECONDS
if ! nat_build "$WORK" "$LOGS/build.log"; then
    record build 0 1 0 "make failed"
    finish
fi
if grep -q 'warning:' "$LOGS/build.log"; then
    record build 0 1 0 "compiler warnings"
elif ! bash "$WORK/scripts/long-functions.sh" > "$LOGS/long-functions.log" 2>&1; then
    # functions a reader can hold in mind (issue 15): none over 150 lines
    cat "$LOGS/long-functions.log"
    record build 0 1 0 "functions over 150 lines"
elif ! bash "$WORK/scripts/check-clusters.sh" > "$LOGS/check-clusters.log" 2>&1; then
    # test clusters name their encoding and locale (issue 33)
    cat "$LOGS/check-clusters.log"
    record build 0 1 0 "a test cluster without an explicit encoding"
elif ! perl "$WORK/scripts/layers.pl" > "$LOGS/layers.log" 2>&1; then
    # the folders are layers: no call or include points up, no circle (issue 35)
    cat "$LOGS/layers.log"
    record build 0 1 0 "a dependency that points up, or a circle (scripts/layers.pl)"
elif ! nat_run_as_user "$WORK" sh scripts/pgindent-check.sh "$NAT_PG_CONFIG" > "$LOGS/pgindent.log" 2>&1; then
    # formatted as pgindent writes it (17 and later ship pgindent; issue 35)
    cat "$LOGS/pgindent.log"
    record build 0 1 0 "not formatted by pgindent, or typedefs.list out of date"
else
    # A clean build is a precondition, not a test: it adds nothing to the counts.
    SUMMARY+=("build      ok (no warnings; layers; $(tail -1 "$LOGS/pgindent.log"))  $((SECONDS - build_start))s")
fi
nat_install "$WORK"

# --- suites ---------------------------------------------------------------------
shopt -s nullglob
regress_tests=("$WORK"/test/sql/*.sql)
# the Citus files need Citus, which scripts/test-citus.sh builds and runs
tap_tests=()
for f in "$WORK"/test/t/*.pl; do
    skipped "$(basename "$f" .pl)" && continue
    case $f in *citus*) ;; *) tap_tests+=("test/t/$(basename "$f")") ;; esac
done
[ -z "${NAT_TEST_SKIP:-}" ] || SUMMARY+=("left out  $NAT_TEST_SKIP (NAT_TEST_SKIP)")
shopt -u nullglob

# suite_on_cluster NAME FORMAT CMD...: run_suite on a scratch cluster of its
# own, showing the end of the server log when the suite fails.
suite_on_cluster() {
    local rc=0
    nat_cluster_start postgres
    run_suite "$@" || rc=$?
    if [ "$rc" -ne 0 ]; then
        if [ "$1" = regress ] && [ -f "$WORK/regression.diffs" ]; then
            echo "--- regression.diffs (first 200 lines)"
            head -200 "$WORK/regression.diffs"
        fi
        echo "--- server log (last 40 lines)"
        tail -40 "$NAT_CLUSTER_LOG" || true
    fi
    nat_cluster_stop "$NAT_CLUSTER_DATA"
    unset PGHOST PGPORT PGUSER PGDATABASE
}

# (a) pg_regress against a scratch cluster.  TAP_TESTS= keeps PGXS's
# installcheck from also running the TAP suite (it has its own step).
if [ "${#regress_tests[@]}" -gt 0 ]; then
    suite_on_cluster regress regress make installcheck TAP_TESTS= PG_CONFIG="$NAT_PG_CONFIG"
fi

# (a2) The response envelope (issue #5): real answers of every tool and of
# every error category, validated against test/envelope/response.schema.json
# with ajv (npm ci, as the unprivileged user, inside run.sh).  Its own scratch
# cluster: the script needs a superuser, postgres_fdw and dblink.
if [ -f "$WORK/test/envelope/run.sh" ]; then
    suite_on_cluster envelope tap bash test/envelope/run.sh
fi

# (a2b) The release (issue 33): META.json against the PGXN Meta Spec (the
# envelope's ajv, installed above), one version everywhere, update chains,
# released scripts unchanged, and make dist in a clone of the checkout (a
# few seconds; no server).
if [ -f "$WORK/test/release/run.sh" ]; then
    run_suite release tap env PG_CONFIG="$NAT_PG_CONFIG" NAT_GIT_ROOT="$NAT_ROOT" \
        bash test/release/run.sh || true
fi

# (a3) The tool catalog (issue 14): ai_tool_list(format) in every format,
# checked with the model providers' own client libraries (npm ci, as the
# unprivileged user, inside run.sh), offline.
if [ -f "$WORK/test/catalog/run.sh" ]; then
    suite_on_cluster catalog tap bash test/catalog/run.sh
fi

# (a3b) The README cannot drift (issue 33): its runnable SQL examples run on
# the demo data and print what it shows, and its figures tables equal a
# fresh measurement (tokens with test/catalog's packages, installed above).
# Its own scratch cluster: the examples create roles and use ALTER SYSTEM.
if [ -f "$WORK/test/readme/run.sh" ]; then
    suite_on_cluster readme tap bash test/readme/run.sh
fi

# (a4) The MCP program's bearer-token authentication (issue 16, item 3):
# src/mcp/auth/auth*.c's unit test with keys and tokens the openssl CLI makes,
# then once more under valgrind.  No server.
if [ -f "$WORK/test/mcp/auth/run.sh" ]; then
    run_suite mcpauth tap env PG_CONFIG="$NAT_PG_CONFIG" bash test/mcp/auth/run.sh || true
fi

# (a5) ai_tool_run() (issue 17): the result messages of recorded model
# responses (test/fixtures), type-checked against the providers' own SDK
# types with TypeScript (npm ci, as the unprivileged user, inside run.sh),
# offline.
if [ -f "$WORK/test/run_types/run.sh" ]; then
    suite_on_cluster run_types tap bash test/run_types/run.sh
fi

# (b) TAP: each script starts its own clusters.  Use the Makefile's
# prove_installcheck target when it has one; otherwise PGXS's installcheck
# with REGRESS emptied runs exactly the TAP part.
# A TAP script killed mid-run (timeout, Ctrl-C) cannot stop its own nodes.
# shellcheck disable=SC2317  # called from the exit handler
stop_tap_nodes() {
    local pid
    for pid in "$WORK"/tmp_check/t_*_data/pgdata/postmaster.pid; do
        if [ -f "$pid" ]; then
            nat_cluster_stop "$(dirname "$pid")"
        fi
    done
}
if [ "${#tap_tests[@]}" -gt 0 ]; then
    nat_on_exit stop_tap_nodes
    if nat_run_as_user "$WORK" make -n prove_installcheck PG_CONFIG="$NAT_PG_CONFIG" >/dev/null 2>&1; then
        tap_cmd=(make prove_installcheck)
    else
        tap_cmd=(make installcheck REGRESS=)
    fi
    if ! run_suite tap tap "${tap_cmd[@]}" PROVE_TESTS="${tap_tests[*]}" PROVE_FLAGS="-v --timer" PG_CONFIG="$NAT_PG_CONFIG"; then
        for f in "$WORK"/tmp_check/log/regress_log_*; do
            [ -f "$f" ] || continue
            echo "--- $f (last 60 lines)"
            tail -60 "$f"
        done
    fi
fi

# (c) the MCP program's suites are TAP (test/t/004_mcp.pl, 005_mcp_sdk.pl, 013
#     through PgBouncer, 015_mcp_http.pl and 016_mcp_http_sdk.pl over HTTP) and
#     run in (b); its token checks are the mcpauth suite above.

finish
