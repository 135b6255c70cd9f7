/*-------------------------------------------------------------------------
 *
 * describe_table.c
 *		  The describe_table tool: what an agent needs to know about a table.
 *
 * The table is resolved to an OID (names.c); a caller with no privilege on
 * it at all (the test list_tables applies) gets permission_denied and
 * learns nothing more.  Otherwise one generated catalog query, with every
 * relation, function and operator qualified with pg_catalog and the OID as
 * the bound parameter $1, builds the whole description as one jsonb
 * object:
 *
 *	 {"schema", "name", "kind", "comment", "estimated_rows", "rls",
 *	  "columns": [{"name", "type", "nullable", "default", "comment",
 *				   "generated"?, "identity"?, "privileges"?}],
 *	  "primary_key": [columns] or null,
 *	  "unique": [{"name", "columns"}],
 *	  "foreign_keys": [{"name", "columns", "references": {"table", "columns"},
 *						"on_delete", "on_update"}],
 *	  "referenced_by": [{"table", "constraint", "columns", "on_delete"}],
 *	  "indexes": [{"name", "definition", "unique", "primary"}],
 *	  "checks": [{"name", "definition"}],
 *	  "privileges": {"select", "insert", "update", "delete", "truncate",
 *					 "references", "trigger"},
 *	  "definition"?: the query of a view or materialized view,
 *	  "citus"?: {"table_type", "distribution_column"?, "colocation_id"?}}
 *
 * which becomes the single element of the answer's "data".  "citus" is
 * there for a table Citus manages, where Citus is installed (sql/citus.c).
 * A Citus shard's name ("events_102008") is answered with its table's
 * description and a "note" saying so: shards are Citus's internals.
 *
 * What the caller may not use stays out: columns with no privilege for
 * the caller (column privileges), and constraints and indexes over such a
 * column.  A caller whose column privileges go beyond its privileges on
 * the table sees, on each column, what it may do with it
 * ("privileges": {"select", "insert", "update"}).  Names of other tables do appear, as in PostgreSQL's own
 * catalogs: the tables this one references, and the tables (and their
 * columns) whose foreign keys reference this one, whatever the caller's
 * privileges on those; knowing them is what makes a delete predictable.
 *
 * IDENTIFICATION
 *		  src/tools/describe_table.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "tools/tools.h"
#include "tools/params.h"
#include "plan/tool_plan.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

static void describe_table(ToolCall *call, const void *targs, ToolPlan *plan);

static const ToolParam describe_table_params[] = {
	NAT_PARAM_TABLE("or view to describe"),
	NAT_PARAM_TIMEOUT_MS,
};

const ToolDef nat_tool_describe_table = {
	.name = "describe_table",
	.title = "Describe a table",
	.description = "Describe one table or view: its columns (name, type, nullable, default, comment), primary key, unique constraints, "
	"foreign keys with the tables and columns they reference, the tables whose foreign keys reference it (referenced_by, with their on_delete action), "
	"indexes, check constraints, the privileges your role has on it (select, insert, update, delete, ...), its estimated row count and whether row-level security is on. "
	"Use it before querying or changing a table to learn its exact column names and types, and before deleting rows to see what references them. "
	"Columns your role has no privilege on are left out; when your privileges are granted per column, each column shows its own. The answer's data holds one object. "
	"On Citus, a distributed, reference or Citus local table also has citus: its table_type, distribution_column and colocation_id; a shard's name is answered with its table. "
	"Example: {\"table\": \"public.orders\"}",
	.operation = NAT_OP_DESCRIBE,
	NAT_TOOL_PARAMS(describe_table_params, CommonArgs), /* table, timeout_ms */
	NAT_TOOL_READS,
	.plan = describe_table,
};

/* the parts of the description query that depend on the database */
typedef struct DescribeVariant
{
	StringInfoData estimated_rows;	/* nat_append_estimated_rows() */
	StringInfoData citus;		/* nat_append_citus_description() */
} DescribeVariant;

/* the privileges that make a column visible to the caller */
#define COLUMN_PRIVS "'SELECT, INSERT, UPDATE'"

