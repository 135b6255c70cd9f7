-- guardrails of the execution core: read-only, timeout, privileges, RLS,
-- atomicity, settings that do not leak, hostile search_path
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA gr_test;
SET search_path = gr_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

CREATE TABLE accounts (id int PRIMARY KEY, owner text, balance numeric);
INSERT INTO accounts VALUES (1, 'regress_ai_alice', 100), (2, 'regress_ai_bob', 200), (3, 'regress_ai_alice', 300);

-- a view that writes through a volatile function: read_only_violation
CREATE TABLE sink (n int);
CREATE FUNCTION writer() RETURNS int LANGUAGE plpgsql VOLATILE AS $$
BEGIN INSERT INTO gr_test.sink VALUES (1); RETURN 1; END $$;
CREATE VIEW writing_view AS SELECT id, writer() AS w FROM accounts;
SELECT call('select_query', '{"table": "writing_view"}') - 'details';
SELECT count(*) AS written FROM sink;
-- nextval and setting changes through a view are refused or undone too
CREATE SEQUENCE s;
CREATE VIEW seq_view AS SELECT nextval('gr_test.s') AS n;
SELECT call('select_query', '{"table": "seq_view"}') ->> 'errorType' AS error_type;
SELECT last_value FROM s;
CREATE FUNCTION setter() RETURNS int LANGUAGE plpgsql VOLATILE AS $$
BEGIN PERFORM set_config('work_mem', '2MB', false); RETURN 1; END $$;
CREATE VIEW setting_view AS SELECT setter() AS x;
SHOW work_mem;
SELECT call('select_query', '{"table": "setting_view"}') ->> 'error' AS error;
-- the same through a function declared STABLE: its set_config() is
-- refused where it runs, one level down
CREATE FUNCTION stable_setter() RETURNS int LANGUAGE plpgsql STABLE AS $$
BEGIN PERFORM set_config('work_mem', '2MB', false); RETURN 1; END $$;
CREATE VIEW stable_setting_view AS SELECT stable_setter() AS x;
SELECT call('select_query', '{"table": "stable_setting_view"}') ->> 'error' AS error;
SHOW work_mem;

-- a view that sleeps 30 s with timeout_ms 200: a timeout answer, promptly
-- (the bound leaves a slow machine 50 times the limit, and is still a
-- third of the sleep)
CREATE VIEW slow_view AS SELECT pg_sleep(30)::text AS slept, 1 AS x;
SELECT clock_timestamp() AS t0 \gset
SELECT call('select_query', '{"table": "slow_view", "timeout_ms": 200}') - 'details';
SELECT clock_timestamp() - :'t0'::timestamptz < interval '10 seconds' AS prompt;
-- the session and the next statement are unaffected
SELECT call('select_query', '{"table": "accounts", "columns": ["id"], "order_by": "id"}') -> 'data' AS data;
-- the default neon_ai_tools.timeout applies, clamped by max_timeout
SET neon_ai_tools.timeout = '150ms';
SELECT call('select_query', '{"table": "slow_view"}') ->> 'error' AS error;
RESET neon_ai_tools.timeout;
SET neon_ai_tools.max_timeout = '100ms';
SELECT call('select_query', '{"table": "slow_view"}') ->> 'error' AS error;
SELECT call('select_query', '{"table": "slow_view", "timeout_ms": 5000}') ->> 'error' AS error;
RESET neon_ai_tools.max_timeout;
-- the outer statement_timeout is the client's: it cancels the statement
SET statement_timeout = '300ms';
SELECT call('select_query', '{"table": "slow_view", "timeout_ms": 5000}');
RESET statement_timeout;
SELECT 'still usable' AS session;

