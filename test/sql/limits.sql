-- limits on arguments: each one in the schemas, at the limit accepted, one
-- past it refused naming the limit, huge inputs answered quickly; the
-- insert cap; values quoted back in errors clipped to 200 characters
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA lim;
SET search_path = lim, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;
-- the error of an answer, its category and its path
CREATE FUNCTION err(tool text, args jsonb) RETURNS TABLE (type text, error text, path text)
LANGUAGE sql AS $$
  SELECT a ->> 'errorType', a ->> 'error', a -> 'details' ->> 'path'
  FROM ai_tool_call(tool, args) a $$;

CREATE TABLE t (id int PRIMARY KEY, note text);
INSERT INTO t VALUES (1, 'one'), (2, 'two');
CREATE TABLE "n_63_bytes_____________________________________________________" (id int);

-- the limits in the JSON Schemas, in every catalog format
SELECT t ->> 'name' AS tool, p.key AS param,
       p.value -> 'maxLength' AS "maxLength", p.value -> 'maxItems' AS "maxItems",
       p.value -> 'maxProperties' AS "maxProperties", p.value -> 'items' -> 'maxLength' AS "items.maxLength"
FROM jsonb_array_elements(ai_tool_list()) t, jsonb_each(t -> 'parameters' -> 'properties') p
WHERE p.value ?| ARRAY['maxLength', 'maxItems', 'maxProperties'] OR p.value -> 'items' ? 'maxLength'
ORDER BY 1, 2;
SELECT f AS format,
       count(*) FILTER (WHERE p::text LIKE '%"maxLength"%') AS with_max_length,
       count(*) FILTER (WHERE p::text LIKE '%"maxItems"%') AS with_max_items
FROM unnest(ARRAY['native', 'openai', 'openai_strict', 'anthropic', 'mcp', 'gemini']) f,
     jsonb_array_elements(ai_tool_list(f)) s,
     coalesce(s->'parameters', s->'function'->'parameters', s->'input_schema', s->'inputSchema') p
GROUP BY f ORDER BY f;

-- names: 63 bytes pass, 64 are refused, not truncated
SELECT call('select_query', '{"table": "n_63_bytes_____________________________________________________"}') ->> 'status' AS status;
SELECT * FROM err('select_query', '{"table": "n_63_bytes_____________________________________________________x"}');
SELECT * FROM err('select_query', '{"table": "t", "columns": ["id", "n_64_bytes______________________________________________________"]}');
SELECT * FROM err('select_query', '{"table": "t", "where": {"n_64_bytes______________________________________________________": 1}}');
SELECT * FROM err('update_data', '{"table": "t", "set": {"n_64_bytes______________________________________________________": 1}, "where": {"id": 1}}');
SELECT * FROM err('insert_data', '{"table": "t", "rows": {"n_64_bytes______________________________________________________": 1}}');
-- 63 two-byte characters are 126 bytes: refused by bytes
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'columns', jsonb_build_array(repeat('ä', 32))));

-- table: 257 characters ("schema"."table", quotes doubled); 258 refused
SELECT type, error FROM err('select_query', jsonb_build_object('table', '"' || repeat('""', 63) || '"."' || repeat('""', 63) || '"'));
SELECT * FROM err('select_query', jsonb_build_object('table', repeat('x', 258)));

-- columns: 1664 names pass the count (the last one is unknown), 1665 do not
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'columns', repeat('id, ', 1663) || 'nope'));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'columns', repeat('id,', 1664) || 'id'));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'columns',
  (SELECT jsonb_agg(CASE WHEN i < 1664 THEN 'id' ELSE 'nope' END) FROM generate_series(1, 1664) i)));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'columns',
  (SELECT jsonb_agg('id'::text) FROM generate_series(1, 1665))));
SELECT * FROM err('insert_data', jsonb_build_object('table', 't', 'rows', '{"id": 9}'::jsonb, 'returning',
  (SELECT jsonb_agg('id'::text) FROM generate_series(1, 1665))));
-- the string: 216320 characters (1664 quoted names with separators)
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'columns', repeat(' ', 216316) || 'nope'));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'columns', repeat(' ', 216317) || 'nope'));
-- two million names: refused at once
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'columns', repeat('id,', 2000000) || 'id'));
-- order_by
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'order_by',
  (SELECT jsonb_agg('id'::text) FROM generate_series(1, 1665))));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'order_by', jsonb_build_array(repeat('i', 146))));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'order_by', repeat('id, ', 1664) || 'id'));
