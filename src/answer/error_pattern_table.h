/*-------------------------------------------------------------------------
 *
 * error_pattern_table.h
 *		  The data of the message-pattern layer: the message patterns, where
 *		  clients put codes in the text, and the categories of MySQL,
 *		  OceanBase and Oracle-mode error numbers.
 *
 * This is data, not an interface: error_patterns.c, which applies the
 * tables, includes it once (as PostgreSQL's unicode_norm_table.h is).
 * Keeping the tables here lets a pattern be added or corrected without
 * reading the code that matches them; error_patterns.c's header comment
 * says how they are applied.
 *
 * IDENTIFICATION
 *		  src/error_pattern_table.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_ERROR_PATTERN_TABLE_H
#define NAT_ERROR_PATTERN_TABLE_H

#include "base/base.h"			/* NatErrorKind */

/* which database's wording a pattern or a code comes from */
typedef enum Dialect
{
	D_ANY,
	D_PG,
	D_MYSQL,					/* MySQL, and SeekDB/OceanBase in MySQL mode */
	D_OCEANBASE,				/* OceanBase/SeekDB's own messages and codes */
	D_ORACLE					/* OceanBase in Oracle mode (ORA-nnnnn) */
} Dialect;

/* the advice a pattern leads to; see advise() */
typedef enum Advice
{
	ADV_NONE,
	ADV_FK_REFERENCED,			/* rows still referenced from another table */
	ADV_FK_MISSING,				/* the referenced row does not exist */
	ADV_FK_DROP,				/* a table referenced by a foreign key */
	ADV_DEPENDENT,				/* other objects depend on it */
	ADV_UNIQUE,
	ADV_NOT_NULL,
	ADV_NO_DEFAULT,
	ADV_CHECK,
	ADV_CHECK_OPTION,
	ADV_SYNTAX,
	ADV_SYNTAX_END,
	ADV_AMBIGUOUS,
	ADV_NO_TABLE,
	ADV_NO_COLUMN,
	ADV_EXISTS,
	ADV_EXISTS_KEY,
	ADV_PERMISSION,
	ADV_GRANT,					/* MySQL: command denied to user for table */
	ADV_DB_DENIED,
	ADV_PRIVILEGE_NEEDED,
	ADV_OWNER,
	ADV_RLS,
	ADV_READ_ONLY,
	ADV_STANDBY,				/* a hot standby: recovery in progress */
	ADV_AUTH,
	ADV_NO_ROLE,
	ADV_HBA,
	ADV_CONNECT,
	ADV_DNS,
	ADV_LOST,
	ADV_TIMEOUT,
	ADV_LOCK_TIMEOUT,
	ADV_TRX_TIMEOUT,
	ADV_IDLE_TIMEOUT,
	ADV_SERIALIZATION,
	ADV_DEADLOCK,
	ADV_ROLLED_BACK,
	ADV_CONNECTIONS,
	ADV_MEMORY,
	ADV_DISK,
	ADV_TOO_LONG,
	ADV_BAD_VALUE,
	ADV_OUT_OF_RANGE,
	ADV_DIVISION,
	ADV_DIST_UPDATE,			/* Citus: an UPDATE changes the distribution
								 * column */
	ADV_DIST_NULL,				/* Citus: no value for the distribution column */
	ADV_CITUS_REPARTITION,		/* Citus: a join that needs repartitioning */
	ADV_CITUS_COLOCATION,		/* Citus: tables not co-located for this query */
	ADV_CITUS_CORRELATED,		/* Citus: a correlated subquery it cannot plan */
	ADV_CITUS_MULTI_SHARD,		/* Citus: a clause it runs on one shard only */
	ADV_CITUS_LOCAL_JOIN,		/* Citus: a distributed table joined to a
								 * local one */
	ADV_CITUS_VOLATILE,			/* Citus: a VOLATILE function in a write */
	ADV_CITUS_MUTABLE,			/* Citus: a non-IMMUTABLE function where it
								 * needs one */
	ADV_CITUS_UNIQUE,			/* Citus: a unique key without the
								 * distribution column */
	ADV_CITUS_DIST_ALTER,		/* Citus: ALTER TABLE of the distribution
								 * column */
	ADV_CITUS_INTERMEDIATE,		/* Citus: an intermediate result too large */
	ADV_CITUS_NODE,				/* Citus: a node it could not reach */
	ADV_CITUS_SETTING			/* a Citus setting a tool call may not change */
} Advice;

/*
 * One message pattern.  roles has one letter per capturing group:
 *
 *	a	the object the statement was about (table, view, schema, database)
 *	d	an object that blocks it (a referencing table, a dependent view)
 *	r	the table a foreign key references
 *	k	column, or a comma-separated list of columns
 *	c	constraint
 *	x	MySQL key, 'table.key' or 'key'
 *	n	the kind of object ("table", "schema", ...)
 *	o	operation or privilege
 *	u	user or role
 *	h	host (or socket)
 *	p	port
 *	t	the text a syntax error is near
 *	y	data type
 *	l	where in the statement ("field list")
 *	H	a hint line
 *	g	a setting (GUC)
 *	-	ignored
 */
typedef struct ErrorPattern
{
	Dialect		dialect;
	NatErrorKind kind;			/* fine category, or NAMES_ONLY */
	const char *portable_type;	/* NULL: the category's own */
	Advice		advice;
	const char *roles;
	const char *regex;

	/*
	 * SQLSTATEs this pattern refines: with one of them, the pattern's
	 * category wins over the code's (a specific code otherwise wins).
	 */
	const char *refines;
} ErrorPattern;

/* one quoted name part: "x", 'x' or `x` */
#define QP		"(?:\"[^\"]*\"|'[^']*'|`[^`]*`)"
/* a quoted name, perhaps qualified ("s"."t", `db`.`t`, 'db.t'): one group */
#define QN		"(" QP "(?:\\." QP ")*)"
/* a quoted or a bare name: one group */
#define UN		"(" QP "(?:\\." QP ")*|[^[:space:]\"'`(),;]+)"

