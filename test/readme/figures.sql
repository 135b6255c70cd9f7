-- The measurements behind the README's figures tables (test/readme/figures.mjs
-- makes the tables): run with psql -At -F '\t' on a database holding the
-- demo data (scripts/demo-data.sql), the extension, no custom tools and
-- the default settings.
--   catalog FORMAT COMPACT JSON: ai_tool_list(FORMAT, COMPACT)
--   answer FORMAT JSON: the first 100 orders by id in that answer format,
--                       without executionTime (it varies)
SELECT 'catalog', f, c, ai_tool_list(f, c)
FROM unnest(ARRAY['native', 'openai', 'openai_strict', 'anthropic', 'mcp', 'gemini'])
     WITH ORDINALITY AS x(f, n),
     unnest(ARRAY[false, true]) AS c
ORDER BY n, c;

-- a fixed key, so that the signature of "next" (and its token count) is the
-- same in every run; the statement is the README's key rotation
UPDATE ai_tool_secret SET secret = decode(repeat('ab', 32), 'hex');

SELECT 'answer', f, ai_tool_call('select_query',
           jsonb_build_object('table', 'orders', 'order_by', 'id', 'limit', 100, 'format', f))
       - 'executionTime'
FROM unnest(ARRAY['json', 'columnar', 'csv', 'markdown']) WITH ORDINALITY AS x(f, n)
ORDER BY n;
