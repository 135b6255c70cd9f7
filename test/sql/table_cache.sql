-- the table names calls resolved are kept per role and search_path, and
-- forgotten when a relation, schema, privilege or membership changes:
-- every answer below is what resolving the name from scratch gives
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA tc_a;
CREATE SCHEMA tc_b;
CREATE TABLE tc_a.t (v text);
INSERT INTO tc_a.t VALUES ('a');
CREATE FUNCTION tc_call(name text) RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(a #>> '{data,0,v}', a ->> 'errorType') || ' ' || coalesce(a ->> 'table', '-')
  FROM ai_tool_call('select_query', jsonb_build_object('table', name)) a $$;
SET search_path = tc_b, tc_a, public;
SELECT tc_call('t');
SELECT tc_call('t');
-- a table of that name created in a schema earlier in the search path
CREATE TABLE tc_b.t (v text);
INSERT INTO tc_b.t VALUES ('b');
SELECT tc_call('t');
-- the same inside one transaction, on the change's own command counter
BEGIN;
ALTER TABLE tc_b.t RENAME TO t_moved;
SELECT tc_call('t');
ALTER TABLE tc_b.t_moved RENAME TO t;
SELECT tc_call('t');
ROLLBACK;
-- made in a transaction that is rolled back
BEGIN;
CREATE TABLE tc_b.t2 (v text);
ALTER TABLE tc_b.t RENAME TO t_gone;
ALTER TABLE tc_b.t2 RENAME TO t;
INSERT INTO tc_b.t VALUES ('b2');
SELECT tc_call('t');
ROLLBACK;
SELECT tc_call('t');
-- dropped, and made again under the same name
DROP TABLE tc_b.t;
SELECT tc_call('t');
CREATE TABLE tc_b.t (v text);
INSERT INTO tc_b.t VALUES ('b again');
SELECT tc_call('t');
-- another search_path, and a schema renamed
SET search_path = tc_a, public;
SELECT tc_call('t');
ALTER SCHEMA tc_a RENAME TO tc_a2;
SELECT tc_call('t');
ALTER SCHEMA tc_a2 RENAME TO tc_a;
SELECT tc_call('t');
-- per role: a role without rights is refused at once, and a grant or a
-- revoke takes effect at the next call
CREATE ROLE regress_tc_agent;
GRANT USAGE ON SCHEMA tc_a, tc_b TO regress_tc_agent;
GRANT EXECUTE ON FUNCTION tc_call(text) TO regress_tc_agent;
SET ROLE regress_tc_agent;
SELECT tc_call('tc_a.t');
RESET ROLE;
GRANT SELECT ON tc_a.t TO regress_tc_agent;
SET ROLE regress_tc_agent;
SELECT tc_call('tc_a.t');
RESET ROLE;
REVOKE SELECT ON tc_a.t FROM regress_tc_agent;
SET ROLE regress_tc_agent;
SELECT tc_call('tc_a.t');
RESET ROLE;
-- ownership through membership: granted, then revoked
CREATE ROLE regress_tc_owner;
ALTER TABLE tc_a.t OWNER TO regress_tc_owner;
GRANT regress_tc_owner TO regress_tc_agent;
SET ROLE regress_tc_agent;
SELECT tc_call('tc_a.t');
RESET ROLE;
REVOKE regress_tc_owner FROM regress_tc_agent;
SET ROLE regress_tc_agent;
SELECT tc_call('tc_a.t');
RESET ROLE;
-- rights through pg_database_owner, which follows the database's owner
CREATE TABLE tc_a.owned (v text);
INSERT INTO tc_a.owned VALUES ('o');
GRANT SELECT ON tc_a.owned TO pg_database_owner;
SELECT current_database() AS db \gset
SELECT datdba::regrole AS db_owner FROM pg_database WHERE datname = current_database() \gset
ALTER DATABASE :"db" OWNER TO regress_tc_agent;
SET ROLE regress_tc_agent;
SELECT tc_call('tc_a.owned');
RESET ROLE;
ALTER DATABASE :"db" OWNER TO :"db_owner";
SET ROLE regress_tc_agent;
SELECT tc_call('tc_a.owned');
RESET ROLE;
-- a schema's USAGE revoked
GRANT SELECT ON tc_b.t TO regress_tc_agent;
SET ROLE regress_tc_agent;
SELECT tc_call('tc_b.t');
RESET ROLE;
REVOKE USAGE ON SCHEMA tc_b FROM regress_tc_agent;
SET ROLE regress_tc_agent;
SELECT tc_call('tc_b.t');
RESET ROLE;
-- more keys than the cache holds (600 search paths): it is emptied when
-- full, and every answer stays right
BEGIN;
SELECT count(*) AS right_answers
FROM generate_series(1, 600) g,
     LATERAL (SELECT set_config('search_path', 'tc_a, tc_x' || g || ', public', true)) s
WHERE tc_call('t') = 'a tc_a.t';
COMMIT;
SET search_path = tc_b, tc_a, public;
SELECT tc_call('t');
-- names that do not resolve are not kept
SELECT count(*) FILTER (WHERE tc_call('tc_a.nosuch') LIKE 'invalid_table%') AS unknown_names
FROM generate_series(1, 3);
-- the columns' type names (type_names.c) follow the catalog too
CREATE DOMAIN tc_b.amount AS numeric(8,2);
CREATE TABLE tc_b.typed (a tc_b.amount, v varchar(7));
INSERT INTO tc_b.typed VALUES (1.5, 'x');
SELECT ai_tool_call('select_query', '{"table": "tc_b.typed"}') -> 'columns' AS columns;
ALTER DOMAIN tc_b.amount RENAME TO price;
SELECT ai_tool_call('select_query', '{"table": "tc_b.typed"}') -> 'columns' AS columns;
BEGIN;
ALTER DOMAIN tc_b.price RENAME TO cost;
SELECT ai_tool_call('select_query', '{"table": "tc_b.typed"}') -> 'columns' AS columns;
ROLLBACK;
SELECT ai_tool_call('select_query', '{"table": "tc_b.typed"}') #> '{columns,0}' AS first_column;
-- qualified when the search_path does not show it
SET search_path = public;
SELECT ai_tool_call('select_query', '{"table": "tc_b.typed"}') #> '{columns,0}' AS first_column;
SET search_path = tc_b, tc_a, public;
SELECT ai_tool_call('select_query', '{"table": "tc_b.typed"}') #> '{columns,0}' AS first_column;
-- quote_all_identifiers: display names and type names follow it
SET quote_all_identifiers = on;
SELECT tc_call('t');
SELECT ai_tool_call('select_query', '{"table": "tc_b.typed"}') #> '{columns,0}' AS first_column;
RESET quote_all_identifiers;
SELECT tc_call('t');
SELECT ai_tool_call('select_query', '{"table": "tc_b.typed"}') #> '{columns,0}' AS first_column;
DROP SCHEMA tc_a, tc_b CASCADE;
DROP OWNED BY regress_tc_agent, regress_tc_owner;
DROP ROLE regress_tc_agent, regress_tc_owner;
DROP FUNCTION IF EXISTS tc_call(text);
RESET search_path;
