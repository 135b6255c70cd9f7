/*-------------------------------------------------------------------------
 *
 * privilege_errors.c
 *		  "permission denied for table t" explained: which privilege, on
 *		  which table or columns, and what the role may do instead.
 *
 * PostgreSQL checks a statement's privileges as a whole and names only the
 * table, whether a table privilege or one column's is missing.  The
 * statement that failed (statement_shape.c: a tool's generated SQL or the
 * agent's own) says what it needed: the command's privilege (INSERT,
 * UPDATE, DELETE) on the table or on each column it gives values, and
 * SELECT on each column it reads (where, returning, set expressions, a
 * select list, *).  These are checked again for the role, in that order,
 * and the first that is missing is answered: "UPDATE on column \"status\"
 * of public.people", with the columns the role may update instead and the
 * GRANT to ask for.
 *
 * Names: a column is named when the statement names it (the agent wrote it,
 * or gave it as an argument the tool wrote in), or when the role has a
 * privilege on it; columns that only * or an INSERT without a column list
 * cover, and that the role has no privilege on, are counted, not named.
 * "permission denied for sequence s" (a serial column's default) names the
 * column whose default it is.  Anything else keeps the general advice.
 *
 * IDENTIFICATION
 *		  src/answer/privilege_errors.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_attribute.h"
#include "miscadmin.h"
#include "answer/answer.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

/* at most this many columns are listed as those the role may use */
#define ALLOWED_COLUMNS_MAX 20

/* the privilege found missing */
typedef struct Denial
{
	Oid			relid;
	char	   *table;			/* display name */
	AclMode		privilege;		/* ACL_INSERT, ACL_UPDATE, ACL_DELETE,
								 * ACL_SELECT */
	bool		conflict;		/* UPDATE of insert's ON CONFLICT DO UPDATE */
	bool		whole_table;	/* the role has it on no column */
	List	   *columns;		/* columns without it, named */
	int			hidden;			/* ... and those counted only */
	bool		star;			/* a * or an INSERT without a column list */
} Denial;

/*
 * The name of a privilege as GRANT spells it.
 */
static const char *
privilege_name(AclMode privilege)
{
	switch (privilege)
	{
		case ACL_INSERT:
			return "INSERT";
		case ACL_UPDATE:
			return "UPDATE";
		case ACL_DELETE:
			return "DELETE";
	}
	return "SELECT";
}

/*
 * The relation (or sequence) PostgreSQL's message says the role may not
 * use, as it names it (bare); NULL for any other message.
 */
static char *
denied_name(const char *msg, bool *sequence)
{
	static const char *const kinds[] = {
		"table ", "view ", "materialized view ", "foreign table ", "sequence "
	};
	static const char prefix[] = "permission denied for ";
	int			i;

	if (msg == NULL || strncmp(msg, prefix, sizeof(prefix) - 1) != 0)
		return NULL;
	msg += sizeof(prefix) - 1;
	for (i = 0; i < lengthof(kinds); i++)
	{
		if (strncmp(msg, kinds[i], strlen(kinds[i])) == 0)
		{
			*sequence = i == lengthof(kinds) - 1;
			return pstrdup(msg + strlen(kinds[i]));
		}
	}
	return NULL;
}

/*
 * Add the columns of relid that lack the privilege, among names (the
 * statement's), or among the first count columns when all is set (all of
 * them for count -1; counted when the role cannot see them).
 */
static void
columns_without(Denial *d, List *names, bool all, int count)
{
	AttrNumber	attnum;
	int			seen = 0;
	ListCell   *lc;

	foreach(lc, names)
	{
		const char *name = lfirst(lc);

		attnum = get_attnum(d->relid, name);
		if (attnum > 0 && !nat_column_privileged(d->relid, attnum, d->privilege) &&
			!nat_name_listed(d->columns, name))
			d->columns = lappend(d->columns, pstrdup(name));
	}
	for (attnum = 1; all; attnum++)
	{
		HeapTuple	tuple = SearchSysCache2(ATTNUM, ObjectIdGetDatum(d->relid),
											Int16GetDatum(attnum));
		Form_pg_attribute att;

		if (!HeapTupleIsValid(tuple))
			break;
		att = (Form_pg_attribute) GETSTRUCT(tuple);
		if (!att->attisdropped && count >= 0 && seen++ == count)
		{
			ReleaseSysCache(tuple);
			break;				/* past the columns given values */
		}
		if (!att->attisdropped && !nat_column_privileged(d->relid, attnum, d->privilege))
		{
			d->star = true;
			if (!nat_column_visible(d->relid, attnum))
				d->hidden++;
			else if (!nat_name_listed(d->columns, NameStr(att->attname)))
				d->columns = lappend(d->columns, pstrdup(NameStr(att->attname)));
		}
		ReleaseSysCache(tuple);
	}
}

