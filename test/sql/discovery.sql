-- list_tables and describe_table: learning a schema, only what the caller may use
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA disc_test;
SET search_path = disc_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

CREATE TABLE customers (
  id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text DEFAULT 'anonymous',
  shout text GENERATED ALWAYS AS (upper(name)) STORED
);
COMMENT ON TABLE customers IS 'People who buy things';
COMMENT ON COLUMN customers.email IS 'Login and contact address';
CREATE TABLE orders (
  id bigserial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES customers ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'open',
  qty int CHECK (qty > 0),
  total numeric(10,2),
  placed_at timestamptz DEFAULT now(),
  CONSTRAINT orders_status_check CHECK (status IN ('open', 'shipped', 'cancelled'))
);
CREATE INDEX orders_customer_idx ON orders (customer_id);
CREATE INDEX orders_open_idx ON orders (placed_at) WHERE status = 'open';
CREATE TABLE order_notes (
  order_id bigint REFERENCES orders (id),
  line int,
  note text,
  PRIMARY KEY (order_id, line)
);
CREATE TABLE "Audit Log" (id int);
CREATE VIEW open_orders AS SELECT id, customer_id, total FROM orders WHERE status = 'open';
COMMENT ON VIEW open_orders IS 'Orders not shipped yet';
CREATE MATERIALIZED VIEW order_totals AS SELECT customer_id, sum(total) AS total FROM orders GROUP BY customer_id;
CREATE TABLE events (id int, at date, PRIMARY KEY (id, at)) PARTITION BY RANGE (at);
CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE events_2025 PARTITION OF events FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
INSERT INTO events SELECT g, date '2024-06-01' + g FROM generate_series(1, 400) g;
-- a partitioned table referencing a partitioned table
CREATE TABLE event_tags (event_id int, at date, tag text,
  FOREIGN KEY (event_id, at) REFERENCES events ON DELETE SET NULL) PARTITION BY LIST (tag);
CREATE TABLE event_tags_a PARTITION OF event_tags FOR VALUES IN ('a');
CREATE TABLE secured (id int, owner text);
ALTER TABLE secured ENABLE ROW LEVEL SECURITY;

-- list_tables: the whole envelope; every kind; partitions left out
SELECT jsonb_pretty(call('list_tables', '{"schema": "disc_test"}'));

-- estimated_rows: null until analyzed, then the planner's estimate
INSERT INTO customers (email, name) SELECT 'c' || g || '@example.com', 'c' || g FROM generate_series(1, 25) g;
SELECT r->>'name' AS name, r->'estimated_rows' AS estimated_rows
FROM jsonb_array_elements(call('list_tables', '{"schema": "disc_test", "pattern": "customers"}') -> 'data') r;
ANALYZE customers;
SELECT r->>'name' AS name, r->'estimated_rows' AS estimated_rows
FROM jsonb_array_elements(call('list_tables', '{"schema": "disc_test", "pattern": "customers"}') -> 'data') r;

-- pattern: a LIKE pattern, case-insensitive
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_test", "pattern": "ORDER%"}'), '$.data[*].name') AS names;
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_test", "pattern": "%_log"}'), '$.data[*].name') AS names;
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_test", "pattern": "nothing%"}'), '$.data[*].name') AS names;
-- the schema filter: folded like a name, quoted kept as is; unknown schemas get a did-you-mean
SELECT call('list_tables', '{"schema": "DISC_TEST", "pattern": "events"}') -> 'rowCount' AS row_count;
SELECT call('list_tables', '{"schema": "\"DISC_TEST\""}');
SELECT call('list_tables', '{"schema": "disc_tset"}');
-- without a schema: every schema but the system's (this suite's tables are among them)
SELECT count(*) FILTER (WHERE r->>'schema' = 'disc_test') AS disc_test_rows,
       count(*) FILTER (WHERE r->>'schema' IN ('pg_catalog', 'information_schema')) AS system_rows
