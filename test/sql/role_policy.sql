-- role_policy: a role's neon_ai_tools.* policy (ALTER ROLE ... SET) holds
-- when a call runs as that role without logging in as it (SET ROLE, SET
-- LOCAL ROLE, set_config('role'), SET SESSION AUTHORIZATION, SECURITY
-- DEFINER), combined with the session's so that neither is loosened
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
SELECT current_user AS superuser \gset
CREATE SCHEMA rp_test;
CREATE TABLE rp_test.items (id int PRIMARY KEY, name text);
INSERT INTO rp_test.items SELECT g, 'item ' || g FROM generate_series(1, 50) g;
CREATE VIEW rp_test.slow AS SELECT pg_sleep(30)::text AS slept;

-- an authenticator (NOINHERIT: only SET ROLE gives it the agents' rights)
-- and agent roles with policies; a second authenticator with a strict one
CREATE ROLE regress_rp_auth LOGIN NOINHERIT;
CREATE ROLE regress_rp_strict LOGIN NOINHERIT;
CREATE ROLE regress_rp_ro;
CREATE ROLE regress_rp_small;
CREATE ROLE regress_rp_free;
GRANT regress_rp_ro, regress_rp_small, regress_rp_free TO regress_rp_auth, regress_rp_strict;
GRANT USAGE ON SCHEMA rp_test TO regress_rp_ro, regress_rp_small, regress_rp_free, regress_rp_auth, regress_rp_strict;
GRANT SELECT, INSERT, UPDATE, DELETE ON rp_test.items
  TO regress_rp_ro, regress_rp_small, regress_rp_free, regress_rp_auth, regress_rp_strict;
GRANT SELECT ON rp_test.slow TO regress_rp_small;
LOAD 'neon_ai_tools';
ALTER ROLE regress_rp_ro SET neon_ai_tools.read_only = on;
ALTER ROLE regress_rp_small SET neon_ai_tools.max_rows = 10;
ALTER ROLE regress_rp_small SET neon_ai_tools.max_timeout = '2s';
ALTER ROLE regress_rp_small SET neon_ai_tools.enabled_tools = 'select_query, list_tables, insert_data';
ALTER ROLE regress_rp_small SET neon_ai_tools.max_tool_calls = 1;
-- the role-in-database row wins over the role's own row, as at login
ALTER ROLE regress_rp_small SET neon_ai_tools.max_affected_rows = 7;
DO $$ BEGIN EXECUTE format('ALTER ROLE regress_rp_small IN DATABASE %I SET neon_ai_tools.max_affected_rows = 5', current_database()); END $$;
ALTER ROLE regress_rp_strict SET neon_ai_tools.read_only = on;
ALTER ROLE regress_rp_strict SET neon_ai_tools.max_rows = 3;
ALTER ROLE regress_rp_strict SET neon_ai_tools.enabled_tools = 'select_query, describe_table, insert_data';

-- the authenticator's own calls: no policy, it may write
\c - regress_rp_auth
SELECT ai_tool_call('insert_data', '{"table": "rp_test.items", "rows": {"id": 101, "name": "auth"}}') ->> 'success' AS auth_insert;

-- SET ROLE to a read-only role: write tools refused and hidden
SET ROLE regress_rp_ro;
SELECT r ->> 'errorType' AS error_type, r ->> 'error' AS error
FROM ai_tool_call('insert_data', '{"table": "rp_test.items", "rows": {"id": 102}}') r;
SELECT ai_tool_call('execute_sql', '{"sql": "DELETE FROM rp_test.items WHERE id = 101"}') ->> 'errorType' AS set_role_execute;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items", "where": {"id": 101}}') -> 'data' AS reads_still_work;
SELECT jsonb_path_query_array(ai_tool_list(), '$[*].name') AS tools;
-- ai_tool_plan is refused the same way
SELECT ai_tool_plan('delete_data', '{"table": "rp_test.items", "where": {"id": 101}}') ->> 'errorType' AS plan_delete;
-- the combination lives in calls only: the session's settings are untouched
SHOW neon_ai_tools.read_only;
-- RESET ROLE: the session's policy again
RESET ROLE;
SELECT ai_tool_call('update_data', '{"table": "rp_test.items", "set": {"name": "reset"}, "where": {"id": 101}}') ->> 'affectedRows' AS after_reset;

-- SET LOCAL ROLE and set_config('role', ..., true), as neon-ai-tools-mcp runs a call
BEGIN;
SELECT set_config('role', 'regress_rp_ro', true) AS role;
SELECT ai_tool_call('insert_data', '{"table": "rp_test.items", "rows": {"id": 103}}') ->> 'errorType' AS set_config_insert;
COMMIT;
BEGIN;
SET LOCAL ROLE regress_rp_ro;
SELECT ai_tool_call('delete_data', '{"table": "rp_test.items", "where": {"id": 101}}') ->> 'errorType' AS set_local_delete;
COMMIT;
-- back at commit: the authenticator's policy
SELECT ai_tool_call('delete_data', '{"table": "rp_test.items", "where": {"id": 101}}') ->> 'affectedRows' AS after_commit;

-- a role's max_rows, max_timeout, enabled_tools and max_affected_rows
SET ROLE regress_rp_small;
SELECT r -> 'rowCount' AS row_count, r -> 'truncation' AS truncation
FROM ai_tool_call('select_query', '{"table": "rp_test.items"}') r;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items", "limit": 11}') ->> 'error' AS over_max_rows;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items", "timeout_ms": 2001}') ->> 'error' AS over_max_timeout;
SELECT ai_tool_call('describe_table', '{"table": "rp_test.items"}') ->> 'error' AS not_enabled;
SELECT jsonb_path_query_array(ai_tool_list(), '$[*].name') AS tools;
SELECT t #> '{parameters,properties,limit,maximum}' AS limit_maximum,
       t #> '{parameters,properties,timeout_ms,maximum}' AS timeout_maximum
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'select_query';
-- an error answer, built after the call's subtransaction is gone, quotes
-- the role's limit too
SELECT r ->> 'errorType' AS error_type, r ->> 'suggestion' AS suggestion
FROM ai_tool_call('select_query', '{"table": "rp_test.slow", "timeout_ms": 100}') r;
-- max_affected_rows: 5 from the role-in-database row, not 7
SELECT ai_tool_call('insert_data', '{"table": "rp_test.items", "rows": [{"id": 201}, {"id": 202}, {"id": 203}, {"id": 204}, {"id": 205}, {"id": 206}]}') ->> 'error' AS over_max_affected;
-- ai_tool_run: the role's max_tool_calls (1 of these 2 calls runs)
SELECT m ->> 'tool_call_id' AS call, (m ->> 'content')::jsonb ->> 'errorType' AS error_type
FROM jsonb_array_elements(ai_tool_run('{"role": "assistant", "tool_calls": [
  {"id": "c1", "type": "function", "function": {"name": "list_tables", "arguments": "{\"schema\": \"rp_test\"}"}},
  {"id": "c2", "type": "function", "function": {"name": "list_tables", "arguments": "{\"schema\": \"rp_test\"}"}}]}')) m;
