\set id random(1, 100000)
SELECT bench_wrapped_point(:id);
