-- insert_data sends several rows that all have every column as one array
-- per column (SELECT unnest($1), ...): one statement, so one prepared
-- plan, for any number of rows; other rows keep VALUES with DEFAULT
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA ins_shapes;
SET search_path = ins_shapes, public;
CREATE DOMAIN positive AS int CHECK (VALUE > 0);
CREATE TYPE pair AS (a int, b text);
CREATE TABLE t (id serial PRIMARY KEY, name varchar(5), qty positive, price numeric(6,2),
                tags text[], p pair, at timestamptz DEFAULT '2024-01-01Z', note text);
CREATE FUNCTION ins(args jsonb) RETURNS jsonb LANGUAGE sql AS
  $$ SELECT ai_tool_call('insert_data', args) - 'executionTime' $$;
CREATE FUNCTION ins_sql(args jsonb) RETURNS text LANGUAGE sql AS
  $$ SELECT ai_tool_plan('insert_data', args) #>> '{plan,sql}' $$;

-- the statement: arrays for complete rows, VALUES for one row or rows
-- with a column missing, array- and composite-typed columns
SELECT ins_sql('{"table": "t", "rows": [{"name": "a", "qty": 1}, {"name": "b", "qty": 2}]}');
SELECT ins_sql('{"table": "t", "rows": [{"name": "a", "qty": 1}]}');
SELECT ins_sql('{"table": "t", "rows": [{"name": "a", "qty": 1}, {"name": "b"}]}');
SELECT ins_sql('{"table": "t", "rows": [{"name": "a", "tags": ["x"]}, {"name": "b", "tags": []}]}');
SELECT ins_sql('{"table": "t", "rows": [{"name": "a", "p": "(1,x)"}, {"name": "b", "p": "(2,y)"}]}');
SELECT ins_sql('{"table": "t", "rows": [{"name": "a", "qty": 1}, {"name": "b", "qty": 2}], "on_conflict": "update", "conflict_columns": ["id"]}');

-- the rows land as VALUES would put them: order, nulls, defaults of the
-- columns not given, conversions
SELECT ins('{"table": "t", "rows": [{"name": "a", "qty": "1", "price": 1.5, "note": null},
                                    {"name": "b", "qty": 2, "price": "2.25", "note": "x"},
                                    {"name": "c", "qty": 3, "price": 3, "note": "y"}],
             "returning": ["id", "name", "qty", "price", "at", "note"]}') -> 'data';
SELECT ins('{"table": "t", "rows": [{"name": "d", "tags": ["x", "y"], "p": "(1,z)"},
                                    {"name": "e", "tags": [], "p": "(2,w)"}],
             "returning": ["name", "tags", "p"]}') -> 'data';

-- one plan for every row count
SELECT misses AS misses0 FROM ai_tool_plan_cache_stats() \gset
SELECT count(*) FILTER (WHERE ins(jsonb_build_object('table', 't', 'rows',
         (SELECT jsonb_agg(jsonb_build_object('name', 'n' || i, 'qty', i)) FROM generate_series(1, n) i),
         'returning', '[]'::jsonb)) ->> 'affectedRows' = n::text) AS right_counts
FROM generate_series(2, 40) n;
SELECT misses - :misses0 AS plans_prepared FROM ai_tool_plan_cache_stats();

-- errors: the first bad value in row order, as with VALUES; typmods and
-- domain checks per value; nothing inserted
SELECT count(*) AS before FROM t \gset
SELECT a ->> 'errorType' AS error_type, a #>> '{details,path}' AS path
FROM ins('{"table": "t", "rows": [{"name": "ok", "qty": "x"}, {"name": "toolong", "qty": 1}]}') a;
SELECT a ->> 'errorType' AS error_type, a #>> '{details,path}' AS path
FROM ins('{"table": "t", "rows": [{"name": "ok", "qty": 1}, {"name": "toolong", "qty": "x"}]}') a;
SELECT a ->> 'errorType' AS error_type, a #>> '{details,path}' AS path
FROM ins('{"table": "t", "rows": [{"name": "ok", "qty": 1}, {"name": "toolong", "qty": 2}]}') a;
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error
FROM ins('{"table": "t", "rows": [{"name": "ok", "qty": 1}, {"name": "neg", "qty": -1}]}') a;
SELECT count(*) - :before AS inserted FROM t;

