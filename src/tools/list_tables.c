/*-------------------------------------------------------------------------
 *
 * list_tables.c
 *		  The list_tables tool: the tables and views the caller can use.
 *
 * One catalog query, generated with every relation, function and operator
 * qualified with pg_catalog (so a hostile search_path changes nothing) and
 * every value the agent gave bound as a parameter:
 *
 *	 SELECT n.nspname::text AS schema, c.relname::text AS name,
 *			CASE ... END AS kind, <reltuples, or null> AS estimated_rows,
 *			<obj_description(c.oid, 'pg_class'), 1000 characters> AS comment,
 *			c.relrowsecurity AS rls
 *	 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 *	 WHERE c.relkind = ANY ('{r,p,v,m,f}') AND NOT c.relispartition
 *	   AND <one schema ($n), or every schema but the system's>
 *	   [AND c.relname ILIKE $n]
 *	   [AND neither c nor n belongs to an extension (pg_depend, deptype 'e')]
 *	   [AND c is not a Citus shard (pg_dist_shard; where Citus is installed)]
 *	   AND <the caller has a privilege on it>
 *	 ORDER BY n.nspname, c.relname LIMIT $k [OFFSET $m]
 *
 * streamed into the answer like any other query (execute.c), so the row
 * and byte caps and the truncation report apply.  A relation is listed
 * only if the caller has USAGE on its schema and some privilege on it
 * (SELECT, INSERT, UPDATE or DELETE on the table, or on one of its
 * columns): the same test names.c applies to its suggestions.  Partitions
 * are left out to keep the list compact; their partitioned parent is
 * listed.  So are, unless include_extension_objects is true, the objects
 * of extensions: relations that are members of one, and every relation in
 * a schema that is (an extension's internal tables and views, such as
 * Citus's citus_tables and columnar.*, are not the agent's data).  Citus's
 * shards are never listed (sql/citus.c): the agent uses their table.
 *
 * IDENTIFICATION
 *		  src/tools/list_tables.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/catalog.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "tools/tools.h"
#include "tools/params.h"
#include "plan/tool_plan.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/lsyscache.h"

static void list_tables(ToolCall *call, const void *targs, ToolPlan *plan);

/* the decoded arguments */
typedef struct ListTablesArgs
{
	CommonArgs	common;			/* limit, offset, timeout_ms */
	char	   *schema;
	char	   *pattern;
	NatBoolArg	include_extension_objects;
} ListTablesArgs;

static const ToolParam list_tables_params[] = {
	{
		.name = "schema",
		.decode = NAT_DECODE_TEXT,.offset = offsetof(ListTablesArgs, schema),
		.types = NAT_JSON_STRING,
		.description = "List only this schema's tables, e.g. \"public\". By default every schema you can use, except the system schemas.",
		.examples_json = "[\"public\", \"sales\"]",
		.max_length = NAT_MAX_QUOTED_IDENTIFIER,
	},
	{
		.name = "pattern",
		.decode = NAT_DECODE_TEXT,.offset = offsetof(ListTablesArgs, pattern),
		.types = NAT_JSON_STRING,
		.description = "List only tables whose name matches this LIKE pattern, ignoring case: % matches any text, _ one character. E.g. \"order%\" or \"%customer%\".",
		.examples_json = "[\"order%\", \"%customer%\"]",
		.max_length = NAT_MAX_PATTERN,
	},
	NAT_PARAM_SWITCH("include_extension_objects", offsetof(ListTablesArgs, include_extension_objects),
					 "Also list the tables and views that belong to installed extensions (their own objects, such as pg_stat_statements or Citus's citus_tables), and those in schemas an extension owns (such as columnar). Left out by default."),
	NAT_PARAM_LIMIT("tables"),
	NAT_PARAM_OFFSET("Tables (the list is ordered by schema and name)"),
	NAT_PARAM_FORMAT("the tables"),
	NAT_PARAM_TIMEOUT_MS,
};