/*
 * The names of the columns listed in the attribute-number array "keys" of
 * relation "rel" (SQL expressions), as a jsonb array in their order.
 */
static void
append_key_names(StringInfo buf, const char *keys, const char *rel)
{
	appendStringInfo(buf,
					 "(SELECT pg_catalog.jsonb_agg(a.attname::pg_catalog.text ORDER BY k.i)"
					 " FROM pg_catalog.unnest(%s) WITH ORDINALITY k(attnum, i)"
					 " JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) %s"
					 " AND a.attnum OPERATOR(pg_catalog.=) k.attnum)",
					 keys, rel);
}

/*
 * A condition: every column of "keys" (of relation "rel") is visible to
 * the caller.  Zeros (index expressions) are skipped.
 */
static void
append_keys_visible(StringInfo buf, const char *keys, const char *rel)
{
	appendStringInfo(buf,
					 "NOT EXISTS (SELECT FROM pg_catalog.unnest(%s) k(attnum)"
					 " WHERE k.attnum OPERATOR(pg_catalog.<>) 0"
					 " AND NOT pg_catalog.has_column_privilege(%s, k.attnum, " COLUMN_PRIVS "))",
					 keys, rel);
}

/*
 * A condition: the caller has a privilege on some column of table c that
 * it does not have on the whole table (column privileges).  Only then do
 * the columns carry their own "privileges".
 */
static void
append_column_grants_matter(StringInfo buf)
{
	static const char *const privs[] = {"SELECT", "INSERT", "UPDATE"};
	int			i;

	appendStringInfoChar(buf, '(');
	for (i = 0; i < lengthof(privs); i++)
		appendStringInfo(buf,
						 "%sNOT pg_catalog.has_table_privilege(c.oid, '%s')"
						 " AND pg_catalog.has_any_column_privilege(c.oid, '%s')",
						 i > 0 ? " OR " : "", privs[i], privs[i]);
	appendStringInfoChar(buf, ')');
}

/*
 * A foreign key action ("confdeltype" or "confupdtype" of con) in words.
 */
static void
append_fk_action(StringInfo buf, const char *field)
{
	static const char *const actions[][2] = {
		{"c", "cascade"}, {"n", "set null"}, {"d", "set default"},
		{"r", "restrict"}
	};
	int			i;

	appendStringInfoString(buf, "CASE");
	for (i = 0; i < lengthof(actions); i++)
		appendStringInfo(buf, " WHEN con.%s OPERATOR(pg_catalog.=) '%s' THEN '%s'",
						 field, actions[i][0], actions[i][1]);
	appendStringInfoString(buf, " ELSE 'no action' END");
}

/*
 * Texts of the description that have no size limit of their own (comments,
 * defaults, definitions) are clipped to this many characters, and a view's
 * query to NAT_MAX_SQL, with an ellipsis: a 100 MB comment would otherwise
 * make a 100 MB answer.
 */
#define DESCRIBE_TEXT_CHARS 1000

/*
 * The text expression expr, clipped to chars characters with an ellipsis.
 */
static void
append_clipped(StringInfo buf, const char *expr, int chars)
{
	appendStringInfo(buf,
					 "pg_catalog.left(%s, %d) OPERATOR(pg_catalog.||)"
					 " CASE WHEN pg_catalog.length(%s) OPERATOR(pg_catalog.>) %d"
					 " THEN '%s' ELSE '' END",
					 expr, chars, expr, chars,
					 GetDatabaseEncoding() == PG_UTF8 ? "\xe2\x80\xa6" : "...");
}

/*
 * The description's "columns": those the caller has a privilege on.
 */
