-- Benchmark fixtures: a 100,000-row table, a target for inserts, and the
SET client_min_messages = warning;
-- 100-row JSON document both insert variants load.
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
DROP TABLE IF EXISTS bench, bench_ins, bench_doc, bench_one;
CREATE TABLE bench (id int PRIMARY KEY, name text NOT NULL, qty int NOT NULL,
                    price numeric(10,2) NOT NULL, created timestamptz NOT NULL);
INSERT INTO bench
SELECT g, 'item ' || g, g % 100, (g % 1000) / 10.0, '2024-01-01'::timestamptz + g * interval '1 minute'
FROM generate_series(1, 100000) g;
CREATE TABLE bench_ins (id bigserial PRIMARY KEY, name text, qty int, price numeric(10,2));
CREATE TABLE bench_doc AS
SELECT jsonb_agg(jsonb_build_object('name', 'new ' || g, 'qty', g, 'price', g / 3.0)) AS doc
FROM generate_series(1, 100) g;
-- the tool's arguments around the same document, stored like it: both
-- workloads read their input from this row, neither builds it per call
ALTER TABLE bench_doc ADD COLUMN args jsonb;
UPDATE bench_doc SET args = jsonb_build_object('table', 'bench_ins', 'rows', doc, 'returning', '[]'::jsonb);
-- the fixed cost of one call: a one-row table (workload "call")
CREATE TABLE bench_one (id int PRIMARY KEY, name text);
INSERT INTO bench_one VALUES (1, 'one');
VACUUM ANALYZE bench;
VACUUM ANALYZE bench_one;
