-- An empty read answers with existing values close to its filter's
-- (issue 32, item 3): case, spelling, trailing spaces, prefixes and
-- initials; IN lists; enums; the SQL-string where; the setting's three
-- values; never a value from a column or a row the role may not read
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
CREATE EXTENSION IF NOT EXISTS citext;
RESET client_min_messages;
CREATE SCHEMA eh;
SET search_path = eh, public;

-- the answer's hint keys only
CREATE FUNCTION hint(args jsonb) RETURNS jsonb
LANGUAGE sql AS $$
    SELECT jsonb_strip_nulls(jsonb_build_object(
        'rowCount', a -> 'rowCount', 'warning', a -> 'warning',
        'did_you_mean', a -> 'did_you_mean',
        'suggested_actions', a -> 'suggested_actions',
        'error', a -> 'errorType'))
    FROM ai_tool_call('select_query', args) AS a $$;

CREATE TYPE order_state AS ENUM ('new', 'processing', 'processed', 'closed');
CREATE TABLE people (id int PRIMARY KEY, name text, status text,
                     city varchar(40), code char(4), age int,
                     state order_state, email citext);
INSERT INTO people
SELECT g, 'person ' || g,
       (ARRAY['active', 'idle', 'cancelled'])[1 + g % 3],
       (ARRAY['New York', 'Boston', 'Chicago', 'San Francisco'])[1 + g % 4],
       (ARRAY['AB', 'CD'])[1 + g % 2],
       20 + g % 50,
       (ARRAY['new', 'processed', 'closed'])[1 + g % 3]::order_state,
       'user' || g % 5 || '@example.com'
FROM generate_series(1, 40) g;

-- 1. no statistics yet: the bounded query answers (the default, query)
-- case
SELECT hint('{"table": "people", "where": {"status": "Active"}}');
SHOW neon_ai_tools.empty_result_hints;
-- spelling
SELECT hint('{"table": "people", "where": {"status": "canceled"}}');
SELECT hint('{"table": "people", "where": {"city": "Chicgo"}}');
-- trailing and leading spaces
SELECT hint('{"table": "people", "where": {"status": {"eq": "idle  "}}}');
SELECT hint('{"table": "people", "where": {"status": " active"}}');
-- a prefix, and initials
SELECT hint('{"table": "people", "where": {"city": "San Fran"}}');
SELECT hint('{"table": "people", "where": {"city": "NY"}}');
-- several close values: closest first, at most five
SELECT hint('{"table": "people", "where": {"email": "user@example.com"}}');
-- IN lists, bare and as an operator: no retry that would drop the list
SELECT hint('{"table": "people", "where": {"status": ["Active", "Cancelled"]}}');
SELECT hint('{"table": "people", "where": {"status": ["Active", "idle"]}}') -> 'rowCount' AS in_with_rows;
SELECT hint('{"table": "people", "where": {"status": {"in": ["ACTIVE"]}}}');
-- char(n) and citext
SELECT hint('{"table": "people", "where": {"code": "ab"}}');
SELECT hint('{"table": "people", "where": {"code": "ABC"}}');
SELECT hint('{"table": "people", "where": {"email": " USER1@example.com"}}');
-- enums: a label no row has, close to one that rows have; a label that
-- does not exist is an invalid value (no rows are read)
SELECT hint('{"table": "people", "where": {"state": "processing"}}');
SELECT hint('{"table": "people", "where": {"state": {"in": ["processing", "new"]}}}') -> 'rowCount' AS in_with_rows;
SELECT hint('{"table": "people", "where": {"state": "Processed"}}') ->> 'error' AS unknown_label;
-- numeric columns: no hint
SELECT hint('{"table": "people", "where": {"age": 999}}');
SELECT hint('{"table": "people", "where": {"age": "999"}}');
-- rows found: no hint
SELECT hint('{"table": "people", "where": {"status": "active"}, "limit": 1}');
-- nothing close: no hint
SELECT hint('{"table": "people", "where": {"status": "zzzzzz"}}');
-- the SQL-string where: column = 'value', IN, in its top-level AND
SELECT hint('{"table": "people", "where": "status = ''Active''"}');
SELECT hint('{"table": "people", "where": "''Idle'' = status AND age > 0"}');
SELECT hint('{"table": "people", "where": "status IN (''Active'', ''Idle'')"}');
SELECT hint('{"table": "people", "where": "lower(status) = ''Active''"}');
-- other conditions beside it: the values read (all 40 rows) settle it
SELECT hint('{"table": "people", "where": {"status": "Active", "age": {"gt": 0}}}');
SELECT hint('{"table": "people", "where": {"and": [{"status": "Active"}, {"age": {"gt": 0}}]}}');
-- a value the column has, with another condition matching nothing: no hint
SELECT hint('{"table": "people", "where": {"status": "active", "age": {"gt": 1000}}}');
-- under or / not: not looked into
SELECT hint('{"table": "people", "where": {"or": [{"status": "Active"}, {"age": 1000}]}}');
-- a view: the bounded query reads it as the role
CREATE VIEW few AS SELECT id, status FROM people WHERE id <= 6;
SELECT hint('{"table": "few", "where": {"status": "IDLE"}}');
-- a later page, or an offset: no rows there says nothing about the value
SELECT hint('{"table": "people", "where": {"status": "Active"}, "offset": 5}');