/*
 * Does the role lack d->privilege for names (or all columns) of d->relid?
 * Fills d when it does.
 */
static bool
lacks(Denial *d, AclMode privilege, List *names, bool all, int count)
{
	d->privilege = privilege;
	if (pg_class_aclcheck(d->relid, GetUserId(), privilege) == ACLCHECK_OK)
		return false;
	if (privilege == ACL_DELETE ||
		pg_attribute_aclcheck_all(d->relid, GetUserId(), privilege,
								  ACLMASK_ANY) != ACLCHECK_OK)
	{
		d->whole_table = true;
		return true;
	}
	columns_without(d, names, all, count);
	return d->columns != NIL || d->hidden > 0;
}

/*
 * The first privilege the statement needs on d->relid that the role
 * lacks: the command's on the table it writes, then SELECT.
 */
static bool
find_denial(Denial *d, StatementShape *shape, bool target)
{
	if (target)
	{
		switch (shape->command)
		{
			case T_InsertStmt:
				if (lacks(d, ACL_INSERT, shape->written, shape->all_written,
						  shape->written_count))
					return true;
				d->conflict = true;
				if (shape->conflict_updated != NIL &&
					lacks(d, ACL_UPDATE, shape->conflict_updated, false, -1))
					return true;
				d->conflict = false;
				break;
			case T_UpdateStmt:
				if (lacks(d, ACL_UPDATE, shape->written, false, -1))
					return true;
				break;
			case T_DeleteStmt:
				if (lacks(d, ACL_DELETE, NIL, false, -1))
					return true;
				break;
			default:
				break;
		}
	}
	/* SELECT is needed only for the columns a statement reads */
	if (shape->referenced == NIL && !shape->star)
		return false;
	return lacks(d, ACL_SELECT, shape->referenced, shape->star, -1);
}

/*
 * The columns of d->relid the role has d->privilege on: "a", "b", ...
 * (at most ALLOWED_COLUMNS_MAX), or NULL for none.
 */
static char *
allowed_columns(Denial *d)
{
	List	   *names = NIL;
	int			more = 0;
	AttrNumber	attnum;

	for (attnum = 1;; attnum++)
	{
		HeapTuple	tuple = SearchSysCache2(ATTNUM, ObjectIdGetDatum(d->relid),
											Int16GetDatum(attnum));
		Form_pg_attribute att;

		if (!HeapTupleIsValid(tuple))
			break;
		att = (Form_pg_attribute) GETSTRUCT(tuple);
		if (!att->attisdropped && nat_column_privileged(d->relid, attnum, d->privilege))
		{
			if (list_length(names) < ALLOWED_COLUMNS_MAX)
				names = lappend(names, pstrdup(NameStr(att->attname)));
			else
				more++;
		}
		ReleaseSysCache(tuple);
	}
	if (names == NIL)
		return NULL;
	return more > 0 ? psprintf("%s and %d more", nat_quoted_names(names), more) :
		nat_quoted_names(names);
}

/*
 * The step that leaves the denied columns out, in the call's terms.
 */
static char *
leave_out_step(Denial *d, ToolCall *call, const char *missing, const char *allowed)
{
	bool		insert_tool = strcmp(call->tool_name, "insert_data") == 0;
	bool		update_tool = strcmp(call->tool_name, "update_data") == 0;

	if (d->conflict)
		return psprintf("Use \"on_conflict\": \"skip\" instead of \"update\", or leave %s out of the rows: your role may update only %s.",
						missing, allowed);
	switch (d->privilege)
	{
		case ACL_INSERT:
			if (d->star)
				return psprintf("Name the columns to insert: your role may insert only %s.", allowed);
			return psprintf("Leave %s out of %s: your role may insert only %s.", missing,
							insert_tool ? "\"rows\"" : "the INSERT's column list", allowed);
		case ACL_UPDATE:
			return psprintf("Leave %s out of %s: your role may update only %s.", missing,
							update_tool ? "\"set\"" : "SET", allowed);
	}
	if (d->star && !insert_tool && !update_tool && call->query_source)
		return psprintf("Name the columns instead of *: your role may read only %s.", allowed);
	if (insert_tool)
		return psprintf("Pass \"returning\" with columns your role may read (%s), or [] for none.", allowed);
	if (strcmp(call->tool_name, "select_query") == 0)
		return psprintf("Use only columns your role may read in \"columns\", \"where\" and \"order_by\": %s.", allowed);
	if (call->query_source == NULL)
		return psprintf("Use only columns your role may read in \"where\" and \"returning\": %s.", allowed);
	return psprintf("Refer only to columns of %s your role may read: %s.", d->table, allowed);
}

/*
 * The GRANT to ask for: on the columns named, or on the table.
 */
