-- error_enrich: every tool error carries the seed fields (error_code,
-- error_type, affected_resources, dependencies, suggested_actions) that its
-- ErrorData or its message names, through the same path as ai_error_info();
-- Citus's distribution-column errors, its planner's refusals and nodes;
-- keys that would be empty
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA enr_test;
SET search_path = enr_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

-- the seed fields of an answer, to compare a tool with ai_error_info()
CREATE FUNCTION seed(a jsonb) RETURNS jsonb
LANGUAGE sql AS $$
  SELECT jsonb_strip_nulls(jsonb_build_object(
    'errorType', a -> 'errorType', 'error_type', a -> 'error_type',
    'error_code', a -> 'error_code', 'retryable', a -> 'retryable',
    'affected_resources', a -> 'affected_resources',
    'dependencies', a -> 'dependencies'))
$$;

CREATE TABLE people (id int PRIMARY KEY, name text);
CREATE TABLE peeplo (id int);					-- as close to "peeple", hidden
CREATE TABLE secret (x int);
CREATE TABLE dist (k int, v text);				-- a Citus-like distributed table
INSERT INTO dist VALUES (1, 'one');

CREATE ROLE regress_enr_agent;
GRANT USAGE ON SCHEMA enr_test TO regress_enr_agent;
GRANT SELECT ON people TO regress_enr_agent;
GRANT SELECT, INSERT, UPDATE ON dist TO regress_enr_agent;

-- Citus raises these from its planner; here triggers and functions raise
-- the same texts with the same SQLSTATEs (no Citus needed)
CREATE FUNCTION dist_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.k IS NULL THEN
    RAISE EXCEPTION 'cannot perform an INSERT with NULL in the partition column'
      USING ERRCODE = '22004';
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.k IS DISTINCT FROM OLD.k THEN
    RAISE EXCEPTION 'modifying the partition value of rows is not allowed'
      USING ERRCODE = '0A000';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER dist_guard BEFORE INSERT OR UPDATE ON dist
  FOR EACH ROW EXECUTE FUNCTION dist_guard();
CREATE FUNCTION raise_as(message text, code text) RETURNS void
LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION USING MESSAGE = message, ERRCODE = code; END $$;
GRANT EXECUTE ON FUNCTION raise_as(text, text) TO regress_enr_agent;

-- ---------------------------------------------------------------------
-- issue 14: execute_sql on a misspelt table names it, and suggests only
-- tables the role can see (people, not the equally close peeplo)
SET ROLE regress_enr_agent;
SELECT jsonb_pretty(call('execute_sql', '{"sql": "select * from peeple"}'));
-- a name close to nothing the role may use: no did-you-mean, the
-- pattern's advice
SELECT a ->> 'errorType' AS "errorType", a -> 'affected_resources' AS affected,
       a ->> 'suggestion' AS suggestion
FROM call('execute_sql', '{"sql": "select * from zzqx_nothing"}') AS a;
-- a qualified name
SELECT a -> 'affected_resources' AS affected, a ->> 'suggestion' AS suggestion
FROM call('execute_sql', '{"sql": "select * from enr_test.peeple"}') AS a;
-- a relation in a missing schema is 42P01 too: the closest tables by name
SELECT a -> 'affected_resources' AS affected, a ->> 'suggestion' AS suggestion
FROM call('execute_sql', '{"sql": "select * from nosuchschema.people"}') AS a;
-- a missing schema (3F000) gets no table suggestion
SELECT a ->> 'errorType' AS "errorType", a -> 'affected_resources' AS affected,
       a ->> 'suggestion' AS suggestion
FROM call('execute_sql', '{"sql": "create table nosuchschema.peeple (x int)"}') AS a;
-- permission denied through execute_sql names the table
SELECT jsonb_pretty(call('execute_sql', '{"sql": "select * from secret"}'));
SELECT a ->> 'errorType' AS "errorType", a -> 'affected_resources' AS affected
FROM call('explain_query', '{"sql": "select * from secret"}') AS a;
RESET ROLE;
-- as a superuser, who sees both, the suggestion names both
SELECT call('execute_sql', '{"sql": "select * from peeple"}') ->> 'suggestion' AS suggestion;
-- an error that arrives after the call's deadline (the code caught the
-- cancel, then failed): no did-you-mean, whose scan of pg_class would run
-- past the deadline with the timer disarmed; the pattern's advice instead
CREATE FUNCTION late_missing_table() RETURNS int LANGUAGE plpgsql AS $f$
DECLARE
  t timestamptz := clock_timestamp();
