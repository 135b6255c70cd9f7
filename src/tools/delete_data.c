/*-------------------------------------------------------------------------
 *
 * delete_data.c
 *		  The delete_data tool: delete rows, or truncate or drop a table.
 *
 * mode "delete" (the default) generates
 *	 DELETE FROM "schema"."table" [WHERE <filter>] [RETURNING <columns>]
 * with the rules shared by the writing tools (writes.c): no where filter
 * without confirm_all_rows, the write cap (execute.c rolls everything back
 * past it) and dry runs.  Materialized views, and views that cannot pass a
 * delete on to their table, are refused up front with the reason.
 *
 * mode "truncate" generates
 *	 TRUNCATE TABLE "schema"."table" RESTRICT
 * and mode "drop"
 *	 DROP TABLE|VIEW|MATERIALIZED VIEW|FOREIGN TABLE "schema"."name" RESTRICT
 * Both need "confirm": true, and neither ever cascades.  Before running
 * them the tool takes the same lock the statement would (ACCESS EXCLUSIVE)
 * and looks in the catalog for what would make it fail: foreign keys of
 * other tables that reference the table, views (and rules) built on it and,
 * for drop, inheritance children.  Those are reported as a
 * dependent_objects error whose "dependencies" name them, with the steps to
 * take first; anything else PostgreSQL still refuses (2BP01) is classified
 * dependent_objects by the core.  affectedRows is the number of rows the
 * table held, counted under that lock just before the statement: it is
 * reported only when the caller may read every row (SELECT, and no
 * row-level security in the way), so a count never reveals rows the caller
 * could not see.
 *
 * The checks made here in place of PostgreSQL's own (privileges, foreign
 * keys, dependants) carry the SQLSTATE PostgreSQL would have raised.  The
 * privilege checks come before the lock, so nobody locks a table they may
 * not change; system catalogs are refused in every mode.
 *
 * IDENTIFICATION
 *		  src/tools/delete_data.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/catalog.h"
#include "catalog/pg_class.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_rewrite.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "tools/tools.h"
#include "tools/params.h"
#include "plan/tool_plan.h"
#include "rewrite/rewriteHandler.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rls.h"
#include "utils/syscache.h"

static void delete_data(ToolCall *call, const void *targs, ToolPlan *plan);

/* the decoded arguments */
typedef struct DeleteArgs
{
	CommonArgs	common;			/* table, where, confirm_all_rows, dry_run,
								 * returning, max_affected, timeout_ms */
	int			mode;			/* MODE_* */
	NatBoolArg	confirm;
} DeleteArgs;

/* mode, as the indexes of mode_values */
#define MODE_DELETE		0
#define MODE_TRUNCATE	1
#define MODE_DROP		2

static const char *const mode_values[] = {"delete", "truncate", "drop", NULL};

static const ToolParam delete_params[] = {
	NAT_PARAM_TABLE("to delete from, truncate or drop"),
	NAT_PARAM_WHERE("to delete (mode delete only)"),
	NAT_PARAM_CONFIRM_ALL_ROWS("delete"),
	{
		.name = "mode",
		.decode = NAT_DECODE_ENUM,.offset = offsetof(DeleteArgs, mode),
		.types = NAT_JSON_STRING,
		.description = "\"delete\" deletes the rows that match where. \"truncate\" empties the whole table at once. \"drop\" removes the table (or view, materialized view, foreign table) itself. truncate and drop need \"confirm\": true, take no where, returning or max_affected, and never cascade: objects that depend on the table are reported instead.",
		.enum_values = mode_values,
		.default_json = "\"delete\"",
	},
	NAT_PARAM_SWITCH("confirm", offsetof(DeleteArgs, confirm),
					 "Must be true for mode truncate or drop, which remove everything and cannot be limited to some rows: ask the user before setting it."),
	NAT_PARAM_DRY_RUN,
	NAT_PARAM_RETURNING,
	NAT_PARAM_FORMAT("the returned rows"),
	NAT_PARAM_MAX_AFFECTED,
	NAT_PARAM_CONFIRMATION_TOKEN,
	NAT_PARAM_TIMEOUT_MS,
};

