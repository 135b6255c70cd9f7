\set id random(1, 100000)
SELECT ai_tool_call('select_query', jsonb_build_object('table', 'bench', 'where', jsonb_build_object('id', :id::int)));
