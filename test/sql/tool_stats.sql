-- ai_tool_stats (issue 34): the SQL surface, its privileges, and what it
-- answers when neon_ai_tools is not in shared_preload_libraries, which is
-- how the regress cluster runs (scripts/cluster.sh).  The counts
-- themselves, under a preloaded server and 8 concurrent sessions, are
-- test/t/026_tool_stats.pl's.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;

-- the columns, in order, of the function and of the view
SELECT p.proargnames[1:15] AS columns,
       array(SELECT format_type(t, NULL) FROM unnest(p.proallargtypes) t) AS types
FROM pg_proc p WHERE p.proname = 'ai_tool_stats';
SELECT attname, format_type(atttypid, atttypmod)
FROM pg_attribute WHERE attrelid = 'ai_tool_stats'::regclass AND attnum > 0
ORDER BY attnum;

-- the settings (the library loaded first: the extension may already exist)
-- track_stats is the administrator's; stats_max, read at server start,
-- exists only when the library is preloaded
LOAD 'neon_ai_tools';
SELECT name, setting, context, vartype FROM pg_settings
WHERE name LIKE 'neon_ai_tools.%stats%'
ORDER BY name;

-- privileges: everyone may read (rows filtered by role), only superusers
-- and the roles they grant EXECUTE to may reset
CREATE ROLE regress_ts_agent;
CREATE ROLE regress_ts_admin;
GRANT EXECUTE ON FUNCTION ai_tool_stats_reset() TO regress_ts_admin;
SELECT r AS role,
       has_function_privilege(r, 'ai_tool_stats()', 'EXECUTE') AS read,
       has_table_privilege(r, 'ai_tool_stats', 'SELECT') AS read_view,
       has_function_privilege(r, 'ai_tool_stats_reset()', 'EXECUTE') AS reset
FROM unnest(ARRAY['regress_ts_agent', 'regress_ts_admin']) r;
SET ROLE regress_ts_agent;
SELECT ai_tool_stats_reset();
SET neon_ai_tools.track_stats = off;
RESET ROLE;

-- not preloaded: calls still run (and are not counted) ...
CREATE TABLE ts_items (id int PRIMARY KEY, name text);
INSERT INTO ts_items VALUES (1, 'one'), (2, 'two');
SELECT ai_tool_call('select_query', '{"table": "ts_items"}') ->> 'rowCount' AS rows;
-- ... and reading or resetting the counts is an error that says why
SELECT * FROM ai_tool_stats();
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM ai_tool_stats;
SELECT ai_tool_stats_reset();
SET ROLE regress_ts_admin;
SELECT ai_tool_stats_reset();
RESET ROLE;
SET ROLE regress_ts_agent;
SELECT count(*) FROM ai_tool_stats;
RESET ROLE;

DROP TABLE ts_items;
REVOKE EXECUTE ON FUNCTION ai_tool_stats_reset() FROM regress_ts_admin;
DROP ROLE regress_ts_agent;
DROP ROLE regress_ts_admin;