-- a null meets the domain's constraints too (NOT NULL), in both forms and
-- in update_data
CREATE DOMAIN must AS int NOT NULL;
CREATE TABLE nn (id int PRIMARY KEY, m must);
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error
FROM ins('{"table": "nn", "rows": [{"id": 1, "m": null}]}') a;
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error
FROM ins('{"table": "nn", "rows": [{"id": 1, "m": 1}, {"id": 2, "m": null}]}') a;
SELECT ins('{"table": "nn", "rows": [{"id": 1, "m": 1}, {"id": 2, "m": 2}], "returning": []}') ->> 'affectedRows' AS inserted;
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error
FROM ai_tool_call('update_data', '{"table": "nn", "set": {"m": null}, "where": {"id": 1}}') a;
SELECT * FROM nn ORDER BY id;

-- conflicts: skip and update with complete rows
CREATE TABLE u (name text PRIMARY KEY, qty int);
INSERT INTO u VALUES ('a', 1);
SELECT ins('{"table": "u", "rows": [{"name": "a", "qty": 9}, {"name": "zz", "qty": 9}], "on_conflict": "skip",
             "returning": ["name", "qty"]}') - 'table' AS skipped;
SELECT ins('{"table": "u", "rows": [{"name": "a", "qty": 7}, {"name": "b", "qty": 8}], "on_conflict": "update",
             "conflict_columns": ["name"], "returning": ["name", "qty"]}') -> 'data' AS upserted;
SELECT a ->> 'errorType' AS error_type, a ->> 'sqlState' AS sqlstate
FROM ins('{"table": "u", "rows": [{"name": "q", "qty": 1}, {"name": "q", "qty": 2}], "on_conflict": "update",
           "conflict_columns": ["name"]}') a;

SELECT * FROM u ORDER BY name;

-- input functions are looked up once per call and type (8 kept at a time):
-- ten column types in complete rows, an array column and a domain over an
-- array; values keep their own column's conversion and errors their place
CREATE DOMAIN short_text AS varchar(3);
CREATE DOMAIN small_ints AS int[] CHECK (cardinality(VALUE) < 3);
CREATE DOMAIN codes AS varchar(2)[];
CREATE TABLE many (a int2, b int4, c int8, d numeric(5,1), e text, f varchar(4),
                   g date, h timestamptz, i boolean, j uuid, k short_text, l inet,
                   m int[], n small_ints, o codes, p varchar(2)[]);
SELECT ins('{"table": "many", "rows": [
  {"a": 1, "b": 2, "c": 3, "d": 4.44, "e": "e", "f": "ffff", "g": "2024-02-29", "h": "2024-01-01 10:00+00",
   "i": true, "j": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "k": "abc", "l": "10.0.0.1", "m": [1, 2], "n": [1]},
  {"a": "5", "b": "6", "c": "7", "d": "8.88", "e": "e2", "f": "f", "g": "2024-03-01", "h": "2024-01-02 10:00+00",
   "i": "false", "j": "b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "k": "xy", "l": "::1", "m": [3], "n": [2, 3]}],
  "returning": []}') ->> 'affectedRows' AS inserted;
SELECT * FROM many ORDER BY a;
-- the same values in a second call, one bad in the last column of row 2
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error, a -> 'details' ->> 'path' AS path
FROM ins('{"table": "many", "rows": [
  {"a": 1, "b": 2, "c": 3, "d": 4.44, "e": "e", "f": "ffff", "g": "2024-02-29", "h": "2024-01-01 10:00+00",
   "i": true, "j": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "k": "abc", "l": "10.0.0.1", "m": [1, 2], "n": [1]},
  {"a": 9, "b": 2, "c": 3, "d": 4.44, "e": "e", "f": "ffff", "g": "2024-02-29", "h": "2024-01-01 10:00+00",
   "i": true, "j": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "k": "abc", "l": "10.0.0.1", "m": [1, 2], "n": [1, 2, 3]}]}') a;
-- a domain over an array takes a JSON array; its base type's typmod and
-- its constraints hold for each element, as for an array column
SELECT ins('{"table": "many", "rows": [{"a": 20, "o": ["ab", null], "p": ["cd"]}, {"a": 21, "o": [], "p": []}],
             "returning": ["a", "o", "p"]}') -> 'data' AS domain_arrays;