-- set: at most 1600 columns
SELECT * FROM err('update_data', jsonb_build_object('table', 't', 'where', '{"id": 1}'::jsonb, 'set',
  (SELECT jsonb_object_agg('c' || i, i) FROM generate_series(1, 1601) i)));
-- conflict_columns: at most 32 (the most an index has)
SELECT * FROM err('insert_data', jsonb_build_object('table', 't', 'rows', '{"id": 9}'::jsonb, 'on_conflict', 'skip',
  'conflict_columns', (SELECT jsonb_agg('id'::text) FROM generate_series(1, 33))));

-- sql: 65536 characters (not bytes) pass, 65537 are refused
SELECT call('execute_sql', jsonb_build_object('sql', 'SELECT 1 AS one --' || repeat('ä', 65536 - 18))) -> 'data' AS data;
SELECT * FROM err('execute_sql', jsonb_build_object('sql', 'SELECT 1 AS one --' || repeat('x', 65537 - 18)));
SELECT * FROM err('explain_query', jsonb_build_object('sql', 'SELECT 1 --' || repeat('x', 65537 - 11)));
-- params: 1000 values pass (the statement uses the first), 1001 are refused
SELECT call('execute_sql', jsonb_build_object('sql', 'SELECT $1::int AS v', 'params', (SELECT jsonb_agg(i) FROM generate_series(1, 1000) i))) -> 'data' AS data;
SELECT * FROM err('execute_sql', jsonb_build_object('sql', 'SELECT $1::int', 'params', (SELECT jsonb_agg(i) FROM generate_series(1, 1001) i)));
SELECT * FROM err('explain_query', jsonb_build_object('sql', 'SELECT $1::int', 'params', (SELECT jsonb_agg(i) FROM generate_series(1, 1001) i)));

-- where as SQL: 16384 characters, also inside and/or
SELECT call('select_query', jsonb_build_object('table', 't', 'where', 'id = 1' || repeat(' ', 16384 - 6))) -> 'data' AS data;
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where', 'id = 1' || repeat(' ', 16385 - 6)));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where',
  jsonb_build_object('or', jsonb_build_array('id = 1', 'id = 2' || repeat(' ', 16385 - 6)))));
-- structured where: 32 levels of and/or/not pass, 33 are refused
SELECT call('select_query', jsonb_build_object('table', 't', 'where',
  (repeat('{"not": ', 32) || '{"id": 1}' || repeat('}', 32))::jsonb)) -> 'data' AS data;
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where',
  (repeat('{"not": ', 33) || '{"id": 1}' || repeat('}', 33))::jsonb));
SELECT * FROM err('delete_data', jsonb_build_object('table', 't', 'where',
  (repeat('{"or": [{"id": 5}, ', 33) || '{"id": 1}' || repeat(']}', 33))::jsonb));
-- 5,000 levels: refused at the 33rd
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where',
  (repeat('{"and": [', 5000) || '{"id": 1}' || repeat(']}', 5000))::jsonb));
-- in lists: 10000 values pass, 10001 are refused (in, not_in, a bare list)
SELECT call('select_query', jsonb_build_object('table', 't', 'where',
  jsonb_build_object('id', jsonb_build_object('in', (SELECT jsonb_agg(i) FROM generate_series(1, 10000) i))))) -> 'rowCount' AS rows;
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where',
  jsonb_build_object('id', jsonb_build_object('in', (SELECT jsonb_agg(i) FROM generate_series(1, 10001) i)))));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where',
  jsonb_build_object('or', jsonb_build_array(jsonb_build_object('id', jsonb_build_object('not_in', (SELECT jsonb_agg(i) FROM generate_series(1, 10001) i)))))));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where',
  jsonb_build_object('id', (SELECT jsonb_agg(i) FROM generate_series(1, 10001) i))));
-- the where as a whole: 10000 conditions and list values in all (a list
-- counts its values, {} and [] one), condition strings 16384 characters
SELECT call('select_query', jsonb_build_object('table', 't', 'where', jsonb_build_object('or',
  (SELECT jsonb_agg(jsonb_build_object('id', i)) FROM generate_series(1, 10000) i)))) -> 'rowCount' AS rows;
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where', jsonb_build_object('or',
  (SELECT jsonb_agg(jsonb_build_object('id', i)) FROM generate_series(1, 10001) i))));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where', jsonb_build_object('or', jsonb_build_array(
  jsonb_build_object('id', jsonb_build_object('in', (SELECT jsonb_agg(i) FROM generate_series(1, 10000) i))),
  jsonb_build_object('note', 'one')))));
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where', jsonb_build_object('or', jsonb_build_array(
  jsonb_build_object('id', jsonb_build_object('in', (SELECT jsonb_agg(i) FROM generate_series(1, 5000) i))),
  jsonb_build_object('id', jsonb_build_object('not_in', (SELECT jsonb_agg(i) FROM generate_series(1, 5001) i)))))));
