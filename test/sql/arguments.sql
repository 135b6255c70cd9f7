-- argument validation: before any SQL, with the JSON path of the bad value
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA args_test;
SET search_path = args_test, public;
CREATE TABLE items (id int PRIMARY KEY, name text);
INSERT INTO items VALUES (1, 'one'), (2, 'two');

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

-- unknown key, with did-you-mean
SELECT call('select_query', '{"table": "items", "limt": 5}');
SELECT call('select_query', '{"table": "items", "zzzzzz": 5}');
-- wrong JSON types
SELECT call('select_query', '{"table": 42}');
SELECT call('select_query', '{"table": "items", "limit": "5"}');
SELECT call('select_query', '{"table": "items", "limit": 2.5}');
SELECT call('select_query', '{"table": "items", "where": [1, 2]}');
SELECT call('select_query', '{"table": "items", "columns": [1]}');
-- an integral number is an integer
SELECT call('select_query', '{"table": "items", "limit": 1.0, "columns": ["id"]}')->'rowCount' AS row_count;
-- out of range
SELECT call('select_query', '{"table": "items", "limit": 0}');
SELECT call('select_query', '{"table": "items", "limit": 10001}');
SELECT call('select_query', '{"table": "items", "offset": -1}');
SELECT call('select_query', '{"table": "items", "timeout_ms": 0}');
SELECT call('select_query', '{"table": "items", "limit": 99999999999999999999999}');
-- bad enum values, deep paths
SELECT call('select_query', '{"table": "items", "order_by": [{"column": "id", "direction": "up"}]}');
SELECT call('select_query', '{"table": "items", "order_by": [{"column": "id", "nulls": "middle"}]}');
SELECT call('select_query', '{"table": "items", "order_by": [{"colum": "id"}]}');
SELECT call('select_query', '{"table": "items", "order_by": [{"direction": "desc"}]}');
SELECT call('select_query', '{"table": "items", "order_by": [42]}');
SELECT call('select_query', '{"table": "items", "order_by": "id sideways"}');
-- missing required argument
SELECT call('select_query', '{}');
-- null for an optional argument means absent
SELECT call('select_query', '{"table": "items", "limit": null, "where": null}')->'rowCount' AS row_count;
-- unknown and disabled tools are answers, not errors
SELECT call('select_querry', '{}');
SELECT call('drop_everything', '{}');
SET neon_ai_tools.enabled_tools = 'list_tables';
SELECT call('select_query', '{"table": "items"}');
RESET neon_ai_tools.enabled_tools;
-- misuse of the SQL API itself raises
SELECT ai_tool_call(NULL, '{}');
SELECT ai_tool_call('select_query', '[1]');
SELECT ai_tool_call('select_query', '"items"');
-- NULL args mean no arguments
SELECT call('select_query', NULL)->>'error' AS error;

DROP SCHEMA args_test CASCADE;
