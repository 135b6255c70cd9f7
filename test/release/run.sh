#!/usr/bin/env bash
# The release suite (issue 33): META.json against the PGXN Meta Spec, one
# version everywhere, update chains, released scripts unchanged, make dist.
# Prints TAP (release.pl says what is checked).  Needs no server.
#
#   1. npm ci into test/envelope/node_modules when needed (its pinned ajv
#      validates META.json here too);
#   2. perl release.pl.
#
# Usage: PG_CONFIG=... NAT_GIT_ROOT=CHECKOUT test/release/run.sh
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nat_release.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# shellcheck source=scripts/node-suite.sh
source "$HERE/../../scripts/node-suite.sh"
node_suite_install "$HERE/../envelope" test/envelope

perl "$HERE/release.pl"