-- 2. a bounded scan that stops before the table's end (1000 rows read)
CREATE TABLE big (id int, kind text) WITH (autovacuum_enabled = off);
INSERT INTO big SELECT g, CASE WHEN g <= 1200 THEN 'common' ELSE 'rare' END
FROM generate_series(1, 1500) g;
-- the only condition: the empty answer proves the value is not there
SELECT hint('{"table": "big", "where": {"kind": "Common"}}');
-- with another condition, 1000 rows read do not settle it: no hint
SELECT hint('{"table": "big", "where": {"kind": "rarely", "id": {"gt": 0}}}');
-- "rare" is past the rows read: not offered
SELECT hint('{"table": "big", "where": {"kind": "Rare"}}');
-- an index on the column: probes around the value read the whole column
CREATE INDEX ON big (kind);
SELECT hint('{"table": "big", "where": {"kind": "Rare"}}');
SELECT hint('{"table": "big", "where": {"kind": "rarely", "id": {"gt": 0}}}');

-- 3. statistics
ANALYZE people, big;
SET neon_ai_tools.empty_result_hints = stats;
SELECT hint('{"table": "people", "where": {"status": "Active"}}');
SELECT hint('{"table": "people", "where": {"status": "Active", "age": {"gt": 0}}}');
SELECT hint('{"table": "people", "where": {"state": "processing"}}');
-- without statistics, stats gives nothing
CREATE TABLE fresh (id int, status text);
INSERT INTO fresh VALUES (1, 'active'), (2, 'active');
SELECT hint('{"table": "fresh", "where": {"status": "Active"}}');
SET neon_ai_tools.empty_result_hints = query;
SELECT hint('{"table": "fresh", "where": {"status": "Active"}}');
SET neon_ai_tools.empty_result_hints = off;
SELECT hint('{"table": "people", "where": {"status": "Active"}}');
SELECT hint('{"table": "fresh", "where": {"status": "Active"}}');
RESET neon_ai_tools.empty_result_hints;
SET neon_ai_tools.empty_result_hints = maybe;
-- the full answer: warning, did_you_mean, a retry step
SELECT jsonb_pretty(ai_tool_call('select_query', '{"table": "people", "where": {"status": "Active"}}') - 'executionTime' - 'columns');

-- 4. column privileges: values only of columns the role may read
CREATE TABLE accounts (id int PRIMARY KEY, status text, secret text);
INSERT INTO accounts SELECT g, (ARRAY['open', 'closed'])[1 + g % 2],
       (ARRAY['Kiwi', 'Mango'])[1 + g % 2] FROM generate_series(1, 20) g;
ANALYZE accounts;
CREATE ROLE regress_eh_agent;
GRANT USAGE ON SCHEMA eh TO regress_eh_agent;
GRANT SELECT (id, status) ON accounts TO regress_eh_agent;
SET ROLE regress_eh_agent;
-- pg_stats shows the role the statistics of status, not those of secret
SELECT attname FROM pg_stats WHERE schemaname = 'eh' AND tablename = 'accounts' ORDER BY attname;
RESET ROLE;
SET neon_ai_tools.empty_result_hints = stats;
SET ROLE regress_eh_agent;
-- a column grant is enough for its statistics, as in pg_stats
SELECT hint('{"table": "accounts", "columns": ["id"], "where": {"status": "Open"}}');
-- a filter on a column the role may not read: refused, no value named
SELECT a ->> 'errorType' AS error_type, a::text ~* '(kiwi|mango)' AS names_a_value
FROM ai_tool_call('select_query', '{"table": "accounts", "columns": ["id"], "where": {"secret": "kiwi"}}') AS a;
SELECT a ->> 'errorType' AS error_type, a::text ~* '(kiwi|mango)' AS names_a_value
FROM ai_tool_call('select_query', '{"table": "accounts", "columns": ["id"], "where": "secret = ''kiwi''"}') AS a;
RESET ROLE;
RESET neon_ai_tools.empty_result_hints;
SET ROLE regress_eh_agent;
SELECT a ->> 'errorType' AS error_type, a::text ~* '(kiwi|mango)' AS names_a_value
FROM ai_tool_call('select_query', '{"table": "accounts", "columns": ["id"], "where": {"secret": "kiwi"}}') AS a;
RESET ROLE;