FROM jsonb_array_elements(call('list_tables', '{"limit": 10000}') -> 'data') r;
-- pg_catalog only when asked for
SELECT r->>'name' AS name, r->>'kind' AS kind
FROM jsonb_array_elements(call('list_tables', '{"schema": "pg_catalog", "pattern": "pg_class"}') -> 'data') r;

-- limit: truncation is reported; offset pages through the ordered list
SELECT r - 'columns' FROM call('list_tables', '{"schema": "disc_test", "limit": 3}') r;
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_test", "limit": 3, "offset": 3}'), '$.data[*].name') AS names;
SELECT r->'rowCount' AS row_count, r->'truncated' AS truncated
FROM call('list_tables', '{"schema": "disc_test", "limit": 9}') r;
SELECT r->'rowCount' AS row_count, r->'truncated' AS truncated
FROM call('list_tables', '{"schema": "disc_test", "limit": 8}') r;
SET neon_ai_tools.row_limit = 2;
SELECT r->'rowCount' AS row_count, r->'truncation' AS truncation
FROM call('list_tables', '{"schema": "disc_test"}') r;
RESET neon_ai_tools.row_limit;

-- describe_table: keys, defaults, identity, generated, comments, the owner's privileges
SELECT jsonb_pretty(call('describe_table', '{"table": "customers"}'));
SELECT jsonb_pretty(call('describe_table', '{"table": "disc_test.orders"}') -> 'data' -> 0);
-- a composite primary key and a foreign key to a bigint key
SELECT d->'primary_key' AS primary_key, d->'foreign_keys' AS foreign_keys
FROM (SELECT call('describe_table', '{"table": "order_notes"}') -> 'data' -> 0) s(d);
-- a view: its columns and its query, exactly as pg_get_viewdef() gives it
-- (whose layout differs between PostgreSQL versions); a materialized view
SELECT jsonb_pretty((call('describe_table', '{"table": "open_orders"}') -> 'data' -> 0) - 'definition');
SELECT d->>'definition' = pg_get_viewdef('disc_test.open_orders'::regclass) AS definition_is_the_view_query,
       d->>'definition' LIKE '%WHERE (%status = ''open''::text);' AS definition_has_the_condition
FROM (SELECT call('describe_table', '{"table": "open_orders"}') -> 'data' -> 0) s(d);
SELECT d->>'kind' AS kind, d->'columns' AS columns, d ? 'definition' AS has_definition
FROM (SELECT call('describe_table', '{"table": "order_totals"}') -> 'data' -> 0) s(d);
-- partitioned tables: estimated rows after ANALYZE; foreign keys between
-- partitioned tables appear once, on the parents and on the partitions
ANALYZE events;
SELECT d->>'kind' AS kind, d->'estimated_rows' AS estimated_rows, d->'primary_key' AS primary_key,
       d->'referenced_by' AS referenced_by
FROM (SELECT call('describe_table', '{"table": "events"}') -> 'data' -> 0) s(d);
SELECT t, call('describe_table', jsonb_build_object('table', t)) -> 'data' -> 0 -> 'foreign_keys' AS foreign_keys
FROM unnest(ARRAY['event_tags', 'event_tags_a']) t;
-- the partition is referenced through the constraint PostgreSQL cloned onto
-- it, whose name the server makes up (..._fkey2 up to 17, ..._fkey_2 from 18)
SELECT r - 'constraint' AS referenced_by,
       r ->> 'constraint' = (SELECT conname FROM pg_constraint
                             WHERE conrelid = 'disc_test.event_tags'::regclass
                               AND confrelid = 'disc_test.events_2025'::regclass) AS named_as_in_pg_constraint
