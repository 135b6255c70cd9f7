-- The database the fixtures (test/fixtures) are replayed in: the tables and
-- custom tools their calls name, as test/sql/tool_run.sql sets them up.
CREATE EXTENSION neon_ai_tools;
CREATE SCHEMA tr;
CREATE TABLE tr.fx_orders (id int PRIMARY KEY, customer text, total numeric, status text);
INSERT INTO tr.fx_orders VALUES (1, 'ann', 10, 'paid'), (2, 'bob', 20, 'new'), (3, 'cid', 30, 'paid');
SET search_path = tr, public;
SELECT ai_tool_define('order_total', 'The total of one order.',
  'SELECT total FROM tr.fx_orders WHERE id = $1', '[{"name": "order_id", "type": "int"}]') IS NOT NULL;
SELECT ai_tool_define('mark_paid', 'Mark an order paid.',
  'UPDATE tr.fx_orders SET status = ''paid'' WHERE id = $1 RETURNING id, status', '[{"name": "order_id", "type": "int"}]') IS NOT NULL;