static void
append_describe_columns(StringInfo buf)
{
	/* columns the caller has a privilege on, in table order */
	appendStringInfoString(buf,
						   " 'columns', COALESCE((SELECT pg_catalog.jsonb_agg("
						   "pg_catalog.jsonb_build_object("
						   "'name', a.attname::pg_catalog.text,"
						   " 'type', pg_catalog.format_type(a.atttypid, a.atttypmod),"
						   " 'nullable', NOT a.attnotnull,"
						   " 'default', CASE WHEN a.attgenerated OPERATOR(pg_catalog.=) ''"
						   " THEN ");
	append_clipped(buf, "pg_catalog.pg_get_expr(d.adbin, d.adrelid)", DESCRIBE_TEXT_CHARS);
	appendStringInfoString(buf, " END, 'comment', ");
	append_clipped(buf, "pg_catalog.col_description(a.attrelid, a.attnum)", DESCRIBE_TEXT_CHARS);
	appendStringInfoString(buf,
						   ")"
						   " OPERATOR(pg_catalog.||) CASE WHEN a.attgenerated OPERATOR(pg_catalog.<>) ''"
						   " THEN pg_catalog.jsonb_build_object('generated', ");
	append_clipped(buf, "pg_catalog.pg_get_expr(d.adbin, d.adrelid)", DESCRIBE_TEXT_CHARS);
	appendStringInfoString(buf,
						   ") ELSE '{}' END"
						   " OPERATOR(pg_catalog.||) CASE WHEN a.attidentity OPERATOR(pg_catalog.=) 'a'"
						   " THEN pg_catalog.jsonb_build_object('identity', 'always')"
						   " WHEN a.attidentity OPERATOR(pg_catalog.=) 'd'"
						   " THEN pg_catalog.jsonb_build_object('identity', 'by default')"
						   " ELSE '{}' END"
						   " OPERATOR(pg_catalog.||) CASE WHEN ");
	append_column_grants_matter(buf);
	appendStringInfoString(buf,
						   " THEN pg_catalog.jsonb_build_object('privileges', pg_catalog.jsonb_build_object("
						   "'select', pg_catalog.has_column_privilege(c.oid, a.attnum, 'SELECT'),"
						   " 'insert', pg_catalog.has_column_privilege(c.oid, a.attnum, 'INSERT'),"
						   " 'update', pg_catalog.has_column_privilege(c.oid, a.attnum, 'UPDATE')))"
						   " ELSE '{}' END"
						   " ORDER BY a.attnum)"
						   " FROM pg_catalog.pg_attribute a"
						   " LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid OPERATOR(pg_catalog.=) a.attrelid"
						   " AND d.adnum OPERATOR(pg_catalog.=) a.attnum"
						   " WHERE a.attrelid OPERATOR(pg_catalog.=) c.oid"
						   " AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped"
						   " AND pg_catalog.has_column_privilege(c.oid, a.attnum, " COLUMN_PRIVS ")), '[]'),");
}

/*
 * The description's "primary_key" and "unique".
 */
static void
append_describe_keys(StringInfo buf)
{
	/* primary key: its columns, or null */
	appendStringInfoString(buf, " 'primary_key', (SELECT ");
	append_key_names(buf, "con.conkey", "con.conrelid");
	appendStringInfoString(buf,
						   " FROM pg_catalog.pg_constraint con"
						   " WHERE con.conrelid OPERATOR(pg_catalog.=) c.oid"
						   " AND con.contype OPERATOR(pg_catalog.=) 'p' AND ");
	append_keys_visible(buf, "con.conkey", "con.conrelid");
	appendStringInfoString(buf, "),");

	/* unique constraints */
	appendStringInfoString(buf,
						   " 'unique', COALESCE((SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object("
						   "'name', con.conname::pg_catalog.text, 'columns', ");
	append_key_names(buf, "con.conkey", "con.conrelid");
	appendStringInfoString(buf,
						   ") ORDER BY con.conname)"
						   " FROM pg_catalog.pg_constraint con"
						   " WHERE con.conrelid OPERATOR(pg_catalog.=) c.oid"
						   " AND con.contype OPERATOR(pg_catalog.=) 'u' AND ");
	append_keys_visible(buf, "con.conkey", "con.conrelid");
	appendStringInfoString(buf, "), '[]'),");
}

/*
 * The description's "foreign_keys" and "referenced_by".
 */