/*
 * The fine category of the constraint patterns and numbers.  (Not "CV":
 * that is a typedef in PostgreSQL's typedefs.list, and pgindent would take
 * the table rows for declarations.)
 */
#define VIOLATION	NAT_ERR_CONSTRAINT_VIOLATION

/*
 * The category field of the names-only patterns, which never decide a
 * category (they only pick names out of the text).
 */
#define NAMES_ONLY	NAT_ERR_UNKNOWN_ERROR

/*
 * The message patterns, most specific first: the first that matches wins.
 * Authentication, resource and not-found patterns come before the
 * connection patterns, because client libraries wrap the server's message
 * ("connection to server at ... failed: FATAL:  password authentication
 * failed ...").  The last few are loose fallbacks.
 */
static const ErrorPattern patterns[] = {
	/*
	 * ---- Citus: a node the coordinator could not reach ----  First, because
	 * the text goes on with libpq's own failure (a password refused, a socket
	 * missing), which the patterns below would take for the agent's own
	 * connection.  The SQLSTATE is 08006 either way.
	 */
	{D_PG, NAT_ERR_CONNECTION_ERROR, NULL, ADV_CITUS_NODE, "uhp",
	"connection to the remote node (?:([^@[:space:]\"]+)@)?([^[:space:]\"]+):([0-9]+) failed"},
	{D_PG, NAT_ERR_CONNECTION_ERROR, NULL, ADV_CITUS_NODE, "hp",
	"(?:connection establishment for node|could not establish any connections to the node) ([^[:space:]\"]+):([0-9]+)"},

	/* ---- authentication ---- */
	{D_PG, NAT_ERR_AUTHENTICATION_ERROR, NULL, ADV_AUTH, "u",
	"authentication failed for user " QN},
	{D_PG, NAT_ERR_AUTHENTICATION_ERROR, NULL, ADV_HBA, "hua",
	"no pg_hba\\.conf entry for (?:replication connection from )?host " QN ", user " QN "(?:, database " QN ")?"},
	{D_PG, NAT_ERR_AUTHENTICATION_ERROR, NULL, ADV_NO_ROLE, "u",
	"\\mrole " QN " does not exist"},
	{D_PG, NAT_ERR_AUTHENTICATION_ERROR, NULL, ADV_AUTH, "",
	"no password supplied|password authentication failed|password is required"},
	{D_MYSQL, NAT_ERR_PERMISSION_DENIED, NULL, ADV_DB_DENIED, "uha",
	"access denied for user " QN "@" QN " to database " QN},
	{D_MYSQL, NAT_ERR_AUTHENTICATION_ERROR, NULL, ADV_AUTH, "uh",
	"access denied for user " QN "(?:@" QN ")?"},
	{D_MYSQL, NAT_ERR_AUTHENTICATION_ERROR, NULL, ADV_AUTH, "",
	"client does not support authentication protocol"},
	{D_ORACLE, NAT_ERR_AUTHENTICATION_ERROR, NULL, ADV_AUTH, "",
	"invalid username/password"},

	/* ---- foreign keys ---- */
	{D_PG, VIOLATION, "foreign_key_constraint", ADV_FK_REFERENCED, "acd",
	"update or delete on table " QN " violates (?:restrict setting of )?foreign key constraint " QN " on table " QN},
	{D_PG, VIOLATION, "foreign_key_constraint", ADV_FK_MISSING, "ac",
	"insert or update on table " QN " violates foreign key constraint " QN},
	{D_MYSQL, VIOLATION, "foreign_key_constraint", ADV_FK_REFERENCED, "dcka",
	"cannot delete or update a parent row: a foreign key constraint fails \\(" QN ", constraint " QN " foreign key \\(([^)]*)\\) references " QN},
	{D_MYSQL, VIOLATION, "foreign_key_constraint", ADV_FK_REFERENCED, "",
	"cannot delete or update a parent row"},
	{D_MYSQL, VIOLATION, "foreign_key_constraint", ADV_FK_MISSING, "ackr",
	"cannot add or update a child row: a foreign key constraint fails \\(" QN ", constraint " QN " foreign key \\(([^)]*)\\) references " QN},
	{D_MYSQL, VIOLATION, "foreign_key_constraint", ADV_FK_MISSING, "",
	"cannot add or update a child row"},
	{D_MYSQL, NAT_ERR_DEPENDENT_OBJECTS, NULL, ADV_FK_DROP, "acd",
	"cannot drop table " QN " referenced by (?:a )?foreign key constraint " QN " on table " QN},
	{D_PG, NAT_ERR_DEPENDENT_OBJECTS, NULL, ADV_DEPENDENT, "na",
	"cannot drop (table|view|materialized view|foreign table|sequence|index|schema|type|domain|function|procedure|column|constraint|extension) (.+) because other objects depend on it"},
	{D_ORACLE, VIOLATION, "foreign_key_constraint", ADV_FK_REFERENCED, "c",
	"integrity constraint (?:\\(([^)]*)\\) )?violated - child record found"},
	{D_ORACLE, VIOLATION, "foreign_key_constraint", ADV_FK_MISSING, "c",
	"integrity constraint (?:\\(([^)]*)\\) )?violated - parent key not found"},
	{D_ORACLE, NAT_ERR_DEPENDENT_OBJECTS, NULL, ADV_FK_DROP, "a",
	"unique/primary keys in table (?:\\(([^)]*)\\) )?referenced by (?:enabled )?foreign keys"},

	/*
	 * ---- Citus: the distribution column ("partition column" in its
	 * messages) ----  An UPDATE of it is 0A000 and a missing value 22004,
	 * which alone would say unknown_error and invalid_input.
	 */
	{D_PG, VIOLATION, "check_constraint", ADV_DIST_UPDATE, "",
	"modifying the partition value of rows is not allowed", "0A000"},
	{D_PG, VIOLATION, "not_null_constraint", ADV_DIST_NULL, "",
	"cannot perform an insert with null in the partition column", "22004"},
	{D_PG, VIOLATION, "not_null_constraint", ADV_DIST_NULL, "",
	"cannot perform an insert without a partition column value", "22004"},
	{D_PG, VIOLATION, "not_null_constraint", ADV_DIST_NULL, "a",
	"the partition column of table " UN " (?:cannot be null|should have a value)", "22004"},

	/*
	 * ---- Citus: statements it cannot run on distributed tables as written
	 * ----  Its planner's refusals are 0A000 (feature_not_supported), a few
	 * XX000 (no code of their own), which alone say unknown_error: these
	 * texts answer syntax_error, the category of statements that must be
	 * rewritten (as class 42's are), with advice on how.
	 */
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_REPARTITION, "",
	"the query contains a join that requires repartitioning", "XX000"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_COLOCATION, "",
	"(?:complex joins are|MERGE command is) only supported when all distributed tables are co-located", "0A000"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_CORRELATED, "o",
	"correlated subqueries are not supported when the FROM clause contains ([^.\n]+)", "0A000"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_MULTI_SHARD, "o",
	"could not run distributed query with ([^.\n]+)", "0A000"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_MULTI_SHARD, "o",
	"(subquery in (?:LIMIT|OFFSET)) is not supported in multi-shard queries", "0A000"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_LOCAL_JOIN, "",
	"direct joins between distributed and local tables are not supported", "0A000"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_VOLATILE, "",
	"functions used in (?:UPDATE queries|the WHERE/ON/WHEN clause of modification queries) on distributed tables must not be VOLATILE", "0A000"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_MUTABLE, "",
	"STABLE functions used in UPDATE queries cannot be called with column references|non-IMMUTABLE functions are not allowed in (?:CASE or COALESCE statements|the RETURNING clause)", "0A000"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_UNIQUE, "a",
	"cannot create constraint on " QN, "0A000"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_UNIQUE, "",
	"creating unique indexes on non-partition columns is currently unsupported", "0A000"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_CITUS_DIST_ALTER, "",
	"cannot execute ALTER TABLE command (?:involving|dropping) partition column", "XX000"},
	/* the extension's refusals of Citus's settings (citus_settings.c) */
	{D_PG, NAT_ERR_PERMISSION_DENIED, NULL, ADV_CITUS_SETTING, "g",
	"parameter \"(citus\\.[^\"]+)\" (?:cannot be changed|cannot be raised|can only be set to \"[^\"]*\"|was changed) during a tool call", "42501"},
	{D_PG, NAT_ERR_PERMISSION_DENIED, NULL, ADV_CITUS_SETTING, "g",
	"sets parameter \"(citus\\.[^\"]+)\", which cannot be changed during a tool call", "42501"},
	{D_PG, NAT_ERR_PERMISSION_DENIED, NULL, ADV_CITUS_SETTING, "",
	"set_config\\(\\) with a setting name that is not a constant is not allowed in a tool call on a Citus cluster", "42501"},
	{D_PG, NAT_ERR_RESOURCE_EXHAUSTED, NULL, ADV_CITUS_INTERMEDIATE, "",
	"the intermediate result size exceeds citus\\.max_intermediate_result_size", "XX000"},

	/* ---- unique, not-null and check constraints ---- */
	{D_PG, VIOLATION, "unique_constraint", ADV_UNIQUE, "c",
	"duplicate key value violates unique constraint " QN},
	{D_PG, VIOLATION, "unique_constraint", ADV_UNIQUE, "c",
	"conflicting key value violates exclusion constraint " QN},
	{D_MYSQL, VIOLATION, "unique_constraint", ADV_UNIQUE, "x",
	"duplicate entry '.*' for key " QN},
	{D_MYSQL, VIOLATION, "unique_constraint", ADV_UNIQUE, "a",
	"can't write; duplicate key in table " QN},
	{D_ORACLE, VIOLATION, "unique_constraint", ADV_UNIQUE, "x",
	"unique constraint '.*' for key " QN " violated"},
	{D_ORACLE, VIOLATION, "unique_constraint", ADV_UNIQUE, "c",
	"unique constraint (?:\\(([^)]*)\\) )?violated"},
	{D_PG, VIOLATION, "not_null_constraint", ADV_NOT_NULL, "ka",
	"null value in column " QN "(?: of relation " QN ")? violates not-null constraint"},
	{D_MYSQL, VIOLATION, "not_null_constraint", ADV_NOT_NULL, "k",
	"column " QN " cannot be null"},
	{D_MYSQL, VIOLATION, "not_null_constraint", ADV_NO_DEFAULT, "k",
	"field " QN " doesn't have a default value"},
	{D_ORACLE, VIOLATION, "not_null_constraint", ADV_NOT_NULL, "k",
	"cannot insert null into '?\\(([^)]*)\\)"},
	{D_PG, VIOLATION, "check_constraint", ADV_CHECK, "ac",
	"new row for relation " QN " violates check constraint " QN},
	{D_PG, VIOLATION, "check_constraint", ADV_CHECK, "ca",
	"check constraint " QN " of relation " QN " is violated by some row"},
	{D_PG, VIOLATION, "check_constraint", ADV_CHECK, "yc",
	"value for domain " UN " violates check constraint " QN},
	{D_PG, VIOLATION, "check_constraint", ADV_CHECK_OPTION, "a",
	"new row violates check option for view " QN},
	{D_MYSQL, VIOLATION, "check_constraint", ADV_CHECK, "c",
	"check constraint " QN " is violated"},
	{D_ANY, VIOLATION, "check_constraint", ADV_CHECK, "c",
	"check constraint (?:\\(([^)]*)\\) )?violated"},

	/* ---- privileges and read-only ---- */
	{D_PG, NAT_ERR_PERMISSION_DENIED, NULL, ADV_RLS, "a",
	"new row violates row-level security policy (?:\"[^\"]*\" )?for table " QN},
	{D_PG, NAT_ERR_PERMISSION_DENIED, NULL, ADV_PERMISSION, "na",
	"permission denied for (table|relation|view|materialized view|foreign table|sequence|schema|database|function|procedure|routine|type|domain|column|language|tablespace|large object) " UN},
	{D_PG, NAT_ERR_PERMISSION_DENIED, NULL, ADV_OWNER, "na",
	"must be owner of (table|relation|view|materialized view|foreign table|sequence|index|schema|database|function|procedure|type|extension) " UN},
	{D_MYSQL, NAT_ERR_PERMISSION_DENIED, NULL, ADV_GRANT, "ouhka",
	"\\m([[:alpha:]]+(?: view)?) command denied to user " QN "@" QN " for column " QN " in table " UN},
	{D_MYSQL, NAT_ERR_PERMISSION_DENIED, NULL, ADV_GRANT, "ouha",
	"\\m([[:alpha:]]+(?: view)?) command denied to user " QN "@" QN " for table " UN},
	{D_MYSQL, NAT_ERR_PERMISSION_DENIED, NULL, ADV_PRIVILEGE_NEEDED, "o",
	"access denied; you need \\(at least one of\\) the (.*) privilege\\(s\\) for this operation"},
	{D_ORACLE, NAT_ERR_PERMISSION_DENIED, NULL, ADV_PERMISSION, "",
	"insufficient privileges"},
	{D_PG, NAT_ERR_READ_ONLY_VIOLATION, NULL, ADV_STANDBY, "o",
	"cannot execute (.+) during recovery"},
	{D_PG, NAT_ERR_READ_ONLY_VIOLATION, NULL, ADV_STANDBY, "",
	"\\mrecovery is in progress|cannot (?:assign TransactionIds|make new WAL entries|set transaction read-write mode) during recovery"},
	{D_PG, NAT_ERR_READ_ONLY_VIOLATION, NULL, ADV_READ_ONLY, "o",
	"cannot execute ([[:alpha:]]+(?: [[:alpha:]]+)?) in a read-only transaction"},
	{D_MYSQL, NAT_ERR_READ_ONLY_VIOLATION, NULL, ADV_READ_ONLY, "",
	"cannot execute statement in a read only transaction|running with the --(?:super-)?read-only option|the server is read only now"},

	/* ---- syntax ---- */
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_SYNTAX, "t",
	"syntax error at or near " QN},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_SYNTAX_END, "",
	"syntax error at end of input"},
	{D_MYSQL, NAT_ERR_SYNTAX_ERROR, NULL, ADV_SYNTAX, "t",
	"you have an error in your sql syntax.* near '(.*)' at line [0-9]+"},
	{D_MYSQL, NAT_ERR_SYNTAX_ERROR, NULL, ADV_SYNTAX, "",
	"you have an error in your sql syntax"},
	{D_ORACLE, NAT_ERR_SYNTAX_ERROR, NULL, ADV_SYNTAX, "",
	"invalid sql statement|sql command not properly ended|missing expression|from keyword not found where expected|missing right parenthesis"},
	{D_PG, NAT_ERR_SYNTAX_ERROR, NULL, ADV_AMBIGUOUS, "k",
	"column reference " QN " is ambiguous"},
	{D_MYSQL, NAT_ERR_SYNTAX_ERROR, NULL, ADV_AMBIGUOUS, "k",
	"column " QN " in .* is ambiguous"},

	/* ---- objects that do not exist, or already do ---- */
	{D_PG, NAT_ERR_INVALID_COLUMN, NULL, ADV_NO_COLUMN, "ka",
	"column " QN " of relation " QN " does not exist"},
	{D_PG, NAT_ERR_INVALID_COLUMN, NULL, ADV_NO_COLUMN, "k",
	"column " UN " does not exist"},
	{D_PG, NAT_ERR_INVALID_TABLE, NULL, ADV_NO_TABLE, "a",
	"relation " QN " does not exist"},
	{D_PG, NAT_ERR_INVALID_TABLE, NULL, ADV_NO_TABLE, "na",
	"(table|view|materialized view|foreign table|sequence|index|schema|database) " QN " does not exist"},
	{D_MYSQL, NAT_ERR_INVALID_TABLE, NULL, ADV_NO_TABLE, "a",
	"table " QN " doesn't exist"},
	{D_MYSQL, NAT_ERR_INVALID_TABLE, NULL, ADV_NO_TABLE, "a",
	"unknown table " QN},
	{D_MYSQL, NAT_ERR_INVALID_TABLE, NULL, ADV_NO_TABLE, "na",
	"unknown (database) " QN},
	{D_MYSQL, NAT_ERR_INVALID_COLUMN, NULL, ADV_NO_COLUMN, "kl",
	"unknown column " QN " in " QN},
	{D_ORACLE, NAT_ERR_INVALID_TABLE, NULL, ADV_NO_TABLE, "a",
	"table or view (?:" QN " )?does not exist"},
	{D_ORACLE, NAT_ERR_INVALID_COLUMN, NULL, ADV_NO_COLUMN, "kkl",
	QN ": invalid identifier|invalid identifier " QN " in " QN},
	{D_PG, NAT_ERR_ALREADY_EXISTS, NULL, ADV_EXISTS, "ka",
	"column " QN " of relation " QN " already exists"},
	{D_ANY, NAT_ERR_ALREADY_EXISTS, NULL, ADV_EXISTS, "na",
	"\\m(relation|table|view|materialized view|schema|database|index|sequence|type|function|procedure|role|extension|constraint|trigger|domain) " QN " already exists"},
	{D_MYSQL, NAT_ERR_ALREADY_EXISTS, NULL, ADV_EXISTS, "k",
	"duplicate column name " QN},
	{D_MYSQL, NAT_ERR_ALREADY_EXISTS, NULL, ADV_EXISTS_KEY, "c",
	"duplicate key name " QN},
	{D_MYSQL, NAT_ERR_ALREADY_EXISTS, NULL, ADV_EXISTS, "na",
	"can't create (database) " QN "; database exists"},
	{D_ORACLE, NAT_ERR_ALREADY_EXISTS, NULL, ADV_EXISTS, "",
	"name is already used by an existing object"},

	/* ---- timeouts ---- */
	{D_PG, NAT_ERR_TIMEOUT, NULL, ADV_TIMEOUT, "",
	"canceling statement due to statement timeout"},
	{D_PG, NAT_ERR_TIMEOUT, NULL, ADV_LOCK_TIMEOUT, "",
	"canceling statement due to lock timeout"},
	{D_PG, NAT_ERR_TIMEOUT, NULL, ADV_LOCK_TIMEOUT, "a",
	"could not obtain lock on (?:row in )?relation " QN},
	{D_PG, NAT_ERR_TIMEOUT, NULL, ADV_IDLE_TIMEOUT, "",
	"terminating connection due to idle-in-transaction timeout|terminating connection due to idle-session timeout"},
	{D_MYSQL, NAT_ERR_TIMEOUT, NULL, ADV_LOCK_TIMEOUT, "",
	"lock wait timeout exceeded"},
	{D_MYSQL, NAT_ERR_TIMEOUT, NULL, ADV_TIMEOUT, "",
	"maximum statement execution time exceeded|query execution was interrupted"},
	{D_OCEANBASE, NAT_ERR_TIMEOUT, NULL, ADV_TIMEOUT, "",
	"query has reached the maximum query timeout|statement is timeout|statement timeout occurred"},
	{D_OCEANBASE, NAT_ERR_TIMEOUT, NULL, ADV_TRX_TIMEOUT, "",
	"transaction is timeout|transaction timeout occurred"},
	{D_OCEANBASE, NAT_ERR_TIMEOUT, NULL, ADV_IDLE_TIMEOUT, "",
	"transaction idle timeout occurred"},
	{D_ORACLE, NAT_ERR_TIMEOUT, NULL, ADV_LOCK_TIMEOUT, "",
	"resource busy and acquire with nowait specified|acquire with wait timeout expired"},

	/* ---- concurrency conflicts ---- */
	{D_ANY, NAT_ERR_CONFLICT, NULL, ADV_SERIALIZATION, "",
	"serialize access|transaction set changed during the execution"},
	{D_ANY, NAT_ERR_CONFLICT, "deadlock", ADV_DEADLOCK, "",
	"deadlock"},
	{D_OCEANBASE, NAT_ERR_CONFLICT, NULL, ADV_ROLLED_BACK, "",
	"transaction (?:is )?(?:rolled back|rollbacked|killed)|transaction needs rollback"},

	/* ---- resources ---- */
	{D_PG, NAT_ERR_RESOURCE_EXHAUSTED, NULL, ADV_CONNECTIONS, "nu",
	"too many connections for (role|database) " QN},
	{D_ANY, NAT_ERR_RESOURCE_EXHAUSTED, NULL, ADV_CONNECTIONS, "",
	"too many clients already|remaining connection slots are reserved|too many connections|max_user_connections"},
	{D_ANY, NAT_ERR_RESOURCE_EXHAUSTED, NULL, ADV_MEMORY, "",
	"out of (?:shared |sort )?memory|no memory or reach tenant memory limit|over tenant memory limits"},
	{D_MYSQL, NAT_ERR_RESOURCE_EXHAUSTED, NULL, ADV_DISK, "a",
	"the table " QN " is full"},
	{D_ANY, NAT_ERR_RESOURCE_EXHAUSTED, NULL, ADV_DISK, "",
	"no space left on device|could not extend file|disk (?:is )?full"},

	/* ---- values that do not fit ---- */
	{D_PG, NAT_ERR_INVALID_INPUT, NULL, ADV_TOO_LONG, "y",
	"value too long for type ([[:alpha:]][[:alnum:] _]*(?:\\([0-9, ]*\\))?)"},
	{D_PG, NAT_ERR_INVALID_INPUT, NULL, ADV_BAD_VALUE, "y",
	"invalid input syntax for (?:type )?([^:]*):"},
	{D_PG, NAT_ERR_INVALID_INPUT, NULL, ADV_BAD_VALUE, "y",
	"invalid input value for (enum [^:]*):"},
	{D_PG, NAT_ERR_INVALID_INPUT, NULL, ADV_OUT_OF_RANGE, "y",
	"(smallint|integer|bigint) out of range|numeric field overflow|value out of range|date/time field value out of range"},
	{D_ANY, NAT_ERR_INVALID_INPUT, NULL, ADV_DIVISION, "",
	"division by zero|division by 0|divisor is equal to zero|divided by zero"},
	{D_MYSQL, NAT_ERR_INVALID_INPUT, NULL, ADV_TOO_LONG, "k",
	"data too long for column " QN},
	{D_MYSQL, NAT_ERR_INVALID_INPUT, NULL, ADV_OUT_OF_RANGE, "k",
	"out of range value for column " QN},
	{D_MYSQL, NAT_ERR_INVALID_INPUT, NULL, ADV_BAD_VALUE, "yk",
	"incorrect ([[:alnum:]_]+) value(?:: '.*')? for column " QN},
	{D_ORACLE, NAT_ERR_INVALID_INPUT, NULL, ADV_TOO_LONG, "",
	"value too large for column"},
	{D_ORACLE, NAT_ERR_INVALID_INPUT, NULL, ADV_BAD_VALUE, "",
	"invalid number"},

	/* ---- connections ---- */
	{D_PG, NAT_ERR_CONNECTION_ERROR, NULL, ADV_CONNECT, "hp",
	"connection to server at " QN "(?: \\([^)]*\\))?, port ([0-9]+) failed"},
	{D_PG, NAT_ERR_CONNECTION_ERROR, NULL, ADV_CONNECT, "h",
	"connection to server on socket " QN " failed"},
	{D_PG, NAT_ERR_CONNECTION_ERROR, NULL, ADV_DNS, "h",
	"could not translate host name " QN " to address"},
	{D_MYSQL, NAT_ERR_CONNECTION_ERROR, NULL, ADV_DNS, "h",
	"unknown mysql server host " QN},
	{D_MYSQL, NAT_ERR_CONNECTION_ERROR, NULL, ADV_CONNECT, "h",
	"can't connect to (?:local )?(?:mysql )?server (?:on|through socket) " QN},
	{D_ANY, NAT_ERR_CONNECTION_ERROR, NULL, ADV_LOST, "",
	"server closed the connection unexpectedly|lost connection to (?:mysql )?server|server has gone away|terminating connection due to administrator command|connection reset by peer|econnreset|broken pipe|no connection to the server|connection terminated unexpectedly|end-of-file on communication channel"},
	{D_ANY, NAT_ERR_CONNECTION_ERROR, NULL, ADV_CONNECT, "",
	"could not connect|connection refused|econnrefused|unable to connect|can't connect|no route to host|network is unreachable|ehostunreach|enotfound|getaddrinfo|etimedout|connection timed out|timeout expired|tns:"},

	/* ---- loose fallbacks ---- */
	{D_ANY, NAT_ERR_SYNTAX_ERROR, NULL, ADV_SYNTAX, "",
	"syntax error"},
	{D_ANY, NAT_ERR_PERMISSION_DENIED, NULL, ADV_PERMISSION, "",
	"permission denied|access denied|not authorized|insufficient privilege"},
	{D_ANY, NAT_ERR_ALREADY_EXISTS, NULL, ADV_EXISTS, "",
	"already exists"},
	{D_ANY, NAT_ERR_TIMEOUT, NULL, ADV_TIMEOUT, "",
	"\\mtime(?:d ?| )?outs?\\M"},
};

