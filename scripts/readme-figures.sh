#!/usr/bin/env bash
# The README's figures tables (catalog and answer sizes, bytes and tokens),
# measured on a throw-away cluster with the installed extension: checks
# them (TAP, exit 1 when the README differs), or with --write rewrites them
# in README.md.  After a change that alters them:
#
#   make install && scripts/readme-figures.sh --write
#
# Usage: scripts/readme-figures.sh [--write]   (as root, or as a user with sudo)
# Needs: the extension installed for the chosen PostgreSQL (PG_CONFIG or
#        PGVERSION, as scripts/test.sh), node and npm (test/catalog's
#        packages are installed when missing).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/cluster.sh
source "$HERE/cluster.sh"
nat_cluster_start postgres
PSQL="$NAT_PG_BIN/psql" bash "$NAT_ROOT/test/readme/run.sh" --figures "$@"
