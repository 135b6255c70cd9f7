#!/usr/bin/env bash
# Show neon_ai_tools working: installs the dependencies, builds and installs
# the extension, starts a throw-away PostgreSQL cluster (its own port and
# socket, removed on exit), loads sample data and makes real tool calls.
#
# Usage: scripts/demo.sh            (as root, or as a user with sudo)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bash "$HERE/install-deps.sh" build    # what building and the demo need
# shellcheck source=scripts/cluster.sh
source "$HERE/cluster.sh"

# Build in the checkout as the user who runs the demo (root builds as root:
# the tree is theirs), then install system-wide.
if [ "$(id -u)" -eq 0 ]; then
    echo "== build ($NAT_ROOT)"
    (cd "$NAT_ROOT" && make -s -j"$(nproc)" PG_CONFIG="$NAT_PG_CONFIG")
else
    nat_build "$NAT_ROOT"
fi
nat_install "$NAT_ROOT"

nat_cluster_start neon_demo
"$NAT_PG_BIN/psql" -X -v ON_ERROR_STOP=1 -P pager=off -f "$HERE/demo.sql"
echo
echo "demo finished; the scratch cluster is stopped and removed."
