-- the plan cache: repeated calls reuse prepared plans, and stay correct
-- across schema changes, type changes, search_path, roles and eviction
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA pc_a;
CREATE SCHEMA pc_b;
CREATE TABLE pc_a.t (id int PRIMARY KEY, v text);
INSERT INTO pc_a.t SELECT g, 'a' || g FROM generate_series(1, 10) g;
CREATE TABLE pc_b.t (id int PRIMARY KEY, v text);
INSERT INTO pc_b.t VALUES (1, 'b1'), (2, 'b2');

-- the same call many times gives the same answer
SELECT count(DISTINCT ai_tool_call('select_query', '{"table": "pc_a.t", "where": {"id": 3}}') - 'executionTime') AS distinct_answers
FROM generate_series(1, 20);

-- a column added after the plan was cached shows up
SELECT ai_tool_call('select_query', '{"table": "pc_a.t", "where": {"id": 3}}') -> 'data' AS before;
ALTER TABLE pc_a.t ADD COLUMN extra int DEFAULT 7;
SELECT ai_tool_call('select_query', '{"table": "pc_a.t", "where": {"id": 3}}') -> 'data' AS after_add;
-- a dropped and recreated table is planned again
DROP TABLE pc_a.t;
CREATE TABLE pc_a.t (id int PRIMARY KEY, w text);
INSERT INTO pc_a.t VALUES (3, 'new');
SELECT ai_tool_call('select_query', '{"table": "pc_a.t", "where": {"id": 3}}') -> 'data' AS recreated;
-- a changed column type changes the parameter types, and so the plan
ALTER TABLE pc_a.t ALTER COLUMN id TYPE bigint;
SELECT ai_tool_call('select_query', '{"table": "pc_a.t", "where": {"id": 3}}') -> 'data' AS retyped;
SELECT ai_tool_call('select_query', '{"table": "pc_a.t", "where": {"id": "9999999999"}}') -> 'rowCount' AS big_key;

-- the agent's own SQL follows the caller's search_path, even when cached
SET search_path = pc_a, public;
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT count(*) AS n FROM t"}') -> 'data' AS in_a;
SET search_path = pc_b, public;
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT count(*) AS n FROM t"}') -> 'data' AS in_b;
RESET search_path;

-- row-level security: one cached shape, each role sees its own rows
CREATE TABLE pc_a.notes (id int, owner text);
INSERT INTO pc_a.notes VALUES (1, 'regress_pc_one'), (2, 'regress_pc_two'), (3, 'regress_pc_two');
ALTER TABLE pc_a.notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON pc_a.notes USING (owner = current_user);
CREATE ROLE regress_pc_one;
CREATE ROLE regress_pc_two;
GRANT USAGE ON SCHEMA pc_a TO regress_pc_one, regress_pc_two;
GRANT SELECT ON pc_a.notes TO regress_pc_one, regress_pc_two;
SET ROLE regress_pc_one;
SELECT ai_tool_call('select_query', '{"table": "pc_a.notes", "columns": ["id"], "order_by": "id"}') -> 'data' AS one_sees;
SET ROLE regress_pc_two;
SELECT ai_tool_call('select_query', '{"table": "pc_a.notes", "columns": ["id"], "order_by": "id"}') -> 'data' AS two_sees;
RESET ROLE;
-- and a role that loses its grant is refused, cached plan or not
REVOKE SELECT ON pc_a.notes FROM regress_pc_two;
SET ROLE regress_pc_two;
SELECT ai_tool_call('select_query', '{"table": "pc_a.notes", "columns": ["id"], "order_by": "id"}') ->> 'errorType' AS after_revoke;
RESET ROLE;

-- a tiny cache evicts and stays correct; no cache at all works too
SET neon_ai_tools.plan_cache_size = 1;
SELECT ai_tool_call('select_query', format('{"table": "pc_a.t", "where": {"id": %s}, "columns": ["%s"]}', 3, c)::jsonb) -> 'data' AS data
FROM unnest(ARRAY['id', 'w', 'id', 'w']) c;
SET neon_ai_tools.plan_cache_size = 0;
SELECT ai_tool_call('select_query', '{"table": "pc_a.t", "where": {"id": 3}}') -> 'data' AS uncached;
RESET neon_ai_tools.plan_cache_size;

DROP SCHEMA pc_a CASCADE;
DROP SCHEMA pc_b CASCADE;
DROP ROLE regress_pc_one;
DROP ROLE regress_pc_two;
