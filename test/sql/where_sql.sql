-- select_query where, SQL condition strings: parsed by PostgreSQL's parser,
-- checked against an allow-list, every literal bound as a parameter
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA wq_test;
SET search_path = wq_test, public;

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

CREATE TABLE people (id int PRIMARY KEY, name text, age int, status text, created timestamptz);
INSERT INTO people SELECT g, 'p' || g, g % 40, CASE WHEN g % 3 = 0 THEN 'active' ELSE 'idle' END,
  '2024-01-01'::timestamptz + g * interval '1 day' FROM generate_series(1, 60) g;
CREATE TABLE other (id int, secret text);
INSERT INTO other VALUES (1, 's3cret');

-- the string form returns the same rows as the structured form
SELECT ids('{"table": "people", "where": "age > 18 AND status = ''active''"}')
     = ids('{"table": "people", "where": {"age": {"gt": 18}, "status": "active"}}') AS same_rows,
       jsonb_array_length(ids('{"table": "people", "where": "age > 18 AND status = ''active''"}')) AS matched;
-- and the SQL it runs has $n parameters in place of the literals
SELECT call('select_query', '{"table": "people", "where": "age > 18 AND status = ''active'' AND age / 0 = 1"}') -> 'details' ->> 'query' AS query;

-- the supported condition forms
SELECT ids('{"table": "people", "where": "id IN (1, 2, 3) OR id = 59"}');
SELECT ids('{"table": "people", "where": "id NOT IN (1, 2) AND id < 5"}');
SELECT ids('{"table": "people", "where": "id BETWEEN 10 AND 12"}');
SELECT ids('{"table": "people", "where": "name LIKE ''p5%''"}');
SELECT ids('{"table": "people", "where": "name ILIKE ''P1_''  AND NOT (id > 15)"}');
SELECT ids('{"table": "people", "where": "status IS NULL OR id IS NULL"}');
SELECT ids('{"table": "people", "where": "created >= ''2024-02-28'' AND created < ''2024-03-02''"}');
SELECT ids('{"table": "people", "where": "lower(name) = ''p7''"}');
SELECT ids('{"table": "people", "where": "id = ''5''::int"}');
SELECT ids('{"table": "people", "where": "length(name) = 2 AND id <> 3"}');
SELECT ids('{"table": "people", "where": "(age + 1) * 2 = 10"}');
SELECT ids('{"table": "people", "where": "id = -1 OR id = 2"}');

-- hostile strings are refused with invalid_parameters and nothing runs
CREATE TABLE log (entry text);
CREATE FUNCTION spy() RETURNS int LANGUAGE sql VOLATILE AS $$ INSERT INTO wq_test.log VALUES ('ran'); SELECT 1 $$;
SELECT call('select_query', jsonb_build_object('table', 'people', 'where', w)) - 'details' AS answer
FROM unnest(ARRAY[
  '1=1; DROP TABLE people',
  'id = 1; COMMIT; DROP TABLE people',
  'id = 1) UNION SELECT (1',
  'true) UNION SELECT id, secret FROM other --',
  'id IN (SELECT id FROM other)',
  'EXISTS (SELECT 1 FROM other)',
  'pg_sleep(1) IS NULL',
  'pg_read_file(''/etc/passwd'') <> ''''',
  'spy() = 1',
  'wq_test.spy() = 1',
  'random() < 2',
  'other.secret = ''x''',
  'people.id = 1',
  'id = $1',
  'count(*) > 0',
  'id = 1 /* comment */ OR spy() = 1',
  'nextval(''x'') > 0',
  'set_config(''role'', ''x'', true) = ''x'''
]) AS w;
SELECT count(*) AS log_entries FROM log;
SELECT count(*) AS people_left FROM people;

-- PostgreSQL's own errors for names and values
SELECT call('select_query', '{"table": "people", "where": "nosuch = 1"}') - 'details';
SELECT call('select_query', '{"table": "people", "where": "id = ''abc''"}') ->> 'errorType' AS error_type;
SELECT call('select_query', '{"table": "people", "where": "id"}') ->> 'errorType' AS error_type;
SELECT call('select_query', '{"table": "people", "where": "id = = 1"}');
SELECT call('select_query', '{"table": "people", "where": ""}') ->> 'errorType' AS error_type;

DROP SCHEMA wq_test CASCADE;