FROM jsonb_array_elements(call('describe_table', '{"table": "events_2025"}') -> 'data' -> 0 -> 'referenced_by') r;
-- an odd name
SELECT call('describe_table', '{"table": "\"Audit Log\""}') -> 'data' -> 0 -> 'columns' AS columns;
-- rls flag
SELECT call('describe_table', '{"table": "secured"}') -> 'data' -> 0 -> 'rls' AS rls;
-- misspelt names get a did-you-mean; not a table
SELECT call('describe_table', '{"table": "ordr_notes"}');
SELECT call('describe_table', '{"table": "orders_pkey"}') ->> 'error' AS error;

-- privileges: a role sees only what it has a privilege on
CREATE ROLE regress_disc_agent;
CREATE ROLE regress_disc_nobody;
GRANT USAGE ON SCHEMA disc_test TO regress_disc_agent, regress_disc_nobody;
GRANT EXECUTE ON FUNCTION call(text, jsonb) TO regress_disc_agent, regress_disc_nobody;
GRANT SELECT ON orders, open_orders TO regress_disc_agent;
GRANT INSERT ON order_notes TO regress_disc_agent;
GRANT SELECT (id, name), UPDATE (name) ON customers TO regress_disc_agent;
SET ROLE regress_disc_agent;
-- tables without any privilege are not listed; column privileges are enough
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_test"}'), '$.data[*].name') AS names;
-- the caller's own privileges
SELECT call('describe_table', '{"table": "orders"}') -> 'data' -> 0 -> 'privileges' AS privileges;
SELECT call('describe_table', '{"table": "order_notes"}') -> 'data' -> 0 -> 'privileges' AS privileges;
-- column privileges: only granted columns, each with its own privileges;
-- the unique constraint and index over email stay hidden
SELECT jsonb_pretty(call('describe_table', '{"table": "customers"}') -> 'data' -> 0);
-- no privilege at all: permission_denied, nothing described
SELECT call('describe_table', '{"table": "events"}');
SELECT call('describe_table', '{"table": "secured"}') ->> 'errorType' AS error_type;
-- misspelt names only suggest tables the caller may use
SELECT call('describe_table', '{"table": "event"}') ->> 'suggestion' AS suggestion;
SET ROLE regress_disc_nobody;
SELECT call('list_tables', '{"schema": "disc_test"}') - 'columns';
SELECT call('describe_table', '{"table": "orders"}') ->> 'errorType' AS error_type;
RESET ROLE;

-- a schema without USAGE hides its tables, even with privileges on them
CREATE SCHEMA disc_hidden;
CREATE TABLE disc_hidden.stash (id int);
GRANT SELECT ON disc_hidden.stash TO regress_disc_agent;
SET ROLE regress_disc_agent;
SELECT call('list_tables', '{"schema": "disc_hidden"}') - 'columns';
SELECT count(*) AS hidden_rows
FROM jsonb_array_elements(call('list_tables', '{"limit": 10000}') -> 'data') r WHERE r->>'schema' = 'disc_hidden';
SELECT call('describe_table', '{"table": "disc_hidden.stash"}') ->> 'error' AS error;
RESET ROLE;

-- a hostile search_path cannot redirect the catalog queries
CREATE SCHEMA disc_evil;
CREATE FUNCTION disc_evil.always_true(oid, oid) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR disc_evil.= (LEFTARG = oid, RIGHTARG = oid, FUNCTION = disc_evil.always_true);
CREATE FUNCTION disc_evil.always_true(smallint, smallint) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR disc_evil.= (LEFTARG = smallint, RIGHTARG = smallint, FUNCTION = disc_evil.always_true);
SET search_path = disc_evil, pg_catalog, disc_test, public;
SELECT ai_tool_call('list_tables', '{"schema": "disc_test"}') -> 'rowCount' AS row_count;
SELECT ai_tool_call('describe_table', '{"table": "disc_test.order_notes"}') -> 'data' -> 0 -> 'primary_key' AS primary_key;
SET search_path = disc_test, public;

