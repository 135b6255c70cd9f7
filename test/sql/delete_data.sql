-- delete_data: delete rows (structured and string where, returning, caps,
-- dry runs), truncate and drop (confirm, no cascade, dependants reported),
-- read-only mode, privileges, row-level security, atomicity
-- (quietly: earlier suites may have created it already)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA del_test;
SET search_path = del_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

-- the catalog entry: parameters, the mode enum, honest annotations
SELECT t->'annotations' AS annotations,
       t->'parameters'->'required' AS required,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(t->'parameters'->'properties') k) AS properties
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'delete_data';
SELECT jsonb_pretty(t->'parameters'->'properties'->'mode') AS mode_schema
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'delete_data';
SELECT t->'parameters'->'properties'->'confirm'->'type' AS confirm_type,
       t->'parameters'->'properties'->'max_affected'->'maximum' AS max_affected_maximum,
       (t->>'description') LIKE '%Example: {%' AS has_example
FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'delete_data';
SELECT t->'annotations'->'destructiveHint' AS destructive
FROM jsonb_array_elements(ai_tool_list('mcp')) t WHERE t->>'name' = 'delete_data';

CREATE TABLE items (id int PRIMARY KEY, category text, qty int);
INSERT INTO items SELECT g, CASE WHEN g <= 10 THEN 'b' ELSE 'a' END, g FROM generate_series(1, 60) g;

-- structured where; every column comes back by default
SELECT call('delete_data', '{"table": "items", "where": {"id": 1}}');
-- string where; returning a subset, as a list or a string
SELECT call('delete_data', '{"table": "items", "where": "id = 2 OR id = 3", "returning": ["id"]}');
SELECT call('delete_data', '{"table": "items", "where": {"id": {"in": [4, 5]}}, "returning": "id, qty"}') -> 'data' AS data;
-- returning [] : no rows back, the count still
SELECT call('delete_data', '{"table": "items", "where": {"id": 6}, "returning": []}');
-- no match is success with affectedRows 0
SELECT call('delete_data', '{"table": "items", "where": {"id": 1000}}');
-- through a view: an updatable one passes the delete on, a grouped one
-- cannot and says why
CREATE VIEW b_items AS SELECT id, qty FROM items WHERE category = 'b';
SELECT call('delete_data', '{"table": "b_items", "where": {"id": 7}}') -> 'data' AS data;
CREATE VIEW item_totals AS SELECT category, sum(qty) AS total FROM items GROUP BY category;
SELECT call('delete_data', '{"table": "item_totals", "where": {"category": "a"}}');
SELECT count(*) AS items_left FROM items;

-- no where, or an empty one, without confirm_all_rows: refused, nothing changed
SELECT call('delete_data', '{"table": "items"}');
SELECT call('delete_data', '{"table": "items", "where": {}}') ->> 'errorType' AS error_type;
SELECT call('delete_data', '{"table": "items", "confirm_all_rows": false}') ->> 'errorType' AS error_type;
SELECT count(*) AS items_left FROM items;

-- 50 rows match, max_affected 10: limit_exceeded, nothing changed
SELECT call('delete_data', '{"table": "items", "where": {"category": "a"}, "max_affected": 10}');
SELECT count(*) AS items_left FROM items;
-- the server's limit caps it too, and max_affected cannot raise it
SET neon_ai_tools.max_affected_rows = 20;
SELECT call('delete_data', '{"table": "items", "where": "category = ''a''"}') ->> 'error' AS error;
SELECT call('delete_data', '{"table": "items", "where": {"category": "a"}, "max_affected": 50}') ->> 'error' AS error;
RESET neon_ai_tools.max_affected_rows;
SELECT count(*) AS items_left FROM items;

-- dry run: the rows and the count, and nothing is kept
SELECT call('delete_data', '{"table": "items", "where": {"qty": {"gt": 55}}, "dry_run": true, "returning": ["id"]}');
SELECT count(*) AS items_left FROM items;
-- a dry run is still refused without a where
SELECT call('delete_data', '{"table": "items", "dry_run": true}') ->> 'errorType' AS error_type;