SELECT * FROM err('delete_data', jsonb_build_object('table', 't', 'where', jsonb_build_object('and',
  (SELECT jsonb_agg('{}'::jsonb) FROM generate_series(1, 10001)))));
SELECT * FROM err('delete_data', jsonb_build_object('table', 't', 'where', jsonb_build_object('and',
  (SELECT jsonb_agg('{"or": []}'::jsonb) FROM generate_series(1, 10001)))));
-- 200 lists of 10000 values: refused at the second, quickly
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where', jsonb_build_object('or',
  (SELECT jsonb_agg(jsonb_build_object('id', jsonb_build_object('in', (SELECT jsonb_agg(i) FROM generate_series(1, 10000) i))))
   FROM generate_series(1, 200)))));
SELECT call('select_query', jsonb_build_object('table', 't', 'where', jsonb_build_object('and', jsonb_build_array(
  'id > 0' || repeat(' AND id > 0', 680), 'id > 0' || repeat(' AND id > 0', 680))))) -> 'rowCount' AS rows;
SELECT * FROM err('select_query', jsonb_build_object('table', 't', 'where', jsonb_build_object('and', jsonb_build_array(
  'id > 0' || repeat(' AND id > 0', 900), 'id > 0' || repeat(' AND id > 0', 900)))));

-- list_tables: pattern 200 characters, schema 128
SELECT call('list_tables', jsonb_build_object('pattern', repeat('%', 200))) ->> 'status' AS status;
SELECT * FROM err('list_tables', jsonb_build_object('pattern', repeat('%', 201)));
SELECT * FROM err('list_tables', jsonb_build_object('schema', repeat('s', 129)));

-- inserts obey the write cap (max_affected_rows, and max_affected)
SET neon_ai_tools.max_affected_rows = 3;
SELECT t -> 'parameters' -> 'properties' -> 'rows' -> 'maxItems' AS rows_max_items,
       t -> 'parameters' -> 'properties' -> 'max_affected' -> 'maximum' AS max_affected_maximum
FROM jsonb_array_elements(ai_tool_list()) t WHERE t ->> 'name' = 'insert_data';
SELECT call('insert_data', '{"table": "t", "rows": [{"id": 10}, {"id": 11}, {"id": 12}], "returning": []}') -> 'affectedRows' AS affected;
SELECT * FROM err('insert_data', '{"table": "t", "rows": [{"id": 20}, {"id": 21}, {"id": 22}, {"id": 23}]}');
SELECT * FROM err('insert_data', '{"table": "t", "rows": [{"id": 20}, {"id": 21}], "max_affected": 1}');
SELECT call('insert_data', '{"table": "t", "rows": {"id": 20}, "max_affected": 1}') -> 'affectedRows' AS affected;
-- refused before any row is looked at: a bad row past the cap is not reported
SELECT * FROM err('insert_data', '{"table": "t", "rows": [{"id": 30}, {"id": 31}, {"id": 32}, {"nope": 33}]}');
SELECT count(*) AS rows_in_t FROM t;
RESET neon_ai_tools.max_affected_rows;
-- one million empty rows: refused at once, nothing inserted
SELECT * FROM err('insert_data', jsonb_build_object('table', 't', 'rows',
  (SELECT jsonb_agg('{}'::jsonb) FROM generate_series(1, 1000000))));
SELECT count(*) AS rows_in_t FROM t;