/*
 * Name-only patterns: every match of each fills the roles the first
 * pattern left open (lists grow).  PostgreSQL's DETAIL and HINT lines
 * (as psql prints them), and hosts in client library messages.
 */
static const ErrorPattern extras[] = {
	{D_ANY, NAMES_ONLY, NULL, ADV_NONE, "k", "\\mkey \\(([^)]*)\\)="},
	{D_ANY, NAMES_ONLY, NULL, ADV_NONE, "r", "is not present in table " QN},
	{D_ANY, NAMES_ONLY, NULL, ADV_NONE, "d", "is still referenced from table " QN},
	{D_ANY, NAMES_ONLY, NULL, ADV_NONE, "cd",
	"(?:constraint " UN " on )?(?:table|view|materialized view|foreign table) " UN " depends on "},
	{D_ANY, NAMES_ONLY, NULL, ADV_NONE, "h", "is the server running on host " QN},
	{D_ANY, NAMES_ONLY, NULL, ADV_NONE, "p", "connections on port ([0-9]+)"},
	{D_ANY, NAMES_ONLY, NULL, ADV_NONE, "h",
	"(?:econnrefused|etimedout|ehostunreach|enotfound) ([^[:space:]]+)"},
	{D_ANY, NAMES_ONLY, NULL, ADV_NONE, "h", "dial tcp ([^[:space:]]+):[[:space:]]"},
	{D_ANY, NAMES_ONLY, NULL, ADV_NONE, "H", "^[[:space:]]*hint:[[:space:]]*(.*[^[:space:]])"},
};

