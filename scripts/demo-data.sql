-- neon_ai_tools demo data: customers (20 rows), orders (1500 rows, a
-- foreign key to customers) and slow_view.  Loaded by scripts/demo.sql
-- and by the README's checks (test/readme), whose runnable examples run
-- against it; it needs no extension.

CREATE TABLE customers (
    id         integer PRIMARY KEY,
    name       text NOT NULL,
    email      text UNIQUE,
    country    char(2) NOT NULL,
    created_at date NOT NULL
);
COMMENT ON TABLE customers IS 'People and companies that place orders';
COMMENT ON COLUMN customers.country IS 'ISO 3166-1 alpha-2 country code';

INSERT INTO customers VALUES
    (1,  'Ada Lovelace',      'ada@example.com',      'GB', '2023-01-05'),
    (2,  'Alan Turing',       'alan@example.com',     'GB', '2023-01-19'),
    (3,  'Grace Hopper',      'grace@example.com',    'US', '2023-02-02'),
    (4,  'Edsger Dijkstra',   'edsger@example.com',   'NL', '2023-02-14'),
    (5,  'Konrad Zuse',       'konrad@example.com',   'DE', '2023-03-01'),
    (6,  'Emmy Noether',      'emmy@example.com',     'DE', '2023-03-22'),
    (7,  'Niklaus Wirth',     'niklaus@example.com',  'CH', '2023-04-10'),
    (8,  'Barbara Liskov',    'barbara@example.com',  'US', '2023-04-28'),
    (9,  'Donald Knuth',      'donald@example.com',   'US', '2023-05-15'),
    (10, 'Margaret Hamilton', 'margaret@example.com', 'US', '2023-06-01'),
    (11, 'Bjarne Stroustrup', 'bjarne@example.com',   'DK', '2023-06-20'),
    (12, 'Linus Torvalds',    'linus@example.com',    'FI', '2023-07-04'),
    (13, 'Frances Allen',     'frances@example.com',  'US', '2023-07-30'),
    (14, 'Tim Berners-Lee',   'tim@example.com',      'GB', '2023-08-12'),
    (15, 'Karl Steinbuch',    'karl@example.com',     'DE', '2023-09-03'),
    (16, 'Heinz Nixdorf',     'heinz@example.com',    'DE', '2023-09-25'),
    (17, 'Ingrid Daubechies', 'ingrid@example.com',   'BE', '2023-10-11'),
    (18, 'Michael Stonebraker', 'mike@example.com',   'US', '2023-11-02'),
    (19, 'Hedy Lamarr',       'hedy@example.com',     'AT', '2023-11-27'),
    (20, 'Andrea Tanenbaum',  NULL,                   'NL', '2023-12-15');

CREATE TABLE orders (
    id          integer PRIMARY KEY,
    customer_id integer NOT NULL REFERENCES customers(id),
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
ANALYZE customers, orders;

-- (a view column cannot be of type void, so pg_sleep goes in FROM)
CREATE VIEW slow_view AS SELECT 1 AS x FROM pg_sleep(5);
