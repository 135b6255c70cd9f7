\set id random(1, 100000)
SELECT floor_select(jsonb_build_object('table', 'bench', 'where', jsonb_build_object('id', :id::int)));