const ToolDef nat_tool_delete_data = {
	.name = "delete_data",
	.title = "Delete rows, or truncate or drop a table",
	.description = "Delete the rows of one table that match a filter (mode \"delete\", the default), or, when the user asks for it, empty a whole table (mode \"truncate\") or remove a table or view entirely (mode \"drop\"). "
	"Use it to remove specific rows; prefer a where filter on the primary key. "
	"A delete without where is refused unless confirm_all_rows is true; truncate and drop need \"confirm\": true and never cascade: tables and views that depend on the table are listed in the error's dependencies instead. "
	"If more rows match than max_affected (or the server's limit), nothing is deleted and the answer is limit_exceeded; \"dry_run\": true reports affectedRows and the rows that would go, and keeps nothing. "
	"Runs with your database role's privileges and row-level security. "
	"The answer has affectedRows and data (the deleted rows, as returning asks). "
	"Example: {\"table\": \"orders\", \"where\": {\"status\": \"cancelled\", \"created_at\": {\"lt\": \"2024-01-01\"}}, \"returning\": [\"id\"], \"max_affected\": 100}",
	.operation = NAT_OP_DELETE,
	NAT_TOOL_PARAMS(delete_params, DeleteArgs),
	NAT_TOOL_WRITES(true, true),
	.plan = delete_data,
};

/* what the blocking objects found in the catalog are, and what to do */
typedef struct Blockers
{
	List	   *names;			/* "schema.name", each once */
	List	   *actions;		/* suggested_actions, one per object */
} Blockers;

/*
 * "table", "view", ... as PostgreSQL's messages name a relation kind.
 */
static const char *
relkind_word(char relkind)
{
	switch (relkind)
	{
		case RELKIND_VIEW:
			return "view";
		case RELKIND_MATVIEW:
			return "materialized view";
		case RELKIND_FOREIGN_TABLE:
			return "foreign table";
		default:
			return "table";
	}
}

/*
 * The DROP statement's keyword for a relation kind.
 */
static const char *
relkind_drop_keyword(char relkind)
{
	switch (relkind)
	{
		case RELKIND_VIEW:
			return "VIEW";
		case RELKIND_MATVIEW:
			return "MATERIALIZED VIEW";
		case RELKIND_FOREIGN_TABLE:
			return "FOREIGN TABLE";
		default:
			return "TABLE";
	}
}

/*
 * Is an execute_sql tool there for the caller to use?
 */
static bool
execute_sql_available(void)
{
	const ToolDef *tool = nat_find_tool("execute_sql");

	return tool != NULL && nat_tool_available(tool);
}

/*
 * Refuse the arguments that only mode delete understands.
 */
static void
refuse_delete_only_args(ToolCall *call, const char *mode)
{
	const CommonArgs *args = NAT_COMMON(call);

	if (args->where)
		nat_invalid_param("$.where",
						  psprintf("Remove \"where\": %s takes the whole table. To delete only the rows that match, use mode \"delete\" with this filter.",
								   mode),
						  "argument \"where\" cannot be used with mode \"%s\"", mode);
	if (args->returning)
		nat_invalid_param("$.returning",
						  psprintf("Remove \"returning\": %s returns no rows. To get the deleted rows back, use mode \"delete\".",
								   mode),
						  "argument \"returning\" cannot be used with mode \"%s\"", mode);
	if (args->max_affected.given)
		nat_invalid_param("$.max_affected",
						  psprintf("Remove \"max_affected\": %s cannot stop part way. To delete under a row cap, use mode \"delete\".",
								   mode),
						  "argument \"max_affected\" cannot be used with mode \"%s\"", mode);
	if (args->confirm_all_rows.given)
		nat_invalid_param("$.confirm_all_rows",
						  "Pass \"confirm\": true instead; confirm_all_rows belongs to mode \"delete\".",
						  "argument \"confirm_all_rows\" cannot be used with mode \"%s\"", mode);
}

/*
 * Refuse to truncate or drop unless the agent passed "confirm": true.
 */
