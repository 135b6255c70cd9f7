-- An agent loop inside the database (README, "Running a model's tool calls").
--
-- run_agent(question) asks the model, runs the tool calls it makes with
-- ai_tool_run(), sends the results back, and stops when the model answers
-- without tool calls.  Everything runs as the role that calls run_agent():
-- the tools see what that role may see, under its neon_ai_tools settings.
--
-- The model call itself is yours: call_model(messages, tools) must return
-- the provider's response as it came.  Two ways to write it are below; the
-- loop works with any of them (ai_tool_run() reads the response's dialect).

-- With pgai (https://github.com/timescale/pgai), OpenAI Chat Completions:
--
--   CREATE FUNCTION call_model(messages jsonb, tools jsonb) RETURNS jsonb
--   LANGUAGE sql AS $$
--     SELECT ai.openai_chat_complete('gpt-4.1-mini', messages, tools => tools)
--   $$;
--
-- With the http extension (https://github.com/pramsey/pgsql-http), the key
-- in a setting the role may read:
--
--   CREATE FUNCTION call_model(messages jsonb, tools jsonb) RETURNS jsonb
--   LANGUAGE sql AS $$
--     SELECT content::jsonb FROM http((
--       'POST', 'https://api.openai.com/v1/chat/completions',
--       ARRAY[http_header('Authorization', 'Bearer ' || current_setting('app.openai_key'))],
--       'application/json',
--       jsonb_build_object('model', 'gpt-4.1-mini', 'messages', messages, 'tools', tools)::text
--     )::http_request)
--   $$;

CREATE OR REPLACE FUNCTION run_agent(question text, max_turns int DEFAULT 8)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    -- the tools the caller may use, in the provider's format
    tools      jsonb := ai_tool_list('openai');
    messages   jsonb := jsonb_build_array(
        jsonb_build_object('role', 'system', 'content',
            'Answer questions about the database with the tools. Prefer the named tools to execute_sql.'),
        jsonb_build_object('role', 'user', 'content', question));
    completion jsonb;
    message    jsonb;
    results    jsonb;
BEGIN
    FOR turn IN 1 .. max_turns LOOP
        completion := call_model(messages, tools);
        message := completion -> 'choices' -> 0 -> 'message';
        messages := messages || jsonb_build_array(message);

        -- run the calls, in order; each is one ai_tool_call() (its own
        -- subtransaction: one that fails changes nothing, the others run)
        results := ai_tool_run(completion);
        IF jsonb_array_length(results) = 0 THEN
            RETURN message ->> 'content';   -- no tool calls: the answer
        END IF;
        -- one {"role": "tool", "tool_call_id", "content"} message a call
        messages := messages || results;
    END LOOP;
    RAISE EXCEPTION 'the model gave no answer in % turns', max_turns;
END
$$;

-- Anthropic Messages: append the model's turn and the one user message of
-- tool_result blocks that ai_tool_run() returns:
--
--     messages := messages
--         || jsonb_build_array(jsonb_build_object('role', 'assistant', 'content', response -> 'content'))
--         || ai_tool_run(response);
--     -- done when response ->> 'stop_reason' <> 'tool_use'
--
-- Gemini: append response -> 'candidates' -> 0 -> 'content', then
-- ai_tool_run(response) (one user Content of functionResponse parts).
-- OpenAI Responses: append response -> 'output', then ai_tool_run(response)
-- (function_call_output items).
