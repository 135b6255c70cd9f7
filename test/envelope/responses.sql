-- Real answers of ai_tool_call() for the envelope test (issue #5).
--
-- Run with psql as a superuser, in a scratch database of its own (run.sh
-- creates one), with ON_ERROR_STOP.  Prints one line per answer:
--
--     EXPECT/description<TAB>{the answer, as jsonb text}
--
-- EXPECT is "success", or the errorType the answer must have, optionally
-- with its error_type: "constraint_violation:unique_constraint".
-- validate.mjs checks every answer against response.schema.json and
-- against its EXPECT, and that every category of the README's Results section was
-- seen.  Fixture statements print nothing (\g /dev/null, or commands
-- quieted by QUIET), so every line of output is one answer.
--
-- Live vs emulated (also in README.md here):
--   conflict (40001, 40P01), timeout by lock_timeout (55P03): live, with a
--     second session opened through dblink;
--   connection_error: live, postgres_fdw to a closed port on 127.0.0.1;
--   authentication_error: emulated (a view over a function raising 28P01):
--     postgres_fdw and dblink report every failed connection, bad password
--     included, as 08001;
--   everything else: live.

\set ON_ERROR_STOP on
\set QUIET on
\pset format unaligned
\pset tuples_only on
\pset fieldsep '\t'
\pset null '(null)'
SET client_min_messages = warning;

CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
CREATE EXTENSION IF NOT EXISTS postgres_fdw;
CREATE EXTENSION IF NOT EXISTS dblink;

DROP SCHEMA IF EXISTS env, env_hidden CASCADE;
CREATE SCHEMA env;
SET search_path = env, public;

-- the role for permission_denied; roles are cluster-wide, so drop a
-- leftover of an earlier run first
DO $$ BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'envelope_agent') THEN
    EXECUTE 'DROP OWNED BY envelope_agent';
    EXECUTE 'DROP ROLE envelope_agent';
  END IF;
END $$;
CREATE ROLE envelope_agent;
GRANT USAGE ON SCHEMA env TO envelope_agent;

-- --- fixtures ----------------------------------------------------------------
CREATE TABLE customers (
    id int PRIMARY KEY,
    name text NOT NULL,
    email text UNIQUE
);
INSERT INTO customers VALUES (1, 'Ada', 'ada@example.com'),
    (2, 'Brian', 'brian@example.com'), (3, 'Cleo', NULL);

CREATE TABLE orders (
    id serial PRIMARY KEY,
    customer_id int NOT NULL REFERENCES customers (id),
    status text NOT NULL DEFAULT 'open',
    total numeric(10, 2) CHECK (total >= 0),
    tags text[],
    meta jsonb,
    created_at timestamptz DEFAULT '2024-01-02 03:04:05+00'
);
INSERT INTO orders (customer_id, status, total, tags, meta)
SELECT 1 + g % 3, CASE WHEN g % 2 = 0 THEN 'open' ELSE 'shipped' END,
       g * 10.5, ARRAY['t' || g], jsonb_build_object('n', g)
FROM generate_series(1, 12) g;

-- wide rows for the byte budget
CREATE TABLE blobs (id int PRIMARY KEY, body text);
INSERT INTO blobs SELECT g, repeat('x', 2000) FROM generate_series(1, 20) g;

-- a table whose rule changes one more row (statementAffectedRows)
CREATE TABLE env.ruled (id int PRIMARY KEY, v text);
CREATE TABLE env.rule_log (entry text);
INSERT INTO env.ruled VALUES (1, 'a');
CREATE RULE log_update AS ON UPDATE TO env.ruled DO ALSO INSERT INTO env.rule_log VALUES (NEW.v);

-- scratch tables the write tools may truncate and drop
CREATE TABLE scratch_truncate (id int);
INSERT INTO scratch_truncate SELECT generate_series(1, 4);
CREATE TABLE scratch_drop (id int);

-- an exclusion constraint (23P01) and a trigger that refuses deletes with
-- SQLSTATE 23001 restrict_violation, as an application's own rule would
CREATE TABLE bookings (id int PRIMARY KEY, during tsrange,
    EXCLUDE USING gist (during WITH &&));