-- confirm_all_rows: every row goes, with a data-loss warning
CREATE TABLE scratch (n int);
INSERT INTO scratch VALUES (1), (2), (3);
SELECT call('delete_data', '{"table": "scratch", "confirm_all_rows": true, "returning": []}');
SELECT count(*) AS scratch_left FROM scratch;

-- bad arguments
SELECT call('delete_data', '{"table": "items", "where": {"idd": 1}}') - 'details';
SELECT call('delete_data', '{"table": "items", "where": "id = (SELECT 1)"}') ->> 'errorType' AS error_type;
SELECT call('delete_data', '{"table": "items", "where": {"id": 1}, "returning": ["nope"]}') ->> 'error' AS error;
SELECT call('delete_data', '{"table": "items", "mode": "truncat"}') - 'details';
SELECT call('delete_data', '{"table": "items", "where": {"id": 1}, "confirm_allrows": true}') ->> 'suggestion' AS suggestion;
SELECT call('delete_data', '{"table": "itemz", "where": {"id": 1}}') ->> 'suggestion' AS suggestion;
SELECT call('delete_data', '{"table": "items", "where": {"id": 1}, "max_affected": -1}') ->> 'error' AS error;

-- a referenced row: constraint_violation, the referencing table named
CREATE TABLE parents (id int PRIMARY KEY, name text);
CREATE TABLE children (id int PRIMARY KEY, parent_id int REFERENCES parents);
INSERT INTO parents VALUES (1, 'one'), (2, 'two'), (3, 'three');
INSERT INTO children VALUES (10, 1), (11, 1);
SELECT call('delete_data', '{"table": "parents", "where": {"id": 1}}');
-- an unreferenced one goes
SELECT call('delete_data', '{"table": "parents", "where": {"id": 3}, "returning": ["name"]}') -> 'data' AS data;

