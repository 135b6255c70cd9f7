SELECT ai_tool_call('select_query', '{"table": "bench_big", "where": {"name": {"ilike": "%x99999y%"}}, "limit": 100}');
