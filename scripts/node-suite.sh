# Shared by the npm-based suites (test/envelope/run.sh, test/catalog/run.sh,
# test/run_types/run.sh),
# sourced after they set TMP: report a failure before node could run as
# TAP, and install the suite's pinned packages when its lock file changed.

# node_suite_fail WHAT [LOG...]: "not ok" with the logs' last lines, exit 1
node_suite_fail() {
    echo "not ok 1 - $1"
    shift
    local f
    for f in "$@"; do
        [ -s "$f" ] && sed 's/^/#   /' "$f" | tail -40
    done
    echo "1..1"
    exit 1
}

# node_suite_install DIR NAME: node present, and npm ci in DIR when its
# package-lock.json is newer than what node_modules holds
node_suite_install() {
    local dir=$1 name=$2
    command -v node >/dev/null 2>&1 || node_suite_fail "node is installed"
    if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
        [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
        echo "# npm ci in $dir"
        bash "$dir/../../scripts/npm-ci.sh" "$dir" >"$TMP/npm.log" 2>&1 ||
            node_suite_fail "npm ci ($name)" "$TMP/npm.log"
    fi
}