RESET ROLE;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS row_count_after_reset;

-- a strict login policy is not loosened by SET ROLE to a looser role
\c - regress_rp_strict
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS login_row_count;
SET ROLE regress_rp_free;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS free_row_count;
SELECT ai_tool_call('insert_data', '{"table": "rp_test.items", "rows": {"id": 104}}') ->> 'errorType' AS free_insert;
SELECT jsonb_path_query_array(ai_tool_list(), '$[*].name') AS free_tools;
-- with a role that has limits of its own: the stricter of each, and only
-- the tools both lists enable (select_query; insert_data writes)
SET ROLE regress_rp_small;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS small_row_count;
SELECT jsonb_path_query_array(ai_tool_list(), '$[*].name') AS small_tools;
SELECT t #> '{parameters,properties,timeout_ms,maximum}' AS timeout_maximum
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'select_query';
RESET ROLE;

-- as the superuser: a change to a role's settings is seen by the next call
\c - :superuser
SET ROLE regress_rp_small;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS before_alter;
RESET ROLE;
ALTER ROLE regress_rp_small SET neon_ai_tools.max_rows = 4;
SET ROLE regress_rp_small;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS after_alter;
RESET ROLE;
ALTER ROLE regress_rp_small RESET neon_ai_tools.max_rows;
SET ROLE regress_rp_small;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS after_reset_setting;
RESET ROLE;
-- within the transaction that changes it, and back after its rollback
BEGIN;
ALTER ROLE regress_rp_small SET neon_ai_tools.max_rows = 2;
SET LOCAL ROLE regress_rp_small;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS in_transaction;
ROLLBACK;
SET ROLE regress_rp_small;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS after_rollback;
RESET ROLE;
-- another session's change (dblink), seen by the next call, inside a transaction too
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS dblink SCHEMA public;
RESET client_min_messages;
SELECT dblink_connect('rp_admin', format('dbname=%s user=%s port=%s%s',
    current_database(), current_user, current_setting('port'),
    CASE WHEN current_setting('unix_socket_directories') <> ''
         THEN ' host=' || split_part(current_setting('unix_socket_directories'), ',', 1)
         ELSE '' END));
