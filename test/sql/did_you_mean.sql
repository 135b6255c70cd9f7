-- Did-you-mean on every path that names something (issue 32, item 1):
-- tool names, argument names, SQL-string where/order_by, execute_sql and
-- explain_query statements (columns, functions, tables), custom tools'
-- parameters; did_you_mean carries the one corrected value.  Only names
-- the role may see are offered, and a name that reads is never offered a
-- tool that writes.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA dym;
CREATE TABLE dym.people (id int PRIMARY KEY, name text, status text, age int, ssn text, salary_band text);
INSERT INTO dym.people VALUES (1, 'ann', 'active', 30, '123', 'a');
CREATE TABLE dym.hidden_stats (id int, total int);
CREATE SCHEMA dym_closed;
CREATE TABLE dym_closed.t (id int, nmae text);
CREATE FUNCTION dym.secret_lenght(text) RETURNS int LANGUAGE sql AS 'SELECT 1';
REVOKE EXECUTE ON FUNCTION dym.secret_lenght(text) FROM PUBLIC;
CREATE ROLE regress_dym_agent;
GRANT USAGE ON SCHEMA dym TO regress_dym_agent;
GRANT SELECT (id, name, status, age), INSERT, UPDATE, DELETE ON dym.people TO regress_dym_agent;

