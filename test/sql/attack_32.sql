-- Adversarial review of issue 32's error answers (did-you-mean, value
-- advice, write failures).  Each case is a call an agent controls; the
-- answer must be an answer (never an ERROR out of ai_tool_call, never a
-- hang), name nothing the role may not see, and never advise the opposite
-- of what was asked.  Every case failed before its fix (fixed): its
-- expected output is the correct answer.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA atk32;
CREATE TABLE atk32.people (id int PRIMARY KEY, name text, status text, ssn text);
INSERT INTO atk32.people VALUES (1, 'ann', 'active', '123-45');
CREATE SCHEMA atk32_closed;
CREATE TABLE atk32_closed.vault (id int, k text,
  CONSTRAINT vault_token CHECK (current_user <> 'api-key-s3cr3t'));
CREATE ROLE regress_atk32_agent;
GRANT USAGE ON SCHEMA atk32 TO regress_atk32_agent;
GRANT SELECT (id, name, status), INSERT, UPDATE, DELETE ON atk32.people TO regress_atk32_agent;
-- a schema the agent owns, for statements of its own
CREATE SCHEMA atk32_own AUTHORIZATION regress_atk32_agent;
-- any function that raises what it is given (a validation helper, a DO block)
CREATE FUNCTION atk32.boom(m text, c text) RETURNS int LANGUAGE plpgsql
  AS $$BEGIN RAISE EXCEPTION '%', m USING ERRCODE = c; END$$;

-- an answer, or the ERROR that escaped ai_tool_call
CREATE FUNCTION atk32.outcome(tool text, args jsonb) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  a jsonb;
BEGIN
  a := ai_tool_call(tool, args);
  RETURN 'answered: ' || (a ->> 'errorType') || coalesce(' did_you_mean=' || (a ->> 'did_you_mean'), '');
EXCEPTION WHEN OTHERS THEN
  RETURN 'escaped: ' || SQLERRM;