-- truncate: refused without confirm, and with arguments it cannot honour
SELECT call('delete_data', '{"table": "items", "mode": "truncate"}');
SELECT call('delete_data', '{"table": "items", "mode": "truncate", "confirm": false}') ->> 'errorType' AS error_type;
SELECT call('delete_data', '{"table": "items", "mode": "truncate", "confirm": true, "where": {"id": 1}}') - 'details';
SELECT call('delete_data', '{"table": "items", "mode": "truncate", "confirm": true, "returning": ["id"]}') ->> 'error' AS error;
SELECT call('delete_data', '{"table": "items", "mode": "truncate", "confirm": true, "max_affected": 5}') ->> 'error' AS error;
SELECT call('delete_data', '{"table": "items", "mode": "truncate", "confirm_all_rows": true}') ->> 'suggestion' AS suggestion;
SELECT count(*) AS items_left FROM items;
-- a dry run reports the rows it would remove and keeps them
SELECT call('delete_data', '{"table": "items", "mode": "truncate", "confirm": true, "dry_run": true}');
SELECT count(*) AS items_left FROM items;
-- truncate for real
SELECT call('delete_data', '{"table": "items", "mode": "truncate", "confirm": true}');
SELECT count(*) AS items_left FROM items;
-- a table referenced by a foreign key: dependent_objects, before anything runs
SELECT call('delete_data', '{"table": "parents", "mode": "truncate", "confirm": true}');
-- even when the referencing table is empty (PostgreSQL's rule)
CREATE TABLE empty_refs (parent_id int REFERENCES parents);
SELECT call('delete_data', '{"table": "parents", "mode": "truncate", "confirm": true}') -> 'dependencies' AS dependencies;
SELECT count(*) AS parents_left FROM parents;
-- a self reference does not block
CREATE TABLE tree (id int PRIMARY KEY, up int REFERENCES tree);
INSERT INTO tree VALUES (1, NULL), (2, 1);
SELECT call('delete_data', '{"table": "tree", "mode": "truncate", "confirm": true}') -> 'affectedRows' AS affected;
-- views cannot be truncated
CREATE VIEW parent_names AS SELECT id, name FROM parents;
SELECT call('delete_data', '{"table": "parent_names", "mode": "truncate", "confirm": true}') - 'details';
-- a partitioned table: rows of every partition counted and removed
CREATE TABLE measures (id int, at date) PARTITION BY RANGE (at);
CREATE TABLE measures_2023 PARTITION OF measures FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
CREATE TABLE measures_2024 PARTITION OF measures FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
INSERT INTO measures VALUES (1, '2023-05-01'), (2, '2024-05-01'), (3, '2024-06-01');
SELECT call('delete_data', '{"table": "measures", "mode": "truncate", "confirm": true}') -> 'affectedRows' AS affected;
SELECT count(*) AS measures_left FROM measures;
-- a partitioned table referenced by a foreign key, and one partition of it
CREATE TABLE regions (id int PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE regions_low PARTITION OF regions FOR VALUES FROM (0) TO (100);
CREATE TABLE regions_high PARTITION OF regions FOR VALUES FROM (100) TO (200);
CREATE TABLE shops (id int, region_id int REFERENCES regions) PARTITION BY RANGE (id);
CREATE TABLE shops_1 PARTITION OF shops FOR VALUES FROM (0) TO (100);
SELECT call('delete_data', '{"table": "regions", "mode": "truncate", "confirm": true}') -> 'dependencies' AS dependencies;
SELECT call('delete_data', '{"table": "regions_low", "mode": "truncate", "confirm": true}') -> 'dependencies' AS dependencies;

-- drop: refused without confirm
SELECT call('delete_data', '{"table": "scratch", "mode": "drop"}');
SELECT call('delete_data', '{"table": "scratch", "mode": "drop", "confirm": true, "where": "n = 1"}') ->> 'errorType' AS error_type;
SELECT to_regclass('scratch') IS NOT NULL AS scratch_exists;
-- a table referenced by a foreign key and used by a view: the dependants
-- are named, and the table stays
SELECT call('delete_data', '{"table": "parents", "mode": "drop", "confirm": true}');
SELECT to_regclass('parents') IS NOT NULL AS parents_exists, (SELECT count(*) FROM parents) AS parents_rows;
-- a dry run reports the same
SELECT call('delete_data', '{"table": "parents", "mode": "drop", "confirm": true, "dry_run": true}') ->> 'errorType' AS error_type;
-- a view with a view on it
CREATE VIEW first_parent AS SELECT * FROM parent_names WHERE id = 1;
SELECT call('delete_data', '{"table": "parent_names", "mode": "drop", "confirm": true}') - 'details';
-- an inheritance parent: its child blocks the drop
CREATE TABLE animals (name text);
CREATE TABLE dogs (good boolean) INHERITS (animals);
SELECT call('delete_data', '{"table": "animals", "mode": "drop", "confirm": true}') -> 'suggested_actions' AS actions;
-- anything else PostgreSQL refuses (a function of the row type) is
-- dependent_objects too, with its own detail
CREATE TABLE points (x int, y int);
CREATE FUNCTION norm(p points) RETURNS int LANGUAGE sql AS 'SELECT abs(p.x) + abs(p.y)';
SELECT call('delete_data', '{"table": "points", "mode": "drop", "confirm": true}');
SELECT to_regclass('points') IS NOT NULL AS points_exists;
-- dry run: the count, and the table is still there
SELECT call('delete_data', '{"table": "scratch", "mode": "drop", "confirm": true, "dry_run": true}');
INSERT INTO scratch VALUES (7), (8);
SELECT call('delete_data', '{"table": "scratch", "mode": "drop", "confirm": true, "dry_run": true}') -> 'affectedRows' AS affected;
SELECT to_regclass('scratch') IS NOT NULL AS scratch_exists, (SELECT count(*) FROM scratch) AS scratch_rows;
-- drop for real: a table, a view, a materialized view, a partitioned table
SELECT call('delete_data', '{"table": "scratch", "mode": "drop", "confirm": true}');
SELECT to_regclass('scratch') AS scratch;
SELECT call('delete_data', '{"table": "first_parent", "mode": "drop", "confirm": true}');
CREATE MATERIALIZED VIEW parent_counts AS SELECT id, name FROM parents;
SELECT call('delete_data', '{"table": "parent_counts", "where": {"id": 1}}') - 'details';
SELECT call('delete_data', '{"table": "parent_counts", "mode": "drop", "confirm": true}') ->> 'affectedRows' AS affected;
INSERT INTO measures VALUES (4, '2023-07-01'), (5, '2024-07-01');
SELECT call('delete_data', '{"table": "measures", "mode": "drop", "confirm": true}') ->> 'affectedRows' AS affected;
SELECT to_regclass('first_parent') AS first_parent, to_regclass('parent_counts') AS parent_counts,
       to_regclass('measures_2023') AS measures_2023;
-- once the foreign keys and the views are gone, parents can go too
SELECT call('delete_data', '{"table": "parent_names", "mode": "drop", "confirm": true}') ->> 'status' AS status;
DROP TABLE children, empty_refs;
SELECT call('delete_data', '{"table": "parents", "mode": "drop", "confirm": true}') ->> 'affectedRows' AS affected;
-- system catalogs are refused, even for a superuser
SELECT call('delete_data', '{"table": "pg_catalog.pg_am", "mode": "truncate", "confirm": true}') ->> 'error' AS error;
SELECT call('delete_data', '{"table": "pg_catalog.pg_am", "where": {"amname": "hash"}}') ->> 'error' AS error;

-- read-only mode: the tool is hidden and refused
SET neon_ai_tools.read_only = on;
SELECT count(*) AS delete_data_listed FROM jsonb_array_elements(ai_tool_list()) t WHERE t->>'name' = 'delete_data';
SELECT call('delete_data', '{"table": "items", "where": {"id": 7}}');
RESET neon_ai_tools.read_only;
-- an outer read-only transaction: nothing written, nothing locked
INSERT INTO items VALUES (1, 'a', 1), (2, 'a', 2);
BEGIN READ ONLY;
SELECT call('delete_data', '{"table": "items", "where": {"id": 1}}') ->> 'errorType' AS error_type;
SELECT call('delete_data', '{"table": "items", "mode": "truncate", "confirm": true}') ->> 'error' AS error;
SELECT call('delete_data', '{"table": "items", "mode": "drop", "confirm": true}') ->> 'error' AS error;
COMMIT;
SELECT count(*) AS items_left FROM items;

-- privileges
CREATE ROLE regress_del_alice;
CREATE ROLE regress_del_bob;
GRANT USAGE ON SCHEMA del_test TO regress_del_alice, regress_del_bob;
GRANT EXECUTE ON FUNCTION call(text, jsonb) TO regress_del_alice, regress_del_bob;
GRANT SELECT ON items TO regress_del_bob;
SET ROLE regress_del_bob;
-- no DELETE privilege: permission_denied, naming the table
SELECT call('delete_data', '{"table": "items", "where": {"id": 1}}');
-- no TRUNCATE privilege, not the owner: refused before any lock is taken
SELECT call('delete_data', '{"table": "items", "mode": "truncate", "confirm": true}') - 'details';
SELECT call('delete_data', '{"table": "items", "mode": "drop", "confirm": true}') - 'details';
RESET ROLE;
-- TRUNCATE without SELECT: it works, but the count is not revealed
CREATE TABLE secrets (s text);
INSERT INTO secrets VALUES ('a'), ('b');
GRANT TRUNCATE ON secrets TO regress_del_bob;
SET ROLE regress_del_bob;
SELECT call('delete_data', '{"table": "secrets", "mode": "truncate", "confirm": true}');
RESET ROLE;
SELECT count(*) AS secrets_left FROM secrets;
-- DELETE without SELECT: a filter reads columns, so it needs SELECT; without
-- a filter the delete works and, by default, returns no columns
GRANT DELETE ON secrets TO regress_del_bob;
INSERT INTO secrets VALUES ('c');
SET ROLE regress_del_bob;
SELECT call('delete_data', '{"table": "secrets", "where": {"s": "c"}}') ->> 'errorType' AS error_type;
SELECT call('delete_data', '{"table": "secrets", "confirm_all_rows": true, "returning": ["s"]}') ->> 'errorType' AS error_type;
SELECT r->'affectedRows' AS affected, r->'data' AS data, r ? 'columns' AS has_columns
FROM call('delete_data', '{"table": "secrets", "confirm_all_rows": true}') r;
RESET ROLE;

-- row-level security: a delete only reaches the rows the policy shows
CREATE TABLE notes (id int PRIMARY KEY, owner text, body text);
INSERT INTO notes VALUES (1, 'regress_del_alice', 'a1'), (2, 'regress_del_bob', 'b1'),
                         (3, 'regress_del_alice', 'a2'), (4, 'regress_del_bob', 'b2');
GRANT SELECT, DELETE, TRUNCATE ON notes TO regress_del_alice;
ALTER TABLE notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_notes ON notes USING (owner = current_user);
SET ROLE regress_del_alice;
SELECT call('delete_data', '{"table": "notes", "where": {"id": 2}}') -> 'affectedRows' AS affected;
SELECT call('delete_data', '{"table": "notes", "confirm_all_rows": true, "returning": ["id"]}') - 'warning';
-- TRUNCATE ignores row-level security (PostgreSQL's rule): it runs, and
-- the count, which would cover rows alice cannot see, is not given
SELECT call('delete_data', '{"table": "notes", "mode": "truncate", "confirm": true, "dry_run": true}') ->> 'warning' AS warning;
RESET ROLE;
SELECT id, owner FROM notes ORDER BY id;

-- atomicity: failed calls inside a transaction leave it usable, and leave
-- nothing; the successful ones count
INSERT INTO items SELECT g, 'c', g FROM generate_series(100, 129) g;
BEGIN;
INSERT INTO items VALUES (500, 'd', 0);
SELECT call('delete_data', '{"table": "items", "where": {"category": "c"}, "max_affected": 5}') ->> 'errorType' AS error_type;
SELECT call('delete_data', '{"table": "items", "where": {"nope": 1}}') ->> 'errorType' AS error_type;
SELECT call('delete_data', '{"table": "tree", "mode": "truncate", "confirm": true, "where": {"id": 1}}') ->> 'errorType' AS error_type;
SELECT call('delete_data', '{"table": "items", "where": {"id": 500}}') -> 'affectedRows' AS affected;
SELECT count(*) FILTER (WHERE category = 'c') AS c_rows, count(*) FILTER (WHERE id = 500) AS row_500 FROM items;
COMMIT;
-- and a successful call is undone with the transaction around it
BEGIN;
SELECT call('delete_data', '{"table": "items", "mode": "truncate", "confirm": true}') -> 'affectedRows' AS affected;
ROLLBACK;
SELECT count(*) AS items_left FROM items;

-- a hostile search_path cannot redirect the generated DELETE
CREATE SCHEMA evil;
CREATE FUNCTION evil.always_true(int, int) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR evil.= (LEFTARG = int, RIGHTARG = int, FUNCTION = evil.always_true);
SET search_path = evil, pg_catalog, del_test, public;
SELECT ai_tool_call('delete_data', '{"table": "del_test.items", "where": {"id": 100}, "returning": ["id"]}') -> 'data' AS data;
SELECT ai_tool_call('delete_data', '{"table": "del_test.items", "where": "id = 101", "returning": ["id"]}') -> 'data' AS data;
SET search_path = del_test, public;
SELECT count(*) AS items_left FROM items;

SET client_min_messages = warning;
DROP SCHEMA evil CASCADE;
DROP SCHEMA del_test CASCADE;
RESET client_min_messages;
DROP ROLE regress_del_alice;
DROP ROLE regress_del_bob;