static char *
grant_step(Denial *d)
{
	StringInfoData cols;
	ListCell   *lc;

	if (d->whole_table || d->columns == NIL)
		return psprintf("Ask the database administrator for GRANT %s ON %s.",
						privilege_name(d->privilege), d->table);
	initStringInfo(&cols);
	foreach(lc, d->columns)
		appendStringInfo(&cols, "%s%s", cols.len > 0 ? ", " : "",
						 quote_identifier(lfirst(lc)));
	return psprintf("Ask the database administrator for GRANT %s (%s) ON %s.",
					privilege_name(d->privilege), cols.data, d->table);
}

/*
 * Add a name to affected_resources, once.
 */
static void
add_resource(ErrorEnrichment *en, char *name)
{
	if (!nat_name_listed(en->affected_resources, name))
		en->affected_resources = lappend(en->affected_resources, name);
}

/*
 * Write the answer's fields for d.
 */
static void
report_denial(Denial *d, ToolCall *call, ErrorEnrichment *en)
{
	const char *priv = privilege_name(d->privilege);
	char	   *missing = nat_quoted_names(d->columns);
	char	   *allowed = d->whole_table ? NULL : allowed_columns(d);
	char	   *what;
	ListCell   *lc;

	if (d->whole_table)
		what = psprintf("%s on %s", priv, d->table);
	else if (d->columns == NIL)
		what = psprintf("%s on %d column%s of %s", priv, d->hidden,
						d->hidden == 1 ? "" : "s", d->table);
	else
		what = psprintf("%s on column%s %s of %s%s", priv,
						list_length(d->columns) == 1 ? "" : "s", missing, d->table,
						d->hidden > 0 ? psprintf(" (and on %d more)", d->hidden) : "");
	en->suggestion = allowed ?
		psprintf("Your role lacks %s; it has %s only on %s.", what, priv, allowed) :
		psprintf("Your role lacks %s. Ask the database administrator for GRANT %s ON %s, or use another table.",
				 what, priv, d->table);
	if (allowed)
		en->suggested_actions = lappend(en->suggested_actions,
										leave_out_step(d, call, missing, allowed));
	en->suggested_actions = lappend(en->suggested_actions, grant_step(d));
	add_resource(en, d->table);
	foreach(lc, d->columns)
		add_resource(en, psprintf("%s.%s", d->table, quote_identifier(lfirst(lc))));
}

/*
 * USAGE on a sequence a column default of the table written takes its
 * values from (serial): name that column, which the role can give a value
 * itself.
 */
static void
explain_sequence(const char *name, StatementShape *shape, ErrorEnrichment *en)
{
	Oid			target = nat_statement_target(shape);
	Oid			seqid;
	Oid			relid;
	int32		attnum;
	char	   *seq;
	char	   *column;

	if (!OidIsValid(target))
		return;
	seqid = get_relname_relid(name, get_rel_namespace(target));
	if (!OidIsValid(seqid) ||
		!sequenceIsOwned(seqid, DEPENDENCY_AUTO, &relid, &attnum) || relid != target ||
		!nat_column_visible(relid, attnum))
		return;
	column = get_attname(relid, attnum, false);
	seq = nat_relation_display_name(seqid);
	en->suggestion = psprintf("Your role lacks USAGE on sequence %s, which gives column \"%s\" of %s its default; give \"%s\" a value yourself, or ask for the privilege.",
							  seq, column, nat_relation_display_name(relid), column);
	en->suggested_actions = lappend(en->suggested_actions,
									psprintf("Give \"%s\" a value in every row.", column));
	en->suggested_actions = lappend(en->suggested_actions,
									psprintf("Ask the database administrator for GRANT USAGE ON SEQUENCE %s.", seq));
	add_resource(en, seq);
}

/*
 * Explain a 42501 of the statement the call ran (see the file comment);
 * left as it is when the statement or the relation is not found, or every
 * privilege it needs is there (the denial came from elsewhere: a function,
 * a trigger, a view's owner).
 */
void
nat_explain_privilege_error(ErrorData *edata, ToolCall *call, ErrorEnrichment *en)
{
	StatementShape shape;
	bool		sequence = false;
	char	   *name = denied_name(edata->message, &sequence);
	Denial		d;

	if (name == NULL || !nat_statement_shape(call->query, &shape))
		return;
	if (sequence)
	{
		explain_sequence(name, &shape, en);
		return;
	}
	memset(&d, 0, sizeof(d));
	d.relid = nat_statement_relation(&shape, name);
	if (!OidIsValid(d.relid))
		return;
	d.table = nat_relation_display_name(d.relid);
	if (find_denial(&d, &shape, d.relid == nat_statement_target(&shape)))
		report_denial(&d, call, en);
}
