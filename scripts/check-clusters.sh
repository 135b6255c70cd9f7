#!/usr/bin/env bash
# Every test cluster names its encoding and locale.  A cluster that takes
# them from the environment is SQL_ASCII in a fresh container (env -i, no
# LANG), and its tests then fail only there.  Fails, naming the line, on
#   - a TAP cluster made without test/perl/NatNode.pm (a bare ->init), and
#   - an initdb command line in the scripts without -E UTF8 / --encoding.
#
# Usage: scripts/check-clusters.sh     (from anywhere; exit 1 on a finding)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

found=0
while IFS= read -r hit; do
    echo "check-clusters: $hit: a TAP cluster is made with NatNode's nat_node() or nat_init(), not ->init"
    found=1
done < <(grep -rnE --include='*.pl' --include='*.pm' -e '->init(\(|;)' test | grep -v '^test/perl/NatNode\.pm:' || true)

# an initdb run (not a comment) whose command line, with its continuation
# lines, names no encoding
while IFS= read -r file; do
    while IFS= read -r hit; do
        echo "check-clusters: $hit: initdb without an explicit encoding (-E UTF8) and locale"
        found=1
    done < <(awk '
        /^[[:space:]]*#/ { next }
        cont { cmd = cmd $0 } !cont && /initdb"?[[:space:]]+-/ { cmd = $0; start = FNR }
        { cont = (cmd != "" && /\\$/) }
        cmd != "" && !cont {
            if (cmd !~ /(-E[[:space:]]*UTF-?8|--encoding[= ]UTF-?8)/ || cmd !~ /(--locale|--no-locale|--lc-)/)
                print FILENAME ":" start
            cmd = ""
        }' "$file")
done < <(grep -rlE 'initdb' scripts test --include='*.sh' || true)

exit "$found"
