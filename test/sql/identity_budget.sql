-- identity_budget: one caller, one identity, one budget (issue 29).  The
-- role a call runs as cannot be changed inside it, by any path; read-only
-- calls run only utility statements that change nothing; the write limit
-- and confirmations count every row the call changes at every level; the
-- settings that bound memory cannot be raised; a call over
-- max_call_memory is stopped; ai_tool_run has one deadline; sequence state
-- does not pass from one role's call to another's.  After each group the
-- data is shown unchanged.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
CREATE EXTENSION IF NOT EXISTS xml2;
CREATE EXTENSION IF NOT EXISTS dblink;
RESET client_min_messages;
CREATE SCHEMA idb;
CREATE ROLE regress_idb_a;
CREATE ROLE regress_idb_b;
CREATE ROLE regress_idb_authn NOINHERIT;
GRANT regress_idb_a, regress_idb_b TO regress_idb_authn;
GRANT USAGE, CREATE ON SCHEMA idb TO regress_idb_a, regress_idb_b;
CREATE TABLE idb.tenant_data (owner name, secret text);
INSERT INTO idb.tenant_data VALUES ('regress_idb_a', 'a-secret'), ('regress_idb_b', 'b-secret');
ALTER TABLE idb.tenant_data ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON idb.tenant_data USING (owner = current_user);
GRANT SELECT, UPDATE ON idb.tenant_data TO regress_idb_a, regress_idb_b;
CREATE FUNCTION idb.call(tool text, args jsonb) RETURNS jsonb LANGUAGE sql AS
  $$ SELECT ai_tool_call(tool, args) $$;
CREATE FUNCTION idb.sql(sql text) RETURNS text LANGUAGE sql AS
  $$ SELECT coalesce(a ->> 'errorType', a ->> 'status') || ': ' || coalesce(a ->> 'error', '')
     FROM ai_tool_call('execute_sql', jsonb_build_object('sql', sql)) a $$;
CREATE FUNCTION idb.ro(sql text) RETURNS text LANGUAGE sql AS
  $$ SELECT coalesce(a ->> 'errorType', a ->> 'status') || ': ' || coalesce(a ->> 'error', '')
     FROM ai_tool_call('execute_sql', jsonb_build_object('sql', sql, 'read_only', true)) a $$;
-- a function whose SET clause names the role, and a SECURITY DEFINER one
CREATE FUNCTION idb.as_b() RETURNS text LANGUAGE sql SET role = regress_idb_b AS 'SELECT current_user::text';
CREATE FUNCTION idb.definer() RETURNS text LANGUAGE sql SECURITY DEFINER AS 'SELECT current_user::text';
GRANT EXECUTE ON FUNCTION idb.as_b(), idb.definer() TO PUBLIC;