-- 5. row-level security: values only from the rows the role sees
CREATE TABLE tickets (id int, owner text, status text);
INSERT INTO tickets SELECT g, 'regress_eh_agent', (ARRAY['open', 'Archived'])[1 + g % 2]
FROM generate_series(1, 10) g;
-- rows the agent may not see hold "active"
INSERT INTO tickets SELECT g, 'someone else', 'active' FROM generate_series(11, 40) g;
ALTER TABLE tickets ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON tickets USING (owner = current_user);
GRANT SELECT ON tickets TO regress_eh_agent;
ANALYZE tickets;
-- the statistics hold the hidden value (the owner bypasses the policy)
SELECT hint('{"table": "tickets", "where": {"status": "Active"}}');
SET ROLE regress_eh_agent;
-- pg_stats hides them from the role
SELECT count(*) AS stats_rows FROM pg_stats WHERE schemaname = 'eh' AND tablename = 'tickets';
-- the hidden "active" is never offered: the statistics would offer it
SELECT hint('{"table": "tickets", "where": {"status": "Active"}}');
SELECT a::text ~ '"active"' AS names_hidden_value
FROM ai_tool_call('select_query', '{"table": "tickets", "where": {"status": "ACTIVE"}}') AS a;
-- a value of the rows it sees is offered, by the bounded query
SELECT hint('{"table": "tickets", "where": {"status": "archived"}}');
-- with an index on the column: the probes are a query as the role, never
-- a read of the index itself, which holds the hidden rows' values
RESET ROLE;
CREATE INDEX ON tickets (status);
SET ROLE regress_eh_agent;
SELECT hint('{"table": "tickets", "where": {"status": "Active"}}');
SELECT hint('{"table": "tickets", "where": {"status": "ARCHIVED"}}');
RESET ROLE;
-- stats alone: the statistics may not be used under the policy, no query
SET neon_ai_tools.empty_result_hints = stats;
SET ROLE regress_eh_agent;
SELECT hint('{"table": "tickets", "where": {"status": "archived"}}');
RESET ROLE;
RESET neon_ai_tools.empty_result_hints;

-- the bounded query's own time limit: a policy that takes time on every
-- row makes it give up (no hint), and the call still answers; the read
-- itself filters on the value first and meets no row
CREATE FUNCTION slow_check() RETURNS bool STABLE LANGUAGE plpgsql AS $$
DECLARE
    x int := 0;
BEGIN
    FOR i IN 1..300000 LOOP x := x + 1; END LOOP;
    RETURN true;
END $$;
CREATE TABLE slow (id int, status text);
INSERT INTO slow SELECT g, 'active' FROM generate_series(1, 20) g;
ALTER TABLE slow ENABLE ROW LEVEL SECURITY;
CREATE POLICY slow ON slow USING (slow_check());
GRANT SELECT ON slow TO regress_eh_agent;
SET ROLE regress_eh_agent;
SELECT hint('{"table": "slow", "where": {"status": "Active"}}');
SELECT hint('{"table": "slow", "where": {"id": 1}}');
RESET ROLE;

-- 6. a read-only role, and the role's policy under SET ROLE
CREATE ROLE regress_eh_reader;
GRANT USAGE ON SCHEMA eh TO regress_eh_reader;
GRANT SELECT, DELETE ON people, fresh TO regress_eh_reader;
ALTER ROLE regress_eh_reader SET neon_ai_tools.read_only = on;
SET ROLE regress_eh_reader;
SELECT ai_tool_call('delete_data', '{"table": "fresh", "where": {"id": 1}}') ->> 'errorType' AS write;
-- the bounded query runs in the read-only call (fresh has no statistics)
SELECT hint('{"table": "fresh", "where": {"status": "Active"}}');
SELECT hint('{"table": "people", "where": {"status": "Idle"}}');
-- the setting is the administrator's
SET neon_ai_tools.empty_result_hints = query;
RESET ROLE;
ALTER ROLE regress_eh_reader SET neon_ai_tools.empty_result_hints = off;
SET ROLE regress_eh_reader;
SELECT hint('{"table": "people", "where": {"status": "Idle"}}');
RESET ROLE;

DROP SCHEMA eh CASCADE;
DROP OWNED BY regress_eh_agent, regress_eh_reader;
DROP ROLE regress_eh_agent, regress_eh_reader;
