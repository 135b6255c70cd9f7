SELECT ai_tool_call('insert_data', jsonb_build_object('table', 'bench_ins', 'rows', doc, 'returning', '[]'::jsonb)) FROM bench_doc;