BEGIN;
SET LOCAL ROLE regress_rp_small;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS before_other_session;
RESET ROLE;
SELECT dblink_exec('rp_admin', 'ALTER ROLE regress_rp_small SET neon_ai_tools.max_rows = 3');
SET LOCAL ROLE regress_rp_small;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS after_other_session;
COMMIT;
SELECT dblink_exec('rp_admin', 'ALTER ROLE regress_rp_small RESET neon_ai_tools.max_rows');
SELECT dblink_disconnect('rp_admin');

-- the superuser's session settings combine too: the smaller max_rows
SET neon_ai_tools.max_rows = 6;
SET ROLE regress_rp_small;
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS session_smaller;
RESET ROLE;
RESET neon_ai_tools.max_rows;

-- SET SESSION AUTHORIZATION: the new session user's policy applies
SET SESSION AUTHORIZATION regress_rp_ro;
SELECT ai_tool_call('insert_data', '{"table": "rp_test.items", "rows": {"id": 105}}') ->> 'errorType' AS session_authorization;
-- and it holds, as a login policy would, after a SET ROLE from there
RESET SESSION AUTHORIZATION;
GRANT regress_rp_free TO regress_rp_ro;
SET SESSION AUTHORIZATION regress_rp_ro;
SET ROLE regress_rp_free;
SELECT ai_tool_call('insert_data', '{"table": "rp_test.items", "rows": {"id": 105}}') ->> 'errorType' AS session_authorization_set_role;
RESET ROLE;
RESET SESSION AUTHORIZATION;

-- SECURITY DEFINER: inside the function the current user is its owner, so
-- the owner's policy applies (combined with the caller's session policy)
CREATE FUNCTION rp_test.definer_insert(id int) RETURNS jsonb LANGUAGE sql SECURITY DEFINER
  AS $$ SELECT ai_tool_call('insert_data', jsonb_build_object('table', 'rp_test.items', 'rows', jsonb_build_object('id', id))) $$;
ALTER FUNCTION rp_test.definer_insert(int) OWNER TO regress_rp_ro;
GRANT EXECUTE ON FUNCTION rp_test.definer_insert(int) TO regress_rp_auth;
\c - regress_rp_auth
SELECT rp_test.definer_insert(106) ->> 'errorType' AS definer_read_only;
-- an owner without a policy runs with the caller's session policy: the
-- role the caller SET is not the current user inside the function
\c - :superuser
ALTER FUNCTION rp_test.definer_insert(int) OWNER TO regress_rp_free;
\c - regress_rp_auth
SET ROLE regress_rp_ro;
SELECT rp_test.definer_insert(107) ->> 'affectedRows' AS definer_free;
RESET ROLE;

-- confirmation = token from the role holds under SET ROLE: deleting every
-- row answers confirmation_required and deletes nothing
\c - :superuser
CREATE ROLE regress_rp_confirm;
GRANT regress_rp_confirm TO regress_rp_auth;
GRANT USAGE ON SCHEMA rp_test TO regress_rp_confirm;
GRANT SELECT, DELETE ON rp_test.items TO regress_rp_confirm;
LOAD 'neon_ai_tools';
ALTER ROLE regress_rp_confirm SET neon_ai_tools.confirmation = token;
\c - regress_rp_auth
SET ROLE regress_rp_confirm;
SELECT r ->> 'errorType' AS error_type, r ? 'confirmation_token' AS has_token
FROM ai_tool_call('delete_data', '{"table": "rp_test.items", "confirm_all_rows": true}') r;
RESET ROLE;
SELECT count(*) AS rows_kept FROM rp_test.items;

-- a value PostgreSQL cannot read for its setting (stored before the
-- library was loaded in that session) fails the call, closed
\c - :superuser
ALTER ROLE regress_rp_free SET neon_ai_tools.max_rows = 'lots';
LOAD 'neon_ai_tools';
SET ROLE regress_rp_free;
\set VERBOSITY terse
SELECT ai_tool_call('select_query', '{"table": "rp_test.items"}') -> 'rowCount' AS bad_value;
\set VERBOSITY default
RESET ROLE;

-- clean up
DROP FUNCTION rp_test.definer_insert(int);
DROP VIEW rp_test.slow;
DROP SCHEMA rp_test CASCADE;
DROP OWNED BY regress_rp_auth, regress_rp_strict, regress_rp_ro, regress_rp_small, regress_rp_free, regress_rp_confirm;
DROP ROLE regress_rp_auth, regress_rp_strict, regress_rp_ro, regress_rp_small, regress_rp_free, regress_rp_confirm;
