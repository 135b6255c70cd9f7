-- ai_error_info: the error classifier on its own, for error text from
-- PostgreSQL, MySQL and SeekDB/OceanBase; secrets masked; the message
-- patterns behind ai_tool_call errors whose SQLSTATE says nothing
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS neon_ai_tools;
RESET client_min_messages;
CREATE SCHEMA err_test;
SET search_path = err_test, public;

-- real error texts, as each database words them; code as a client reports
-- it (NULL: none given, perhaps found in the text)
CREATE TABLE cases (n int PRIMARY KEY, db text, code text, message text);
INSERT INTO cases VALUES
-- PostgreSQL
(1, 'postgresql', '23503', 'update or delete on table "parent" violates foreign key constraint "child_parent_id_fkey" on table "child"'),
(2, 'postgresql', NULL, 'insert or update on table "child" violates foreign key constraint "child_parent_id_fkey"'),
(3, 'postgresql', '23505', 'duplicate key value violates unique constraint "users_email_key"'),
(4, 'postgresql', NULL, 'null value in column "name" of relation "users" violates not-null constraint'),
(5, 'postgresql', '23514', 'new row for relation "t" violates check constraint "t_qty_check"'),
(6, 'postgresql', NULL, 'relation "usres" does not exist'),
(7, 'postgresql', '42703', 'column "nme" does not exist'),
(8, 'postgresql', NULL, 'column "nme" of relation "users" does not exist'),
(9, 'postgresql', NULL, 'syntax error at or near "FORM"'),
(10, 'postgresql', NULL, 'syntax error at end of input'),
(11, 'postgresql', '42501', 'permission denied for table secrets'),
(12, 'postgresql', NULL, 'new row violates row-level security policy for table "accounts"'),
(13, 'postgresql', '2BP01', 'cannot drop table parent because other objects depend on it'),
(14, 'postgresql', NULL, 'relation "users" already exists'),
(15, 'postgresql', NULL, 'schema "sales" does not exist'),
(16, 'postgresql', '57014', 'canceling statement due to statement timeout'),
(17, 'postgresql', NULL, 'canceling statement due to lock timeout'),
(18, 'postgresql', NULL, 'could not obtain lock on relation "orders"'),
(19, 'postgresql', '40001', 'could not serialize access due to concurrent update'),
(20, 'postgresql', NULL, 'deadlock detected'),
(21, 'postgresql', NULL, 'could not connect to server: Connection refused
	Is the server running on host "db.internal" (10.0.0.7) and accepting
	TCP/IP connections on port 5432?'),
(22, 'postgresql', NULL, 'connection to server at "127.0.0.1", port 5432 failed: Connection refused'),
(23, 'postgresql', NULL, 'connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory'),
(24, 'postgresql', NULL, 'could not translate host name "db.internal" to address: Name or service not known'),
(25, 'postgresql', NULL, 'server closed the connection unexpectedly'),
(26, 'postgresql', NULL, 'connection to server at "db" (10.0.0.7), port 5432 failed: FATAL:  password authentication failed for user "bob"'),
(27, 'postgresql', NULL, 'no pg_hba.conf entry for host "10.0.0.5", user "bob", database "app", no encryption'),
(28, 'postgresql', NULL, 'role "ghost" does not exist'),
(29, 'postgresql', NULL, 'cannot execute INSERT in a read-only transaction'),
(30, 'postgresql', '22001', 'value too long for type character varying(5)'),
(31, 'postgresql', NULL, 'invalid input syntax for type integer: "abc"'),
(32, 'postgresql', NULL, 'division by zero'),
(33, 'postgresql', '53200', 'out of memory'),
(34, 'postgresql', NULL, 'too many connections for role "x"'),
(35, 'postgresql', NULL, 'sorry, too many clients already'),
(36, 'postgresql', NULL, 'ERROR:  42P01: relation "usres" does not exist'),
(37, 'postgresql', NULL, 'ERROR: relation "usres" does not exist (SQLSTATE 42P01)'),
(38, 'postgresql', NULL, 'ERROR:  cannot drop table parent because other objects depend on it
DETAIL:  constraint child_parent_id_fkey on table child depends on table parent
view parent_v depends on table parent
HINT:  Use DROP ... CASCADE to drop the dependent objects too.'),
(39, 'postgresql', NULL, 'ERROR:  duplicate key value violates unique constraint "users_email_key"
DETAIL:  Key (email)=(ann@example.com) already exists.'),
(40, 'postgresql', NULL, 'ERROR:  update or delete on table "parent" violates foreign key constraint "child_parent_id_fkey" on table "child"
DETAIL:  Key (id)=(1) is still referenced from table "child".'),
(41, 'postgresql', '42703', 'ERROR:  column "nme" does not exist
LINE 1: SELECT nme FROM users;
               ^
HINT:  Perhaps you meant to reference the column "users.name".'),
(42, 'postgresql', 'XX000', 'cache lookup failed for relation 16384'),
-- MySQL
(43, 'mysql', '1451', 'Cannot delete or update a parent row: a foreign key constraint fails (`shop`.`orders`, CONSTRAINT `orders_ibfk_1` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`))'),
(44, 'mysql', '1452', 'Cannot add or update a child row: a foreign key constraint fails (`shop`.`orders`, CONSTRAINT `orders_ibfk_1` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`))'),
(45, 'mysql', '3730', 'Cannot drop table ''customers'' referenced by a foreign key constraint ''orders_ibfk_1'' on table ''orders''.'),
(46, 'mysql', '1217', 'Cannot delete or update a parent row: a foreign key constraint fails'),
(47, 'mysql', '1062', 'Duplicate entry ''a@b.c'' for key ''users.email'''),
(48, 'mysql', '1048', 'Column ''name'' cannot be null'),
(49, 'mysql', '1364', 'Field ''email'' doesn''t have a default value'),
(50, 'mysql', '3819', 'Check constraint ''chk_qty'' is violated.'),
(51, 'mysql', '1146', 'Table ''shop.usres'' doesn''t exist'),
(52, 'mysql', '1054', 'Unknown column ''nme'' in ''field list'''),
(53, 'mysql', '1049', 'Unknown database ''shopp'''),
(54, 'mysql', '1064', 'You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ''FORM users'' at line 1'),
(55, 'mysql', '1064', 'You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '''' at line 1'),
(56, 'mysql', '1052', 'Column ''id'' in field list is ambiguous'),
(57, 'mysql', '1050', 'Table ''users'' already exists'),
(58, 'mysql', '1142', 'SELECT command denied to user ''bob''@''localhost'' for table ''secrets'''),
(59, 'mysql', '1143', 'UPDATE command denied to user ''bob''@''localhost'' for column ''salary'' in table ''staff'''),
(60, 'mysql', '1044', 'Access denied for user ''bob''@''%'' to database ''shop'''),
(61, 'mysql', '1045', 'Access denied for user ''bob''@''localhost'' (using password: YES)'),
(62, 'mysql', '2003', 'Can''t connect to MySQL server on ''127.0.0.1'' (111)'),
(63, 'mysql', '2003', 'Can''t connect to MySQL server on ''db.internal:3306'' (110)'),
(64, 'mysql', '2013', 'Lost connection to MySQL server during query'),
(65, 'mysql', NULL, 'connect ECONNREFUSED 127.0.0.1:3306'),
(66, 'mysql', '1205', 'Lock wait timeout exceeded; try restarting transaction'),
(67, 'mysql', '1213', 'Deadlock found when trying to get lock; try restarting transaction'),
(68, 'mysql', '3024', 'Query execution was interrupted, maximum statement execution time exceeded'),
(69, 'mysql', '1040', 'Too many connections'),
(70, 'mysql', '1406', 'Data too long for column ''name'' at row 1'),
(71, 'mysql', '1366', 'Incorrect integer value: ''abc'' for column ''qty'' at row 1'),
(72, 'mysql', '1792', 'Cannot execute statement in a READ ONLY transaction.'),
(73, 'mysql', NULL, 'Error 1146 (42S02): Table ''shop.usres'' doesn''t exist'),
(74, 'mysql', NULL, 'SQLSTATE[23000]: Integrity constraint violation: 1062 Duplicate entry ''42'' for key ''PRIMARY'''),
(75, 'mysql', NULL, 'Error Code: 3730. Cannot drop table ''customers'' referenced by a foreign key constraint ''orders_ibfk_1'' on table ''orders''.'),
(96, 'mysql', NULL, 'ER_NO_SUCH_TABLE: Table ''shop.usres'' doesn''t exist'),
(97, 'mysql', 'ER_DUP_ENTRY', 'Duplicate entry ''bob'' for key ''users.name'''),
-- SeekDB / OceanBase (MySQL mode: MySQL numbers and wording; and its own)
(76, 'seekdb', '3730', 'Cannot drop table ''customers'' referenced by a foreign key constraint ''orders_ibfk_1'' on table ''orders'''),
(77, 'seekdb', '1451', 'Cannot delete or update a parent row: a foreign key constraint fails'),
(78, 'seekdb', '1062', 'Duplicate entry ''1'' for key ''PRIMARY'''),
(79, 'seekdb', '3819', 'check constraint violated'),
(80, 'seekdb', '1146', 'Table ''test.usres'' doesn''t exist'),
(81, 'seekdb', NULL, 'Error 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your OceanBase version for the right syntax to use near ''SELEC 1;'' at line 1'),
(82, 'seekdb', '1045', 'Access denied for user ''root''@''172.17.0.1'' (using password: YES)'),
(83, 'seekdb', '4012', 'Timeout, query has reached the maximum query timeout: 10000000(us), maybe you can adjust the session variable ob_query_timeout or query_timeout hint, and try again.'),
(84, 'seekdb', '4012', 'Transaction timeout occurred, please rollback the transaction, set the variable ob_trx_timeout to a larger value and then restart the transaction'),
(85, 'seekdb', NULL, 'Transaction is timeout'),
(86, 'seekdb', '1205', 'Lock wait timeout exceeded; try restarting transaction'),
(87, 'seekdb', '1213', 'Deadlock'),
(88, 'seekdb', '6002', 'Transaction is killed'),
(89, 'seekdb', '4030', 'Over tenant memory limits'),
(90, 'seekdb', NULL, 'ORA-00942: table or view does not exist'),
(91, 'seekdb', NULL, 'ORA-00001: unique constraint (SHOP.USERS_EMAIL_UK) violated'),
(92, 'seekdb', 'ORA-02292', 'ORA-02292: integrity constraint (SHOP.ORDERS_FK) violated - child record found'),
-- nothing to recognize
(93, 'any', NULL, 'something went wrong'),
(94, 'any', 'HY000', 'Unexpected end of JSON input'),
(95, 'any', NULL, '');

SELECT n, db, code, a ->> 'errorType' AS "errorType", a ->> 'error_type' AS error_type,
       a -> 'retryable' AS retryable, a -> 'affected_resources' AS affected_resources,
       a -> 'dependencies' AS dependencies
FROM cases, ai_error_info(message, code) AS a ORDER BY n;

-- the codes reported back, given or found in the text
SELECT n, db, code, a ->> 'error_code' AS error_code, a ->> 'sqlState' AS "sqlState",
       a -> 'details' AS details
FROM cases, ai_error_info(message, code) AS a ORDER BY n;

-- the advice, one sentence per case
SELECT n, a ->> 'suggestion' AS suggestion
FROM cases, ai_error_info(message, code) AS a ORDER BY n;

-- every answer: the message as given (an empty one named so), never a
-- null, an empty string, an empty array or object, and retryable whenever
-- the category is known
SELECT n, a
FROM cases, ai_error_info(message, code) AS a
WHERE a ->> 'error' IS DISTINCT FROM coalesce(nullif(message, ''), '(no message)')
   OR jsonb_path_exists(a, 'strict $.** ? (@ == null)')
   OR jsonb_path_exists(a, 'strict $.** ? (@ == "")')
   OR jsonb_path_exists(a, 'strict $.** ? (@.type() == "array" && @.size() == 0)')
   OR a -> 'details' = '{}'
   OR (a ->> 'errorType' <> 'unknown_error') <> (a ? 'retryable')
   OR NOT a @> '{"success": false, "status": "error", "tool": "ai_error_info"}';

-- a few whole answers
SELECT jsonb_pretty(ai_error_info(message, code)) FROM cases WHERE n IN (38, 43, 58, 76) ORDER BY n;

-- nothing recognized: exactly the minimal object
SELECT ai_error_info('something went wrong') =
       '{"success": false, "status": "error", "tool": "ai_error_info",
         "error": "something went wrong", "errorType": "unknown_error",
         "error_type": "unknown"}'::jsonb AS minimal;
-- an unknown code is reported back, but tells nothing
SELECT ai_error_info('something went wrong', 'E42');
SELECT ai_error_info('something went wrong', 'P0001');

-- duplicate values are data: they appear in error only, never in the
-- names or the advice
SELECT n, (a - 'error')::text LIKE '%' || v || '%' AS value_echoed
FROM (VALUES (39, 'ann@example.com'), (47, 'a@b.c'), (74, '''42'''), (78, '''1'''),
             (71, 'abc'), (31, 'abc'), (97, 'bob')) AS dup(n, v)
JOIN cases USING (n), ai_error_info(message, code) AS a ORDER BY n;

-- secrets are masked everywhere, the error text included
SELECT m AS message, a ->> 'error' AS error, a ->> 'errorType' AS "errorType",
       a::text LIKE '%s3cret%' AS leaked
FROM unnest(ARRAY[
  'could not connect to postgresql://bob:s3cret@db:5432/app',
  'connection to server at "db" (10.0.0.7), port 5432 failed: FATAL:  password authentication failed for user "bob" (conninfo: host=db user=bob password=s3cret dbname=app)',
  'dial tcp mysql://root:s3cret@10.0.0.9:3306/shop: connect: connection refused',
  'Access denied for user ''bob''@''localhost'' (using password: YES) {"user": "bob", "password": "s3cret"}',
  'could not run ALTER ROLE bob WITH LOGIN PASSWORD ''s3cret'': permission denied to alter role',
  'You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ''IDENTIFIED BY ''s3cret'''' at line 1',
  'token=s3cret&pwd=s3cret;API_KEY = ''s3cret'''
]) AS m, ai_error_info(m) AS a;
SELECT ai_error_info('x', 'password=s3cret') ->> 'error_code' AS masked_code;

-- codes: SQLSTATEs in any case and spacing, error numbers, ORA- codes,
-- symbolic names (mysql2 and Node.js, as n8n reports them)
SELECT c AS code, a ->> 'error_code' AS error_code, a ->> 'sqlState' AS "sqlState",
       a ->> 'errorType' AS "errorType", a ->> 'error_type' AS error_type
FROM unnest(ARRAY[' 23505 ', '42p01', '1062', '-4012', 'ora-00942', 'OBE-00060', '40P01', '08006', '23000', '42000', 'HY000', '42S02',
                   'ER_LOCK_DEADLOCK', 'cr_server_lost', 'ECONNREFUSED', '']) AS c,
     ai_error_info('no text to go by', c) AS a;
-- a generic code (subclass 000) lets the text decide ...
SELECT a ->> 'errorType' AS "errorType", a ->> 'error_type' AS error_type, a -> 'affected_resources' AS affected
FROM ai_error_info('SELECT command denied to user ''bob''@''localhost'' for table ''secrets''', '42000') AS a;
SELECT a ->> 'errorType' AS "errorType", a ->> 'error_type' AS error_type
FROM ai_error_info('Duplicate entry ''7'' for key ''PRIMARY''', '23000') AS a;
-- ... a specific code that disagrees wins, and the text's names are not used
SELECT ai_error_info('Duplicate entry ''7'' for key ''PRIMARY''', '1146');

-- NULL: the message is required, the code is not
SELECT ai_error_info(NULL);
SELECT ai_error_info(NULL, '1062');
SELECT ai_error_info('deadlock detected', NULL) ->> 'errorType' AS "errorType";

-- ai_tool_call: a PostgreSQL error whose SQLSTATE says nothing (RAISE in a
-- function, errors relayed from other databases) is classified by its text
CREATE FUNCTION relay(msg text) RETURNS int LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION '%', msg; END $$;
SELECT a ->> 'errorType' AS "errorType", a ->> 'error_type' AS error_type, a ->> 'sqlState' AS "sqlState",
       a -> 'retryable' AS retryable, a -> 'dependencies' AS dependencies, a ->> 'suggestion' AS suggestion
FROM (SELECT ai_tool_call('execute_sql', jsonb_build_object('sql', 'SELECT err_test.relay($1)', 'params', jsonb_build_array(m))) AS a
      FROM unnest(ARRAY[
        'Lock wait timeout exceeded; try restarting transaction',
        'Cannot drop table ''customers'' referenced by a foreign key constraint ''orders_ibfk_1'' on table ''orders''',
        'out of stock'
      ]) AS m) s;

DROP SCHEMA err_test CASCADE;
