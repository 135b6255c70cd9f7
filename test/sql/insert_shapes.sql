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
DROP SCHEMA ins_shapes CASCADE;
RESET search_path;
