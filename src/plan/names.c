/*-------------------------------------------------------------------------
 *
 * names.c
 *		  Table and column names resolved through the catalog.
 *
 * An agent names a table as "users", "public.users" or "\"Odd Name\"".  The
 * name is resolved once, through the caller's search_path, to an OID; the
 * generated SQL then prints the catalog's own names, schema-qualified and
 * quoted, so the agent's text never reaches SQL.  A name that matches
 * nothing gets the closest names the caller may actually use.
 *
 * Unquoted names are tried as written and then folded to lower case, so
 * both "Orders" (for orders) and "MixedCase" (for a quoted "MixedCase")
 * resolve.
 *
 * IDENTIFICATION
 *		  src/sql/names.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/catalog.h"
#include "catalog/namespace.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "plan/plan.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "parser/scansup.h"
#include "storage/lmgr.h"
#include "storage/sinval.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"

/* one identifier of a dotted or comma-separated name */
typedef struct NamePart
{
	char	   *name;
	bool		quoted;
} NamePart;

/*
 * Split text on sep outside double quotes; parts are trimmed and kept raw.
 */
List *
nat_split_top_level(const char *str, char sep)
{
	List	   *parts = NIL;
	const char *start = str;
	const char *p;
	bool		in_quotes = false;

	for (p = str;; p++)
	{
		if (*p == '"')
			in_quotes = !in_quotes;
		else if ((*p == sep && !in_quotes) || *p == '\0')
		{
			const char *b = start;
			const char *e = p;

			while (b < e && isspace((unsigned char) *b))
				b++;
			while (e > b && isspace((unsigned char) e[-1]))
				e--;
			CHECK_FOR_INTERRUPTS();
			parts = lappend(parts, pnstrdup(b, e - b));
			if (*p == '\0')
				break;
			start = p + 1;
		}
	}
	return parts;
}

/*
 * Read one identifier at the start of *p: a double-quoted identifier (with
 * "" for a quote) or a run of characters up to white space.  Advances *p
 * past it.  Returns NULL if there is no well-formed identifier.  The name
 * is returned whole, in a buffer of its own size: a name longer than
 * PostgreSQL's is refused by nat_check_identifier(), not truncated.
 */
char *
nat_read_identifier(const char **p, bool *quoted)
{
	const char *s = *p;
	const char *start;
	char	   *result;
	char	   *out;

	while (isspace((unsigned char) *s))
		s++;
	*quoted = (*s == '"');
	if (*quoted)
	{
		const char *q;

		/* find the closing quote first, to size the buffer */
		start = ++s;
		for (q = s;; q++)
		{
			if (*q == '\0')
				return NULL;	/* unterminated */
			if (*q == '"')
			{
				if (q[1] != '"')
					break;
				q++;
			}
		}
		result = out = palloc(q - start + 1);
		while (s < q)
		{
			if (*s == '"')
				s++;			/* the first of a doubled quote */
			*out++ = *s++;
		}
		*out = '\0';
		s++;
	}
	else
	{
		start = s;
		while (*s && !isspace((unsigned char) *s))
			s++;
		result = pnstrdup(start, s - start);
	}
	*p = s;
	if (result[0] == '\0')
		return NULL;
	return result;
}

/*
 * Refuse a name (len bytes) longer than PostgreSQL keeps (NAMEDATALEN - 1
 * bytes): PostgreSQL would truncate it to another name.
 */
void
nat_check_identifier(const char *name, int len, const char *path)
{
	if (len > NAT_MAX_IDENTIFIER)
		nat_invalid_param(path,
						  psprintf("Names are at most %d bytes long; check the name.",
								   NAT_MAX_IDENTIFIER),
						  "name \"%s\" is longer than the limit of %d bytes",
						  nat_clip_len(name, len), NAT_MAX_IDENTIFIER);
}

/*
 * Parse a possibly qualified, possibly quoted name into its parts, or NIL
 * if it is not well-formed.
 */
