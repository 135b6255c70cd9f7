-- the byte budget bounds what a call reads and renders, not only what it
-- returns; the call's error path and nesting state survive every failure
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA ab_test;
SET search_path = ab_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

-- the setting is capped well below jsonb's 256 MB limit (16MB)
DO $$
BEGIN
  SET neon_ai_tools.max_response_bytes = '1GB';
EXCEPTION WHEN invalid_parameter_value THEN
  RAISE NOTICE 'refused (%)', SQLSTATE;
END$$;
SELECT min_val, max_val, unit FROM pg_settings WHERE name = 'neon_ai_tools.max_response_bytes';
SET neon_ai_tools.max_response_bytes = '16MB';
SHOW neon_ai_tools.max_response_bytes;

-- bytes are counted as rendered: control characters take six bytes each
SET neon_ai_tools.max_response_bytes = '64kB';
SELECT r->'rowCount' AS rows, r->'truncation' AS truncation,
       length((r->'data')::text) <= 65536 AS within_budget,
       length((r->'data')::text) > 60000 AS budget_used
FROM call('execute_sql', $${"sql": "SELECT repeat(chr(1), 1000) AS x FROM generate_series(1, 500)"}$$) r;
-- and so do quotes, backslashes and newlines (two bytes each)
SELECT r->'rowCount' AS rows, length((r->'data')::text) <= 65536 AS within_budget
FROM call('execute_sql', $${"sql": "SELECT repeat(E'\"\\\\\\n', 1000) AS x FROM generate_series(1, 500)"}$$) r;
-- inside jsonb values too
SELECT r->'rowCount' AS rows, length((r->'data')::text) <= 65536 AS within_budget
FROM call('execute_sql', $${"sql": "SELECT jsonb_build_object('k', repeat(chr(2), 1000)) AS j FROM generate_series(1, 500)"}$$) r;
-- numbers as their digits: 1e2000 is a few bytes stored, 2001 rendered
SET neon_ai_tools.max_response_bytes = '1kB';
SELECT r->'rowCount' AS rows, r->'truncation' AS truncation
FROM call('execute_sql', '{"sql": "SELECT 1e2000::numeric AS n"}') r;
SELECT r->'rowCount' AS rows, r->'truncation' AS truncation
FROM call('execute_sql', '{"sql": "SELECT jsonb_build_array(1e2000::numeric) AS n"}') r;
SELECT r->'rowCount' AS rows, r->'truncation' AS truncation
FROM call('execute_sql', '{"sql": "SELECT ARRAY[1e2000::numeric] AS n"}') r;
SELECT r->'rowCount' AS rows, r->'truncated' AS truncated
FROM call('execute_sql', '{"sql": "SELECT 1e100::numeric AS n"}') r;

-- a value larger than the whole budget is never converted: the first row
-- is left out, with a warning naming the column
SET neon_ai_tools.max_response_bytes = '1MB';
SELECT r->'rowCount' AS rows, r->'truncation' AS truncation, r->>'warning' AS warning
FROM call('execute_sql', $${"sql": "SELECT 1 AS id, repeat('x', 10000000) AS big FROM generate_series(1, 200)"}$$) r;
CREATE TABLE wide (id int PRIMARY KEY, doc text, j jsonb, a int[]);
INSERT INTO wide SELECT 1, repeat('abc', 1000000), NULL, NULL;
INSERT INTO wide SELECT 2, NULL, jsonb_build_object('k', repeat('y', 2000000)), NULL;
INSERT INTO wide SELECT 3, NULL, NULL, array_fill(7, ARRAY[1000000]);
INSERT INTO wide SELECT 4, 'small', '{}', '{1}';
SELECT r->'rowCount' AS rows, r->'truncation' AS truncation, r->>'warning' AS warning
FROM call('select_query', '{"table": "wide", "order_by": "id"}') r;
SELECT r->'rowCount' AS rows, r->'data' AS data
FROM call('select_query', '{"table": "wide", "where": {"id": 4}}') r;
SELECT r->'rowCount' AS rows, r->'truncation' AS truncation
FROM call('select_query', '{"table": "wide", "columns": ["id", "j"], "where": {"id": 2}}') r;
SELECT r->'rowCount' AS rows, r->'truncation' AS truncation
FROM call('select_query', '{"table": "wide", "columns": ["a"], "where": {"id": 3}}') r;

