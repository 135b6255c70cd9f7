-- ai_tool_list(format): one schema source rendered per provider (issue 14),
-- and the handlers taking what a strict client sends (every key, null for
-- absent; {column, value} pairs for column values)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA fmt_test;
SET search_path = fmt_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;
-- the parameters schema of a tool in a format
CREATE FUNCTION params(fmt text, tool text) RETURNS jsonb
LANGUAGE sql AS $$
    SELECT coalesce(t->'parameters', t->'function'->'parameters', t->'input_schema', t->'inputSchema')
    FROM jsonb_array_elements(ai_tool_list(fmt)) t
    WHERE coalesce(t->>'name', t->'function'->>'name') = tool $$;
-- every value of key anywhere in the catalog
CREATE FUNCTION found(fmt text, key text) RETURNS bigint
LANGUAGE sql AS $$
    SELECT count(*) FROM jsonb_path_query(ai_tool_list(fmt), ('lax $.**.' || key)::jsonpath) $$;

-- the same tools in every format, each with its provider's keys
SELECT f AS format, jsonb_array_length(ai_tool_list(f)) AS tools,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(ai_tool_list(f)->0) k) AS keys
FROM unnest(ARRAY['native', 'openai', 'openai_strict', 'anthropic', 'mcp', 'gemini']) f;
SELECT (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(t->'function') k) AS function_keys,
       t->'function'->'strict' AS strict
FROM jsonb_array_elements(ai_tool_list('openai_strict')) t LIMIT 1;

-- every array declares its items (OpenAI refuses one without; gemini
-- spells it ARRAY)
SELECT f AS format, count(*) AS arrays_without_items
FROM unnest(ARRAY['native', 'openai', 'openai_strict', 'anthropic', 'mcp', 'gemini']) f,
     jsonb_path_query(ai_tool_list(f), 'lax $.**') s
WHERE jsonb_typeof(s) = 'object' AND (s->'type' IN ('"array"', '"ARRAY"') OR s->'type' @> '"array"')
  AND NOT s ? 'items' AND NOT (s ? 'prefixItems' OR s ? 'contains')
GROUP BY f ORDER BY f;

-- two shapes: a type list in native, anyOf elsewhere; the closed formats
-- declare no open object (where as SQL text only)
SELECT f AS format, params(f, 'select_query')->'properties'->'columns'->'type' AS columns_type,
       jsonb_path_query_array(params(f, 'select_query')->'properties'->'columns', 'lax $.anyOf[*].type') AS columns_anyof,
       params(f, 'select_query')->'properties'->'where'->'type' AS where_type,
       jsonb_path_query_array(params(f, 'select_query')->'properties'->'where', 'lax $.anyOf[*].type') AS where_anyof
FROM unnest(ARRAY['native', 'openai', 'openai_strict', 'anthropic', 'mcp', 'gemini']) f;

-- openai_strict: every property required, optional ones nullable, objects
-- closed, no keyword strict mode lacks; defaults move into the description
SELECT p.key AS param, p.value->'type' AS type, p.value->'enum' AS enum,
       p.value->>'description' LIKE '%Default (null): %' AS default_described
FROM jsonb_each(params('openai_strict', 'delete_data')->'properties') p ORDER BY 1;
SELECT params('openai_strict', 'delete_data')->'required' AS required;
SELECT k AS keyword, found('openai_strict', k) AS found
FROM unnest(ARRAY['default', 'examples', 'maxLength', 'minLength', 'maxProperties']) k;
SELECT count(*) AS open_objects
FROM jsonb_path_query(ai_tool_list('openai_strict'), 'lax $.**') s
WHERE jsonb_typeof(s) = 'object' AND (s->'type' = '"object"')
  AND (s->'additionalProperties' IS DISTINCT FROM 'false' OR NOT s ? 'properties');
-- set and rows: {column, value} pairs
SELECT jsonb_pretty(params('openai_strict', 'update_data')->'properties'->'set') AS set_schema;
SELECT params('openai_strict', 'insert_data')->'properties'->'rows'->'items'->'items' =
       params('openai_strict', 'update_data')->'properties'->'set'->'items' AS rows_are_lists_of_pairs;
-- the example of a tool with object shapes is left out, others keep theirs
SELECT t->'function'->>'name' AS name, (t->'function'->>'description') LIKE '%Example: {%' AS has_example
FROM jsonb_array_elements(ai_tool_list('openai_strict')) t;

-- gemini: the OpenAPI subset: no additionalProperties, examples, null type
-- or type list; nullable instead
SELECT k AS keyword, found('gemini', k) AS found
FROM unnest(ARRAY['additionalProperties', 'examples', '"$schema"', 'nullable']) k;
SELECT count(*) AS type_lists_or_null
FROM jsonb_path_query(ai_tool_list('gemini'), 'lax $.**.type') ty
WHERE jsonb_typeof(ty) = 'array' OR ty IN ('"null"', '"NULL"');
SELECT params('gemini', 'select_query')->'properties'->'limit' AS limit_schema;
-- in @google/genai's spelling (its Schema type, which test/catalog checks
-- with tsc): the names of its Type enum, sizes (int64 in the API) as strings
SELECT ty #>> '{}' AS type, count(*) AS n
FROM jsonb_path_query(ai_tool_list('gemini'), 'lax $.**.type') ty
GROUP BY 1 ORDER BY 1;
SELECT k AS keyword, count(v) AS found, count(v) FILTER (WHERE jsonb_typeof(v) = 'string') AS strings
FROM unnest(ARRAY['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties']) k
     LEFT JOIN LATERAL jsonb_path_query(ai_tool_list('gemini'), ('lax $.**.' || k)::jsonpath) v ON true
