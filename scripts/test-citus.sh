#!/usr/bin/env bash
# The Citus suites (issue 31): builds Citus from the vendored sources,
# installs it and neon_ai_tools for this machine's PostgreSQL, then runs
# the TAP files test/t/*citus*.pl, each with its own coordinator and two
# workers.  The last line is "N passed, N failed".
#
# Usage: scripts/test-citus.sh           (as root, after or without test.sh)
# Env:   NAT_VENDOR=dir   the vendored sources (default: ../shared/vendor
#                         beside the checkout)
#        NAT_CACHE=dir    keeps the built Citus between runs on one machine
#                         (default /var/cache/neon_ai_tools; empty: no cache)
#
# Citus 13.2.2 does not build against PostgreSQL 15.20 as tagged: the
# vendored patch leaves out its own copy of have_createdb_privilege(), which
# 15.20 exports.  Only PostgreSQL 15 is built here (the version CI's host
# has); the build is cached under the Citus and PostgreSQL versions, and a
# run without the cache builds it anew (about 3 minutes on 2 cores).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CITUS_VERSION=13.2.2
VENDOR=${NAT_VENDOR:-$(cd "$HERE/../.." && pwd)/shared/vendor}
CACHE=${NAT_CACHE-/var/cache/neon_ai_tools}

bash "$HERE/install-deps.sh"
# shellcheck source=scripts/cluster.sh
source "$HERE/cluster.sh"
# shellcheck source=scripts/results.sh
source "$HERE/results.sh"

fail() {
    echo "test-citus: $*"
    echo "0 passed, 1 failed"
    exit 1
}

tarball=$VENDOR/citus-$CITUS_VERSION.tar.gz
patchfile=$VENDOR/citus-$CITUS_VERSION-pg15.20-build.patch
[ -f "$tarball" ] || fail "$tarball not found (set NAT_VENDOR)"

# --- Citus: build (or take the cached build) and install --------------------
echo "==================== Citus $CITUS_VERSION ===================="
start=$(date +%s)
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev libssl-dev \
    libselinux1-dev libxslt1-dev libpam0g-dev libreadline-dev >/dev/null ||
    fail "could not install Citus's build dependencies"
pg_full=$("$NAT_PG_CONFIG" --version | awk '{print $2}')
if [ -n "$CACHE" ]; then
    build=$CACHE/citus/citus-$CITUS_VERSION-pg$pg_full
else
    nat_mktemp_dir citus
    build=$NAT_DIR/citus-$CITUS_VERSION
fi
if [ ! -f "$build/.built" ]; then
    rm -rf "$build"
    mkdir -p "$build"
    tar -C "$build" --strip-components=1 -xzf "$tarball"
    if [ "${NAT_PG_VERSION}" = 15 ] && [ -f "$patchfile" ]; then
        patch -d "$build" -p1 -s <"$patchfile"
    fi
    # no LLVM bitcode: the tests do not use JIT, and it doubles the build
    (cd "$build" && ./configure --without-libcurl PG_CONFIG="$NAT_PG_CONFIG" >configure.log 2>&1 &&
        make -s -j"$(nproc)" with_llvm=no >make.log 2>&1) ||
        { tail -30 "$build/make.log" "$build/configure.log" 2>/dev/null; fail "Citus did not build"; }
    touch "$build/.built"
    echo "== Citus built in $(($(date +%s) - start)) s"
else
    echo "== Citus from the cache ($build)"
fi
make -s -C "$build" install with_llvm=no >/dev/null || fail "Citus did not install"

# --- neon_ai_tools: the work copy, built and installed -----------------------
nat_mktemp_dir citus-tests
WORK=$NAT_DIR/src
mkdir -p "$WORK"
git -C "$NAT_ROOT" ls-files -z --cached --others --exclude-standard |
    tar -C "$NAT_ROOT" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$WORK" -xf -
chown -R "$NAT_USER": "$NAT_DIR"
nat_build "$WORK" "$NAT_DIR/build.log" >/dev/null || fail "neon_ai_tools did not build"
nat_install "$WORK" >/dev/null

# --- the suites -------------------------------------------------------------------
shopt -s nullglob
tests=()
for f in "$WORK"/test/t/*citus*.pl; do tests+=("test/t/$(basename "$f")"); done
shopt -u nullglob
[ "${#tests[@]}" -gt 0 ] || fail "no Citus TAP files"
echo "==================== suite: citus (${#tests[@]} files) ===================="
log=$NAT_DIR/citus.log
set +e
nat_run_as_user "$WORK" timeout -k 30 "${NAT_SUITE_TIMEOUT:-900}" \
    make prove_installcheck PROVE_TESTS="${tests[*]}" PROVE_FLAGS="-v --timer" PG_CONFIG="$NAT_PG_CONFIG" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
count_tap "$log"
pass=$C_PASS failed=$C_FAIL
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
if [ "$rc" -ne 0 ]; then
    for f in "$WORK"/tmp_check/log/regress_log_*; do
        [ -f "$f" ] && { echo "--- $f (last 40 lines)"; tail -40 "$f"; }
    done
fi
echo "== Citus suites: $(($(date +%s) - start)) s in all"
failed_results "$log" | sed 's/^/failed: citus: /' || true
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
