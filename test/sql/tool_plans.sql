-- ai_tool_plan: what a call would run, planned as the caller and not run.
-- Each tool's plan: relation and resolved columns, SQL text, parameter
-- types, caps; never the bound values; the planner's warnings; errors as
-- ai_tool_call answers them; nothing run, written or audited.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA plan_test;
SET search_path = plan_test, public;

CREATE FUNCTION plan(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_plan(tool, args) - 'executionTime' $$;

CREATE TABLE items (id int PRIMARY KEY, name text, "Price" numeric, dropped int, note text);
ALTER TABLE items DROP COLUMN dropped;
INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, 5) g;

-- select_query: "*" resolves to every column not dropped; named columns in
-- the order given; the where value is bound (its type shown, never the value)
SELECT plan('select_query', '{"table": "items"}');
SELECT plan('select_query', '{"table": "items", "columns": ["Price", "id"], "where": {"name": "secret value 42"}, "order_by": "id desc", "limit": 3}');
SELECT position('secret value 42' IN ai_tool_plan('select_query', '{"table": "items", "where": {"name": "secret value 42"}}')::text) AS value_shown;

-- insert_data: the written columns, RETURNING's columns, the write cap
SELECT plan('insert_data', '{"table": "items", "rows": [{"id": 10, "name": "x"}, {"id": 11, "note": "y"}], "returning": ["id"]}');
-- update_data: SET columns written, filter bound
SELECT plan('update_data', '{"table": "items", "set": {"note": "n", "Price": 2}, "where": {"id": 1}, "max_affected": 5}');
-- delete_data without a filter: refused as ai_tool_call refuses it; with
-- confirm_all_rows the planner's warning is in the answer
SELECT plan('delete_data', '{"table": "items"}') ->> 'errorType' AS error_type;
SELECT plan('delete_data', '{"table": "items", "confirm_all_rows": true, "returning": []}');
-- truncate: a utility statement whose affectedRows comes from a count
SELECT plan('delete_data', '{"table": "items", "mode": "truncate", "confirm": true}') -> 'plan';

-- execute_sql: each statement, with values bound only when it runs
SELECT plan('execute_sql', '{"sql": "SELECT $1::int; UPDATE items SET note = $1::text WHERE false", "params": [1], "mode": "multiple"}');
-- explain_query: analysed and bound while planning, so a missing value is
-- an error now, and the parameter types are known
SELECT plan('explain_query', '{"sql": "SELECT * FROM items WHERE id = $1 AND name = $2", "params": [1, "a"]}') -> 'plan';
SELECT plan('explain_query', '{"sql": "SELECT * FROM items WHERE id = $1"}') ->> 'error' AS error;

-- discovery tools plan catalog queries
SELECT plan('describe_table', '{"table": "items"}') #>> '{plan,run}' AS run;
SELECT plan('list_tables', '{"schema": "plan_test"}') #> '{plan,parameterTypes}' AS types;

-- errors are ai_tool_call's: unknown tool, bad argument, unknown column
SELECT plan('no_such_tool', '{}') ->> 'errorType' AS error_type;
SELECT plan('select_query', '{"table": "items", "limit": "ten"}') ->> 'errorType' AS error_type;
SELECT plan('select_query', '{"table": "items", "columns": ["nam"]}') ->> 'error' AS error;

-- nothing runs: the table is still there with its rows; nothing is created
SELECT plan('delete_data', '{"table": "items", "mode": "drop", "confirm": true}') #> '{plan}' AS plan;
SELECT count(*) AS rows_left FROM items;
SELECT ai_tool_plan('execute_sql', '{"sql": "CREATE TABLE made_by_plan (a int)"}') ->> 'status' AS status;
SELECT to_regclass('plan_test.made_by_plan') AS not_created;

-- as the caller: a role without SELECT cannot plan a read of the table
CREATE ROLE plan_reader;
GRANT USAGE ON SCHEMA plan_test TO plan_reader;
GRANT EXECUTE ON FUNCTION plan(text, jsonb) TO plan_reader;
SET ROLE plan_reader;
SELECT plan('select_query', '{"table": "items"}') ->> 'errorType' AS error_type;
RESET ROLE;

-- the SQL API's own misuse is an ERROR, as for ai_tool_call
SELECT ai_tool_plan(NULL, '{}');
SELECT ai_tool_plan('select_query', '[]');

DROP SCHEMA plan_test CASCADE;
DROP ROLE plan_reader;
