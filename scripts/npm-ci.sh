#!/usr/bin/env bash
# npm ci in a directory, robust to a flaky registry: a stalled fetch gives up
# after a minute and is retried, and the whole install is tried three times
# (the packages already fetched stay in npm's cache between attempts).
#
# npm is the system's when it has one; otherwise npm 10.9.2 itself comes
# from the npm registry, checked against its published sha512 and kept in
# npm's cache directory.  (Debian's npm package brings some 350 others with
# it; install-deps.sh installs only nodejs.)
#
# Usage: scripts/npm-ci.sh DIR          npm ci in DIR (output to stdout/stderr)
#        scripts/npm-ci.sh --available  exit 0 when npm can run here
set -uo pipefail

NPM_VERSION=10.9.2
NPM_SHA512=8ab88f10f224a0c614cb717a7f7c30499014f77134120e9c1f0211ea3cf3397592cbe483feb38e0c4b3be1c54e347292c76a1b5edb94a3289d5448484ab8ac81

# sets NPM to the command that runs npm; false when there is none to be had
find_npm() {
    if command -v npm >/dev/null 2>&1; then
        NPM=(npm)
        return 0
    fi
    command -v node >/dev/null 2>&1 && command -v curl >/dev/null 2>&1 || return 1
    local home=${npm_config_cache:-${HOME:-/tmp}/.npm}/neon-ai-tools
    local dir=$home/npm-$NPM_VERSION tgz new
    if [ ! -f "$dir/bin/npm-cli.js" ]; then
        mkdir -p "$home" || return 1
        tgz=$(mktemp "$home/npm.XXXXXX") || return 1
        new=$dir.new.$$
        if curl -fsSL --retry 3 --max-time 300 -o "$tgz" \
            "${npm_config_registry:-https://registry.npmjs.org/}npm/-/npm-$NPM_VERSION.tgz" &&
            echo "$NPM_SHA512  $tgz" | sha512sum -c --quiet - &&
            mkdir -p "$new" && tar -xzf "$tgz" -C "$new" --strip-components=1; then
            mv -T "$new" "$dir" 2>/dev/null || true    # another run may have won
        fi
        rm -rf "$tgz" "$new"
        [ -f "$dir/bin/npm-cli.js" ] || { echo "npm-ci: could not fetch npm $NPM_VERSION" >&2; return 1; }
    fi
    NPM=(node "$dir/bin/npm-cli.js")
}

if [ "${1:-}" = --available ]; then
    find_npm
    exit
fi
dir=$1
find_npm || { echo "npm-ci: npm is not installed, and node and curl are needed to fetch it" >&2; exit 1; }
for attempt in 1 2 3; do
    if (cd "$dir" && "${NPM[@]}" ci --no-audit --no-fund --loglevel=error \
            --fetch-timeout=60000 --fetch-retries=4 \
            --fetch-retry-mintimeout=2000 --fetch-retry-maxtimeout=20000); then
        exit 0
    fi
    echo "npm ci in $dir failed (attempt $attempt of 3)" >&2
    sleep $((attempt * 5))
done
exit 1