/* a SQLSTATE, as codes found in the text may spell it */
#define SQLSTATE_RE "([0-9][0-9a-z]{4}|(?:hv|hy|p0|xx|f0)[0-9a-z]{3})"

/*
 * Where clients put the code in the text, when no code is given.  Roles:
 * s SQLSTATE, n MySQL/OceanBase error number, o ORA-/OBE- code, S a
 * symbolic MySQL name.
 */
static const ErrorPattern code_patterns[] = {
	/* mysql client, Go driver: ERROR 1146 (42S02): ... */
	{D_MYSQL, NAMES_ONLY, NULL, ADV_NONE, "ns",
	"\\merror:?[[:space:]]+([0-9]{4,5})[[:space:]]*\\(" SQLSTATE_RE "\\)"},
	/* JDBC tools: [42S02][1146] ... */
	{D_MYSQL, NAMES_ONLY, NULL, ADV_NONE, "sn", "\\[" SQLSTATE_RE "\\]\\[([0-9]{4,5})\\]"},

	/*
	 * PHP PDO with MySQL: SQLSTATE[23000]: Integrity constraint violation:
	 * 1062 ...
	 */
	{D_MYSQL, NAMES_ONLY, NULL, ADV_NONE, "sn",
	"sqlstate\\[" SQLSTATE_RE "\\]: [^:]*: ([0-9]{4,5}) "},
	/* PDO, pgx (SQLSTATE 42P01), "sqlState": "23505" */
	{D_ANY, NAMES_ONLY, NULL, ADV_NONE, "s",
	"sqlstate\"?[[:space:]]*(?:\\[|:|=)?[[:space:]]*\"?" SQLSTATE_RE "\\M"},
	/* psql with VERBOSITY verbose: ERROR:  42P01: ... */
	{D_PG, NAMES_ONLY, NULL, ADV_NONE, "s",
	"^[[:space:]]*(?:error|fatal|panic):[[:space:]]+" SQLSTATE_RE ":"},
	/* MySQL Workbench: Error Code: 3730. */
	{D_MYSQL, NAMES_ONLY, NULL, ADV_NONE, "n", "error code:?[[:space:]]*([0-9]{4,5})\\M"},
	/* pylibseekdb and others: code=1064 */
	{D_MYSQL, NAMES_ONLY, NULL, ADV_NONE, "n", "\\mcode[[:space:]]*[=:][[:space:]]*([0-9]{4,5})\\M"},
	/* PyMySQL: (1146, "Table ... doesn't exist") */
	{D_MYSQL, NAMES_ONLY, NULL, ADV_NONE, "n", "^\\(([0-9]{4,5}), "},
	/* phpMyAdmin: #1146 - Table ... */
	{D_MYSQL, NAMES_ONLY, NULL, ADV_NONE, "n", "#([0-9]{4,5}) - "},
	/* mysqljs (Node.js): ER_NO_SUCH_TABLE: Table ... */
	{D_MYSQL, NAMES_ONLY, NULL, ADV_NONE, "S", "^((?:er|cr)_[a-z0-9_]+): "},
	/* Oracle mode: ORA-00942: ..., SeekDB's OBE-00942 */
	{D_ORACLE, NAMES_ONLY, NULL, ADV_NONE, "o", "\\m((?:ora|obe)-[0-9]{5})"},
};

