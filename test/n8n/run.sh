#!/usr/bin/env bash
# test/n8n/run.sh: a manual check (not part of CI, not run by scripts/test.sh):
# a real n8n drives neon-ai-tools-mcp --http through its MCP nodes.
#
# n8n 2.40.7 needs Node >= 24, which Debian sid ships, so n8n runs in a sid
# chroot (a copy of matrix.sh's cached debootstrap base, or a new one); the
# chroot shares the host's network, so n8n reaches the server on 127.0.0.1.
# On the host: a scratch PostgreSQL cluster (RLS table, an authenticator and
# two agent roles), the MCP server built from this checkout with two bearer
# tokens, and a scripted stand-in for an OpenAI chat model (no LLM; on the
# host, any Node).
# n8n runs three workflows with `n8n execute` (test/n8n/README.md says what
# each shows) and check.js checks what they got and what the server logged.
#
# Usage (as root): test/n8n/run.sh
# Environment: NAT_N8N_DIR (work directory, default /var/tmp/neon_ai_tools-n8n;
# kept between runs so n8n is installed once), NAT_N8N_PGPORT (5581),
# NAT_N8N_PORT (8881: the MCP server; the model and n8n's task broker take
# the next two ports), PGVERSION (15), NAT_MIRROR, NAT_CACHE as for matrix.sh.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${NAT_N8N_DIR:-/var/tmp/neon_ai_tools-n8n}
PGPORT=${NAT_N8N_PGPORT:-5581}
PORT=${NAT_N8N_PORT:-8881}
LLM_PORT=$((PORT + 1))
BROKER_PORT=$((PORT + 2))
PGV=${PGVERSION:-15}
PGBIN=/usr/lib/postgresql/$PGV/bin
N8N_VERSION=2.40.7
MIRROR=${NAT_MIRROR:-http://deb.debian.org/debian}
CACHE=${NAT_CACHE-/var/cache/neon_ai_tools}
CHROOT=$DIR/chroot
LOGS=$DIR/logs

[ "$(id -u)" -eq 0 ] || { echo "n8n-check: run as root (chroot needs it)" >&2; exit 2; }
say() { echo "n8n-check: $*"; }

# in_chroot CMD...: CMD as root in the chroot, in a private mount and PID
# namespace (what it starts ends with it), the host's network namespace.
in_chroot() {
    unshare --mount --pid --fork --kill-child --propagation private -- bash -euc "
        mount -t proc proc '$CHROOT/proc'
        mount -t tmpfs -o mode=755 tmpfs '$CHROOT/dev'
        for d in null zero full random urandom tty; do
            touch '$CHROOT/dev/'\$d
            mount --bind /dev/\$d '$CHROOT/dev/'\$d
        done
        mkdir -m 1777 '$CHROOT/dev/shm'
        ln -s /proc/self/fd '$CHROOT/dev/fd'
        exec chroot '$CHROOT' \"\$@\"
    " bash env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root TERM=dumb LANG=C.UTF-8 \
        NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
        npm_config_cafile=/etc/ssl/certs/ca-certificates.crt \
        MCP_URL="http://127.0.0.1:$PORT/mcp" LLM_URL="http://127.0.0.1:$LLM_PORT/v1" \
        N8N_RUNNERS_BROKER_PORT="$BROKER_PORT" "$@"
}

# --- the chroot: Node 24 and n8n ------------------------------------------------
make_chroot() {
    [ -x "$CHROOT/opt/n8n/node_modules/.bin/n8n" ] && return
    rm -rf "$CHROOT"
    mkdir -p "$DIR"
    if [ -n "$CACHE" ] && [ -d "$CACHE/chroots/sid" ]; then
        say "copying the sid base from $CACHE/chroots/sid"
        cp -a "$CACHE/chroots/sid" "$CHROOT"
    else
        say "debootstrap sid into $CHROOT"
        debootstrap --variant=minbase --include=ca-certificates sid "$CHROOT" "$MIRROR" >"$DIR/debootstrap.log" 2>&1
        if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
            cp /usr/local/share/ca-certificates/*.crt "$CHROOT/usr/local/share/ca-certificates/"
            chroot "$CHROOT" update-ca-certificates >/dev/null 2>&1
        fi
        echo 'Acquire::Check-Valid-Until "false";' >"$CHROOT/etc/apt/apt.conf.d/99neon-ai-tools"
    fi
    cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
    say "installing nodejs, npm and a compiler in the chroot"
    in_chroot bash -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends nodejs npm node-gyp libnode-dev python3 make g++' >"$LOGS/apt.log" 2>&1
    say "npm install n8n@$N8N_VERSION --ignore-scripts (several minutes)"
    # sqlite3's own install script is blocked by npm's allowScripts; n8n's
    # bundled node-gyp 8 needs distutils, gone from Python 3.12+: Debian's
    # node-gyp builds it against Debian's Node headers instead.
    in_chroot bash -c "mkdir -p /opt/n8n && cd /opt/n8n && echo '{\"private\": true}' >package.json &&
        npm install n8n@$N8N_VERSION --ignore-scripts --no-audit --no-fund --loglevel=error &&
        cd node_modules/sqlite3 && node-gyp rebuild --nodedir=/usr &&
        node -e 'require(\"sqlite3\")'" >"$LOGS/npm.log" 2>&1 ||
        { tail -20 "$LOGS/npm.log"; exit 1; }
}

# --- the database and the MCP server --------------------------------------------
PIDS=()
# shellcheck disable=SC2317  # runs on exit
cleanup() {
    local p
    [ -s "$DIR/mcp.pid" ] && PIDS+=("$(cat "$DIR/mcp.pid")")
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    sleep 1
    rm -f "$DIR/mcp.pid"
    if [ -f "$DIR/data/postmaster.pid" ]; then
        su postgres -c "$PGBIN/pg_ctl -D '$DIR/data' -m fast -w stop" >/dev/null 2>&1 || true
    fi
}
trap cleanup EXIT

start_database() {
    rm -rf "$DIR/data" "$DIR/sock"
    mkdir "$DIR/sock" "$DIR/data"
    chmod 700 "$DIR/sock" "$DIR/data"
    : >"$LOGS/postgres.log"
    : >"$LOGS/mcp.log"
    chown postgres: "$DIR/sock" "$DIR/data" "$LOGS/postgres.log" "$LOGS/mcp.log"
    su postgres -c "$PGBIN/initdb -D '$DIR/data' -A trust -U postgres -E UTF8 --locale=C.UTF-8" >"$LOGS/initdb.log" 2>&1
    su postgres -c "$PGBIN/pg_ctl -D '$DIR/data' -l '$LOGS/postgres.log' -w start \
        -o \"-p $PGPORT -k '$DIR/sock' -c listen_addresses=''\"" >/dev/null
    su postgres -c "$PGBIN/psql -X -q -v ON_ERROR_STOP=1 -h '$DIR/sock' -p $PGPORT -d postgres" \
        <"$HERE/setup.sql" >"$LOGS/setup.log" 2>&1 || { cat "$LOGS/setup.log"; exit 1; }
}

start_server() {
    local t role
    : >"$DIR/tokens"
    for role in east west; do
        t=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
        printf '%s' "$t" >"$CHROOT/opt/check/token_$role"
        echo "agent_$role $(printf '%s' "$t" | sha256sum | cut -d' ' -f1)" >>"$DIR/tokens"
    done
    chmod 600 "$CHROOT"/opt/check/token_*
    chown postgres: "$DIR/tokens"
    chmod 600 "$DIR/tokens"
    # the server's own pid (su's child), for cleanup
    su postgres -c "'$DIR/neon-ai-tools-mcp' -v --http 127.0.0.1:$PORT --auth-tokens '$DIR/tokens' \
        'host=$DIR/sock port=$PGPORT dbname=app user=authenticator' </dev/null >/dev/null 2>>'$LOGS/mcp.log' &
        echo \$!" >"$DIR/mcp.pid"
    for _ in $(seq 50); do
        grep -q listening "$LOGS/mcp.log" && return
        sleep 0.1
    done
    cat "$LOGS/mcp.log"
    exit 1
}

mkdir -p "$DIR" "$LOGS"
chmod 755 "$DIR"
make_chroot
say "building neon-ai-tools-mcp from $ROOT"
make -s -C "$ROOT/src/mcp" >"$LOGS/build.log" 2>&1 || { cat "$LOGS/build.log"; exit 1; }
install -m 755 "$ROOT/src/mcp/neon-ai-tools-mcp" "$DIR/neon-ai-tools-mcp"
start_database
rm -rf "$CHROOT/opt/check"
mkdir -p "$CHROOT/opt/check"
cp -r "$HERE/workflows" "$HERE/in-chroot.sh" "$HERE/check.js" "$CHROOT/opt/check/"
start_server
say "server: $(grep -m1 listening "$LOGS/mcp.log")"
# the scripted model runs on the host (any Node): a plain pid to stop
FAKE_LLM_PORT=$LLM_PORT FAKE_LLM_DUMP=$CHROOT/opt/check/llm.jsonl \
    node "$HERE/fake-llm.mjs" </dev/null >/dev/null 2>"$LOGS/llm.log" &
PIDS+=($!)
sleep 1
in_chroot /opt/check/in-chroot.sh
cp "$LOGS/mcp.log" "$CHROOT/opt/check/mcp.log"
rc=0
in_chroot bash -c 'cd /opt/check && node check.js' | tee "$LOGS/check.tap" || rc=$?
cp "$CHROOT"/opt/check/out-*.json "$CHROOT/opt/check/llm.jsonl" "$LOGS/" 2>/dev/null || true
say "logs and n8n's outputs in $LOGS"
exit "$rc"
