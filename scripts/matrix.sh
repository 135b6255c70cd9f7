#!/usr/bin/env bash
# The version matrix: the README's commands run, as root, in fresh Debian
# chroots made with debootstrap from Debian's own packages.
#
#   bookworm      PostgreSQL 15   scripts/demo.sh, then scripts/test.sh,
#                                 without the MCP program's suites
#   bookworm-pkg  PostgreSQL 15   the Debian packages (pkg, below)
#   trixie        PostgreSQL 17   scripts/test.sh, without the client
#                                 libraries' suites (NODE_SUITES below)
#   trixie-demo   PostgreSQL 17   scripts/demo.sh
#   trixie-pkg    PostgreSQL 17   the Debian packages (pkg)
#   experimental  PostgreSQL 19   sid plus experimental's postgresql-19:
#                                 PGVERSION=19 scripts/test.sh, without the
#                                 MCP program's and the client libraries'
#                                 suites (MCP_SUITES, NODE_SUITES)
#   sid           PostgreSQL 18   scripts/test.sh: its SQL-visible suites
#                                 (no TAP, no MCP_SUITES, no NODE_SUITES)
#   bullseye      (PostgreSQL 13) unsupported: scripts/test.sh must stop at
#                                 once with one line saying what is supported
#   host          this machine, no chroot: scripts/test-citus.sh, the
#                                 Citus suites on the host's PostgreSQL 15,
#                                 whose Citus build is cached (not a default
#                                 target: .ci/run names it, so that it runs
#                                 beside the chroots)
#
# The pkg step (scripts/package-test.sh): dpkg-buildpackage and lintian in
# the target's chroot, then apt-get install of the packages into a fresh
# copy of its base, CREATE EXTENSION and the regression suite against them.
#
# Usage: scripts/matrix.sh [TARGET...]      (as root; default: the chroots)
#        NAT_MATRIX_STEPS="pkg" scripts/matrix.sh bookworm   (some steps only)
#
# Each target gets a copy of a cached debootstrap base (no PostgreSQL in it:
# the scripts install what they need, as on a new machine), the checkout's
# files, and a private mount and PID namespace, so whatever it starts ends
# with it and nothing stays mounted.  A base is made anew when missing or
# older than NAT_BASE_MAX_DAYS (default 7); NAT_CACHE=/dir moves the cache
# (default /var/cache/neon_ai_tools), and an empty NAT_CACHE disables it.
# Downloaded .deb files and npm packages are cached there too.
#
# Targets run two at a time (NAT_MATRIX_JOBS, default 2), the longest
# first; each has its own package cache (a new one starts as hard links to
# its suite's), and a lock keeps two of one suite from making or copying
# their base at once.
#
# Output: each target's log, prefixed with its name, then one line per
# target and a closing "N passed, N failed" summing them.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
MIRROR=${NAT_MIRROR:-http://deb.debian.org/debian}
CACHE=${NAT_CACHE-/var/cache/neon_ai_tools}
BASE_MAX_DAYS=${NAT_BASE_MAX_DAYS:-7}
# the longest first, so that the two slots end close together
ALL_TARGETS=(trixie bookworm experimental trixie-pkg bookworm-pkg sid trixie-demo bullseye)

[ "$(id -u)" -eq 0 ] || { echo "matrix: run as root (debootstrap and chroot need it)" >&2; exit 2; }
[ "$#" -gt 0 ] || set -- "${ALL_TARGETS[@]}"

for cmd in debootstrap unshare; do
    if ! command -v "$cmd" >/dev/null 2>&1; then
        echo "matrix: installing debootstrap"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >/dev/null ||
            { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >/dev/null; }
    fi
done

WORKDIR=$(mktemp -d "${TMPDIR:-/var/tmp}/neon_ai_tools.matrix.XXXXXX")
# shellcheck disable=SC2317  # runs on exit
cleanup() {
    # a target's mounts live in its own namespace and are gone with it;
    # refuse to delete through anything that is still mounted all the same
    if ! grep -q " $WORKDIR/" /proc/mounts; then
        rm -rf "$WORKDIR"
    else
        echo "matrix: $WORKDIR still has mounts; left in place" >&2
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the targets ----------------------------------------------------------------
# target_spec NAME: sets NAME, SUITE, PGV (empty: the distribution's), STEPS
# CI's time is the sum of what its targets do, so each suite runs where it
# can fail differently, not on every version:
# - the MCP program's suites (a PostgreSQL client: its token checks and its
#   TAP files) run on 17 (trixie, whose node runs the MCP SDK's suites):
#   libpq is the only version-dependent part, and the packages' step runs
#   the program built on 15;
MCP_SUITES="mcpauth 004_mcp 005_mcp_sdk 013_mcp_pgbouncer 015_mcp_http 016_mcp_http_sdk 019_mcp_http_tenants 025_mcp_config 027_mcp_health_metrics"
# - the suites that check the extension's answers with the model providers'
#   client libraries (the catalog's formats, ai_tool_run's messages) run on
#   15 only: the same C code writes them on every version;
NODE_SUITES="catalog run_types"
# - sid's 18, between trixie's 17 and experimental's 19 (which run the TAP
#   suites), runs the SQL-visible suites: pg_regress, envelope, release
#   and readme.
# The Debian packages (pkg) and trixie's demo are targets of their own, so
# that the slots stay even.

target_spec() {
    NAME=$1
    PGV=""
    SKIP=""
    case $1 in
        bookworm) SUITE=bookworm STEPS="demo test" SKIP="$MCP_SUITES" ;;
        bookworm-pkg) SUITE=bookworm STEPS="pkg" ;;
        trixie) SUITE=trixie STEPS="test" SKIP="$NODE_SUITES" ;;
        trixie-demo) SUITE=trixie STEPS="demo" ;;
        trixie-pkg) SUITE=trixie STEPS="pkg" ;;
        sid) SUITE=sid STEPS="test" SKIP="$MCP_SUITES $NODE_SUITES tap" ;;
        experimental) SUITE=sid PGV=19 STEPS="test" SKIP="$MCP_SUITES $NODE_SUITES" ;;
        bullseye) SUITE=bullseye STEPS="unsupported" ;;
        # this machine itself, no chroot: the Citus suites
        # (scripts/test-citus.sh); .ci/run runs it beside the others
        host) SUITE=host STEPS="citus" ;;
        *) echo "matrix: unknown target $1 (known: ${ALL_TARGETS[*]})" >&2; exit 2 ;;
    esac
    # a run of some steps only, e.g. NAT_MATRIX_STEPS=pkg
    STEPS=${NAT_MATRIX_STEPS:-$STEPS}
}

