SELECT ai_tool_call('insert_data', args) FROM bench_doc;
