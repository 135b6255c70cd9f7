SELECT COALESCE(jsonb_agg(to_jsonb(b)), '[]') FROM (SELECT * FROM bench_big WHERE name ILIKE '%x99999y%' LIMIT 101) b;
