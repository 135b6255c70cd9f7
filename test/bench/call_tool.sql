SELECT ai_tool_call('select_query', '{"table": "bench_one"}');