-- values quoted back are clipped to 200 characters and an ellipsis
SELECT type, length(error) AS error_length, right(error, 20) AS error_end, length(path) AS path_length
FROM err('select_query', jsonb_build_object('table', 't', 'where', jsonb_build_object(repeat('ä', 300), 1)));
SELECT type, length(error) AS error_length, length(path) AS path_length
FROM err('select_query', jsonb_build_object('table', 't', repeat('k', 10000000), 1));
SELECT a ->> 'errorType' AS type, length(a ->> 'error') AS error_length, length(a ->> 'tool') AS tool_length, length(a::text) < 1500 AS small
FROM ai_tool_call(repeat('y', 10000000), '{}') a;
SELECT type, error FROM err('select_query', jsonb_build_object('table', 't', 'columns', 'id, ' || repeat('z', 250)));
SELECT type, error FROM err('select_query', jsonb_build_object('table', 't', 'where', jsonb_build_object('id', jsonb_build_object(repeat('o', 250), 1))));
SELECT type, error FROM err('select_query', jsonb_build_object('table', 't', 'columns', '"unterminated, ' || repeat('z', 250)));
SELECT type, error FROM err('select_query', jsonb_build_object('table', 't', 'where',
  repeat('a', 63) || '.' || repeat('b', 63) || '.' || repeat('c', 63) || '.' || repeat('d', 63) || ' = 1'));
-- values PostgreSQL quotes back are clipped too
SELECT type, error FROM err('insert_data', jsonb_build_object('table', 't', 'rows', jsonb_build_object('id', repeat('9', 150) || repeat('x', 150))));
SELECT a ->> 'errorType' AS type, a ->> 'error' AS error
FROM ai_tool_call('execute_sql', jsonb_build_object('sql', 'SELECT ' || quote_literal(repeat('x', 300)) || '::int')) a;
SELECT type, error FROM err('select_query', jsonb_build_object('table', 't', 'where', 'id = 1 ' || quote_literal(repeat('q', 300))));
-- huge values in columns, where keys, table and pattern answer small
SELECT type, length(error) < 300 AS short_error, length(path) < 300 AS short_path
FROM err('select_query', jsonb_build_object('table', 't', 'columns', repeat('c', 100000000)));
SELECT type, length(error) < 300 AS short_error, length(path) < 300 AS short_path
FROM err('select_query', jsonb_build_object('table', 't', 'where', jsonb_build_object(repeat('w', 100000000), 1)));
SELECT type, length(error) < 300 AS short_error, length(path) < 300 AS short_path
FROM err('select_query', jsonb_build_object('table', repeat('t', 100000000)));
SELECT type, length(error) < 300 AS short_error, length(path) < 300 AS short_path
FROM err('list_tables', jsonb_build_object('pattern', repeat('p', 100000000)));
-- names PostgreSQL reports with an error are clipped like values (RAISE
-- ... USING COLUMN = a 140 MB name made the answer fail)
SELECT a ->> 'errorType' AS type, length(a -> 'details' ->> 'column') AS column_length,
       length(a -> 'details' ->> 'constraint') AS constraint_length,
       (SELECT max(length(r)) FROM jsonb_array_elements_text(a -> 'affected_resources') r) AS longest_resource,
       length(a::text) < 3000 AS small
FROM ai_tool_call('execute_sql', jsonb_build_object('sql', $q$DO $$BEGIN RAISE EXCEPTION 'raised'
  USING COLUMN = repeat('c', 300000), TABLE = repeat('t', 300000), SCHEMA = repeat('s', 300000),
        CONSTRAINT = repeat('k', 300000), DATATYPE = repeat('d', 300000); END$$$q$)) a;
SELECT a -> 'details' ->> 'column' AS column_name, a -> 'affected_resources' AS affected
FROM ai_tool_call('execute_sql', jsonb_build_object('sql', $q$DO $$BEGIN RAISE EXCEPTION 'raised'
  USING COLUMN = 'short_name', TABLE = 't'; END$$$q$)) a;

-- ai_error_info reads the first 16384 bytes of the message and 200 of
-- the code, and says how much it left out
SELECT length(e ->> 'error') AS error_length, right(e ->> 'error', 24) AS error_end,
       length(e ->> 'error_code') AS code_length, right(e ->> 'error_code', 3) AS code_end,
       length(e::text) < 20000 AS small
FROM ai_error_info(repeat('x', 3000000), repeat('y', 1000000)) e;
-- a URI cut where its password is: the cut word is left out, not unmasked
SELECT position('hunter' IN e ->> 'error') AS password_at, right(e ->> 'error', 30) AS error_end
FROM ai_error_info(repeat('a ', 8180) || 'postgresql://bob:' || repeat('hunter2', 10) || '@db/app') e;
SELECT e ->> 'errorType' AS type, e -> 'affected_resources' AS affected
FROM ai_error_info('relation "orders" does not exist ' || repeat('z', 100000), '42P01') e;

DROP SCHEMA lim CASCADE;
