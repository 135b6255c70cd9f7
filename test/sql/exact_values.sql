-- values are stored and answered exactly: no value a type cannot hold,
-- no json value refused, no envelope key that is empty
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA ev_test;
SET search_path = ev_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

-- int2vector and oidvector only look like arrays: a JSON array goes to
-- their input function, which refuses it, instead of storing a value with
-- a NULL that nothing can output; their own text form works
CREATE TABLE vec (id int PRIMARY KEY, v int2vector, o oidvector, a int[]);
SELECT call('insert_data', '{"table": "vec", "rows": [{"id": 1, "v": [1, null, 3]}]}') ->> 'errorType' AS error_type;
SELECT call('insert_data', '{"table": "vec", "rows": [{"id": 1, "o": [23, 25]}]}') ->> 'errorType' AS error_type;
SELECT call('update_data', '{"table": "vec", "where": {"id": 1}, "set": {"v": [1, null]}}') ->> 'errorType' AS error_type;
SELECT call('insert_data', '{"table": "vec", "rows": [{"id": 2, "v": "1 2 3", "o": "23 25", "a": [1, null, 3]}]}') -> 'data' AS data;
SELECT * FROM vec ORDER BY id;

-- a json value holding \u0000 (jsonb cannot) is answered, the escape kept
-- as text; structure, other escapes and other values are kept
CREATE TABLE docs (id int PRIMARY KEY, j json);
INSERT INTO docs VALUES (1, '{"a": "nul\u0000here", "b": "x\\u0000y", "c": [1, "\u0041"]}'), (2, '[1, 2]');
SELECT call('select_query', '{"table": "docs", "order_by": "id"}') -> 'data' AS data;
SELECT call('update_data', '{"table": "docs", "where": {"id": 1}, "set": {"id": 3}}') -> 'data' AS data;
SELECT call('delete_data', '{"table": "docs", "where": {"id": 3}}') -> 'data' AS data;
SELECT count(*) FROM docs;

-- an empty sql argument: no empty details.query in the error answer
SELECT call('execute_sql', '{"sql": ""}') - 'suggestion' AS answer;
SELECT call('execute_sql', '{"sql": "   "}') ? 'details' AS has_details;

DROP SCHEMA ev_test CASCADE;
