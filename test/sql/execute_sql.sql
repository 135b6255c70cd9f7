-- execute_sql: bound parameters, statement rules by the parser, modes,
-- read-only enforced by the engine, caps, timeouts
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA exe_test;
SET search_path = exe_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

CREATE TABLE users (id int PRIMARY KEY, name text, born date, score numeric);
INSERT INTO users VALUES (1, 'ann', '1990-01-01', 1.5), (2, 'bob', '1985-06-30', NULL), (3, 'cid', NULL, 7);

-- bound parameters: a hostile value is just a value
SELECT jsonb_pretty(call('execute_sql', '{"sql": "SELECT id, name FROM users WHERE name = $1 ORDER BY id", "params": ["ann"]}'));
SELECT call('execute_sql', '{"sql": "SELECT count(*) FROM users WHERE name = $1", "params": ["a'' OR ''1''=''1"]}') -> 'data' AS data;
SELECT call('execute_sql', '{"sql": "SELECT count(*) FROM users WHERE id = $1", "params": ["1; DROP TABLE users"]}') ->> 'errorType' AS error_type;
-- parameter types are inferred from use; JSON values converted by their input functions
SELECT call('execute_sql', '{"sql": "SELECT $1 + 1 AS n, $2::date + 1 AS d, $3 || ''!'' AS t, $4::jsonb -> ''a'' AS j, $5::int[] AS a", "params": ["41", "2024-02-28", "hi", {"a": [1]}, [1, 2]]}') -> 'data' AS data;
SELECT call('execute_sql', '{"sql": "SELECT id FROM users WHERE born < $1 ORDER BY id", "params": ["1989-12-31"]}') -> 'data' AS data;
-- NULL parameters are SQL NULL
SELECT call('execute_sql', '{"sql": "SELECT id FROM users WHERE score IS NOT DISTINCT FROM $1", "params": [null]}') -> 'data' AS data;
SELECT call('execute_sql', '{"sql": "SELECT $1::text IS NULL AS is_null", "params": [null]}') -> 'data' AS data;
-- too few parameters
SELECT call('execute_sql', '{"sql": "SELECT $1, $2", "params": [1]}') - 'details';
SELECT call('execute_sql', '{"sql": "SELECT $1::int", "params": ["x"]}') ->> 'error' AS error;

-- DML reports affectedRows, and rows for RETURNING
SELECT call('execute_sql', '{"sql": "INSERT INTO users VALUES ($1, $2), ($3, $4)", "params": [4, "dee", 5, "eve"]}') - 'columns';
SELECT call('execute_sql', '{"sql": "UPDATE users SET score = 0 WHERE id > $1 RETURNING id, score", "params": [3]}') - 'columns';
SELECT call('execute_sql', '{"sql": "DELETE FROM users WHERE id = 99"}') -> 'affectedRows' AS affected;
-- DDL
SELECT call('execute_sql', '{"sql": "CREATE TABLE made (x int)"}') - 'columns';

-- single mode refuses two statements, with nothing executed
SELECT call('execute_sql', '{"sql": "INSERT INTO users VALUES (10, ''x''); DELETE FROM users"}');
SELECT count(*) AS users FROM users;
-- select 1; commit; drop table t is refused with the table intact
SELECT call('execute_sql', '{"sql": "SELECT 1; COMMIT; DROP TABLE users"}') ->> 'error' AS error;
SELECT call('execute_sql', '{"sql": "SELECT 1; COMMIT; DROP TABLE users", "mode": "multiple"}') ->> 'error' AS error;
SELECT count(*) AS users FROM users;
-- comments do not hide a second statement
SELECT call('execute_sql', '{"sql": "SELECT 1 /* ; */ -- ;\n; DROP TABLE users"}') ->> 'error' AS error;

-- multiple mode: in order, one result each
SELECT jsonb_pretty(call('execute_sql', '{"sql": "CREATE TABLE m (id int); INSERT INTO m VALUES (1), (2); SELECT * FROM m ORDER BY id", "mode": "multiple"}'));
-- all-or-nothing: the second fails, both are rolled back
SELECT call('execute_sql', '{"sql": "INSERT INTO m VALUES (3); INSERT INTO m VALUES (''not a number'')", "mode": "multiple"}') - 'details';
SELECT count(*) AS m_rows FROM m;
SELECT call('execute_sql', '{"sql": "CREATE TABLE m2 (id int); INSERT INTO nosuch VALUES (1)", "mode": "multiple"}') ->> 'errorType' AS error_type;
SELECT to_regclass('m2') AS m2_exists;
-- parameters are shared by the statements
SELECT call('execute_sql', '{"sql": "INSERT INTO m VALUES ($1); SELECT count(*) FROM m WHERE id = $1", "mode": "multiple", "params": [7]}') -> 'data' -> 1 -> 'data' AS data;

