CREATE DATABASE app;
\c app
CREATE EXTENSION neon_ai_tools;
CREATE TABLE orders (id int PRIMARY KEY, region text NOT NULL, customer text NOT NULL, total numeric(10,2) NOT NULL, status text NOT NULL);
INSERT INTO orders VALUES
 (1,'east','Acme',120.50,'open'),(2,'west','Globex',75.00,'open'),
 (3,'east','Initech',300.00,'shipped'),(4,'west','Umbrella',210.25,'open'),
 (5,'east','Hooli',99.99,'open');
ALTER TABLE orders ENABLE ROW LEVEL SECURITY;
CREATE ROLE authenticator LOGIN NOINHERIT;
CREATE ROLE agent_east NOLOGIN;  GRANT agent_east TO authenticator;
CREATE ROLE agent_west NOLOGIN;  GRANT agent_west TO authenticator;
ALTER ROLE agent_west SET neon_ai_tools.read_only = on;
GRANT SELECT, INSERT ON orders TO agent_east, agent_west;
CREATE POLICY east ON orders TO agent_east USING (region = 'east');
CREATE POLICY west ON orders TO agent_west USING (region = 'west');
