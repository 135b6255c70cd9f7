-- neon_ai_tools demo: run by scripts/demo.sh with psql -v ON_ERROR_STOP=1
-- against a scratch database.  Every answer is one jsonb object; errors come
-- back as objects too, so nothing here raises.
\set QUIET on
-- Bare values, no table borders: the JSON prints as it is.
\pset format unaligned
\pset tuples_only on
SET client_min_messages = warning;

\echo
\echo '=== CREATE EXTENSION neon_ai_tools'
CREATE EXTENSION neon_ai_tools;

\echo '=== Sample data: customers (20 rows), orders (1500 rows, FK to customers), slow_view'
\ir demo-data.sql

\echo
\echo '=== 1. Which tools exist?  name and title of each entry of ai_tool_list()'
SELECT format('%-16s %s', t->>'name', t->>'title')
FROM jsonb_array_elements(ai_tool_list()) AS t;

\echo
\echo '=== 2. One tool as an OpenAI function definition: ai_tool_list(''openai'')'
SELECT jsonb_pretty(t)
FROM jsonb_array_elements(ai_tool_list('openai')) AS t
WHERE t->'function'->>'name' = 'select_query';

\echo
\echo '=== 3. select_query with a structured where: German customers'
SELECT jsonb_pretty(ai_tool_call('select_query',
    '{"table": "customers", "where": {"country": "DE"}, "limit": 5}'));

\echo
\echo '=== 4. select_query with a SQL condition string (literals become bound parameters)'
SELECT jsonb_pretty(ai_tool_call('select_query',
    '{"table": "orders", "columns": ["id", "customer_id", "amount", "status"],
      "where": "amount > 500 AND status = ''paid''", "limit": 3}'));

\echo
\echo '=== 5. order_by and limit: the three biggest orders'
SELECT jsonb_pretty(ai_tool_call('select_query',
    '{"table": "orders", "columns": "id, amount, ordered_at",
      "order_by": [{"column": "amount", "direction": "desc"}, {"column": "id"}],
      "limit": 3}'));

\echo
\echo '=== 6. No limit on 1500 rows: capped at 1000 and marked truncated (data omitted here)'
SELECT jsonb_pretty(ai_tool_call('select_query', '{"table": "orders"}') - 'data');

\echo
\echo '=== 7. A misspelt table: a categorized error with a did-you-mean suggestion'
SELECT jsonb_pretty(ai_tool_call('select_query', '{"table": "custmers"}'));

\echo
\echo '=== 8. A hostile where string is refused before anything runs'
SELECT jsonb_pretty(ai_tool_call('select_query',
    '{"table": "customers", "where": "1=1; drop table customers"}'));
SELECT format('customers still there: %s rows', count(*)) FROM customers;

\echo
\echo '=== 9. A per-call timeout: slow_view sleeps 5 s, timeout_ms is 200'
SELECT jsonb_pretty(ai_tool_call('select_query',
    '{"table": "slow_view", "timeout_ms": 200}'));

\echo
\echo '=== 10. insert_data: two rows in one atomic statement; strings coerced to column types'
SELECT jsonb_pretty(ai_tool_call('insert_data',
    '{"table": "customers",
      "rows": [{"id": 21, "name": "Kathleen Booth", "email": "kathleen@example.com", "country": "GB", "created_at": "2024-01-10"},
               {"id": "22", "name": "Dennis Ritchie", "email": "dennis@example.com", "country": "US", "created_at": "2024-01-11"}],
      "returning": ["id", "name", "country"]}'));

\echo
\echo '=== 11. insert_data with a duplicate email: a unique_constraint error with advice'
SELECT jsonb_pretty(ai_tool_call('insert_data',
    '{"table": "customers",
      "rows": {"id": 23, "name": "Ada again", "email": "ada@example.com", "country": "GB", "created_at": "2024-02-01"}}')
    - 'details');

\echo
\echo '=== 12. update_data as a dry run: what would change, nothing kept'
SELECT jsonb_pretty(ai_tool_call('update_data',
    '{"table": "orders", "set": {"status": "cancelled"},
      "where": {"status": "new", "amount": {"lt": 50}}, "dry_run": true,
      "returning": ["id", "status", "amount"]}') - 'columns');
SELECT format('after the dry run, new orders under 50 are still new: %s rows', count(*))
FROM orders WHERE status = 'new' AND amount < 50;

\echo
\echo '=== 13. delete_data without a where filter: refused, nothing deleted'
SELECT jsonb_pretty(ai_tool_call('delete_data', '{"table": "orders"}'));

\echo
\echo '=== 14. drop of a table other tables reference: refused, dependants listed'
SELECT jsonb_pretty(ai_tool_call('delete_data',
    '{"table": "customers", "mode": "drop", "confirm": true}'));
SELECT format('orders still there: %s rows', count(*)) FROM orders;