BEGIN
  -- the first round only prepares the RAISE's expressions: past the
  -- deadline, planning one would be refused with the cancel
  FOR i IN 1..2 LOOP
    BEGIN
      IF i = 2 THEN
        BEGIN
          LOOP
            EXIT WHEN clock_timestamp() > t + interval '60 s';
          END LOOP;
        EXCEPTION WHEN query_canceled THEN
          NULL;
        END;
      END IF;
      RAISE EXCEPTION USING ERRCODE = 'undefined_table',
        MESSAGE = 'relation "peeple" does not exist';
    EXCEPTION WHEN undefined_table THEN
      IF i = 2 THEN
        RAISE;
      END IF;
    END;
  END LOOP;
  RETURN 0;
END $f$;
SELECT a ->> 'errorType' AS "errorType", a -> 'affected_resources' AS affected,
       a ->> 'suggestion' AS suggestion
FROM call('execute_sql', '{"sql": "select late_missing_table()", "timeout_ms": 200}') AS a;

-- create table on an existing table names it (42P07)
SELECT jsonb_pretty(call('execute_sql', '{"sql": "create table people (id int)"}'));

-- ---------------------------------------------------------------------
-- the same error gives the same seed fields through a tool and through
-- ai_error_info(message, code)
CREATE TABLE same_cases (n int, who text, tool text, args jsonb);
INSERT INTO same_cases VALUES
  (1, 'regress_enr_agent', 'execute_sql', '{"sql": "select * from peeple"}'),
  (2, 'regress_enr_agent', 'execute_sql', '{"sql": "select * from secret"}'),
  (3, NULL, 'execute_sql', '{"sql": "create table people (id int)"}'),
  (4, NULL, 'execute_sql', '{"sql": "select nosuchcol from people"}'),
  (5, NULL, 'execute_sql', '{"sql": "selec 1"}'),
  (6, NULL, 'execute_sql', '{"sql": "select 1/0"}'),
  (7, NULL, 'execute_sql', '{"sql": "select ''x''::int"}'),
  (8, 'regress_enr_agent', 'update_data', '{"table": "dist", "set": {"k": 2}, "where": {"k": 1}}'),
  (9, 'regress_enr_agent', 'insert_data', '{"table": "dist", "rows": [{"k": null, "v": "x"}]}'),
  (10, 'regress_enr_agent', 'execute_sql', '{"sql": "select raise_as(''the partition column of table enr_test.dist cannot be NULL'', ''22004'')"}'),
  (11, 'regress_enr_agent', 'execute_sql', '{"sql": "select raise_as(''the partition column of table enr_test.dist should have a value'', ''22004'')"}'),
  (12, 'regress_enr_agent', 'execute_sql', '{"sql": "select raise_as(''cannot perform an INSERT without a partition column value'', ''0A000'')"}');