# --- the debootstrap base ---------------------------------------------------------
# make_base SUITE DIR: a minimal Debian that trusts the host's extra CA
# certificates (package clients here go through a proxy that uses them).
make_base() {
    local suite=$1 dir=$2
    rm -rf "$dir"
    debootstrap --variant=minbase --include=ca-certificates "$suite" "$dir" "$MIRROR" \
        >"$dir.log" 2>&1 || { tail -20 "$dir.log" >&2; return 1; }
    if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
        cp /usr/local/share/ca-certificates/*.crt "$dir/usr/local/share/ca-certificates/"
        chroot "$dir" update-ca-certificates >/dev/null 2>&1
    fi
    # The mirror's sid Release file can be older than its one-week validity.
    echo 'Acquire::Check-Valid-Until "false";' >"$dir/etc/apt/apt.conf.d/99neon-ai-tools"
    date +%s >"$dir/.neon_ai_tools_base"
}

# base_for SUITE: prints the path of a usable base, making it if needed.
base_for() {
    local suite=$1 dir stamp
    if [ -z "$CACHE" ]; then
        dir=$WORKDIR/base-$suite
        [ -d "$dir" ] || make_base "$suite" "$dir"
        echo "$dir"
        return
    fi
    dir=$CACHE/chroots/$suite
    mkdir -p "$CACHE/chroots"
    stamp=$(cat "$dir/.neon_ai_tools_base" 2>/dev/null || echo 0)
    if [ $(($(date +%s) - stamp)) -gt $((BASE_MAX_DAYS * 86400)) ]; then
        echo "matrix: debootstrap $suite (cache: $dir)" >&2
        make_base "$suite" "$dir.new"
        rm -rf "$dir"
        mv "$dir.new" "$dir"
        mv "$dir.new.log" "$dir.log"
    fi
    echo "$dir"
}

# --- running inside a target ---------------------------------------------------
# prepare_root NAME ROOT: the target's own copy of its base, with the checkout.
prepare_root() {
    local name=$1 root=$2 base lock lockfd
    lock=${CACHE:+$CACHE/chroots}
    lock=${lock:-$WORKDIR}/base-$SUITE.lock
    mkdir -p "$(dirname "$lock")"
    exec {lockfd}>"$lock"
    flock -x "$lockfd"
    base=$(base_for "$SUITE")
    cp -a "$base" "$root"
    flock -u "$lockfd"
    exec {lockfd}>&-
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    # a throw-away root: dpkg need not sync every file it unpacks
    echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/neon-ai-tools-unsafe-io"
    if [ "$name" = experimental ]; then
        echo "deb $MIRROR experimental main" >"$root/etc/apt/sources.list.d/experimental.list"
        # PostgreSQL 19 and the libraries built with it come from experimental
        cat >"$root/etc/apt/preferences.d/postgresql-19" <<'EOF'
Package: *postgresql* libpq* libecpg* libpgtypes*
Pin: release a=experimental
Pin-Priority: 600
EOF
    fi
    copy_checkout "$root/src"
    # test.sh copies its sources with git ls-files: give it a repository
    if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        (cd "$root/src" && git init -q && git add -A >/dev/null 2>&1) || true
    fi
}

# copy_checkout DIR: the checkout's files (tracked and new, not ignored:
# no build products) into DIR
copy_checkout() {
    mkdir -p "$1"
    if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
            tar -C "$ROOT" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$1" -xf -
    else
        cp -a "$ROOT/." "$1/"
    fi
}

# in_root ROOT CMD...: run CMD as root inside ROOT, in a private mount and
# PID namespace with /proc, a minimal /dev and the caches bound in.  The
# environment is a fresh container's (env -i: PATH and HOME, no LANG, no
# locale, no TERM), plus the harness's own settings: the suite timeout, the
# proxy's CA certificates, the npm cache and the version to test.
in_root() {
    local root=$1
    shift
    local caches=""
    if [ -n "$CACHE" ]; then
        # npm's cache is written by the chroot's unprivileged user, whose
        # uid differs between targets: one cache per target.  apt's too, so
        # that two targets of one suite can run at once (a new one starts
        # as hard links to the suite's first).
        if [ ! -d "$CACHE/apt-archives/$NAME" ] && [ -d "$CACHE/apt-archives/$SUITE" ]; then
            cp -al "$CACHE/apt-archives/$SUITE" "$CACHE/apt-archives/$NAME.new" &&
                mv "$CACHE/apt-archives/$NAME.new" "$CACHE/apt-archives/$NAME"
        fi
        # apt's lock file of its own: one linked from the suite's cache is
        # the same file, which the other target's apt may hold
        rm -f "$CACHE/apt-archives/$NAME/lock"
        mkdir -p "$CACHE/apt-archives/$NAME/partial" "$CACHE/npm/$NAME"
        chmod 1777 "$CACHE/npm/$NAME"
        caches="mount --bind '$CACHE/apt-archives/$NAME' '$root/var/cache/apt/archives'
                mount --bind '$CACHE/npm/$NAME' '$root/var/cache/neon-ai-tools-npm'"
    fi
    unshare --mount --pid --fork --propagation private -- bash -euc "
        mount -t proc proc '$root/proc'
        mount -t tmpfs -o mode=755 tmpfs '$root/dev'
        for d in null zero full random urandom tty; do
            touch '$root/dev/'\$d
            mount --bind /dev/\$d '$root/dev/'\$d
        done
        mkdir -m 1777 '$root/dev/shm'
        mkdir '$root/dev/pts'
        mount -t devpts -o newinstance,ptmxmode=0666 devpts '$root/dev/pts'
        ln -s pts/ptmx '$root/dev/ptmx'
        ln -s /proc/self/fd '$root/dev/fd'
        mkdir -p -m 1777 '$root/var/cache/neon-ai-tools-npm'
        $caches
        exec chroot '$root' \"\$@\"
    " bash env -i \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root \
        NAT_SUITE_TIMEOUT="${NAT_SUITE_TIMEOUT:-1200}" \
        NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
        npm_config_cafile=/etc/ssl/certs/ca-certificates.crt \
        npm_config_cache=/var/cache/neon-ai-tools-npm \
        ${PGV:+PGVERSION=$PGV} ${SKIP:+NAT_TEST_SKIP="$SKIP"} "$@"
}

# package_step ROOT: the Debian packages (scripts/package-test.sh): built
# from a clean copy of the checkout in the target's chroot ROOT (which may
# hold the earlier steps' build), then installed and tested in a fresh copy
# of the base, which has none of the build dependencies.
package_step() {
    local root=$1 fresh=$1.pkg rc=0
    copy_checkout "$root/build/neon-ai-tools"
    in_root "$root" bash /src/scripts/package-test.sh build /build/neon-ai-tools || rc=$?
    echo "== a fresh $SUITE chroot"
    prepare_root "$NAME" "$fresh"
    mkdir -p "$fresh/debs"
    cp "$root"/build/*.deb "$fresh/debs/" 2>/dev/null || true
    in_root "$fresh" bash /src/scripts/package-test.sh check /debs /src || rc=$?
    if ! grep -q " $fresh/" /proc/mounts; then
        rm -rf "$fresh"
    fi
    return "$rc"
}

# --- results ------------------------------------------------------------------------
T_PASS=0
T_FAIL=0
LINES=()

# add NAME PASS FAIL NOTE: a line of a target's result, in its own file
# (targets run in background shells)
add() {
    printf '%d %d %s\n' "$2" "$3" "$(printf '%-30s %4d passed, %4d failed%s' "$1" "$2" "$3" "${4:+  ($4)}")" \
        >>"$WORKDIR/$NAME.result"
}

# run_target NAME: every step of the target; adds one summary line.
run_target() {
    local name=$1 root log pass=0 fail=0 notes=() step step_start rc start secs last ver pgver=""
    target_spec "$name"
    root=$WORKDIR/$name
    log=$WORKDIR/$name.log
    start=$(date +%s)
    echo
    if [ "$SUITE" = host ]; then
        echo "==================== matrix: host (this machine, no chroot) ===================="
    else
        echo "==================== matrix: $name (${PGV:+PostgreSQL $PGV, }Debian $SUITE) ===================="
        if ! prepare_root "$name" "$root" >"$log" 2>&1; then
            sed "s/^/[$name] /" "$log"
            add "$name" 0 1 "could not make the chroot"
            return
        fi
    fi
    for step in $STEPS; do
        step_start=$(date +%s)
        set +e
        case $SUITE/$step in
            host/citus) bash "$ROOT/scripts/test-citus.sh" ;;
            */demo) in_root "$root" bash /src/scripts/demo.sh ;;
            */test) in_root "$root" bash /src/scripts/test.sh ;;
            */unsupported) in_root "$root" bash /src/scripts/test.sh ;;
            */pkg) package_step "$root" ;;
        esac >"$log" 2>&1 </dev/null
        rc=$?
        set -e
        sed "s/^/[$name $step] /" "$log"
        ver=$(sed -n 's/^== PostgreSQL \([0-9][0-9]*\) .*/\1/p' "$log" | head -n 1)
        [ -z "$ver" ] || pgver=$ver
        case $step in
            demo)
                if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); notes+=("demo exit $rc"); fi
                ;;
            pkg)
                # two summaries: the build's and the fresh chroot's
                last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" |
                    awk '{ p += $1; f += $3 } END { if (NR) print p " " f }' || true)
                if [ -n "$last" ]; then
                    pass=$((pass + ${last% *}))
                    fail=$((fail + ${last#* }))
                fi
                if [ "$rc" -ne 0 ] && { [ -z "$last" ] || [ "${last#* }" -eq 0 ]; }; then
                    fail=$((fail + 1))
                fi
                if [ "$rc" -eq 0 ]; then
                    notes+=("pkg $(($(date +%s) - step_start))s")
                else
                    notes+=("pkg exit $rc, $(($(date +%s) - step_start))s")
                fi
                ;;
            test | citus)
                # the host's line names the Citus version it ran
                [ "$step" != citus ] || name="Citus $(citus_version)"
                last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
                if [ -n "$last" ]; then
                    pass=$((pass + ${last%% passed*}))
                    last=${last#* passed, }
                    fail=$((fail + ${last%% failed*}))
                fi
                if [ "$rc" -ne 0 ] && { [ -z "$last" ] || [ "${last%% failed*}" -eq 0 ]; }; then
                    fail=$((fail + 1))
                    notes+=("$step exit $rc")
                fi
                ;;
            unsupported)
                # must fail at once, with exactly one line naming what is supported
                if [ "$rc" -ne 0 ] && [ "$(grep -c . "$log")" -eq 1 ] && grep -q '^neon_ai_tools: .*Supported: PostgreSQL 15 to 19' "$log"; then
                    pass=$((pass + 1))
                else
                    fail=$((fail + 1))
                    notes+=("expected one refusal line and a non-zero exit, got exit $rc")
                fi
                ;;
        esac
    done
    secs=$(($(date +%s) - start))
    local IFS=';'
    add "$name ($(pg_label "$pgver"))" "$pass" "$fail" "${SUITE}, ${secs}s${notes[*]:+; ${notes[*]}}"
    # the chroot goes now, in the target's slot, not all at the end
    if [ -d "$root" ] && ! grep -q " $root/" /proc/mounts; then
        rm -rf "$root"
    fi
}

# "PostgreSQL N", or "refused" when the target ran none
pg_label() {
    if [ -n "$1" ]; then echo "PostgreSQL $1"; else echo refused; fi
}

# the Citus version scripts/test-citus.sh builds
citus_version() {
    sed -n 's/^CITUS_VERSION=\([0-9.]*\)$/\1/p' "$ROOT/scripts/test-citus.sh" | head -n 1
}

JOBS=${NAT_MATRIX_JOBS:-2}
declare -A RUNNING=()    # pid -> target
for t in "$@"; do
    target_spec "$t"
    # a free slot
    while :; do
        for pid in "${!RUNNING[@]}"; do
            kill -0 "$pid" 2>/dev/null || unset "RUNNING[$pid]"
        done
        [ "${#RUNNING[@]}" -ge "$JOBS" ] || break
        sleep 2
    done
    run_target "$t" &
    RUNNING[$!]=$t
done
wait

for t in "$@"; do
    target_spec "$t"
    if [ ! -s "$WORKDIR/$NAME.result" ]; then
        printf '0 1 %s\n' "$(printf '%-30s %4d passed, %4d failed  (no result)' "$NAME" 0 1)" \
            >"$WORKDIR/$NAME.result"
    fi
    while read -r p f line; do
        T_PASS=$((T_PASS + p))
        T_FAIL=$((T_FAIL + f))
        LINES+=("$line")
    done <"$WORKDIR/$NAME.result"
done

echo
echo "==================== matrix summary ===================="
printf '%s\n' "${LINES[@]}"
echo "$T_PASS passed, $T_FAIL failed"
[ "$T_FAIL" -eq 0 ]