const ToolDef nat_tool_list_tables = {
	.name = "list_tables",
	.title = "List the tables you can use",
	.description = "List the tables, views, materialized views, foreign tables and partitioned tables your database role can use, "
	"each with its schema, name, kind, estimated_rows (the planner's estimate, not an exact count; null if unknown: never analyzed, or a Citus distributed table), comment and rls (whether row-level security is enabled). "
	"Use it first when you do not know the database, then call describe_table for the columns of a table. "
	"Only objects you have a privilege on are listed; partitions are left out (use their partitioned parent), so are Citus's shards (use their table), and so are the objects of installed extensions unless include_extension_objects is true. "
	"Filter with schema and with pattern, a case-insensitive LIKE pattern on the name. "
	"Example: {\"schema\": \"public\", \"pattern\": \"%order%\", \"limit\": 50}",
	.operation = NAT_OP_LIST,
	NAT_TOOL_PARAMS(list_tables_params, ListTablesArgs),
	NAT_TOOL_READS,
	.plan = list_tables,
};

/*
 * The kind of a relation, from its relkind (one of r, p, v, m, f).
 */
#define KIND_CASE \
	"CASE WHEN c.relkind OPERATOR(pg_catalog.=) 'r' THEN 'table'" \
	" WHEN c.relkind OPERATOR(pg_catalog.=) 'p' THEN 'partitioned table'" \
	" WHEN c.relkind OPERATOR(pg_catalog.=) 'v' THEN 'view'" \
	" WHEN c.relkind OPERATOR(pg_catalog.=) 'm' THEN 'materialized view'" \
	" ELSE 'foreign table' END"

/*
 * The estimated_rows expression of the relation c (list_tables and
 * describe_table): the planner's estimate, reltuples, or null when there
 * is none: never analyzed (-1), or a table whose rows Citus keeps in
 * shards (one its pg_dist_partition lists), whose local table stays empty
 * whatever it holds.  The Citus test is generated only where that catalog
 * exists.
 *
 * A partitioned table holds no rows itself, and autovacuum never analyzes
 * it (only its partitions), so its own reltuples stays -1 unless someone
 * runs ANALYZE on it: its estimate is the sum of its leaf partitions'
 * (those analyzed), found through pg_inherits rather than
 * pg_partition_tree(), which would lock every partition.
 */
void
nat_append_estimated_rows(StringInfo sql)
{
	appendStringInfoString(sql, "CASE");
	if (OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE)))
		appendStringInfoString(sql,
							   " WHEN EXISTS (SELECT FROM pg_catalog.pg_dist_partition p"
							   " WHERE p.logicalrelid::pg_catalog.oid OPERATOR(pg_catalog.=) c.oid) THEN NULL");
	appendStringInfoString(sql,
						   " WHEN c.relkind OPERATOR(pg_catalog.=) 'p' THEN COALESCE(("
						   "WITH RECURSIVE tree(relid) AS ("
						   "SELECT i.inhrelid FROM pg_catalog.pg_inherits i"
						   " WHERE i.inhparent OPERATOR(pg_catalog.=) c.oid"
						   " UNION ALL SELECT i.inhrelid FROM pg_catalog.pg_inherits i, tree"
						   " WHERE i.inhparent OPERATOR(pg_catalog.=) tree.relid)"
						   " SELECT pg_catalog.sum(l.reltuples::pg_catalog.float8)::pg_catalog.int8"
						   " FROM tree, pg_catalog.pg_class l"
						   " WHERE l.oid OPERATOR(pg_catalog.=) tree.relid"
						   " AND l.relkind OPERATOR(pg_catalog.<>) 'p'"
						   " AND l.reltuples OPERATOR(pg_catalog.>=) '0'),"
						   " CASE WHEN c.reltuples OPERATOR(pg_catalog.>=) '0'"
						   " THEN c.reltuples::pg_catalog.int8 END)"
						   " WHEN c.reltuples OPERATOR(pg_catalog.>=) '0'"
						   " THEN c.reltuples::pg_catalog.int8 END");
}

/*
 * Is nspid a schema whose tables an agent may be shown by default?  Not
 * the system's, nor a temporary schema: the tools never resolve a name to
 * a temporary table, so listing one would offer what cannot be used.
 */