INSERT INTO bookings VALUES (1, '[2024-01-01 10:00, 2024-01-01 11:00)');
CREATE TABLE archive (id int PRIMARY KEY);
INSERT INTO archive VALUES (1);
CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION USING ERRCODE = 'restrict_violation',
       MESSAGE = 'archived rows cannot be deleted'; END $$;
CREATE TRIGGER archive_keep BEFORE DELETE ON archive
    FOR EACH ROW EXECUTE FUNCTION refuse_delete();

-- a table nobody but the owner may read, and a schema nobody may use
CREATE SCHEMA env_hidden;
CREATE TABLE env_hidden.t (id int);
CREATE TABLE secrets (id int, secret text);
INSERT INTO secrets VALUES (1, 'hunter2');

-- views that fail in the ways section 4 names
CREATE TABLE sink (n int);
CREATE FUNCTION writer() RETURNS int LANGUAGE plpgsql VOLATILE AS
$$ BEGIN INSERT INTO env.sink VALUES (1); RETURN 1; END $$;
CREATE VIEW writing_view AS SELECT writer() AS w;
CREATE VIEW slow_view AS SELECT pg_sleep(5)::text AS slept;

-- emulations: a function that raises a chosen SQLSTATE
CREATE FUNCTION raise_state(code text, msg text) RETURNS int
LANGUAGE plpgsql STABLE AS  -- it only raises: a read-only call may run it
$$ BEGIN RAISE EXCEPTION USING ERRCODE = code, MESSAGE = msg; END $$;
CREATE VIEW auth_failure_view AS
    SELECT raise_state('28P01', 'password authentication failed for user "agent"') AS x;
CREATE VIEW boom_view AS SELECT raise_state('P0001', 'boom') AS x;

-- connection_error: a foreign table on a port nothing listens on (1 needs
-- root to bind, so on a test machine it is closed: connection refused)
CREATE SERVER closed_port FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '127.0.0.1', port '1', dbname 'postgres', connect_timeout '5');
CREATE USER MAPPING FOR CURRENT_USER SERVER closed_port;
CREATE FOREIGN TABLE remote_orders (id int, total numeric) SERVER closed_port
    OPTIONS (schema_name 'public', table_name 'orders');

-- the second session (conflict, lock timeout): dblink to this database as
-- this user over the same socket
SELECT dblink_connect('other', format('dbname=%s user=%s port=%s%s',
    current_database(), current_user, current_setting('port'),
    CASE WHEN current_setting('unix_socket_directories') <> ''
         THEN ' host=' || split_part(current_setting('unix_socket_directories'), ',', 1)
         ELSE '' END)) \g /dev/null
SELECT dblink_exec('other', 'SET search_path = env, public; SET deadlock_timeout = ''60s''') \g /dev/null

-- =========================================================================
-- Successes
-- =========================================================================

-- select_query
SELECT 'success/select_query all rows', ai_tool_call('select_query',
    '{"table": "customers", "order_by": "id"}');
SELECT 'success/select_query columns, structured where, order_by array', ai_tool_call('select_query',
    '{"table": "env.orders", "columns": ["id", "total", "tags", "meta", "created_at"],
      "where": {"status": "open", "total": {"gt": 20}, "or": [{"customer_id": 1}, {"id": {"in": [2, 4]}}]},
      "order_by": [{"column": "total", "direction": "desc", "nulls": "last"}]}');
SELECT 'success/select_query SQL where string, duplicate column', ai_tool_call('select_query',
    '{"table": "orders", "columns": "id, id, status", "where": "total > 50 AND status = ''open''", "order_by": "id"}');
SELECT 'success/select_query empty, a value close to the filter''s (did_you_mean)', ai_tool_call('select_query',
    '{"table": "orders", "where": {"status": "Open"}}');
SELECT 'success/select_query empty, values close to an IN list''s', ai_tool_call('select_query',
    '{"table": "orders", "where": {"status": ["Open", "shiped"]}}');
SELECT 'success/select_query format columnar', ai_tool_call('select_query',
    '{"table": "orders", "order_by": "id", "format": "columnar"}');
