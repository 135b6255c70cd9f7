-- security: the bypass classes known from other agent database tools,
-- through every string-bearing parameter of every tool, as an agent role;
-- then proof that nothing happened.  Also identifiers that are hostile by
-- their shape, and privilege-filtered discovery.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA sec;
CREATE TABLE sec.canary (id int PRIMARY KEY, note text);
INSERT INTO sec.canary VALUES (1, 'alive'), (2, 'alive');
CREATE TABLE sec.spylog (entry text);
CREATE TABLE sec.inbox (note text);
CREATE SEQUENCE sec.canary_seq;
CREATE FUNCTION sec.spy() RETURNS int LANGUAGE plpgsql VOLATILE AS $$
BEGIN INSERT INTO sec.spylog VALUES ('ran'); RETURN 1; END $$;
CREATE TABLE sec.other (id int, secret text);
INSERT INTO sec.other VALUES (1, 'do-not-read');

CREATE ROLE regress_sec_agent;
GRANT USAGE ON SCHEMA sec TO regress_sec_agent;
GRANT SELECT, INSERT, UPDATE, DELETE ON sec.canary TO regress_sec_agent;
GRANT INSERT ON sec.spylog TO regress_sec_agent;
GRANT INSERT ON sec.inbox TO regress_sec_agent;
GRANT USAGE, SELECT, UPDATE ON SEQUENCE sec.canary_seq TO regress_sec_agent;