static bool
listable_schema(Oid nspid)
{
	return !IsCatalogNamespace(nspid) && !IsToastNamespace(nspid) &&
		!isAnyTempNamespace(nspid) &&
		strcmp(get_namespace_name(nspid), "information_schema") != 0;
}

/*
 * The schema the caller may use whose name is closest to name (lower
 * case), or NULL.
 */
static const char *
closest_schema(const char *name)
{
	Relation	nsprel;
	TableScanDesc scan;
	HeapTuple	tuple;
	List	   *names = NIL;
	const char **candidates;
	ListCell   *lc;

	nsprel = table_open(NamespaceRelationId, AccessShareLock);
	scan = table_beginscan_catalog(nsprel, 0, NULL);
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		Form_pg_namespace form = (Form_pg_namespace) GETSTRUCT(tuple);

		if (!listable_schema(form->oid) ||
			nat_namespace_aclcheck(form->oid, GetUserId(), ACL_USAGE) != ACLCHECK_OK)
			continue;
		names = lappend(names, pstrdup(NameStr(form->nspname)));
	}
	table_endscan(scan);
	table_close(nsprel, AccessShareLock);

	candidates = palloc(sizeof(char *) * Max(list_length(names), 1));
	foreach(lc, names)
		candidates[foreach_current_index(lc)] = lfirst(lc);
	return nat_closest_word(name, candidates, list_length(names));
}

/*
 * Resolve the schema argument: a name as written ("Sales" or "\"Sales\""),
 * else folded to lower case unless it was quoted.  An unknown schema is an
 * invalid_table error (3F000) with the closest schema the caller may use.
 */
static Oid
resolve_schema(const char *str)
{
	const char *p = str;
	bool		quoted = false;
	char	   *name = nat_read_identifier(&p, &quoted);
	Oid			nspid;
	const char *close;
	ToolError  *err;

	while (name && isspace((unsigned char) *p))
		p++;
	if (name == NULL || *p != '\0')
	{
		/* not one identifier: take the text as the name itself */
		name = pstrdup(str);
		quoted = true;
	}
	nspid = get_namespace_oid(name, true);
	if (!OidIsValid(nspid) && !quoted)
		nspid = get_namespace_oid(asc_tolower(name, strlen(name)), true);
	if (OidIsValid(nspid))
		return nspid;

	err = nat_error(NAT_ERR_INVALID_TABLE, "schema \"%s\" does not exist", str);
	err->sqlerrcode = ERRCODE_UNDEFINED_SCHEMA;
	err->path = pstrdup("$.schema");
	err->affected_resources = list_make1(pstrdup(str));
	close = closest_schema(asc_tolower(name, strlen(name)));
	if (close)
	{
		nat_error_offer(err, close, psprintf("Retry with \"schema\": \"%s\".", close));
	}
	else
		err->suggestion = pstrdup("Omit \"schema\" to list the tables of every schema you can use.");
	nat_throw(err);
}

/*
 * Warn that a schema an extension owns lists nothing by default.
 */
static void
warn_extension_schema(ToolPlan *plan, Oid nspid)
{
	Oid			extid = getExtensionOfObject(NamespaceRelationId, nspid);
	char	   *extname = OidIsValid(extid) ? get_extension_name(extid) : NULL;

	if (extname)
		nat_plan_add_warning(plan,
							 psprintf("Schema %s belongs to extension %s, so its objects are left out; pass include_extension_objects: true to list them.",
									  quote_identifier(get_namespace_name(nspid)),
									  quote_identifier(extname)));
}

/*
 * list_tables(schema, pattern, include_extension_objects, limit, offset,
 *			   timeout_ms)
 */