-- argument errors
SELECT call('list_tables', '{"shema": "disc_test"}');
SELECT call('list_tables', '{"schema": ["disc_test"]}') ->> 'error' AS error;
SELECT call('list_tables', '{"limit": 0}') ->> 'error' AS error;
SELECT call('describe_table', '{}') ->> 'error' AS error;
SELECT call('describe_table', '{"table": "orders", "columns": ["id"]}') ->> 'suggestion' AS suggestion;
SELECT call('describe_table', '{"table": 7}') ->> 'error' AS error;

-- read-only transactions and read-only mode allow both
BEGIN TRANSACTION READ ONLY;
SELECT call('list_tables', '{"schema": "disc_test", "limit": 1}') ->> 'status' AS status;
SELECT call('describe_table', '{"table": "orders"}') ->> 'status' AS status;
COMMIT;
SET neon_ai_tools.read_only = on;
SELECT call('list_tables', '{"schema": "disc_test", "limit": 1}') ->> 'status' AS status;
SELECT call('describe_table', '{"table": "orders"}') ->> 'status' AS status;
RESET neon_ai_tools.read_only;

-- objects that belong to extensions are left out unless asked: members of
-- an extension (pg_stat_statements's views) and whatever is in a schema an
-- extension owns (as Citus's columnar schema); a user's table beside them stays
CREATE SCHEMA disc_ext;
SET client_min_messages = warning;
CREATE EXTENSION pg_stat_statements SCHEMA disc_ext;
RESET client_min_messages;
CREATE TABLE disc_ext.mine (id int);
CREATE SCHEMA disc_ext_owned;
CREATE TABLE disc_ext_owned.internal (id int);
CREATE TABLE disc_ext_owned.stray (id int);
ALTER EXTENSION pg_stat_statements ADD SCHEMA disc_ext_owned;
ALTER EXTENSION pg_stat_statements ADD TABLE disc_ext_owned.internal;
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_ext"}'), '$.data[*].name') AS names;
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_ext", "include_extension_objects": false}'), '$.data[*].name') AS names;
SELECT '["mine", "pg_stat_statements", "pg_stat_statements_info"]' <@
       jsonb_path_query_array(call('list_tables', '{"schema": "disc_ext", "include_extension_objects": true}'), '$.data[*].name') AS all_listed;
SELECT call('list_tables', '{"schema": "disc_ext_owned"}') - 'columns';
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_ext_owned", "include_extension_objects": true}'), '$.data[*].name') AS names;
SELECT call('list_tables', '{"schema": "disc_ext_owned", "include_extension_objects": true}') ? 'warning' AS warned;
-- every schema: the same objects left out, and listed when asked
SELECT jsonb_path_query_array(call('list_tables', '{"limit": 10000}'),
       '$.data[*] ? (@.schema starts with "disc_ext").name') AS names;
SELECT jsonb_path_query_array(call('list_tables', '{"limit": 10000, "include_extension_objects": true, "pattern": "%in%"}'),
       '$.data[*] ? (@.schema starts with "disc_ext").name') AS names;
SELECT call('list_tables', '{"include_extension_objects": "yes"}') ->> 'error' AS error;
-- as the catalog says
SELECT t->'parameters'->'properties'->'include_extension_objects' AS parameter
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'list_tables';
SET client_min_messages = warning;
DROP EXTENSION pg_stat_statements CASCADE;
DROP SCHEMA disc_ext CASCADE;
RESET client_min_messages;

-- estimated_rows: null before ANALYZE, then the planner's estimate (0 for an
-- empty table), and null for a table whose rows Citus keeps in shards (its
-- local table is empty whatever it holds).  A table of the same name and
-- column stands in for Citus's catalog, pg_catalog.pg_dist_partition.
CREATE SCHEMA disc_est;
CREATE TABLE disc_est.est_empty (id int);
CREATE TABLE disc_est.est_dist (id int);
CREATE TABLE disc_est.est_full (id int);
INSERT INTO disc_est.est_full SELECT generate_series(1, 100);
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_est"}'), '$.data[*].estimated_rows') AS estimates;
ANALYZE disc_est.est_empty, disc_est.est_dist, disc_est.est_full;
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_est"}'), '$.data[*].estimated_rows') AS estimates;
SET allow_system_table_mods = on;
CREATE TABLE pg_catalog.pg_dist_partition (logicalrelid regclass NOT NULL);
RESET allow_system_table_mods;
GRANT SELECT ON pg_catalog.pg_dist_partition TO PUBLIC;
INSERT INTO pg_catalog.pg_dist_partition VALUES ('disc_est.est_dist');
SELECT r->>'name' AS name, r->'estimated_rows' AS estimated_rows,
       call('describe_table', jsonb_build_object('table', 'disc_est.' || (r->>'name'))) -> 'data' -> 0 -> 'estimated_rows' AS described
FROM jsonb_array_elements(call('list_tables', '{"schema": "disc_est"}') -> 'data') r;
DROP TABLE pg_catalog.pg_dist_partition;
SELECT jsonb_path_query_array(call('list_tables', '{"schema": "disc_est"}'), '$.data[*].estimated_rows') AS estimates;
SELECT call('describe_table', '{"table": "disc_est.est_dist"}') -> 'data' -> 0 -> 'estimated_rows' AS described;
-- a partitioned table: autovacuum analyzes its partitions, never the
-- table itself, so its estimate is the sum of its analyzed leaf
-- partitions' (sub-partitions included), null while none is analyzed
CREATE TABLE disc_est.est_parted (id int, region text) PARTITION BY LIST (region);
CREATE TABLE disc_est.est_parted_eu PARTITION OF disc_est.est_parted FOR VALUES IN ('eu')
  WITH (autovacuum_enabled = off);
CREATE TABLE disc_est.est_parted_us PARTITION OF disc_est.est_parted FOR VALUES IN ('us')
  PARTITION BY RANGE (id);
CREATE TABLE disc_est.est_parted_us_low PARTITION OF disc_est.est_parted_us FOR VALUES FROM (0) TO (1000)
  WITH (autovacuum_enabled = off);
CREATE TABLE disc_est.est_parted_us_high PARTITION OF disc_est.est_parted_us FOR VALUES FROM (1000) TO (MAXVALUE)
  WITH (autovacuum_enabled = off);
INSERT INTO disc_est.est_parted SELECT g, 'eu' FROM generate_series(1, 30) g;
INSERT INTO disc_est.est_parted SELECT g, 'us' FROM generate_series(990, 1010) g;
SELECT call('list_tables', '{"schema": "disc_est", "pattern": "est_parted"}') -> 'data' -> 0 -> 'estimated_rows' AS listed;
ANALYZE disc_est.est_parted_eu;
SELECT call('list_tables', '{"schema": "disc_est", "pattern": "est_parted"}') -> 'data' -> 0 -> 'estimated_rows' AS listed;
ANALYZE disc_est.est_parted_us_low, disc_est.est_parted_us_high;
SELECT call('list_tables', '{"schema": "disc_est", "pattern": "est_parted"}') -> 'data' -> 0 -> 'estimated_rows' AS listed,
       call('describe_table', '{"table": "disc_est.est_parted"}') -> 'data' -> 0 -> 'estimated_rows' AS described;
SET client_min_messages = warning;
DROP SCHEMA disc_est CASCADE;
RESET client_min_messages;

-- the catalog: honest annotations, an example in each description
SELECT t->>'name' AS name, t->'annotations' AS annotations,
       length(t->>'description') > 200 AS long_enough, (t->>'description') LIKE '%Example: {%' AS has_example,
       t->'parameters'->'required' AS required,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(t->'parameters'->'properties') k) AS properties
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' IN ('list_tables', 'describe_table');

SET client_min_messages = warning;
DROP SCHEMA disc_evil CASCADE;
DROP SCHEMA disc_hidden CASCADE;
DROP SCHEMA disc_test CASCADE;
RESET client_min_messages;
DROP ROLE regress_disc_agent;
DROP ROLE regress_disc_nobody;