-- who: the role to run as (NULL: the caller)
CREATE FUNCTION run_case(who text, tool text, args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE a jsonb;
BEGIN
  IF who IS NOT NULL THEN
    EXECUTE format('SET LOCAL ROLE %I', who);
  END IF;
  a := call(tool, args);
  RESET ROLE;
  RETURN a;
END $$;
CREATE TABLE same_answers AS
  SELECT n, t.a AS tool_answer, ai_error_info(t.a ->> 'error', t.a ->> 'error_code') AS info_answer
  FROM same_cases, run_case(who, tool, args) AS t(a);
SELECT n, tool_answer ->> 'error' AS error, seed(tool_answer) AS seed
FROM same_answers ORDER BY n;
-- no differences in the seed fields (the ErrorData of these errors names
-- nothing more than the message), but for the table of a missing privilege,
-- which the statement that ran names qualified (2)
SELECT n, seed(tool_answer) AS tool, seed(info_answer) AS info
FROM same_answers WHERE seed(tool_answer) IS DISTINCT FROM seed(info_answer);
-- nor in the advice, except where the live call knows better: the tables
-- the role can see (1), the privilege the statement lacks (2), the columns
-- it may read (4), the keyword meant (5), examples of the type of a value it
-- wrote (7)
SELECT n, tool_answer ->> 'suggestion' AS tool, info_answer ->> 'suggestion' AS info
FROM same_answers
WHERE tool_answer -> 'suggestion' IS DISTINCT FROM info_answer -> 'suggestion'
   OR tool_answer -> 'suggested_actions' IS DISTINCT FROM info_answer -> 'suggested_actions'
ORDER BY n;

-- ---------------------------------------------------------------------
-- Citus: the distribution column, through the write tools (the whole
-- answers), and the texts through ai_error_info()
SET ROLE regress_enr_agent;
SELECT jsonb_pretty(call('update_data', '{"table": "dist", "set": {"k": 2}, "where": {"k": 1}}') - 'details');
SELECT jsonb_pretty(call('insert_data', '{"table": "dist", "rows": [{"k": null, "v": "x"}]}') - 'details');
RESET ROLE;
SELECT count(*) AS unchanged FROM dist WHERE k = 1 AND v = 'one';
SELECT m AS message, c AS code, a ->> 'errorType' AS "errorType", a ->> 'error_type' AS error_type,
       a -> 'affected_resources' AS affected
FROM (VALUES
  ('modifying the partition value of rows is not allowed', '0A000'),
  ('modifying the partition value of rows is not allowed', NULL),
  ('ERROR:  modifying the partition value of rows is not allowed (SQLSTATE 0A000)', NULL),
  ('cannot perform an INSERT with NULL in the partition column', '22004'),
  ('cannot perform an INSERT without a partition column value', NULL),
  ('the partition column of table public.orders cannot be NULL', '22004'),
  ('the partition column of table "Sales"."Orders" should have a value', '22004'),
  -- a specific code that says otherwise wins: the pattern does not apply
  ('modifying the partition value of rows is not allowed', '42501'),
  ('cannot perform an INSERT with NULL in the partition column', '23505'),
  -- near misses are not Citus's
  ('modifying the partition value is fine', '0A000'),
  ('cannot perform an INSERT with NULL', '22004')
) AS v(m, c), ai_error_info(m, c) AS a;

-- issue 31: what Citus's planner cannot run on distributed tables as
-- written (0A000, or XX000 for a few: alone both say unknown_error),
-- answered syntax_error with advice; its nodes it could not reach (08006),
-- connection_error with advice about the node rather than the client's
-- connection; the extension's own refusals of Citus's settings.  Texts and
-- codes as Citus 13.2 raises them, with the code and without.
SELECT m AS message, c AS code, a ->> 'errorType' AS "errorType", a ->> 'error_type' AS error_type,
       (a ->> 'retryable')::bool AS retryable, a -> 'affected_resources' AS affected,
       left(a ->> 'suggestion', 72) AS suggestion
FROM (VALUES
  ('the query contains a join that requires repartitioning', 'XX000'),
  ('the query contains a join that requires repartitioning', NULL),
  ('complex joins are only supported when all distributed tables are co-located and joined on their distribution columns', '0A000'),
  ('MERGE command is only supported when all distributed tables are co-located and joined on their distribution columns', '0A000'),
  ('correlated subqueries are not supported when the FROM clause contains a reference table', '0A000'),
  ('could not run distributed query with FOR UPDATE/SHARE commands', '0A000'),
  ('could not run distributed query with GROUPING SETS, CUBE, or ROLLUP', NULL),
  ('subquery in LIMIT is not supported in multi-shard queries', '0A000'),
  ('direct joins between distributed and local tables are not supported', '0A000'),
  ('functions used in UPDATE queries on distributed tables must not be VOLATILE', '0A000'),
  ('functions used in the WHERE/ON/WHEN clause of modification queries on distributed tables must not be VOLATILE', '0A000'),
  ('non-IMMUTABLE functions are not allowed in the RETURNING clause', '0A000'),
  ('STABLE functions used in UPDATE queries cannot be called with column references', '0A000'),
  ('cannot create constraint on "events"', '0A000'),
  ('creating unique indexes on non-partition columns is currently unsupported', '0A000'),
  ('cannot execute ALTER TABLE command involving partition column', 'XX000'),
  ('cannot execute ALTER TABLE command dropping partition column', NULL),
  ('the intermediate result size exceeds citus.max_intermediate_result_size (currently 1048576 kB)', 'XX000'),
  ('connection to the remote node agent@10.0.0.7:5432 failed with the following error: FATAL:  password authentication failed for user "agent"', '08006'),
  ('connection to the remote node postgres@/tmp/citus:5633 failed with the following error: connection to server on socket "/tmp/citus/.s.PGSQL.5633" failed: No such file or directory', NULL),
  ('could not establish any connections to the node worker-2:5432 after 5000 ms', '08006'),
  ('parameter "citus.override_table_visibility" cannot be changed during a tool call', '42501'),
  ('parameter "citus.max_adaptive_executor_pool_size" cannot be raised during a tool call', '42501'),
  ('function s.f() sets parameter "citus.show_shards_for_app_name_prefixes", which cannot be changed during a tool call', '42501'),
  -- a specific code that says otherwise wins; near misses are not Citus's
  ('the query contains a join that requires repartitioning', '42501'),
  ('could not run distributed query', '0A000'),
  ('parameter "work_mem" cannot be raised during a tool call', '42501')
) AS v(m, c), ai_error_info(m, c) AS a;
-- the whole advice of two of them
SELECT jsonb_pretty(ai_error_info('the query contains a join that requires repartitioning', 'XX000'));
SELECT jsonb_pretty(ai_error_info('connection to the remote node agent@10.0.0.7:5432 failed with the following error: FATAL:  password authentication failed for user "agent"', '08006'));

-- ---------------------------------------------------------------------
-- issue 32, item 7: a DROP that other objects depend on (2BP01) lists them
-- in dependencies, as PostgreSQL's DETAIL names them
CREATE TABLE parent (id int PRIMARY KEY);
CREATE TABLE child (id int, parent_id int REFERENCES parent);
CREATE VIEW parent_view AS SELECT id FROM parent;
SELECT jsonb_pretty(call('execute_sql', '{"sql": "DROP TABLE parent"}'));
-- a constraint another depends on
SELECT a -> 'dependencies' AS dependencies
FROM call('execute_sql', '{"sql": "ALTER TABLE parent DROP CONSTRAINT parent_pkey"}') AS a;
-- a function a view uses
CREATE FUNCTION twice(n int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT 2 * n $$;
CREATE VIEW twice_view AS SELECT twice(id) AS t FROM parent;
SELECT a -> 'dependencies' AS dependencies
FROM call('execute_sql', '{"sql": "DROP FUNCTION twice(int)"}') AS a;
-- nothing dropped
SELECT to_regclass('parent') IS NOT NULL AS parent_kept;
-- bounded: 25 views give 20, the DETAIL keeps them all
DO $$ BEGIN
  FOR i IN 1..25 LOOP
    EXECUTE format('CREATE VIEW many_%s AS SELECT id FROM parent', i);
  END LOOP;
END $$;
SELECT jsonb_array_length(a -> 'dependencies') AS dependencies,
       a -> 'dependencies' ->> 19 AS last_one,
       a -> 'details' ->> 'detail' LIKE '%view many_25 depends on table parent%' AS detail_has_all
FROM call('execute_sql', '{"sql": "DROP TABLE parent"}') AS a;
-- 2BP01 whose DETAIL lists no "x depends on y" lines (DROP ROLE, DROP
-- OWNED, a translated DETAIL): no dependencies
SELECT a ->> 'errorType' AS "errorType", a ? 'dependencies' AS has_dependencies
FROM call('execute_sql', '{"sql": "DROP ROLE regress_enr_agent"}') AS a;
SELECT a ->> 'errorType' AS "errorType", a ? 'dependencies' AS has_dependencies
FROM call('execute_sql', '{"sql": "DO $x$ BEGIN RAISE EXCEPTION ''cannot drop it'' USING ERRCODE = ''2BP01'', DETAIL = ''vue v dépend de table t''; END $x$"}') AS a;
-- a RAISE'd DETAIL: names clipped as values are, lines too long for an
-- object skipped, nothing from a line without a name or another code
SELECT left(d, 12) AS dependency, length(d) AS length
FROM call('execute_sql', jsonb_build_object('sql', format(
       'DO $x$ BEGIN RAISE EXCEPTION %L USING ERRCODE = %L, DETAIL = %L; END $x$',
       'cannot drop it', '2BP01',
       ' depends on x' || E'\n' || 'view v depends on ' || E'\n' ||
       repeat('y', 2000) || ' depends on t' || E'\n' ||
       'view ' || repeat('z', 250) || ' depends on t' || E'\n' || 'view w depends on t'))) AS a,
     jsonb_array_elements_text(a -> 'dependencies') AS d;
SELECT a ? 'dependencies' AS has_dependencies
FROM call('execute_sql', '{"sql": "DO $x$ BEGIN RAISE EXCEPTION ''boom'' USING ERRCODE = ''P0001'', DETAIL = ''view v depends on table t''; END $x$"}') AS a;
SET client_min_messages = warning;
DROP TABLE parent CASCADE;
RESET client_min_messages;

-- ---------------------------------------------------------------------
-- the rules that keep holding: secrets masked, no bound values, no empty
-- keys, texts clipped
-- a connection string in a message (08001: connection_error); only the
-- agent's own SQL in details.query has the password
SELECT a ->> 'errorType' AS "errorType", a ->> 'error' AS error,
       a ->> 'suggestion' AS suggestion,
       (a - 'details')::text LIKE '%hunter2%' AS leaks
FROM call('execute_sql', '{"sql": "select raise_as(''could not connect to server at postgresql://bob:hunter2@db.internal:5432/app: Connection refused'', ''08001'')"}') AS a;
-- a bound value is in PostgreSQL's message only, not in the enriched
-- fields (unless the error names it as an object: $1::regclass names the
-- relation the agent passed, back to the agent that passed it)
SELECT a ->> 'errorType' AS "errorType", a ->> 'suggestion' AS suggestion,
       (a - 'error')::text LIKE '%s3cr3tvalue%' AS value_echoed
FROM call('execute_sql', '{"sql": "select $1::int", "params": ["s3cr3tvalue"]}') AS a;
-- a name as long as a value is clipped wherever it is echoed
SELECT length(a ->> 'error') < 300 AS error_clipped,
       (SELECT max(length(r)) FROM jsonb_array_elements_text(a -> 'affected_resources') AS r) < 300 AS names_clipped,
       length(a ->> 'suggestion') < 400 AS suggestion_clipped
FROM call('execute_sql', jsonb_build_object('sql',
       format('select raise_as(%L, %L)', 'relation "' || repeat('x', 5000) || '" does not exist', '42P01'))) AS a;
-- RAISE with every field empty: no empty string in any key
SELECT a ->> 'error' AS error, a ->> 'errorType' AS "errorType",
       jsonb_path_exists(a, 'strict $.** ? (@ == "")') AS has_empty
FROM call('execute_sql', '{"sql": "DO $x$ BEGIN RAISE EXCEPTION USING MESSAGE = '''', HINT = '''', DETAIL = '''', COLUMN = '''', CONSTRAINT = '''', DATATYPE = '''', TABLE = '''', SCHEMA = ''''; END $x$"}') AS a;
SELECT a -> 'affected_resources' AS affected, a -> 'details' AS details,
       jsonb_path_exists(a, 'strict $.** ? (@ == "")') AS has_empty
FROM call('execute_sql', '{"sql": "DO $x$ BEGIN RAISE EXCEPTION ''boom'' USING HINT = '''', COLUMN = ''c'', TABLE = '''', CONSTRAINT = ''k''; END $x$"}') AS a;
SELECT ai_error_info('') AS empty_message;
-- RAISE naming a constraint of another kind than its SQLSTATE says (a
-- "foreign key" error naming a primary key, which references no table):
-- the answer explains nothing from the catalog (it looked up the
-- referenced table of OID 0 and crashed the server), as an agent role
SET ROLE regress_enr_agent;
SELECT a ->> 'errorType' AS "errorType", a ->> 'error_type' AS error_type,
       a -> 'affected_resources' AS affected, a ->> 'suggestion' AS suggestion
FROM call('execute_sql', '{"sql": "DO $x$ BEGIN RAISE EXCEPTION ''boom'' USING ERRCODE = ''23503'', SCHEMA = ''enr_test'', TABLE = ''people'', CONSTRAINT = ''people_pkey''; END $x$"}') AS a;
SELECT a ->> 'errorType' AS "errorType", a ->> 'error_type' AS error_type,
       a -> 'affected_resources' AS affected, a ->> 'suggestion' AS suggestion
FROM call('execute_sql', '{"sql": "DO $x$ BEGIN RAISE EXCEPTION ''boom'' USING ERRCODE = ''23514'', SCHEMA = ''enr_test'', TABLE = ''people'', CONSTRAINT = ''people_pkey''; END $x$"}') AS a;
-- the same with the right kind is explained as a real violation is
SELECT a ->> 'errorType' AS "errorType", a ->> 'error_type' AS error_type,
       a -> 'affected_resources' AS affected, a ->> 'suggestion' AS suggestion
FROM call('execute_sql', '{"sql": "DO $x$ BEGIN RAISE EXCEPTION ''boom'' USING ERRCODE = ''23505'', SCHEMA = ''enr_test'', TABLE = ''people'', CONSTRAINT = ''people_pkey''; END $x$"}') AS a;
RESET ROLE;

-- ---------------------------------------------------------------------
-- an empty tool name: a valid envelope (tool is never empty), with the
-- tools to use
SELECT jsonb_pretty(call('', '{}'));
SELECT a ->> 'tool' AS tool, a ->> 'error' AS error FROM call(' ', '{}') AS a;
SET neon_ai_tools.enabled_tools = 'list_tables';
SELECT a ->> 'tool' AS tool, a ->> 'suggestion' AS suggestion FROM call('', '{}') AS a;
RESET neon_ai_tools.enabled_tools;

SET client_min_messages = warning;
DROP SCHEMA enr_test CASCADE;
DROP OWNED BY regress_enr_agent;
DROP ROLE regress_enr_agent;