/* the category of an error number */
typedef struct NumberCategory
{
	int			number;
	const char *name;			/* symbolic name (mysql2, JDBC), or NULL */
	NatErrorKind kind;
	const char *portable_type;	/* NULL: the category's own */
	const char *sqlstate;		/* what MySQL reports with it, or NULL */
} NumberCategory;

/*
 * MySQL error numbers (server 1xxx/3xxx, client 2xxx), which SeekDB and
 * OceanBase report in MySQL mode too, then OceanBase's own numbers.
 */
static const NumberCategory mysql_numbers[] = {
	{1007, "ER_DB_CREATE_EXISTS", NAT_ERR_ALREADY_EXISTS, NULL, "HY000"},
	{1022, "ER_DUP_KEY", VIOLATION, "unique_constraint", "23000"},
	{1037, "ER_OUTOFMEMORY", NAT_ERR_RESOURCE_EXHAUSTED, NULL, "HY001"},
	{1038, "ER_OUT_OF_SORTMEMORY", NAT_ERR_RESOURCE_EXHAUSTED, NULL, "HY001"},
	{1040, "ER_CON_COUNT_ERROR", NAT_ERR_RESOURCE_EXHAUSTED, NULL, "08004"},
	{1041, "ER_OUT_OF_RESOURCES", NAT_ERR_RESOURCE_EXHAUSTED, NULL, "HY000"},
	{1044, "ER_DBACCESS_DENIED_ERROR", NAT_ERR_PERMISSION_DENIED, NULL, "42000"},
	{1045, "ER_ACCESS_DENIED_ERROR", NAT_ERR_AUTHENTICATION_ERROR, NULL, "28000"},
	{1048, "ER_BAD_NULL_ERROR", VIOLATION, "not_null_constraint", "23000"},
	{1049, "ER_BAD_DB_ERROR", NAT_ERR_INVALID_TABLE, NULL, "42000"},
	{1050, "ER_TABLE_EXISTS_ERROR", NAT_ERR_ALREADY_EXISTS, NULL, "42S01"},
	{1051, "ER_BAD_TABLE_ERROR", NAT_ERR_INVALID_TABLE, NULL, "42S02"},
	{1052, "ER_NON_UNIQ_ERROR", NAT_ERR_SYNTAX_ERROR, NULL, "23000"},
	{1054, "ER_BAD_FIELD_ERROR", NAT_ERR_INVALID_COLUMN, NULL, "42S22"},
	{1060, "ER_DUP_FIELDNAME", NAT_ERR_ALREADY_EXISTS, NULL, "42S21"},
	{1061, "ER_DUP_KEYNAME", NAT_ERR_ALREADY_EXISTS, NULL, "42000"},
	{1062, "ER_DUP_ENTRY", VIOLATION, "unique_constraint", "23000"},
	{1064, "ER_PARSE_ERROR", NAT_ERR_SYNTAX_ERROR, NULL, "42000"},
	{1109, "ER_UNKNOWN_TABLE", NAT_ERR_INVALID_TABLE, NULL, "42S02"},
	{1114, "ER_RECORD_FILE_FULL", NAT_ERR_RESOURCE_EXHAUSTED, NULL, "HY000"},
	{1142, "ER_TABLEACCESS_DENIED_ERROR", NAT_ERR_PERMISSION_DENIED, NULL, "42000"},
	{1143, "ER_COLUMNACCESS_DENIED_ERROR", NAT_ERR_PERMISSION_DENIED, NULL, "42000"},
	{1146, "ER_NO_SUCH_TABLE", NAT_ERR_INVALID_TABLE, NULL, "42S02"},
	{1149, "ER_SYNTAX_ERROR", NAT_ERR_SYNTAX_ERROR, NULL, "42000"},
	{1203, "ER_TOO_MANY_USER_CONNECTIONS", NAT_ERR_RESOURCE_EXHAUSTED, NULL, "42000"},
	{1205, "ER_LOCK_WAIT_TIMEOUT", NAT_ERR_TIMEOUT, NULL, "HY000"},
	{1213, "ER_LOCK_DEADLOCK", NAT_ERR_CONFLICT, "deadlock", "40001"},
	{1216, "ER_NO_REFERENCED_ROW", VIOLATION, "foreign_key_constraint", "23000"},
	{1217, "ER_ROW_IS_REFERENCED", VIOLATION, "foreign_key_constraint", "23000"},
	{1227, "ER_SPECIFIC_ACCESS_DENIED_ERROR", NAT_ERR_PERMISSION_DENIED, NULL, "42000"},
	{1251, "ER_NOT_SUPPORTED_AUTH_MODE", NAT_ERR_AUTHENTICATION_ERROR, NULL, "08004"},
	{1264, "ER_WARN_DATA_OUT_OF_RANGE", NAT_ERR_INVALID_INPUT, NULL, "22003"},
	{1290, "ER_OPTION_PREVENTS_STATEMENT", NAT_ERR_READ_ONLY_VIOLATION, NULL, "HY000"},
	{1292, "ER_TRUNCATED_WRONG_VALUE", NAT_ERR_INVALID_INPUT, NULL, "22007"},
	{1317, "ER_QUERY_INTERRUPTED", NAT_ERR_TIMEOUT, NULL, "70100"},
	{1364, "ER_NO_DEFAULT_FOR_FIELD", VIOLATION, "not_null_constraint", "HY000"},
	{1365, "ER_DIVISION_BY_ZERO", NAT_ERR_INVALID_INPUT, NULL, "22012"},
	{1366, "ER_TRUNCATED_WRONG_VALUE_FOR_FIELD", NAT_ERR_INVALID_INPUT, NULL, "HY000"},
	{1406, "ER_DATA_TOO_LONG", NAT_ERR_INVALID_INPUT, NULL, "22001"},
	{1451, "ER_ROW_IS_REFERENCED_2", VIOLATION, "foreign_key_constraint", "23000"},
	{1452, "ER_NO_REFERENCED_ROW_2", VIOLATION, "foreign_key_constraint", "23000"},
	{1586, "ER_DUP_ENTRY_WITH_KEY_NAME", VIOLATION, "unique_constraint", "23000"},
	{1698, "ER_ACCESS_DENIED_NO_PASSWORD_ERROR", NAT_ERR_AUTHENTICATION_ERROR, NULL, "28000"},
	{1792, "ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION", NAT_ERR_READ_ONLY_VIOLATION, NULL, "25006"},
	{2002, "CR_CONNECTION_ERROR", NAT_ERR_CONNECTION_ERROR, NULL, "HY000"},
	{2003, "CR_CONN_HOST_ERROR", NAT_ERR_CONNECTION_ERROR, NULL, "HY000"},
	{2005, "CR_UNKNOWN_HOST", NAT_ERR_CONNECTION_ERROR, NULL, "HY000"},
	{2006, "CR_SERVER_GONE_ERROR", NAT_ERR_CONNECTION_ERROR, NULL, "HY000"},
	{2013, "CR_SERVER_LOST", NAT_ERR_CONNECTION_ERROR, NULL, "HY000"},
	{2055, "CR_SERVER_LOST_EXTENDED", NAT_ERR_CONNECTION_ERROR, NULL, "HY000"},
	{3024, "ER_QUERY_TIMEOUT", NAT_ERR_TIMEOUT, NULL, "HY000"},
	{3730, "ER_FK_CANNOT_DROP_PARENT", NAT_ERR_DEPENDENT_OBJECTS, NULL, "HY000"},
	{3819, "ER_CHECK_CONSTRAINT_VIOLATED", VIOLATION, "check_constraint", "HY000"},
	/* OceanBase/SeekDB (src/share/ob_errno.def) */
	{4012, NULL, NAT_ERR_TIMEOUT, NULL, "HY000"},
	{4013, NULL, NAT_ERR_RESOURCE_EXHAUSTED, NULL, "HY001"},
	{4030, NULL, NAT_ERR_RESOURCE_EXHAUSTED, NULL, "HY000"},
	{6001, NULL, NAT_ERR_CONFLICT, NULL, "25000"},
	{6002, NULL, NAT_ERR_CONFLICT, NULL, "40000"},
	{6210, NULL, NAT_ERR_TIMEOUT, NULL, "25000"},
	{6212, NULL, NAT_ERR_TIMEOUT, NULL, "25000"},
};

