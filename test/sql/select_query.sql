-- select_query: columns, order, paging, row and byte caps, types
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA sel_test;
SET search_path = sel_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

CREATE TABLE people (id int PRIMARY KEY, name text, age int, city text);
INSERT INTO people VALUES (1, 'Ann', 31, 'Berlin'), (2, 'Bob', 17, NULL),
  (3, 'Cid', 45, 'Paris'), (4, 'Dee', 17, 'Berlin');

-- the whole envelope of a small read
-- (next, the continuation token, is signed with this database's own key: test continuation)
SELECT jsonb_pretty(call('select_query', '{"table": "people", "order_by": "id", "limit": 2}') - 'next');

-- columns as a list and as a comma string; columns header keeps their order
SELECT call('select_query', '{"table": "people", "columns": ["name", "id"], "order_by": "id", "limit": 1}') -> 'columns' AS columns;
SELECT call('select_query', '{"table": "people", "columns": "name, id", "order_by": "id", "limit": 1}') -> 'data' AS data;
SELECT call('select_query', '{"table": "people", "columns": "*", "order_by": "id", "limit": 1}') -> 'data' AS data;
-- a column asked for twice is kept twice, under distinct keys
SELECT call('select_query', '{"table": "people", "columns": ["id", "id"], "order_by": "id", "limit": 1}') -> 'data' AS data;
-- case-insensitive fallback for names, as SQL folds unquoted names
SELECT call('select_query', '{"table": "PEOPLE", "columns": ["NAME"], "order_by": "id", "limit": 1}') -> 'data' AS data;
SELECT call('select_query', '{"table": "sel_test.people", "columns": ["name"], "limit": 1, "order_by": "id"}') -> 'table' AS table_name;

-- order_by: string form and object form, with nulls placement
SELECT call('select_query', '{"table": "people", "columns": ["id"], "order_by": "age desc, id"}') -> 'data' AS data;
SELECT call('select_query', '{"table": "people", "columns": ["id"], "order_by": [{"column": "age", "direction": "desc"}, {"column": "id"}]}') -> 'data' AS data;
SELECT call('select_query', '{"table": "people", "columns": ["id"], "order_by": "city nulls first, id"}') -> 'data' AS data;
SELECT call('select_query', '{"table": "people", "columns": ["id"], "order_by": [{"column": "city", "direction": "desc", "nulls": "last"}, "id desc"]}') -> 'data' AS data;
SELECT call('select_query', '{"table": "people", "order_by": "agee"}');

-- paging with limit and offset
SELECT call('select_query', '{"table": "people", "columns": ["id"], "order_by": "id", "limit": 2, "offset": 2}') - 'columns';
SELECT call('select_query', '{"table": "people", "columns": ["id"], "order_by": "id", "offset": 10}') - 'columns';

-- quoted, mixed-case and odd identifiers
CREATE TABLE "Odd Table" ("Weird ""Col""" int, "select" text);
INSERT INTO "Odd Table" VALUES (1, 'x');
SELECT call('select_query', '{"table": "\"Odd Table\""}') -> 'data' AS data;
SELECT call('select_query', '{"table": "Odd Table"}') -> 'data' AS data;
SELECT call('select_query', '{"table": "Odd Tabel"}') ->> 'error' AS error;
SELECT call('select_query', '{"table": "sel_test.\"Odd Table\"", "columns": "\"Weird \"\"Col\"\"\", select"}') -> 'data' AS data;

-- row cap: 1500 rows and no limit give exactly 1000, truncated
CREATE TABLE big AS SELECT g AS id, 'row ' || g AS label FROM generate_series(1, 1500) g;
SELECT r->'rowCount' AS row_count, jsonb_array_length(r->'data') AS rows, r->'truncated' AS truncated,
       r->'truncation' AS truncation, r->>'warning' AS warning
FROM call('select_query', '{"table": "big"}') r;
-- exactly 1000 rows: not truncated
DELETE FROM big WHERE id > 1000;
SELECT r->'rowCount' AS row_count, r->'truncated' AS truncated, r ? 'truncation' AS has_truncation, r ? 'warning' AS has_warning
FROM call('select_query', '{"table": "big"}') r;
-- an explicit limit equal to the row count is not truncation either
SELECT r->'rowCount' AS row_count, r->'truncated' AS truncated FROM call('select_query', '{"table": "big", "limit": 1000}') r;
SELECT r->'rowCount' AS row_count, r->'truncated' AS truncated FROM call('select_query', '{"table": "big", "limit": 999}') r;
-- the default row_limit is user-settable and clamped by max_rows
SET neon_ai_tools.row_limit = 10;
SELECT r->'rowCount' AS row_count, r->'truncation' AS truncation FROM call('select_query', '{"table": "big"}') r;
SET neon_ai_tools.row_limit = 5000;
SET neon_ai_tools.max_rows = 20;
SELECT r->'rowCount' AS row_count, r->'truncation' AS truncation FROM call('select_query', '{"table": "big"}') r;
SELECT call('select_query', '{"table": "big", "limit": 21}') ->> 'error' AS error;
RESET neon_ai_tools.row_limit;
RESET neon_ai_tools.max_rows;

-- byte budget: 300 rows of 10 kB stop at max_response_bytes
CREATE TABLE wide AS SELECT g AS id, repeat('x', 10000) AS payload FROM generate_series(1, 300) g;
SET neon_ai_tools.max_response_bytes = '100kB';
SELECT r->'rowCount' AS row_count, r->'truncated' AS truncated, r->'truncation' AS truncation, r->>'warning' AS warning
FROM call('select_query', '{"table": "wide", "order_by": "id"}') r;
SELECT length(call('select_query', '{"table": "wide", "order_by": "id"}')::text) <= 102400 AS within_budget;
-- a single row larger than the budget: no rows, truncated
SET neon_ai_tools.max_response_bytes = '1kB';
SELECT r->'rowCount' AS row_count, r->'data' AS data, r->'truncation' AS truncation
FROM call('select_query', '{"table": "wide", "limit": 1}') r;
RESET neon_ai_tools.max_response_bytes;

-- values render as PostgreSQL renders them to jsonb
CREATE TYPE mood AS ENUM ('sad', 'happy');
CREATE TABLE typed (i2 smallint, i8 bigint, n numeric, nan numeric, f float8, b boolean,
  t text, vc varchar(5), c char(3), d date, ts timestamp, tstz timestamptz, iv interval,
  arr int[], j json, jb jsonb, by bytea, m mood, u uuid, nul text);
SET TIME ZONE 'UTC';
INSERT INTO typed VALUES (-2, 9007199254740993, 12345678901234567890.123456789, 'NaN', 1.5, true,
  'tab	"quote"', 'abc', 'ab', '2024-02-29', '2024-01-02 03:04:05', '2024-01-02 03:04:05+02', '1 day 2 hours',
  '{1,2,NULL}', '{"a": [1, 2]}', '{"b": {"c": null}}', '\x0102', 'happy', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', NULL);
SELECT jsonb_pretty(call('select_query', '{"table": "typed"}') -> 'data' -> 0);
SELECT call('select_query', '{"table": "typed", "columns": ["n", "tstz", "arr", "m"]}') -> 'columns' AS columns;
RESET TIME ZONE;

-- views, materialized views and partitioned tables are readable
CREATE VIEW adults AS SELECT id, name FROM people WHERE age >= 18;
CREATE MATERIALIZED VIEW cities AS SELECT DISTINCT city FROM people WHERE city IS NOT NULL;
SELECT call('select_query', '{"table": "adults", "order_by": "id"}') -> 'data' AS data;
SELECT call('select_query', '{"table": "cities", "order_by": "city"}') -> 'data' AS data;
CREATE TABLE parted (id int, region text) PARTITION BY LIST (region);
CREATE TABLE parted_eu PARTITION OF parted FOR VALUES IN ('eu');
CREATE TABLE parted_us PARTITION OF parted FOR VALUES IN ('us');
INSERT INTO parted VALUES (1, 'eu'), (2, 'us');
SELECT call('select_query', '{"table": "parted", "order_by": "id"}') -> 'data' AS data;
-- other relation kinds are not tables
CREATE SEQUENCE seq;
SELECT call('select_query', '{"table": "seq"}');

-- misspelt names get the closest names the caller can see
SELECT call('select_query', '{"table": "peeple"}');
SELECT call('select_query', '{"table": "nosuchschema.people"}') -> 'errorType' AS error_type;
SELECT call('select_query', '{"table": "people", "columns": ["nmae"]}');
SELECT call('select_query', '{"table": "a.b.c.d"}') ->> 'error' AS error;
SELECT call('select_query', '{"table": "\"unterminated"}') ->> 'error' AS error;

DROP SCHEMA sel_test CASCADE;
