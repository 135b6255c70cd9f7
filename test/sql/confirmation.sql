-- neon_ai_tools.confirmation = token (issue 18): a destructive call runs as
-- a dry run and answers confirmation_required with its exact effect and a
-- single-use confirmation_token; only the same call with that token, by
-- the same role, before it expires, runs for real
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA cf_test;
SET search_path = cf_test, public;

-- the answer without its random parts
CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$
    SELECT a - 'executionTime' - 'confirmation_token' ||
           CASE WHEN a ? 'confirmation_token' THEN '{"confirmation_token": "(a token)"}' ELSE '{}' END::jsonb
    FROM ai_tool_call(tool, args) AS a $$;
-- the token of a call's dry run
CREATE FUNCTION token_of(tool text, args jsonb) RETURNS text
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) ->> 'confirmation_token' $$;

CREATE TABLE t (id int PRIMARY KEY, v text);
INSERT INTO t SELECT i, 'v' || i FROM generate_series(1, 5) i;

-- the setting: flag by default (the arguments alone decide), superuser-set
LOAD 'neon_ai_tools';
SHOW neon_ai_tools.confirmation;
SHOW neon_ai_tools.confirmation_timeout;
SHOW neon_ai_tools.confirmation_min_rows;
SELECT name, context FROM pg_settings WHERE name LIKE 'neon_ai_tools.confirmation%' ORDER BY name;
SET neon_ai_tools.confirmation = maybe;

-- the "Must be shown" flow: delete_data {"table": "t", "confirm_all_rows": true}
SET neon_ai_tools.confirmation = token;
SELECT call('delete_data', '{"table": "t", "confirm_all_rows": true}') AS answer;
SELECT count(*) AS rows_left FROM t;
-- the flags still come first
SELECT call('delete_data', '{"table": "t"}') ->> 'error' AS without_flag;
-- a filtered delete needs no token; a dry run needs none either
SELECT call('delete_data', '{"table": "t", "where": {"id": 5}, "returning": []}') -> 'affectedRows' AS filtered;
SELECT call('delete_data', '{"table": "t", "confirm_all_rows": true, "dry_run": true, "returning": []}') -> 'affectedRows' AS dry_run;
INSERT INTO t VALUES (5, 'v5');

-- refused: a forged token, a token of another call, of another tool
SELECT call('delete_data', '{"table": "t", "confirm_all_rows": true, "confirmation_token": "e30.AAAA"}') ->> 'error' AS forged;
SELECT call('delete_data', jsonb_build_object('table', 't', 'confirm_all_rows', true, 'returning', '["id"]'::jsonb,
            'confirmation_token', token_of('delete_data', '{"table": "t", "confirm_all_rows": true}'))) ->> 'error' AS other_arguments;
SELECT call('update_data', jsonb_build_object('table', 't', 'set', '{"v": "x"}'::jsonb, 'confirm_all_rows', true,
            'confirmation_token', token_of('delete_data', '{"table": "t", "confirm_all_rows": true}'))) ->> 'error' AS other_tool;
-- an altered payload (another row count) with its MAC
SELECT call('delete_data', jsonb_build_object('table', 't', 'confirm_all_rows', true, 'confirmation_token',
            rtrim(translate(encode(convert_to(replace(convert_from(decode(translate(split_part(tok, '.', 1), '-_', '+/') ||
                  repeat('=', (4 - length(split_part(tok, '.', 1)) % 4) % 4), 'base64'), 'UTF8'), '"a":5', '"a":6'), 'UTF8'), 'base64'), '+/' || E'\n', '-_'), '=')
            || '.' || split_part(tok, '.', 2))) ->> 'error' AS altered
FROM token_of('delete_data', '{"table": "t", "confirm_all_rows": true}') AS tok;
SELECT count(*) AS rows_left FROM t;

-- the right token: deleted, once
CREATE TEMP TABLE tok AS SELECT token_of('delete_data', '{"table": "t", "confirm_all_rows": true}') AS tok;
SELECT call('delete_data', jsonb_build_object('table', 't', 'confirm_all_rows', true, 'returning', '[]'::jsonb, 'confirmation_token', tok)) AS confirmed
FROM tok;
-- (the returning argument differs: refused; the same arguments: deleted)
SELECT call('delete_data', jsonb_build_object('table', 't', 'confirm_all_rows', true, 'confirmation_token', tok)) - 'data' - 'columns' AS confirmed
FROM tok;
SELECT count(*) AS rows_left FROM t;
-- reused: refused, even once there are rows again
INSERT INTO t SELECT i, 'v' || i FROM generate_series(1, 5) i;
DELETE FROM tok;
INSERT INTO tok SELECT token_of('delete_data', '{"table": "t", "confirm_all_rows": true}');
SELECT call('delete_data', jsonb_build_object('table', 't', 'confirm_all_rows', true, 'confirmation_token', tok)) -> 'affectedRows' AS first_use
FROM tok;
INSERT INTO t SELECT i, 'v' || i FROM generate_series(1, 5) i;
SELECT call('delete_data', jsonb_build_object('table', 't', 'confirm_all_rows', true, 'confirmation_token', tok)) ->> 'error' AS reused
FROM tok;
SELECT count(*) AS rows_left FROM t;
-- the effect changed since the dry run: refused
DELETE FROM tok;
INSERT INTO tok SELECT token_of('delete_data', '{"table": "t", "confirm_all_rows": true}');
INSERT INTO t VALUES (6, 'v6');
SELECT call('delete_data', jsonb_build_object('table', 't', 'confirm_all_rows', true, 'confirmation_token', tok)) ->> 'error' AS changed
FROM tok;
-- a failed call does not use its token up
DELETE FROM tok;
INSERT INTO tok SELECT token_of('delete_data', '{"table": "t", "confirm_all_rows": true, "max_affected": 2}');
SELECT call('delete_data', jsonb_build_object('table', 't', 'confirm_all_rows', true, 'max_affected', 2, 'confirmation_token', tok)) ->> 'errorType' AS over_the_cap
FROM tok;
SELECT count(*) AS used_nonces FROM ai_tool_confirmation_used;