static List *
parse_qualified_name(const char *str, const char *path)
{
	List	   *parts = NIL;
	ListCell   *lc;

	foreach(lc, nat_split_top_level(str, '.'))
	{
		const char *raw = lfirst(lc);
		const char *p = raw;
		NamePart   *part = palloc(sizeof(NamePart));

		part->name = nat_read_identifier(&p, &part->quoted);
		while (isspace((unsigned char) *p))
			p++;
		if (part->name == NULL || *p != '\0')
			return NIL;
		nat_check_identifier(part->name, strlen(part->name), path);
		parts = lappend(parts, part);
	}
	return parts;
}

/*
 * The name folded to lower case, or NULL if folding changes nothing.
 */
static char *
folded(NamePart *part)
{
	char	   *lower;

	if (part->quoted)
		return NULL;
	lower = asc_tolower(part->name, strlen(part->name));
	if (strcmp(lower, part->name) == 0)
		return NULL;
	return lower;
}

/*
 * May the caller see this relation at all (for suggestions, listings and
 * descriptions)?  USAGE on its schema nspid, and SELECT, INSERT, UPDATE or
 * DELETE on it or on one of its columns.
 */
bool
nat_relation_visible_to_caller(Oid relid, Oid nspid)
{
	Oid			userid = GetUserId();

	if (nat_namespace_aclcheck(nspid, userid, ACL_USAGE) != ACLCHECK_OK)
		return false;
	if (pg_class_aclmask(relid, userid,
						 ACL_SELECT | ACL_INSERT | ACL_UPDATE | ACL_DELETE,
						 ACLMASK_ANY) != 0)
		return true;
	return pg_attribute_aclcheck_all(relid, userid, ACL_SELECT | ACL_INSERT | ACL_UPDATE,
									 ACLMASK_ANY) == ACLCHECK_OK;
}

/*
 * Has the caller one of the privileges of mode on column attnum of relid,
 * granted on the column or on the whole table?
 */
bool
nat_column_privileged(Oid relid, AttrNumber attnum, AclMode mode)
{
	return pg_class_aclcheck(relid, GetUserId(), mode) == ACLCHECK_OK ||
		pg_attribute_aclcheck(relid, attnum, GetUserId(), mode) == ACLCHECK_OK;
}

/*
 * May the caller see a column, as describe_table shows it (its name, type
 * and default): SELECT, INSERT or UPDATE on it or on its table.
 */
bool
nat_column_visible(Oid relid, AttrNumber attnum)
{
	return nat_column_privileged(relid, attnum, ACL_SELECT | ACL_INSERT | ACL_UPDATE);
}

/*
 * Is the candidate (distance d, name) closer than the one kept (best,
 * picked; picked NULL: an empty slot)?
 */
static bool
closer(int d, const char *name, int best, const char *picked)
{
	if (picked == NULL || d != best)
		return d < best;
	return strcmp(name, picked) < 0;
}

/*
 * The closest table names the caller may use, best first (at most three).
 * The scan reads every relation of pg_class, which takes a while in a
 * database of many (about 0.35 s for 100,000): it gives up, suggesting
 * nothing, at stop_at (0: no limit), the deadline of a call whose timer
 * is no longer armed.
 */