-- statements refused with the reason, before anything runs
SELECT s AS sql, call('execute_sql', jsonb_build_object('sql', s)) ->> 'error' AS error
FROM unnest(ARRAY[
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'SAVEPOINT s',
  'SET ROLE postgres',
  'SET SESSION AUTHORIZATION postgres',
  'SET work_mem = ''2MB''',
  'RESET ALL',
  'DISCARD ALL',
  'LISTEN chan',
  'UNLISTEN *',
  'LOAD ''plpgsql''',
  'COPY users TO ''/tmp/users.csv''',
  'COPY users FROM PROGRAM ''id''',
  'COPY users TO STDOUT',
  'PREPARE p AS SELECT 1',
  'DECLARE c CURSOR FOR SELECT 1',
  'VACUUM users',
  'CREATE DATABASE x',
  'ALTER SYSTEM SET work_mem = ''1GB''',
  'CREATE INDEX CONCURRENTLY ON users (name)',
  'CHECKPOINT',
  'SELECT pg_advisory_lock(1)'
]) AS s;

-- nothing a statement does to the session outlives the call
SHOW work_mem;
SELECT call('execute_sql', '{"sql": "SELECT set_config(''work_mem'', ''2MB'', false)"}') -> 'data' AS data;
SELECT call('execute_sql', '{"sql": "DO $$BEGIN SET work_mem = ''3MB''; PERFORM set_config(''search_path'', ''pg_temp'', false); END$$"}') ->> 'error' AS error;
SELECT call('execute_sql', '{"sql": "DO $$BEGIN SET LOCAL work_mem = ''3MB''; PERFORM set_config(''search_path'', ''pg_temp'', false); END$$"}') ->> 'status' AS status;
SHOW work_mem;
SHOW search_path;

-- read-only calls: writes refused by the engine, nothing persisted
CREATE TABLE log (entry text);
CREATE FUNCTION writer() RETURNS int LANGUAGE plpgsql VOLATILE AS $$
BEGIN INSERT INTO exe_test.log VALUES ('written'); RETURN 1; END $$;
CREATE SEQUENCE seq;
SELECT s AS sql, call('execute_sql', jsonb_build_object('sql', s, 'read_only', true)) ->> 'errorType' AS error_type,
       call('execute_sql', jsonb_build_object('sql', s, 'read_only', true)) ->> 'error' AS error
FROM unnest(ARRAY[
  'DELETE FROM users',
  'SELECT writer()',
  'SELECT * FROM writer()',
  'WITH d AS (DELETE FROM users RETURNING *) SELECT count(*) FROM d',
  'SELECT nextval(''seq'')',
  'SELECT lo_create(0)',
  'SELECT lo_from_bytea(0, ''x'')',
  'SELECT * FROM users FOR UPDATE',
  'SELECT * INTO copy_of_users FROM users',
  'CREATE TABLE t2 (x int)',
  'SELECT pg_advisory_xact_lock(1)',
  'SELECT pg_notify(''c'', ''x'')',
  'DO $$BEGIN DELETE FROM exe_test.users; END$$',
  'EXPLAIN ANALYZE DELETE FROM users'
]) AS s;
SELECT count(*) AS users FROM users;
SELECT count(*) AS log_entries FROM log;
SELECT last_value FROM seq;
SELECT count(*) AS large_objects FROM pg_largeobject_metadata;
-- what read-only calls may do
SELECT call('execute_sql', '{"sql": "SELECT count(*) FROM users", "read_only": true}') -> 'data' AS data;
SELECT call('execute_sql', '{"sql": "SHOW max_connections", "read_only": true}') ->> 'status' AS status;
SELECT call('execute_sql', '{"sql": "EXPLAIN SELECT * FROM users", "read_only": true}') ->> 'status' AS status;
-- neon_ai_tools.read_only forces it
SET neon_ai_tools.read_only = on;
SELECT call('execute_sql', '{"sql": "DELETE FROM users"}') ->> 'errorType' AS error_type;
SELECT call('execute_sql', '{"sql": "DELETE FROM users", "read_only": false}') ->> 'errorType' AS error_type;
RESET neon_ai_tools.read_only;
SELECT count(*) AS users FROM users;

-- timeouts: promptly, far sooner than the 30 s sleep (with room for a
-- slow machine)
SELECT clock_timestamp() AS t0 \gset
SELECT call('execute_sql', '{"sql": "SELECT pg_sleep(30)", "timeout_ms": 200}') - 'details';
SELECT clock_timestamp() - :'t0'::timestamptz < interval '10 seconds' AS prompt;

