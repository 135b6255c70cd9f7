-- The corpus of mistaken calls (issue 32): realistic mistakes an agent
-- makes, generated over three schemas, each with the exact fix its answer
-- must carry in suggested_actions.  Beside the tools' share, the share an
-- agent gets from PostgreSQL's own error text (message, detail and hint)
-- for the statement it would have written without the tools.  Every miss
-- is listed, so a change that loses a fix shows here by name.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;

-- the schemas ---------------------------------------------------------------
CREATE SCHEMA shop;
CREATE SCHEMA hr;
CREATE SCHEMA blog;
CREATE TYPE shop.order_state AS ENUM ('pending', 'paid', 'shipped', 'delivered', 'cancelled');
CREATE TABLE shop.customers (
  id serial PRIMARY KEY, full_name text NOT NULL, email text NOT NULL UNIQUE,
  city text, country_code char(2), signup_date date, is_active boolean DEFAULT true,
  tier text, password_hash text);
CREATE TABLE shop.products (
  id serial PRIMARY KEY, product_name text NOT NULL, price numeric(10,2) CHECK (price > 0),
  sku varchar(8) UNIQUE, category text, stock_count int DEFAULT 0);
CREATE TABLE shop.orders (
  id serial PRIMARY KEY, customer_id int NOT NULL REFERENCES shop.customers,
  order_state shop.order_state NOT NULL DEFAULT 'pending', total_amount numeric(10,2),
  placed_at timestamptz, shipped_on date);
CREATE TABLE hr.departments (id serial PRIMARY KEY, dept_name text NOT NULL UNIQUE, location text);
CREATE TABLE hr.employees (
  id serial PRIMARY KEY, first_name text NOT NULL, last_name text NOT NULL,
  department_id int REFERENCES hr.departments, salary int CHECK (salary >= 0),
  hire_date date, job_title varchar(20));
CREATE TABLE blog.posts (
  id serial PRIMARY KEY, title text NOT NULL, body text, author_name text,
  published boolean DEFAULT false, created_at timestamptz DEFAULT now());
CREATE TABLE blog.comments (
  id serial PRIMARY KEY, post_id int NOT NULL REFERENCES blog.posts ON DELETE RESTRICT,
  comment_text text, created_at timestamptz DEFAULT now());

INSERT INTO shop.customers (full_name, email, city, country_code, signup_date, tier, password_hash)
SELECT 'Customer ' || g, 'c' || g || '@example.com',
       (ARRAY['Boston', 'New York', 'Chicago', 'San Francisco'])[1 + g % 4],
       (ARRAY['US', 'CA', 'GB'])[1 + g % 3], date '2025-01-01' + g,
       (ARRAY['gold', 'silver', 'bronze'])[1 + g % 3], md5(g::text)
FROM generate_series(1, 200) g;
INSERT INTO shop.products (product_name, price, sku, category)
SELECT 'Product ' || g, 10 + g, 'SKU' || g, (ARRAY['books', 'games', 'garden'])[1 + g % 3]
FROM generate_series(1, 50) g;
INSERT INTO shop.orders (customer_id, order_state, total_amount, placed_at, shipped_on)
SELECT 1 + g % 200, (enum_range(NULL::shop.order_state))[1 + g % 5], g,
       timestamptz '2026-01-01' + g * interval '1 hour', date '2026-01-02' + g % 30
FROM generate_series(1, 500) g;
INSERT INTO hr.departments (dept_name, location) VALUES
  ('Engineering', 'Berlin'), ('Sales', 'London'), ('Support', 'Lisbon');
INSERT INTO hr.employees (first_name, last_name, department_id, salary, hire_date, job_title)
SELECT 'First' || g, 'Last' || g, 1 + g % 3, 40000 + g * 100, date '2020-01-01' + g,
       (ARRAY['engineer', 'manager', 'analyst'])[1 + g % 3]
FROM generate_series(1, 100) g;
INSERT INTO blog.posts (title, body, author_name, published)
SELECT 'Post ' || g, 'Body ' || g, (ARRAY['alice', 'bob'])[1 + g % 2], g % 2 = 0
FROM generate_series(1, 40) g;
INSERT INTO blog.comments (post_id, comment_text) SELECT 1 + g % 40, 'Comment ' || g FROM generate_series(1, 80) g;
ANALYZE shop.customers, shop.products, shop.orders, hr.departments, hr.employees, blog.posts, blog.comments;

CREATE ROLE regress_corpus_agent;
GRANT USAGE ON SCHEMA shop, hr, blog TO regress_corpus_agent;
GRANT SELECT (id, full_name, email, city, country_code, signup_date, is_active, tier),
      INSERT, UPDATE, DELETE ON shop.customers TO regress_corpus_agent;
