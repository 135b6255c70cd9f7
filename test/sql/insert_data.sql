-- insert_data: atomic multi-row inserts, coercion, conflicts, returning
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA ins_test;
SET search_path = ins_test, public;

CREATE FUNCTION call(tool text, args jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args) - 'executionTime' $$;

CREATE TABLE items (
  id serial PRIMARY KEY,
  sku text UNIQUE NOT NULL,
  qty int NOT NULL DEFAULT 0 CHECK (qty >= 0),
  price numeric(10,2),
  tags text[],
  meta jsonb,
  doc json,
  available boolean DEFAULT true,
  added date DEFAULT '2024-01-01',
  at timestamptz
);

-- one row as an object; generated id and defaults come back
SELECT jsonb_pretty(call('insert_data', '{"table": "items", "rows": {"sku": "A1", "qty": 3}}'));
-- strings are coerced to the column types; arrays and objects too
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "B2", "qty": "5", "price": "9.99", "tags": ["x", "y"], "meta": {"a": [1, 2]}, "doc": {"k": "v"}, "available": "false", "added": "2024-02-29", "at": "2024-01-02T03:04:05Z"}]}') -> 'data';
SELECT sku, qty, pg_typeof(qty) AS qty_type, price, tags, meta, doc, available, added FROM items WHERE sku = 'B2';
SELECT tags = '{x,y}' AS tags_is_array FROM items WHERE sku = 'B2';
-- JSON numbers and booleans work as they are; null is NULL
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "C3", "qty": 7, "price": 1.5, "available": true, "tags": null}, "returning": ["sku", "qty", "price", "tags"]}') -> 'data';

-- several rows in one statement; a key missing from a row takes the default
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "D4", "qty": 1}, {"sku": "E5"}], "returning": "sku, qty, available"}') - 'columns';

-- the last row is bad: nothing is inserted, and the answer names row, column and type
SELECT count(*) AS before FROM items;
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "F6", "qty": 1}, {"sku": "G7", "qty": 2}, {"sku": "H8", "qty": "many"}]}');
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "F6", "added": "2024-13-45"}]}') ->> 'error' AS error;
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "F6", "tags": "not an array"}]}') -> 'details' AS details;
SELECT count(*) AS after FROM items;

-- unknown columns get a did-you-mean, with the path of the row
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "F6"}, {"sku": "G7", "qyt": 1}]}');

-- a duplicate key: constraint_violation / unique_constraint, with the columns
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "Z9"}, {"sku": "A1", "qty": 1}]}') - 'details';
SELECT count(*) AS still FROM items WHERE sku = 'Z9';
-- skip: the others go in, skippedRows says how many did not
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "Z9"}, {"sku": "A1", "qty": 1}], "on_conflict": "skip", "returning": ["sku"]}') - 'columns';
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "Z9"}], "on_conflict": "skip", "conflict_columns": ["sku"]}') -> 'skippedRows' AS skipped;
-- skip counts the rows the statement inserted, as RETURNING returns them
-- (Citus reports the rows given): a trigger's own rows are in affectedRows
-- only, and with nothing returned the rows are still counted
CREATE TABLE item_log (sku text);
CREATE FUNCTION log_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO item_log VALUES (NEW.sku); RETURN NEW; END $$;
CREATE TRIGGER items_log AFTER INSERT ON items FOR EACH ROW EXECUTE FUNCTION log_item();
SELECT a -> 'affectedRows' AS affected, a -> 'statementAffectedRows' AS inserted, a -> 'skippedRows' AS skipped
FROM call('insert_data', '{"table": "items", "rows": [{"sku": "Z9"}, {"sku": "K1"}], "on_conflict": "skip", "returning": ["sku"]}') AS a;
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "K1"}, {"sku": "K2"}, {"sku": "K3"}], "on_conflict": "skip", "returning": []}') - 'executionTime';
SELECT ai_tool_plan('insert_data', '{"table": "items", "rows": [{"sku": "K1"}, {"sku": "K4"}], "on_conflict": "skip", "returning": []}') -> 'plan' ->> 'sql' AS counted;
SELECT sku FROM item_log ORDER BY sku;
DROP TRIGGER items_log ON items;
-- update: upsert on conflict_columns
SELECT call('insert_data', '{"table": "items", "rows": [{"sku": "A1", "qty": 42}, {"sku": "N1", "qty": 1}], "on_conflict": "update", "conflict_columns": ["sku"], "returning": ["sku", "qty"]}') -> 'data';
-- update on the primary key by default
SELECT call('insert_data', '{"table": "items", "rows": {"id": 1, "sku": "A1", "qty": 43}, "on_conflict": "update", "returning": "id, qty"}') -> 'data';
SELECT sku, qty FROM items WHERE sku IN ('A1', 'N1') ORDER BY sku;
-- conflict errors of the arguments
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "A1"}, "on_conflict": "merge"}') ->> 'suggestion' AS suggestion;
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "A1"}, "conflict_columns": ["sku"]}') ->> 'error' AS error;
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "A1"}, "on_conflict": "update", "conflict_columns": ["qty"]}') - 'executionTime';
CREATE TABLE nokey (a int, b int);
SELECT call('insert_data', '{"table": "nokey", "rows": {"a": 1}, "on_conflict": "update"}') ->> 'error' AS error;