-- 1. the role is fixed for the whole call, at every level
SET ROLE regress_idb_authn;
SET ROLE regress_idb_a;
SELECT path, idb.sql(path) AS answer FROM (VALUES
  ('SET ROLE regress_idb_b'),
  ('SET LOCAL ROLE regress_idb_b'),
  ('RESET ROLE'),
  ('SET SESSION AUTHORIZATION regress_idb_b'),
  ('SET LOCAL SESSION AUTHORIZATION DEFAULT'),
  ($q$SELECT set_config('role', 'regress_idb_b', true)$q$),
  ($q$SELECT set_config('role', 'none', true)$q$),
  ($q$SELECT set_config('session_authorization', 'regress_idb_b', false)$q$),
  ($q$DO $d$BEGIN SET LOCAL ROLE regress_idb_b; END$d$$q$),
  ($q$DO $d$BEGIN PERFORM set_config('role', 'regress_idb_b', true); END$d$$q$),
  ($q$DO $d$BEGIN EXECUTE 'SET LOCAL ROLE regress_idb_b'; END$d$$q$),
  ($q$DO $d$BEGIN PERFORM set_config('role', NULL, true); END$d$$q$),
  ($q$DO $d$BEGIN PERFORM set_config('session_authorization', NULL, true); END$d$$q$),
  ($q$DO $d$BEGIN SET LOCAL "Role" TO DEFAULT; END$d$$q$),
  ($q$DO $d$BEGIN SET LOCAL session_authorization TO DEFAULT; END$d$$q$),
  ($q$SELECT query_to_xml('SELECT set_config(''role'', ''regress_idb_b'', true)', true, true, '')$q$),
  ($q$SELECT * FROM xpath_table('owner', 'secret', 'idb.tenant_data', '/a', 'true; SET LOCAL ROLE regress_idb_b; SELECT 1::text, ''<a/>''::text') AS t(o text, a text)$q$),
  ('SELECT idb.as_b()')
) AS v(path);
-- the documented authenticator pattern: agent_a cannot read or write b's rows
SELECT jsonb_pretty(ai_tool_call('execute_sql', $${"mode": "multiple", "sql": "SELECT set_config('role', 'regress_idb_b', true); SELECT current_user, secret FROM idb.tenant_data"}$$) - 'executionTime');
SELECT idb.sql($$WITH r AS (SELECT set_config('role', 'regress_idb_b', true)) UPDATE idb.tenant_data SET secret = 'stolen' FROM r$$);
-- a reset swallowed by an exception block, then a cached plan: still refused
SELECT idb.sql($q$DO $d$DECLARE v text; BEGIN FOR i IN 1..2 LOOP BEGIN IF i = 2 THEN PERFORM set_config('role', NULL, true); END IF; SELECT secret INTO v FROM idb.tenant_data WHERE owner <> 'regress_idb_a' LIMIT 1; RAISE EXCEPTION 'restore'; EXCEPTION WHEN others THEN NULL; END; END LOOP; RAISE EXCEPTION 'read: %', v; END$d$$q$);
-- SECURITY DEFINER still changes the current user, through the function manager
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT idb.definer() AS d, current_user AS c"}') -> 'data';
SELECT current_user;
RESET ROLE;
SELECT * FROM idb.tenant_data ORDER BY owner;

-- sequence state does not pass from one role's call to another's
CREATE SEQUENCE idb.seq;
GRANT USAGE ON SEQUENCE idb.seq TO regress_idb_a, regress_idb_b;
SET ROLE regress_idb_authn;
SET ROLE regress_idb_a;
SELECT ai_tool_call('execute_sql', $${"sql": "SELECT nextval('idb.seq')"}$$) -> 'data';
SET ROLE regress_idb_b;
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT lastval()"}') ->> 'error';
RESET ROLE;

