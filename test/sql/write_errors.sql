-- write failures name the fix: NOT NULL, foreign keys, CHECK, unique keys,
-- values past a column's limit and missing privileges, through insert_data,
-- update_data, delete_data and execute_sql; never a name the role cannot see
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA werr;
SET search_path = werr, public;

-- the answer's advice: error_type, suggestion, suggested_actions, the names
CREATE FUNCTION fix(tool text, args jsonb) RETURNS text
LANGUAGE sql AS $$
  SELECT jsonb_pretty(jsonb_strip_nulls(jsonb_build_object(
    'type', a -> 'error_type', 'suggestion', a -> 'suggestion',
    'actions', a -> 'suggested_actions', 'resources', a -> 'affected_resources',
    'dependencies', a -> 'dependencies')))
  FROM ai_tool_call(tool, args) AS a $$;
-- the whole answer as text, to look for names in it
CREATE FUNCTION answer(tool text, args jsonb) RETURNS text
LANGUAGE sql AS $$ SELECT ai_tool_call(tool, args)::text $$;

CREATE TYPE mood AS ENUM ('calm', 'busy');
CREATE TABLE people (
  id int PRIMARY KEY,
  email varchar(20) UNIQUE,
  name text NOT NULL,
  age int CHECK (age >= 0 AND age < 150),
  score numeric(5,2),
  status text NOT NULL DEFAULT 'active',
  mood mood NOT NULL,
  salary int
);
CREATE TABLE orders (
  id serial PRIMARY KEY,
  person_id int NOT NULL REFERENCES people ON DELETE RESTRICT,
  total numeric(8,2) NOT NULL CHECK (total > 0),
  note varchar(10)
);
CREATE TABLE tasks (id int PRIMARY KEY, owner int NOT NULL REFERENCES people ON DELETE SET NULL);
CREATE TABLE nodes (id int PRIMARY KEY, parent int REFERENCES nodes);
CREATE TABLE tags (id int, label text, tagged date NOT NULL DEFAULT '2026-01-01', words text[] NOT NULL);
CREATE UNIQUE INDEX tags_label_idx ON tags (label);
CREATE TABLE vault (vault_key int PRIMARY KEY);
CREATE TABLE claims (id int PRIMARY KEY, vault_ref int REFERENCES vault);
INSERT INTO people VALUES (1, 'ada@example.com', 'Ada', 36, 1.5, 'active', 'calm', 100),
                          (2, 'bob@example.com', 'Bob', 40, 2, 'active', 'busy', 200),
                          (3, 'cy@example.com', 'Cy', 20, 0, 'active', 'calm', 300);
INSERT INTO orders (person_id, total) VALUES (1, 10);
INSERT INTO tasks VALUES (1, 3);
INSERT INTO nodes VALUES (1, NULL), (2, 1);
INSERT INTO tags VALUES (1, 'red', DEFAULT, '{}');
INSERT INTO vault VALUES (7);

-- ---------------------------------------------------------------------
-- NOT NULL: the column, its type, its default, an example value, and
-- where the call gives it one
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 10, "mood": "calm"}}');
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 10, "name": "Dee", "mood": "calm", "status": null}}');
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 10, "name": "Dee"}}');
SELECT fix('update_data', '{"table": "people", "set": {"name": null}, "where": {"id": 1}}');
SELECT fix('execute_sql', '{"sql": "INSERT INTO people (id, mood) VALUES (10, ''calm'')"}');
SELECT fix('execute_sql', '{"sql": "INSERT INTO tags (id, label, tagged, words) VALUES (2, ''blue'', NULL, ''{}'')"}');
SELECT fix('insert_data', '{"table": "tags", "rows": {"id": 2, "label": "blue"}}');
-- a delete that sets a NOT NULL column to null elsewhere (ON DELETE SET NULL)
SELECT fix('delete_data', '{"table": "people", "where": {"id": 3}}');

