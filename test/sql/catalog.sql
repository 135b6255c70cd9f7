-- ai_tool_list(): the catalog in its formats (each format's own rules: catalog_formats)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;

-- native: name, title, description, parameters, annotations
SELECT jsonb_typeof(ai_tool_list()) AS type, jsonb_array_length(ai_tool_list()) > 0 AS has_tools;
SELECT t->>'name' AS name,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(t) k) AS keys,
       t->'annotations' AS annotations
FROM jsonb_array_elements(ai_tool_list()) t;

-- the parameters are a JSON Schema object, closed to unknown keys
SELECT t->'parameters'->>'type' AS type,
       t->'parameters'->'required' AS required,
       t->'parameters'->'additionalProperties' AS additional,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(t->'parameters'->'properties') k) AS properties
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'select_query';
SELECT jsonb_pretty(t->'parameters'->'properties'->'limit') AS limit_schema
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'select_query';
SELECT t->'parameters'->'properties'->'where'->'type' AS where_type,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(t->'parameters'->'properties'->'where') k) AS where_keys,
       jsonb_array_length(t->'parameters'->'properties'->'where'->'examples') AS examples
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'select_query';
SELECT t->'parameters'->'properties'->'order_by'->'items'->'properties'->'direction' AS direction
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'select_query';

-- descriptions are written for an LLM, with an example
SELECT t->>'name' AS name, length(t->>'description') > 200 AS long_enough,
       (t->>'description') LIKE '%Example: {%' AS has_example
FROM jsonb_array_elements(ai_tool_list()) t;

-- openai: {"type":"function","function":{name,description,parameters}}
SELECT t->>'type' AS type,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(t->'function') k) AS function_keys,
       t->'function'->'parameters' = (SELECT n->'input_schema' FROM jsonb_array_elements(ai_tool_list('anthropic')) n WHERE n->>'name' = t->'function'->>'name') AS same_schema
FROM jsonb_array_elements(ai_tool_list('openai')) t;

-- anthropic: {name, description, input_schema}
SELECT (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(t) k) AS keys,
       t->'input_schema'->>'type' AS schema_type
FROM jsonb_array_elements(ai_tool_list('anthropic')) t;

-- mcp: {name, title, description, inputSchema, annotations}
SELECT (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(t) k) AS keys,
       t->'annotations'->>'readOnlyHint' AS read_only
FROM jsonb_array_elements(ai_tool_list('mcp')) t;

-- the schema shows the caller's effective limits
SET neon_ai_tools.max_rows = 250;
SELECT t->'parameters'->'properties'->'limit'->'maximum' AS limit_maximum
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'select_query';
RESET neon_ai_tools.max_rows;

-- the advertised defaults are the settings in force for the caller,
-- clamped to the maximum as a call clamps them, in every format
SET neon_ai_tools.row_limit = 5;
SET neon_ai_tools.timeout = '2s';
SELECT t->'parameters'->'properties'->'limit'->'default' AS limit_default,
       t->'parameters'->'properties'->'timeout_ms'->'default' AS timeout_default
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'select_query';
SELECT t->'inputSchema'->'properties'->'limit'->'default' AS mcp_limit_default,
       t->'inputSchema'->'properties'->'timeout_ms'->'default' AS mcp_timeout_default
FROM jsonb_array_elements(ai_tool_list('mcp')) t WHERE t->>'name' = 'execute_sql';
SELECT t->'function'->'parameters'->'properties'->'limit'->'default' AS openai_limit_default
FROM jsonb_array_elements(ai_tool_list('openai')) t WHERE t->'function'->>'name' = 'list_tables';
SET neon_ai_tools.max_rows = 3;
SET neon_ai_tools.max_timeout = '1s';
SELECT t->'parameters'->'properties'->'limit'->'default' AS limit_default,
       t->'parameters'->'properties'->'timeout_ms'->'default' AS timeout_default
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'select_query';
-- and a call without limit applies exactly the advertised default
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT g FROM generate_series(1, 10) g"}') -> 'truncation' AS truncation;
RESET neon_ai_tools.max_rows;
RESET neon_ai_tools.max_timeout;
RESET neon_ai_tools.row_limit;
RESET neon_ai_tools.timeout;

-- enabled_tools hides tools from the catalog
SET neon_ai_tools.enabled_tools = 'list_tables';
SELECT jsonb_path_query_array(ai_tool_list(), '$[*].name') AS names;
SET neon_ai_tools.enabled_tools = 'select_query, list_tables';
SELECT jsonb_path_query(ai_tool_list(), '$[*].name') AS name;
RESET neon_ai_tools.enabled_tools;

-- misuse of the SQL API raises an error
SELECT ai_tool_list('yaml');
SELECT ai_tool_list(NULL);