SELECT 'success/select_query format csv', ai_tool_call('select_query',
    '{"table": "orders", "order_by": "id", "format": "csv"}');
SELECT 'success/select_query format markdown, truncated', ai_tool_call('select_query',
    '{"table": "orders", "order_by": "id", "format": "markdown", "limit": 2}');
SELECT 'success/select_query continued with next', ai_tool_call('select_query',
    jsonb_build_object('table', 'orders', 'order_by', 'id', 'limit', 2, 'next',
        ai_tool_call('select_query', '{"table": "orders", "order_by": "id", "limit": 2}') ->> 'next'));
SET neon_ai_tools.confirmation = token;
SELECT 'confirmation_required/delete_data every row, confirmation = token', ai_tool_call('delete_data',
    '{"table": "orders", "confirm_all_rows": true}');
RESET neon_ai_tools.confirmation;
SELECT 'invalid_parameters/select_query forged next', ai_tool_call('select_query',
    '{"table": "orders", "order_by": "id", "limit": 2, "next": "e30.AAAA"}');
SELECT 'success/execute_sql mode multiple, format csv', ai_tool_call('execute_sql',
    '{"sql": "SELECT 1 AS a; SELECT 2 AS b", "mode": "multiple", "format": "csv"}');
SELECT 'success/select_query no rows', ai_tool_call('select_query',
    '{"table": "orders", "where": {"id": -1}}');
SELECT 'success/select_query truncated by row_limit', ai_tool_call('select_query',
    '{"table": "orders", "order_by": "id", "limit": 3}');
SELECT 'success/select_query offset paging', ai_tool_call('select_query',
    '{"table": "orders", "columns": ["id"], "order_by": "id", "limit": 2, "offset": 4}');
SET neon_ai_tools.max_response_bytes = '8kB';
SELECT 'success/select_query truncated by byte_limit', ai_tool_call('select_query',
    '{"table": "blobs", "order_by": "id"}');
SET neon_ai_tools.row_limit = 10000;
SELECT 'success/execute_sql truncated by memory_limit', ai_tool_call('execute_sql',
    jsonb_build_object('sql', 'SELECT ' || (SELECT string_agg(format('%s AS c%s', g, g), ', ')
                                            FROM generate_series(1, 24) g) ||
                              ' FROM generate_series(1, 10000)', 'format', 'columnar'));
RESET neon_ai_tools.row_limit;

-- insert_data
SELECT 'success/insert_data one row, generated fields returned', ai_tool_call('insert_data',
    '{"table": "orders", "rows": {"customer_id": 2, "total": "9.99", "tags": ["new"]}}');
SELECT 'success/insert_data several rows, returning some columns', ai_tool_call('insert_data',
    '{"table": "customers", "rows": [{"id": 10, "name": "Dan"}, {"id": 11, "name": "Eve"}], "returning": ["id"]}');
SELECT 'success/insert_data on_conflict skip (skippedRows)', ai_tool_call('insert_data',
    '{"table": "customers", "rows": [{"id": 1, "name": "Ada again"}, {"id": 12, "name": "Fay"}], "on_conflict": "skip"}');
SELECT 'success/insert_data on_conflict update (upsert)', ai_tool_call('insert_data',
    '{"table": "customers", "rows": {"id": 12, "name": "Fay Updated"}, "on_conflict": "update", "conflict_columns": ["id"]}');
SELECT 'success/insert_data returning none', ai_tool_call('insert_data',
    '{"table": "customers", "rows": {"id": 13, "name": "Gus"}, "returning": []}');

-- update_data
SELECT 'success/update_data with where', ai_tool_call('update_data',
    '{"table": "orders", "set": {"status": "paid"}, "where": {"id": {"in": [1, 2]}}}');
SELECT 'success/update_data dry_run', ai_tool_call('update_data',
    '{"table": "orders", "set": {"status": "cancelled"}, "where": "id <= 3", "dry_run": true}');
SELECT 'success/update_data matching no rows', ai_tool_call('update_data',
    '{"table": "orders", "set": {"status": "x"}, "where": {"id": -1}}');
