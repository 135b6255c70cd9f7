#!/usr/bin/env bash
# The Debian packages, built and tried as a user would (scripts/matrix.sh's
# "pkg" step runs it, as root, in its Debian chroots):
#
#   package-test.sh build SRCDIR
#       in the target's chroot: install the build dependencies
#       (apt-get build-dep SRCDIR, and lintian), check that debian/changelog
#       and the control file name one version, dpkg-buildpackage -us -uc -b,
#       lintian on the .changes; the packages land beside SRCDIR
#   package-test.sh check DEBDIR TESTDIR
#       in a fresh chroot (no build dependencies): apt-get install
#       ./postgresql-NN-neon-ai-tools_*.deb ./neon-ai-tools-mcp_*.deb from
#       DEBDIR, a cluster as an unprivileged user (initdb -E UTF8
#       --locale=C.UTF-8), CREATE EXTENSION, the regression suite of
#       TESTDIR (test/sql, expected/) against the installed package, the
#       program's --version, its service user, conffile and unit
#
# Each check prints "ok - WHAT" or "not ok - WHAT"; pg_regress's tests are
# counted one by one (scripts/results.sh); the last line is
# "N passed, N failed".
#
# The regression suite runs with the pg_regress of postgresql-client-NN
# (Debian ships it there, /usr/lib/postgresql/NN/lib/pgxs/src/test/regress,
# and postgresql-NN depends on it), called with the options the Makefile's
# installcheck gives it: nothing beyond the packages' own dependencies is
# installed, so a missing dependency shows.  The build runs no tests of
# its own (debian/rules): this check is the package's test.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/results.sh
source "$HERE/results.sh"

export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
unset LANGUAGE
PASS=0
FAIL=0

ok() {
    echo "ok - $1"
    PASS=$((PASS + 1))
}
FAILURES=()
not_ok() {
    echo "not ok - $1"
    FAIL=$((FAIL + 1))
    FAILURES+=("failed: pkg: $1")
}
# check WHAT CMD...: ok when CMD exits 0
check() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else not_ok "$what"; fi
}
# what failed, by name (as test.sh prints it: .ci/run lists these lines),
# then the count
summary() {
    [ "${#FAILURES[@]}" -eq 0 ] || printf '%s\n' "${FAILURES[@]}"
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
}
apt_quiet() {
    apt-get -q -o Dpkg::Use-Pty=0 "$@" >/tmp/package-test.apt.log 2>&1 ||
        { tail -n 30 /tmp/package-test.apt.log; return 1; }
}
# the version default_version names in a control file
control_version() {
    sed -n "s/^default_version[[:space:]]*=[[:space:]]*'\([^']*\)'.*/\1/p" "$1"
}

# --- build ---------------------------------------------------------------------
# debian/control's Build-Depends, and what dpkg-buildpackage and lintian
# need
build_deps() {
    apt_quiet update &&
        apt_quiet install -y --no-install-recommends dpkg-dev lintian &&
        apt_quiet build-dep -y --no-install-recommends "$1"
}

