\set lo random(1, 99990)
SELECT bench_wrapped_update(:lo);