-- lock_timeout: a call does not wait long for a lock.  A second session
-- (dblink, over this server's own socket) holds accounts locked; the call,
-- with a 20 s timeout of its own, gives up at neon_ai_tools.lock_timeout:
-- lock_not_available (55P03), not its own timer's query_canceled (57014),
-- and the session's lock_timeout is untouched afterwards.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS dblink SCHEMA public;
RESET client_min_messages;
SELECT dblink_connect('gr_locker', format('dbname=%s user=%s port=%s%s',
    current_database(), current_user, current_setting('port'),
    CASE WHEN current_setting('unix_socket_directories') <> ''
         THEN ' host=' || split_part(current_setting('unix_socket_directories'), ',', 1)
         ELSE '' END));
SELECT dblink_exec('gr_locker', 'BEGIN');
SELECT dblink_exec('gr_locker', 'LOCK TABLE gr_test.accounts IN ACCESS EXCLUSIVE MODE');
SET neon_ai_tools.lock_timeout = '100ms';
SELECT a ->> 'errorType' AS error_type, a ->> 'sqlState' AS sqlstate, a ->> 'retryable' AS retryable
FROM call('select_query', '{"table": "accounts", "timeout_ms": 20000}') a;
SHOW lock_timeout;
SELECT dblink_exec('gr_locker', 'ROLLBACK');
SELECT dblink_disconnect('gr_locker');
-- the call's statements see the call's lock_timeout; a session value below
-- it is kept; what a statement sets does not outlive the call, on success
-- or on error
SELECT call('execute_sql', '{"sql": "SELECT current_setting(''lock_timeout'') AS t"}') #>> '{data,0,t}' AS in_call;
SET lock_timeout = '50ms';
SELECT call('execute_sql', '{"sql": "SELECT current_setting(''lock_timeout'') AS t"}') #>> '{data,0,t}' AS in_call_lower_session;
RESET lock_timeout;
BEGIN;
SELECT call('execute_sql', '{"sql": "SELECT set_config(''lock_timeout'', ''50ms'', true) AS t"}') #>> '{data,0,t}' AS set_in_call;
SHOW lock_timeout;
SELECT call('execute_sql', '{"mode": "multiple", "sql": "SELECT set_config(''lock_timeout'', ''60ms'', true); SELECT 1/0"}') ->> 'errorType' AS error_type;
SHOW lock_timeout;
COMMIT;
SHOW lock_timeout;

-- privileges: a role without SELECT gets permission_denied
CREATE ROLE regress_ai_alice;
CREATE ROLE regress_ai_bob;
GRANT USAGE ON SCHEMA gr_test TO regress_ai_alice, regress_ai_bob;
GRANT EXECUTE ON FUNCTION call(text, jsonb) TO regress_ai_alice, regress_ai_bob;
SET ROLE regress_ai_bob;
SELECT call('select_query', '{"table": "accounts"}');
-- misspelt names suggest only what the caller can see
SELECT call('select_query', '{"table": "acounts"}') ->> 'suggestion' AS suggestion;
RESET ROLE;

-- row-level security filters rows for a non-owner role
GRANT SELECT ON accounts TO regress_ai_alice, regress_ai_bob;
ALTER TABLE accounts ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON accounts USING (owner = current_user);
SET ROLE regress_ai_alice;
SELECT call('select_query', '{"table": "accounts", "order_by": "id"}') -> 'data' AS data;
SELECT call('select_query', '{"table": "acounts"}') ->> 'suggestion' AS suggestion;
SET ROLE regress_ai_bob;
SELECT call('select_query', '{"table": "accounts", "where": {"id": 1}}') -> 'rowCount' AS row_count;
RESET ROLE;
SELECT call('select_query', '{"table": "accounts", "columns": ["id"]}') -> 'rowCount' AS owner_sees;

-- column privileges: only granted columns are readable, and suggested
CREATE TABLE salaries (id int, name text, salary int);
GRANT SELECT (id, name) ON salaries TO regress_ai_bob;
SET ROLE regress_ai_bob;
SELECT call('select_query', '{"table": "salaries", "columns": ["id", "name"]}') ->> 'status' AS status;
SELECT call('select_query', '{"table": "salaries", "columns": ["salary"]}') ->> 'errorType' AS error_type;
SELECT call('select_query', '{"table": "salaries", "columns": ["salry"]}') ->> 'suggestion' AS suggestion;
SELECT call('select_query', '{"table": "salaries", "columns": ["nme"]}') ->> 'suggestion' AS suggestion;
RESET ROLE;

-- a failed call inside a transaction leaves it usable, and leaves nothing
BEGIN;
INSERT INTO sink VALUES (42);
SELECT call('select_query', '{"table": "writing_view"}') ->> 'errorType' AS error_type;
SELECT call('select_query', '{"table": "nosuch"}') ->> 'errorType' AS error_type;
SELECT call('select_query', '{"table": "slow_view", "timeout_ms": 50}') ->> 'errorType' AS error_type;
INSERT INTO sink VALUES (43);
SELECT n FROM sink ORDER BY n;
SHOW transaction_read_only;
COMMIT;
-- read-only holds for the call only, on every version (17 made
-- transaction_read_only GUC_NO_RESET): after a successful call, after the
-- agent's SQL tried to switch it off, and after a timeout, the caller's
-- transaction is read-write again
BEGIN;
SELECT call('select_query', '{"table": "accounts", "limit": 1}') ->> 'status' AS status;
SHOW transaction_read_only;
SELECT call('execute_sql', '{"read_only": true, "sql": "SELECT set_config(''transaction_read_only'', ''off'', true)"}') ->> 'error' AS error;
SELECT call('execute_sql', '{"read_only": true, "sql": "SET TRANSACTION READ WRITE"}') ->> 'error' AS error;
SHOW transaction_read_only;
SELECT call('execute_sql', '{"read_only": true, "sql": "SELECT pg_sleep(5)", "timeout_ms": 50}') ->> 'errorType' AS error_type;
SHOW transaction_read_only;
INSERT INTO sink VALUES (44);
ROLLBACK;
-- an outer read-only transaction stays read-only after a call
BEGIN READ ONLY;
SELECT call('select_query', '{"table": "accounts", "limit": 1}') ->> 'status' AS status;
SHOW transaction_read_only;
COMMIT;

-- tool calls do not nest
CREATE FUNCTION nested() RETURNS jsonb LANGUAGE sql AS $$ SELECT ai_tool_call('select_query', '{"table": "gr_test.accounts"}') $$;
CREATE VIEW nesting_view AS SELECT nested() AS inner_answer;
SELECT call('select_query', '{"table": "nesting_view"}') ->> 'error' AS error;
-- (read-only calls refuse the volatile ai_tool_call() itself; a writing call
-- reaches it and is refused there)
SELECT call('execute_sql', '{"sql": "SELECT gr_test.nested()"}') ->> 'error' AS error;

-- a hostile search_path cannot redirect generated SQL
CREATE SCHEMA evil;
CREATE FUNCTION evil.always_true(int, int) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR evil.= (LEFTARG = int, RIGHTARG = int, FUNCTION = evil.always_true);
CREATE TABLE evil.accounts (id int);
SET search_path = evil, pg_catalog, gr_test, public;
SELECT id FROM gr_test.accounts WHERE id = 2;  -- a hand-written query is fooled
SELECT ai_tool_call('select_query', '{"table": "gr_test.accounts", "columns": ["id"], "where": {"id": 2}}') -> 'data' AS data;
SELECT ai_tool_call('select_query', '{"table": "gr_test.accounts", "columns": ["id"], "where": "id = 2"}') -> 'data' AS data;
SELECT ai_tool_call('select_query', '{"table": "gr_test.accounts", "columns": ["id"], "where": {"id": {"in": [2]}}}') -> 'data' AS data;
-- and the unqualified name resolves as the caller's search_path says
SELECT ai_tool_call('select_query', '{"table": "accounts"}') ->> 'table' AS table_name;
SET search_path = gr_test, public;

DROP SCHEMA evil CASCADE;
DROP SCHEMA gr_test CASCADE;
DROP ROLE regress_ai_alice;
DROP ROLE regress_ai_bob;