SELECT 'success/update_data confirm_all_rows (warning)', ai_tool_call('update_data',
    '{"table": "blobs", "set": {"body": "y"}, "confirm_all_rows": true, "returning": []}');

-- delete_data
SELECT 'success/delete_data with where', ai_tool_call('delete_data',
    '{"table": "customers", "where": {"id": 13}}');
SELECT 'success/delete_data dry_run', ai_tool_call('delete_data',
    '{"table": "orders", "where": {"status": "shipped"}, "dry_run": true}');
SELECT 'success/delete_data mode truncate', ai_tool_call('delete_data',
    '{"table": "scratch_truncate", "mode": "truncate", "confirm": true}');
SELECT 'success/delete_data mode drop, dry_run', ai_tool_call('delete_data',
    '{"table": "scratch_drop", "mode": "drop", "confirm": true, "dry_run": true}');
SELECT 'success/delete_data mode drop', ai_tool_call('delete_data',
    '{"table": "scratch_drop", "mode": "drop", "confirm": true}');

-- a rule that changes one more row than the statement: affectedRows is
-- every row, statementAffectedRows the statement's own
SELECT 'success/update_data through a rule (statementAffectedRows)', ai_tool_call('update_data',
    '{"table": "ruled", "set": {"v": "b"}, "where": {"id": 1}}');
SELECT 'success/execute_sql mode multiple through a rule (statementAffectedRows)', ai_tool_call('execute_sql',
    '{"sql": "UPDATE env.ruled SET v = $1 WHERE id = 1; SELECT 1 AS one", "params": ["c"], "mode": "multiple"}');

-- execute_sql
SELECT 'success/execute_sql query with params', ai_tool_call('execute_sql',
    '{"sql": "SELECT c.name, count(o.id) AS n, sum(o.total) AS total FROM env.customers c LEFT JOIN env.orders o ON o.customer_id = c.id WHERE c.id <= $1 GROUP BY c.name ORDER BY c.name", "params": [3]}');
SELECT 'success/execute_sql DML (affectedRows, no rows)', ai_tool_call('execute_sql',
    '{"sql": "UPDATE env.orders SET status = $1 WHERE id = $2", "params": ["open", 3]}');
SELECT 'success/execute_sql DML with RETURNING', ai_tool_call('execute_sql',
    '{"sql": "UPDATE env.orders SET total = total WHERE id <= 2 RETURNING id, total"}');
SELECT 'success/execute_sql DDL', ai_tool_call('execute_sql',
    '{"sql": "CREATE TABLE env.made_by_agent (id int)"}');
SELECT 'success/execute_sql read_only query, truncated by limit', ai_tool_call('execute_sql',
    '{"sql": "SELECT g FROM generate_series(1, 50) g", "read_only": true, "limit": 5}');
SELECT 'success/execute_sql SHOW', ai_tool_call('execute_sql',
    '{"sql": "SHOW neon_ai_tools.row_limit"}');
SELECT 'success/execute_sql mode multiple', ai_tool_call('execute_sql',
    '{"sql": "SELECT 1 AS a; UPDATE env.orders SET total = total WHERE id = 1; INSERT INTO env.made_by_agent VALUES (1) RETURNING id; DROP TABLE env.made_by_agent", "mode": "multiple"}');
SELECT 'success/execute_sql mode multiple, truncated statement', ai_tool_call('execute_sql',
    '{"sql": "SELECT g FROM generate_series(1, 10) g; SELECT 2 AS b", "mode": "multiple", "limit": 3}');

-- explain_query
SELECT 'success/explain_query', ai_tool_call('explain_query',
    '{"sql": "SELECT * FROM env.orders WHERE id = $1", "params": [1]}');
SELECT 'success/explain_query analyze', ai_tool_call('explain_query',
    '{"sql": "SELECT count(*) FROM env.orders", "analyze": true}');

