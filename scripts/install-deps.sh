#!/usr/bin/env bash
# Install everything needed to build, demo and test neon_ai_tools on Debian
# bookworm.  Idempotent: when every package is already there, apt is not
# touched at all, so reruns take well under a second.
#
# Installing postgresql-15 makes Debian create and start a default cluster on
# port 5432.  That is harmless: our scripts never use it (they start scratch
# clusters on their own ports and sockets).
set -euo pipefail

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

packages=(
    postgresql-15              # the server the extension is loaded into
    postgresql-server-dev-15   # server headers and PGXS
    postgresql-client-15       # psql, pg_regress and the TAP Perl modules
    build-essential            # gcc, make
    libkrb5-dev                # needed by libpq-be.h
    libjson-c-dev              # the MCP program
    libpq-dev                  # the MCP program
    libipc-run-perl            # PostgreSQL::Test::Cluster
    perl                       # prove
    pkg-config
    valgrind
    git                        # test.sh copies the checkout with git ls-files
)
# Node.js may already come from elsewhere (e.g. NodeSource); installing
# Debian's packages over it would conflict, so add them only when missing.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

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

echo "install-deps: installing ${missing[*]}"
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