/* ORA- numbers, as OceanBase/SeekDB report them in Oracle mode */
static const NumberCategory ora_numbers[] = {
	{1, NULL, VIOLATION, "unique_constraint", NULL},
	{54, NULL, NAT_ERR_TIMEOUT, NULL, NULL},
	{60, NULL, NAT_ERR_CONFLICT, "deadlock", NULL},
	{900, NULL, NAT_ERR_SYNTAX_ERROR, NULL, NULL},
	{904, NULL, NAT_ERR_INVALID_COLUMN, NULL, NULL},
	{923, NULL, NAT_ERR_SYNTAX_ERROR, NULL, NULL},
	{933, NULL, NAT_ERR_SYNTAX_ERROR, NULL, NULL},
	{936, NULL, NAT_ERR_SYNTAX_ERROR, NULL, NULL},
	{942, NULL, NAT_ERR_INVALID_TABLE, NULL, NULL},
	{955, NULL, NAT_ERR_ALREADY_EXISTS, NULL, NULL},
	{1017, NULL, NAT_ERR_AUTHENTICATION_ERROR, NULL, NULL},
	{1031, NULL, NAT_ERR_PERMISSION_DENIED, NULL, NULL},
	{1400, NULL, VIOLATION, "not_null_constraint", NULL},
	{1438, NULL, NAT_ERR_INVALID_INPUT, NULL, NULL},
	{1476, NULL, NAT_ERR_INVALID_INPUT, NULL, NULL},
	{1722, NULL, NAT_ERR_INVALID_INPUT, NULL, NULL},
	{2290, NULL, VIOLATION, "check_constraint", NULL},
	{2291, NULL, VIOLATION, "foreign_key_constraint", NULL},
	{2292, NULL, VIOLATION, "foreign_key_constraint", NULL},
	{2449, NULL, NAT_ERR_DEPENDENT_OBJECTS, NULL, NULL},
	{3113, NULL, NAT_ERR_CONNECTION_ERROR, NULL, NULL},
	{3114, NULL, NAT_ERR_CONNECTION_ERROR, NULL, NULL},
	{8177, NULL, NAT_ERR_CONFLICT, NULL, NULL},
	{12154, NULL, NAT_ERR_CONNECTION_ERROR, NULL, NULL},
	{12170, NULL, NAT_ERR_CONNECTION_ERROR, NULL, NULL},
	{12514, NULL, NAT_ERR_CONNECTION_ERROR, NULL, NULL},
	{12541, NULL, NAT_ERR_CONNECTION_ERROR, NULL, NULL},
	{12899, NULL, NAT_ERR_INVALID_INPUT, NULL, NULL},
	{30006, NULL, NAT_ERR_TIMEOUT, NULL, NULL},
};

