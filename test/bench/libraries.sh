# Sourced by the benchmarks (run.sh, compare.sh, percall.sh,
# setrole.sh, fixedcost.sh) after scripts/cluster.sh: bench_libraries NAME
# REF puts the installed library aside as $WORK/after.so (put back on exit)
# and builds the one of commit REF as $WORK/before.so, in a scratch
# directory $WORK; INSTALLED is the installed library's path, where
# bench_use before|after puts the build a round measures (nothing to do
# when bench_libraries was not called: the installed build is measured).

bench_libraries() {
    local name=$1 ref=$2
    INSTALLED=$("$NAT_PG_CONFIG" --pkglibdir)/neon_ai_tools.so
    nat_mktemp_dir "$name"
    WORK=$NAT_DIR
    cp "$INSTALLED" "$WORK/after.so"
    nat_on_exit nat_as_root cp --remove-destination "$WORK/after.so" "$INSTALLED"
    # the "before" library, built from ref in a scratch checkout
    git -C "$NAT_ROOT" archive --format=tar "$ref" | tar -x -C "$WORK" --one-top-level=before
    chown -R "$NAT_USER": "$WORK/before"
    nat_build "$WORK/before" >/dev/null
    cp "$WORK/before/neon_ai_tools.so" "$WORK/before.so"
    BENCH_LIBRARIES=1
}

bench_use() {
    [ -n "${BENCH_LIBRARIES:-}" ] || return 0
    nat_as_root cp --remove-destination "$WORK/$1.so" "$INSTALLED"
}

# Before a pgbench round of script $1: the insert workloads grow bench_ins,
# so each of their rounds starts from an empty table (and a checkpoint),
# and neither side inserts into a table the other has grown.  Needs PSQL.
bench_fresh_round() {
    case $1 in
        insert_*) "${PSQL[@]}" -c "TRUNCATE bench_ins" -c "CHECKPOINT" >/dev/null ;;
    esac
}
