-- "next": a truncated answer continues exactly after its last row; the
-- token is bound to the tool, the arguments and the role (issue 18)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA ct_test;
SET search_path = ct_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

-- every page of a call, following next
CREATE FUNCTION pages(tool text, args jsonb)
RETURNS TABLE (page int, data jsonb, has_next bool)
LANGUAGE plpgsql AS $$
DECLARE
    a jsonb;
    nxt text;
BEGIN
    page := 0;
    LOOP
        a := ai_tool_call(tool, CASE WHEN nxt IS NULL THEN args
                                     ELSE args || jsonb_build_object('next', nxt) END);
        page := page + 1;
        data := COALESCE(a -> 'data', to_jsonb(a ->> 'error'));
        nxt := a ->> 'next';
        has_next := nxt IS NOT NULL;
        RETURN NEXT;
        EXIT WHEN nxt IS NULL OR page >= 20;
    END LOOP;
END $$;

CREATE TABLE p (id int PRIMARY KEY, g int, s text);
INSERT INTO p SELECT i, i % 3, 'r' || i FROM generate_series(1, 10) i;
UPDATE p SET g = NULL WHERE id IN (3, 7);

-- keyset: the order on a unique key, or made unique with the primary key
SELECT * FROM pages('select_query', '{"table": "p", "order_by": "id", "limit": 4, "columns": ["id"], "format": "columnar"}');
SELECT * FROM pages('select_query', '{"table": "p", "order_by": "g desc nulls last, s", "limit": 3, "format": "columnar"}');
SELECT * FROM pages('select_query', '{"table": "p", "order_by": [{"column": "g", "nulls": "first"}], "limit": 4, "columns": ["s"]}');
SELECT * FROM pages('select_query', '{"table": "p", "where": {"g": {"is_null": false}}, "order_by": "g desc", "limit": 5, "columns": ["id"], "format": "csv"}');
SELECT ai_tool_plan('select_query', '{"table": "p", "order_by": "g", "limit": 3}') -> 'plan' ->> 'sql' AS tie_breaker;
-- the keys travel as hidden columns: the answer has only the agent's
SELECT a -> 'columns' AS columns, a -> 'data' AS data, a ->> 'warning' AS warning
FROM call('select_query', '{"table": "p", "order_by": "g", "limit": 2, "columns": ["s"]}') AS a;
-- not truncated: no next
SELECT call('select_query', '{"table": "p", "order_by": "id"}') ? 'next' AS has_next;
-- truncated by the byte cap: next all the same
SET neon_ai_tools.max_response_bytes = 1024;
CREATE TABLE wide (id int PRIMARY KEY, t text);
INSERT INTO wide SELECT i, repeat('x', 300) FROM generate_series(1, 10) i;
SELECT page, jsonb_array_length(data) AS rows, has_next
FROM pages('select_query', '{"table": "wide", "order_by": "id", "format": "columnar"}');
RESET neon_ai_tools.max_response_bytes;

-- offset: no order_by, a view, no key: the answer warns that rows may shift
SELECT * FROM pages('select_query', '{"table": "p", "limit": 6, "columns": ["id"]}');
SELECT a ->> 'warning' AS warning
FROM call('select_query', '{"table": "p", "limit": 6, "columns": ["id"]}') AS a;
CREATE VIEW pv AS SELECT * FROM p;
SELECT * FROM pages('select_query', '{"table": "pv", "order_by": "id", "limit": 6, "columns": ["id"]}');
-- execute_sql: its SELECT continues by offset
SELECT * FROM pages('execute_sql', '{"sql": "SELECT id FROM ct_test.p ORDER BY id", "limit": 4, "format": "columnar"}');
SELECT a ->> 'warning' AS warning
FROM call('execute_sql', '{"sql": "SELECT id FROM ct_test.p ORDER BY id", "limit": 4}') AS a;

-- limit and format may change from page to page; nothing else may
CREATE TEMP TABLE tok AS
SELECT a ->> 'next' AS next
FROM call('select_query', '{"table": "p", "order_by": "id", "limit": 4, "columns": ["id"]}') AS a;
SELECT call('select_query', jsonb_build_object('table', 'p', 'order_by', 'id', 'limit', 2, 'columns', '["id"]'::jsonb,
            'format', 'csv', 'timeout_ms', 5000, 'next', next)) ->> 'data_text' AS other_limit_and_format
FROM tok;

