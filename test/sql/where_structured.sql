-- select_query where, structured form: every operator, nesting, errors
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA ws_test;
SET search_path = ws_test, public;

-- the ids a select returns, or its error
CREATE FUNCTION ids(args jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT CASE WHEN a->>'success' = 'true'
    THEN (SELECT COALESCE(jsonb_agg(r->'id' ORDER BY (r->>'id')::int), '[]')
          FROM jsonb_array_elements(a->'data') r)
    ELSE a->'error' END
  FROM ai_tool_call('select_query', args || '{"columns": ["id"]}') a
$$;
CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

CREATE TABLE t (id int PRIMARY KEY, name text, age int, status varchar(10), score numeric,
  born date, tags text[], meta jsonb, active boolean, pt point);
INSERT INTO t VALUES
  (1, 'alice', 30, 'active', 9.5, '1994-05-01', '{a,b}', '{"vip": true, "lvl": 2}', true),
  (2, 'bob', 17, 'inactive', 4.0, '2007-01-15', '{b}', '{"vip": false}', false),
  (3, 'carol', 45, 'active', NULL, '1979-11-30', '{}', NULL, true),
  (4, 'dave', NULL, NULL, 7.25, NULL, NULL, '{"lvl": 3}', NULL),
  (5, 'Eve', 22, 'active', 5, '2002-02-02', '{c,a}', '{"vip": true}', false);

-- bare values are eq; members are ANDed
SELECT ids('{"table": "t", "where": {"status": "active"}}');
SELECT ids('{"table": "t", "where": {"status": "active", "active": true}}');
SELECT ids('{"table": "t", "where": {"age": "30"}}');
-- eq / neq null mean IS NULL / IS NOT NULL
SELECT ids('{"table": "t", "where": {"age": null}}');
SELECT ids('{"table": "t", "where": {"age": {"neq": null}}}');
-- comparison operators
SELECT ids('{"table": "t", "where": {"age": {"eq": 17}}}');
SELECT ids('{"table": "t", "where": {"age": {"neq": 17}}}');
SELECT ids('{"table": "t", "where": {"age": {"gt": 22}}}');
SELECT ids('{"table": "t", "where": {"age": {"gte": 22}}}');
SELECT ids('{"table": "t", "where": {"age": {"lt": 22}}}');
SELECT ids('{"table": "t", "where": {"age": {"lte": 22}}}');
SELECT ids('{"table": "t", "where": {"age": {"gt": 18, "lt": 40}}}');
SELECT ids('{"table": "t", "where": {"score": {"gte": 7.25}}}');
SELECT ids('{"table": "t", "where": {"born": {"lt": "2000-01-01"}}}');
-- in / not_in; a bare list means in
SELECT ids('{"table": "t", "where": {"id": {"in": [1, 3, 99]}}}');
SELECT ids('{"table": "t", "where": {"id": [2, 4]}}');
SELECT ids('{"table": "t", "where": {"id": {"in": []}}}');
SELECT ids('{"table": "t", "where": {"id": {"not_in": [1, 2]}}}');
SELECT ids('{"table": "t", "where": {"status": {"in": ["inactive", "gone"]}}}');
-- like / ilike, also on non-text columns
SELECT ids('{"table": "t", "where": {"name": {"like": "%a%"}}}');
SELECT ids('{"table": "t", "where": {"name": {"ilike": "e%"}}}');
SELECT ids('{"table": "t", "where": {"age": {"like": "4%"}}}');
-- is_null
SELECT ids('{"table": "t", "where": {"status": {"is_null": true}}}');
SELECT ids('{"table": "t", "where": {"status": {"is_null": false}}}');
-- between
SELECT ids('{"table": "t", "where": {"age": {"between": [17, 30]}}}');
SELECT ids('{"table": "t", "where": {"born": {"between": ["1990-01-01", "2005-12-31"]}}}');
-- contains: arrays, jsonb, text
SELECT ids('{"table": "t", "where": {"tags": {"contains": ["a"]}}}');
SELECT ids('{"table": "t", "where": {"meta": {"contains": {"vip": true}}}}');
SELECT ids('{"table": "t", "where": {"name": {"contains": "ar"}}}');
-- array and jsonb columns compared whole
SELECT ids('{"table": "t", "where": {"tags": ["b"]}}');
SELECT ids('{"table": "t", "where": {"meta": {"lvl": 3}}}');
-- and / or / not, nested
SELECT ids('{"table": "t", "where": {"or": [{"age": {"lt": 18}}, {"name": "carol"}]}}');
SELECT ids('{"table": "t", "where": {"not": {"status": "active"}}}');
SELECT ids('{"table": "t", "where": {"and": [{"status": "active"}, {"or": [{"id": {"in": [1, 2]}}, {"not": {"age": {"lt": 40}}}]}]}}');
SELECT ids('{"table": "t", "where": {"or": [{"id": 1}, "age > 40"]}}');
-- an empty filter object matches everything
SELECT ids('{"table": "t", "where": {}}');

-- errors, each with the JSON path of the bad value
SELECT call('select_query', '{"table": "t", "where": {"agee": 5}}');
SELECT call('select_query', '{"table": "t", "where": {"age": {"gtt": 5}}}');
SELECT call('select_query', '{"table": "t", "where": {"age": {"in": 5}}}');
SELECT call('select_query', '{"table": "t", "where": {"age": {"between": [1]}}}');
SELECT call('select_query', '{"table": "t", "where": {"age": {"is_null": "yes"}}}');
SELECT call('select_query', '{"table": "t", "where": {"age": {"gt": null}}}');
SELECT call('select_query', '{"table": "t", "where": {"age": {}}}');
SELECT call('select_query', '{"table": "t", "where": {"or": []}}');
SELECT call('select_query', '{"table": "t", "where": {"or": [{"id": 1}, 5]}}');
SELECT call('select_query', '{"table": "t", "where": {"not": [1]}}');
SELECT call('select_query', '{"table": "t", "where": {"pt": {"eq": "(1,2)"}}}');
SELECT call('select_query', '{"table": "t", "where": {"name": {"like": 5}}}');
SELECT call('select_query', '{"table": "t", "where": {"age": {"gt": {"x": 1}}}}');
-- a value that does not fit the column type is invalid_input, never pasted
SELECT call('select_query', '{"table": "t", "where": {"age": "abc"}}') - 'details';
SELECT call('select_query', '{"table": "t", "where": {"age": "1; DROP TABLE t"}}') ->> 'errorType' AS error_type;
SELECT call('select_query', '{"table": "t", "where": {"name": "x'' OR ''1''=''1"}}') -> 'rowCount' AS row_count;
SELECT count(*) FROM t;

-- the generated SQL binds values and qualifies operators (shown by a
-- runtime error, whose answer carries the SQL with its $n placeholders)
CREATE VIEW boom AS SELECT id, name, age, born, 1 / (id - id) AS x FROM t;
SELECT call('select_query', '{"table": "boom", "where": {"age": {"gt": 18}, "name": {"like": "%"}, "id": {"in": [1,2]}, "born": {"between": ["1990-01-01", "2000-01-01"]}, "not": {"age": null}}, "order_by": "id desc", "offset": 1}') - 'executionTime';

DROP SCHEMA ws_test CASCADE;