GRANT SELECT, INSERT, UPDATE, DELETE ON shop.products, shop.orders, hr.departments,
      hr.employees, blog.posts, blog.comments TO regress_corpus_agent;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA shop, hr, blog TO regress_corpus_agent;

-- mistakes made of names ----------------------------------------------------
CREATE TEMP TABLE corpus (
  n serial, class text, tool text, args jsonb, fix text, raw_sql text);
GRANT ALL ON corpus, corpus_n_seq TO regress_corpus_agent;

-- a letter left out, two letters swapped, singular/plural, camelCase
CREATE FUNCTION pg_temp.drop_letter(s text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT left(s, length(s) / 2) || substr(s, length(s) / 2 + 2) $$;
CREATE FUNCTION pg_temp.swap_letters(s text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN substr(s, length(s) / 2, 1) = substr(s, length(s) / 2 + 1, 1)
          THEN left(s, length(s) / 2 - 2) || substr(s, length(s) / 2, 1) || substr(s, length(s) / 2 - 1, 1) || substr(s, length(s) / 2 + 1)
          ELSE left(s, length(s) / 2 - 1) || substr(s, length(s) / 2 + 1, 1) || substr(s, length(s) / 2, 1) || substr(s, length(s) / 2 + 2) END $$;
CREATE FUNCTION pg_temp.plural(s text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN s LIKE '%s' THEN left(s, -1) ELSE s || 's' END $$;
CREATE FUNCTION pg_temp.camel(s text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT string_agg(CASE WHEN i = 1 THEN w ELSE initcap(w) END, '' ORDER BY i)
   FROM unnest(string_to_array(s, '_')) WITH ORDINALITY AS u(w, i) $$;

CREATE TEMP VIEW tables_ AS
SELECT * FROM (VALUES ('shop', 'customers'), ('shop', 'products'), ('shop', 'orders'),
  ('hr', 'departments'), ('hr', 'employees'), ('blog', 'posts'), ('blog', 'comments')) t(sch, tab);
CREATE TEMP VIEW mutations AS
SELECT * FROM (VALUES ('typo'), ('transposition'), ('plural')) m(kind);
CREATE FUNCTION pg_temp.mutate(kind text, s text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE kind WHEN 'typo' THEN pg_temp.drop_letter(s)
                    WHEN 'transposition' THEN pg_temp.swap_letters(s)
                    WHEN 'plural' THEN pg_temp.plural(s)
                    WHEN 'camel' THEN pg_temp.camel(s) END $$;

-- tables: select_query, execute_sql, describe_table, insert_data
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'table ' || kind, 'select_query',
       jsonb_build_object('table', sch || '.' || pg_temp.mutate(kind, tab)), tab,
       format('SELECT * FROM %s.%s', sch, pg_temp.mutate(kind, tab))
FROM tables_, mutations;
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'table ' || kind, 'execute_sql',
       jsonb_build_object('sql', format('SELECT count(*) FROM %s.%s', sch, pg_temp.mutate(kind, tab))), tab,
       format('SELECT count(*) FROM %s.%s', sch, pg_temp.mutate(kind, tab))
FROM tables_, mutations;
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'table wrong schema', t, jsonb_build_object('table', 'public.' || tab), sch || '.' || tab,
       format('SELECT * FROM public.%s', tab)
FROM tables_, (VALUES ('select_query'), ('describe_table')) x(t);
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'table typo', 'describe_table', jsonb_build_object('table', sch || '.' || pg_temp.drop_letter(tab)), tab,
       format('SELECT * FROM %s.%s LIMIT 0', sch, pg_temp.drop_letter(tab))
FROM tables_;

-- the columns agents name (readable ones)
CREATE TEMP VIEW columns_ AS
SELECT * FROM (VALUES
  ('shop', 'customers', 'full_name'), ('shop', 'customers', 'signup_date'), ('shop', 'customers', 'country_code'),
  ('shop', 'products', 'product_name'), ('shop', 'products', 'category'), ('shop', 'products', 'stock_count'),
  ('shop', 'orders', 'customer_id'), ('shop', 'orders', 'total_amount'), ('shop', 'orders', 'placed_at'),
  ('hr', 'departments', 'dept_name'), ('hr', 'departments', 'location'),
  ('hr', 'employees', 'first_name'), ('hr', 'employees', 'hire_date'), ('hr', 'employees', 'salary'),
  ('blog', 'posts', 'title'), ('blog', 'posts', 'author_name'), ('blog', 'posts', 'published'),
  ('blog', 'comments', 'comment_text')) c(sch, tab, col);
CREATE TEMP VIEW column_mutations AS
SELECT * FROM (VALUES ('typo'), ('transposition'), ('camel')) m(kind);

-- structured columns, where keys, order_by
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'column ' || kind, 'select_query',
       jsonb_build_object('table', sch || '.' || tab, 'columns', jsonb_build_array('id', pg_temp.mutate(kind, col))), col,
       format('SELECT id, %s FROM %s.%s', pg_temp.mutate(kind, col), sch, tab)
FROM columns_, column_mutations WHERE pg_temp.mutate(kind, col) <> col;
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'where key ' || kind, 'select_query',
       jsonb_build_object('table', sch || '.' || tab, 'where', jsonb_build_object(pg_temp.mutate(kind, col), jsonb_build_object('is_null', false))), col,
       format('SELECT * FROM %s.%s WHERE %s IS NOT NULL', sch, tab, pg_temp.mutate(kind, col))
FROM columns_, (VALUES ('typo'), ('transposition')) m(kind);
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'order_by ' || kind, 'select_query',
       jsonb_build_object('table', sch || '.' || tab, 'order_by', pg_temp.mutate(kind, col) || ' desc'), col,
       format('SELECT * FROM %s.%s ORDER BY %s DESC', sch, tab, pg_temp.mutate(kind, col))
FROM columns_, (VALUES ('typo')) m(kind);

-- columns inside SQL strings: a where string, execute_sql, explain_query, joins
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'sql where ' || kind, 'select_query',
       jsonb_build_object('table', sch || '.' || tab, 'where', pg_temp.mutate(kind, col) || ' IS NOT NULL'), col,
       format('SELECT * FROM %s.%s WHERE %s IS NOT NULL', sch, tab, pg_temp.mutate(kind, col))
FROM columns_, (VALUES ('typo'), ('transposition')) m(kind);
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'sql column ' || kind, 'execute_sql',
       jsonb_build_object('sql', format('SELECT %s FROM %s.%s LIMIT 1', pg_temp.mutate(kind, col), sch, tab)), col,
       format('SELECT %s FROM %s.%s LIMIT 1', pg_temp.mutate(kind, col), sch, tab)
FROM columns_, (VALUES ('typo'), ('transposition')) m(kind);
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'sql column typo', 'explain_query',
       jsonb_build_object('sql', format('SELECT * FROM %s.%s WHERE %s IS NULL', sch, tab, pg_temp.drop_letter(col))), col,
       format('EXPLAIN SELECT * FROM %s.%s WHERE %s IS NULL', sch, tab, pg_temp.drop_letter(col))
FROM columns_ WHERE tab IN ('customers', 'orders', 'employees', 'posts');
INSERT INTO corpus (class, tool, args, fix, raw_sql) VALUES
  ('sql join column', 'execute_sql', '{"sql": "SELECT c.full_nme, o.total_amount FROM shop.customers c JOIN shop.orders o ON o.customer_id = c.id LIMIT 1"}', 'full_name',
   'SELECT c.full_nme, o.total_amount FROM shop.customers c JOIN shop.orders o ON o.customer_id = c.id LIMIT 1'),
  ('sql join column', 'execute_sql', '{"sql": "SELECT c.full_name, o.totl_amount FROM shop.customers c JOIN shop.orders o ON o.customer_id = c.id LIMIT 1"}', 'total_amount',
   'SELECT c.full_name, o.totl_amount FROM shop.customers c JOIN shop.orders o ON o.customer_id = c.id LIMIT 1'),
  ('sql join column', 'execute_sql', '{"sql": "SELECT e.first_name, d.dept_nmae FROM hr.employees e JOIN hr.departments d ON d.id = e.department_id LIMIT 1"}', 'dept_name',
   'SELECT e.first_name, d.dept_nmae FROM hr.employees e JOIN hr.departments d ON d.id = e.department_id LIMIT 1'),
  ('sql join column', 'execute_sql', '{"sql": "SELECT p.title, count(*) FROM blog.posts p JOIN blog.comments c ON c.postid = p.id GROUP BY 1"}', 'post_id',
   'SELECT p.title, count(*) FROM blog.posts p JOIN blog.comments c ON c.postid = p.id GROUP BY 1'),
  ('sql join column', 'execute_sql', '{"sql": "UPDATE hr.employees SET salry = salary WHERE id = -1"}', 'salary',
   'UPDATE hr.employees SET salry = salary WHERE id = -1');

-- functions misspelt in a statement
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'function typo', 'execute_sql', jsonb_build_object('sql', format('SELECT %s FROM shop.customers LIMIT 1', wrong)), fix,
       format('SELECT %s FROM shop.customers LIMIT 1', wrong)
FROM (VALUES ('lenght(full_name)', 'length'), ('uper(full_name)', 'upper'), ('lowr(city)', 'lower'),
  ('coalese(city, tier)', 'coalesce'), ('substirng(email, 1, 3)', 'substring'), ('concta(city, tier)', 'concat'),
  ('date_trnc(''month'', signup_date)', 'date_trunc'), ('to_chr(signup_date, ''YYYY'')', 'to_char'),
  ('cuont(*)', 'count'), ('initcp(city)', 'initcap'), ('replce(city, ''a'', ''b'')', 'replace'),
  ('string_ag(city, '','')', 'string_agg')) f(wrong, fix);

-- tool names
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'tool name', wrong, '{"table": "shop.products"}', fix, NULL
FROM (VALUES ('select_data', 'select_query'), ('execute_query', 'select_query'), ('select', 'select_query'),
  ('query', 'select_query'), ('get_rows', 'select_query'), ('fetch_data', 'select_query'),
  ('selectQuery', 'select_query'), ('mcp__db__select_query', 'select_query'), ('select_querry', 'select_query'),
  ('read_table', 'select_query'), ('search', 'select_query'), ('find_rows', 'select_query'),
  ('insert', 'insert_data'), ('insert_row', 'insert_data'), ('add_rows', 'insert_data'), ('create_record', 'insert_data'),
  ('update', 'update_data'), ('update_rows', 'update_data'), ('modify_data', 'update_data'),
  ('delete', 'delete_data'), ('delete_rows', 'delete_data'), ('remove_rows', 'delete_data'),
  ('explain', 'explain_query'), ('explain_plan', 'explain_query'), ('describe', 'describe_table'),
  ('get_schema', 'describe_table'), ('describe_tables', 'describe_table'), ('get_columns', 'describe_table'),
  ('list_table', 'list_tables'), ('show_tables', 'list_tables'), ('get_tables', 'list_tables'),
  ('run_sql', 'execute_sql'), ('execute', 'execute_sql'), ('sql', 'execute_sql')) t(wrong, fix);

-- argument names
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'argument name', t, a::jsonb, fix, NULL
FROM (VALUES
  ('select_query', '{"table": "shop.products", "filters": {"id": 1}}', 'where'),
  ('select_query', '{"table": "shop.products", "filter": {"id": 1}}', 'where'),
  ('select_query', '{"table": "shop.products", "conditions": "id = 1"}', 'where'),
  ('select_query', '{"table": "shop.products", "wher": "id = 1"}', 'where'),
  ('select_query', '{"table": "shop.products", "sort_by": "id"}', 'order_by'),
  ('select_query', '{"table": "shop.products", "orderBy": "id"}', 'order_by'),
  ('select_query', '{"table": "shop.products", "sort": "id"}', 'order_by'),
  ('select_query', '{"table": "shop.products", "fields": ["id"]}', 'columns'),
  ('select_query', '{"table": "shop.products", "select": ["id"]}', 'columns'),
  ('select_query', '{"table": "shop.products", "columnns": ["id"]}', 'columns'),
  ('select_query', '{"table": "shop.products", "max_rows": 5}', 'limit'),
  ('select_query', '{"table": "shop.products", "top": 5}', 'limit'),
  ('select_query', '{"table": "shop.products", "limt": 5}', 'limit'),
  ('select_query', '{"table": "shop.products", "skip": 5}', 'offset'),
  ('select_query', '{"table": "shop.products", "offest": 5}', 'offset'),
  ('select_query', '{"tableName": "shop.products"}', 'table'),
  ('select_query', '{"table_name": "shop.products"}', 'table'),
  ('select_query', '{"tabel": "shop.products"}', 'table'),
  ('describe_table', '{"table_name": "shop.products"}', 'table'),
  ('execute_sql', '{"query": "SELECT 1"}', 'sql'),
  ('execute_sql', '{"statement": "SELECT 1"}', 'sql'),
  ('execute_sql', '{"sql": "SELECT $1::int", "parameters": [1]}', 'params'),
  ('execute_sql', '{"sql": "SELECT $1::int", "args": [1]}', 'params'),
  ('explain_query', '{"query": "SELECT 1"}', 'sql'),
  ('insert_data', '{"table": "hr.departments", "values": [{"dept_name": "x"}]}', 'rows'),
  ('insert_data', '{"table": "hr.departments", "data": [{"dept_name": "x"}]}', 'rows'),
  ('insert_data', '{"table": "hr.departments", "records": [{"dept_name": "x"}]}', 'rows'),
  ('update_data', '{"table": "hr.departments", "values": {"location": "x"}, "where": {"id": 1}}', 'set'),
  ('update_data', '{"table": "hr.departments", "changes": {"location": "x"}, "where": {"id": 1}}', 'set'),
  ('update_data', '{"table": "hr.departments", "set": {"location": "x"}, "filter": {"id": 1}}', 'where'),
  ('update_data', '{"table": "hr.departments", "set": {"location": "x"}, "where": {"id": 1}, "dryRun": true}', 'dry_run'),
  ('delete_data', '{"table": "hr.departments", "conditions": {"id": 1}}', 'where'),
  ('list_tables', '{"schema_name": "shop"}', 'schema'),
  ('list_tables', '{"namespace": "shop"}', 'schema')) a(t, a, fix);

-- missing arguments
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'missing argument', t, a::jsonb, fix, NULL
FROM (VALUES ('select_query', '{}', 'table'), ('describe_table', '{}', 'table'),
  ('insert_data', '{"table": "hr.departments"}', 'rows'), ('update_data', '{"table": "hr.departments", "where": {"id": 1}}', 'set'),
  ('execute_sql', '{}', 'sql'), ('explain_query', '{}', 'sql')) a(t, a, fix);

-- mistakes made of values ---------------------------------------------------
-- enum labels
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'enum value', 'select_query',
       jsonb_build_object('table', 'shop.orders', 'where', jsonb_build_object('order_state', wrong)), fix,
       format('SELECT * FROM shop.orders WHERE order_state = %L', wrong)
FROM (VALUES ('Shipped', 'shipped'), ('SHIPPED', 'shipped'), ('canceled', 'cancelled'), ('shiped', 'shipped'),
  ('Pending', 'pending'), ('deliverd', 'delivered'), ('payed', 'paid'), ('Delivered', 'delivered')) v(wrong, fix);
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'enum value', 'insert_data',
       jsonb_build_object('table', 'shop.orders', 'rows', jsonb_build_array(jsonb_build_object('customer_id', 1, 'order_state', wrong))), fix,
       format('INSERT INTO shop.orders (customer_id, order_state) VALUES (1, %L)', wrong)
FROM (VALUES ('Paid', 'paid'), ('canceled', 'cancelled'), ('PENDING', 'pending')) v(wrong, fix);

-- formats of dates, booleans and numbers
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'value format', 'select_query',
       jsonb_build_object('table', sch || '.' || tab, 'where', jsonb_build_object(col, to_jsonb(wrong))), fix,
       format('SELECT * FROM %s.%s WHERE %s = %L', sch, tab, col, wrong)
FROM (VALUES
  ('shop', 'customers', 'signup_date', '27/11/2026', '2026-11-27'),
  ('shop', 'customers', 'signup_date', '27.11.2026', '2026-11-27'),
  ('shop', 'customers', 'signup_date', '27-11-2026', '2026-11-27'),
  ('hr', 'employees', 'hire_date', '31/12/2020', '2020-12-31'),
  ('shop', 'orders', 'shipped_on', '15/01/2026', '2026-01-15'),
  ('shop', 'orders', 'placed_at', '27/11/2026 14:30', '2026-11-27 14:30'),
  ('shop', 'products', 'stock_count', '1,000', '1000'),
  ('shop', 'products', 'stock_count', '1 000', '1000'),
  ('hr', 'employees', 'salary', '45,000', '45000'),
  ('hr', 'employees', 'salary', '$45,000', '45000'),
  ('hr', 'employees', 'salary', '12.0', '12'),
  ('shop', 'products', 'price', '1,250.50', '1250.50')) v(sch, tab, col, wrong, fix);

-- an empty result whose filter value is close to existing values
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'empty result', 'select_query',
       jsonb_build_object('table', sch || '.' || tab, 'where', jsonb_build_object(col, wrong)), fix,
       format('SELECT * FROM %s.%s WHERE %s = %L', sch, tab, col, wrong)
FROM (VALUES
  ('shop', 'customers', 'city', 'boston', 'Boston'), ('shop', 'customers', 'city', 'BOSTON', 'Boston'),
  ('shop', 'customers', 'city', 'Boston ', 'Boston'), ('shop', 'customers', 'city', 'Bostn', 'Boston'),
  ('shop', 'customers', 'city', 'new york', 'New York'), ('shop', 'customers', 'city', 'Chicgo', 'Chicago'),
  ('shop', 'customers', 'tier', 'Gold', 'gold'), ('shop', 'customers', 'tier', 'silvr', 'silver'),
  ('shop', 'customers', 'country_code', 'us', 'US'),
  ('shop', 'products', 'category', 'Books', 'books'), ('shop', 'products', 'category', 'game', 'games'),
  ('hr', 'departments', 'dept_name', 'engineering', 'Engineering'), ('hr', 'departments', 'location', 'berlin', 'Berlin'),
  ('hr', 'employees', 'job_title', 'Engineer', 'engineer'), ('hr', 'employees', 'job_title', 'analist', 'analyst'),
  ('blog', 'posts', 'author_name', 'Alice', 'alice'), ('blog', 'posts', 'author_name', 'bob ', 'bob')) v(sch, tab, col, wrong, fix);

-- writes that break a constraint ---------------------------------------------
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'write ' || kind, t, a::jsonb, fix, raw
FROM (VALUES
  ('not null', 'insert_data', '{"table": "shop.customers", "rows": [{"full_name": "N"}]}', 'email',
   'INSERT INTO shop.customers (full_name) VALUES (''N'')'),
  ('not null', 'insert_data', '{"table": "hr.employees", "rows": [{"first_name": "A"}]}', 'last_name',
   'INSERT INTO hr.employees (first_name) VALUES (''A'')'),
  ('not null', 'insert_data', '{"table": "blog.comments", "rows": [{"comment_text": "hi"}]}', 'post_id',
   'INSERT INTO blog.comments (comment_text) VALUES (''hi'')'),
  ('not null', 'update_data', '{"table": "shop.products", "set": {"product_name": null}, "where": {"id": 1}}', 'product_name',
   'UPDATE shop.products SET product_name = NULL WHERE id = 1'),
  ('not null', 'execute_sql', '{"sql": "INSERT INTO blog.posts (body) VALUES (''x'')"}', 'title',
   'INSERT INTO blog.posts (body) VALUES (''x'')'),
  ('foreign key', 'insert_data', '{"table": "shop.orders", "rows": [{"customer_id": 99999}]}', 'shop.customers',
   'INSERT INTO shop.orders (customer_id) VALUES (99999)'),
  ('foreign key', 'insert_data', '{"table": "hr.employees", "rows": [{"first_name": "A", "last_name": "B", "department_id": 77}]}', 'hr.departments',
   'INSERT INTO hr.employees (first_name, last_name, department_id) VALUES (''A'', ''B'', 77)'),
  ('foreign key', 'update_data', '{"table": "blog.comments", "set": {"post_id": 5000}, "where": {"id": 1}}', 'blog.posts',
   'UPDATE blog.comments SET post_id = 5000 WHERE id = 1'),
  ('foreign key', 'delete_data', '{"table": "blog.posts", "where": {"id": 1}}', 'blog.comments',
   'DELETE FROM blog.posts WHERE id = 1'),
  ('foreign key', 'execute_sql', '{"sql": "INSERT INTO shop.orders (customer_id) VALUES (123456)"}', 'shop.customers',
   'INSERT INTO shop.orders (customer_id) VALUES (123456)'),
  ('check', 'insert_data', '{"table": "shop.products", "rows": [{"product_name": "Free", "price": 0}]}', 'price > (0)::numeric',
   'INSERT INTO shop.products (product_name, price) VALUES (''Free'', 0)'),
  ('check', 'update_data', '{"table": "hr.employees", "set": {"salary": -1}, "where": {"id": 1}}', 'salary >= 0',
   'UPDATE hr.employees SET salary = -1 WHERE id = 1'),
  ('check', 'execute_sql', '{"sql": "UPDATE shop.products SET price = -5 WHERE id = 2"}', 'price > (0)::numeric',
   'UPDATE shop.products SET price = -5 WHERE id = 2'),
  ('unique', 'insert_data', '{"table": "shop.customers", "rows": [{"full_name": "D", "email": "c1@example.com"}]}', 'on_conflict',
   'INSERT INTO shop.customers (full_name, email) VALUES (''D'', ''c1@example.com'')'),
  ('unique', 'insert_data', '{"table": "hr.departments", "rows": [{"dept_name": "Sales"}]}', 'on_conflict',
   'INSERT INTO hr.departments (dept_name) VALUES (''Sales'')'),
  ('unique', 'insert_data', '{"table": "shop.products", "rows": [{"product_name": "P", "sku": "SKU1"}]}', 'on_conflict',
   'INSERT INTO shop.products (product_name, sku) VALUES (''P'', ''SKU1'')'),
  ('unique', 'update_data', '{"table": "hr.departments", "set": {"dept_name": "Sales"}, "where": {"id": 1}}', 'dept_name',
   'UPDATE hr.departments SET dept_name = ''Sales'' WHERE id = 1'),
  ('too long', 'insert_data', '{"table": "shop.products", "rows": [{"product_name": "P", "sku": "SKU-TOO-LONG-1"}]}', 'sku',
   'INSERT INTO shop.products (product_name, sku) VALUES (''P'', ''SKU-TOO-LONG-1'')'),
  ('too long', 'update_data', '{"table": "hr.employees", "set": {"job_title": "Senior principal staff engineer"}, "where": {"id": 1}}', 'job_title',
   'UPDATE hr.employees SET job_title = ''Senior principal staff engineer'' WHERE id = 1'),
  ('too long', 'insert_data', '{"table": "shop.customers", "rows": [{"full_name": "E", "email": "e@x", "country_code": "USA"}]}', 'country_code',
   'INSERT INTO shop.customers (full_name, email, country_code) VALUES (''E'', ''e@x'', ''USA'')')
) w(kind, t, a, fix, raw);

-- harder ones, written as agents write them: names in another style or
-- schema inside SQL text, plurals of columns, values that need a
-- conversion, reads of a column the role may not read, deletes of rows
-- still referenced
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'sql name style', 'execute_sql', jsonb_build_object('sql', q), fix, q
FROM (VALUES
  ('SELECT fullName FROM shop.customers LIMIT 1', 'full_name'),
  ('SELECT FullName, Email FROM shop.customers LIMIT 1', 'full_name'),
  ('SELECT signupDate FROM shop.customers LIMIT 1', 'signup_date'),
  ('SELECT productName, price FROM shop.products LIMIT 1', 'product_name'),
  ('SELECT totalAmount FROM shop.orders LIMIT 1', 'total_amount'),
  ('SELECT firstName, lastName FROM hr.employees LIMIT 1', 'first_name'),
  ('SELECT hireDate FROM hr.employees LIMIT 1', 'hire_date'),
  ('SELECT authorName FROM blog.posts LIMIT 1', 'author_name'),
  ('SELECT count(*) FROM shop.orders WHERE orderState = ''paid''', 'order_state'),
  ('SELECT * FROM shop.orders ORDER BY placedAt DESC LIMIT 3', 'placed_at'),
  ('SELECT * FROM shop.customer LIMIT 1', 'customers'),
  ('SELECT * FROM public.customers LIMIT 1', 'shop.customers'),
  ('SELECT * FROM customers LIMIT 1', 'shop.customers'),
  ('SELECT * FROM employees LIMIT 1', 'hr.employees'),
  ('SELECT * FROM hr.employee e JOIN hr.departments d ON d.id = e.department_id', 'employees'),
  ('SELECT categories FROM shop.products LIMIT 1', 'category'),
  ('SELECT locations FROM hr.departments LIMIT 1', 'location'),
  ('SELECT titles FROM blog.posts LIMIT 1', 'title'),
  ('SELECT salaries FROM hr.employees LIMIT 1', 'salary'),
  ('SELECT cities FROM shop.customers LIMIT 1', 'city')) q(q, fix);
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'value format', 'execute_sql', jsonb_build_object('sql', q, 'params', p::jsonb), fix, NULL
FROM (VALUES
  ('SELECT count(*) FROM shop.customers WHERE signup_date = $1', '["27/11/2026"]', '2026-11-27'),
  ('SELECT count(*) FROM hr.employees WHERE salary > $1', '["45,000"]', '45000'),
  ('SELECT count(*) FROM shop.orders WHERE order_state = $1', '["Shipped"]', 'shipped'),
  ('SELECT count(*) FROM shop.products WHERE price < $1', '["$20.00"]', '20.00'),
  ('SELECT count(*) FROM shop.orders WHERE shipped_on >= $1', '["31.01.2026"]', '2026-01-31')) v(q, p, fix);
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'value format', 'insert_data', jsonb_build_object('table', 'hr.employees', 'rows', jsonb_build_array(r::jsonb)), fix, NULL
FROM (VALUES
  ('{"first_name": "A", "last_name": "B", "hire_date": "15/03/2024"}', '2024-03-15'),
  ('{"first_name": "A", "last_name": "B", "salary": "52,500"}', '52500'),
  ('{"first_name": "A", "last_name": "B", "salary": "52000.0"}', '52000')) v(r, fix);
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'empty result', 'select_query',
       jsonb_build_object('table', sch || '.' || tab, 'where', jsonb_build_object(col, wrong)), fix,
       format('SELECT * FROM %s.%s WHERE %s = %L', sch, tab, col, wrong)
FROM (VALUES
  ('shop', 'customers', 'city', 'San Fransisco', 'San Francisco'), ('shop', 'customers', 'city', 'chicago ', 'Chicago'),
  ('shop', 'customers', 'tier', 'GOLD', 'gold'), ('shop', 'products', 'category', 'Garden', 'garden'),
  ('hr', 'departments', 'location', 'Lisboa', 'Lisbon'), ('hr', 'departments', 'dept_name', 'sales', 'Sales'),
  ('hr', 'employees', 'job_title', 'Manager', 'manager'), ('blog', 'posts', 'author_name', 'ALICE', 'alice')) v(sch, tab, col, wrong, fix);
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'empty result', 'select_query', jsonb_build_object('table', 'shop.customers', 'where', w::jsonb), fix, NULL
FROM (VALUES ('{"city": {"in": ["boston", "chicago"]}}', 'Boston'), ('{"tier": {"eq": "Silver"}}', 'silver')) v(w, fix);
INSERT INTO corpus (class, tool, args, fix, raw_sql)
SELECT 'empty result', 'select_query', jsonb_build_object('table', 'shop.customers', 'where', w), fix, NULL
FROM (VALUES ('city = ''boston''', 'Boston'), ('tier = ''Bronze''', 'bronze')) v(w, fix);
INSERT INTO corpus (class, tool, args, fix, raw_sql) VALUES
  ('privilege', 'execute_sql', '{"sql": "SELECT * FROM shop.customers LIMIT 1"}', 'full_name',
   'SELECT * FROM shop.customers LIMIT 1'),
  ('privilege', 'select_query', '{"table": "shop.customers", "columns": ["id", "password_hash"]}', 'full_name',
   'SELECT id, password_hash FROM shop.customers'),
  ('write foreign key', 'execute_sql', '{"sql": "DELETE FROM blog.posts WHERE id = 3"}', 'blog.comments',
   'DELETE FROM blog.posts WHERE id = 3'),
  ('write foreign key', 'delete_data', '{"table": "shop.customers", "where": {"id": 5}}', 'shop.orders',
   'DELETE FROM shop.customers WHERE id = 5'),
  ('write not null', 'insert_data', '{"table": "shop.orders", "rows": [{"total_amount": 5}]}', 'customer_id',
   'INSERT INTO shop.orders (total_amount) VALUES (5)'),
  ('write unique', 'execute_sql', '{"sql": "INSERT INTO hr.departments (dept_name) VALUES (''Support'')"}', 'ON CONFLICT',
   'INSERT INTO hr.departments (dept_name) VALUES (''Support'')');

SELECT count(*) AS mistakes, count(DISTINCT class) AS classes FROM corpus;

-- running them ----------------------------------------------------------------
-- does text carry fix as a whole word (not inside a longer name)?
CREATE FUNCTION pg_temp.carries(txt text, fix text) RETURNS boolean LANGUAGE sql IMMUTABLE AS
$$ SELECT txt ~ ('(^|[^A-Za-z0-9_])' || regexp_replace(fix, '([.*+?^${}()|\[\]\\])', '\\\1', 'g') || '($|[^A-Za-z0-9_])') $$;

-- PostgreSQL's own text for the statement (message, detail, hint), or
-- NULL when it runs (a write is rolled back)
CREATE FUNCTION pg_temp.raw_error(sql text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE m text; d text; h text;
BEGIN
  BEGIN
    EXECUTE sql;
    RAISE EXCEPTION USING ERRCODE = 'NR000', MESSAGE = 'ran';
  EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
    IF m = 'ran' THEN RETURN NULL; END IF;
    RETURN concat_ws(E'\n', m, d, h);
  END;
END $$;

SET ROLE regress_corpus_agent;
CREATE TEMP TABLE outcome AS
SELECT n, class, tool, args, fix, a AS answer,
       coalesce((SELECT bool_or(pg_temp.carries(s, fix))
                 FROM jsonb_array_elements_text(a -> 'suggested_actions') s), false) AS tool_fix,
       raw_sql IS NOT NULL AND coalesce(pg_temp.carries(pg_temp.raw_error(raw_sql), fix), false) AS pg_fix
FROM corpus, LATERAL (SELECT ai_tool_call(tool, args) AS a) c
ORDER BY n;
RESET ROLE;

-- nothing was written
SELECT (SELECT count(*) FROM shop.customers) AS customers, (SELECT count(*) FROM shop.orders) AS orders,
       (SELECT count(*) FROM hr.employees) AS employees, (SELECT count(*) FROM blog.posts) AS posts;

-- the shares, by class and in all
SELECT class, count(*) AS n,
       round(100.0 * count(*) FILTER (WHERE tool_fix) / count(*)) AS tools_pct,
       round(100.0 * count(*) FILTER (WHERE pg_fix) / count(*)) AS postgres_pct
FROM outcome GROUP BY class ORDER BY class;
SELECT count(*) AS n,
       round(100.0 * count(*) FILTER (WHERE tool_fix) / count(*), 1) AS tools_pct,
       round(100.0 * count(*) FILTER (WHERE pg_fix) / count(*), 1) AS postgres_pct,
       count(*) FILTER (WHERE tool_fix) >= 0.95 * count(*) AS at_least_95_pct
FROM outcome;

-- the misses, each with what its answer said
SELECT n, class, tool, args::text, fix, answer ->> 'suggestion' AS suggestion,
       answer -> 'suggested_actions' AS actions
FROM outcome WHERE NOT tool_fix ORDER BY n;

-- no answer names the column the role may not read
SELECT count(*) AS answers_naming_password_hash FROM outcome WHERE answer::text LIKE '%password_hash%';

DROP SCHEMA shop, hr, blog CASCADE;
DROP OWNED BY regress_corpus_agent;
DROP ROLE regress_corpus_agent;