/* codes of client libraries (Node.js, as n8n reports them) */
static const struct
{
	const char *name;
	NatErrorKind kind;
}			client_codes[] = {
	{"ECONNREFUSED", NAT_ERR_CONNECTION_ERROR},
	{"ECONNRESET", NAT_ERR_CONNECTION_ERROR},
	{"ETIMEDOUT", NAT_ERR_CONNECTION_ERROR},
	{"ENOTFOUND", NAT_ERR_CONNECTION_ERROR},
	{"EHOSTUNREACH", NAT_ERR_CONNECTION_ERROR},
	{"PROTOCOL_CONNECTION_LOST", NAT_ERR_CONNECTION_ERROR},
};

/* SQLSTATEs that MySQL and ODBC use and PostgreSQL does not */
static const struct
{
	const char *sqlstate;
	NatErrorKind kind;
}			odbc_sqlstates[] = {
	{"42S01", NAT_ERR_ALREADY_EXISTS},
	{"42S02", NAT_ERR_INVALID_TABLE},
	{"42S21", NAT_ERR_ALREADY_EXISTS},
	{"42S22", NAT_ERR_INVALID_COLUMN},
	{"08S01", NAT_ERR_CONNECTION_ERROR},
	{"HY001", NAT_ERR_RESOURCE_EXHAUSTED},
};

#endif							/* NAT_ERROR_PATTERN_TABLE_H */