-- the budget is shared by all the statements of one call
SET neon_ai_tools.max_response_bytes = '10kB';
SELECT jsonb_path_query_array(r, '$.data[*].rowCount') AS rows,
       jsonb_path_query_array(r, '$.data[*].truncated') AS truncated
FROM call('execute_sql', $${"sql": "SELECT repeat('a', 100) AS x FROM generate_series(1, 60); SELECT repeat('b', 100) AS x FROM generate_series(1, 60)", "mode": "multiple"}$$) r;
RESET neon_ai_tools.max_response_bytes;

-- RETURNING rows past the caps are counted, not kept; the write still
-- happens whole, and the write cap is checked on the full count
CREATE TABLE sink (n int);
SET neon_ai_tools.max_affected_rows = 10000;
SELECT r->'affectedRows' AS affected, r->'rowCount' AS rows, r->'truncation' AS truncation
FROM call('execute_sql', '{"sql": "INSERT INTO ab_test.sink SELECT generate_series(1, 5000) RETURNING n", "limit": 3, "max_affected": 10000}') r;
SELECT count(*) FROM sink;
SELECT r->>'errorType' AS error_type, r->>'error' AS error
FROM call('execute_sql', '{"sql": "INSERT INTO ab_test.sink SELECT generate_series(1, 5000) RETURNING *", "max_affected": 100}') r;
SELECT count(*) FROM sink;
-- a data-modifying CTE in a query runs whole, even when the query's rows stop at the cap
SELECT r->'rowCount' AS rows, r->'truncated' AS truncated
FROM call('execute_sql', '{"sql": "WITH d AS (DELETE FROM ab_test.sink WHERE n <= 100 RETURNING n) SELECT n FROM d", "limit": 2}') r;
SELECT count(*) FROM sink;
RESET neon_ai_tools.max_affected_rows;

-- many columns of one name get unique keys, fast
SELECT jsonb_array_length(r->'columns') AS columns,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(r->'data'->0) k
        WHERE k IN ('n', 'n_2', 'n_20', 'n_21', 'n_2_2')) AS some_keys
FROM call('execute_sql', $${"sql": "SELECT 1 AS n, 2 AS n_2, 3 AS n, 4 AS n, 5 AS n, 6 AS n, 7 AS n, 8 AS n, 9 AS n, 10 AS n, 11 AS n, 12 AS n, 13 AS n, 14 AS n, 15 AS n, 16 AS n, 17 AS n, 18 AS n, 19 AS n, 20 AS n, 21 AS n, 22 AS n_2"}$$) r;
SELECT r->'data'->0->'n_2' AS real_n_2, r->'data'->0->'n_3' AS second_n, r->'data'->0->'n_2_2' AS second_n_2
FROM call('execute_sql', $${"sql": "SELECT 1 AS n, 2 AS n_2, 3 AS n, 4 AS n, 5 AS n, 6 AS n, 7 AS n, 8 AS n, 9 AS n, 10 AS n, 11 AS n, 12 AS n, 13 AS n, 14 AS n, 15 AS n, 16 AS n, 17 AS n, 18 AS n, 19 AS n, 20 AS n, 21 AS n, 22 AS n_2"}$$) r;
SELECT jsonb_array_length(r->'columns') AS columns, r->'data'->0 ? 'id_1664' AS last_key
FROM call('select_query', jsonb_build_object('table', 'wide', 'where', jsonb_build_object('id', 4),
     'columns', (SELECT jsonb_agg('id'::text) FROM generate_series(1, 1664)))) r;

-- a call cannot start in parallel mode (it needs a subtransaction): a
-- wrapper wrongly declared PARALLEL SAFE fails cleanly, and the session's
-- next call works
CREATE FUNCTION safe_wrapper() RETURNS jsonb LANGUAGE sql PARALLEL SAFE
AS $$ SELECT ai_tool_call('list_tables', '{}') $$;
SELECT set_config(name, 'on', false) AS forced FROM pg_settings
WHERE name IN ('debug_parallel_query', 'force_parallel_mode');
\set VERBOSITY terse
SELECT safe_wrapper() IS NOT NULL;
\set VERBOSITY default
SELECT set_config(name, 'off', false) AS forced FROM pg_settings
WHERE name IN ('debug_parallel_query', 'force_parallel_mode');
SELECT call('execute_sql', '{"sql": "SELECT 1 AS one"}') -> 'data' AS data;

