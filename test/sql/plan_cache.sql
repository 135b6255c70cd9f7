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

-- and reuses its plan: the session's counters show one statement prepared
-- by the first call and found by the 19 others, and it is kept
SELECT plans, hits, misses, evictions FROM ai_tool_plan_cache_stats();
SELECT plans AS plans0, hits AS hits0, misses AS misses0 FROM ai_tool_plan_cache_stats() \gset
SELECT count(ai_tool_call('select_query', '{"table": "pc_b.t", "where": {"v": "b2"}}')) AS calls
FROM generate_series(1, 5);
SELECT plans - :plans0 AS new_plans, hits - :hits0 AS reused, misses - :misses0 AS prepared,
       bytes > 0 AS holds_memory
FROM ai_tool_plan_cache_stats();
-- the same shape with other values is the same statement: reused
SELECT ai_tool_call('select_query', '{"table": "pc_b.t", "where": {"v": "b1"}}') -> 'data' AS data;
SELECT hits - :hits0 AS reused, misses - :misses0 AS prepared FROM ai_tool_plan_cache_stats();

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
SELECT hits AS hits0, misses AS misses0 FROM ai_tool_plan_cache_stats() \gset
SELECT ai_tool_call('select_query', '{"table": "pc_a.t", "where": {"id": 3}}') -> 'data' AS uncached;
SELECT ai_tool_call('select_query', '{"table": "pc_a.t", "where": {"id": 3}}') -> 'data' AS uncached;
-- nothing kept, nothing reused
SELECT plans, hits - :hits0 AS reused, misses - :misses0 AS looked_up FROM ai_tool_plan_cache_stats();
RESET neon_ai_tools.plan_cache_size;

-- the cache's limits are superuser-only: a role cannot raise them
CREATE ROLE regress_pc_agent;
SET ROLE regress_pc_agent;
SET neon_ai_tools.plan_cache_size = 100000;
SET neon_ai_tools.plan_cache_memory = '1GB';
SELECT set_config('neon_ai_tools.plan_cache_memory', '1GB', false);
RESET ROLE;
SHOW neon_ai_tools.plan_cache_size;
SHOW neon_ai_tools.plan_cache_memory;

-- which statements are kept, seen in the session's memory contexts: each
-- kept statement is a CachedPlanSource named by its text (between calls,
-- only kept ones exist)
CREATE TABLE pc_a.probe (a int, b int, c int, d int, e int);
INSERT INTO pc_a.probe VALUES (1, 2, 3, 4, 5);
CREATE VIEW pc_a.kept AS
SELECT count(*) FILTER (WHERE ident LIKE '%pc_a.probe%') AS generated,
       count(*) FILTER (WHERE ident LIKE '%pcmark_agent%') AS agent
FROM pg_backend_memory_contexts
WHERE name = 'CachedPlanSource';
-- generated SQL is kept, once per statement
SELECT ai_tool_call('select_query', '{"table": "pc_a.probe", "columns": ["a"]}') -> 'data' AS data
FROM generate_series(1, 3);
SELECT * FROM pc_a.kept;
-- agent SQL longer than 8192 bytes is not kept, even run twice; up to
-- 8192 bytes it is, from its second run on (a first run is one-shot)
SELECT length(sql), ai_tool_call('execute_sql', jsonb_build_object('sql', sql)) ->> 'rowCount' AS rows
FROM (SELECT 'SELECT ''pcmark_agent'' AS m, ''' || repeat('x', n) || ''' AS pad' AS sql
      FROM unnest(ARRAY[8156, 20000, 8156, 20000]) n) s;
SELECT * FROM pc_a.kept;
SELECT length(sql), ai_tool_call('execute_sql', jsonb_build_object('sql', sql)) ->> 'rowCount' AS rows
FROM (SELECT 'SELECT ''pcmark_agent'' AS m, ''' || repeat('x', 8155) || ''' AS pad' AS sql) s;
SELECT * FROM pc_a.kept;
SELECT length(sql), ai_tool_call('execute_sql', jsonb_build_object('sql', sql)) ->> 'rowCount' AS rows
FROM (SELECT 'SELECT ''pcmark_agent'' AS m, ''' || repeat('x', 8155) || ''' AS pad' AS sql) s;
SELECT * FROM pc_a.kept;
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT ''pcmark_agent'' AS short"}') -> 'data' AS data;
SELECT * FROM pc_a.kept;
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT ''pcmark_agent'' AS short"}') -> 'data' AS data;
SELECT * FROM pc_a.kept;

-- at most plan_cache_size statements are kept, the least recently used go
SET neon_ai_tools.plan_cache_size = 3;
SELECT evictions AS evictions0 FROM ai_tool_plan_cache_stats() \gset
SELECT ai_tool_call('select_query', jsonb_build_object('table', 'pc_a.probe', 'columns', jsonb_build_array(c))) -> 'data' AS data
FROM unnest(ARRAY['a', 'b', 'c', 'd', 'e']) c;
SELECT * FROM pc_a.kept;
SELECT plans, evictions > :evictions0 AS evicted FROM ai_tool_plan_cache_stats();
-- the most recent ones: columns c, d and e
SELECT count(*) AS recent FROM pg_backend_memory_contexts
WHERE name = 'CachedPlanSource'
  AND ident LIKE '%pc_a.probe%' AND ident ~ '\m[cde]"? FROM ';
RESET neon_ai_tools.plan_cache_size;

-- the kept plans hold at most plan_cache_memory: 40 distinct statements
-- under 64kB leave fewer kept, within the limit
SET neon_ai_tools.plan_cache_memory = '64kB';
SELECT count(*) FILTER (WHERE (ai_tool_call('select_query', jsonb_build_object('table', 'pc_a.probe',
	'where', jsonb_build_object('or', (SELECT jsonb_agg(jsonb_build_object('a', g)) FROM generate_series(1, n) g))))
	->> 'rowCount') = '1') AS answered
FROM generate_series(1, 40) n;
SELECT count(*) BETWEEN 1 AND 39 AS some_kept, sum(total_bytes) <= 64 * 1024 AS within_limit
FROM pg_backend_memory_contexts
WHERE name IN ('CachedPlanSource', 'CachedPlan')
  AND ident LIKE '%pc_a.probe%';
-- a plan larger than the limit is used, not kept
SET neon_ai_tools.plan_cache_memory = '1kB';
SELECT ai_tool_call('select_query', '{"table": "pc_a.probe", "columns": ["e"]}') -> 'data' AS data;
SELECT * FROM pc_a.kept;
-- zero disables the cache and frees what it kept
RESET neon_ai_tools.plan_cache_memory;
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT ''pcmark_agent'' AS short"}') -> 'data' AS data;
SELECT * FROM pc_a.kept;
SET neon_ai_tools.plan_cache_memory = 0;
SELECT ai_tool_call('select_query', '{"table": "pc_a.probe", "columns": ["e"]}') -> 'data' AS data;
SELECT * FROM pc_a.kept;
RESET neon_ai_tools.plan_cache_memory;

DROP SCHEMA pc_a CASCADE;
DROP SCHEMA pc_b CASCADE;
DROP ROLE regress_pc_one;
DROP ROLE regress_pc_two;
DROP ROLE regress_pc_agent;
