-- Fixtures of empty_hints.sh: one table of 100,000 rows whose status holds
-- five values, in three forms that send an empty read's hints down each
-- path (src/answer/empty_hints.c).
SET client_min_messages = warning;
DROP TABLE IF EXISTS hint_stats, hint_probe, hint_scan, hint_small;
-- indexed and analyzed: the values come from the statistics
CREATE TABLE hint_stats (id int PRIMARY KEY, status text NOT NULL, note text);
INSERT INTO hint_stats
SELECT g, (ARRAY['active', 'idle', 'cancelled', 'pending', 'closed'])[1 + g % 5], 'note ' || g
FROM generate_series(1, 100000) g;
CREATE INDEX ON hint_stats (status);
VACUUM ANALYZE hint_stats;
-- indexed, no statistics: the bounded query probes the index
CREATE TABLE hint_probe (id int PRIMARY KEY, status text NOT NULL, note text)
    WITH (autovacuum_enabled = off);
INSERT INTO hint_probe SELECT * FROM hint_stats;
CREATE INDEX ON hint_probe (status);
VACUUM hint_probe;
-- no index, no statistics: the read scans the table, the bounded query
-- its first 1,000 rows
CREATE TABLE hint_scan (id int PRIMARY KEY, status text NOT NULL, note text)
    WITH (autovacuum_enabled = off);
INSERT INTO hint_scan SELECT * FROM hint_stats;
VACUUM hint_scan;
-- 200 rows, no index, no statistics (never analyzed: fewer changes than
-- autovacuum waits for): the read and the bounded query both scan it all
CREATE TABLE hint_small (id int PRIMARY KEY, status text NOT NULL, note text)
    WITH (autovacuum_enabled = off);
INSERT INTO hint_small SELECT * FROM hint_stats WHERE id <= 200;
VACUUM hint_small;
-- row-level security in force for the caller: the bounded read is a query
-- as the role (a scan of hint_rls, probes of hint_rls_probe), run through
-- a function owned by hint_agent (a superuser bypasses every policy)
DROP TABLE IF EXISTS hint_rls, hint_rls_probe;
DROP FUNCTION IF EXISTS as_hint_agent(jsonb);
DROP ROLE IF EXISTS hint_agent;
CREATE ROLE hint_agent;
CREATE TABLE hint_rls (id int PRIMARY KEY, status text NOT NULL, note text)
    WITH (autovacuum_enabled = off);
INSERT INTO hint_rls SELECT * FROM hint_small;
CREATE TABLE hint_rls_probe (id int PRIMARY KEY, status text NOT NULL, note text)
    WITH (autovacuum_enabled = off);
INSERT INTO hint_rls_probe SELECT * FROM hint_stats;
CREATE INDEX ON hint_rls_probe (status);
VACUUM hint_rls, hint_rls_probe;
ALTER TABLE hint_rls ENABLE ROW LEVEL SECURITY;
ALTER TABLE hint_rls_probe ENABLE ROW LEVEL SECURITY;
CREATE POLICY all_rows ON hint_rls USING (true);
CREATE POLICY all_rows ON hint_rls_probe USING (true);
GRANT SELECT ON hint_rls, hint_rls_probe TO hint_agent;
CREATE FUNCTION as_hint_agent(args jsonb) RETURNS jsonb LANGUAGE sql SECURITY DEFINER
    AS $$ SELECT ai_tool_call('select_query', args) $$;
ALTER FUNCTION as_hint_agent(jsonb) OWNER TO hint_agent;
