\set id random(1, 100000)
SELECT COALESCE(jsonb_agg(to_jsonb(b)), '[]') FROM bench b WHERE id = :id;
