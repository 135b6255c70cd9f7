-- update_data: filters, confirmation, dry runs, the write cap
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA upd_test;
SET search_path = upd_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

CREATE TABLE tasks (id int PRIMARY KEY, title text, status text DEFAULT 'open', prio int, tags text[], done_at date);
INSERT INTO tasks SELECT g, 'task ' || g, CASE WHEN g % 2 = 0 THEN 'open' ELSE 'closed' END, g % 5, '{}', NULL
FROM generate_series(1, 100) g;

-- a structured filter; values converted to the column types
SELECT jsonb_pretty(call('update_data', '{"table": "tasks", "set": {"status": "done", "prio": "9", "done_at": "2024-05-01"}, "where": {"id": {"in": [1, 2]}}, "returning": ["id", "status", "prio", "done_at"]}'));
-- a SQL condition string
SELECT call('update_data', '{"table": "tasks", "set": {"tags": ["urgent"]}, "where": "id BETWEEN 3 AND 4", "returning": "id, tags"}') -> 'data';
-- no match is success with affectedRows 0
SELECT call('update_data', '{"table": "tasks", "set": {"prio": 1}, "where": {"id": 999}}') - 'columns';
-- returning [] returns no rows
SELECT call('update_data', '{"table": "tasks", "set": {"prio": 1}, "where": {"id": 5}, "returning": []}') - 'columns';
-- set to null
SELECT call('update_data', '{"table": "tasks", "set": {"title": null}, "where": {"id": 6}, "returning": ["id", "title"]}') -> 'data';

-- without where: refused, nothing changed
SELECT call('update_data', '{"table": "tasks", "set": {"status": "gone"}}');
SELECT call('update_data', '{"table": "tasks", "set": {"status": "gone"}, "where": {}}') ->> 'errorType' AS error_type;
SELECT count(*) AS gone FROM tasks WHERE status = 'gone';
-- with confirm_all_rows and a cap that allows it: done, with a data-loss warning
SELECT call('update_data', '{"table": "tasks", "set": {"prio": 0}, "confirm_all_rows": true, "max_affected": 100, "returning": []}') - 'columns';
SELECT count(*) AS prio_zero FROM tasks WHERE prio = 0;

-- dry run: reports, keeps nothing
SELECT call('update_data', '{"table": "tasks", "set": {"status": "archived"}, "where": {"id": {"lte": 3}}, "dry_run": true, "returning": ["id", "status"]}') - 'columns';
SELECT count(*) AS archived FROM tasks WHERE status = 'archived';

-- 50 matching rows with max_affected 10: limit_exceeded, nothing changed
SELECT count(*) AS matching FROM tasks WHERE id % 2 = 0;
SELECT call('update_data', '{"table": "tasks", "set": {"status": "capped"}, "where": "id % 2 = 0", "max_affected": 10}');
SELECT count(*) AS capped FROM tasks WHERE status = 'capped';
-- the server's limit applies too, and max_affected cannot raise it
SET neon_ai_tools.max_affected_rows = 20;
SELECT call('update_data', '{"table": "tasks", "set": {"status": "capped"}, "where": {"status": "open"}}') ->> 'error' AS error;
SELECT call('update_data', '{"table": "tasks", "set": {"status": "capped"}, "where": {"status": "open"}, "max_affected": 50}') ->> 'error' AS error;
RESET neon_ai_tools.max_affected_rows;
SELECT count(*) AS capped FROM tasks WHERE status = 'capped';

-- argument and value errors
SELECT call('update_data', '{"table": "tasks", "set": {}, "where": {"id": 1}}') ->> 'error' AS error;
SELECT call('update_data', '{"table": "tasks", "set": {"stauts": "x"}, "where": {"id": 1}}') ->> 'suggestion' AS suggestion;
SELECT call('update_data', '{"table": "tasks", "set": {"prio": "high"}, "where": {"id": 1}}') - 'details';
SELECT call('update_data', '{"table": "tasks", "set": {"id": 2}, "where": {"id": 1}}') ->> 'suggestion' AS suggestion;
SELECT call('update_data', '{"table": "tasks", "set": {"prio": 1}, "where": "id = 1; DELETE FROM tasks"}') ->> 'errorType' AS error_type;
SELECT count(*) AS tasks FROM tasks;

-- a referenced row cannot be re-keyed: the referencing table is named
CREATE TABLE comments (id int, task_id int REFERENCES tasks);
INSERT INTO comments VALUES (1, 10);
SELECT call('update_data', '{"table": "tasks", "set": {"id": 1000}, "where": {"id": 10}}') - 'details';

-- row-level security: only visible rows are updated; WITH CHECK applies
CREATE ROLE regress_upd_agent;
GRANT USAGE ON SCHEMA upd_test TO regress_upd_agent;
GRANT EXECUTE ON FUNCTION call(text, jsonb) TO regress_upd_agent;
GRANT SELECT, UPDATE ON tasks TO regress_upd_agent;
ALTER TABLE tasks ENABLE ROW LEVEL SECURITY;
CREATE POLICY only_closed ON tasks USING (status = 'closed') WITH CHECK (status = 'closed');
SET ROLE regress_upd_agent;
SELECT call('update_data', '{"table": "tasks", "set": {"title": "seen"}, "where": {"id": {"lte": 10}}, "returning": ["id"]}') -> 'affectedRows' AS affected;
SELECT call('update_data', '{"table": "tasks", "set": {"status": "open"}, "where": {"id": 7}}') - 'details';
RESET ROLE;
SELECT count(*) AS seen FROM tasks WHERE title = 'seen';

-- read-only mode refuses it
SET neon_ai_tools.read_only = on;
SELECT call('update_data', '{"table": "tasks", "set": {"prio": 1}, "where": {"id": 1}}') ->> 'errorType' AS error_type;
RESET neon_ai_tools.read_only;

DROP SCHEMA upd_test CASCADE;
DROP ROLE regress_upd_agent;
