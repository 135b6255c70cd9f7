-- ai_tool_run(): a model response's tool calls run in order, answered in
-- the response's dialect; recorded responses in test/fixtures
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA tr;
SET search_path = tr, public;

CREATE TABLE tr.fx_orders (id int PRIMARY KEY, customer text, total numeric, status text);
INSERT INTO tr.fx_orders VALUES (1, 'ann', 10, 'paid'), (2, 'bob', 20, 'new'), (3, 'cid', 30, 'paid');
SELECT ai_tool_define('order_total', 'The total of one order.',
  'SELECT total FROM tr.fx_orders WHERE id = $1', '[{"name": "order_id", "type": "int"}]') ->> 'name' AS defined;
SELECT ai_tool_define('mark_paid', 'Mark an order paid.',
  'UPDATE tr.fx_orders SET status = ''paid'' WHERE id = $1 RETURNING id, status', '[{"name": "order_id", "type": "int"}]') ->> 'name' AS defined;

-- a result's content is the call's answer: what of it the tests look at
CREATE FUNCTION answer(a jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT jsonb_strip_nulls(jsonb_build_object('success', a -> 'success', 'tool', a -> 'tool',
         'data', a -> 'data', 'errorType', a -> 'errorType', 'error', a -> 'error'))
$$;

-- OpenAI Chat Completions: one "tool" message a call, content a string
\set response `cat test/fixtures/openai_chat.json`
SELECT ai_tool_run(:'response') AS r \gset
SELECT jsonb_array_length(:'r') AS messages;
SELECT m ->> 'role' AS role, m ->> 'tool_call_id' AS tool_call_id,
       jsonb_typeof(m -> 'content') AS content_type,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(m) k) AS keys,
       answer((m ->> 'content')::jsonb) AS answer
FROM jsonb_array_elements(:'r') m;
-- an assistant message alone, and arguments that are an empty string
SELECT m ->> 'tool_call_id' AS tool_call_id, answer((m ->> 'content')::jsonb) -> 'success' AS success
FROM jsonb_array_elements(ai_tool_run('{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
  "function": {"name": "order_total", "arguments": "{\"order_id\": 3}"}}, {"id": "c2", "type": "function",
  "function": {"name": "list_tables", "arguments": ""}}]}')) m;
-- JSON that is not an object
SELECT (ai_tool_run('{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
  "function": {"name": "order_total", "arguments": "[3]"}}]}') -> 0 ->> 'content')::jsonb ->> 'error' AS not_object;

-- OpenAI Responses: one "function_call_output" item a call, in order; one
-- failing call does not stop the others, and the write is kept
\set response `cat test/fixtures/openai_responses.json`
SELECT ai_tool_run(:'response') AS r \gset
SELECT i ->> 'type' AS type, i ->> 'call_id' AS call_id,
       jsonb_typeof(i -> 'output') AS output_type,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(i) k) AS keys,
       answer((i ->> 'output')::jsonb) AS answer
FROM jsonb_array_elements(:'r') i;
SELECT id, status FROM tr.fx_orders ORDER BY id;
-- the output items alone
SELECT jsonb_array_length(ai_tool_run(:'response'::jsonb -> 'output')) AS items;

-- Anthropic Messages: one user message of tool_result blocks, is_error on failures
\set response `cat test/fixtures/anthropic.json`
SELECT ai_tool_run(:'response') AS r \gset
SELECT jsonb_array_length(:'r') AS messages, :'r'::jsonb -> 0 ->> 'role' AS role,
       jsonb_array_length(:'r'::jsonb -> 0 -> 'content') AS blocks;
SELECT b ->> 'type' AS type, b ->> 'tool_use_id' AS tool_use_id, b -> 'is_error' AS is_error,
       jsonb_typeof(b -> 'content') AS content_type,
       answer((b ->> 'content')::jsonb) AS answer
FROM jsonb_array_elements(:'r'::jsonb -> 0 -> 'content') b;
SELECT (ai_tool_run(:'response') -> 0 -> 'content' -> 1 ->> 'content')::jsonb ->> 'suggestion' AS did_you_mean;

-- Gemini: one user Content of functionResponse parts; response an object
\set response `cat test/fixtures/gemini.json`
SELECT ai_tool_run(:'response') AS r \gset
SELECT jsonb_array_length(:'r') AS messages, :'r'::jsonb -> 0 ->> 'role' AS role;
SELECT p -> 'functionResponse' ->> 'id' AS id, p -> 'functionResponse' ->> 'name' AS name,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(p -> 'functionResponse') k) AS keys,
       answer(p -> 'functionResponse' -> 'response') AS answer