static void
append_describe_foreign_keys(StringInfo buf)
{
	/*
	 * Foreign keys of this table.  A foreign key to a partitioned table also
	 * has one clone per referenced partition, on this same table: those are
	 * left out.
	 */
	appendStringInfoString(buf,
						   " 'foreign_keys', COALESCE((SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object("
						   "'name', con.conname::pg_catalog.text, 'columns', ");
	append_key_names(buf, "con.conkey", "con.conrelid");
	appendStringInfoString(buf,
						   ", 'references', pg_catalog.jsonb_build_object("
						   "'table', pg_catalog.format('%I.%I', rn.nspname, r.relname), 'columns', ");
	append_key_names(buf, "con.confkey", "con.confrelid");
	appendStringInfoString(buf, "), 'on_delete', ");
	append_fk_action(buf, "confdeltype");
	appendStringInfoString(buf, ", 'on_update', ");
	append_fk_action(buf, "confupdtype");
	appendStringInfoString(buf,
						   ") ORDER BY con.conname)"
						   " FROM pg_catalog.pg_constraint con"
						   " JOIN pg_catalog.pg_class r ON r.oid OPERATOR(pg_catalog.=) con.confrelid"
						   " JOIN pg_catalog.pg_namespace rn ON rn.oid OPERATOR(pg_catalog.=) r.relnamespace"
						   " WHERE con.conrelid OPERATOR(pg_catalog.=) c.oid"
						   " AND con.contype OPERATOR(pg_catalog.=) 'f'"
						   " AND NOT EXISTS (SELECT FROM pg_catalog.pg_constraint p"
						   " WHERE p.oid OPERATOR(pg_catalog.=) con.conparentid"
						   " AND p.conrelid OPERATOR(pg_catalog.=) con.conrelid) AND ");
	append_keys_visible(buf, "con.conkey", "con.conrelid");
	appendStringInfoString(buf, "), '[]'),");

	/*
	 * Foreign keys of other tables that reference this one (names only,
	 * whatever the caller's privileges on those tables).  The constraints a
	 * partitioned referencing table passes on to its partitions repeat their
	 * parent: those are left out.
	 */
	appendStringInfoString(buf,
						   " 'referenced_by', COALESCE((SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object("
						   "'table', pg_catalog.format('%I.%I', rn.nspname, r.relname),"
						   " 'constraint', con.conname::pg_catalog.text, 'columns', ");
	append_key_names(buf, "con.conkey", "con.conrelid");
	appendStringInfoString(buf, ", 'on_delete', ");
	append_fk_action(buf, "confdeltype");
	appendStringInfoString(buf,
						   ") ORDER BY rn.nspname, r.relname, con.conname)"
						   " FROM pg_catalog.pg_constraint con"
						   " JOIN pg_catalog.pg_class r ON r.oid OPERATOR(pg_catalog.=) con.conrelid"
						   " JOIN pg_catalog.pg_namespace rn ON rn.oid OPERATOR(pg_catalog.=) r.relnamespace"
						   " WHERE con.confrelid OPERATOR(pg_catalog.=) c.oid"
						   " AND con.contype OPERATOR(pg_catalog.=) 'f'"
						   " AND NOT EXISTS (SELECT FROM pg_catalog.pg_constraint p"
						   " WHERE p.oid OPERATOR(pg_catalog.=) con.conparentid"
						   " AND p.confrelid OPERATOR(pg_catalog.=) con.confrelid)), '[]'),");
}

/*
 * The description's "indexes" and "checks".
 */
