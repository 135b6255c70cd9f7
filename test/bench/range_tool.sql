\set lo random(1, 99000)
SELECT ai_tool_call('select_query', jsonb_build_object('table', 'bench', 'where', jsonb_build_object('id', jsonb_build_object('between', jsonb_build_array(:lo::int, :lo::int + 999))), 'limit', 1000));