FROM jsonb_array_elements(:'r'::jsonb -> 0 -> 'parts') p;
-- a Content alone
SELECT ai_tool_run('{"role": "model", "parts": [{"functionCall": {"name": "order_total", "args": {"order_id": 3}}}]}')
       -> 0 -> 'parts' -> 0 -> 'functionResponse' -> 'response' -> 'data' AS data;

-- no tool calls: nothing to append
SELECT ai_tool_run('{"choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello."}, "finish_reason": "stop"}]}') AS openai_chat,
       ai_tool_run('{"object": "response", "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Hi"}]}]}') AS openai_responses,
       ai_tool_run('{"type": "message", "role": "assistant", "content": [{"type": "text", "text": "Hi"}], "stop_reason": "end_turn"}') AS anthropic,
       ai_tool_run('{"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}}]}') AS gemini;

-- the dialect can be named; a response in no known dialect is refused
SELECT ai_tool_run('[{"type": "tool_use", "id": "t1", "name": "order_total", "input": {"order_id": 1}}]',
                   '{"dialect": "anthropic"}') -> 0 ->> 'role' AS role;
SELECT ai_tool_run('{"output": []}', '{"dialect": "gemini"}') AS forced_empty;
SELECT ai_tool_run('{"hello": "world"}');
SELECT ai_tool_run('[1, 2]');
SELECT ai_tool_run('"text"');
SELECT ai_tool_run('{}', '{"dialect": "cohere"}');
SELECT ai_tool_run('{}', '{"dialct": "gemini"}');
SELECT ai_tool_run(NULL);

-- at most neon_ai_tools.max_tool_calls calls run; the rest answer limit_exceeded
SET neon_ai_tools.max_tool_calls = 1;
SELECT answer((m ->> 'content')::jsonb) AS answer
FROM jsonb_array_elements(ai_tool_run('{"role": "assistant", "tool_calls": [
  {"id": "c1", "type": "function", "function": {"name": "order_total", "arguments": "{\"order_id\": 1}"}},
  {"id": "c2", "type": "function", "function": {"name": "mark_paid", "arguments": "{\"order_id\": 1}"}}]}')) m;
RESET neon_ai_tools.max_tool_calls;
SELECT name, setting, context FROM pg_settings WHERE name = 'neon_ai_tools.max_tool_calls';

-- each call is ai_tool_call's: read-only mode and enabled_tools apply
SET neon_ai_tools.read_only = on;
SELECT (ai_tool_run('{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
  "function": {"name": "mark_paid", "arguments": "{\"order_id\": 2}"}}]}') -> 0 ->> 'content')::jsonb ->> 'errorType' AS read_only;
RESET neon_ai_tools.read_only;
-- and every role may call it
SELECT has_function_privilege('public', 'ai_tool_run(jsonb, jsonb)', 'EXECUTE') AS public_may;

-- the README's agent loop (examples/agent_loop.sql) with a stand-in model:
-- a tool call on the first turn, then an answer built from the tool's result
CREATE FUNCTION call_model(messages jsonb, tools jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT CASE WHEN messages -> -1 ->> 'role' = 'tool' THEN
    jsonb_build_object('choices', jsonb_build_array(jsonb_build_object('index', 0, 'finish_reason', 'stop',
      'message', jsonb_build_object('role', 'assistant', 'content',
        'Order 3 totals ' || ((messages -> -1 ->> 'content')::jsonb -> 'data' -> 0 ->> 'total') || '.'))))
  ELSE
    jsonb_build_object('choices', jsonb_build_array(jsonb_build_object('index', 0, 'finish_reason', 'tool_calls',
      'message', jsonb_build_object('role', 'assistant', 'content', NULL, 'tool_calls', jsonb_build_array(
        jsonb_build_object('id', 'call_1', 'type', 'function', 'function', jsonb_build_object(
          'name', 'order_total', 'arguments', '{"order_id": 3}')))))))
  END
$$;
\set ECHO none
\i examples/agent_loop.sql
\set ECHO all
SELECT run_agent('What is the total of order 3?') AS answer;

SELECT count(*) AS dropped FROM (SELECT ai_tool_drop(name) FROM ai_tool_definitions) d;
DROP SCHEMA tr CASCADE;
