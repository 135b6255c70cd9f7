# shellcheck shell=bash
# Shared helpers for demo.sh and test.sh; source it, do not run it.
#
#   nat_build DIR [LOG]     build the extension in DIR as the unprivileged user
#   nat_install DIR         make install (as root, via sudo when needed)
#   nat_run_as_user DIR CMD...  run CMD in DIR as the unprivileged user
#   nat_cluster_start DB    initdb + start a scratch cluster, create DB, export
#                           PGHOST/PGPORT/PGUSER/PGDATABASE; stopped and removed
#                           on exit (also on failure and Ctrl-C)
#   nat_on_exit CMD...      run CMD when the script exits (last added, first run)
#
# Everything is namespaced nat_/NAT_ so callers' variables are left alone.

# shellcheck disable=SC2034  # used by the scripts that source this file
NAT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Debian can hold several PostgreSQL versions: name the chosen one's
# pg_config explicitly (scripts/pg-version.sh says which is chosen).
# shellcheck source=scripts/pg-version.sh
source "$NAT_ROOT/scripts/pg-version.sh"
nat_pg_version
NAT_PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$NAT_PG_VERSION/bin/pg_config}
NAT_PG_BIN=$("$NAT_PG_CONFIG" --bindir)
echo "== PostgreSQL $NAT_PG_VERSION ($NAT_PG_CONFIG)"
# English messages and a locale that always exists on Debian.
export LC_ALL=C.UTF-8
unset LANGUAGE

# The cluster must be owned by an unprivileged user: initdb refuses root.
if [ "$(id -u)" -eq 0 ]; then
    NAT_USER=postgres
else
    NAT_USER=$(id -un)
fi

# Run a command as root (sudo when we are not root).
nat_as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    else
        sudo "$@"
    fi
}

# Run CMD as NAT_USER with DIR as working directory.  runuser keeps most of
# the environment, but PATH and the PG* variables are passed explicitly so
# they survive whatever runuser resets.
nat_run_as_user() {
    local dir=$1
    shift
    if [ "$(id -un)" = "$NAT_USER" ]; then
        (cd "$dir" && "$@")
    else
        local envs=(PATH="$PATH" LC_ALL="$LC_ALL") v
        for v in PGHOST PGPORT PGUSER PGDATABASE CI; do
            [ -z "${!v:-}" ] || envs+=("$v=${!v}")
        done
        (cd "$dir" && runuser -u "$NAT_USER" -- env -C "$dir" "${envs[@]}" "$@")
    fi
}

# --- exit handlers ------------------------------------------------------------
NAT_CLEANUP=()
nat_on_exit() {
    local cmd
    printf -v cmd '%q ' "$@"
    NAT_CLEANUP+=("$cmd")
}
nat_run_cleanup() {
    local rc=$? i
    set +e
    trap - EXIT
    for ((i = ${#NAT_CLEANUP[@]} - 1; i >= 0; i--)); do
        eval "${NAT_CLEANUP[i]}"
    done
    exit "$rc"
}
trap nat_run_cleanup EXIT
# A signal becomes a normal exit so the EXIT trap cleans up.
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# A temporary directory owned by NAT_USER, removed on exit; sets NAT_DIR.
# (Not echoed: a command substitution would register the handler in a subshell.)
nat_mktemp_dir() {
    NAT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/neon_ai_tools.$1.XXXXXX")
    nat_on_exit rm -rf "$NAT_DIR"
    if [ "$(id -un)" != "$NAT_USER" ]; then
        chown "$NAT_USER": "$NAT_DIR"
    fi
}

# --- build and install --------------------------------------------------------
# Build as the unprivileged user (the tree stays theirs); output goes to LOG
# too when given so callers can check it for warnings.
nat_build() {
    local dir=$1 log=${2:-/dev/null} rc
    echo "== build ($dir)"
    set +e
    nat_run_as_user "$dir" make -s -j"$(nproc)" PG_CONFIG="$NAT_PG_CONFIG" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    set -e
    return "$rc"
}

nat_install() {
    local dir=$1
    echo "== install (make install as root)"
    nat_as_root make -s -C "$dir" install PG_CONFIG="$NAT_PG_CONFIG"
}

# --- scratch cluster ----------------------------------------------------------
# True when nothing accepts TCP connections on 127.0.0.1:PORT.
nat_port_free() {
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

nat_cluster_stop() {
    local data=$1
    [ -f "$data/postmaster.pid" ] || return 0
    nat_run_as_user / "$NAT_PG_BIN/pg_ctl" -D "$data" -m fast -t 30 stop >/dev/null 2>&1 ||
        nat_run_as_user / "$NAT_PG_BIN/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
}

nat_cluster_start() {
    local db=${1:-postgres} dir data sock port tries started=0
    nat_mktemp_dir cluster
    dir=$NAT_DIR
    data=$dir/data
    sock=$dir/sock
    NAT_CLUSTER_LOG=$dir/server.log
    # shellcheck disable=SC2034  # for callers (nat_cluster_stop)
    NAT_CLUSTER_DATA=$data
    nat_run_as_user "$dir" mkdir -m 700 "$sock"
    # Deterministic results: no locale, UTF8, trust auth on our private socket.
    nat_run_as_user "$dir" "$NAT_PG_BIN/initdb" -D "$data" -U "$NAT_USER" -A trust \
        -E UTF8 --no-locale -N --no-instructions >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; return 1; }
    # Stop the server before its directory is removed (handlers run in reverse).
    nat_on_exit nat_cluster_stop "$data"

    # Our own port range, away from Debian's 5432; retry if another process
    # grabs the port between the check and the bind.
    port=$((55432 + RANDOM % 1000))
    for ((tries = 0; tries < 20; tries++, port++)); do
        nat_port_free "$port" || continue
        if nat_run_as_user "$dir" "$NAT_PG_BIN/pg_ctl" -D "$data" -w -t 60 -l "$NAT_CLUSTER_LOG" \
            -o "-p $port -k $sock -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
            start >/dev/null; then
            started=1
            break
        fi
        # Anything other than a port clash is a real failure.
        if ! grep -q 'could not bind\|could not create any TCP/IP sockets' "$NAT_CLUSTER_LOG"; then
            break
        fi
    done
    if [ "$started" -ne 1 ]; then
        echo "scratch cluster failed to start; server log:" >&2
        tail -50 "$NAT_CLUSTER_LOG" >&2 || true
        return 1
    fi

    export PGHOST=$sock PGPORT=$port PGUSER=$NAT_USER PGDATABASE=$db
    if [ "$db" != postgres ]; then
        "$NAT_PG_BIN/psql" -X -q -d postgres -c "CREATE DATABASE \"$db\"" >/dev/null
    fi
    echo "== scratch cluster: port $PGPORT, socket $PGHOST, user $PGUSER, database $PGDATABASE"
}