static void
list_tables(ToolCall *call, const void *targs, ToolPlan *plan)
{
	const ListTablesArgs *args = targs;
	char	   *schema = args->schema;
	char	   *pattern = args->pattern;
	bool		extension_objects = args->include_extension_objects.value;
	StringInfoData sql;
	QueryParams *params = &plan->params;

	initStringInfo(&sql);
	appendStringInfoString(&sql,
						   "SELECT n.nspname::pg_catalog.text AS schema,"
						   " c.relname::pg_catalog.text AS name, "
						   KIND_CASE " AS kind, ");
	nat_append_estimated_rows(&sql);
	appendStringInfoString(&sql,
						   " AS estimated_rows,"
						   " pg_catalog.left(pg_catalog.obj_description(c.oid, 'pg_class'), 1000)"
						   " OPERATOR(pg_catalog.||) CASE WHEN pg_catalog.length(pg_catalog.obj_description(c.oid, 'pg_class'))"
						   " OPERATOR(pg_catalog.>) 1000 THEN ");
	/* a long comment is clipped, or its row would not fit the byte budget */
	appendStringInfoString(&sql, GetDatabaseEncoding() == PG_UTF8 ? "'\xe2\x80\xa6'" : "'...'");
	appendStringInfoString(&sql,
						   " ELSE '' END AS comment,"
						   " c.relrowsecurity AS rls"
						   " FROM pg_catalog.pg_class c"
						   " JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace"
						   " WHERE c.relkind OPERATOR(pg_catalog.=) ANY ('{r,p,v,m,f}'::pg_catalog.\"char\"[])"
						   " AND NOT c.relispartition");

	if (schema)
	{
		Oid			nspid = resolve_schema(schema);

		if (nat_namespace_aclcheck(nspid, GetUserId(), ACL_USAGE) != ACLCHECK_OK)
			nat_plan_add_warning(plan,
								 psprintf("Your role has no USAGE privilege on schema %s, so none of its tables can be listed or used.",
										  quote_identifier(get_namespace_name(nspid))));
		appendStringInfoString(&sql, " AND c.relnamespace OPERATOR(pg_catalog.=) ");
		nat_deparse_param(&sql, nat_params_add(params, OIDOID,
											   ObjectIdGetDatum(nspid), false));
		if (!extension_objects)
			warn_extension_schema(plan, nspid);
	}
	else
		appendStringInfoString(&sql,
							   " AND n.nspname OPERATOR(pg_catalog.<>) ALL ('{pg_catalog,information_schema}'::pg_catalog.name[])"
							   " AND n.nspname OPERATOR(pg_catalog.!~) '^pg_toast'"
							   " AND n.nspname OPERATOR(pg_catalog.!~) '^pg_temp_'");

	if (pattern)
	{
		appendStringInfoString(&sql, " AND c.relname OPERATOR(pg_catalog.~~*) ");
		nat_deparse_param(&sql, nat_params_add(params, TEXTOID,
											   CStringGetTextDatum(pattern), false));
	}

	/* a member of an extension, or in a schema that is one */
	if (!extension_objects)
		appendStringInfo(&sql,
						 " AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d"
						 " WHERE d.classid OPERATOR(pg_catalog.=) '%u' AND d.objid OPERATOR(pg_catalog.=) c.oid"
						 " AND d.deptype OPERATOR(pg_catalog.=) 'e')"
						 " AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d"
						 " WHERE d.classid OPERATOR(pg_catalog.=) '%u' AND d.objid OPERATOR(pg_catalog.=) n.oid"
						 " AND d.deptype OPERATOR(pg_catalog.=) 'e')",
						 RelationRelationId, NamespaceRelationId);

	/* never Citus's shards (names.c leaves them out of its suggestions too) */
	nat_append_not_citus_shard(&sql, "c");

	/* the same test as names.c uses for the names it suggests */
	appendStringInfoString(&sql,
						   " AND pg_catalog.has_schema_privilege(n.oid, 'USAGE')"
						   " AND (pg_catalog.has_table_privilege(c.oid, 'SELECT, INSERT, UPDATE, DELETE')"
						   " OR pg_catalog.has_any_column_privilege(c.oid, 'SELECT, INSERT, UPDATE'))"
						   " ORDER BY n.nspname, c.relname");

	nat_deparse_limit_offset(&sql, params, plan->caps.max_rows,
							 args->common.offset.value);

	plan->run = PLAN_ROWS;
	plan->sql = sql.data;
}