SELECT a ->> 'error' AS error
FROM ins('{"table": "many", "rows": [{"a": 22, "o": ["abc"]}, {"a": 23, "o": ["x"]}]}') a;
SELECT a ->> 'error' AS error
FROM ins('{"table": "many", "rows": [{"a": 22, "p": ["ab"]}, {"a": 23, "p": ["abc"]}]}') a;
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error
FROM ins('{"table": "many", "rows": {"a": 24, "n": [1, 2, 3]}}') a;
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error
FROM ai_tool_call('update_data', '{"table": "many", "set": {"o": ["toolong"]}, "where": {"a": 20}}') a;
SELECT ai_tool_call('update_data', '{"table": "many", "set": {"o": ["zz"], "n": [7, 8]}, "where": {"a": 20}, "returning": ["o", "n"]}') -> 'data' AS updated;
DELETE FROM many WHERE a >= 20;

-- a bad value in each kind of place: typmod, domain, the first row, VALUES
SELECT a ->> 'error' AS error
FROM ins('{"table": "many", "rows": [{"k": "abc", "f": "f"}, {"k": "abcd", "f": "f"}]}') a;
SELECT a ->> 'error' AS error
FROM ins('{"table": "many", "rows": [{"f": "fffff", "k": "a"}, {"f": "f", "k": "a"}]}') a;
SELECT a ->> 'error' AS error
FROM ins('{"table": "many", "rows": [{"a": 1}, {"a": 2, "g": "2024-02-30"}]}') a;
SELECT a ->> 'error' AS error
FROM ins('{"table": "many", "rows": {"j": "not-a-uuid"}}') a;
SELECT count(*) AS rows_after_errors FROM many;

-- rows name their keys in any order, and not all the same keys
SELECT ins('{"table": "many", "rows": [{"b": 1, "a": 10}, {"a": 11, "b": 2}, {"e": "x", "a": 12}, {"a": 13, "e": "y", "b": 3}],
             "returning": ["a", "b", "e"]}') -> 'data' AS mixed_keys;
-- input functions kept per call: a domain whose base type is array-like
-- but not array_in's (int2vector) among more than eight types gets its own
-- input function and check for every row; nothing is kept after the call
CREATE FUNCTION seen(v int2vector) RETURNS bool LANGUAGE plpgsql AS
$$BEGIN
  RAISE NOTICE 'checked % (input function tables: %)', v,
    (SELECT count(*) FROM pg_backend_memory_contexts WHERE name = 'neon_ai_tools input functions');
  RETURN true;
END$$;
CREATE DOMAIN iv AS int2vector CHECK (seen(VALUE));
CREATE TABLE vec (a iv, b text, c int4, d int8, e bool, f date, g float8, h numeric, i inet, j uuid);
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error
FROM ins('{"table": "vec", "rows": [
  {"a": "1 2", "b": "x", "c": "1", "d": "1", "e": true, "f": "2024-01-01", "g": "1", "h": "1", "i": "::1",
   "j": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
  {"a": [1, 2], "b": "x", "c": "1", "d": "1", "e": true, "f": "2024-01-01", "g": "1", "h": "1", "i": "::1",
   "j": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}]}') a;
SELECT ins('{"table": "vec", "rows": [{"a": "1 2", "b": "x"}, {"a": "3", "b": "y"}], "returning": ["a", "b"]}') -> 'data' AS vectors;
SELECT count(*) AS kept_after_call FROM pg_backend_memory_contexts
WHERE name = 'neon_ai_tools input functions';

-- a conversion outside a call (ai_tool_define checking a default) whose
-- domain check runs a tool call: that call keeps its input functions to
-- itself, and the definition's check goes on
CREATE FUNCTION calls_tool(v int) RETURNS bool LANGUAGE plpgsql STABLE AS
$$BEGIN PERFORM ai_tool_call('list_tables', '{}'); RETURN v > 0; END$$;
CREATE DOMAIN checked_by_call AS int CHECK (calls_tool(VALUE));
SELECT ai_tool_define('ins_shapes_echo', 'Echo a checked number.', 'SELECT $1::int AS n',
  '[{"name": "p", "type": "ins_shapes.checked_by_call", "description": "a number", "default": 1}]') IS NOT NULL AS defined;
SELECT ai_tool_define('ins_shapes_bad', 'Echo a checked number.', 'SELECT $1::int AS n',
  '[{"name": "p", "type": "ins_shapes.checked_by_call", "description": "a number", "default": -1}]');
-- inside a call, the check's own tool call is refused (a read-only call)
SELECT a ->> 'errorType' AS error_type, a ->> 'error' AS error
FROM ai_tool_call('ins_shapes_echo', '{"p": 2}') a;
SELECT ai_tool_drop('ins_shapes_echo');
DROP SCHEMA ins_shapes CASCADE;
RESET search_path;
