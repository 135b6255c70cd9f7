\set lo random(1, 99000)
SELECT COALESCE(jsonb_agg(to_jsonb(b)), '[]') FROM (SELECT * FROM bench WHERE id BETWEEN :lo AND :lo + 999 LIMIT 1000) b;