-- expired
SET neon_ai_tools.confirmation_timeout = '1s';
DELETE FROM tok;
INSERT INTO tok SELECT token_of('delete_data', '{"table": "t", "confirm_all_rows": true}');
SELECT pg_sleep(1.2);
SELECT call('delete_data', jsonb_build_object('table', 't', 'confirm_all_rows', true, 'confirmation_token', tok)) ->> 'error' AS expired
FROM tok;
RESET neon_ai_tools.confirmation_timeout;
SELECT count(*) AS rows_left FROM t;

-- another role: the first role's token is refused, its own works, and the
-- used-token table is out of its reach
CREATE ROLE regress_cf_agent;
GRANT USAGE ON SCHEMA cf_test TO regress_cf_agent;
GRANT SELECT, DELETE, UPDATE ON t TO regress_cf_agent;
GRANT SELECT ON tok TO regress_cf_agent;
DELETE FROM tok;
INSERT INTO tok SELECT token_of('delete_data', '{"table": "cf_test.t", "confirm_all_rows": true}');
SET ROLE regress_cf_agent;
SELECT call('delete_data', jsonb_build_object('table', 'cf_test.t', 'confirm_all_rows', true, 'confirmation_token', tok)) ->> 'error' AS other_role
FROM tok;
SELECT count(*) AS rows_left FROM cf_test.t;
SELECT call('delete_data', jsonb_build_object('table', 'cf_test.t', 'confirm_all_rows', true, 'returning', '[]'::jsonb,
            'confirmation_token', token_of('delete_data', '{"table": "cf_test.t", "confirm_all_rows": true, "returning": []}'))) -> 'affectedRows' AS own_token;
SELECT * FROM ai_tool_confirmation_used;
INSERT INTO ai_tool_confirmation_used VALUES ('x', now() + interval '1 day');
RESET ROLE;

-- update without a filter, truncate, drop
INSERT INTO t SELECT i, 'v' || i FROM generate_series(1, 5) i;
SELECT call('update_data', '{"table": "t", "set": {"v": "x"}, "confirm_all_rows": true}') - 'suggestion' - 'suggested_actions' AS update_all;
SELECT call('update_data', '{"table": "t", "set": {"v": "x"}, "where": {"id": 1}, "returning": []}') -> 'affectedRows' AS update_one;
SELECT call('delete_data', '{"table": "t", "mode": "truncate", "confirm": true}') ->> 'error' AS truncate;
SELECT call('delete_data', jsonb_build_object('table', 't', 'mode', 'truncate', 'confirm', true,
            'confirmation_token', token_of('delete_data', '{"table": "t", "mode": "truncate", "confirm": true}'))) -> 'affectedRows' AS truncated;
SELECT count(*) AS rows_left FROM t;
CREATE TABLE gone (id int);
INSERT INTO gone VALUES (1), (2);
SELECT call('delete_data', '{"table": "gone", "mode": "drop", "confirm": true}') - 'suggestion' AS drop;
SELECT to_regclass('gone') IS NOT NULL AS still_there;
SELECT call('delete_data', jsonb_build_object('table', 'gone', 'mode', 'drop', 'confirm', true,
            'confirmation_token', token_of('delete_data', '{"table": "gone", "mode": "drop", "confirm": true}'))) ->> 'operation' AS dropped;
SELECT to_regclass('gone') IS NOT NULL AS still_there;

-- execute_sql: changes above neon_ai_tools.confirmation_min_rows
SET neon_ai_tools.confirmation_min_rows = 3;
INSERT INTO t SELECT i, 'v' || i FROM generate_series(1, 5) i;
SELECT call('execute_sql', '{"sql": "UPDATE cf_test.t SET v = $1 WHERE id <= 3", "params": ["y"]}') -> 'affectedRows' AS three_rows;
SELECT call('execute_sql', '{"sql": "UPDATE cf_test.t SET v = $1", "params": ["z"]}') ->> 'error' AS five_rows;
SELECT count(*) FILTER (WHERE v = 'z') AS changed FROM t;
SELECT call('execute_sql', jsonb_build_object('sql', 'UPDATE cf_test.t SET v = $1', 'params', '["z"]'::jsonb,
            'confirmation_token', token_of('execute_sql', '{"sql": "UPDATE cf_test.t SET v = $1", "params": ["z"]}'))) -> 'affectedRows' AS confirmed;
SELECT count(*) FILTER (WHERE v = 'z') AS changed FROM t;
SELECT call('execute_sql', '{"sql": "SELECT * FROM cf_test.t"}') -> 'rowCount' AS reads_need_nothing;
RESET neon_ai_tools.confirmation_min_rows;

-- back to flag: no tokens
RESET neon_ai_tools.confirmation;
SELECT call('delete_data', '{"table": "t", "confirm_all_rows": true, "returning": []}') -> 'affectedRows' AS flag_mode;

DROP SCHEMA cf_test CASCADE;
DROP OWNED BY regress_cf_agent;
DROP ROLE regress_cf_agent;