-- list_tables, describe_table
SELECT 'success/list_tables schema', ai_tool_call('list_tables', '{"schema": "env"}');
SELECT 'success/list_tables pattern, none found', ai_tool_call('list_tables', '{"pattern": "no_such_%"}');
SELECT 'success/describe_table', ai_tool_call('describe_table', '{"table": "orders"}');
SELECT 'success/describe_table view', ai_tool_call('describe_table', '{"table": "slow_view"}');

-- =========================================================================
-- Errors: one or more of every category of the README's Results section
-- =========================================================================

-- invalid_table (by name resolution; 42P01 inside the agent's SQL; 3F000)
SELECT 'invalid_table/select_query misspelt table', ai_tool_call('select_query', '{"table": "custmers"}');
SELECT 'invalid_table/execute_sql 42P01', ai_tool_call('execute_sql', '{"sql": "SELECT * FROM env.no_such_table"}');
SELECT 'invalid_table/select_query unknown schema', ai_tool_call('select_query', '{"table": "nowhere.orders"}');
SELECT 'invalid_table/execute_sql misspelt table with did-you-mean', ai_tool_call('execute_sql', '{"sql": "SELECT * FROM custmers"}');

-- invalid_column
SELECT 'invalid_column/select_query misspelt column', ai_tool_call('select_query',
    '{"table": "orders", "columns": ["id", "totl"]}');
SELECT 'invalid_column/insert_data unknown key', ai_tool_call('insert_data',
    '{"table": "customers", "rows": {"id": 20, "nam": "Hal"}}');
SELECT 'invalid_column/execute_sql 42703', ai_tool_call('execute_sql',
    '{"sql": "SELECT nme FROM env.customers"}');

-- syntax_error
SELECT 'syntax_error/execute_sql 42601', ai_tool_call('execute_sql', '{"sql": "SELEC 1"}');
SELECT 'syntax_error/execute_sql other class 42 (42883)', ai_tool_call('execute_sql',
    '{"sql": "SELECT no_such_function(1)"}');

-- constraint_violation, the four kinds
SELECT 'constraint_violation:unique_constraint/insert duplicate key', ai_tool_call('insert_data',
    '{"table": "customers", "rows": {"id": 1, "name": "Ada twin"}}');
SELECT 'constraint_violation:unique_constraint/update to a taken email', ai_tool_call('update_data',
    '{"table": "customers", "set": {"email": "ada@example.com"}, "where": {"id": 2}}');
SELECT 'constraint_violation:foreign_key_constraint/insert unknown customer', ai_tool_call('insert_data',
    '{"table": "orders", "rows": {"customer_id": 999, "total": 1}}');
SELECT 'constraint_violation:foreign_key_constraint/delete a referenced row', ai_tool_call('delete_data',
    '{"table": "customers", "where": {"id": 1}}');
SELECT 'constraint_violation:not_null_constraint/insert without name', ai_tool_call('insert_data',
    '{"table": "customers", "rows": {"id": 21}}');
SELECT 'constraint_violation:check_constraint/negative total', ai_tool_call('insert_data',
    '{"table": "orders", "rows": {"customer_id": 1, "total": -5}}');
SELECT 'constraint_violation:unique_constraint/exclusion constraint 23P01', ai_tool_call('insert_data',
    '{"table": "bookings", "rows": {"id": 2, "during": "[2024-01-01 10:30, 2024-01-01 12:00)"}}');
-- other class-23 SQLSTATEs: see KNOWN_VIOLATIONS in validate.mjs
SELECT 'constraint_violation/delete refused by a trigger raising 23001 (emulated)', ai_tool_call('delete_data',
    '{"table": "archive", "where": {"id": 1}}');

-- dependent_objects: found before running, and 2BP01 from the server
SELECT 'dependent_objects/delete_data drop a referenced table', ai_tool_call('delete_data',
    '{"table": "customers", "mode": "drop", "confirm": true}');
SELECT 'dependent_objects/delete_data truncate a referenced table', ai_tool_call('delete_data',
    '{"table": "customers", "mode": "truncate", "confirm": true}');
SELECT 'dependent_objects/execute_sql DROP TABLE 2BP01', ai_tool_call('execute_sql',
    '{"sql": "DROP TABLE env.customers"}');

-- already_exists
SELECT 'already_exists/execute_sql CREATE TABLE 42P07', ai_tool_call('execute_sql',
    '{"sql": "CREATE TABLE env.orders (id int)"}');
SELECT 'already_exists/execute_sql ADD COLUMN 42701', ai_tool_call('execute_sql',
    '{"sql": "ALTER TABLE env.orders ADD COLUMN status text"}');

-- invalid_input
SELECT 'invalid_input/insert_data value of the wrong type', ai_tool_call('insert_data',
    '{"table": "orders", "rows": [{"customer_id": 1}, {"customer_id": "abc"}]}');
SELECT 'invalid_input/execute_sql division by zero 22012', ai_tool_call('execute_sql',
    '{"sql": "SELECT 1 / 0"}');
SELECT 'invalid_input/select_query where value of the wrong type', ai_tool_call('select_query',
    '{"table": "orders", "where": {"id": "seven"}}');

-- permission_denied, as a role without privileges
SET ROLE envelope_agent;
SELECT 'permission_denied/select_query without SELECT', ai_tool_call('select_query', '{"table": "env.secrets"}');
SELECT 'permission_denied/describe_table without any privilege', ai_tool_call('describe_table', '{"table": "env.secrets"}');
SELECT 'permission_denied/execute_sql 42501', ai_tool_call('execute_sql', '{"sql": "SELECT * FROM env.secrets"}');
SELECT 'success/list_tables as a role that sees nothing', ai_tool_call('list_tables', '{"schema": "env"}');
SELECT 'success/list_tables schema without USAGE (warning)', ai_tool_call('list_tables', '{"schema": "env_hidden"}');
RESET ROLE;

-- read_only_violation
SELECT 'read_only_violation/select_query view that writes', ai_tool_call('select_query', '{"table": "writing_view"}');
SELECT 'read_only_violation/execute_sql read_only write through a function', ai_tool_call('execute_sql',
    '{"sql": "SELECT env.writer()", "read_only": true}');

-- timeout: our timer, and a real lock wait against the second session
SELECT 'timeout/select_query our timer (57014)', ai_tool_call('select_query',
    '{"table": "slow_view", "timeout_ms": 200}');
SELECT dblink_exec('other', 'BEGIN; LOCK TABLE env.blobs IN ACCESS EXCLUSIVE MODE') \g /dev/null
SET neon_ai_tools.lock_timeout = '200ms';
SELECT 'timeout/select_query lock timeout (55P03), lock held by another session', ai_tool_call('select_query',
    '{"table": "blobs", "columns": ["id"]}');
RESET neon_ai_tools.lock_timeout;
SELECT dblink_exec('other', 'ROLLBACK') \g /dev/null

-- conflict: a real serialization failure (40001) ...
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM env.orders \g /dev/null
SELECT dblink_exec('other', 'UPDATE env.orders SET status = ''changed'' WHERE id = 5') \g /dev/null
SELECT 'conflict:serialization_failure/update_data row changed by a concurrent transaction', ai_tool_call('update_data',
    '{"table": "orders", "set": {"status": "mine"}, "where": {"id": 5}}');
ROLLBACK;
-- ... and a real deadlock (40P01): we hold row 6, the other session holds
-- row 7 and waits for row 6, our call then asks for row 7.  Our
-- deadlock_timeout is the shorter, so our call is the one that fails.
BEGIN;
SET LOCAL deadlock_timeout = '100ms';
SELECT id FROM env.orders WHERE id = 6 FOR UPDATE \g /dev/null
SELECT dblink_exec('other', 'BEGIN; UPDATE env.orders SET total = total WHERE id = 7') \g /dev/null
SELECT dblink_send_query('other', 'UPDATE env.orders SET total = total WHERE id = 6') \g /dev/null
-- wait until the other session is really waiting for our lock
DO $$
DECLARE
  i int;
BEGIN
  FOR i IN 1 .. 200 LOOP
    EXIT WHEN EXISTS (SELECT FROM pg_stat_activity
                      WHERE pid <> pg_backend_pid() AND wait_event_type = 'Lock'
                        AND datname = current_database());
    PERFORM pg_sleep(0.05);
  END LOOP;
END $$;
SELECT 'conflict:deadlock/update_data deadlock with another session', ai_tool_call('update_data',
    '{"table": "orders", "set": {"status": "mine"}, "where": {"id": 7}}');
ROLLBACK;
SELECT * FROM dblink_get_result('other') AS r(status text) \g /dev/null
SELECT * FROM dblink_get_result('other') AS r(status text) \g /dev/null
SELECT dblink_exec('other', 'ROLLBACK') \g /dev/null

-- resource_exhausted: a sort that spills past temp_file_limit (53400)
SET work_mem = '64kB';
SET temp_file_limit = '256kB';
SELECT 'resource_exhausted/execute_sql temp_file_limit 53400', ai_tool_call('execute_sql',
    '{"sql": "SELECT md5(g::text) AS h FROM generate_series(1, 100000) g ORDER BY 1", "limit": 1}');
RESET temp_file_limit;
RESET work_mem;
SELECT 'resource_exhausted/execute_sql program limit 54000', ai_tool_call('execute_sql',
    '{"sql": "SELECT repeat(''x'', 1024 * 1024 * 1024)"}');

-- connection_error: postgres_fdw to a closed port (08001)
SELECT 'connection_error/select_query foreign table, server down', ai_tool_call('select_query',
    '{"table": "remote_orders"}');

-- authentication_error (emulated: see the top of this file)
SELECT 'authentication_error/select_query view raising 28P01 (emulated)', ai_tool_call('select_query',
    '{"table": "auth_failure_view"}');

-- invalid_parameters
SELECT 'invalid_parameters/misspelt argument', ai_tool_call('select_query', '{"table": "orders", "limt": 5}');
SELECT 'invalid_parameters/wrong JSON type', ai_tool_call('select_query', '{"table": "orders", "limit": "ten"}');
SELECT 'invalid_parameters/bad enum in nested array', ai_tool_call('select_query',
    '{"table": "orders", "order_by": [{"column": "id", "direction": "up"}]}');
SELECT 'invalid_parameters/missing required argument', ai_tool_call('insert_data', '{"table": "orders"}');
SELECT 'invalid_parameters/refused SQL filter', ai_tool_call('select_query',
    '{"table": "orders", "where": "id = (SELECT 1)"}');
SELECT 'invalid_parameters/execute_sql two statements in single mode', ai_tool_call('execute_sql',
    '{"sql": "SELECT 1; SELECT 2"}');
SELECT 'invalid_parameters/execute_sql refused statement', ai_tool_call('execute_sql', '{"sql": "COMMIT"}');

-- unknown_tool
SELECT 'unknown_tool/misspelt tool', ai_tool_call('selct_query', '{}');
SELECT 'unknown_tool/nothing close', ai_tool_call('launch_rockets', '{}');
SELECT 'unknown_tool/empty tool name', ai_tool_call('', '{}');

-- confirmation_required
SELECT 'confirmation_required/delete without where', ai_tool_call('delete_data', '{"table": "orders"}');
SELECT 'confirmation_required/update without where', ai_tool_call('update_data',
    '{"table": "orders", "set": {"status": "x"}}');
SELECT 'confirmation_required/truncate without confirm', ai_tool_call('delete_data',
    '{"table": "orders", "mode": "truncate"}');

-- resource_limit: one allocation larger than neon_ai_tools.max_call_memory
SET neon_ai_tools.max_call_memory = '16MB';
SELECT 'resource_limit:limit_exceeded/execute_sql past max_call_memory', ai_tool_call('execute_sql',
    '{"sql": "SELECT array_length(array_fill(1, ARRAY[50000000]), 1)"}');
RESET neon_ai_tools.max_call_memory;

-- limit_exceeded
SELECT 'limit_exceeded/update_data past max_affected', ai_tool_call('update_data',
    '{"table": "orders", "set": {"status": "x"}, "where": "id > 0", "max_affected": 2}');
SELECT 'limit_exceeded/execute_sql past max_affected', ai_tool_call('execute_sql',
    '{"sql": "DELETE FROM env.orders", "max_affected": 1}');

-- tool_disabled
SET neon_ai_tools.enabled_tools = 'select_query, list_tables';
SELECT 'tool_disabled/insert_data not enabled', ai_tool_call('insert_data',
    '{"table": "customers", "rows": {"id": 30, "name": "Ivy"}}');
RESET neon_ai_tools.enabled_tools;
SET neon_ai_tools.read_only = on;
SELECT 'tool_disabled/write tool under neon_ai_tools.read_only', ai_tool_call('delete_data',
    '{"table": "orders", "where": {"id": 1}}');
RESET neon_ai_tools.read_only;

-- unknown_error: an SQLSTATE outside every class of section 4 (P0001)
SELECT 'unknown_error/select_query view raising P0001', ai_tool_call('select_query', '{"table": "boom_view"}');
SELECT 'unknown_error/execute_sql RAISE EXCEPTION', ai_tool_call('execute_sql',
    '{"sql": "DO $x$ BEGIN RAISE EXCEPTION ''custom failure''; END $x$"}');
SELECT 'unknown_error/execute_sql RAISE with every field empty', ai_tool_call('execute_sql',
    '{"sql": "DO $x$ BEGIN RAISE EXCEPTION USING MESSAGE = '''', DETAIL = '''', HINT = '''', COLUMN = '''', CONSTRAINT = '''', DATATYPE = '''', TABLE = '''', SCHEMA = ''''; END $x$"}');
-- Citus's distribution-column errors, raised with Citus's texts and codes
SELECT 'constraint_violation:check_constraint/Citus distribution column update (0A000)', ai_tool_call('execute_sql',
    '{"sql": "SELECT raise_state(''0A000'', ''modifying the partition value of rows is not allowed'')"}');
SELECT 'constraint_violation:not_null_constraint/Citus NULL distribution column (22004)', ai_tool_call('execute_sql',
    '{"sql": "SELECT raise_state(''22004'', ''the partition column of table env.orders cannot be NULL'')"}');

-- --- custom tools and ai_tool_run (issue 17) ---------------------------------
SELECT ai_tool_define('env_orders_of', 'Orders of one customer.',
    'SELECT * FROM env.orders WHERE customer_id = $1', '[{"name": "customer_id", "type": "int"}]') \g /dev/null
SELECT ai_tool_define('env_add_tag', 'Adds an order.',
    'INSERT INTO env.orders (id, customer_id) VALUES ($1, $2) RETURNING id', '[{"name": "id", "type": "int"}, {"name": "customer", "type": "int"}]') \g /dev/null
SELECT 'success/custom tool query', ai_tool_call('env_orders_of', '{"customer_id": 1}');
SELECT 'invalid_parameters/custom tool bad argument', ai_tool_call('env_orders_of', '{"customer_id": "x"}');
SELECT 'constraint_violation/custom tool write', ai_tool_call('env_add_tag', '{"id": 1, "customer": 1}');
-- ai_tool_run's own answers for calls it does not run
SELECT 'invalid_parameters/ai_tool_run arguments not JSON',
    (ai_tool_run('{"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "env_orders_of", "arguments": "{"}}]}') -> 0 ->> 'content')::jsonb;
SET neon_ai_tools.max_tool_calls = 1;
SELECT 'limit_exceeded/ai_tool_run past max_tool_calls',
    ai_tool_run('[{"type": "tool_use", "id": "a", "name": "env_orders_of", "input": {"customer_id": 1}}, {"type": "tool_use", "id": "b", "name": "env_orders_of", "input": {"customer_id": 1}}]') -> 0 -> 'content' -> 1 ->> 'content';
RESET neon_ai_tools.max_tool_calls;
SELECT ai_tool_drop('env_orders_of') \g /dev/null
SELECT ai_tool_drop('env_add_tag') \g /dev/null

-- --- cleanup -------------------------------------------------------------------
SELECT dblink_disconnect('other') \g /dev/null
DROP SCHEMA env, env_hidden CASCADE;
DROP SERVER closed_port CASCADE;
DROP OWNED BY envelope_agent;
DROP ROLE envelope_agent;
