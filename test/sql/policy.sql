-- policy: per-role limits that a role cannot loosen, enabled_tools,
-- read-only roles, the audit log, a hostile search_path
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA pol_test;
CREATE TABLE pol_test.items (id int PRIMARY KEY, name text);
INSERT INTO pol_test.items SELECT g, 'item ' || g FROM generate_series(1, 50) g;
CREATE ROLE regress_pol_agent LOGIN;
GRANT USAGE ON SCHEMA pol_test TO regress_pol_agent;
GRANT SELECT, INSERT, UPDATE, DELETE ON pol_test.items TO regress_pol_agent;
GRANT CREATE ON SCHEMA pol_test TO regress_pol_agent;

-- guardrail settings are superuser-only (they exist once the library is loaded)
LOAD 'neon_ai_tools';
SELECT name, context FROM pg_settings WHERE name LIKE 'neon_ai_tools.%' ORDER BY name;

-- an administrator limits a role: max_rows = 5 applies from its next login
ALTER ROLE regress_pol_agent SET neon_ai_tools.max_rows = 5;
\c - regress_pol_agent
SHOW neon_ai_tools.max_rows;
SELECT r->'rowCount' AS row_count, r->'truncation' AS truncation
FROM ai_tool_call('select_query', '{"table": "pol_test.items"}') r;
SELECT ai_tool_call('select_query', '{"table": "pol_test.items", "limit": 6}') ->> 'error' AS error;
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT * FROM generate_series(1, 100)"}') -> 'rowCount' AS row_count;
-- the schema shows the role's limit
SELECT t #> '{parameters,properties,limit,maximum}' AS maximum
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'select_query';
-- the role cannot raise it: SET, SET LOCAL, set_config, ALTER ROLE, a function's SET clause
SET neon_ai_tools.max_rows = 10000;
BEGIN;
SET LOCAL neon_ai_tools.max_rows = 10000;
ROLLBACK;
SELECT set_config('neon_ai_tools.max_rows', '10000', false);
ALTER ROLE regress_pol_agent SET neon_ai_tools.max_rows = 10000;
CREATE FUNCTION pol_test.sneaky() RETURNS jsonb LANGUAGE sql
  SET neon_ai_tools.max_rows = 10000
  AS $$ SELECT ai_tool_call('select_query', '{"table": "pol_test.items"}') $$;
-- per-call arguments may only tighten: a smaller limit works
SELECT ai_tool_call('select_query', '{"table": "pol_test.items", "limit": 2}') -> 'rowCount' AS row_count;
-- the user-settable default cannot exceed the cap either
SET neon_ai_tools.row_limit = 1000;
SELECT ai_tool_call('select_query', '{"table": "pol_test.items"}') -> 'rowCount' AS row_count;
\c - postgres
ALTER ROLE regress_pol_agent RESET neon_ai_tools.max_rows;

-- a placeholder set before the library is loaded does not survive loading
\c - regress_pol_agent
SET neon_ai_tools.max_rows = 99999;
SELECT ai_tool_call('select_query', '{"table": "pol_test.items", "limit": 1}') -> 'rowCount' AS row_count;
SHOW neon_ai_tools.max_rows;
\c - postgres

-- GRANT SET ON PARAMETER delegates one setting to one role
GRANT SET ON PARAMETER neon_ai_tools.max_rows TO regress_pol_agent;
\c - regress_pol_agent
SET neon_ai_tools.max_rows = 7;
SELECT ai_tool_call('select_query', '{"table": "pol_test.items"}') -> 'rowCount' AS row_count;
\c - postgres
REVOKE SET ON PARAMETER neon_ai_tools.max_rows FROM regress_pol_agent;

-- enabled_tools: exactly those tools, the others refused
ALTER ROLE regress_pol_agent SET neon_ai_tools.enabled_tools = 'select_query,list_tables';
\c - regress_pol_agent
SELECT jsonb_path_query_array(ai_tool_list(), '$[*].name') AS tools;
SELECT jsonb_path_query_array(ai_tool_list('mcp'), '$[*].name') AS tools;
SELECT t AS tool, ai_tool_call(t, '{"table": "pol_test.items", "sql": "SELECT 1", "rows": {"id": 99}}') ->> 'errorType' AS error_type
FROM unnest(ARRAY['select_query', 'list_tables', 'insert_data', 'update_data', 'delete_data', 'execute_sql', 'explain_query', 'describe_table']) t;
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT 1"}') ->> 'suggestion' AS suggestion;
SET neon_ai_tools.enabled_tools = '*';
\c - postgres
ALTER ROLE regress_pol_agent RESET neon_ai_tools.enabled_tools;

-- a read_only role cannot write through any tool
ALTER ROLE regress_pol_agent SET neon_ai_tools.read_only = on;
\c - regress_pol_agent
SELECT jsonb_path_query_array(ai_tool_list(), '$[*].name') AS tools;
SELECT ai_tool_call('insert_data', '{"table": "pol_test.items", "rows": {"id": 100}}') ->> 'errorType' AS insert,
       ai_tool_call('update_data', '{"table": "pol_test.items", "set": {"name": "x"}, "where": {"id": 1}}') ->> 'errorType' AS update,
       ai_tool_call('delete_data', '{"table": "pol_test.items", "where": {"id": 1}}') ->> 'errorType' AS delete,
       ai_tool_call('execute_sql', '{"sql": "DELETE FROM pol_test.items"}') ->> 'errorType' AS execute,
       ai_tool_call('execute_sql', '{"sql": "DELETE FROM pol_test.items", "read_only": false}') ->> 'errorType' AS execute_forced,
       ai_tool_call('explain_query', '{"sql": "DELETE FROM pol_test.items", "analyze": true}') ->> 'errorType' AS explain;
SELECT ai_tool_call('select_query', '{"table": "pol_test.items", "limit": 1}') ->> 'status' AS reads_work;
\c - postgres
ALTER ROLE regress_pol_agent RESET neon_ai_tools.read_only;
SELECT count(*) AS items, min(name) AS first_name FROM pol_test.items;

-- the audit log is checked in test/t/003_ssl_audit.pl, where the real
-- server log can be read (its lines carry a duration that varies)

-- a hostile search_path: an evil "=" earlier on the path changes nothing
CREATE SCHEMA evil;
CREATE FUNCTION evil.always_true(int, int) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR evil.= (LEFTARG = int, RIGHTARG = int, FUNCTION = evil.always_true);
SET search_path = evil, pg_catalog, public;
SELECT count(*) AS fooled FROM pol_test.items WHERE id = 5;
SELECT ai_tool_call('select_query', '{"table": "pol_test.items", "where": {"id": 5}}') -> 'rowCount' AS structured,
       ai_tool_call('select_query', '{"table": "pol_test.items", "where": "id = 5"}') -> 'rowCount' AS sql_string,
       ai_tool_call('update_data', '{"table": "pol_test.items", "set": {"name": "five"}, "where": {"id": 5}}') -> 'affectedRows' AS updated,
       ai_tool_call('delete_data', '{"table": "pol_test.items", "where": {"id": 5}, "dry_run": true}') -> 'affectedRows' AS would_delete;
RESET search_path;
DROP SCHEMA evil CASCADE;

DROP SCHEMA pol_test CASCADE;
DROP OWNED BY regress_pol_agent;
DROP ROLE regress_pol_agent;
