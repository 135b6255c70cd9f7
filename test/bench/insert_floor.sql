SELECT floor_insert(args) FROM bench_doc;