-- the payloads
CREATE TABLE sec.payloads (n int, payload text);
INSERT INTO sec.payloads VALUES
  (1, 'id = 1; COMMIT; DROP TABLE sec.canary'),
  (2, 'id = 1 /* x */; DROP TABLE sec.canary --'),
  (3, 'id = 1 -- comment' || E'\n' || '; DELETE FROM sec.canary'),
  (4, 'WITH d AS (DELETE FROM sec.canary RETURNING *) SELECT * FROM d'),
  (5, 'sec.spy() = 1'),
  (6, 'id IN (SELECT sec.spy())'),
  (7, 'pg_read_file(''/etc/passwd'') IS NOT NULL'),
  (8, 'lo_import(''/etc/passwd'') > 0'),
  (9, 'dblink(''dbname=postgres'', ''DROP TABLE sec.canary'') IS NULL'),
  (10, 'nextval(''sec.canary_seq'') > 0'),
  (11, 'set_config(''role'', ''postgres'', false) IS NOT NULL'),
  (12, 'pg_advisory_lock(42) IS NULL'),
  (13, 'SET ROLE postgres'),
  (14, 'canary"; DROP TABLE sec.canary; --'),
  (15, 'id = 1) OR (1 = 1'),
  (16, 'true) UNION SELECT id, secret FROM sec.other --'),
  (17, 'id = 1; SELECT * FROM generate_series(1, 10) x(id)'),
  (18, 'sec.other.secret IS NOT NULL'),
  -- SQL that runs SQL: the inner statement is vetted where it runs
  (19, 'query_to_xml(''SELECT lo_from_bytea(0, ''''\x41''''::bytea)'', true, true, '''') IS NOT NULL'),
  (20, 'SELECT query_to_xml(''SELECT lo_from_bytea(0, ''''\x41''''::bytea), pg_advisory_lock(4242), pg_notify(''''c'''', ''''x''''), sec.spy()'', true, true, '''')'),
  (21, 'SELECT * FROM ts_stat(''SELECT to_tsvector(sec.spy()::text || lo_from_bytea(0, ''''\x41''''::bytea)::text)'')'),
  (22, 'DO $$BEGIN PERFORM sec.spy(); EXECUTE ''LISTEN ch''; EXECUTE ''PREPARE p AS SELECT 1''; PERFORM pg_advisory_lock(7); END$$'),
  (23, 'SELECT pg_advisory_unlock_all()'),
  (24, 'SELECT cursor_to_xml(''c''::refcursor, 1, true, true, '''')');

-- every string-bearing parameter of every tool; {} marks where the payload goes
CREATE TABLE sec.slots (tool text, param text, template jsonb, is_data boolean);
INSERT INTO sec.slots VALUES
  ('select_query', 'table', '{"table": "{}"}', false),
  ('select_query', 'columns', '{"table": "sec.canary", "columns": "{}"}', false),
  ('select_query', 'where', '{"table": "sec.canary", "where": "{}"}', false),
  ('select_query', 'order_by', '{"table": "sec.canary", "order_by": "{}"}', false),
  ('select_query', 'where value', '{"table": "sec.canary", "where": {"note": "{}"}}', true),
  ('insert_data', 'table', '{"table": "{}", "rows": {"id": 10}}', false),
  ('insert_data', 'rows key', '{"table": "sec.canary", "rows": {"{}": 1}}', false),
  ('insert_data', 'rows value', '{"table": "sec.inbox", "rows": {"note": "{}"}, "returning": []}', true),
  ('insert_data', 'conflict_columns', '{"table": "sec.canary", "rows": {"id": 1}, "on_conflict": "skip", "conflict_columns": ["{}"]}', false),
  ('insert_data', 'returning', '{"table": "sec.canary", "rows": {"id": 11}, "returning": "{}"}', false),
  ('update_data', 'table', '{"table": "{}", "set": {"note": "x"}, "where": {"id": 1}}', false),
  ('update_data', 'set key', '{"table": "sec.canary", "set": {"{}": "x"}, "where": {"id": 1}}', false),
  ('update_data', 'set value', '{"table": "sec.canary", "set": {"note": "{}"}, "where": {"id": 2}, "returning": []}', true),
  ('update_data', 'where', '{"table": "sec.canary", "set": {"note": "x"}, "where": "{}"}', false),
  ('update_data', 'returning', '{"table": "sec.canary", "set": {"note": "alive"}, "where": {"id": 1}, "returning": "{}"}', false),
  ('delete_data', 'table', '{"table": "{}", "where": {"id": 1}}', false),
  ('delete_data', 'where', '{"table": "sec.canary", "where": "{}"}', false),
  ('delete_data', 'returning', '{"table": "sec.canary", "where": {"id": 99}, "returning": "{}"}', false),
  ('execute_sql', 'sql (read_only)', '{"sql": "{}", "read_only": true}', false),
  ('execute_sql', 'params', '{"sql": "SELECT count(*) FROM sec.canary WHERE note = $1", "params": ["{}"]}', true),
  ('explain_query', 'sql (analyze)', '{"sql": "{}", "analyze": true}', false),
  ('list_tables', 'schema', '{"schema": "{}"}', false),
  ('list_tables', 'pattern', '{"pattern": "{}"}', true),
  ('describe_table', 'table', '{"table": "{}"}', false);

-- what each call answered, as the agent
GRANT SELECT ON sec.payloads, sec.slots TO regress_sec_agent;
CREATE TABLE sec.results (tool text, param text, n int, is_data boolean, status text, error_type text);
GRANT INSERT ON sec.results TO regress_sec_agent;
SET ROLE regress_sec_agent;
INSERT INTO sec.results
SELECT s.tool, s.param, p.n, s.is_data, a->>'status', a->>'errorType'
FROM sec.slots s CROSS JOIN sec.payloads p,
     LATERAL ai_tool_call(s.tool,
       replace(s.template::text, '"{}"', to_jsonb(p.payload)::text)::jsonb) a;
RESET ROLE;

-- code-bearing parameters: every payload refused (never a success)
SELECT tool, param, count(*) AS payloads,
       count(*) FILTER (WHERE status = 'success') AS succeeded,
       string_agg(DISTINCT error_type, ', ' ORDER BY error_type) AS refused_as
FROM sec.results WHERE NOT is_data
GROUP BY tool, param ORDER BY tool, param;
-- data-bearing parameters: the payload is only ever data
SELECT tool, param, count(*) AS payloads,
       count(*) FILTER (WHERE status = 'success') AS succeeded
FROM sec.results WHERE is_data
GROUP BY tool, param ORDER BY tool, param;

-- and nothing happened
SELECT count(*) AS canary_rows FROM sec.canary WHERE id IN (1, 2);
SELECT count(*) AS spy_ran FROM sec.spylog;
SELECT last_value, is_called FROM sec.canary_seq;
SELECT count(*) AS large_objects FROM pg_largeobject_metadata;
SELECT count(*) AS advisory_locks FROM pg_locks WHERE locktype = 'advisory';
SELECT count(*) AS listening FROM pg_listening_channels();
SELECT count(*) AS prepared FROM pg_prepared_statements;
SELECT current_user, session_user;
-- the data payloads were stored as plain text
SELECT count(*) AS payloads_stored_as_text FROM sec.inbox WHERE note IN (SELECT payload FROM sec.payloads);

-- identifiers hostile by their shape: keywords, quotes, spaces, unicode, 63 characters
CREATE TABLE sec."select" ("from" int, "where" text);
CREATE TABLE sec."we""ird tab;le" ("co;l" int, "säule ü" text);
CREATE TABLE sec."t_63_chars_______________________________________________________" (id int);
INSERT INTO sec."select" VALUES (1, 'kw');
INSERT INTO sec."we""ird tab;le" VALUES (1, 'ümlaut');
SELECT ai_tool_call('select_query', '{"table": "sec.\"select\"", "columns": ["from", "where"], "where": {"where": "kw"}, "order_by": "\"from\" desc"}') -> 'data' AS data;
SELECT ai_tool_call('insert_data', '{"table": "sec.select", "rows": {"from": 2, "where": "x"}, "returning": "\"from\""}') -> 'data' AS data;
SELECT ai_tool_call('update_data', '{"table": "sec.\"we\"\"ird tab;le\"", "set": {"säule ü": "neu"}, "where": {"co;l": 1}, "returning": ["säule ü"]}') -> 'data' AS data;
SELECT ai_tool_call('select_query', '{"table": "sec.\"we\"\"ird tab;le\"", "where": "\"co;l\" = 1"}') -> 'data' AS data;
SELECT ai_tool_call('select_query', '{"table": "sec.t_63_chars_____________________________________________________"}') ->> 'table' AS table_name;
-- a longer name is refused (PostgreSQL would truncate it to another name), never pasted
SELECT ai_tool_call('select_query', '{"table": "sec.t_63_chars_______________________________________________________"}') ->> 'error' AS error;
SELECT ai_tool_call('select_query', '{"table": "sec.t_63_chars_______________________________________________________TOOLONG"}') ->> 'error' AS error;
-- a table shadowing one in another schema: the caller's search_path decides, qualified names are exact
CREATE SCHEMA sec_shadow;
CREATE TABLE sec_shadow.canary (id int, note text);
INSERT INTO sec_shadow.canary VALUES (100, 'shadow');
SET search_path = sec_shadow, sec, public;
SELECT ai_tool_call('select_query', '{"table": "canary", "columns": ["id"]}') -> 'data' AS data;
SELECT ai_tool_call('select_query', '{"table": "sec.canary", "columns": ["id"], "where": {"id": {"lte": 2}}, "order_by": "id"}') -> 'data' AS data;
RESET search_path;

-- row-level security: reads filtered, writes held by WITH CHECK, through every tool
CREATE TABLE sec.notes (id int PRIMARY KEY, owner text, body text);
INSERT INTO sec.notes VALUES (1, 'regress_sec_agent', 'mine'), (2, 'someone', 'theirs');
GRANT SELECT, INSERT, UPDATE, DELETE ON sec.notes TO regress_sec_agent;
ALTER TABLE sec.notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON sec.notes USING (owner = current_user) WITH CHECK (owner = current_user);
SET ROLE regress_sec_agent;
SELECT ai_tool_call('select_query', '{"table": "sec.notes"}') -> 'data' AS select_sees,
       ai_tool_call('execute_sql', '{"sql": "SELECT count(*) FROM sec.notes"}') -> 'data' AS execute_sees,
       ai_tool_call('update_data', '{"table": "sec.notes", "set": {"body": "x"}, "confirm_all_rows": true, "returning": ["id"]}') -> 'data' AS update_touches,
       ai_tool_call('delete_data', '{"table": "sec.notes", "where": {"id": 2}}') -> 'affectedRows' AS delete_reaches;
SELECT ai_tool_call('insert_data', '{"table": "sec.notes", "rows": {"id": 3, "owner": "someone", "body": "forged"}}') ->> 'errorType' AS forged_insert,
       ai_tool_call('update_data', '{"table": "sec.notes", "set": {"owner": "someone"}, "where": {"id": 1}}') ->> 'errorType' AS give_away,
       ai_tool_call('execute_sql', '{"sql": "INSERT INTO sec.notes VALUES (4, ''someone'', ''forged'')"}') ->> 'errorType' AS forged_execute;
RESET ROLE;
SELECT id, owner, body FROM sec.notes ORDER BY id;

-- discovery and suggestions only show what the caller may use
SET ROLE regress_sec_agent;
SELECT jsonb_path_query_array(ai_tool_call('list_tables', '{"schema": "sec"}') -> 'data', '$[*].name') AS visible;
SELECT ai_tool_call('describe_table', '{"table": "sec.other"}') ->> 'errorType' AS describe_other;
SELECT ai_tool_call('select_query', '{"table": "sec.othr"}') ->> 'suggestion' AS suggestion;
SELECT ai_tool_call('select_query', '{"table": "sec.canery"}') ->> 'suggestion' AS suggestion;
RESET ROLE;

-- a secret inside an error message (a connection string echoed by a
-- driver, as dblink and postgres_fdw can) is masked in the answer
CREATE FUNCTION sec.leaky() RETURNS int LANGUAGE plpgsql STABLE AS $$
BEGIN
  RAISE EXCEPTION 'could not connect to postgresql://bob:s3cret@db.internal/app'
    USING DETAIL = 'connection string: host=db.internal user=bob password=s3cret';
END $$;
CREATE VIEW sec.leaky_view AS SELECT sec.leaky() AS x;
SELECT a ->> 'error' AS error, a #>> '{details,detail}' AS detail, a::text LIKE '%s3cret%' AS leaked
FROM ai_tool_call('select_query', '{"table": "sec.leaky_view"}') a;

DROP SCHEMA sec CASCADE;
DROP SCHEMA sec_shadow CASCADE;
DROP OWNED BY regress_sec_agent;
DROP ROLE regress_sec_agent;