-- refused, with the same answer whatever is wrong: another query's token,
-- another tool's, an altered one, a forged one, not a token at all
SELECT call('select_query', jsonb_build_object('table', 'p', 'order_by', 'id', 'limit', 4, 'columns', '["id", "s"]'::jsonb, 'next', next)) - 'suggestion' AS other_columns
FROM tok;
SELECT call('select_query', jsonb_build_object('table', 'p', 'order_by', 'id', 'where', '{"g": 1}'::jsonb, 'columns', '["id"]'::jsonb, 'next', next)) ->> 'error' AS other_where
FROM tok;
SELECT call('execute_sql', jsonb_build_object('sql', 'SELECT 1', 'next', next)) ->> 'error' AS other_tool
FROM tok;
-- the payload says {"m":"k","v":["4"]}: a payload saying "8" with the same
-- MAC is refused, as is the right payload with another MAC
SELECT convert_from(decode(translate(split_part(next, '.', 1), '-_', '+/') || '==', 'base64'), 'UTF8') AS payload
FROM tok;
SELECT call('select_query', jsonb_build_object('table', 'p', 'order_by', 'id', 'limit', 4, 'columns', '["id"]'::jsonb,
            'next', rtrim(translate(encode(convert_to('{"m":"k","v":["8"]}', 'UTF8'), 'base64'), '+/', '-_'), '=') || '.' || split_part(next, '.', 2))) ->> 'error' AS altered_payload
FROM tok;
SELECT call('select_query', jsonb_build_object('table', 'p', 'order_by', 'id', 'limit', 4, 'columns', '["id"]'::jsonb,
            'next', split_part(next, '.', 1) || '.' || rtrim(translate(encode(sha256('forged'), 'base64'), '+/', '-_'), '='))) ->> 'error' AS forged_mac
FROM tok;
SELECT call('select_query', '{"table": "p", "order_by": "id", "columns": ["id"], "next": "not a token"}') - 'suggestion' AS not_a_token;
SELECT call('select_query', '{"table": "p", "order_by": "id", "columns": ["id"], "next": ""}') ->> 'error' AS empty;
SELECT call('select_query', '{"table": "p", "order_by": "id", "columns": ["id"], "next": 5}') ->> 'error' AS not_a_string;
SELECT call('execute_sql', '{"sql": "SELECT 1; SELECT 2", "mode": "multiple", "next": "x.y"}') ->> 'errorType' AS multiple_next;

-- another role: its own token works, the first role's is refused, and the
-- key is out of its reach
CREATE ROLE regress_ct_agent;
GRANT USAGE ON SCHEMA ct_test TO regress_ct_agent;
GRANT SELECT ON p TO regress_ct_agent;
GRANT SELECT ON tok TO regress_ct_agent;
SET ROLE regress_ct_agent;
SELECT call('select_query', jsonb_build_object('table', 'ct_test.p', 'order_by', 'id', 'limit', 4, 'columns', '["id"]'::jsonb, 'next', next)) ->> 'error' AS other_role
FROM tok;
SELECT count(*) AS own_pages FROM pages('select_query', '{"table": "ct_test.p", "order_by": "id", "limit": 4, "columns": ["id"]}');
SELECT * FROM ai_tool_secret;
SELECT call('select_query', '{"table": "ai_tool_secret"}') ->> 'errorType' AS secret_via_tool;
SELECT call('execute_sql', '{"sql": "SELECT secret FROM ai_tool_secret"}') ->> 'errorType' AS secret_via_sql;
RESET ROLE;
-- a column the role may not read is never a tie-breaker: offset instead
REVOKE SELECT ON p FROM regress_ct_agent;
GRANT SELECT (g, s) ON p TO regress_ct_agent;
SET ROLE regress_ct_agent;
SELECT ai_tool_plan('select_query', '{"table": "ct_test.p", "order_by": "g", "columns": ["s"], "limit": 3}') -> 'plan' ->> 'sql' AS no_tie_breaker;
SELECT call('select_query', '{"table": "ct_test.p", "order_by": "g", "columns": ["s"], "limit": 3}') ->> 'warning' LIKE '%by offset%' AS offset_warning;
RESET ROLE;

-- a table whose key went away since the token was made
CREATE TABLE k (id int PRIMARY KEY, v int);
INSERT INTO k SELECT i, i FROM generate_series(1, 5) i;
CREATE TEMP TABLE ktok AS
SELECT a ->> 'next' AS next FROM call('select_query', '{"table": "k", "order_by": "v", "limit": 2}') AS a;
ALTER TABLE k DROP CONSTRAINT k_pkey;
SELECT call('select_query', jsonb_build_object('table', 'k', 'order_by', 'v', 'limit', 2, 'next', next)) ->> 'error' AS stale
FROM ktok;

DROP SCHEMA ct_test CASCADE;
DROP OWNED BY regress_ct_agent;
DROP ROLE regress_ct_agent;