-- 2. read-only calls run utility statements by an allow-list, at every level
CREATE SCHEMA r3;
CREATE TABLE r3.ro_owned (id int PRIMARY KEY, x text);
INSERT INTO r3.ro_owned VALUES (1, '<a/>');
CREATE MATERIALIZED VIEW r3.mv AS SELECT 1 AS one;
ALTER TABLE r3.ro_owned OWNER TO regress_idb_a;
ALTER MATERIALIZED VIEW r3.mv OWNER TO regress_idb_a;
GRANT USAGE ON SCHEMA r3 TO regress_idb_a;
CREATE TEMP TABLE before AS SELECT relfilenode FROM pg_class WHERE oid = 'r3.ro_owned'::regclass;
SET ROLE regress_idb_a;
SELECT path, idb.ro(path) AS answer FROM (VALUES
  ($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; CLUSTER r3.ro_owned USING ro_owned_pkey; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$),
  ($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; REINDEX TABLE r3.ro_owned; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$),
  ($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; ANALYZE r3.ro_owned; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$),
  ($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; LOCK TABLE r3.ro_owned; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$),
  ($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; COMMENT ON TABLE r3.ro_owned IS ''x''; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$),
  ($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; REFRESH MATERIALIZED VIEW r3.mv; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$),
  ($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; CHECKPOINT; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$),
  ($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; VACUUM r3.ro_owned; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$),
  ($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; EXPLAIN ANALYZE CREATE TABLE r3.made AS SELECT 1 AS a; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$),
  ($q$SELECT query_to_xml('SELECT 1', true, true, '')::text <> ''$q$),
  ($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; SET LOCAL search_path = r3; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$),
  ('EXPLAIN SELECT * FROM r3.ro_owned'),
  ('SHOW work_mem')
) AS v(path);
RESET ROLE;
-- read-only mode reset to the session's: refused (by neon_ai_tools on 15
-- and 16; from 17 on PostgreSQL refuses to reset it at all)
SET ROLE regress_idb_a;
SELECT idb.ro($q$SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', 'false; SET LOCAL transaction_read_only TO DEFAULT; DELETE FROM r3.ro_owned; SELECT 1::text, ''<a/>''::text') AS t(id text, a text)$q$)
  LIKE '%parameter "transaction_read_only" cannot be%' AS read_only_reset_refused;
RESET ROLE;
SELECT count(*) AS ro_rows, to_regclass('r3.made') IS NULL AS not_made FROM r3.ro_owned;
SELECT relfilenode = (SELECT relfilenode FROM before) AS same_relfilenode,
       (SELECT last_analyze IS NULL FROM pg_stat_user_tables WHERE relid = 'r3.ro_owned'::regclass) AS not_analyzed,
       obj_description('r3.ro_owned'::regclass, 'pg_class') IS NULL AS no_comment
FROM pg_class WHERE oid = 'r3.ro_owned'::regclass;

-- 3. the write limit counts every row the call changes, at every level
CREATE TABLE idb.items (id int PRIMARY KEY, v text);
INSERT INTO idb.items SELECT g, 'x' FROM generate_series(1, 500) g;
CREATE TABLE idb.parent (id int PRIMARY KEY);
CREATE TABLE idb.child (id int, pid int REFERENCES idb.parent ON DELETE CASCADE);
INSERT INTO idb.parent VALUES (1), (2);
INSERT INTO idb.child SELECT g, 1 FROM generate_series(1, 500) g;
CREATE TABLE idb.ruled (id int PRIMARY KEY, v text);
INSERT INTO idb.ruled VALUES (1, 'a');
CREATE RULE also_delete AS ON UPDATE TO idb.ruled DO ALSO DELETE FROM idb.items WHERE id > 100;
CREATE TABLE idb.ruled_small (id int PRIMARY KEY, v text);
INSERT INTO idb.ruled_small VALUES (1, 'a');
CREATE RULE also_delete_few AS ON UPDATE TO idb.ruled_small DO ALSO DELETE FROM idb.items WHERE id BETWEEN 481 AND 485;
CREATE FUNCTION idb.wipe() RETURNS int LANGUAGE plpgsql AS $$BEGIN DELETE FROM idb.items WHERE id > 100; RETURN 1; END$$;
CREATE PROCEDURE idb.wipe_p() LANGUAGE plpgsql AS $$BEGIN DELETE FROM idb.items WHERE id > 100; END$$;
CREATE VIEW idb.items_view AS SELECT id, v FROM idb.items;
CREATE FUNCTION idb.items_view_delete() RETURNS trigger LANGUAGE plpgsql AS
  $$BEGIN DELETE FROM idb.items WHERE id = OLD.id; RETURN OLD; END$$;
CREATE TRIGGER items_view_delete INSTEAD OF DELETE ON idb.items_view
  FOR EACH ROW EXECUTE FUNCTION idb.items_view_delete();
ALTER TABLE idb.items OWNER TO regress_idb_a;
ALTER TABLE idb.parent OWNER TO regress_idb_a;
ALTER TABLE idb.child OWNER TO regress_idb_a;
ALTER TABLE idb.ruled OWNER TO regress_idb_a;
ALTER TABLE idb.ruled_small OWNER TO regress_idb_a;
ALTER VIEW idb.items_view OWNER TO regress_idb_a;
ALTER SCHEMA idb OWNER TO regress_idb_a;
SET neon_ai_tools.max_affected_rows = 10;
SET ROLE regress_idb_a;
SELECT path, idb.sql(path) AS answer FROM (VALUES
  ($q$DO $d$BEGIN DELETE FROM idb.items WHERE id > 100; END$d$$q$),
  ('SELECT idb.wipe()'),
  ('CALL idb.wipe_p()'),
  ('WITH d AS (DELETE FROM idb.items WHERE id > 100 RETURNING 1) SELECT count(*) FROM d'),
  ('TRUNCATE idb.items'),
  ('TRUNCATE idb.parent CASCADE'),
  ($q$DO $d$BEGIN FOR i IN 101..500 LOOP DELETE FROM idb.items WHERE id = i; END LOOP; END$d$$q$),
  ($q$SELECT dblink_exec('dbname=' || current_database(), 'DELETE FROM idb.items WHERE id > 100')$q$),
  ('DROP TABLE idb.items'),
  ('DROP SCHEMA idb CASCADE'),
  ($q$ALTER TABLE idb.items ALTER COLUMN v TYPE varchar USING 'wiped'$q$),
  ('ALTER TABLE idb.items DROP COLUMN v'),
  ('CREATE TABLE idb.copy AS SELECT * FROM idb.items'),
  ('SELECT * INTO idb.copy2 FROM idb.items')
) AS v(path);
-- a view's INSTEAD OF trigger: its rows are counted once, where the trigger deletes them
SELECT ai_tool_call('execute_sql', '{"sql": "DELETE FROM idb.items_view WHERE id BETWEEN 491 AND 498"}') - 'executionTime';
SELECT ai_tool_call('update_data', '{"table": "idb.ruled", "set": {"v": "b"}, "where": {"id": 1}}') ->> 'error' AS rule;
SELECT ai_tool_call('delete_data', '{"table": "idb.parent", "where": {"id": 1}}') ->> 'error' AS cascade;
-- under the limit: affectedRows is every level's total, the statement's own beside it
SELECT ai_tool_call('execute_sql', '{"sql": "WITH d AS (DELETE FROM idb.items WHERE id > 495 RETURNING 1) SELECT count(*) FROM d"}') - 'executionTime';
SELECT ai_tool_call('update_data', '{"table": "idb.ruled_small", "set": {"v": "c"}, "where": {"id": 1}}') - 'executionTime' - 'data' - 'columns';
SELECT ai_tool_call('execute_sql', $${"sql": "DO $d$BEGIN DELETE FROM idb.items WHERE id > 490; END$d$"}$$) - 'executionTime';
RESET ROLE;
SELECT (SELECT count(*) FROM idb.items) AS items, (SELECT count(*) FROM idb.child) AS children,
       (SELECT count(*) FROM idb.parent) AS parents;
RESET neon_ai_tools.max_affected_rows;

-- 4. confirmation = token counts the same rows
SET neon_ai_tools.confirmation = token;
SET neon_ai_tools.confirmation_min_rows = 100;
SET ROLE regress_idb_a;
SELECT path, idb.sql(path) AS answer FROM (VALUES
  ('WITH d AS (DELETE FROM idb.items WHERE id > 50 RETURNING 1) SELECT count(*) FROM d'),
  ($q$DO $d$BEGIN DELETE FROM idb.items WHERE id > 50; END$d$$q$),
  ('TRUNCATE idb.items'),
  ('DROP TABLE idb.items')
) AS v(path);
-- a filtered delete whose cascade removes 500 rows needs a token; its own row alone would not
SELECT ai_tool_call('delete_data', '{"table": "idb.parent", "where": {"id": 1}}') ->> 'errorType' AS cascade;
SELECT ai_tool_call('delete_data', '{"table": "idb.parent", "where": {"id": 2}}') ->> 'status' AS own_row;
RESET ROLE;
SELECT count(*) AS items FROM idb.items;
SELECT count(*) AS children FROM idb.child;
RESET neon_ai_tools.confirmation;
RESET neon_ai_tools.confirmation_min_rows;

-- 5. settings that bound a call's memory or time are never raised in it,
-- not even back to their defaults (the caller lowered work_mem first)
SET ROLE regress_idb_a;
SET work_mem = '2MB';
SELECT path, idb.sql(path) AS answer FROM (VALUES
  ($q$SELECT set_config('work_mem', '1GB', true)$q$),
  ($q$SELECT set_config('join_collapse_limit', '100', true)$q$),
  ($q$SELECT set_config('from_collapse_limit', '100', true)$q$),
  ($q$SELECT set_config('geqo', 'off', true)$q$),
  ($q$SELECT set_config('hash_mem_multiplier', '100', true)$q$),
  ($q$SELECT set_config('max_parallel_workers_per_gather', '64', true)$q$),
  ($q$SELECT set_config('lock_timeout', '0', true)$q$),
  ($q$SELECT set_config('jit', 'on', true)$q$),
  ('SET LOCAL maintenance_work_mem = ''2GB'''),
  ($q$DO $d$BEGIN SET LOCAL work_mem = '1GB'; END$d$$q$),
  ($q$DO $d$BEGIN SET LOCAL lock_timeout TO DEFAULT; END$d$$q$),
  ($q$DO $d$BEGIN SET LOCAL jit = on; END$d$$q$),
  ($q$DO $d$BEGIN PERFORM set_config('work_mem', NULL, true); END$d$$q$),
  ($q$SELECT set_config('work_mem', '1MB', true)$q$),
  ($q$SELECT set_config('join_collapse_limit', '2', true)$q$)
) AS v(path);
SHOW work_mem;
SHOW join_collapse_limit;
RESET work_mem;

-- the memory cap: a call over it is stopped, the session goes on
RESET ROLE;
SET neon_ai_tools.max_call_memory = '32MB';
SET ROLE regress_idb_a;
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT array_length(array_fill(1, ARRAY[20000000]), 1)"}') ->> 'errorType' AS over_cap;
-- one allocation larger than the cap, in C code that checks no interrupt
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT array_length(array_fill(1, ARRAY[120000000]), 1)"}') ->> 'errorType' AS one_allocation;
-- the limit is the call's: the same allocation outside a call works
SELECT array_length(array_fill(1, ARRAY[20000000]), 1) AS outside;
SELECT ai_tool_call('execute_sql', $${"sql": "DO $d$DECLARE a text := ''; BEGIN LOOP BEGIN a := a || repeat('x', 1000000); EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END$d$"}$$) ->> 'errorType' AS caught_cancel;
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT 1 AS one"}') -> 'data' AS goes_on;
-- arguments larger than an eighth of the cap are refused before they are copied
SELECT ai_tool_call('execute_sql', jsonb_build_object('sql', 'SELECT $1::text IS NULL', 'params', jsonb_build_array(repeat('x', 5000000)))) ->> 'error' AS big_args;
RESET ROLE;
RESET neon_ai_tools.max_call_memory;

-- 6. ai_tool_run: one deadline for all the calls of a response
SET neon_ai_tools.run_timeout = '700ms';
SELECT jsonb_path_query_array(r, '$[*].content') IS NOT NULL AS answered,
       (SELECT array_agg(e.c::jsonb ->> 'errorType') FROM jsonb_array_elements_text(jsonb_path_query_array(r, '$[*].content')) AS e(c)) AS error_types
FROM ai_tool_run($${"role": "assistant", "tool_calls": [
  {"id": "1", "type": "function", "function": {"name": "execute_sql", "arguments": "{\"sql\": \"SELECT pg_sleep(0.5)\"}"}},
  {"id": "2", "type": "function", "function": {"name": "execute_sql", "arguments": "{\"sql\": \"SELECT pg_sleep(0.5)\"}"}},
  {"id": "3", "type": "function", "function": {"name": "execute_sql", "arguments": "{\"sql\": \"SELECT pg_sleep(0.5)\"}"}},
  {"id": "4", "type": "function", "function": {"name": "execute_sql", "arguments": "{\"sql\": \"SELECT 1\"}"}}]}$$) AS r;
RESET neon_ai_tools.run_timeout;

DROP SCHEMA idb, r3 CASCADE;
DROP ROLE regress_idb_authn, regress_idb_a, regress_idb_b;
