-- answer formats: json, columnar, csv and markdown (README, "Answer
-- formats"); the byte cap counts each rendered form
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA af_test;
SET search_path = af_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

-- every kind of column, including the awkward values
CREATE TYPE mood AS ENUM ('sad', 'happy');
CREATE TYPE pair AS (a int, b text);
CREATE TABLE every (
    id int PRIMARY KEY, i2 int2, i8 int8, num numeric, f4 float4, f8 float8,
    b bool, t text, vc varchar(10), ch char(3), by bytea, d date, tm time,
    ttz timetz, ts timestamp, tstz timestamptz, iv interval, u uuid,
    js json, jb jsonb, ia int[], ta text[], ip inet, cidr_ cidr,
    mac macaddr, pt point, tv tsvector, bits bit(4), vb varbit, o oid,
    m mood, r int4range, na numeric[]);
INSERT INTO every VALUES
    (1, -32768, 9223372036854775807, 123456789012345678901234567890.123456789,
     1.5, 0.1, true, 'plain', 'v', 'ab', '\x00ff', '2024-02-29', '12:34:56.789',
     '01:02:03+05', '2024-01-01 00:00:00.123456', '2024-01-01 00:00:00+00',
     '1 year 2 days 03:04:05', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
     '{"k": [1, 2.50, "x"], "z": 2}', '{"n": 1.0, "s": "é"}', '{1,NULL,3}',
     '{"a,b","",NULL}', '192.168.0.1/24', '10.0.0.0/8', '08:00:2b:01:02:03',
     '(1.5,2)', 'a:1 b:2', B'1010', B'101', 4294967295, 'happy',
     '[1,10)', '{1.10,NaN,-Infinity}'),
    (2, NULL, NULL, 'NaN', 'Infinity', '1e-300', false, '', '', '', '', 'infinity',
     '00:00', NULL, '-infinity', NULL, '0', NULL, '"s"', '[]', '{}', '{}',
     '::1', NULL, NULL, NULL, '', B'0000', B'', 0, 'sad', 'empty', '{}'),
    (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

-- columnar: "columns" once, each row an array in that order; zipped with
-- the column names, every row is the json format's row, exactly
SELECT a ->> 'format' AS format, jsonb_typeof(a -> 'data' -> 0) AS row_shape,
       a -> 'rowCount' AS row_count,
       jsonb_array_length(a -> 'columns') = jsonb_array_length(a -> 'data' -> 0) AS one_value_a_column
FROM call('select_query', '{"table": "every", "order_by": "id", "format": "columnar"}') AS a;
SELECT count(*) AS rows_equal_to_json
FROM call('select_query', '{"table": "every", "order_by": "id", "format": "columnar"}') AS c,
     call('select_query', '{"table": "every", "order_by": "id"}') AS j,
     generate_series(0, 2) AS i
WHERE (SELECT jsonb_object_agg(col ->> 'name', c -> 'data' -> i -> (n - 1)::int)
       FROM jsonb_array_elements(c -> 'columns') WITH ORDINALITY AS x(col, n)) = j -> 'data' -> i;

-- the round trip: the columnar rows written back with insert_data are the
-- same rows, value for value
CREATE TABLE every_copy (LIKE every);
SELECT call('insert_data', jsonb_build_object('table', 'every_copy', 'returning', '[]'::jsonb, 'rows',
       (SELECT jsonb_agg((SELECT jsonb_object_agg(col ->> 'name', r -> (n - 1)::int)
                          FROM jsonb_array_elements(c -> 'columns') WITH ORDINALITY AS x(col, n)))
        FROM jsonb_array_elements(c -> 'data') AS r)))
       - 'query' - 'data' AS copied
FROM call('select_query', '{"table": "every", "format": "columnar"}') AS c;
SELECT (SELECT count(*) FROM (SELECT e::text FROM every e EXCEPT SELECT c::text FROM every_copy c) x) AS missing,
       (SELECT count(*) FROM (SELECT c::text FROM every_copy c EXCEPT SELECT e::text FROM every e) x) AS extra;

-- a composite value: an object in its array, as in json
SELECT call('execute_sql', '{"sql": "SELECT ROW(1, $$x y$$)::af_test.pair AS p, 2 AS n", "format": "columnar"}') -> 'data' AS data;

-- csv and markdown: the text in data_text, "data" empty, what text loses
-- in "note"; NULL and the empty string differ
CREATE TABLE words (id int PRIMARY KEY, w text, n numeric);
INSERT INTO words VALUES (1, 'plain', 1.50), (2, '', 0), (3, NULL, NULL),
    (4, 'NULL', -1), (5, 'a,b "c"', 2), (6, E'two\nlines | pipe', 3);
SELECT a ->> 'data_text' AS csv, a -> 'data' AS data, a -> 'rowCount' AS row_count,
       a ->> 'format' AS format, a ? 'note' AS has_note
FROM call('select_query', '{"table": "words", "order_by": "id", "format": "csv"}') AS a;
SELECT a ->> 'data_text' AS markdown, a ->> 'note' AS note
FROM call('select_query', '{"table": "words", "order_by": "id", "format": "markdown"}') AS a;
SELECT call('select_query', '{"table": "words", "order_by": "id", "format": "csv"}') ->> 'note' AS csv_note;
-- the csv parses back into the same rows, NULL and '' apart
SELECT count(*) AS csv_rows_parsed
FROM regexp_split_to_table((SELECT call('select_query', '{"table": "words", "format": "csv", "columns": ["id"]}') ->> 'data_text'), E'\n') AS l
WHERE l ~ '^[0-9]+$';

-- every type in the text formats (issue 32, item 7): a value the json
-- format answers as a string is written as that string, without JSON
-- quotes (uuid, enum, interval, inet, bytea, time, money, ...); numbers
-- and booleans as JSON writes them; arrays and records as their JSON text;
-- json and jsonb columns as their JSON text, a string scalar quoted
SELECT col ->> 'name' AS name, cells[n] AS markdown, r -> (col ->> 'name') AS json,
       cells[n] = CASE WHEN jsonb_typeof(r -> (col ->> 'name')) = 'string' AND col ->> 'type' NOT IN ('json', 'jsonb')
                       THEN r ->> (col ->> 'name') ELSE (r -> (col ->> 'name'))::text END AS as_text
FROM (SELECT a -> 'data' -> 0 AS r, a -> 'columns' AS cols
      FROM call('select_query', '{"table": "every", "where": {"id": 1}}') AS a) j,
     (SELECT string_to_array(substr(l, 3, length(l) - 4), ' | ') AS cells
      FROM call('select_query', '{"table": "every", "where": {"id": 1}, "format": "markdown"}') AS a,
           split_part(a ->> 'data_text', E'\n', 3) AS l) m,
     jsonb_array_elements(cols) WITH ORDINALITY AS x(col, n)
ORDER BY n;
SELECT split_part(a ->> 'data_text', E'\n', 2) AS csv
FROM call('select_query', '{"table": "every", "where": {"id": 1}, "format": "csv"}') AS a;
SELECT split_part(a ->> 'data_text', E'\n', 3) AS markdown
FROM call('select_query', '{"table": "every", "where": {"id": 2}, "format": "markdown"}') AS a;
-- a json or jsonb string scalar, and the same string in a text column
SELECT call('execute_sql', '{"sql": "SELECT $$\"s\"$$::jsonb AS jb, $$\"s\"$$::json AS js, $$s$$::text AS t, $$a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11$$::uuid AS u, ARRAY[$$a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11$$::uuid] AS ua", "format": "csv"}') ->> 'data_text' AS csv;

-- no rows: the header alone; a write's RETURNING rows in each format
SELECT call('select_query', '{"table": "words", "where": {"id": 0}, "format": "csv"}') ->> 'data_text' AS header_only;
SELECT call('update_data', '{"table": "words", "where": {"id": 1}, "set": {"n": 9}, "returning": ["id", "n"], "format": "columnar"}') - 'query' AS answer;
SELECT call('insert_data', '{"table": "words", "rows": [{"id": 7, "w": "x"}], "returning": "id, w", "format": "markdown"}') ->> 'data_text' AS inserted;
SELECT call('delete_data', '{"table": "words", "where": {"id": 7}, "format": "csv"}') ->> 'data_text' AS deleted;
-- execute_sql, one statement and several
SELECT call('execute_sql', '{"sql": "SELECT 1 AS a, NULL::text AS b, $$$$ AS c", "format": "csv"}') ->> 'data_text' AS one;
SELECT jsonb_path_query_array(a, '$.data[*].data_text') AS texts, jsonb_path_query_array(a, '$.data[*].data') AS datas
FROM call('execute_sql', '{"sql": "SELECT 1 AS a; SELECT 2 AS b", "mode": "multiple", "format": "columnar"}') AS a;
SELECT jsonb_path_query_array(a, '$.data[*].data_text') AS texts
FROM call('execute_sql', '{"sql": "SELECT 1 AS a; SELECT 2 AS b", "mode": "multiple", "format": "markdown"}') AS a;
-- list_tables too
SELECT call('list_tables', '{"schema": "af_test", "format": "columnar"}') -> 'data' -> 0 -> 1 AS first_table;

-- the default: neon_ai_tools.default_format, user-settable; an argument wins
SHOW neon_ai_tools.default_format;
SET neon_ai_tools.default_format = columnar;
SELECT call('select_query', '{"table": "words", "where": {"id": 1}, "columns": ["id"]}') -> 'data' AS data;
SELECT call('select_query', '{"table": "words", "where": {"id": 1}, "columns": ["id"], "format": "json"}') -> 'data' AS data;
-- a tool without rows to format ignores it
SELECT call('describe_table', '{"table": "words"}') ? 'format' AS describe_has_format;
RESET neon_ai_tools.default_format;
SET neon_ai_tools.default_format = xml;

-- refused: an unknown format, a format that is not a string, a format on a
-- tool that has none
SELECT call('select_query', '{"table": "words", "format": "csv2"}') - 'operation' AS answer;
SELECT call('select_query', '{"table": "words", "format": 1}') ->> 'error' AS error;
SELECT call('describe_table', '{"table": "words", "format": "csv"}') ->> 'errorType' AS error_type;

-- the byte cap counts the rendered form of each format: each stays under
-- it, and the smaller forms carry more rows (issue 32, item 7: columnar
-- carries more than json).  Narrow rows in json and columnar weigh more
-- in memory than as text; under a small cap the memory they may take
-- while the answer is built (8 times the cap, at least 8 MB) leaves the
-- byte cap to stop them
CREATE TABLE wide (id int PRIMARY KEY, label text, amount numeric);
INSERT INTO wide SELECT g, 'label number ' || g, g * 1.25 FROM generate_series(1, 300) g;
SET neon_ai_tools.max_response_bytes = 4096;
SELECT f AS format, a -> 'rowCount' AS row_count, a -> 'truncated' AS truncated,
       a -> 'truncation' AS truncation,
       CASE WHEN f IN ('csv', 'markdown') THEN octet_length(to_jsonb(a ->> 'data_text')::text)
            ELSE octet_length((a -> 'data')::text) END <= 4096 AS within_cap
FROM unnest(ARRAY['json', 'columnar', 'csv', 'markdown']) AS f,
     call('select_query', jsonb_build_object('table', 'wide', 'order_by', 'id', 'format', f)) AS a;
SELECT a ->> 'warning' AS warning
FROM call('select_query', '{"table": "wide", "order_by": "id", "format": "columnar", "columns": "id"}') AS a;
-- rows wide enough to be stopped by the cap: each format fills it, counted
-- as it writes its rows (integers as their digits, one separator between
-- values), with no room left for one more row
CREATE TABLE filled (id int PRIMARY KEY, n bigint, t text);
INSERT INTO filled SELECT g, g * 1000, repeat('x', 150) FROM generate_series(1, 300) g;
SELECT format, row_count, truncation, bytes <= 4096 AS within_cap,
       bytes + bytes / row_count > 4096 - header AS no_room_for_one_more
FROM (SELECT f AS format, (a -> 'rowCount')::int AS row_count, a -> 'truncation' AS truncation,
             CASE WHEN f IN ('csv', 'markdown') THEN octet_length(to_jsonb(a ->> 'data_text')::text)
                  ELSE octet_length((a -> 'data')::text) END AS bytes,
             -- the columns header counts too: its names and 64 bytes a
             -- column, and the text formats' header line
             2 + 4 + 3 * 64 + CASE WHEN f IN ('csv', 'markdown') THEN 4 + 3 * 8 ELSE 0 END AS header
      FROM unnest(ARRAY['json', 'columnar', 'csv', 'markdown']) AS f,
           call('select_query', jsonb_build_object('table', 'filled', 'order_by', 'id', 'format', f)) AS a) x;
-- a value alone past the cap: named, in every format
INSERT INTO wide VALUES (0, repeat('x', 5000), 0);
SELECT f AS format, a -> 'rowCount' AS row_count, a ->> 'warning' LIKE '%column "label"%' AS names_column
FROM unnest(ARRAY['json', 'columnar', 'csv', 'markdown']) AS f,
     call('select_query', jsonb_build_object('table', 'wide', 'order_by', 'id', 'format', f)) AS a;
RESET neon_ai_tools.max_response_bytes;
-- rows of many short values, 10,000 of them under the default 1 MB cap:
-- their tree passes 8 MB before their text passes the cap, and truncation
-- says which stopped them
SET neon_ai_tools.row_limit = 10000;
SELECT a -> 'truncation' AS truncation, (a -> 'rowCount')::int < 10000 AS stopped_early,
       octet_length((a -> 'data')::text) < 1048576 AS under_byte_cap
FROM call('execute_sql', jsonb_build_object('sql',
  'SELECT ' || (SELECT string_agg(format('%s AS c%s', g, g), ', ') FROM generate_series(1, 24) g) ||
  ' FROM generate_series(1, 10000)')) AS a;
RESET neon_ai_tools.row_limit;

-- the catalog lists the argument, an enum, in every catalog format
SELECT f AS catalog_format,
       jsonb_path_query_first(ai_tool_list(f), '$.**.format.enum') AS format_enum
FROM unnest(ARRAY['native', 'openai', 'openai_strict', 'anthropic', 'mcp', 'gemini']) AS f;
SELECT string_agg(t ->> 'name', ', ' ORDER BY t ->> 'name') AS tools_with_format
FROM jsonb_array_elements(ai_tool_list()) AS t
WHERE t -> 'parameters' -> 'properties' ? 'format';

DROP SCHEMA af_test CASCADE;