static void
require_confirm(ToolCall *call, const char *mode, char relkind)
{
	ToolError  *err;

	if (NAT_ARGS(call, DeleteArgs)->confirm.value)
		return;

	if (strcmp(mode, "truncate") == 0)
	{
		err = nat_error(NAT_ERR_CONFIRMATION_REQUIRED,
						"truncate would remove every row of %s, and \"confirm\" is not true",
						call->table);
		err->suggestion = psprintf("Pass \"confirm\": true only if every row of %s must go; to delete some rows, use mode \"delete\" with a where filter.",
								   call->table);
		err->suggested_actions = list_make2(psprintf("Ask the user to confirm that every row of %s may be removed, then retry with \"confirm\": true.",
													 call->table),
											pstrdup("Preview with \"confirm\": true and \"dry_run\": true: it reports affectedRows and keeps nothing."));
	}
	else
	{
		err = nat_error(NAT_ERR_CONFIRMATION_REQUIRED,
						"drop would remove the %s %s%s, and \"confirm\" is not true",
						relkind_word(relkind), call->table,
						relkind == RELKIND_VIEW || relkind == RELKIND_FOREIGN_TABLE ?
						"" : " with all its rows");
		err->suggestion = psprintf("Pass \"confirm\": true only if the %s %s itself must go; to delete rows and keep it, use mode \"delete\".",
								   relkind_word(relkind), call->table);
		err->suggested_actions = list_make2(psprintf("Ask the user to confirm that %s may be dropped, then retry with \"confirm\": true.",
													 call->table),
											pstrdup("Preview with \"confirm\": true and \"dry_run\": true: it reports what blocks the drop, and keeps nothing."));
	}
	err->path = pstrdup("$.confirm");
	err->affected_resources = list_make1(call->table);
	nat_throw(err);
}

/*
 * System catalogs are not for agents to empty, drop or delete from.
 */
static void
refuse_system_catalog(ToolCall *call, Oid relid)
{
	Oid			nspid = get_rel_namespace(relid);
	ToolError  *err;

	if (!IsCatalogNamespace(nspid) && !IsToastNamespace(nspid))
		return;
	err = nat_error(NAT_ERR_PERMISSION_DENIED,
					"permission denied: \"%s\" is a system catalog",
					get_rel_name(relid));
	err->sqlerrcode = ERRCODE_INSUFFICIENT_PRIVILEGE;
	err->suggestion = pstrdup("System catalogs are changed by DDL commands, never directly; use a table of your own.");
	err->affected_resources = list_make1(call->table);
	nat_throw(err);
}

/*
 * Refuse, before any lock is taken, what PostgreSQL would refuse with 42501.
 */
static void
throw_permission_denied(ToolCall *call, char *message, char *suggestion)
{
	ToolError  *err = nat_error(NAT_ERR_PERMISSION_DENIED, "%s", message);

	err->sqlerrcode = ERRCODE_INSUFFICIENT_PRIVILEGE;
	err->suggestion = suggestion;
	err->affected_resources = list_make1(call->table);
	nat_throw(err);
}

/*
 * TRUNCATE needs the TRUNCATE privilege (checked again by the statement).
 */
static void
check_truncate_privilege(ToolCall *call, Oid relid)
{
	if (pg_class_aclcheck(relid, GetUserId(), ACL_TRUNCATE) == ACLCHECK_OK)
		return;
	throw_permission_denied(call,
							psprintf("permission denied for table %s", call->table),
							psprintf("Truncating %s needs the TRUNCATE privilege, which your role lacks; use mode \"delete\" if you may delete rows, or ask the database administrator.",
									 call->table));
}

/*
 * DROP is for the owner of the relation or of its schema (as in core).
 */
static void
check_drop_privilege(ToolCall *call, Oid relid, char relkind)
{
	Oid			userid = GetUserId();
	Oid			nspid = get_rel_namespace(relid);
	HeapTuple	tuple;
	Oid			relowner;
	Oid			nspowner;

	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	relowner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);

	tuple = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(nspid));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for namespace %u", nspid);
	nspowner = ((Form_pg_namespace) GETSTRUCT(tuple))->nspowner;
	ReleaseSysCache(tuple);

	/* has_privs_of_role() is true for superusers too */
	if (has_privs_of_role(userid, relowner) || has_privs_of_role(userid, nspowner))
		return;
	throw_permission_denied(call,
							psprintf("must be owner of %s %s", relkind_word(relkind), call->table),
							psprintf("Only the owner of %s (or of its schema) may drop it; use mode \"delete\" if you may delete rows, or ask the owner.",
									 call->table));
}

