INSERT INTO bench_ins (name, qty, price) SELECT name, qty, price FROM bench_doc, jsonb_populate_recordset(NULL::bench_ins, doc);
