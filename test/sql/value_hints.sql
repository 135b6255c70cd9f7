-- Values an agent can copy (issue 32, item 2): every invalid_input answer
-- for a value the agent gave carries valid examples of the type, and for
-- a near miss the value probably meant, in did_you_mean and in a step
-- naming where it goes; nothing is applied silently, and nothing names a
-- column or a value the role cannot read
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA vh_test;
SET search_path = vh_test, public;
SET DateStyle = 'ISO, MDY';

-- the fields of an answer that carry the fix
CREATE FUNCTION fix(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$
  SELECT jsonb_strip_nulls(jsonb_build_object(
           'errorType', a -> 'errorType', 'suggestion', a -> 'suggestion',
           'did_you_mean', a -> 'did_you_mean', 'actions', a -> 'suggested_actions',
           'hint', a -> 'details' -> 'hint', 'rows', a -> 'rowCount'))
  FROM ai_tool_call(tool, args) a $$;
-- the suggestion alone, for a value compared with a column, or inserted
-- into it (then the column's type modifier applies)
CREATE FUNCTION example(col text, val jsonb) RETURNS text
LANGUAGE sql AS $$
  SELECT ai_tool_call('select_query', jsonb_build_object('table', 'vh_test.t',
           'where', jsonb_build_object(col, val))) ->> 'suggestion' $$;
CREATE FUNCTION insert_example(col text, val jsonb) RETURNS text
LANGUAGE sql AS $$
  SELECT ai_tool_call('insert_data', jsonb_build_object('table', 'vh_test.t',
           'rows', jsonb_build_array(jsonb_build_object('id', 9, col, val)))) ->> 'suggestion' $$;

CREATE TYPE order_state AS ENUM ('pending', 'shipped', 'cancelled', 'delivered');
CREATE TYPE many_labels AS ENUM ('l01', 'l02', 'l03', 'l04', 'l05', 'l06', 'l07',
  'l08', 'l09', 'l10', 'l11', 'l12', 'l13', 'l14', 'l15', 'l16', 'l17', 'l18',
  'l19', 'l20', 'l21', 'l22');
CREATE DOMAIN posint AS int CHECK (VALUE > 0);
CREATE DOMAIN state_d AS order_state;
CREATE DOMAIN ints AS int[];
CREATE TYPE floatrange AS RANGE (subtype = float8);
CREATE TYPE pair AS (a int, b text);
CREATE TABLE t (
  id int PRIMARY KEY, i2 smallint, i4 int, i8 bigint, n numeric, n51 numeric(5,1),
  f8 float8, b bool, vc varchar(3), vc240 varchar(240), d date, tm time, ttz timetz,
  ts timestamp, tstz timestamptz, iv interval, u uuid, ip inet, nw cidr, mac macaddr,
  by bytea, bt bit(3), r4 int4range, rd daterange, rtz tstzrange, mr int4multirange,
  fr floatrange, ia int[], da date[], st order_state, sa order_state[], ml many_labels,
  pi posint, sd state_d, di ints, pr pair, v2 int2vector);
INSERT INTO t (id, i4, d, st, b) VALUES (1, 1000, '2026-11-27', 'shipped', true);

-- examples for each type family
SELECT col, example(col, '"x"') AS suggestion
FROM unnest(ARRAY['i2', 'i4', 'i8', 'n', 'f8', 'b', 'd', 'tm', 'ttz', 'ts', 'tstz',
                  'iv', 'u', 'ip', 'mac', 'r4', 'rd', 'rtz', 'mr', 'fr',
                  'ia', 'da', 'st', 'sa', 'ml', 'pi', 'di']) col;
SELECT col, insert_example(col, val) AS suggestion
FROM (VALUES ('nw', '"10.0.0.1/8"'::jsonb), ('mac', '"08:00"'), ('by', '"\\xz"'),
             ('pi', '"x"'), ('sd', '"x"'), ('pr', '"x"'), ('v2', '[1, 2]')) v(col, val);
-- a type modifier narrows the description
SELECT col, insert_example(col, val) AS suggestion
FROM (VALUES ('vc', '"abcd"'::jsonb), ('n51', '123456'), ('bt', '"1"')) v(col, val);
-- out of range: the type's range
SELECT fix('select_query', '{"table": "t", "where": {"i4": 99999999999}}');
SELECT fix('select_query', '{"table": "t", "where": {"i2": "40000"}}');

-- near misses: dates, European and US, with a time kept
SELECT fix('select_query', '{"table": "t", "where": {"d": "27/11/2026"}}');
SELECT fix('select_query', '{"table": "t", "where": {"d": "27.11.2026"}}');
SELECT fix('select_query', '{"table": "t", "where": {"tstz": "27-11-2026 14:30+00"}}');
SET DateStyle = 'ISO, DMY';
SELECT fix('select_query', '{"table": "t", "where": {"d": "11/27/2026"}}');
-- a date that reads two ways: both, no did_you_mean
SET DateStyle = 'ISO, YMD';
SELECT fix('select_query', '{"table": "t", "where": {"d": "03/04/2026"}}');
SET DateStyle = 'ISO, MDY';
-- nothing close: the examples alone
SELECT fix('select_query', '{"table": "t", "where": {"d": "32/13/2026"}}');
SELECT fix('select_query', '{"table": "t", "where": {"d": "tomorrow-ish"}}');

-- booleans: what PostgreSQL takes already works; near misses offered
SELECT fix('select_query', '{"table": "t", "where": {"b": "yes"}}') AS yes;
SELECT fix('select_query', '{"table": "t", "where": {"b": "enabled"}}');
SELECT fix('select_query', '{"table": "t", "where": {"b": "0.0"}}');

-- numbers: quoted numbers work; separators, currency and decimal commas
SELECT fix('select_query', '{"table": "t", "where": {"i4": "1000"}}') AS quoted;
SELECT fix('select_query', '{"table": "t", "where": {"i4": "1,000"}}');
SELECT fix('select_query', '{"table": "t", "where": {"i4": "1 000"}}');
SELECT fix('select_query', '{"table": "t", "where": {"i4": "18.0"}}');
SELECT fix('select_query', '{"table": "t", "where": {"i4": "''18''"}}');
SELECT fix('select_query', '{"table": "t", "where": {"n": "1,000.50"}}');
SELECT fix('select_query', '{"table": "t", "where": {"n": "1.000,50"}}');
SELECT fix('select_query', '{"table": "t", "where": {"n": "$1,000.50"}}');
SELECT fix('select_query', '{"table": "t", "where": {"f8": "1,5"}}');
-- one group of three after a point: one, or one thousand? nothing offered
SELECT fix('select_query', '{"table": "t", "where": {"i4": "1.000"}}');
-- a converted value the type cannot hold is not offered
SELECT fix('select_query', '{"table": "t", "where": {"i2": "100,000"}}');
-- integers have no NaN or Infinity
SELECT fix('select_query', '{"table": "t", "where": {"i4": "NaN"}}');
SELECT fix('select_query', '{"table": "t", "where": {"i8": "-Infinity"}}');
SELECT fix('select_query', '{"table": "t", "where": {"i4": "eighteen"}}');
-- the string "null"
SELECT fix('select_query', '{"table": "t", "where": {"u": "NULL"}}');

-- enums: case, spelling, spaces; labels listed (clipped past 20)
SELECT fix('select_query', '{"table": "t", "where": {"st": "Shipped"}}');
SELECT fix('select_query', '{"table": "t", "where": {"st": "canceled"}}');
SELECT fix('select_query', '{"table": "t", "where": {"st": " delivered "}}');
SELECT fix('select_query', '{"table": "t", "where": {"st": "lost"}}');
SELECT fix('select_query', '{"table": "t", "where": {"ml": "L7"}}');
-- in an array: the element's place
SELECT fix('select_query', '{"table": "t", "where": {"st": {"in": ["pending", "Cancelled"]}}}');
SELECT fix('select_query', '{"table": "t", "where": {"sa": {"contains": ["SHIPPED"]}}}');
-- domains: through their base type
SELECT fix('select_query', '{"table": "t", "where": {"pi": "1,000"}}');
SELECT fix('insert_data', '{"table": "t", "rows": [{"id": 9, "sd": "Pending"}]}');
SELECT fix('select_query', '{"table": "t", "where": {"di": {"contains": ["1,000"]}}}');
-- arrays and ranges
SELECT fix('select_query', '{"table": "t", "where": {"da": {"contains": ["27/11/2026"]}}}');
SELECT fix('select_query', '{"table": "t", "where": {"r4": "1-10"}}');
-- long values: one too long to quote whole is not offered (a clipped value
-- would be wrong); a shorter one is
SELECT fix('insert_data', jsonb_build_object('table', 't', 'rows', jsonb_build_array(
         jsonb_build_object('id', 9, 'vc240', ' ' || repeat('x', 240) || ' '))));
SELECT fix('insert_data', '{"table": "t", "rows": [{"id": 9, "vc": " abc "}]}');
-- an empty value is never offered
SELECT fix('insert_data', '{"table": "t", "rows": [{"id": 9, "vc": "  ''''  "}]}');
-- a value longer than 256 bytes gets the examples alone
SELECT fix('insert_data', jsonb_build_object('table', 't', 'rows', jsonb_build_array(
         jsonb_build_object('id', 9, 'st', repeat(' ', 300) || 'shipped'))));

-- every place a value is given: rows, set, params, custom tools
SELECT fix('insert_data', '{"table": "t", "rows": [{"id": 2, "i4": 5}, {"id": 3, "i4": "2,500"}]}');
SELECT fix('update_data', '{"table": "t", "where": {"id": 1}, "set": {"st": "Delivered"}}');
SELECT fix('execute_sql', '{"sql": "SELECT count(*) FROM t WHERE d = $1", "params": ["27/11/2026"]}');
SELECT fix('explain_query', '{"sql": "SELECT * FROM t WHERE st = $1", "params": ["SHIPPED"]}');
SELECT ai_tool_define('orders_on', 'Rows of one day.', 'SELECT id FROM vh_test.t WHERE d = $1',
                      '[{"name": "day", "type": "date"}]') ->> 'name' AS name;
SELECT fix('orders_on', '{"day": "27.11.2026"}');
SELECT ai_tool_drop('orders_on');
-- PostgreSQL's own error for a text parameter cast in the statement
SELECT fix('execute_sql', '{"sql": "SELECT count(*) FROM t WHERE i4 = $1::text::int", "params": ["x", "1,000"]}');
SELECT fix('execute_sql', '{"sql": "SELECT count(*) FROM t WHERE i4 = $2::text::int", "params": ["x", "1,000"]}');
-- values written in SQL text: SQL literals, PostgreSQL's datestyle hint replaced
SELECT fix('execute_sql', '{"sql": "SELECT count(*) FROM t WHERE d = ''27/11/2026''"}');
SELECT fix('execute_sql', '{"sql": "SELECT count(*) FROM t WHERE st = ''Shipped''"}');
SELECT fix('execute_sql', '{"sql": "SELECT 99999999999::int"}');
SELECT fix('execute_sql', '{"sql": "SELECT ''{bad''::jsonb"}');
SELECT fix('select_query', '{"table": "t", "where": "d = ''27.11.2026'' OR i4 = 1"}');
SELECT fix('select_query', '{"table": "t", "where": "i4 = ''1,000''"}');

-- a role with some columns: no answer names another column or any value of
-- the table; a value from the table's rows (a cast in a view) is never offered
CREATE TABLE staff (id int PRIMARY KEY, team order_state, hidden_salary int, code text);
INSERT INTO staff VALUES (1, 'pending', 5000, '1,234');
CREATE VIEW staff_codes AS SELECT id, code::int AS code_n FROM staff;
CREATE ROLE regress_vh_agent;
GRANT USAGE ON SCHEMA vh_test TO regress_vh_agent;
GRANT SELECT (id, team) ON staff TO regress_vh_agent;
GRANT SELECT ON staff_codes TO regress_vh_agent;
SET ROLE regress_vh_agent;
SELECT fix('select_query', '{"table": "staff", "columns": ["id"], "where": {"team": "Pending"}}');
SELECT fix('select_query', '{"table": "staff", "columns": ["id"], "where": {"id": "1,0"}}');
SELECT a::text LIKE '%hidden_salary%' AS names_hidden_column
FROM ai_tool_call('select_query', '{"table": "staff", "columns": ["id"], "where": {"team": "Pending"}}') a;
SELECT fix('select_query', '{"table": "staff_codes", "where": {"id": 1}}');
SELECT fix('execute_sql', '{"sql": "SELECT code_n FROM vh_test.staff_codes"}');
RESET ROLE;

DROP SCHEMA vh_test CASCADE;
DROP ROLE regress_vh_agent;
