-- enforcement: the guarantees hold at every level the engine executes, not
-- only in the agent's own statement.  Read-only by an allow-list of
-- functions; no session state outlives a call, in any mode; names never
-- resolve to pg_temp; a cancel raised by agent code is an answer; hints
-- never name what the role may not read.  After each group, the session
-- is shown unchanged.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
CREATE EXTENSION IF NOT EXISTS dblink;
RESET client_min_messages;
CREATE SCHEMA enf;
CREATE TABLE enf.orders (id int PRIMARY KEY, note text);
INSERT INTO enf.orders VALUES (1, 'real'), (2, 'real');
CREATE TABLE enf.log (entry text);
CREATE SEQUENCE enf.seq;
CREATE FUNCTION enf.writer() RETURNS int LANGUAGE plpgsql AS $$
BEGIN INSERT INTO enf.log VALUES ('written'); RETURN 1; END $$;
-- Citus's run_command_on_workers() runs SQL elsewhere; a stand-in of the same shape
CREATE FUNCTION enf.run_command_on_workers(cmd text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE cmd; RETURN 'done'; END $$;
CREATE FUNCTION enf.reader() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM enf.orders';
CREATE FUNCTION enf.stable_reader() RETURNS bigint LANGUAGE sql STABLE AS 'SELECT count(*) FROM enf.orders';
CREATE ROLE regress_enf_agent;
GRANT USAGE ON SCHEMA enf TO regress_enf_agent;
GRANT SELECT, INSERT, UPDATE, DELETE ON enf.orders TO regress_enf_agent;
GRANT INSERT ON enf.log TO regress_enf_agent;
GRANT USAGE, UPDATE ON SEQUENCE enf.seq TO regress_enf_agent;
GRANT EXECUTE ON FUNCTION dblink_exec(text, text) TO regress_enf_agent;
CREATE FUNCTION enf.ro(sql text) RETURNS jsonb LANGUAGE sql AS $$
  SELECT ai_tool_call('execute_sql', jsonb_build_object('sql', sql, 'read_only', true)) $$;
CREATE FUNCTION enf.rw(sql text) RETURNS jsonb LANGUAGE sql AS $$
  SELECT ai_tool_call('execute_sql', jsonb_build_object('sql', sql)) $$;
CREATE VIEW enf.state AS SELECT
  (SELECT count(*) FROM pg_largeobject_metadata) AS large_objects,
  (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory') AS advisory_locks,
  (SELECT count(*) FROM pg_listening_channels()) AS listening,
  (SELECT count(*) FROM pg_prepared_statements) AS prepared,
  (SELECT count(*) FROM pg_cursors) AS cursors,
  (SELECT count(*) FROM pg_class WHERE relpersistence = 't') AS temp_relations,
  (SELECT count(*) FROM pg_proc WHERE pronamespace = pg_my_temp_schema()) AS temp_functions,
  (SELECT count(*) FROM enf.log) AS written,
  (SELECT last_value FROM enf.seq) AS seq,
  current_setting('work_mem') AS work_mem;
GRANT SELECT ON enf.state TO regress_enf_agent;
GRANT SELECT ON enf.seq TO regress_enf_agent;
SELECT * FROM enf.state;

SET ROLE regress_enf_agent;

-- 1. read-only escapes through SQL that runs SQL: refused where they run,
-- whatever wraps them
SELECT sql, r ->> 'errorType' AS error_type, r ->> 'error' AS error
FROM unnest(ARRAY[
  $q$SELECT query_to_xml('SELECT lo_from_bytea(0, ''\x414243''::bytea)', true, true, '')$q$,
  $q$SELECT query_to_xml('SELECT lo_put(1, 0, ''\x41'')', true, true, '')$q$,
  $q$SELECT query_to_xml('SELECT lo_unlink(1)', true, true, '')$q$,
  $q$SELECT query_to_xml('SELECT pg_advisory_lock(4242)', true, true, '')$q$,
  $q$SELECT query_to_xml('SELECT pg_notify(''c'', ''x'')', true, true, '')$q$,
  $q$SELECT query_to_xml('SELECT pg_terminate_backend(pg_backend_pid())', true, true, '')$q$,
  $q$SELECT query_to_xml('SELECT nextval(''enf.seq'')', true, true, '')$q$,
  $q$SELECT query_to_xml('SELECT enf.writer()', true, true, '')$q$,
  $q$SELECT query_to_xmlschema('SELECT enf.writer()', true, true, '')$q$,
  $q$SELECT * FROM ts_stat('SELECT to_tsvector(lo_from_bytea(0, ''\x41'')::text)')$q$,
  $q$SELECT cursor_to_xml('c'::refcursor, 1, true, true, '')$q$,
  $q$SELECT dblink_exec('dbname=contrib_regression', 'UPDATE enf.orders SET note = ''x''')$q$,
  $q$SELECT * FROM enf.run_command_on_workers('UPDATE enf.orders SET note = ''x'' WHERE id = 1')$q$,
  $q$SELECT enf.reader()$q$,
  $q$SELECT pg_advisory_unlock_all()$q$,
  $q$SELECT set_config('work_mem', '99MB', false)$q$,
  $q$SELECT setseed(0.5)$q$
]) sql, LATERAL enf.ro(sql) r;
-- the engine's read-only transaction stays as the second wall, and volatile
-- functions without side effects run
SELECT r ->> 'status' AS status, r -> 'data' -> 0 AS results
FROM enf.ro($q$SELECT random() BETWEEN 0 AND 1 AS random, clock_timestamp() IS NOT NULL AS clock,
               timeofday() IS NOT NULL AS timeofday, gen_random_uuid() IS NOT NULL AS uuid,
               pg_sleep(0)::text = '' AS slept, enf.stable_reader() AS stable_reader,
               query_to_xml('SELECT id FROM enf.orders', true, true, '') IS NOT NULL AS query_to_xml$q$) r;
-- an RLS policy, a view and a PL/pgSQL function: levels below the statement
RESET ROLE;
CREATE TABLE enf.guarded (id int, owner text);
INSERT INTO enf.guarded VALUES (1, 'regress_enf_agent');
ALTER TABLE enf.guarded ENABLE ROW LEVEL SECURITY;
CREATE POLICY p ON enf.guarded USING (enf.writer() = 1);
GRANT SELECT ON enf.guarded TO regress_enf_agent;
CREATE VIEW enf.writing_view AS SELECT enf.writer() AS w;
GRANT SELECT ON enf.writing_view TO regress_enf_agent;
CREATE FUNCTION enf.stable_wrapper() RETURNS int LANGUAGE plpgsql STABLE AS $$
DECLARE v oid; BEGIN v := lo_from_bytea(0, '\x41'); RETURN 1; END $$;
SET ROLE regress_enf_agent;
SELECT ai_tool_call('select_query', '{"table": "enf.guarded"}') ->> 'error' AS rls_policy;
SELECT ai_tool_call('select_query', '{"table": "enf.writing_view"}') ->> 'error' AS view;
SELECT enf.ro('SELECT enf.stable_wrapper()') ->> 'error' AS plpgsql_assignment;
SELECT enf.ro('DO $$BEGIN PERFORM lo_from_bytea(0, ''\x41''); END$$') ->> 'error' AS do_block;
SELECT ai_tool_call('explain_query', '{"sql": "SELECT query_to_xml(''SELECT enf.writer()'', true, true, '''')", "analyze": true}') ->> 'error' AS explain_analyze;
SELECT ai_tool_call('select_query', '{"table": "enf.orders", "where": "id = 1 AND query_to_xml(''SELECT enf.writer()'', true, true, '''') IS NOT NULL"}') ->> 'errorType' AS where_string;
SELECT * FROM enf.state;

-- an administrator can allow more volatile functions for read-only calls,
-- schema-qualified only
RESET ROLE;
SET neon_ai_tools.read_only_allowed_functions = 'enf.reader';
SET ROLE regress_enf_agent;
SELECT enf.ro('SELECT enf.reader() AS n') -> 'data' AS allowed;
SELECT enf.ro('SELECT enf.writer()') ->> 'errorType' AS still_refused;
SET neon_ai_tools.read_only_allowed_functions = 'enf.writer';
RESET ROLE;
SET neon_ai_tools.read_only_allowed_functions = 'reader';
RESET neon_ai_tools.read_only_allowed_functions;
SET ROLE regress_enf_agent;

-- 2. session state: refused at every level, in writing calls too
SELECT sql, r ->> 'errorType' AS error_type, r ->> 'error' AS error
FROM unnest(ARRAY[
  $q$DO $$BEGIN EXECUTE 'LISTEN ch'; END$$$q$,
  $q$DO $$BEGIN EXECUTE 'UNLISTEN *'; END$$$q$,
  $q$DO $$BEGIN EXECUTE 'PREPARE p AS SELECT 1'; END$$$q$,
  $q$DO $$BEGIN EXECUTE 'DEALLOCATE ALL'; END$$$q$,
  $q$DO $$BEGIN EXECUTE 'DECLARE c CURSOR WITH HOLD FOR SELECT 1'; END$$$q$,
  $q$DO $$BEGIN EXECUTE 'DISCARD TEMP'; END$$$q$,
  $q$DO $$BEGIN EXECUTE 'LOAD ''neon_ai_tools'''; END$$$q$,
  $q$DO $$BEGIN PERFORM pg_advisory_lock(11); END$$$q$,
  $q$SELECT pg_try_advisory_lock(12)$q$,
  $q$SELECT pg_advisory_unlock_all()$q$,
  $q$DO $$BEGIN SET work_mem = '3MB'; END$$$q$,
  $q$DO $$BEGIN RESET work_mem; END$$$q$,
  $q$DO $$BEGIN CREATE TEMP TABLE orders (id int, note text); END$$$q$,
  $q$DO $$BEGIN CREATE TABLE pg_temp.orders (id int, note text); END$$$q$,
  $q$DO $$BEGIN CREATE TEMP VIEW v AS SELECT 1; END$$$q$,
  $q$DO $$BEGIN CREATE TEMP SEQUENCE s; END$$$q$,
  $q$DO $$BEGIN EXECUTE 'CREATE TEMP TABLE t AS SELECT 1'; END$$$q$,
  $q$DO $$BEGIN CREATE FUNCTION pg_temp.f() RETURNS int LANGUAGE sql AS 'SELECT 1'; END$$$q$
]) sql, LATERAL enf.rw(sql) r;
-- an SQL function and a trigger run them one level further down
RESET ROLE;
CREATE FUNCTION enf.listen_fn() RETURNS int LANGUAGE sql AS 'LISTEN ch_sql; SELECT 1';
CREATE FUNCTION enf.lock_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_advisory_lock(13); EXECUTE 'LISTEN ch_trigger'; RETURN NEW; END $$;
CREATE TRIGGER lock_on_insert BEFORE INSERT ON enf.log FOR EACH ROW EXECUTE FUNCTION enf.lock_trigger();
SET ROLE regress_enf_agent;
SELECT enf.rw('SELECT enf.listen_fn()') ->> 'error' AS sql_function;
SELECT ai_tool_call('insert_data', '{"table": "enf.log", "rows": {"entry": "x"}}') ->> 'error' AS trigger;
-- what a call may do: SET LOCAL, transaction-level locks, NOTIFY when writing
SELECT enf.rw($q$DO $$BEGIN SET LOCAL work_mem = '3MB'; PERFORM pg_advisory_xact_lock(14); END$$$q$) ->> 'status' AS allowed;
SELECT * FROM enf.state;

-- what would run after the call, at the caller's commit, is refused too
RESET ROLE;
GRANT CREATE ON SCHEMA enf TO regress_enf_agent;
SET ROLE regress_enf_agent;
SELECT ai_tool_call('execute_sql', jsonb_build_object('mode', 'multiple', 'sql',
  $q$CREATE TABLE enf.t (id int); CREATE FUNCTION enf.late() RETURNS trigger LANGUAGE plpgsql AS $f$BEGIN EXECUTE 'LISTEN evil'; RETURN NULL; END$f$; CREATE CONSTRAINT TRIGGER late AFTER INSERT ON enf.t DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION enf.late()$q$)) ->> 'error' AS deferred_trigger;
SELECT ai_tool_call('execute_sql', $j${"mode": "multiple", "sql": "SET CONSTRAINTS ALL DEFERRED; SELECT 1"}$j$) ->> 'error' AS set_constraints_deferred;
SELECT enf.rw($q$DO $$BEGIN SET CONSTRAINTS ALL DEFERRED; END$$$q$) ->> 'error' AS nested_set_constraints;
-- signalling a backend (its own included) and reseeding random() reach beyond the call
BEGIN;
SELECT enf.rw('SELECT pg_cancel_backend(pg_backend_pid()), pg_sleep(0.2)') ->> 'error' AS cancel_own_backend;
SELECT enf.rw('SELECT setseed(0.42)') ->> 'error' AS setseed;
SELECT count(*) AS transaction_still_usable FROM enf.orders;
COMMIT;
-- functions the planner calls itself: an operator whose selectivity
-- estimator evaluates it on the column's statistics, through a view
RESET ROLE;
CREATE TABLE enf.keys (k int);
INSERT INTO enf.keys SELECT 4242 FROM generate_series(1, 100);
ANALYZE enf.keys;
CREATE OPERATOR enf.==> (LEFTARG = int, RIGHTARG = int, FUNCTION = pg_catalog.pg_try_advisory_lock, RESTRICT = eqsel);
CREATE VIEW enf.planner_view AS SELECT * FROM enf.keys WHERE k OPERATOR(enf.==>) 7;
GRANT SELECT ON enf.keys, enf.planner_view TO regress_enf_agent;
SET ROLE regress_enf_agent;
SELECT ai_tool_call('select_query', '{"table": "enf.planner_view", "limit": 1}') ->> 'error' AS planner_time_call;
SELECT ai_tool_call('explain_query', '{"sql": "SELECT * FROM enf.planner_view"}') ->> 'error' AS explain_planner_time_call;
SELECT count(*) AS advisory_locks FROM pg_locks WHERE locktype = 'advisory';
-- plans made in a call may be parallel: the guard holds in the workers
-- (test/t/012_parallel_guard.pl shows it)
RESET ROLE;
CREATE TABLE enf.big AS SELECT g AS id FROM generate_series(1, 50000) g;
ANALYZE enf.big;
GRANT SELECT ON enf.big TO regress_enf_agent;
CREATE FUNCTION enf.plan_has_gather(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN ' || q LOOP
    IF line LIKE '%Gather%' THEN RETURN true; END IF;
  END LOOP;
  RETURN false;
END $$;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET ROLE regress_enf_agent;
SELECT enf.plan_has_gather('SELECT count(*) FROM enf.big') AS parallel_outside_a_call;
SELECT (ai_tool_call('explain_query', '{"sql": "SELECT count(*) FROM enf.big"}') -> 'data')::text LIKE '%Gather%' AS parallel_in_a_call;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
-- REFRESH ... CONCURRENTLY makes its own temporary diff table: allowed
RESET ROLE;
CREATE MATERIALIZED VIEW enf.order_count AS SELECT 1 AS k, count(*) AS n FROM enf.orders;
CREATE UNIQUE INDEX ON enf.order_count (k);
SELECT ai_tool_call('execute_sql', '{"sql": "REFRESH MATERIALIZED VIEW CONCURRENTLY enf.order_count"}') ->> 'status' AS refresh_concurrently;
SET ROLE regress_enf_agent;
SELECT * FROM enf.state;

-- 3. a temporary table the caller made never stands in for the real one
RESET ROLE;
SET ROLE regress_enf_agent;
CREATE TEMP TABLE orders (id int PRIMARY KEY, note text);
INSERT INTO orders VALUES (1, 'planted');
SET search_path = enf, public;
SELECT ai_tool_call('select_query', '{"table": "orders", "order_by": "id"}') -> 'data' AS reads_the_real_table;
SELECT ai_tool_call('insert_data', '{"table": "orders", "rows": {"id": 3, "note": "agent"}}') ->> 'table' AS writes_the_real_table;
SELECT ai_tool_call('describe_table', '{"table": "orders"}') -> 'data' -> 0 ->> 'schema' AS describes_the_real_table;
SELECT ai_tool_call('select_query', '{"table": "pg_temp.orders"}') ->> 'errorType' AS pg_temp_is_not_found;
SELECT ai_tool_call('list_tables', '{"pattern": "orders"}') -> 'data' AS lists_only_the_real_table;
SELECT enf.rw('CREATE INDEX ON pg_temp.orders (note)') ->> 'error' AS index_on_temp;
SELECT enf.rw($q$DO $$BEGIN CREATE TRIGGER tr BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION enf.lock_trigger(); END$$$q$) ->> 'error' AS trigger_on_temp;
SELECT enf.rw($q$DO $$BEGIN EXECUTE 'ALTER TABLE pg_temp.orders ADD COLUMN x int'; END$$$q$) ->> 'error' AS alter_temp;
SELECT note FROM pg_temp.orders;
SELECT note FROM enf.orders ORDER BY id;
DROP TABLE pg_temp.orders;
RESET search_path;

-- 4. a cancel raised by agent code is an answer; the transaction goes on
BEGIN;
SELECT r ->> 'errorType' AS error_type, r ->> 'sqlState' AS sql_state, r ->> 'error' AS error
FROM enf.rw($q$DO $$BEGIN RAISE EXCEPTION 'stop' USING ERRCODE = 'query_canceled'; END$$$q$) r;
SELECT r ->> 'errorType' AS error_type, r ->> 'sqlState' AS sql_state
FROM enf.rw($q$DO $$BEGIN ASSERT false, 'agent assertion'; END$$$q$) r;
SELECT count(*) AS transaction_still_usable FROM enf.orders;
COMMIT;

-- 5. no privilege: refused before any lock is taken (with a lock held
-- elsewhere, see test/t/008_enforcement.pl)
RESET ROLE;
CREATE TABLE enf.private (id int, secret text);
SET ROLE regress_enf_agent;
SELECT ai_tool_call('describe_table', '{"table": "enf.private"}') ->> 'error' AS describe;
SELECT ai_tool_call('select_query', '{"table": "enf.private"}') ->> 'error' AS select_query;
SELECT count(*) AS locks_taken FROM pg_locks WHERE relation = 'enf.private'::regclass;

-- 6. a hint never names a column the role may not read
RESET ROLE;
CREATE TABLE enf.users (id int, name text, ssn text);
GRANT SELECT (id, name) ON enf.users TO regress_enf_agent;
SET ROLE regress_enf_agent;
SET search_path = enf, public;
SELECT r ->> 'error' AS error, r ->> 'suggestion' AS suggestion, r::text LIKE '%ssn%' AS names_ssn
FROM enf.rw('SELECT sn FROM users') r;
-- a column it may read is still suggested
SELECT r ->> 'suggestion' AS suggestion
FROM enf.rw('SELECT nme FROM users') r;
-- an alias that is also the name of another, readable table does not fool it
RESET ROLE;
CREATE TABLE enf.pub (id int, ssn text);
GRANT SELECT ON enf.pub TO regress_enf_agent;
SET ROLE regress_enf_agent;
SELECT r::text LIKE '%ssn%' AS names_ssn
FROM enf.rw('SELECT pub.sn FROM users AS pub') r;
-- constraint errors name only columns the role may read
RESET ROLE;
CREATE TABLE enf.parent (id int PRIMARY KEY);
INSERT INTO enf.parent VALUES (1);
CREATE TABLE enf.payroll (secret_ref int CONSTRAINT c1 REFERENCES enf.parent);
INSERT INTO enf.payroll VALUES (1);
GRANT SELECT, DELETE ON enf.parent TO regress_enf_agent;
SET ROLE regress_enf_agent;
SELECT r ->> 'errorType' AS error_type, r::text LIKE '%secret_ref%' AS names_secret_ref
FROM ai_tool_call('delete_data', '{"table": "enf.parent", "where": {"id": 1}}') r;
-- error texts are cut: an answer always fits
SELECT length(r ->> 'error') < 9000 AS clipped, r ->> 'errorType' AS error_type
FROM enf.rw($q$SELECT repeat('x', 100000)::int$q$) r;
RESET search_path;

RESET ROLE;
SELECT * FROM enf.state;
SELECT note FROM enf.orders ORDER BY id;
DROP SCHEMA enf CASCADE;
REVOKE EXECUTE ON FUNCTION dblink_exec(text, text) FROM regress_enf_agent;
DROP ROLE regress_enf_agent;