static List *
closest_tables(const char *schema, const char *relname, TimestampTz stop_at)
{
	List	   *names = NIL;
	int			best[3] = {INT_MAX, INT_MAX, INT_MAX};
	char	   *picked[3] = {NULL, NULL, NULL};
	int			maxd = Max(2, (int) strlen(relname) / 2);
	char	   *target = asc_tolower(relname, strlen(relname));
	int			i;
	Relation	classrel;
	TableScanDesc scan;
	HeapTuple	tuple;
	Oid			info_schema = get_namespace_oid("information_schema", true);
	uint32		seen = 0;

	classrel = table_open(RelationRelationId, AccessShareLock);
	scan = table_beginscan_catalog(classrel, 0, NULL);
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		Form_pg_class form = (Form_pg_class) GETSTRUCT(tuple);
		const char *cand = NameStr(form->relname);
		char	   *lower;
		char	   *name;
		int			d;
		int			slot;

		if (++seen % 256 == 0)
		{
			CHECK_FOR_INTERRUPTS();
			if (stop_at != 0 && GetCurrentTimestamp() >= stop_at)
			{
				for (i = 0; i < 3; i++)
					picked[i] = NULL;	/* not the closest of all: none */
				break;
			}
		}
		if (!(form->relkind == RELKIND_RELATION || form->relkind == RELKIND_VIEW ||
			  form->relkind == RELKIND_MATVIEW || form->relkind == RELKIND_FOREIGN_TABLE ||
			  form->relkind == RELKIND_PARTITIONED_TABLE))
			continue;
		if (IsCatalogNamespace(form->relnamespace) ||
			IsToastNamespace(form->relnamespace) ||
			isAnyTempNamespace(form->relnamespace) ||
			form->relnamespace == info_schema)
			continue;
		lower = asc_tolower(cand, strlen(cand));
		d = nat_name_distance(target, strlen(target), lower, strlen(lower), maxd);
		pfree(lower);
		if (d > maxd || d > best[2])
			continue;
		if (!nat_relation_visible_to_caller(form->oid, form->relnamespace))
			continue;
		/* Citus's shards are not offered: their table is (citus.c) */
		if (OidIsValid(nat_citus_shard_parent(form->oid)))
			continue;
		name = quote_qualified_identifier(get_namespace_name(form->relnamespace), cand);
		/* ties go by name, so the order does not follow pg_class's */
		if (!closer(d, name, best[2], picked[2]))
			continue;
		slot = 2;
		while (slot > 0 && closer(d, name, best[slot - 1], picked[slot - 1]))
		{
			best[slot] = best[slot - 1];
			picked[slot] = picked[slot - 1];
			slot--;
		}
		best[slot] = d;
		picked[slot] = name;
	}
	table_endscan(scan);
	table_close(classrel, AccessShareLock);

	for (i = 0; i < 3; i++)
		if (picked[i])
			names = lappend(names, picked[i]);
	return names;
}

/*
 * The closest table names the caller may use to a name an error reported
 * ("t" or "s.t"), best first (at most three), or NIL when stop_at came
 * first; error_enrich.c's did-you-mean.
 */
List *
nat_closest_tables(const char *name, TimestampTz stop_at)
{
	const char *dot = strrchr(name, '.');

	if (dot == NULL)
		return closest_tables(NULL, name, stop_at);
	return closest_tables(pnstrdup(name, dot - name), dot + 1, stop_at);
}

/*
 * Advice on finding the tables, naming list_tables only if the caller has it.
 */
static char *
list_tables_advice(void)
{
	const ToolDef *tool = nat_find_tool("list_tables");

	if (tool && nat_tool_available(tool))
		return pstrdup("Call list_tables to see the tables you can use.");
	return pstrdup("Check the table name and its schema.");
}

/*
 * "Did you mean "a", "b" or "c"?" for a non-empty list of names.
 */
char *
nat_did_you_mean(List *names)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	appendStringInfoString(&buf, "Did you mean ");
	foreach(lc, names)
	{
		if (foreach_current_index(lc) > 0)
			appendStringInfoString(&buf, foreach_current_index(lc) == list_length(names) - 1 ? " or " : ", ");
		appendStringInfo(&buf, "\"%s\"", (char *) lfirst(lc));
	}
	appendStringInfoChar(&buf, '?');
	return buf.data;
}

/*
 * Raise invalid_table for a name that resolved to nothing.
 */