/*
 * Is the string s in the list of strings list?
 */
static bool
string_list_member(List *list, const char *s)
{
	ListCell   *lc;

	foreach(lc, list)
	{
		if (strcmp((char *) lfirst(lc), s) == 0)
			return true;
	}
	return false;
}

/*
 * list_sort() comparator for strings.
 */
static int
compare_strings(const ListCell *a, const ListCell *b)
{
	return strcmp((const char *) lfirst(a), (const char *) lfirst(b));
}

/*
 * Add a blocking object and what to do about it, each once.
 */
static void
add_blocker(Blockers *blockers, Oid relid, char *action)
{
	char	   *name = nat_relation_display_name(relid);

	if (!string_list_member(blockers->names, name))
		blockers->names = lappend(blockers->names, name);
	if (!string_list_member(blockers->actions, action))
		blockers->actions = lappend(blockers->actions, action);
}

/*
 * Would a foreign key constraint make TRUNCATE or DROP of the relations
 * "rels" fail?  It does when it references one of them from a table that
 * is not among them.
 */
static bool
blocking_foreign_key(Form_pg_constraint con, List *rels)
{
	return con->contype == CONSTRAINT_FOREIGN &&
		list_member_oid(rels, con->confrelid) &&
		!list_member_oid(rels, con->conrelid);
}

/*
 * Foreign keys of other tables that reference "rels" (a table and its
 * partitions or children).  pg_constraint has no index on confrelid, so it
 * is scanned whole, as heap_truncate_find_FKs() does.  A constraint cloned
 * for a partition is skipped when the constraint it was cloned from is
 * reported already: one foreign key, one entry.
 */
static void
find_referencing_keys(List *rels, Oid relid, const char *mode,
					  Blockers *blockers)
{
	Relation	conrel;
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *target = nat_relation_display_name(relid);

	conrel = table_open(ConstraintRelationId, AccessShareLock);
	scan = systable_beginscan(conrel, InvalidOid, false, NULL, 0, NULL);
	while ((tuple = systable_getnext(scan)) != NULL)
	{
		Form_pg_constraint con = (Form_pg_constraint) GETSTRUCT(tuple);
		char	   *referencing;

		if (!blocking_foreign_key(con, rels))
			continue;
		if (OidIsValid(con->conparentid))
		{
			HeapTuple	parent = SearchSysCache1(CONSTROID,
												 ObjectIdGetDatum(con->conparentid));
			bool		reported = false;

			if (HeapTupleIsValid(parent))
			{
				reported = blocking_foreign_key((Form_pg_constraint) GETSTRUCT(parent), rels);
				ReleaseSysCache(parent);
			}
			if (reported)
				continue;
		}

		referencing = nat_relation_display_name(con->conrelid);
		if (strcmp(mode, "drop") == 0)
			add_blocker(blockers, con->conrelid,
						psprintf("Drop the foreign key %s of %s first (ALTER TABLE %s DROP CONSTRAINT %s), or drop the table %s.",
								 quote_identifier(NameStr(con->conname)), referencing,
								 referencing, quote_identifier(NameStr(con->conname)),
								 referencing));
		else
			add_blocker(blockers, con->conrelid,
						psprintf("Delete the rows of %s that reference %s, or update them to reference other rows or NULL.",
								 referencing, target));
	}
	systable_endscan(scan);
	table_close(conrel, AccessShareLock);
}

/*
 * The relation a rewrite rule belongs to (a view's own _RETURN rule
 * belongs to the view), or InvalidOid.
 */