-- other constraints, each with specific advice
SELECT call('insert_data', '{"table": "items", "rows": {"sku": null}}') - 'details';
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "Q", "qty": -1}}') ->> 'suggestion' AS suggestion;
CREATE TABLE parent (id int PRIMARY KEY);
CREATE TABLE child (id int PRIMARY KEY, parent_id int REFERENCES parent);
SELECT call('insert_data', '{"table": "child", "rows": {"id": 1, "parent_id": 99}}') - 'details';

-- returning: none, and defaults for a table of defaults only
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "R1"}, "returning": []}') - 'columns';
CREATE TABLE counters (id serial, n int DEFAULT 0);
SELECT call('insert_data', '{"table": "counters", "rows": {}}') -> 'data';
SELECT call('insert_data', '{"table": "counters", "rows": [{}, {}, {}]}') -> 'affectedRows' AS affected;

-- argument errors
SELECT call('insert_data', '{"table": "items", "rows": []}') ->> 'error' AS error;
SELECT call('insert_data', '{"table": "items", "rows": [1]}') -> 'details' AS details;
SELECT call('insert_data', '{"table": "items"}') ->> 'error' AS error;

-- the inserted values are bound, never pasted
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "x''); DROP TABLE items; --"}, "returning": ["sku"]}') -> 'data';
SELECT count(*) > 0 AS items_intact FROM items;

-- privileges and row-level security apply to writes
CREATE ROLE regress_ins_agent;
GRANT USAGE ON SCHEMA ins_test TO regress_ins_agent;
GRANT EXECUTE ON FUNCTION call(text, jsonb) TO regress_ins_agent;
CREATE TABLE notes (id int, owner text DEFAULT current_user, body text);
GRANT SELECT, INSERT ON notes TO regress_ins_agent;
ALTER TABLE notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON notes USING (owner = current_user) WITH CHECK (owner = current_user);
SET ROLE regress_ins_agent;
SELECT call('insert_data', '{"table": "notes", "rows": {"id": 1, "body": "mine"}, "returning": ["id", "owner"]}') -> 'data';
SELECT call('insert_data', '{"table": "notes", "rows": {"id": 2, "owner": "someone_else"}}') - 'details';
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "S"}}') ->> 'errorType' AS error_type;
RESET ROLE;
SELECT id, owner FROM notes ORDER BY id;
-- skip's count needs no privilege to read, and no policy for reading applies
CREATE TABLE drop_box (id int PRIMARY KEY, owner text DEFAULT current_user);
GRANT INSERT ON drop_box TO regress_ins_agent;
ALTER TABLE drop_box ENABLE ROW LEVEL SECURITY;
CREATE POLICY put ON drop_box FOR INSERT WITH CHECK (true);
CREATE POLICY see ON drop_box FOR SELECT USING (owner = 'nobody');
INSERT INTO drop_box VALUES (1, 'admin');
SET ROLE regress_ins_agent;
SELECT call('insert_data', '{"table": "drop_box", "rows": [{"id": 1}, {"id": 2}], "on_conflict": "skip"}');
RESET ROLE;
SELECT id, owner FROM drop_box ORDER BY id;

-- read-only mode hides and refuses the write tools
SET neon_ai_tools.read_only = on;
SELECT jsonb_path_query(ai_tool_list(), '$[*].name') AS name;
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "T"}}');
RESET neon_ai_tools.read_only;

-- a failed insert inside a transaction leaves it usable
BEGIN;
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "U1"}}') ->> 'status' AS status;
SELECT call('insert_data', '{"table": "items", "rows": {"sku": "U1"}}') ->> 'errorType' AS error_type;
SELECT count(*) AS u1 FROM items WHERE sku = 'U1';
COMMIT;

DROP SCHEMA ins_test CASCADE;
DROP ROLE regress_ins_agent;
