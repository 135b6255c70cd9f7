-- Benchmark fixtures: a 100,000-row table, a target for inserts, and the
SET client_min_messages = warning;
-- 100-row JSON document both insert variants load.
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
DROP TABLE IF EXISTS bench, bench_ins, bench_doc, bench_one;
DROP FUNCTION IF EXISTS floor_select(jsonb), floor_insert(jsonb), floor_update(jsonb);
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
-- A bare tool written by hand (workloads *_floor): the same
-- statement in a PL/pgSQL function that takes the tool's jsonb arguments,
-- runs in a subtransaction (an exception block, which "nothing left
-- behind" needs) and answers with an envelope of the same keys.  No guard,
-- cap, deadline, validation or catalog lookup: what the same interface
-- costs in PL/pgSQL without any guarantee.
CREATE FUNCTION floor_select(args jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    rows jsonb;
BEGIN
    BEGIN
        SELECT COALESCE(jsonb_agg(to_jsonb(b)), '[]') INTO rows
        FROM bench b WHERE id = (args -> 'where' ->> 'id')::int;
        RETURN jsonb_build_object('data', rows, 'tool', 'select_query', 'table', 'public.bench',
            'status', 'success', 'columns', '[{"name": "id", "type": "integer"}, {"name": "name", "type": "text"},
                {"name": "qty", "type": "integer"}, {"name": "price", "type": "numeric(10,2)"},
                {"name": "created", "type": "timestamp with time zone"}]'::jsonb,
            'success', true, 'rowCount', jsonb_array_length(rows), 'operation', 'select',
            'truncated', false, 'executionTime', '0.1ms');
    EXCEPTION WHEN OTHERS THEN
        RETURN jsonb_build_object('success', false, 'error', SQLERRM);
    END;
END $$;
CREATE FUNCTION floor_insert(args jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    BEGIN
        INSERT INTO bench_ins (name, qty, price)
        SELECT name, qty, price FROM jsonb_populate_recordset(NULL::bench_ins, args -> 'rows');
        GET DIAGNOSTICS n = ROW_COUNT;
        RETURN jsonb_build_object('data', '[]'::jsonb, 'tool', 'insert_data', 'table', 'public.bench_ins',
            'status', 'success', 'success', true, 'rowCount', 0, 'operation', 'insert',
            'truncated', false, 'affectedRows', n, 'executionTime', '0.1ms');
    EXCEPTION WHEN OTHERS THEN
        RETURN jsonb_build_object('success', false, 'error', SQLERRM);
    END;
END $$;
CREATE FUNCTION floor_update(args jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    BEGIN
        UPDATE bench SET qty = (args -> 'set' ->> 'qty')::int
        WHERE id BETWEEN (args -> 'where' -> 'id' -> 'between' ->> 0)::int
                     AND (args -> 'where' -> 'id' -> 'between' ->> 1)::int;
        GET DIAGNOSTICS n = ROW_COUNT;
        RETURN jsonb_build_object('data', '[]'::jsonb, 'tool', 'update_data', 'table', 'public.bench',
            'status', 'success', 'success', true, 'rowCount', 0, 'operation', 'update',
            'truncated', false, 'affectedRows', n, 'executionTime', '0.1ms');
    EXCEPTION WHEN OTHERS THEN
        RETURN jsonb_build_object('success', false, 'error', SQLERRM);
    END;
END $$;