-- the fields of an error answer that carry the fix
CREATE FUNCTION dym.fix(tool text, args jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT jsonb_build_object('errorType', a -> 'errorType', 'did_you_mean', a -> 'did_you_mean',
                            'suggestion', a -> 'suggestion', 'actions', a -> 'suggested_actions')
  FROM ai_tool_call(tool, args) a
$$;
SET ROLE regress_dym_agent;
SET search_path = dym, public;

-- 1. tool names: verbs, other APIs' names, typos, namespaces
SELECT t AS called, dym.fix(t, '{}') ->> 'did_you_mean' AS meant
FROM unnest(ARRAY['select_data', 'execute_query', 'select', 'query', 'get_rows', 'SelectQuery',
  'mcp__db__select_query', 'select_querry', 'insert', 'add_row', 'update', 'delete', 'remove_rows',
  'explain', 'describe', 'get_schema', 'show_tables', 'list_table', 'run_sql', 'frobnicate']) t;
SELECT dym.fix('select_data', '{}');
-- a name that reads is never offered a tool that writes, however close
SELECT t AS called, dym.fix(t, '{}') ->> 'did_you_mean' AS meant
FROM unnest(ARRAY['select_delete', 'get_data_delete', 'query_data', 'read_data', 'fetch_update']) t;
-- in read-only mode, writing tools are never offered
RESET ROLE;
SET neon_ai_tools.read_only = on;
SET ROLE regress_dym_agent;
SELECT t AS called, dym.fix(t, '{}') ->> 'did_you_mean' AS meant
FROM unnest(ARRAY['delete', 'insert_row', 'update_data_now', 'selct_query']) t;
RESET ROLE;
RESET neon_ai_tools.read_only;
SET ROLE regress_dym_agent;

-- 2. argument names: synonyms, camelCase, typos, words of the name
SELECT k AS given, dym.fix('select_query', jsonb_build_object('table', 'people', k, 1)) ->> 'did_you_mean' AS meant
FROM unnest(ARRAY['filters', 'conditions', 'sort_by', 'orderBy', 'fields', 'max_rows', 'top', 'skip',
  'tableName', 'limt', 'wher', 'xyzzy']) k;
SELECT dym.fix('select_query', '{"table": "people", "filters": {"id": 1}}');
SELECT dym.fix('execute_sql', '{"query": "SELECT 1"}') ->> 'did_you_mean' AS sql_arg,
       dym.fix('execute_sql', '{"sql": "SELECT $1", "parameters": [1]}') ->> 'did_you_mean' AS params_arg,
       dym.fix('insert_data', '{"table": "people", "values": [{"id": 2}]}') ->> 'did_you_mean' AS rows_arg,
       dym.fix('update_data', '{"table": "people", "changes": {"age": 2}, "where": {"id": 1}}') ->> 'did_you_mean' AS set_arg;
-- a missing argument: the step adds it
SELECT dym.fix('select_query', '{}') -> 'actions' AS missing_table;

-- 3. columns in a SQL-string where and order_by, execute_sql, explain_query
SELECT dym.fix('select_query', '{"table": "people", "where": "stauts = ''active''"}');
SELECT dym.fix('select_query', '{"table": "people", "order_by": "nmae desc"}') ->> 'did_you_mean' AS order_by;
SELECT dym.fix('execute_sql', '{"sql": "SELECT p.nmae FROM people p"}');
SELECT dym.fix('explain_query', '{"sql": "SELECT * FROM people WHERE agge > 3"}') ->> 'did_you_mean' AS explain;
SELECT dym.fix('execute_sql', '{"sql": "UPDATE people SET stauts = ''x'' WHERE id = -1"}') ->> 'did_you_mean' AS update_target;
-- nothing close: the readable columns of the one table are listed
SELECT dym.fix('select_query', '{"table": "people", "where": "created_at > now()"}');
-- a column the role may not read is never offered, nor listed
SELECT dym.fix('execute_sql', '{"sql": "SELECT sn FROM people"}');
SELECT dym.fix('execute_sql', '{"sql": "SELECT salary_bnd FROM people"}');
SELECT dym.fix('select_query', '{"table": "people", "columns": ["salary_bnd"]}');
SELECT count(*) AS answers_naming_hidden_columns
FROM unnest(ARRAY['SELECT sn FROM people', 'SELECT salary_bnd FROM people', 'SELECT ssm FROM people',
                  'SELECT nosuch FROM people']) s
WHERE ai_tool_call('execute_sql', jsonb_build_object('sql', s))::text ~ '"(ssn|salary_band)"|[ ,](ssn|salary_band)[ ,.]';

-- a part of the statement PostgreSQL had not reached names a schema the role
-- may not use, a database, a table that does not exist: still an answer
SELECT dym.fix('execute_sql', '{"sql": "SELECT nmae FROM people WHERE id IN (SELECT id FROM dym_closed.t) AND id IN (SELECT id FROM otherdb.dym.people) AND id IN (SELECT id FROM nosuch)"}');

-- 4. functions: the closest the role may execute on its search path
SELECT dym.fix('execute_sql', '{"sql": "SELECT lenght(name) FROM people"}');
SELECT dym.fix('execute_sql', '{"sql": "SELECT coalese(name, status) FROM people"}') ->> 'did_you_mean' AS grammar_function;
-- the right name with wrong arguments keeps core's advice (casts), no name
SELECT dym.fix('execute_sql', '{"sql": "SELECT length(1, 2, 3)"}') ->> 'did_you_mean' AS wrong_arguments;
-- a function the role may not execute is never offered
SELECT dym.fix('execute_sql', '{"sql": "SELECT secret_lenhgt(name) FROM people"}') ::text LIKE '%secret_lenght%' AS offers_unexecutable;

-- 5. tables in a statement: the closest the role may use
SELECT dym.fix('execute_sql', '{"sql": "SELECT count(*) FROM peple"}');
SELECT dym.fix('execute_sql', '{"sql": "SELECT count(*) FROM hidden_stat"}') ::text LIKE '%hidden_stats%' AS offers_unreadable_table;

-- 5b. a misspelt keyword (also one read as an alias), another API's placeholders
SELECT s AS statement, dym.fix('execute_sql', jsonb_build_object('sql', s)) ->> 'did_you_mean' AS meant
FROM unnest(ARRAY['selct * FROM people', 'SELECT * form people', 'SELECT id FROM people wehre id = 1',
  'SELECT id FROM people GROUP BY id ordr BY id', 'SELECT id fron people', 'SELECT * FROM people WHERE id = 1']) s;
SELECT dym.fix('execute_sql', '{"sql": "SELECT * FROM people WHERE id = ?", "params": [1]}') -> 'actions' AS question_mark,
       dym.fix('execute_sql', '{"sql": "SELECT * FROM people WHERE id = :id", "params": [1]}') -> 'actions' AS colon_name,
       dym.fix('execute_sql', '{"sql": "SELECT ''a?b'' FROM people WHERE id = $1 AND", "params": [1]}') -> 'actions' AS quoted_mark;

-- 5c. filter operators by other names
SELECT op AS given, dym.fix('select_query', jsonb_build_object('table', 'people', 'columns', '["id"]'::jsonb,
         'where', jsonb_build_object('age', jsonb_build_object(op, 3)))) ->> 'did_you_mean' AS meant
FROM unnest(ARRAY['greater_than', '>=', '$lte', 'not_equal', '!=', 'nin', 'equals', 'GT', 'gtt']) op;

-- 6. custom tools: their names and parameters
RESET ROLE;
SELECT ai_tool_define('people_by_status', 'People with a status', 'SELECT id, name FROM dym.people WHERE status = $1',
  '[{"name": "status_name", "type": "text"}]') IS NOT NULL AS defined;
GRANT SELECT ON dym.people TO regress_dym_agent;
SET ROLE regress_dym_agent;
SELECT dym.fix('people_by_stauts', '{"status_name": "active"}') ->> 'did_you_mean' AS tool,
       dym.fix('get_people_by_status', '{"status_name": "active"}') ->> 'did_you_mean' AS tool_with_verb,
       dym.fix('people_by_status', '{"status": "active"}') ->> 'did_you_mean' AS parameter,
       dym.fix('people_by_status', '{"statusName": "active"}') ->> 'did_you_mean' AS camel_parameter;
RESET ROLE;
SELECT ai_tool_drop('people_by_status') IS NOT NULL AS dropped;

DROP SCHEMA dym CASCADE;
DROP SCHEMA dym_closed CASCADE;
DROP OWNED BY regress_dym_agent;
DROP ROLE regress_dym_agent;
