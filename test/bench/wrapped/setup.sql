-- The wrapped workloads' functions (bench_wrapped.c), once run.sh has
-- built and installed the module.
CREATE OR REPLACE FUNCTION bench_wrapped_point(int) RETURNS jsonb
    LANGUAGE c STRICT AS '$libdir/bench_wrapped';
CREATE OR REPLACE FUNCTION bench_wrapped_update(int) RETURNS int
    LANGUAGE c STRICT AS '$libdir/bench_wrapped';