END $$;
CREATE FUNCTION atk32.fix(tool text, args jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT jsonb_build_object('did_you_mean', a -> 'did_you_mean', 'suggestion', a -> 'suggestion',
                            'actions', a -> 'suggested_actions')
  FROM ai_tool_call(tool, args) a $$;

SET ROLE regress_atk32_agent;
SET search_path = atk32, public;

-- 1. (fixed) a 42601 whose message quotes an empty token: find_near()
-- looped on strstr(p, "") forever, with no interrupt check (neither
-- statement_timeout nor pg_terminate_backend stopped it; only kill -9)
SET statement_timeout = '10s';
SELECT atk32.outcome('execute_sql', jsonb_build_object('sql',
  $s$SELECT atk32.boom('syntax error at or near ""', '42601')$s$));
SELECT atk32.outcome('execute_sql', jsonb_build_object('sql',
  $s$DO $$BEGIN RAISE EXCEPTION 'syntax error at or near ""' USING ERRCODE = '42601'; END$$$s$));
RESET statement_timeout;

-- 2. (fixed) a 42703 in a utility statement: the raw walker raised
-- "unrecognized node type" out of ai_tool_call; a view's query is read
SELECT atk32.outcome('execute_sql', '{"sql": "CREATE VIEW atk32_own.v AS SELECT nmae FROM atk32.people"}');
SELECT atk32.outcome('execute_sql', '{"sql": "CREATE TABLE atk32_own.c AS SELECT nmae FROM atk32.people"}');
SELECT atk32.outcome('execute_sql', '{"sql": "COMMENT ON COLUMN atk32.people.nmae IS NULL"}');
SELECT atk32.outcome('execute_sql', $j${"sql": "DO $$BEGIN RAISE EXCEPTION 'column \"nmae\" does not exist' USING ERRCODE = '42703'; END$$"}$j$);

-- 3. (fixed) SELECT ... INTO TEMP schema.t, once the session has a
-- temporary schema: RangeVarGetRelidExtended() raised "temporary tables
-- cannot specify a schema name" out of the answer
RESET ROLE;
CREATE TEMP TABLE atk32_tmp (a int);
SET ROLE regress_atk32_agent;
SELECT atk32.outcome('execute_sql', '{"sql": "SELECT nmae INTO TEMP atk32.x FROM people"}');

-- 4. (fixed) a quoted name longer than 63 bytes, cut in the middle of a
-- character: "invalid byte sequence for encoding UTF8" out of the answer
DO $$BEGIN EXECUTE format('CREATE TABLE atk32_own.mb (%I int)', 'ab' || repeat('é', 30) || 'x'); END$$;
SELECT atk32.outcome('execute_sql', jsonb_build_object('sql',
  format('SELECT atk32.boom(%L, %L) FROM (SELECT 1) s LEFT JOIN atk32_own.mb ON true',
         'column "bb' || repeat('é', 31) || '" does not exist', '42703'))) LIKE 'answered%' AS answered;

-- 5. (fixed) write failures read the statement's relations with
-- RangeVarGetRelid() (statement_shape.c), which raises for a schema the
-- role may not use at answer time (USAGE granted inside the call, which
-- was rolled back): 22001 and 42501 escape as "permission denied for schema"
CREATE TABLE atk32_own.t (v varchar(1));
REVOKE USAGE ON SCHEMA atk32_own FROM regress_atk32_agent;
SELECT atk32.outcome('execute_sql', '{"mode": "multiple", "sql": "GRANT USAGE ON SCHEMA atk32_own TO regress_atk32_agent; INSERT INTO atk32_own.t VALUES (''xx'')"}') LIKE 'answered%' AS answered;
SELECT atk32.outcome('execute_sql', '{"mode": "multiple", "sql": "GRANT USAGE ON SCHEMA atk32_own TO regress_atk32_agent; REVOKE INSERT ON atk32_own.t FROM regress_atk32_agent; INSERT INTO atk32_own.t VALUES (''x'')"}') LIKE 'answered%' AS answered;
RESET ROLE;
GRANT USAGE ON SCHEMA atk32_own TO regress_atk32_agent;
SET ROLE regress_atk32_agent;

-- 6. (fixed) a negated filter operator is offered its positive form, the
-- opposite filter ("not_null": true -> "is_null" selects the null rows; in
-- delete_data that deletes the rows the agent meant to keep)
SELECT op, coalesce(atk32.fix('delete_data', jsonb_build_object('table', 'people', 'where',
         jsonb_build_object('status', jsonb_build_object(op, true)))) ->> 'did_you_mean'
       IN ('is_null', 'like', 'ilike', 'between', 'contains', 'not_in', 'in', 'eq'), false) AS inverted_or_wrong
FROM unnest(ARRAY['not_null', 'is_not_null', 'notnull', '$exists', 'not_contains', 'nlike',
                  'not_like', 'not_ilike', 'not_between', 'nbetween']) op;
-- the not-null forms are told how to write it; negations with a negated
-- operator get it
SELECT atk32.fix('delete_data', '{"table": "people", "where": {"status": {"not_null": true}}}') -> 'actions' AS not_null,
       atk32.fix('delete_data', '{"table": "people", "where": {"status": {"nin": ["a"]}}}') ->> 'did_you_mean' AS nin,
       atk32.fix('delete_data', '{"table": "people", "where": {"status": {"not_eq": "a"}}}') ->> 'did_you_mean' AS not_eq;

-- 7. (fixed) a name that asks for a plan or a preview of a write is offered
-- the writing tool (writes never get a reading tool, so explain_query is
-- ruled out); "readonly_sql" gets execute_sql, which writes
SELECT t, coalesce(atk32.fix(t, '{}') ->> 'did_you_mean' IN ('delete_data', 'update_data', 'insert_data', 'execute_sql'), false) AS writer
FROM unnest(ARRAY['explain_delete', 'describe_delete', 'preview_delete', 'dry_run_delete',
                  'explain_update', 'readonly_sql']) t;

-- 8. (fixed) an error's schema, table and constraint fields are whatever
-- its raiser says (RAISE ... USING SCHEMA, TABLE, CONSTRAINT): the answer
-- explains the CHECK of a table in a schema the role may not use
SELECT atk32.fix('execute_sql', $j${"sql": "DO $$BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '23514', SCHEMA = 'atk32_closed', TABLE = 'vault', CONSTRAINT = 'vault_token'; END$$"}$j$)::text
       ~ 's3cr3t|atk32_closed' AS names_hidden_table;

RESET ROLE;
RESET search_path;
DROP SCHEMA atk32, atk32_closed, atk32_own CASCADE;
DROP ROLE regress_atk32_agent;
