-- Custom tools: ai_tool_define(), ai_tool_from_function(), ai_tool_drop();
-- checked when defined, listed in every format, called like the built-ins
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA ct;
SET search_path = ct, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

CREATE TABLE ct.orders (id int PRIMARY KEY, customer text NOT NULL,
                        region text, total numeric, status text DEFAULT 'new');
INSERT INTO ct.orders VALUES (1, 'ann', 'eu', 10, 'new'), (2, 'bob', 'us', 20, 'new'),
                             (3, 'ann', 'eu', 5, 'paid'), (4, 'cid', 'us', 70, 'paid');

-- the table is the extension's configuration table: pg_dump keeps its rows
SELECT e.extconfig::regclass[] AS config FROM pg_extension e WHERE e.extname = 'neon_ai_tools';
-- defining is revoked from PUBLIC
SELECT p.oid::regprocedure AS function, has_function_privilege('public', p.oid, 'EXECUTE') AS public_may
FROM pg_proc p WHERE p.proname IN ('ai_tool_define', 'ai_tool_from_function', 'ai_tool_drop', 'ai_tool_call')
ORDER BY 1::text;

-- define: the answer is the tool's catalog entry
SELECT jsonb_pretty(ai_tool_define('top_customers',
  'Customers of a region by total spent, largest first.',
  'SELECT customer, sum(total) AS spent FROM ct.orders WHERE region = $1 GROUP BY customer ORDER BY spent DESC LIMIT $2',
  '[{"name": "region", "type": "text", "description": "Sales region.", "enum": ["eu", "us"]},
    {"name": "n", "type": "int", "description": "How many customers.", "default": 3, "minimum": 1, "maximum": 50}]'));
SELECT ai_tool_define('ship_order', 'Mark one paid order as shipped.',
  'UPDATE ct.orders SET status = ''shipped'' WHERE id = $1 AND status = ''paid'' RETURNING id, status',
  '[{"name": "order_id", "type": "integer", "description": "The order to ship."}]',
  '{"idempotent": true, "title": "Ship an order"}') -> 'annotations' AS annotations;
-- stored normalized: types schema-qualified, each parameter's JSON types
SELECT name, read_only, operation, options, parameters -> 0 AS first_parameter
FROM ai_tool_definitions ORDER BY name;

-- listed in every format, with the same schema rules as the built-ins
SELECT f AS format, jsonb_pretty(t) AS entry
FROM unnest(ARRAY['openai', 'openai_strict', 'anthropic', 'gemini']) f,
     jsonb_array_elements(ai_tool_list(f)) t
WHERE coalesce(t->>'name', t->'function'->>'name') = 'top_customers';
SELECT t->'annotations' AS mcp_annotations, t ? 'outputSchema' AS has_output_schema
FROM jsonb_array_elements(ai_tool_list('mcp')) t WHERE t->>'name' = 'ship_order';
-- after the built-ins, by name
SELECT array_agg(t->>'name') AS names FROM jsonb_array_elements(ai_tool_list()) t;

-- called: arguments validated from the parameter list, bound with their types
SELECT call('top_customers', '{"region": "eu"}');
SELECT call('top_customers', '{"region": "us", "n": 1}') -> 'data' AS data;
SELECT call('top_customers', '{"region": "asia"}') - 'details' AS bad_enum;
SELECT call('top_customers', '{"region": "eu", "n": 0}') ->> 'error' AS below_minimum;
SELECT call('top_customers', '{"regoin": "eu"}') ->> 'suggestion' AS misspelt;
SELECT call('top_customers', '{}') ->> 'error' AS missing;
SELECT call('top_customers', '{"region": "eu", "n": "many"}') ->> 'error' AS wrong_type;
-- a value that reaches SQL is a bound value, never text in the statement
SELECT ai_tool_define('orders_of', 'Orders of one customer.', 'SELECT id FROM ct.orders WHERE customer = $1 ORDER BY id',
                      '[{"name": "customer", "type": "text", "maxLength": 20}]') ->> 'name' AS name;
SELECT call('orders_of', '{"customer": "ann"}') -> 'data' AS data;
SELECT call('orders_of', '{"customer": "x'' OR ''1''=''1"}') -> 'rowCount' AS injection;
SELECT call('orders_of', '{"customer": "a very long customer name"}') ->> 'error' AS too_long;
-- strings and arrays without limits of their own get execute_sql's
SELECT jsonb_pretty(ai_tool_define('echo', 'Echoes its arguments.', 'SELECT $1 AS s, $2 AS a, $3 AS j',
  '[{"name": "s", "type": "text"}, {"name": "a", "type": "int[]", "required": false},
    {"name": "j", "type": "jsonb", "required": false}]') -> 'parameters' -> 'properties') AS default_limits;
SELECT call('echo', '{"s": "x", "a": [1, null, 3], "j": {"k": [true]}}') -> 'data' AS data;
SELECT call('echo', '{"s": "x", "a": ["one"]}') ->> 'error' AS bad_element;
-- ai_tool_plan shows the statement and the parameter types, never the values
SELECT ai_tool_plan('top_customers', '{"region": "eu"}') -> 'plan' AS plan;
-- writes report affectedRows and the RETURNING rows; the write is kept
SELECT call('ship_order', '{"order_id": 3}') - 'columns';
SELECT call('ship_order', '{"order_id": 3}') -> 'affectedRows' AS again;
SELECT status FROM ct.orders WHERE id = 3;
-- a conversion failure names the parameter and its type
SELECT call('ship_order', '{"order_id": 2.5}') ->> 'error' AS fraction;

-- the tool's caps (max_rows, timeout) lower the settings'
SELECT ai_tool_define('all_orders', 'Every order.', 'SELECT id FROM ct.orders ORDER BY id', '[]',
                      '{"max_rows": 2}') IS NOT NULL AS defined;
SELECT call('all_orders', '{}') - 'columns';
SELECT ai_tool_define('slow', 'Sleeps.', 'SELECT pg_sleep($1)', '[{"name": "s", "type": "float8"}]',
                      '{"timeout": "100ms", "read_only": true}') -> 'annotations' ->> 'readOnlyHint' AS read_only;
SELECT call('slow', '{"s": 2}') ->> 'errorType' AS timed_out;
SET neon_ai_tools.max_rows = 1;
SELECT call('all_orders', '{}') -> 'truncation' AS settings_lower;
RESET neon_ai_tools.max_rows;

-- replace: same name, new definition
SELECT ai_tool_define('all_orders', 'Every order, newest first.', 'SELECT id FROM ct.orders ORDER BY id DESC', '[]')
       ->> 'description' AS replaced;
SELECT call('all_orders', '{}') -> 'data' AS data;

-- read-only tools run read-only: a write they reach is refused
CREATE FUNCTION ct.sneaky() RETURNS int LANGUAGE sql VOLATILE
AS $$ INSERT INTO ct.orders VALUES (99, 'x') RETURNING 1 $$;
SELECT ai_tool_define('sneaky', 'Looks like a read.', 'SELECT ct.sneaky()', '[]', '{"read_only": true}')
       -> 'annotations' ->> 'readOnlyHint' AS read_only;
SELECT call('sneaky', '{}') ->> 'errorType' AS refused;
SELECT count(*) AS not_written FROM ct.orders WHERE id = 99;
-- a volatile function makes a query a writing tool, unless declared read-only
CREATE FUNCTION ct.bump() RETURNS int LANGUAGE sql VOLATILE AS $$ SELECT 1 $$;
SELECT ai_tool_define('bump', 'Calls a volatile function.', 'SELECT ct.bump()', '[]') -> 'annotations' ->> 'readOnlyHint' AS read_only;
-- row locks and data-modifying WITH are writes too
SELECT ai_tool_define('lock_one', 'Locks an order.', 'SELECT id FROM ct.orders WHERE id = $1 FOR UPDATE',
                      '[{"name": "id", "type": "int"}]') ->> 'name' AS name;
SELECT name, read_only, operation FROM ai_tool_definitions WHERE name IN ('bump', 'lock_one', 'sneaky') ORDER BY name;

-- read-only mode: writing custom tools are hidden and refused
SET neon_ai_tools.read_only = on;
SELECT array_agg(t->>'name') FILTER (WHERE t->>'name' IN ('top_customers', 'ship_order', 'bump')) AS listed
FROM jsonb_array_elements(ai_tool_list()) t;
SELECT call('ship_order', '{"order_id": 4}') - 'executionTime' AS refused;
SELECT call('top_customers', '{"region": "us"}') ->> 'status' AS reads_still_work;
RESET neon_ai_tools.read_only;
-- enabled_tools applies by name
SET neon_ai_tools.enabled_tools = 'top_customers, list_tables';
SELECT array_agg(t->>'name') AS names FROM jsonb_array_elements(ai_tool_list()) t;
SELECT call('ship_order', '{"order_id": 4}') ->> 'errorType' AS disabled;
RESET neon_ai_tools.enabled_tools;
-- an unknown name gets a did-you-mean among custom tools too
SELECT call('top_customer', '{}') ->> 'suggestion' AS suggestion;

-- they run as the caller: a role without privileges on the table is refused
CREATE ROLE regress_ct_agent;
GRANT USAGE ON SCHEMA ct TO regress_ct_agent;
SET ROLE regress_ct_agent;
SELECT call('top_customers', '{"region": "eu"}') ->> 'errorType' AS as_caller;
RESET ROLE;
GRANT SELECT ON ct.orders TO regress_ct_agent;
SET ROLE regress_ct_agent;
SELECT call('top_customers', '{"region": "eu"}') ->> 'status' AS granted;
-- and may not define or drop tools
SELECT ai_tool_drop('top_customers');
SELECT ai_tool_define('mine', 'x', 'SELECT 1', '[]');
RESET ROLE;
-- an administrator granted EXECUTE defines tools without privileges on the table
CREATE ROLE regress_ct_admin;
GRANT USAGE ON SCHEMA ct TO regress_ct_admin;
GRANT EXECUTE ON FUNCTION ai_tool_define(text, text, text, jsonb, jsonb), ai_tool_drop(text, boolean) TO regress_ct_admin;
SET ROLE regress_ct_admin;
SELECT ai_tool_define('admins_tool', 'Counts orders.', 'SELECT count(*) FROM ct.orders', '[]') ->> 'name' AS defined;
SELECT count(*) FROM ai_tool_definitions;
SELECT ai_tool_drop('admins_tool');
RESET ROLE;

-- definitions are transactional
BEGIN;
SELECT ai_tool_drop('bump');
SELECT call('bump', '{}') ->> 'errorType' AS gone_in_transaction;
ROLLBACK;
SELECT call('bump', '{}') ->> 'status' AS back;

-- refused when defined, each with its reason
\set VERBOSITY default
SELECT ai_tool_define('select_query', 'Shadows a built-in.', 'SELECT 1', '[]');
SELECT ai_tool_define('bad name', 'x', 'SELECT 1', '[]');
SELECT ai_tool_define(repeat('x', 65), 'x', 'SELECT 1', '[]');
SELECT ai_tool_define('t', '', 'SELECT 1', '[]');
SELECT ai_tool_define('t', 'x', 'SELECT 1; SELECT 2', '[]');
SELECT ai_tool_define('t', 'x', '', '[]');
SELECT ai_tool_define('t', 'x', 'VACUUM ct.orders', '[]');
SELECT ai_tool_define('t', 'x', 'CREATE TABLE ct.t (x int)', '[]');
SELECT ai_tool_define('t', 'x', 'SELECT 1 INTO ct.copy', '[]');
SELECT ai_tool_define('t', 'x', 'SELECT * FROM ct.nosuch', '[]');
SELECT ai_tool_define('t', 'x', 'SELECT nosuch FROM ct.orders', '[]');
SELECT ai_tool_define('t', 'x', 'SELEC 1', '[]');
-- placeholders: one for each parameter, no more, no fewer
SELECT ai_tool_define('t', 'x', 'SELECT $1, $2', '[{"name": "a", "type": "int"}]');
SELECT ai_tool_define('t', 'x', 'SELECT $2', '[{"name": "a", "type": "int"}, {"name": "b", "type": "int"}]');
-- the declared types are the statement's types
\set VERBOSITY terse
SELECT ai_tool_define('t', 'x', 'SELECT id FROM ct.orders WHERE id = $1', '[{"name": "a", "type": "date"}]');
\set VERBOSITY default
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a", "type": "nosuchtype"}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a", "type": "anyelement"}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a"}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"type": "int"}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a b", "type": "int"}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1, $2', '[{"name": "a", "type": "int"}, {"name": "a", "type": "int"}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a", "type": "int", "color": "red"}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '{"name": "a"}');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '["a"]');
-- constraints must fit the type
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a", "type": "int", "enum": ["x"]}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a", "type": "text", "enum": []}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a", "type": "text", "minimum": 1}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a", "type": "int", "minimum": 1.5}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a", "type": "int", "maxLength": 3}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a", "type": "int", "default": "x"}]');
SELECT ai_tool_define('t', 'x', 'SELECT $1', '[{"name": "a", "type": "int", "default": 1, "required": true}]');
-- a writing statement cannot be declared read-only
SELECT ai_tool_define('t', 'x', 'DELETE FROM ct.orders WHERE id = $1', '[{"name": "id", "type": "int"}]', '{"read_only": true}');
SELECT ai_tool_define('t', 'x', 'WITH d AS (DELETE FROM ct.orders RETURNING id) SELECT count(*) FROM d', '[]', '{"read_only": true}');
-- options are checked
SELECT ai_tool_define('t', 'x', 'SELECT 1', '[]', '{"max_rows": 0}');
SELECT ai_tool_define('t', 'x', 'SELECT 1', '[]', '{"timeout": "soon"}');
SELECT ai_tool_define('t', 'x', 'SELECT 1', '[]', '{"read_only": "yes"}');
SELECT ai_tool_define('t', 'x', 'SELECT 1', '[]', '{"readonly": true}');
SELECT ai_tool_define('t', 'x', 'SELECT 1', '[]', '[]');
SELECT ai_tool_define(NULL, 'x', 'SELECT 1', '[]');
-- drop
SELECT ai_tool_drop('t');
SELECT ai_tool_drop('t', if_exists => true);
SELECT ai_tool_drop('select_query');
\set VERBOSITY terse
SELECT count(*) AS nothing_stored FROM ai_tool_definitions WHERE name = 't';