-- ---------------------------------------------------------------------
-- foreign keys: a key that is not there names the referenced table and
-- key, and how to find or add one; the key's value stays in details.detail
SELECT fix('insert_data', '{"table": "orders", "rows": {"id": 50, "person_id": 999, "total": 5}}');
SELECT fix('update_data', '{"table": "orders", "set": {"person_id": 999}, "where": {"id": 1}}');
SELECT fix('execute_sql', '{"sql": "INSERT INTO orders (id, person_id, total) VALUES (50, $1, 5)", "params": [999]}');
SELECT a -> 'details' ->> 'detail' AS detail, a::text LIKE '%999%' AS value_only_in_detail,
       (a - 'details')::text LIKE '%999%' AS value_elsewhere
FROM ai_tool_call('insert_data', '{"table": "orders", "rows": {"id": 50, "person_id": 999, "total": 5}}') AS a;
-- rows others reference: the referencing table, its columns, the rule
SELECT fix('delete_data', '{"table": "people", "where": {"id": 1}}');
SELECT fix('update_data', '{"table": "people", "set": {"id": 100}, "where": {"id": 1}}');
SELECT fix('execute_sql', '{"sql": "DELETE FROM people WHERE id = 1"}');
SELECT fix('delete_data', '{"table": "nodes", "where": {"id": 1}}');
-- 18 reports an ON DELETE RESTRICT refusal as 23001 (restrict_violation),
-- "... violates RESTRICT setting of foreign key constraint ...": raised here
-- as 18 raises it, so that every version checks the same answer
SELECT fix('execute_sql', $j${"sql": "DO $$BEGIN RAISE EXCEPTION 'update or delete on table \"people\" violates RESTRICT setting of foreign key constraint \"orders_person_id_fkey\" on table \"orders\"' USING ERRCODE = '23001', SCHEMA = 'werr', TABLE = 'orders', CONSTRAINT = 'orders_person_id_fkey'; END$$"}$j$);

-- ---------------------------------------------------------------------
-- CHECK: the expression and its column
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 10, "name": "Dee", "mood": "calm", "age": -1}}');
SELECT fix('update_data', '{"table": "people", "set": {"age": 200}, "where": {"id": 1}}');
SELECT fix('execute_sql', '{"sql": "UPDATE orders SET total = -1"}');

-- ---------------------------------------------------------------------
-- unique keys: the key columns, and insert_data's on_conflict options
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 10, "name": "Dee", "mood": "calm", "email": "ada@example.com"}}');
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 1, "name": "Dee", "mood": "calm"}}');
SELECT fix('update_data', '{"table": "people", "set": {"email": "ada@example.com"}, "where": {"id": 2}}');
SELECT fix('execute_sql', '{"sql": "INSERT INTO people (id, name, mood, email) VALUES (10, ''Dee'', ''calm'', ''ada@example.com'')"}');
SELECT fix('execute_sql', '{"sql": "UPDATE people SET email = ''ada@example.com'' WHERE id = 2"}');
-- a unique index without a constraint
SELECT fix('insert_data', '{"table": "tags", "rows": {"id": 2, "label": "red", "words": []}}');
-- the first step, taken as it is written, works
SELECT a ->> 'affectedRows' AS inserted, a ->> 'skippedRows' AS skipped
FROM ai_tool_call('insert_data', '{"table": "people", "rows": {"id": 10, "name": "Dee", "mood": "calm", "email": "ada@example.com"}, "on_conflict": "skip", "conflict_columns": ["email"]}') AS a;

-- ---------------------------------------------------------------------
-- a value past its column's limit: the column and the limit
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 11, "name": "Eve", "mood": "calm", "email": "a-very-long-address@example.com"}}');
SELECT fix('update_data', '{"table": "orders", "set": {"note": "far more than ten"}, "where": {"id": 1}}');
SELECT fix('execute_sql', '{"sql": "UPDATE orders SET note = repeat(''x'', 30)"}');
SELECT fix('execute_sql', '{"sql": "INSERT INTO orders (person_id, total, note) VALUES (1, 5, repeat(''x'', 30))"}');
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 11, "name": "Eve", "mood": "calm", "score": 12345}}');
SELECT fix('execute_sql', '{"sql": "UPDATE orders SET total = 1234567890"}');
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 11, "name": "Eve", "mood": "calm", "age": 99999999999}}');
SELECT fix('execute_sql', '{"sql": "UPDATE people SET age = 99999999999 WHERE id = 1"}');
-- a value that overflows in an expression of a query names no column
SELECT fix('execute_sql', '{"sql": "SELECT 2147483647 + id FROM people"}');