static void
report_missing_table(const char *str, const char *schema, const char *relname,
					 const char *path)
{
	ToolError  *err;
	List	   *close = closest_tables(schema, relname, 0); /* the timer is armed */
	ListCell   *lc;

	err = nat_error(NAT_ERR_INVALID_TABLE, "table \"%s\" does not exist", nat_clip(str));
	err->path = pstrdup(path);
	err->affected_resources = list_make1(nat_clip(str));
	if (close != NIL)
	{
		err->suggestion = nat_did_you_mean(close);
		if (list_length(close) == 1)
			err->did_you_mean = pstrdup(linitial(close));
		foreach(lc, close)
			err->suggested_actions = lappend(err->suggested_actions,
											 psprintf("Retry with \"table\": \"%s\".", (char *) lfirst(lc)));
	}
	else
		err->suggestion = list_tables_advice();
	err->suggested_actions = lappend(err->suggested_actions, list_tables_advice());
	nat_throw(err);
}

/*
 * The relation schema.relname names (schema NULL: the search path), found
 * without taking a lock; InvalidOid if none.
 *
 * Names the agent gives never resolve to a temporary relation: a temporary
 * table of the session could otherwise stand in for the real one (an
 * unqualified name finds pg_temp first).  The temporary schema is skipped in
 * the search path, and a name qualified with it finds nothing.
 */
static Oid
lookup_relation(const char *schema, const char *relname)
{
	List	   *path;
	ListCell   *lc;

	if (schema != NULL)
	{
		/* raises, as core does, for a schema without USAGE */
		Oid			nspid = LookupExplicitNamespace(schema, true);

		if (!OidIsValid(nspid) || isAnyTempNamespace(nspid))
			return InvalidOid;
		return get_relname_relid(relname, nspid);
	}
	path = fetch_search_path(true);
	foreach(lc, path)
	{
		Oid			nspid = lfirst_oid(lc);
		Oid			relid;

		if (isAnyTempNamespace(nspid))
			continue;
		relid = get_relname_relid(relname, nspid);
		if (OidIsValid(relid))
		{
			list_free(path);
			return relid;
		}
	}
	list_free(path);
	return InvalidOid;
}

/*
 * Has the caller any right at all on the relation: a privilege on it or on
 * one of its columns, or ownership?  (Which right an operation needs is
 * checked where it is used.)
 */
static bool
caller_has_any_right(Oid relid)
{
	Oid			userid = GetUserId();
	HeapTuple	tuple;
	bool		owner = false;

	if (pg_class_aclmask(relid, userid, ACL_ALL_RIGHTS_RELATION, ACLMASK_ANY) != 0)
		return true;
	if (pg_attribute_aclcheck_all(relid, userid,
								  ACL_SELECT | ACL_INSERT | ACL_UPDATE | ACL_REFERENCES,
								  ACLMASK_ANY) == ACLCHECK_OK)
		return true;
	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (HeapTupleIsValid(tuple))
	{
		owner = has_privs_of_role(userid, ((Form_pg_class) GETSTRUCT(tuple))->relowner);
		ReleaseSysCache(tuple);
	}
	return owner;
}

/*
 * Raise permission_denied for a relation the caller has no privilege on;
 * path names the argument, or is NULL.
 */
void
nat_throw_no_privilege(Oid relid, const char *path)
{
	char	   *display = nat_relation_display_name(relid);
	ToolError  *err = nat_error(NAT_ERR_PERMISSION_DENIED,
								"permission denied for table %s", display);

	if (path)
		err->path = pstrdup(path);
	err->sqlerrcode = ERRCODE_INSUFFICIENT_PRIVILEGE;
	err->affected_resources = list_make1(display);
	err->suggestion = psprintf("Your role has no privilege on %s; ask the database administrator for access, or use a table that list_tables shows.",
							   display);
	nat_throw(err);
}

/*
 * Lock the relation schema.relname names with AccessShareLock, after
 * checking that the caller may use it at all: a role without any right to
 * a relation must not queue behind another session's lock on it (and time
 * out), but hear at once that it may not use it.  The name is looked up
 * again once the lock is held, as RangeVarGetRelidExtended() does, in case
 * the relation was dropped or renamed meanwhile.
 */