static Oid
rule_relation(Oid ruleid)
{
	Relation	rewrite;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tuple;
	Oid			result = InvalidOid;

	rewrite = table_open(RewriteRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_rewrite_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(ruleid));
	scan = systable_beginscan(rewrite, RewriteOidIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		result = ((Form_pg_rewrite) GETSTRUCT(tuple))->ev_class;
	systable_endscan(scan);
	table_close(rewrite, AccessShareLock);
	return result;
}

/*
 * Views and materialized views (and rules of other tables) whose rules use
 * one of "rels": pg_depend rows from pg_rewrite that reference them.
 */
static void
find_dependent_views(List *rels, Oid relid, Blockers *blockers)
{
	Relation	deprel;
	ListCell   *lc;
	char	   *target = nat_relation_display_name(relid);

	deprel = table_open(DependRelationId, AccessShareLock);
	foreach(lc, rels)
	{
		ScanKeyData key[2];
		SysScanDesc scan;
		HeapTuple	tuple;

		ScanKeyInit(&key[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber,
					F_OIDEQ, ObjectIdGetDatum(RelationRelationId));
		ScanKeyInit(&key[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber,
					F_OIDEQ, ObjectIdGetDatum(lfirst_oid(lc)));
		scan = systable_beginscan(deprel, DependReferenceIndexId, true, NULL,
								  2, key);
		while ((tuple = systable_getnext(scan)) != NULL)
		{
			Form_pg_depend dep = (Form_pg_depend) GETSTRUCT(tuple);
			Oid			owner;
			char		kind;
			char	   *name;

			if (dep->classid != RewriteRelationId ||
				dep->deptype != DEPENDENCY_NORMAL)
				continue;
			owner = rule_relation(dep->objid);
			if (!OidIsValid(owner) || list_member_oid(rels, owner))
				continue;
			kind = get_rel_relkind(owner);
			name = nat_relation_display_name(owner);
			if (kind == RELKIND_VIEW || kind == RELKIND_MATVIEW)
				add_blocker(blockers, owner,
							psprintf("Drop the %s %s first, or redefine it without %s.",
									 relkind_word(kind), name, target));
			else
				add_blocker(blockers, owner,
							psprintf("Drop the rule of %s that uses %s first.",
									 name, target));
		}
		systable_endscan(scan);
	}
	table_close(deprel, AccessShareLock);
}

/*
 * Inheritance children of a table that is not partitioned (partitions are
 * dropped with their table; children are not, so they block DROP).
 */
static void
find_inheritance_children_of(Oid relid, Blockers *blockers)
{
	ListCell   *lc;
	char	   *target = nat_relation_display_name(relid);

	foreach(lc, find_inheritance_children(relid, AccessShareLock))
	{
		char	   *child = nat_relation_display_name(lfirst_oid(lc));

		add_blocker(blockers, lfirst_oid(lc),
					psprintf("Drop the child table %s first, or detach it with ALTER TABLE %s NO INHERIT %s.",
							 child, child, target));
	}
}

/*
 * May the caller read every row of relid (with its partitions or
 * children)?  Only then are they counted: otherwise the count would be
 * wrong, or would tell what the caller may not see.
 */
static bool
may_count_rows(Oid relid)
{
	Oid			userid = GetUserId();

	if (pg_class_aclcheck(relid, userid, ACL_SELECT) != ACLCHECK_OK &&
		pg_attribute_aclcheck_all(relid, userid, ACL_SELECT, ACLMASK_ANY) != ACLCHECK_OK)
		return false;
	return check_enable_rls(relid, InvalidOid, true) != RLS_ENABLED;
}

/*
 * Plan the affectedRows of truncate and drop: the rows the relation held,
 * counted as the caller right before the statement, or none when that is
 * not to be reported.  Views and foreign tables hold no rows here (a
 * dropped foreign table's rows stay on the remote server), and an
 * unpopulated materialized view none either.
 */
static void
plan_rows_held(ToolCall *call, ToolPlan *plan, Oid relid, char relkind,
			   const char *mode)
{
	StringInfoData sql;

	plan->affected_from = PLAN_AFFECTED_CONSTANT;
	plan->affected_constant = 0;
	if (relkind == RELKIND_VIEW)
		return;
	if (relkind == RELKIND_FOREIGN_TABLE && strcmp(mode, "drop") == 0)
		return;
	if (relkind == RELKIND_MATVIEW)
	{
		HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
		bool		populated;

		if (!HeapTupleIsValid(tuple))
			elog(ERROR, "cache lookup failed for relation %u", relid);
		populated = ((Form_pg_class) GETSTRUCT(tuple))->relispopulated;
		ReleaseSysCache(tuple);
		if (!populated)
			return;
	}
	if (!may_count_rows(relid))
	{
		nat_plan_add_warning(plan,
							 psprintf("affectedRows is not reported: your role may not read every row of %s, so the number of rows removed is not shown.",
									  call->table));
		plan->affected_from = PLAN_AFFECTED_NONE;
		return;
	}
	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT pg_catalog.count(*) FROM ");
	appendStringInfoString(&sql, call->table);
	plan->affected_from = PLAN_AFFECTED_COUNT;
	plan->count_sql = sql.data;
}

/*
 * Plan "<command> <rel> RESTRICT" (TRUNCATE TABLE, DROP VIEW, ...), with
 * the rows the relation held as its affectedRows.
 */
static void
plan_whole_table(ToolCall *call, ToolPlan *plan, char relkind,
				 const char *mode, const char *command)
{
	plan_rows_held(call, plan, plan->relid, relkind, mode);
	plan->run = PLAN_UTILITY;
	plan->sql = psprintf("%s %s RESTRICT", command, call->table);
}

/*
 * A view takes DELETE if it is automatically updatable or has an INSTEAD
 * OF DELETE trigger or rule; otherwise PostgreSQL's refusal (55000) would
 * reach the agent as an unknown error, so say why here.
 */
static void
check_view_deletable(ToolCall *call, Oid relid)
{
	Relation	rel;
	const char *reason;
	ToolError  *err;

	if (relation_is_updatable(relid, NIL, true, NULL) & (1 << CMD_DELETE))
		return;
	rel = relation_open(relid, AccessShareLock);
	reason = view_query_is_auto_updatable(get_view_query(rel), false);
	relation_close(rel, AccessShareLock);

	err = nat_error(NAT_ERR_INVALID_PARAMETERS, "cannot delete from view %s",
					call->table);
	err->path = pstrdup("$.table");
	err->hint = reason ? pstrdup(reason) : NULL;
	err->suggestion = pstrdup("This view cannot pass deletes on to its table; delete from the underlying table instead.");
	err->affected_resources = list_make1(call->table);
	nat_throw(err);
}

/*
 * mode delete: DELETE FROM <rel> [WHERE ...] [RETURNING ...]
 */
static void
delete_rows(ToolCall *call, ToolPlan *plan)
{
	Oid			relid = plan->relid = nat_begin_write(call);
	StringInfoData sql;

	if (get_rel_relkind(relid) == RELKIND_MATVIEW)
		nat_invalid_param("$.table",
						  "A materialized view is refreshed, not changed row by row: delete from its base tables and refresh it, or drop it with mode \"drop\".",
						  "cannot delete rows from materialized view %s", call->table);
	if (get_rel_relkind(relid) == RELKIND_VIEW)
		check_view_deletable(call, relid);
	refuse_system_catalog(call, relid);

	initStringInfo(&sql);
	appendStringInfoString(&sql, "DELETE FROM ");
	appendStringInfoString(&sql, call->table);
	nat_deparse_write_filter(&sql, call, plan, relid, NAT_OP_DELETE);
	nat_deparse_returning(&sql, call, plan, relid);

	plan->run = PLAN_WRITE;
	plan->sql = sql.data;
	plan->max_affected = nat_effective_max_affected(call);
}

/*
 * mode truncate: TRUNCATE TABLE <rel> RESTRICT, after checking that no
 * foreign key of another table references it.
 */
static void
truncate_table(ToolCall *call, ToolPlan *plan)
{
	Oid			relid;
	char		relkind;
	List	   *rels;
	Blockers	blockers = {NIL, NIL};

	call->operation = NAT_OP_TRUNCATE;
	refuse_delete_only_args(call, "truncate");
	relid = plan->relid = nat_begin_write(call);
	relkind = get_rel_relkind(relid);
	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE &&
		relkind != RELKIND_FOREIGN_TABLE)
		nat_invalid_param("$.table",
						  psprintf("Only tables can be truncated. To remove the %s itself, use mode \"drop\"%s.",
								   relkind_word(relkind),
								   relkind == RELKIND_VIEW ?
								   "; to delete rows through it, use mode \"delete\"" : ""),
						  "cannot truncate %s %s", relkind_word(relkind), call->table);
	require_confirm(call, "truncate", relkind);
	refuse_system_catalog(call, relid);
	check_truncate_privilege(call, relid);
	PreventCommandIfReadOnly("TRUNCATE TABLE");

	/* the statement's own lock, on the table and everything under it */
	LockRelationOid(relid, AccessExclusiveLock);
	rels = find_all_inheritors(relid, AccessExclusiveLock, NULL);

	find_referencing_keys(rels, relid, "truncate", &blockers);
	list_sort(blockers.names, compare_strings);
	if (blockers.names != NIL)
	{
		StringInfoData names;
		ListCell   *lc;
		ToolError  *err;

		initStringInfo(&names);
		foreach(lc, blockers.names)
			appendStringInfo(&names, "%s%s", names.len > 0 ? ", " : "",
							 (char *) lfirst(lc));
		err = nat_error(NAT_ERR_DEPENDENT_OBJECTS,
						"cannot truncate %s because foreign keys of %s reference it",
						call->table, names.data);
		err->sqlerrcode = ERRCODE_FEATURE_NOT_SUPPORTED;
		err->suggestion = psprintf("TRUNCATE is refused while another table has a foreign key to %s, even an empty one; delete the rows with mode \"delete\" instead.",
								   call->table);
		err->suggested_actions = blockers.actions;
		err->suggested_actions = lappend(err->suggested_actions,
										 psprintf("Then delete every row of %s with mode \"delete\" and \"confirm_all_rows\": true.",
												  call->table));
		if (execute_sql_available())
			err->suggested_actions = lappend(err->suggested_actions,
											 psprintf("Or, if the rows of %s may go too, truncate them together with execute_sql: TRUNCATE %s, %s.",
													  names.data, call->table, names.data));
		err->affected_resources = list_make1(call->table);
		err->dependencies = blockers.names;
		nat_throw(err);
	}

	plan_whole_table(call, plan, relkind, "truncate", "TRUNCATE TABLE");
}

/*
 * mode drop: DROP TABLE|VIEW|... <rel> RESTRICT, after checking that
 * nothing depends on it.
 */
static void
drop_relation(ToolCall *call, ToolPlan *plan)
{
	Oid			relid;
	char		relkind;
	List	   *rels;
	Blockers	blockers = {NIL, NIL};

	call->operation = NAT_OP_DROP;
	refuse_delete_only_args(call, "drop");
	relid = plan->relid = nat_begin_write(call);
	relkind = get_rel_relkind(relid);
	require_confirm(call, "drop", relkind);
	refuse_system_catalog(call, relid);
	check_drop_privilege(call, relid, relkind);
	PreventCommandIfReadOnly(psprintf("DROP %s", relkind_drop_keyword(relkind)));

	/* the statement's own lock; partitions go with a partitioned table */
	LockRelationOid(relid, AccessExclusiveLock);
	if (relkind == RELKIND_PARTITIONED_TABLE)
		rels = find_all_inheritors(relid, AccessExclusiveLock, NULL);
	else
		rels = list_make1_oid(relid);

	find_referencing_keys(rels, relid, "drop", &blockers);
	find_dependent_views(rels, relid, &blockers);
	if (relkind != RELKIND_PARTITIONED_TABLE)
		find_inheritance_children_of(relid, &blockers);
	list_sort(blockers.names, compare_strings);
	if (blockers.names != NIL)
	{
		ToolError  *err;

		err = nat_error(NAT_ERR_DEPENDENT_OBJECTS,
						"cannot drop %s %s because other objects depend on it",
						relkind_word(relkind), call->table);
		err->sqlerrcode = ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST;
		err->suggestion = psprintf("Remove or change the objects listed in dependencies first; delete_data never drops them along with %s (no CASCADE).",
								   call->table);
		err->suggested_actions = blockers.actions;
		err->affected_resources = list_make1(call->table);
		err->dependencies = blockers.names;
		nat_throw(err);
	}

	plan_whole_table(call, plan, relkind, "drop",
					 psprintf("DROP %s", relkind_drop_keyword(relkind)));
}

/*
 * delete_data(table, where, confirm_all_rows, mode, confirm, dry_run,
 *			   returning, max_affected, timeout_ms)
 */
static void
delete_data(ToolCall *call, const void *targs, ToolPlan *plan)
{
	int			mode = ((const DeleteArgs *) targs)->mode;

	if (mode == MODE_DELETE)
		delete_rows(call, plan);
	else if (mode == MODE_TRUNCATE)
		truncate_table(call, plan);
	else
		drop_relation(call, plan);
}