static void
append_describe_indexes(StringInfo buf)
{
	/*
	 * Indexes over visible columns; an index with expressions or a predicate
	 * only if every column is visible (they may name any).
	 */
	appendStringInfoString(buf,
						   " 'indexes', COALESCE((SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object("
						   "'name', ic.relname::pg_catalog.text,"
						   " 'definition', ");
	append_clipped(buf, "pg_catalog.pg_get_indexdef(i.indexrelid)", DESCRIBE_TEXT_CHARS);
	appendStringInfoString(buf,
						   ", 'unique', i.indisunique, 'primary', i.indisprimary)"
						   " ORDER BY ic.relname)"
						   " FROM pg_catalog.pg_index i"
						   " JOIN pg_catalog.pg_class ic ON ic.oid OPERATOR(pg_catalog.=) i.indexrelid"
						   " WHERE i.indrelid OPERATOR(pg_catalog.=) c.oid AND ");
	append_keys_visible(buf, "i.indkey::pg_catalog.int2[]", "i.indrelid");
	appendStringInfoString(buf,
						   " AND (i.indexprs IS NULL AND i.indpred IS NULL"
						   " OR NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a"
						   " WHERE a.attrelid OPERATOR(pg_catalog.=) c.oid"
						   " AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped"
						   " AND NOT pg_catalog.has_column_privilege(c.oid, a.attnum, " COLUMN_PRIVS ")))"
						   "), '[]'),");

	/* check constraints over visible columns */
	appendStringInfoString(buf,
						   " 'checks', COALESCE((SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object("
						   "'name', con.conname::pg_catalog.text,"
						   " 'definition', ");
	append_clipped(buf, "pg_catalog.pg_get_constraintdef(con.oid)", DESCRIBE_TEXT_CHARS);
	appendStringInfoString(buf,
						   ") ORDER BY con.conname)"
						   " FROM pg_catalog.pg_constraint con"
						   " WHERE con.conrelid OPERATOR(pg_catalog.=) c.oid"
						   " AND con.contype OPERATOR(pg_catalog.=) 'c' AND ");
	append_keys_visible(buf, "con.conkey", "con.conrelid");
	appendStringInfoString(buf, "), '[]'),");
}

/*
 * Generate the description query; $1 is the relation's OID.  (A simple
 * CASE compares with an unqualified "=", so every CASE here is a searched
 * one, with OPERATOR(pg_catalog.=).)  variant holds the parts that depend
 * on the database: the SQL expression of the table's estimated row count,
 * then the text that adds the "citus" member (nat_describe_variant()).
 */
static char *
build_describe_sql(const DescribeVariant *variant)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoString(&buf,
						   "SELECT pg_catalog.jsonb_build_object("
						   "'schema', n.nspname::pg_catalog.text,"
						   " 'name', c.relname::pg_catalog.text,"
						   " 'kind', CASE WHEN c.relkind OPERATOR(pg_catalog.=) 'r' THEN 'table'"
						   " WHEN c.relkind OPERATOR(pg_catalog.=) 'p' THEN 'partitioned table'"
						   " WHEN c.relkind OPERATOR(pg_catalog.=) 'v' THEN 'view'"
						   " WHEN c.relkind OPERATOR(pg_catalog.=) 'm' THEN 'materialized view'"
						   " ELSE 'foreign table' END,"
						   " 'comment', ");
	append_clipped(&buf, "pg_catalog.obj_description(c.oid, 'pg_class')", DESCRIBE_TEXT_CHARS);
	appendStringInfoString(&buf, ", 'estimated_rows', ");
	appendStringInfoString(&buf, variant->estimated_rows.data);
	appendStringInfoString(&buf, ", 'rls', c.relrowsecurity,");

	append_describe_columns(&buf);
	append_describe_keys(&buf);
	append_describe_foreign_keys(&buf);
	append_describe_indexes(&buf);

	/* the caller's own privileges on the table */
	appendStringInfoString(&buf,
						   " 'privileges', pg_catalog.jsonb_build_object("
						   "'select', pg_catalog.has_table_privilege(c.oid, 'SELECT'),"
						   " 'insert', pg_catalog.has_table_privilege(c.oid, 'INSERT'),"
						   " 'update', pg_catalog.has_table_privilege(c.oid, 'UPDATE'),"
						   " 'delete', pg_catalog.has_table_privilege(c.oid, 'DELETE'),"
						   " 'truncate', pg_catalog.has_table_privilege(c.oid, 'TRUNCATE'),"
						   " 'references', pg_catalog.has_table_privilege(c.oid, 'REFERENCES'),"
						   " 'trigger', pg_catalog.has_table_privilege(c.oid, 'TRIGGER')))");

	/* the query of a view */
	appendStringInfoString(&buf,
						   " OPERATOR(pg_catalog.||) CASE WHEN c.relkind OPERATOR(pg_catalog.=) ANY ('{v,m}'::pg_catalog.\"char\"[])"
						   " THEN pg_catalog.jsonb_build_object('definition', ");
	append_clipped(&buf, "pg_catalog.pg_get_viewdef(c.oid)", NAT_MAX_SQL);
	appendStringInfoString(&buf, ") ELSE '{}' END");

	/* how Citus keeps the table, where Citus is installed */
	appendStringInfoString(&buf, variant->citus.data);
	appendStringInfoString(&buf,
						   " FROM pg_catalog.pg_class c"
						   " JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace"
						   " WHERE c.oid OPERATOR(pg_catalog.=) $1");
	return buf.data;
}

