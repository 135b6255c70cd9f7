-- select_query without columns reads the columns the role may read
-- (issue 32, item 4): with column privileges it answers those, and a
-- warning says how many were left out, by count, never by name
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA cp_test;
SET search_path = cp_test, public;

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
        data := COALESCE(a -> 'data', a -> 'data_text', to_jsonb(a ->> 'error'));
        nxt := a ->> 'next';
        has_next := nxt IS NOT NULL;
        RETURN NEXT;
        EXIT WHEN nxt IS NULL OR page >= 10;
    END LOOP;
END $$;

CREATE TABLE staff (id int PRIMARY KEY, name text, salary int, dept text, ssn text);
INSERT INTO staff SELECT i, 'n' || i, i * 100, 'd' || i % 2, 'ssn' || i
FROM generate_series(1, 7) i;
CREATE TABLE vault (id int, secret text);
CREATE ROLE regress_cp_agent;
CREATE ROLE regress_cp_owner;
GRANT USAGE ON SCHEMA cp_test TO regress_cp_agent, regress_cp_owner;
GRANT SELECT (id, name, dept) ON staff TO regress_cp_agent;
GRANT UPDATE (name) ON staff TO regress_cp_agent;
GRANT SELECT ON staff TO regress_cp_owner;
GRANT INSERT ON vault TO regress_cp_agent;

SET ROLE regress_cp_agent;
-- the readable columns, in table order, and a warning by count
SELECT jsonb_pretty(call('select_query', '{"table": "staff", "order_by": "id", "limit": 2}') - 'next');
-- no unreadable name anywhere in the answer
SELECT call('select_query', '{"table": "staff", "limit": 2}')::text ~ '(salary|ssn)' AS names_hidden_column;
-- "*" and an empty list mean the same
SELECT a -> 'columns' AS columns, a ->> 'warning' LIKE '2 of the 5 columns%' AS warned
FROM call('select_query', '{"table": "staff", "columns": "*", "order_by": "id", "limit": 1}') AS a;
SELECT a -> 'data' AS data, a ->> 'warning' LIKE '2 of the 5 columns%' AS warned
FROM call('select_query', '{"table": "staff", "columns": [], "order_by": "id", "limit": 1}') AS a;
-- the generated SQL names the readable columns
SELECT ai_tool_plan('select_query', '{"table": "staff", "where": {"dept": "d1"}}') -> 'plan' ->> 'sql' AS sql;
-- columns named explicitly: no warning
SELECT call('select_query', '{"table": "staff", "columns": ["name"], "order_by": "id"}') ? 'warning' AS warned;
-- a filter on a readable column
SELECT call('select_query', '{"table": "staff", "where": {"dept": "d0"}, "order_by": "id"}') -> 'data' AS data;
-- keyset paging on a readable column (the primary key is the tie-breaker)
SELECT * FROM pages('select_query', '{"table": "staff", "order_by": "dept desc", "limit": 3}');
-- offset paging without order_by
SELECT * FROM pages('select_query', '{"table": "staff", "limit": 3, "format": "columnar"}');
-- csv and markdown answer the same columns
SELECT call('select_query', '{"table": "staff", "order_by": "id", "limit": 2, "format": "csv"}') ->> 'data_text' AS csv;
SELECT call('select_query', '{"table": "staff", "order_by": "id", "limit": 2, "format": "markdown"}') ->> 'data_text' AS markdown;
-- one unreadable column: the warning is singular
RESET ROLE;
GRANT SELECT (salary, ssn) ON staff TO regress_cp_agent;
REVOKE SELECT (ssn) ON staff FROM regress_cp_agent;
SET ROLE regress_cp_agent;
SELECT call('select_query', '{"table": "staff", "order_by": "id"}') ->> 'warning' AS warning;
RESET ROLE;
REVOKE SELECT (salary) ON staff FROM regress_cp_agent;
SET ROLE regress_cp_agent;

-- still refused: an unreadable column named, or ordered or filtered by
SELECT call('select_query', '{"table": "staff", "columns": ["salary"]}') ->> 'errorType' AS named;
SELECT call('select_query', '{"table": "staff", "order_by": "salary"}') ->> 'errorType' AS ordered;
SELECT call('select_query', '{"table": "staff", "order_by": "salary"}')::text LIKE '%left out%' AS warned_too;
SELECT call('select_query', '{"table": "staff", "where": {"salary": 100}}') ->> 'errorType' AS filtered;
-- a table of which the role may read no column (it may insert): permission_denied, as before
SELECT call('select_query', '{"table": "vault"}') ->> 'errorType' AS no_column;
SELECT call('select_query', '{"table": "vault"}') ? 'warning' AS warned;

-- writes' returning defaults to the same readable columns
SELECT call('update_data', '{"table": "staff", "set": {"name": "N1"}, "where": {"id": 1}}') -> 'data' AS returned;
RESET ROLE;

-- SELECT on the whole table: "*", no warning
SET ROLE regress_cp_owner;
SELECT ai_tool_plan('select_query', '{"table": "staff"}') -> 'plan' ->> 'sql' AS sql;
SELECT call('select_query', '{"table": "staff", "order_by": "id"}') ? 'warning' AS warned;
RESET ROLE;

DROP SCHEMA cp_test CASCADE;
DROP ROLE regress_cp_agent;
DROP ROLE regress_cp_owner;