GROUP BY k ORDER BY k;
SELECT params('gemini', 'select_query')->'properties'->'table' AS table_schema;

-- mcp: no type lists (ajv strict), outputSchema the envelope schema, the
-- same for every tool
SELECT count(*) AS type_lists
FROM jsonb_path_query(ai_tool_list('mcp'), 'lax $[*].inputSchema.**.type') ty
WHERE jsonb_typeof(ty) = 'array';
SELECT count(DISTINCT t->'outputSchema') AS output_schemas,
       bool_and(t->'outputSchema'->'required' = '["success", "status", "tool"]') AS envelope,
       bool_and(NOT t->'outputSchema' ? '$id' AND NOT t->'outputSchema' ? 'description') AS stripped
FROM jsonb_array_elements(ai_tool_list('mcp')) t;
-- execute_sql's params: any value, declared
SELECT jsonb_path_query_array(params('mcp', 'execute_sql')->'properties'->'params'->'items', '$.anyOf[*].type') AS params_items;

-- the settings in force show in every format
SET neon_ai_tools.row_limit = 5;
SELECT f AS format, coalesce(params(f, 'select_query')->'properties'->'limit'->'default',
                             to_jsonb(substring(params(f, 'select_query')->'properties'->'limit'->>'description' from 'Default \(null\): (\d+)'))) AS limit_default
FROM unnest(ARRAY['native', 'openai', 'openai_strict', 'anthropic', 'mcp', 'gemini']) f;
RESET neon_ai_tools.row_limit;

-- a strict client sends every key, null for the ones it does not use
CREATE TABLE items (id int PRIMARY KEY, name text, tags text[], price numeric DEFAULT 1);
SELECT call('insert_data', '{"table": "items", "rows": [[{"column": "id", "value": 1}, {"column": "name", "value": "pen"}, {"column": "tags", "value": ["a", "b"]}], [{"column": "id", "value": 2}, {"column": "name", "value": null}, {"column": "tags", "value": "{c}"}]], "on_conflict": null, "conflict_columns": null, "returning": null, "max_affected": null, "timeout_ms": null}') -> 'data' AS inserted;
SELECT call('select_query', '{"table": "items", "columns": null, "where": null, "order_by": [{"column": "id", "direction": "desc", "nulls": null}, {"column": "name", "direction": null, "nulls": null}], "limit": null, "offset": null, "timeout_ms": null}') -> 'data' AS selected;
SELECT call('update_data', '{"table": "items", "set": [{"column": "price", "value": 2.5}, {"column": "name", "value": "pencil"}], "where": "id = 2", "confirm_all_rows": null, "dry_run": null, "returning": ["id", "name", "price"], "max_affected": null, "timeout_ms": null}') -> 'data' AS updated;
SELECT call('delete_data', '{"table": "items", "where": "id = 1", "confirm_all_rows": null, "mode": null, "confirm": null, "dry_run": null, "returning": "id", "max_affected": null, "timeout_ms": null}') -> 'data' AS deleted;
SELECT call('execute_sql', '{"sql": "SELECT $1::int + 1 AS n", "params": [41], "mode": null, "read_only": null, "limit": null, "max_affected": null, "timeout_ms": null}') -> 'data' AS executed;
-- the object shapes stay accepted beside the pairs
SELECT call('update_data', '{"table": "items", "set": {"name": "marker"}, "where": {"id": 2}, "returning": ["name"]}') -> 'data' AS updated;
SELECT call('insert_data', '{"table": "items", "rows": {"id": 3}, "returning": ["id", "price"]}') -> 'data' AS inserted;
-- a required argument may not be null; bad pairs are refused with their path
SELECT call('update_data', '{"table": "items", "set": null, "where": "id = 2"}') - 'suggestion';
SELECT call('update_data', '{"table": "items", "set": [{"column": "name"}], "where": "id = 2"}') - 'suggestion';
SELECT call('update_data', '{"table": "items", "set": [{"column": "name", "value": "a"}, {"column": "name", "value": "b"}], "where": "id = 2"}') - 'suggestion';
SELECT call('insert_data', '{"table": "items", "rows": [[{"column": "id", "value": 9}], [{"column": "id", "value": 10, "x": 1}]]}') - 'suggestion';
SELECT call('update_data', '{"table": "items", "set": [], "where": "id = 2"}') ->> 'error' AS error;
SELECT call('select_query', '{"table": "items", "order_by": [{"column": "id", "sorting": null}]}') ->> 'error' AS error;
-- the limits hold for the pairs: columns of one row, rows of one insert
SELECT call('update_data', jsonb_build_object('table', 'items', 'where', 'id = 2', 'set',
       (SELECT jsonb_agg(jsonb_build_object('column', 'c' || g, 'value', g)) FROM generate_series(1, 1601) g))) ->> 'error' AS error;
SELECT call('insert_data', jsonb_build_object('table', 'items', 'rows',
       (SELECT jsonb_agg(jsonb_build_array(jsonb_build_object('column', 'id', 'value', g))) FROM generate_series(100, 1100) g))) ->> 'error' AS error;
SELECT count(*) AS rows_left FROM items;

DROP SCHEMA fmt_test CASCADE;
