#!/usr/bin/env bash
# Install everything needed to build, demo and test neon_ai_tools on Debian
# or Ubuntu, for the PostgreSQL that scripts/pg-version.sh picks (the
# distribution's own, or PGVERSION=NN / PG_CONFIG=...).  Idempotent: when
# every package is already there, apt is not touched at all, so reruns take
# well under a second.
#
# Usage: install-deps.sh [build]
#   build: only what building and running the extension and the MCP
#          program need (scripts/demo.sh), not the tests' tools (Node.js,
#          valgrind, PgBouncer, Perl's IPC::Run, curl, openssl, git).
#
# Installing postgresql-NN normally makes Debian create and start a default
# cluster on port 5432.  The scripts never use it (they start scratch
# clusters on their own ports and sockets), so while they install the server
# they tell postgresql-common not to create one, and nothing is left
# listening on 5432.  A cluster that already exists is left alone.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/pg-version.sh
source "$HERE/pg-version.sh"

export DEBIAN_FRONTEND=noninteractive

# Root runs apt directly; anyone else needs sudo.
if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo DEBIAN_FRONTEND=noninteractive)
else
    echo "install-deps: not root and sudo is not installed; run as root" >&2
    exit 1
fi

command -v dpkg-query >/dev/null 2>&1 ||
    nat_unsupported "$(nat_system_name) has no dpkg/apt: the scripts need Debian or Ubuntu (or set PG_CONFIG and build by hand with make)"
nat_pg_version update
V=$NAT_PG_VERSION

packages=(
    "postgresql-$V"              # the server the extension is loaded into
    "postgresql-server-dev-$V"   # server headers and PGXS
    "postgresql-client-$V"       # psql, pg_regress and the TAP Perl modules
    build-essential            # gcc, make
    libkrb5-dev                # needed by libpq-be.h
    libjson-c-dev              # the MCP program
    libpq-dev                  # the MCP program
    libssl-dev                 # the MCP program: bearer tokens (JWT)
    libmicrohttpd-dev          # the MCP program: Streamable HTTP
    pkg-config
)
case ${1:-all} in
    build) ;;
    all)
        packages+=(
            curl                       # raw HTTP cases of the MCP program's tests
            libipc-run-perl            # PostgreSQL::Test::Cluster
            perl                       # prove
            valgrind
            openssl                    # the SSL test's throw-away certificate
            git                        # test.sh copies the checkout with git ls-files
            pgbouncer                  # the MCP program behind a pooler (test/t/013)
        )
        # Node.js may already come from elsewhere (e.g. NodeSource); installing
        # Debian's package over it would conflict, so add it only when missing.
        # npm: the system's, or scripts/npm-ci.sh fetches it from the npm
        # registry (Debian's npm package brings some 350 others with it).
        command -v node >/dev/null 2>&1 || packages+=(nodejs)
        ;;
    *) echo "usage: install-deps.sh [build]" >&2; exit 2 ;;
esac

# dpkg-query prints "install ok installed" only for fully installed packages.
missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
    echo "install-deps: all packages already installed"
    exit 0
fi

# PG_CONFIG names an installation made some other way: its server packages
# are not ours to install.
if [ -n "${PG_CONFIG:-}" ]; then
    keep=()
    for p in "${missing[@]}"; do
        case $p in postgresql-*"$V") ;; *) keep+=("$p") ;; esac
    done
    missing=("${keep[@]}")
    [ "${#missing[@]}" -gt 0 ] || { echo "install-deps: all packages already installed"; exit 0; }
fi

echo "install-deps: installing ${missing[*]}"
"${SUDO[@]}" apt-get update -q
candidate=$(apt-cache policy "postgresql-server-dev-$V" 2>/dev/null | sed -n 's/^ *Candidate: //p')
if [ -z "$candidate" ] || [ "$candidate" = "(none)" ]; then
    nat_unsupported "PostgreSQL $V is not available from $(nat_system_name)'s apt sources"
fi

# No default cluster: a drop-in for postgresql-common's createcluster.conf,
# present only while apt runs (it would otherwise outlive us and change how
# the administrator's own installs behave).
dropin=/etc/postgresql-common/createcluster.d/zz-neon-ai-tools-install.conf
"${SUDO[@]}" mkdir -p "$(dirname "$dropin")"
echo "create_main_cluster = false" | "${SUDO[@]}" tee "$dropin" >/dev/null
trap '"${SUDO[@]}" rm -f "$dropin"' EXIT
"${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"

# Debian starts a pgbouncer service on port 6432 when it installs the
# package; the test starts its own, so leave nothing listening, as for the
# default cluster.
case " ${missing[*]} " in
    *" pgbouncer "*)
        if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
            "${SUDO[@]}" systemctl disable --now pgbouncer.service >/dev/null 2>&1 || true
        fi
        ;;
esac
