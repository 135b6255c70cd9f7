-- the README's "Must be shown" table (issue 18): the same 100 rows of the
-- demo data (scripts/demo.sql's orders) in each answer format, in bytes of
-- the whole answer and approximate tokens (bytes / 4, rounded up: a rough
-- rule for English and JSON text, not a tokenizer's count)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA as_test;
SET search_path = as_test, public;
CREATE TABLE orders (
    id          integer PRIMARY KEY,
    customer_id integer NOT NULL ,
    amount      numeric(10,2) NOT NULL CHECK (amount > 0),
    status      text NOT NULL,
    ordered_at  timestamptz NOT NULL
);
COMMENT ON TABLE orders IS 'Orders placed by customers; status is new, paid, shipped or cancelled';

-- Deterministic values, so the demo prints the same every time.
INSERT INTO orders
SELECT g,
       (g * 7) % 20 + 1,
       round(5 + ((g * 7919) % 100000) / 100.0, 2),
       (ARRAY['new', 'paid', 'shipped', 'cancelled'])[g % 4 + 1],
       timestamptz '2024-01-01 00:00:00+00' + g * interval '97 minutes'
FROM generate_series(1, 1500) AS g;

CREATE TEMP TABLE sizes AS
SELECT f AS format, octet_length((ai_tool_call('select_query',
           jsonb_build_object('table', 'orders', 'order_by', 'id', 'limit', 100, 'format', f))
           - 'executionTime')::text) AS bytes
FROM unnest(ARRAY['json', 'columnar', 'csv', 'markdown']) WITH ORDINALITY AS x(f, n)
ORDER BY n;
SELECT format, bytes, ceil(bytes / 4.0)::int AS approx_tokens,
       round(100.0 * bytes / (SELECT bytes FROM sizes WHERE format = 'json')) || '%' AS of_json
FROM sizes;
-- columnar: at least 40% smaller than json
SELECT (SELECT bytes FROM sizes WHERE format = 'columnar') <=
       0.6 * (SELECT bytes FROM sizes WHERE format = 'json') AS columnar_40_percent_smaller;
-- and every format holds the same 100 rows
SELECT f AS format, (ai_tool_call('select_query',
           jsonb_build_object('table', 'orders', 'order_by', 'id', 'limit', 100, 'format', f)) -> 'rowCount') AS row_count
FROM unnest(ARRAY['json', 'columnar', 'csv', 'markdown']) AS f;

DROP SCHEMA as_test CASCADE;
