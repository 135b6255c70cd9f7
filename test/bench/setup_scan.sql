-- The scan workload's table: 10 million rows that an ILIKE pattern matching
-- none of them must read whole (parallel workers help both sides alike).
SET client_min_messages = warning;
DROP TABLE IF EXISTS bench_big;
CREATE TABLE bench_big (id int NOT NULL, name text NOT NULL, qty int NOT NULL);
INSERT INTO bench_big SELECT g, 'item ' || g, g % 100 FROM generate_series(1, 10000000) g;
VACUUM ANALYZE bench_big;