-- ---------------------------------------------------------------------
-- privileges, with column grants: which privilege on which table or
-- columns, what the role may use instead; salary and vault stay unnamed
CREATE ROLE regress_werr_agent;
GRANT USAGE ON SCHEMA werr TO regress_werr_agent;
GRANT SELECT (id, email, name, age, score, status, mood),
      INSERT (id, email, name, age, score, status, mood),
      UPDATE (email, name, age) ON people TO regress_werr_agent;
GRANT SELECT, INSERT, UPDATE ON orders TO regress_werr_agent;
GRANT SELECT, INSERT ON claims TO regress_werr_agent;
SET ROLE regress_werr_agent;
-- a column the role may not write, named by the agent
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 12, "name": "Fay", "mood": "calm", "salary": 1}}');
SELECT fix('update_data', '{"table": "people", "set": {"status": "idle"}, "where": {"id": 1}}');
SELECT fix('execute_sql', '{"sql": "UPDATE people SET status = ''idle'' WHERE id = 1"}');
SELECT fix('execute_sql', '{"sql": "INSERT INTO people (id, name, mood, salary) VALUES (12, ''Fay'', ''calm'', 1)"}');
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 1, "name": "Ada", "status": "idle", "mood": "calm"}, "on_conflict": "update", "conflict_columns": ["id"]}');
-- a table privilege the role lacks
SELECT fix('delete_data', '{"table": "orders", "where": {"id": 1}}');
SELECT fix('delete_data', '{"table": "people", "where": {"id": 1}}');
-- a column the role may not read, in where and returning
SELECT fix('update_data', '{"table": "people", "set": {"name": "Ada"}, "where": {"salary": 100}}');
SELECT fix('update_data', '{"table": "people", "set": {"name": "Ada"}, "where": {"id": 1}, "returning": ["salary"]}');
SELECT fix('select_query', '{"table": "people", "columns": ["id"], "where": {"salary": 100}}');
SELECT fix('execute_sql', '{"sql": "SELECT o.id, p.salary FROM orders o JOIN people p ON p.id = o.person_id"}');
-- columns only * or a missing column list covers are counted, not named
SELECT fix('execute_sql', '{"sql": "SELECT * FROM people"}');
SELECT fix('execute_sql', '{"sql": "INSERT INTO people VALUES (12, NULL, ''Fay'', 1, 1, ''active'', ''calm'', 5)"}');
SELECT answer('execute_sql', '{"sql": "SELECT * FROM people"}') NOT LIKE '%salary%' AS star_hides_salary,
       answer('execute_sql', '{"sql": "INSERT INTO people VALUES (12, NULL, ''Fay'', 1, 1, ''active'', ''calm'', 5)"}') NOT LIKE '%salary%' AS list_hides_salary;
-- (without a column list, VALUES fills the first columns only: these may go)
SELECT ai_tool_call('execute_sql', '{"sql": "INSERT INTO people VALUES (13, NULL, ''Fay'', 1, 1, ''active'', ''calm'')"}') ->> 'affectedRows' AS inserted;
-- a serial column's sequence: the column to give a value instead
SELECT fix('insert_data', '{"table": "orders", "rows": {"person_id": 1, "total": 5}}');
-- a key of a table the role may not read: the table (PostgreSQL names it),
-- never its key column; no select_query step
SELECT fix('insert_data', '{"table": "claims", "rows": {"id": 1, "vault_ref": 5}}');
SELECT answer('insert_data', '{"table": "claims", "rows": {"id": 1, "vault_ref": 5}}') NOT LIKE '%vault_key%' AS key_unnamed;
-- constraints the role meets keep to the columns it may see
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 1, "name": "Ada", "mood": "calm"}}');
SELECT fix('insert_data', '{"table": "people", "rows": {"id": 12, "mood": "calm"}}');
RESET ROLE;

SET client_min_messages = warning;
DROP SCHEMA werr CASCADE;
RESET client_min_messages;
DROP ROLE regress_werr_agent;