static Oid
lock_relation(const char *schema, const char *relname, const char *path)
{
	Oid			relid = lookup_relation(schema, relname);

	while (OidIsValid(relid))
	{
		Oid			again;
		uint64		inval_count;

		if (!caller_has_any_right(relid))
			nat_throw_no_privilege(relid, path);
		inval_count = SharedInvalidMessageCounter;
		LockRelationOid(relid, AccessShareLock);
		/* no catalog change arrived while locking: the name still holds */
		if (SharedInvalidMessageCounter == inval_count)
			break;
		again = lookup_relation(schema, relname);
		if (again == relid)
			break;
		UnlockRelationOid(relid, AccessShareLock);
		relid = again;
	}
	return relid;
}

/*
 * The relation rv (of a statement that failed) names, locked, or
 * InvalidOid.  An answer is being built from an error, so nothing here
 * may raise one or wait: a part of
 * the statement PostgreSQL had not reached yet may name a schema the role
 * may not use (the lookup would raise) or a table another session holds
 * exclusively (the lock would wait).
 */
Oid
nat_rangevar_relation(RangeVar *rv)
{
	if (rv->catalogname != NULL)
		return InvalidOid;		/* a cross-database name raises */
	if (rv->relpersistence == RELPERSISTENCE_TEMP)
		return InvalidOid;		/* INTO TEMP s.t: a table to create, and
								 * raises */
	if (rv->schemaname != NULL)
	{
		Oid			nspid = get_namespace_oid(rv->schemaname, true);

		if (!OidIsValid(nspid) ||
			nat_namespace_aclcheck(nspid, GetUserId(), ACL_USAGE) != ACLCHECK_OK)
			return InvalidOid;
	}
	return RangeVarGetRelidExtended(rv, AccessShareLock,
									RVR_MISSING_OK | RVR_SKIP_LOCKED, NULL, NULL);
}

/* what a name in a column reference ("t" of "t.c") stands for in a statement */
typedef struct RefnameSearch
{
	const char *refname;
	List	   *relids;			/* tables and views it names */
	bool		opaque;			/* also something else: a subquery, a CTE ... */
} RefnameSearch;

static bool
find_refname(Node *node, RefnameSearch *search)
{
	Alias	   *alias = NULL;

	if (node == NULL)
		return false;
	if (IsA(node, RangeVar))
	{
		RangeVar   *rv = (RangeVar *) node;

		if (strcmp(rv->alias ? rv->alias->aliasname : rv->relname, search->refname) == 0)
		{
			Oid			relid = nat_rangevar_relation(rv);

			if (OidIsValid(relid))
				search->relids = lappend_oid(search->relids, relid);
			else
				search->opaque = true;
		}
		return false;
	}
	if (IsA(node, RangeSubselect))
		alias = ((RangeSubselect *) node)->alias;
	else if (IsA(node, RangeFunction))
		alias = ((RangeFunction *) node)->alias;
	else if (IsA(node, RangeTableFunc))
		alias = ((RangeTableFunc *) node)->alias;
	else if (IsA(node, JoinExpr))
		alias = ((JoinExpr *) node)->alias;
	else if (IsA(node, CommonTableExpr) &&
			 strcmp(((CommonTableExpr *) node)->ctename, search->refname) == 0)
		search->opaque = true;
	if (alias && strcmp(alias->aliasname, search->refname) == 0)
		search->opaque = true;
	return raw_expression_tree_walker(node, find_refname, search);
}

/*
 * The tables and views refname stands for in the statements of sql; NIL if
 * it also stands for anything else, or is not found.
 */
static List *
relations_called(const char *sql, const char *refname)
{
	RefnameSearch search = {refname, NIL, false};
	ListCell   *lc;

	foreach(lc, nat_raw_parser(sql))
	{
		Node	   *stmt = lfirst_node(RawStmt, lc)->stmt;

		if (IsA(stmt, ExplainStmt))
			stmt = ((ExplainStmt *) stmt)->query;
		if (IsA(stmt, SelectStmt) || IsA(stmt, InsertStmt) ||
			IsA(stmt, UpdateStmt) || IsA(stmt, DeleteStmt) || IsA(stmt, MergeStmt))
			(void) find_refname(stmt, &search);
		else
			search.opaque = true;	/* nested code: its names are not here */
	}
	return search.opaque ? NIL : search.relids;
}

