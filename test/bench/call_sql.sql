SELECT COALESCE(jsonb_agg(to_jsonb(o)), '[]') FROM bench_one o;
