-- explain_query: plans as JSON; analyze only for read-only statements
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA expl_test;
SET search_path = expl_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

CREATE TABLE items (id int PRIMARY KEY, name text);
INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 10000) g;
ANALYZE items;

-- the plan, with bound parameters
SELECT r - 'data' AS answer, r #>> '{data,0,Plan,Node Type}' AS node, r #>> '{data,0,Plan,Index Name}' AS index_name
FROM call('explain_query', '{"sql": "SELECT * FROM items WHERE id = $1", "params": [5]}') r;
-- every placeholder needs a value: the plan depends on it
SELECT call('explain_query', '{"sql": "SELECT * FROM items WHERE id = $1"}') ->> 'error' AS error;
-- analyze: actual rows and times
-- (18 and later print Actual Rows with two decimals: compare the number)
SELECT (r #>> '{data,0,Plan,Actual Rows}')::numeric = 10 AS ten_actual_rows, (r #> '{data,0}') ? 'Execution Time' AS timed
FROM call('explain_query', '{"sql": "SELECT * FROM items WHERE id < $1", "params": [11], "analyze": true}') r;

-- a DELETE can be explained, never analyzed: refused, and nothing deleted
SELECT call('explain_query', '{"sql": "DELETE FROM items"}') #>> '{data,0,Plan,Node Type}' AS node;
SELECT call('explain_query', '{"sql": "DELETE FROM items", "analyze": true}') - 'details';
SELECT call('explain_query', '{"sql": "WITH d AS (DELETE FROM items RETURNING *) SELECT * FROM d", "analyze": true}') ->> 'error' AS error;
CREATE FUNCTION writer() RETURNS int LANGUAGE sql VOLATILE AS $$ DELETE FROM expl_test.items; SELECT 1 $$;
SELECT call('explain_query', '{"sql": "SELECT writer()", "analyze": true}') ->> 'errorType' AS error_type;
SELECT call('explain_query', '{"sql": "SELECT lo_create(0)", "analyze": true}') ->> 'error' AS error;
SELECT count(*) AS items FROM items;

-- one statement, without EXPLAIN; statement rules apply
SELECT call('explain_query', '{"sql": "SELECT 1; SELECT 2"}') ->> 'error' AS error;
SELECT call('explain_query', '{"sql": "EXPLAIN SELECT 1"}') ->> 'error' AS error;
SELECT call('explain_query', '{"sql": "COMMIT"}') ->> 'error' AS error;
SELECT call('explain_query', '{"sql": "SELECT * FROM itemz"}') ->> 'errorType' AS error_type;

-- the catalog entry is honest: read-only, not destructive
SELECT t->'annotations' AS annotations FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'explain_query';
SELECT t->'annotations' AS annotations FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'execute_sql';

DROP SCHEMA expl_test CASCADE;