-- ai_tool_from_function: an operation the agent could not do directly,
-- written by the administrator as a SECURITY DEFINER function
CREATE TABLE ct.refunds (order_id int, amount numeric, reason text);
REVOKE ALL ON ct.refunds FROM PUBLIC;
CREATE FUNCTION ct.refund_order(order_id int, reason text, amount numeric DEFAULT NULL)
RETURNS TABLE (refunded_order int, refunded numeric)
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
  INSERT INTO ct.refunds
  SELECT o.id, coalesce(amount, o.total), reason FROM ct.orders o WHERE o.id = order_id
  RETURNING order_id, amount
$$;
COMMENT ON FUNCTION ct.refund_order(int, text, numeric) IS 'Refund an order, in full unless an amount is given.';
REVOKE ALL ON FUNCTION ct.refund_order(int, text, numeric) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ct.refund_order(int, text, numeric) TO regress_ct_agent;
SELECT jsonb_pretty(ai_tool_from_function('ct.refund_order(int, text, numeric)',
  '{"parameters": {"order_id": {"description": "The order to refund."}, "reason": {"maxLength": 200}}}'));
SELECT sql, read_only, operation FROM ai_tool_definitions WHERE name = 'refund_order';
SET ROLE regress_ct_agent;
-- the agent has no privilege on refunds, but may call the tool
SELECT call('execute_sql', '{"sql": "INSERT INTO ct.refunds VALUES (1, 1, $1)", "params": ["x"]}') ->> 'errorType' AS direct;
SELECT call('refund_order', '{"order_id": 4, "reason": "damaged"}') -> 'data' AS full_refund;
SELECT call('refund_order', '{"order_id": 2, "reason": "late", "amount": 5}') -> 'data' AS partial;
SELECT call('refund_order', '{"order_id": 2}') ->> 'error' AS missing_reason;
RESET ROLE;
SELECT * FROM ct.refunds ORDER BY order_id;
-- name and description can be given; the comment is needed otherwise
CREATE FUNCTION ct.no_comment(x int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT x * 2 $$;
SELECT ai_tool_from_function('ct.no_comment(int)');
SELECT ai_tool_from_function('ct.no_comment(int)', '{"name": "double_it", "description": "Doubles a number."}') -> 'annotations' ->> 'readOnlyHint' AS read_only;
SELECT call('double_it', '{"x": 21}') -> 'data' AS data;
CREATE FUNCTION ct.unnamed(int) RETURNS int LANGUAGE sql AS $$ SELECT $1 $$;
SELECT ai_tool_from_function('ct.unnamed(int)', '{"description": "x"}');
CREATE FUNCTION ct.variadic(VARIADIC xs int[]) RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;
SELECT ai_tool_from_function('ct.variadic(int[])', '{"description": "x"}');
CREATE PROCEDURE ct.proc(x int) LANGUAGE sql AS $$ SELECT 1 $$;
SELECT ai_tool_from_function('ct.proc(int)'::regprocedure, '{"description": "x"}');
SELECT ai_tool_from_function('ct.no_comment(int)', '{"description": "x", "parameters": {"y": {}}}');
SELECT ai_tool_from_function('ct.no_comment(int)', '{"description": "x", "parameters": {"x": {"type": "text"}}}');

-- a dropped table makes the call fail with a categorized error, not the catalog
CREATE TABLE ct.temp_data (x int);
SELECT ai_tool_define('temp_reader', 'Reads temp_data.', 'SELECT x FROM ct.temp_data', '[]') ->> 'name' AS name;
DROP TABLE ct.temp_data;
SELECT call('temp_reader', '{}') ->> 'errorType' AS error_type;
SELECT count(*) > 8 AS catalog_still_works FROM jsonb_array_elements(ai_tool_list());

-- a custom tool named like a built-in tool of a later version (stored
-- before the upgrade; written here by hand) is shadowed by the built-in
INSERT INTO ai_tool_definitions VALUES ('list_tables', 'An old custom tool.', 'SELECT 1', '[]', '{}', true, 'select');
SELECT count(*) AS listed_once FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'list_tables';
SELECT call('list_tables', '{"schema": "ct"}') ->> 'operation' AS builtin_runs;
DELETE FROM ai_tool_definitions WHERE name = 'list_tables';

-- array parameters: the declared typmod applies to each element, as in
-- a cast to the array type (numeric(5,1)[] rounds, char(3)[] pads,
-- bit(3)[] must have three bits), and an element that cannot take it is
-- invalid_input naming the parameter and the full type
SELECT ai_tool_define('ct_typmod_arrays', 'Echo typed arrays.', 'SELECT $1 AS n, $2 AS c, $3 AS b',
  '[{"name": "n", "type": "numeric(5,1)[]", "description": "numbers"},
    {"name": "c", "type": "char(3)[]", "description": "codes"},
    {"name": "b", "type": "bit(3)[]", "description": "bits"}]') IS NOT NULL AS defined;
SELECT call('ct_typmod_arrays', '{"n": [1.25, null], "c": ["a"], "b": ["101"]}') -> 'data' AS echoed;
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error
FROM call('ct_typmod_arrays', '{"n": [1], "c": ["a"], "b": ["10"]}') a;
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error
FROM call('ct_typmod_arrays', '{"n": [12345.6], "c": ["a"], "b": ["101"]}') a;
SELECT ai_tool_drop('ct_typmod_arrays');

-- clean up: later suites see only the built-in tools
SELECT count(*) AS dropped FROM (SELECT ai_tool_drop(name) FROM ai_tool_definitions) d;
SELECT count(*) AS left_over FROM ai_tool_definitions;
DROP SCHEMA ct CASCADE;
REVOKE EXECUTE ON FUNCTION ai_tool_define(text, text, text, jsonb, jsonb), ai_tool_drop(text, boolean) FROM regress_ct_admin;
DROP ROLE regress_ct_agent;
DROP ROLE regress_ct_admin;
