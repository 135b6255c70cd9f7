# Sourced by the before/after benchmarks (compare.sh, percall.sh) after
# scripts/cluster.sh: bench_libraries NAME REF puts the installed library
# aside as $WORK/after.so (put back on exit) and builds the one of commit
# REF as $WORK/before.so, in a scratch directory $WORK; INSTALLED is the
# installed library's path, where a round puts the build it measures.

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
}