-- row caps: 1000 by default, limit up to the hard cap
SELECT r->'rowCount' AS row_count, r->'truncated' AS truncated, r->'truncation' AS truncation
FROM call('execute_sql', '{"sql": "SELECT * FROM generate_series(1, 20000)"}') r;
SELECT r->'rowCount' AS row_count, r->'truncation' AS truncation
FROM call('execute_sql', '{"sql": "SELECT * FROM generate_series(1, 20000)", "limit": 5000}') r;
SELECT call('execute_sql', '{"sql": "SELECT * FROM generate_series(1, 20000)", "limit": 20000}') ->> 'error' AS error;
SELECT r->'rowCount' AS row_count, r->'truncated' AS truncated
FROM call('execute_sql', '{"sql": "SELECT * FROM generate_series(1, 5000)", "limit": 5000}') r;
-- byte budget: 500 rows of 10 kB
SELECT r->'rowCount' AS row_count, r->'truncation' AS truncation, r->>'warning' AS warning
FROM call('execute_sql', '{"sql": "SELECT g, repeat(''x'', 10000) AS payload FROM generate_series(1, 500) g"}') r;
-- a query without LIMIT runs with the row cap (plus one) written in, as
-- "LIMIT n" after its text: the planner knows it (a top-N sort in memory
-- instead of a sort of every row spilled to disk, test below), and so does
-- Citus (it pushes the LIMIT to the shards: 023_citus_results.pl)
CREATE TABLE many (id int PRIMARY KEY, v int);
INSERT INTO many SELECT g, (g * 7919) % 200003 FROM generate_series(1, 200000) g;
ANALYZE many;
SET work_mem = '4MB';
SELECT pg_stat_force_next_flush();
SELECT temp_files AS temp_before FROM pg_stat_database WHERE datname = current_database() \gset
SELECT r -> 'rowCount' AS row_count, r -> 'data' -> 0 AS first, r -> 'data' -> 999 AS last, r -> 'truncated' AS truncated
FROM call('execute_sql', '{"sql": "SELECT v FROM many ORDER BY v DESC"}') r;
SELECT pg_stat_force_next_flush();
SELECT temp_files - :temp_before AS temp_files FROM pg_stat_database WHERE datname = current_database();
RESET work_mem;
-- every shape of query answers as it did: the LIMIT goes where it cannot
-- change the rows, after an OFFSET, a set operation, a trailing comment or
-- FOR READ ONLY; not where the query has a limit of its own, locks rows or
-- changes data; errors show the statement as written
SELECT f.sql, r -> 'data' AS data, r -> 'truncated' AS truncated
FROM (VALUES ('SELECT id FROM users ORDER BY id DESC', 2),
             ('SELECT id FROM users ORDER BY id OFFSET 1', 1),
             ('SELECT id FROM users UNION ALL SELECT id FROM users ORDER BY 1', 4),
             ('VALUES (1), (2), (3)', 2),
             ('TABLE users', 1),
             ('WITH x AS (SELECT id FROM users) SELECT id FROM x ORDER BY id', 2),
             ('(SELECT id FROM users ORDER BY id)', 2),
             (E'SELECT id FROM users ORDER BY id -- the ids', 2),
             ('SELECT id FROM users ORDER BY id /* the ids */', 2),
             ('SELECT id FROM users ORDER BY id FOR READ ONLY', 2),
             ('SELECT id FROM users ORDER BY id FETCH FIRST 2 ROWS WITH TIES', 1),
             ('SELECT id FROM users ORDER BY id LIMIT ALL', 2),
             ('SELECT id FROM users ORDER BY id FOR UPDATE', 2),
             ('WITH d AS (UPDATE users SET score = score RETURNING id) SELECT id FROM d ORDER BY id', 2)) AS f(sql, lim),
     LATERAL call('execute_sql', jsonb_build_object('sql', f.sql, 'limit', f.lim, 'format', 'columnar')) AS r;
SELECT call('execute_sql', '{"sql": "SELECT id / (id - 2) FROM users ORDER BY id"}') -> 'details' AS details;
-- duplicate column names are kept apart
SELECT call('execute_sql', '{"sql": "SELECT 1 AS a, 2 AS a, 3 AS a"}') -> 'data' AS data;

-- the write cap holds for execute_sql too
SELECT call('execute_sql', '{"sql": "UPDATE users SET score = 1", "max_affected": 2}') ->> 'error' AS error;
SELECT count(*) AS changed FROM users WHERE score = 1;

-- errors: syntax with its position, misspelt column with core's hint
SELECT call('execute_sql', '{"sql": "SELECT * FORM users"}') - 'executionTime';
SELECT call('execute_sql', '{"sql": "SELECT nmae FROM users"}') - 'executionTime';
SELECT call('execute_sql', '{"sql": "SELECT 1; SELECT nmae FROM users", "mode": "multiple"}') -> 'details' AS details;
SELECT call('execute_sql', '{"sql": "  "}') ->> 'error' AS error;

-- privileges apply: the caller's role, not the extension's
CREATE ROLE regress_exe_agent;
GRANT USAGE ON SCHEMA exe_test TO regress_exe_agent;
GRANT EXECUTE ON FUNCTION call(text, jsonb) TO regress_exe_agent;
SET ROLE regress_exe_agent;
SELECT call('execute_sql', '{"sql": "SELECT * FROM users"}') ->> 'errorType' AS error_type;
SELECT call('execute_sql', '{"sql": "SELECT current_user"}') -> 'data' AS data;
RESET ROLE;

DROP SCHEMA exe_test CASCADE;
DROP ROLE regress_exe_agent;