/*
 * The description query, built once per backend and kept: it is the same
 * for every table, and only the parts that depend on the database can
 * change (the estimated row count leaves out Citus's distributed tables,
 * and the "citus" member is there, once Citus is installed), so the text
 * is built again only when those change.  The text returned must not be
 * modified or freed.
 */
static const char *
describe_sql(void)
{
	static char *cached_sql = NULL;
	static char *cached_variant = NULL;
	DescribeVariant variant;
	StringInfoData key;

	initStringInfo(&variant.estimated_rows);
	nat_append_estimated_rows(&variant.estimated_rows);
	initStringInfo(&variant.citus);
	nat_append_citus_description(&variant.citus);
	initStringInfo(&key);
	appendStringInfo(&key, "%s|%s", variant.estimated_rows.data, variant.citus.data);
	if (cached_sql == NULL || strcmp(cached_variant, key.data) != 0)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
		char	   *sql = build_describe_sql(&variant);
		char	   *kept = pstrdup(key.data);

		MemoryContextSwitchTo(old);
		if (cached_sql != NULL)
		{
			pfree(cached_sql);
			pfree(cached_variant);
		}
		cached_sql = sql;
		cached_variant = kept;
	}
	pfree(variant.estimated_rows.data);
	pfree(variant.citus.data);
	pfree(key.data);
	return cached_sql;
}

/*
 * A Citus shard's name was given: describe its table instead, saying so in
 * the answer's "note" (shards are Citus's internals; the agent queries the
 * table and Citus routes to the shards).  The shard's lock is let go before
 * the table's is taken, so this never holds a shard while waiting for its
 * table (Citus's DDL locks the table first).  A caller who may not see the
 * table hears permission_denied for the name it gave, and nothing about the
 * table.
 */
static Oid
describe_shard_table(ToolCall *call, ToolPlan *plan, Oid shard, Oid table)
{
	if (!nat_relation_visible_to_caller(table, get_rel_namespace(table)))
		nat_throw_no_privilege(shard, "$.table");
	UnlockRelationOid(shard, AccessShareLock);
	LockRelationOid(table, AccessShareLock);
	call->table = nat_relation_display_name(table);
	plan->note = psprintf("The name given is a shard of the Citus table %s, which is described instead: use %s in your calls, Citus reads and writes its shards.",
						  call->table, call->table);
	return table;
}

/*
 * describe_table(table, timeout_ms)
 */
static void
describe_table(ToolCall *call, const void *targs, ToolPlan *plan)
{
	Oid			relid;
	Oid			table;

	relid = nat_resolve_call_table(call);
	table = nat_citus_shard_parent(relid);
	if (OidIsValid(table))
		relid = describe_shard_table(call, plan, relid, table);
	plan->relid = relid;

	if (!nat_relation_visible_to_caller(relid, get_rel_namespace(relid)))
		nat_throw_no_privilege(relid, NULL);

	plan->run = PLAN_VALUE;
	plan->value_shape = PLAN_VALUE_ROW;
	plan->sql = describe_sql();
	nat_params_add(&plan->params, OIDOID, ObjectIdGetDatum(relid), false);
}