build() {
    local src=$1 out upstream ext start f
    out=$(dirname "$src")
    start=$(date +%s)
    echo "== build dependencies"
    check "build dependencies (apt-get build-dep, lintian)" build_deps "$src"
    echo "   ($(($(date +%s) - start))s)"

    # one version everywhere: the package's upstream version is the
    # extension's (and so neon-ai-tools-mcp --version's)
    upstream=$(cd "$src" && dpkg-parsechangelog -S Version)
    upstream=${upstream%-*}
    ext=$(control_version "$src/neon_ai_tools.control")
    if [ "$upstream" = "$ext" ]; then
        ok "debian/changelog's version $upstream is the extension's"
    else
        not_ok "debian/changelog's version $upstream is the extension's ($ext)"
    fi

    echo "== dpkg-buildpackage -us -uc -b"
    start=$(date +%s)
    # the README's command; noautodbgsym: CI needs no debug symbols packages
    if (cd "$src" && DEB_BUILD_OPTIONS="noautodbgsym parallel=2" \
        dpkg-buildpackage -us -uc -b >/tmp/package-test.build.log 2>&1); then
        ok "dpkg-buildpackage -us -uc -b"
        grep -E '^(### |dpkg-deb: building)' /tmp/package-test.build.log || true
    else
        not_ok "dpkg-buildpackage -us -uc -b"
        tail -n 60 /tmp/package-test.build.log
    fi
    echo "   ($(($(date +%s) - start))s)"
    for f in "$out"/*.deb; do
        [ ! -f "$f" ] || echo "   $(stat -c %s "$f")  ${f##*/}"
    done

    echo "== lintian"
    start=$(date +%s)
    # warnings fail too: each tag the packages keep has an override saying why
    # (debian/*.lintian-overrides); info tags are shown, not counted
    if compgen -G "$out/*.changes" >/dev/null; then
        check "lintian (errors and warnings)" \
            lintian --fail-on error,warning --display-info "$out"/*.changes
    else
        not_ok "lintian (no .changes to check)"
    fi
    echo "   ($(($(date +%s) - start))s)"
    summary
}

# --- check (a fresh chroot) ----------------------------------------------------------
# cluster_start DIR: a cluster owned by postgres in DIR, its socket in DIR
# (no TCP: a chroot shares the host's network)
PGBIN=""
cluster_start() {
    local dir=$1
    mkdir -p "$dir"
    chown postgres: "$dir"
    runuser -u postgres -- "$PGBIN/initdb" -U postgres -A trust -E UTF8 --locale=C.UTF-8 \
        -D "$dir/data" >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; return 1; }
    runuser -u postgres -- "$PGBIN/pg_ctl" -w -D "$dir/data" -l "$dir/server.log" \
        -o "-c listen_addresses='' -k $dir -p 5432 -c fsync=off" start >/dev/null ||
        { cat "$dir/server.log"; return 1; }
}
cluster_stop() {
    [ -f "$1/data/postmaster.pid" ] || return 0
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$1/data" -m fast stop >/dev/null 2>&1 || true
}
psql_c() {
    runuser -u postgres -- "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$CLUSTER" -p 5432 "$@"
}

CONF=/etc/neon-ai-tools-mcp/neon-ai-tools-mcp.conf
conffile_listed() {
    dpkg-query -W -f='${Conffiles}\n' neon-ai-tools-mcp | grep -q "^ $CONF "
}

check_installed() {
    local debs=$1 tests=$2 pkgs=() v ctl version out re regress_opts=() tests_run=() t log
    echo "== apt-get install ./postgresql-NN-neon-ai-tools_*.deb ./neon-ai-tools-mcp_*.deb"
    # as scripts/install-deps.sh: postgresql-NN must not create and start a
    # cluster of its own
    mkdir -p /etc/postgresql-common/createcluster.d
    echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.d/neon-ai-tools-test.conf
    pkgs=("$debs"/postgresql-[0-9]*-neon-ai-tools_*.deb "$debs"/neon-ai-tools-mcp_*.deb)
    if ! { apt_quiet update && apt_quiet install -y --no-install-recommends "${pkgs[@]}"; }; then
        not_ok "apt-get install ${pkgs[*]##*/}"
        summary
        return
    fi
    ok "apt-get install ${pkgs[*]##*/}"

    v=$(basename "${pkgs[0]}")
    v=${v#postgresql-}
    v=${v%%-*}
    PGBIN=/usr/lib/postgresql/$v/bin
    ctl=/usr/share/postgresql/$v/extension/neon_ai_tools.control
    version=$(control_version "$ctl")
    echo "== PostgreSQL $v (installed package), neon_ai_tools $version"

    echo "== neon-ai-tools-mcp"
    out=$(neon-ai-tools-mcp --version 2>&1 || true)
    echo "   $out"
    re="^neon-ai-tools-mcp( .*)? ${version//./\\.}\$"
    if [ "$(command -v neon-ai-tools-mcp)" = /usr/bin/neon-ai-tools-mcp ] && [[ "$out" =~ $re ]]; then
        ok "neon-ai-tools-mcp --version names $version"
    else
        not_ok "neon-ai-tools-mcp --version names $version (got: $out)"
    fi
    check "system user neon-ai-tools-mcp" getent passwd neon-ai-tools-mcp
    check "$CONF is a conffile" conffile_listed
    # the packaged configuration passes the unit's ExecStartPre, as the
    # service's user (a program without --check-config cannot run the unit)
    check "neon-ai-tools-mcp --config $CONF --check-config, as neon-ai-tools-mcp" \
        runuser -u neon-ai-tools-mcp -- neon-ai-tools-mcp --config "$CONF" --check-config
    check "man page neon-ai-tools-mcp(1)" test -s /usr/share/man/man1/neon-ai-tools-mcp.1.gz
    # --man=no: the chroot has no man; the page is checked above
    if command -v systemd-analyze >/dev/null 2>&1; then
        check "systemd-analyze verify neon-ai-tools-mcp.service" \
            systemd-analyze verify --man=no /lib/systemd/system/neon-ai-tools-mcp.service
    else
        echo "   (no systemd-analyze: the unit is not verified)"
    fi

    echo "== CREATE EXTENSION neon_ai_tools (PostgreSQL $v, -E UTF8 --locale=C.UTF-8)"
    CLUSTER=$(mktemp -d /tmp/package-test.XXXXXX)
    trap 'cluster_stop "$CLUSTER"' EXIT
    if ! cluster_start "$CLUSTER"; then
        not_ok "a cluster as postgres"
        summary
        return
    fi
    out=$(psql_c -d postgres -c "CREATE DATABASE pkg" -c '\c pkg' \
        -c "CREATE EXTENSION neon_ai_tools" \
        -c "SELECT extversion FROM pg_extension WHERE extname = 'neon_ai_tools'" \
        -c "SELECT jsonb_array_length(ai_tool_list())" \
        -c "SELECT ai_tool_call('list_tables')->>'success'" 2>&1) || true
    echo "   ${out//$'\n'/$'\n'   }"
    if [ "$(echo "$out" | head -n 1)" = "$version" ] && [ "$(echo "$out" | sed -n 2p)" -gt 0 ] 2>/dev/null &&
        [ "$(echo "$out" | sed -n 3p)" = true ]; then
        ok "CREATE EXTENSION neon_ai_tools, ai_tool_list(), ai_tool_call('list_tables')"
    else
        not_ok "CREATE EXTENSION neon_ai_tools, ai_tool_list(), ai_tool_call('list_tables')"
    fi

    # the Makefile's installcheck: pg_regress --inputdir=test (16 and
    # later: --expecteddir=.) --dbname=contrib_regression
    echo "== regression suite (pg_regress of postgresql-client-$v)"
    # (the suites read examples/ too)
    mkdir -p "$CLUSTER/src"
    cp -r "$tests/test" "$tests/expected" "$tests/examples" "$CLUSTER/src/"
    chown -R postgres: "$CLUSTER/src"
    regress_opts=(--inputdir=test --bindir="$PGBIN" --dbname=contrib_regression --host="$CLUSTER" --port=5432)
    [ "$v" -eq 15 ] || regress_opts+=(--expecteddir=.)
    for t in "$CLUSTER"/src/test/sql/*.sql; do
        t=${t##*/}
        tests_run+=("${t%.sql}")
    done
    log=$CLUSTER/regress.log
    set +e
    (cd "$CLUSTER/src" && runuser -u postgres -- \
        "/usr/lib/postgresql/$v/lib/pgxs/src/test/regress/pg_regress" "${regress_opts[@]}" "${tests_run[@]}") >"$log" 2>&1
    set -e
    cat "$log"
    count_regress "$log"
    if [ "$((C_PASS + C_FAIL))" -eq 0 ]; then
        not_ok "regression suite (no test ran)"
    fi
    PASS=$((PASS + C_PASS))
    FAIL=$((FAIL + C_FAIL))
    while IFS= read -r t; do
        FAILURES+=("failed: pkg: regress: $t")
    done < <(failed_results "$log")
    if [ "$C_FAIL" -gt 0 ] && [ -f "$CLUSTER/src/regression.diffs" ]; then
        echo "--- regression.diffs (first 200 lines)"
        head -n 200 "$CLUSTER/src/regression.diffs"
    fi
    summary
}

case ${1:-} in
    build) build "$2" ;;
    check) check_installed "$2" "$3" ;;
    *) echo "usage: package-test.sh build SRCDIR | check DEBDIR TESTDIR" >&2; exit 2 ;;
esac
