-- ai_tool_list(format, compact => true): the same tools and schemas, each
-- description cut to its first sentence, no examples (issue 18)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;

-- smaller in every format, with the same tools, parameters and required lists
SELECT f AS format,
       octet_length(ai_tool_list(f, compact => true)::text) < octet_length(ai_tool_list(f)::text) AS smaller,
       jsonb_path_query_array(ai_tool_list(f, true), '$[*].name') || jsonb_path_query_array(ai_tool_list(f, true), '$[*].function.name') =
       jsonb_path_query_array(ai_tool_list(f), '$[*].name') || jsonb_path_query_array(ai_tool_list(f), '$[*].function.name') AS same_names,
       jsonb_path_query_array(ai_tool_list(f, true), 'strict $.**.properties.keyvalue().key') =
       jsonb_path_query_array(ai_tool_list(f), 'strict $.**.properties.keyvalue().key') AS same_parameters,
       jsonb_path_query_array(ai_tool_list(f, true), 'strict $.**.required') =
       jsonb_path_query_array(ai_tool_list(f), 'strict $.**.required') AS same_required,
       jsonb_path_exists(ai_tool_list(f, true), 'strict $.**.examples') AS has_examples
FROM unnest(ARRAY['native', 'openai', 'openai_strict', 'anthropic', 'mcp', 'gemini']) AS f;

-- every tool description is one sentence (two when the first is short)
SELECT t ->> 'name' AS tool, t ->> 'description' AS description
FROM jsonb_array_elements(ai_tool_list('native', true)) AS t;
-- a parameter's too
SELECT k AS param, v ->> 'description' AS description
FROM jsonb_each(ai_tool_list('native', true) -> 0 -> 'parameters' -> 'properties') AS x(k, v)
ORDER BY k;

-- compact false or NULL is the full catalog; the format is still checked
SELECT ai_tool_list('openai', false) = ai_tool_list('openai') AS false_is_full,
       ai_tool_list('openai', NULL) = ai_tool_list('openai') AS null_is_full;
SELECT ai_tool_list('xml', true);
SELECT ai_tool_list(NULL, true);