/* how core's hint naming a column of the statement begins */
#define COLUMN_HINT "Perhaps you meant to reference the column"

/*
 * May PostgreSQL's hint be shown to the caller?  Core's "Perhaps you meant
 * to reference the column "t.c"" names columns of the tables in the
 * statement whether or not the role may read them (privileges are checked
 * later, at execution).  Such a hint is shown only when each "t" is found in
 * the statement that ran (sql) as a name or alias of tables and views only,
 * and the caller may select column "c" of every one of them.  Anything
 * else (a subquery's alias, a name from nested code, a name with a dot or
 * quote in it) drops the hint.  Other hints are kept.
 */
bool
nat_hint_is_shareable(const char *hint, const char *sql)
{
	const char *p;

	if (hint == NULL || strncmp(hint, COLUMN_HINT, sizeof(COLUMN_HINT) - 1) != 0)
		return true;
	if (sql == NULL)
		return false;
	for (p = strchr(hint, '"'); p != NULL; p = strchr(p, '"'))
	{
		const char *end = strchr(p + 1, '"');
		char	   *item;
		char	   *dot;
		List	   *relids;
		ListCell   *lc;

		if (end == NULL)
			return false;
		item = pnstrdup(p + 1, end - p - 1);
		p = end + 1;
		dot = strchr(item, '.');
		if (dot == NULL || strchr(dot + 1, '.') != NULL)
			return false;
		*dot = '\0';
		relids = relations_called(sql, item);
		if (relids == NIL)
			return false;
		foreach(lc, relids)
		{
			Oid			relid = lfirst_oid(lc);
			AttrNumber	attnum = get_attnum(relid, dot + 1);

			if (attnum == InvalidAttrNumber ||
				(pg_attribute_aclcheck(relid, attnum, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
				 pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK))
				return false;
		}
	}
	return true;
}

/*
 * Resolve a table (or view) name to its OID, taking AccessShareLock.
 */
Oid
nat_resolve_table(const char *name, const char *path)
{
	List	   *parts = parse_qualified_name(name, path);
	NamePart   *schema = NULL;
	NamePart   *rel;
	Oid			relid = InvalidOid;
	char		relkind;
	int			attempt;

	/* "Odd Table" written without quotes: try it as one literal name */
	if (parts == NIL)
	{
		nat_check_identifier(name, strlen(name), path);
		relid = lock_relation(NULL, name, path);
		if (!OidIsValid(relid))
			nat_invalid_param(path,
							  "Pass a table name such as \"orders\" or \"sales.orders\"; double-quote names with spaces or dots.",
							  "invalid table name \"%s\"", nat_clip(name));
		parts = list_make1(NULL);	/* resolved: skip the lookups below */
	}
	if (list_length(parts) > 2)
		nat_invalid_param(path, "Pass \"table\" or \"schema.table\".",
						  "too many dotted names in \"%s\"", nat_clip(name));
	if (list_length(parts) == 2)
		schema = linitial(parts);
	rel = llast(parts);

	/* as written, then with unquoted parts folded to lower case */
	for (attempt = 0; rel && attempt < 4 && !OidIsValid(relid); attempt++)
	{
		char	   *s = schema ? schema->name : NULL;
		char	   *r = rel->name;

		if (attempt & 1)
		{
			if (!folded(rel))
				continue;
			r = folded(rel);
		}
		if (attempt & 2)
		{
			if (!schema || !folded(schema))
				continue;
			s = folded(schema);
		}
		relid = lock_relation(s, r, path);
	}

	if (!OidIsValid(relid))
		report_missing_table(name, schema ? schema->name : NULL, rel->name, path);

	relkind = get_rel_relkind(relid);
	if (!(relkind == RELKIND_RELATION || relkind == RELKIND_VIEW ||
		  relkind == RELKIND_MATVIEW || relkind == RELKIND_FOREIGN_TABLE ||
		  relkind == RELKIND_PARTITIONED_TABLE))
	{
		ToolError  *err = nat_error(NAT_ERR_INVALID_TABLE,
									"\"%s\" is not a table or view", nat_clip(name));

		err->path = pstrdup(path);
		err->suggestion = list_tables_advice();
		nat_throw(err);
	}
	return relid;
}

/*
 * The closest column names of relid the caller may read (all at the same,
 * smallest distance), or NIL.
 */
List *
nat_closest_columns(Oid relid, const char *name)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	TupleDesc	tupdesc = RelationGetDescr(rel);
	char	   *target = asc_tolower(name, strlen(name));
	int			maxd = Max(1, ((int) strlen(name) + 1) / 3);
	List	   *result = NIL;
	int			best = INT_MAX;
	int			i;

	for (i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		char	   *lower;
		int			d;

		if (att->attisdropped)
			continue;
		if (pg_attribute_aclcheck(relid, att->attnum, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
			pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
			continue;
		lower = asc_tolower(NameStr(att->attname), strlen(NameStr(att->attname)));
		d = nat_name_distance(target, strlen(target), lower, strlen(lower), maxd);
		if (d > maxd)
			continue;
		if (d < best)
		{
			list_free(result);
			result = NIL;
			best = d;
		}
		if (d == best)
			result = lappend(result, pstrdup(NameStr(att->attname)));
	}
	relation_close(rel, AccessShareLock);
	return result;
}

/*
 * Resolve a column of relid, as written or folded to lower case.  System
 * columns are not offered to agents.
 */
AttrNumber
nat_resolve_column(Oid relid, const char *name, const char *path)
{
	AttrNumber	attnum;

	nat_check_identifier(name, strlen(name), path);
	attnum = get_attnum(relid, name);
	if (attnum == InvalidAttrNumber)
	{
		char	   *lower = asc_tolower(name, strlen(name));

		attnum = get_attnum(relid, lower);
	}
	if (attnum <= 0)
	{
		char	   *relname = nat_relation_display_name(relid);
		ToolError  *err = nat_error(NAT_ERR_INVALID_COLUMN,
									"column \"%s\" does not exist in table %s",
									nat_clip(name), relname);
		List	   *close = nat_closest_columns(relid, name);
		char	   *columns;

		err->path = pstrdup(path);
		err->column = nat_clip(name);
		err->affected_resources = list_make2(relname, psprintf("%s.%s", relname, quote_identifier(nat_clip(name))));
		if (close != NIL)
		{
			nat_error_offer(err, linitial(close),
							psprintf("Use the column \"%s\".", (char *) linitial(close)));
		}
		else if ((columns = nat_readable_column_list(relid)) != NULL)
		{
			err->suggestion = psprintf("The columns of %s you may read are %s.",
									   relname, columns);
			err->suggested_actions = list_make1(psprintf("Use one of the columns %s.", columns));
		}
		else
		{
			const ToolDef *tool = nat_find_tool("describe_table");

			err->suggestion = (tool && nat_tool_available(tool)) ?
				psprintf("Call describe_table for %s to see its columns.", relname) :
				psprintf("Check the column names of %s.", relname);
		}
		nat_throw(err);
	}
	return attnum;
}

/*
 * A Citus shard named by an agent: only describe_table takes it (and
 * describes its table).  Reading one shard gives part of a table's rows,
 * and writing one bypasses Citus (a reference table's placements would
 * differ), so the other tools refuse it and name the table to use, when
 * the caller may see it.
 */
static void
refuse_citus_shard(ToolCall *call, Oid relid)
{
	Oid			table;
	ToolError  *err;

	if (call->tool != NULL && strcmp(call->tool->name, "describe_table") == 0)
		return;
	table = nat_citus_shard_parent(relid);
	if (!OidIsValid(table))
		return;
	/* no shard name in the answer: the agent is to forget it */
	err = nat_error(NAT_ERR_INVALID_TABLE,
					"the table given is a shard of a Citus table, which Citus reads and writes itself");
	err->path = pstrdup("$.table");
	call->table = NULL;
	if (nat_relation_visible_to_caller(table, get_rel_namespace(table)))
	{
		char	   *display = nat_relation_display_name(table);

		call->table = display;
		err->suggestion = psprintf("Use the table %s instead.", display);
		err->suggested_actions = list_make1(psprintf("Retry with \"table\": \"%s\".", display));
	}
	else
		err->suggestion = list_tables_advice();
	nat_throw(err);
}

/*
 * Resolve the call's "table" argument.  call->table becomes the table's
 * schema-qualified, quoted name: what answers report, and what generated
 * SQL uses as it is (so it is rendered once per call).
 */
Oid
nat_resolve_call_table(ToolCall *call)
{
	const char *name = NAT_COMMON(call)->table;
	const char *display;
	Oid			relid = nat_table_cache_lookup(name, &display);
	uint64		inval_count = SharedInvalidMessageCounter;

	/* the rights are checked again: the lock must not be waited for without */
	if (OidIsValid(relid) && caller_has_any_right(relid))
	{
		LockRelationOid(relid, AccessShareLock);
		/* no catalog change arrived while locking: the entry still holds */
		if (SharedInvalidMessageCounter == inval_count)
		{
			call->table = pstrdup(display);
			refuse_citus_shard(call, relid);
			return relid;
		}
		UnlockRelationOid(relid, AccessShareLock);
		inval_count = SharedInvalidMessageCounter;
	}
	relid = nat_resolve_table(name, "$.table");
	call->table = nat_relation_display_name(relid);
	refuse_citus_shard(call, relid);
	/* kept only if no catalog change arrived while it was worked out */
	if (SharedInvalidMessageCounter == inval_count)
		nat_table_cache_store(name, relid, call->table);
	return relid;
}

/*
 * The columns "*" stands for in relid: every column not dropped, in order
 * (attribute numbers, int).
 */
List *
nat_relation_columns(Oid relid)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	TupleDesc	tupdesc = RelationGetDescr(rel);
	List	   *attnums = NIL;
	int			i;

	for (i = 0; i < tupdesc->natts; i++)
		if (!TupleDescAttr(tupdesc, i)->attisdropped)
			attnums = lappend_int(attnums, TupleDescAttr(tupdesc, i)->attnum);
	relation_close(rel, AccessShareLock);
	return attnums;
}

/*
 * The columns of relid the role may read (attribute numbers, int), in
 * order: every column with SELECT on the table, else those it was
 * granted SELECT on.  *omitted is set to how many it may not read.
 */
List *
nat_readable_columns(Oid relid, int *omitted)
{
	Relation	rel;
	TupleDesc	tupdesc;
	List	   *attnums = NIL;
	int			i;

	*omitted = 0;
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) == ACLCHECK_OK)
		return nat_relation_columns(relid);

	rel = relation_open(relid, AccessShareLock);
	tupdesc = RelationGetDescr(rel);
	for (i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (att->attisdropped)
			continue;
		if (pg_attribute_aclcheck(relid, att->attnum, GetUserId(), ACL_SELECT) == ACLCHECK_OK)
			attnums = lappend_int(attnums, att->attnum);
		else
			(*omitted)++;
	}
	relation_close(rel, AccessShareLock);
	return attnums;
}

/* columns listed when none is close to a missing one, at most */
#define LISTED_COLUMNS_MAX		30

/*
 * "a, b, c" of the columns of relid the role may read, or NULL if it may
 * read none or too many to list.
 */
char *
nat_readable_column_list(Oid relid)
{
	int			omitted;
	List	   *attnums = nat_readable_columns(relid, &omitted);
	StringInfoData buf;
	ListCell   *lc;

	if (attnums == NIL || list_length(attnums) > LISTED_COLUMNS_MAX)
		return NULL;
	initStringInfo(&buf);
	foreach(lc, attnums)
		appendStringInfo(&buf, "%s%s", buf.len ? ", " : "",
						 quote_identifier(get_attname(relid, lfirst_int(lc), false)));
	return buf.data;
}
