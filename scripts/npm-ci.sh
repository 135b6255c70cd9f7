#!/usr/bin/env bash
# npm ci in a directory, robust to a flaky registry: a stalled fetch gives up
# after a minute and is retried, and the whole install is tried three times
# (the packages already fetched stay in npm's cache between attempts).
#
# Usage: scripts/npm-ci.sh DIR    (output goes to stdout/stderr)
set -uo pipefail
dir=$1
for attempt in 1 2 3; do
    if (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error \
            --fetch-timeout=60000 --fetch-retries=4 \
            --fetch-retry-mintimeout=2000 --fetch-retry-maxtimeout=20000); then
        exit 0
    fi
    echo "npm ci in $dir failed (attempt $attempt of 3)" >&2
    sleep $((attempt * 5))
done
exit 1
