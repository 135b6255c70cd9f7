\set lo random(1, 99990)
SELECT floor_update(jsonb_build_object('table', 'bench', 'set', jsonb_build_object('qty', :lo::int % 100), 'where', jsonb_build_object('id', jsonb_build_object('between', jsonb_build_array(:lo::int, :lo::int + 9))), 'returning', '[]'::jsonb));