-- an error while the answer is built or the call ends leaves the session
-- able to call again, inside a transaction too
BEGIN;
SELECT call('execute_sql', '{"sql": "SELECT 1 AS one"}') -> 'data' AS data;
SELECT call('execute_sql', '{"sql": "SELECT 1/0"}') ->> 'errorType' AS error_type;
SELECT call('execute_sql', '{"sql": "SELECT 2 AS two"}') -> 'data' AS data;
COMMIT;

-- explain_query: a plan past the byte budget (its Filter prints a long
-- constant) is left out, measured before it is converted
SET neon_ai_tools.max_response_bytes = '64kB';
CREATE TABLE plan_t (id int, name text);
SELECT r -> 'data' AS data, r -> 'rowCount' AS rows, r -> 'truncated' AS truncated,
       r -> 'truncation' AS truncation,
       r ->> 'warning' LIKE 'The plan is % bytes, past the byte limit of 65536 bytes, so it was left out.%' AS warned
FROM call('explain_query', jsonb_build_object('sql', 'SELECT * FROM plan_t WHERE name = repeat(''x'', 100000)')) r;
SELECT r -> 'data' -> 0 -> 'Plan' ->> 'Node Type' AS node, r -> 'rowCount' AS rows, r -> 'truncated' AS truncated
FROM call('explain_query', jsonb_build_object('sql', 'SELECT * FROM plan_t WHERE name = repeat(''x'', 1000)')) r;
RESET neon_ai_tools.max_response_bytes;

-- describe_table: comments, defaults and definitions clipped to 1000
-- characters and an ellipsis
CREATE TABLE described (id int DEFAULT 0, note text, CHECK (note <> 'x'));
DO $$BEGIN
  EXECUTE format('COMMENT ON TABLE described IS %L', repeat('c', 1000000));
  EXECUTE format('COMMENT ON COLUMN described.id IS %L', repeat('ä', 1001));
  EXECUTE format('COMMENT ON COLUMN described.note IS %L', repeat('n', 1000));
  EXECUTE format('ALTER TABLE described ALTER note SET DEFAULT %L', repeat('d', 5000));
END$$;
SELECT length(d ->> 'comment') AS comment_length, right(d ->> 'comment', 2) AS comment_end,
       length(d -> 'columns' -> 0 ->> 'comment') AS id_comment_length, right(d -> 'columns' -> 0 ->> 'comment', 2) AS id_comment_end,
       length(d -> 'columns' -> 1 ->> 'comment') AS note_comment_length,
       length(d -> 'columns' -> 1 ->> 'default') AS note_default_length,
       d -> 'columns' -> 0 -> 'default' AS id_default, d -> 'checks' -> 0 ->> 'definition' AS check_definition,
       length(r::text) < 5000 AS small
FROM call('describe_table', '{"table": "described"}') r, jsonb_array_elements(r -> 'data') d;
-- list_tables clips comments the same way: the row fits the budget
SELECT d ->> 'name' AS name, length(d ->> 'comment') AS comment_length, right(d ->> 'comment', 2) AS comment_end,
       r -> 'truncated' AS truncated
FROM call('list_tables', '{"pattern": "described"}') r, jsonb_array_elements(r -> 'data') d;

-- an error text cut at 8192 bytes ends at a whole word: a URI cut inside
-- its password would not be recognized, and the password would show
SELECT position('secret' IN r->>'error') AS password_shown, r->>'error' LIKE '%... (% more bytes)' AS cut
FROM call('execute_sql', jsonb_build_object('sql', format(
  'DO $$BEGIN RAISE EXCEPTION %L; END$$',
  repeat('x', 8166) || ' postgresql://agent:secretpassword@db.example.com/app and more'))) r;

DROP SCHEMA ab_test CASCADE;
