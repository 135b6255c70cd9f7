/*-------------------------------------------------------------------------
 *
 * constraint_errors.c
 *		  Constraint violations (class 23) explained from the catalog, with
 *		  the fix as the call that failed can take it.
 *
 * PostgreSQL names the table, the constraint and, for NOT NULL, the
 * column.  The catalog says the rest, and each answer turns it into a
 * step the agent can take with the tool it called:
 *
 *	 - NOT NULL: the column's type, its default, an example value, and
 *	   where to give it (a row of insert_data, update_data's set, the
 *	   statement);
 *	 - foreign key, the referencing side: the referenced table and key
 *	   columns, that the key given is not there, a select_query that lists
 *	   the keys and the insert that would add it; the referenced side (a
 *	   delete or update of a row others point at): the referencing table,
 *	   its columns and the constraint's ON DELETE / ON UPDATE rule;
 *	 - CHECK: the constraint's expression (pg_get_constraintdef, clipped)
 *	   and its columns;
 *	 - unique (a constraint, or a unique index without one): the key
 *	   columns, that a row with that key exists, and insert_data's
 *	   on_conflict and conflict_columns (ON CONFLICT for an INSERT of the
 *	   agent's own).
 *
 * Values are never repeated: the key the agent gave is in PostgreSQL's
 * DETAIL (details.detail), which PostgreSQL writes only when the role may
 * read the key's columns.  A column is named only when the role may see it
 * (SELECT, INSERT or UPDATE on it, as describe_table shows columns): if
 * one of a key's columns is hidden, the answer names none of them and
 * keeps PostgreSQL's own words.  Domain constraints and constraints that
 * cannot be found are left as PostgreSQL reported them.
 *
 * IDENTIFICATION
 *		  src/answer/constraint_errors.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_index.h"
#include "miscadmin.h"
#include "answer/answer.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

/* what one violation is about, copied out of the catalog */
typedef struct Violation
{
	ErrorData  *edata;
	ToolCall   *call;
	ErrorEnrichment *en;
	Oid			relid;			/* the table the error names */
	char	   *table;			/* its display name */
	const char *conname;
	Oid			conoid;			/* InvalidOid: a unique index */
	char		contype;		/* CONSTRAINT_*; 'u' for a unique index */
	List	   *attnums;		/* the key's columns (int) */
	List	   *columns;		/* ... their names */
	char	   *names;			/* the same, quoted: "a", "b" */
	Oid			confrelid;		/* a foreign key's referenced table */
	List	   *ref_attnums;	/* ... and its key (int) */
	char		confdeltype;
	char		confupdtype;
} Violation;

/*
 * Is the call one of the tool called name?
 */
static bool
called(ToolCall *call, const char *name)
{
	return strcmp(call->tool_name, name) == 0;
}

/*
 * names as a JSON array: ["a", "b"].
 */
static char *
json_names(List *names)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	foreach(lc, names)
	{
		if (foreach_current_index(lc) > 0)
			appendStringInfoString(&buf, ", ");
		escape_json(&buf, lfirst(lc));
	}
	appendStringInfoChar(&buf, ']');
	return buf.data;
}

/*
 * The names of columns attnums of relid, or NIL if the role may not see
 * one of them.
 */
static List *
visible_names(Oid relid, List *attnums)
{
	List	   *names = NIL;
	ListCell   *lc;

	foreach(lc, attnums)
	{
		AttrNumber	attnum = lfirst_int(lc);
		char	   *att = get_attname(relid, attnum, true);

		if (att == NULL || !nat_column_visible(relid, attnum))
			return NIL;
		names = lappend(names, att);
	}
	return names;
}

/*
 * May the role read every column of attnums (of relid)?
 */
static bool
all_readable(Oid relid, List *attnums)
{
	ListCell   *lc;

	foreach(lc, attnums)
	{
		if (!nat_column_privileged(relid, lfirst_int(lc), ACL_SELECT))
			return false;
	}
	return true;
}

/*
 * The attribute numbers of an int2[] field of a pg_constraint row.
 */
static List *
constraint_attnums(HeapTuple tuple, AttrNumber field)
{
	bool		isnull;
	Datum		d = SysCacheGetAttr(CONSTROID, tuple, field, &isnull);
	List	   *attnums = NIL;
	Datum	   *elems;
	int			n;
	int			i;

	if (isnull)
		return NIL;
	deconstruct_array(DatumGetArrayTypeP(d), INT2OID, 2, true, TYPALIGN_SHORT,
					  &elems, NULL, &n);
	for (i = 0; i < n; i++)
		attnums = lappend_int(attnums, DatumGetInt16(elems[i]));
	return attnums;
}

/*
 * Is a constraint of kind contype one that raises sqlerrcode?  The fields
 * of an error are whatever its raiser put there (RAISE ... USING
 * CONSTRAINT, TABLE, SCHEMA), so a "foreign key" error may name a primary
 * key, which has no referenced table.
 */
static bool
constraint_raises(char contype, int sqlerrcode)
{
	switch (sqlerrcode)
	{
		case ERRCODE_UNIQUE_VIOLATION:
			return contype == CONSTRAINT_UNIQUE || contype == CONSTRAINT_PRIMARY;
		case ERRCODE_EXCLUSION_VIOLATION:
			return contype == CONSTRAINT_EXCLUSION;
		case ERRCODE_FOREIGN_KEY_VIOLATION:
		case ERRCODE_RESTRICT_VIOLATION:
			return contype == CONSTRAINT_FOREIGN;
		case ERRCODE_CHECK_VIOLATION:
			return contype == CONSTRAINT_CHECK;
	}
	return true;				/* the others are not explained by kind */
}

/*
 * Fill v from the constraint the error names; false if there is none that
 * raises this error.
 */
static bool
read_constraint(Violation *v, Oid conoid)
{
	HeapTuple	tuple = SearchSysCache1(CONSTROID, ObjectIdGetDatum(conoid));
	Form_pg_constraint con;
	List	   *attnums;

	if (!HeapTupleIsValid(tuple))
		return false;
	con = (Form_pg_constraint) GETSTRUCT(tuple);
	if (!constraint_raises(con->contype, v->edata->sqlerrcode))
	{
		ReleaseSysCache(tuple);
		return false;
	}
	v->conoid = conoid;
	v->contype = con->contype;
	v->confrelid = con->confrelid;
	v->confdeltype = con->confdeltype;
	v->confupdtype = con->confupdtype;
	attnums = constraint_attnums(tuple, Anum_pg_constraint_conkey);
	if (con->contype == CONSTRAINT_FOREIGN)
		v->ref_attnums = constraint_attnums(tuple, Anum_pg_constraint_confkey);
	ReleaseSysCache(tuple);
	v->attnums = attnums;
	v->columns = visible_names(v->relid, attnums);
	return attnums == NIL || v->columns != NIL;
}

/*
 * Fill v from a unique index of that name without a constraint (CREATE
 * UNIQUE INDEX): its key columns, when they are plain columns and the
 * index is not partial (ON CONFLICT could not infer it from them alone).
 */
static bool
read_unique_index(Violation *v, Oid nspid)
{
	Oid			indexoid = get_relname_relid(v->conname, nspid);
	HeapTuple	tuple;
	Form_pg_index index;
	List	   *attnums = NIL;
	bool		plain;
	int			i;

	if (v->edata->sqlerrcode != ERRCODE_UNIQUE_VIOLATION || !OidIsValid(indexoid))
		return false;
	tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(indexoid));
	if (!HeapTupleIsValid(tuple))
		return false;
	index = (Form_pg_index) GETSTRUCT(tuple);
	plain = index->indisunique && index->indrelid == v->relid &&
		heap_attisnull(tuple, Anum_pg_index_indpred, NULL);
	for (i = 0; plain && i < index->indnkeyatts; i++)
	{
		plain = index->indkey.values[i] != 0;	/* 0: an expression */
		attnums = lappend_int(attnums, index->indkey.values[i]);
	}
	ReleaseSysCache(tuple);
	if (!plain)
		return false;
	v->contype = CONSTRAINT_UNIQUE;
	v->attnums = attnums;
	v->columns = visible_names(v->relid, attnums);
	return v->columns != NIL;
}

/*
 * Find what the error names: its table, and the constraint or unique
 * index with its columns.
 */
static bool
find_violation(ErrorData *edata, ToolCall *call, ErrorEnrichment *en,
			   Violation *v)
{
	Oid			nspid;
	Oid			conoid;

	memset(v, 0, sizeof(Violation));
	v->edata = edata;
	v->call = call;
	v->en = en;
	v->conname = edata->constraint_name;
	if (edata->schema_name == NULL || edata->table_name == NULL ||
		edata->constraint_name == NULL)
		return false;
	nspid = get_namespace_oid(edata->schema_name, true);
	v->relid = OidIsValid(nspid) ? get_relname_relid(edata->table_name, nspid) : InvalidOid;
	/* the fields are the raiser's to set (RAISE ... USING TABLE =) */
	if (!OidIsValid(v->relid) || !nat_relation_visible_to_caller(v->relid, nspid))
		return false;
	v->table = quote_qualified_identifier(edata->schema_name, edata->table_name);
	conoid = get_relation_constraint_oid(v->relid, edata->constraint_name, true);
	if (OidIsValid(conoid) ? !read_constraint(v, conoid) : !read_unique_index(v, nspid))
		return false;
	v->names = nat_quoted_names(v->columns);
	return true;
}

/*
 * Add a step to the answer.
 */
static void
act(Violation *v, char *step)
{
	v->en->suggested_actions = lappend(v->en->suggested_actions, step);
}

/*
 * A foreign key rule (confdeltype, confupdtype) in SQL's words.
 */
static const char *
fk_rule(char c)
{
	switch (c)
	{
		case FKCONSTR_ACTION_RESTRICT:
			return "RESTRICT";
		case FKCONSTR_ACTION_CASCADE:
			return "CASCADE";
		case FKCONSTR_ACTION_SETNULL:
			return "SET NULL";
		case FKCONSTR_ACTION_SETDEFAULT:
			return "SET DEFAULT";
	}
	return "NO ACTION";
}

/*
 * The command that failed: T_DeleteStmt, T_UpdateStmt, T_InsertStmt, or
 * T_Invalid when it is not known (a tool's own statement, several).
 */
static NodeTag
failed_command(ToolCall *call)
{
	StatementShape shape;

	if (call->operation == NAT_OP_DELETE)
		return T_DeleteStmt;
	if (call->operation == NAT_OP_UPDATE)
		return T_UpdateStmt;
	if (call->operation == NAT_OP_INSERT)
		return T_InsertStmt;
	if (call->query_source && nat_statement_shape(call->query, &shape))
		return shape.command;
	return T_Invalid;
}

/*
 * A delete or update of rows that others reference: the referencing
 * table, its columns, and the constraint's rule for the change.
 */
static void
explain_fk_referenced(Violation *v)
{
	NodeTag		command = failed_command(v->call);
	bool		deleting = command == T_DeleteStmt;
	bool		updating = command == T_UpdateStmt;
	char	   *rule = deleting ? psprintf("ON DELETE %s", fk_rule(v->confdeltype)) :
		updating ? psprintf("ON UPDATE %s", fk_rule(v->confupdtype)) :
		psprintf("ON DELETE %s, ON UPDATE %s", fk_rule(v->confdeltype),
				 fk_rule(v->confupdtype));

	v->en->dependencies = lappend(v->en->dependencies, v->table);
	v->en->suggestion =
		psprintf("Rows of %s still reference these rows through %s (constraint %s, %s), so they cannot be %s; delete or change those rows of %s first: tools never cascade.",
				 v->table, v->names, v->conname, rule,
				 deleting ? "deleted" : updating ? "changed" : "deleted or changed",
				 v->table);
	if (all_readable(v->relid, v->attnums))
		act(v, psprintf("Find the rows that reference them with select_query on \"%s\", filtered on %s.",
						v->table, v->names));
	act(v, psprintf("Delete or update those rows of \"%s\" first, then retry.", v->table));
	act(v, psprintf("If such rows should follow, the owner of %s can recreate constraint %s with %s CASCADE or SET NULL.",
					v->table, v->conname, updating ? "ON UPDATE" : "ON DELETE"));
}

/*
 * A key that is not in the referenced table: that table and its key
 * columns, how to list the keys there, and the insert that adds one.
 */
static void
explain_fk_referencing(Violation *v)
{
	char	   *referenced;
	List	   *ref_names;

	/* dropped since the error: say nothing */
	if (get_rel_name(v->confrelid) == NULL)
		return;
	referenced = nat_relation_display_name(v->confrelid);
	ref_names = visible_names(v->confrelid, v->ref_attnums);
	v->en->affected_resources = lappend(v->en->affected_resources, referenced);
	v->en->suggestion = ref_names != NIL ?
		psprintf("The value of %s must match an existing %s of %s, and the key given is not there; use an existing key, or insert that row into %s first.",
				 v->names, nat_quoted_names(ref_names), referenced, referenced) :
		psprintf("The value of %s must match an existing row of %s, and the key given is not there; use an existing key, or insert that row first.",
				 v->names, referenced);
	if (ref_names != NIL && all_readable(v->confrelid, v->ref_attnums))
		act(v, psprintf("Look up the existing keys with select_query: {\"table\": %s, \"columns\": %s}.",
						nat_json_quoted(referenced), json_names(ref_names)));
	if (pg_class_aclcheck(v->confrelid, GetUserId(), ACL_INSERT) == ACLCHECK_OK ||
		pg_attribute_aclcheck_all(v->confrelid, GetUserId(), ACL_INSERT,
								  ACLMASK_ANY) == ACLCHECK_OK)
		act(v, psprintf("Insert the referenced row into \"%s\" first (insert_data), then retry.",
						referenced));
	if (v->en->suggested_actions == NIL)
		act(v, psprintf("Use a key that exists in \"%s\"; your role may not read its keys, so ask the database administrator which exist.",
						referenced));
}

/*
 * Is the foreign key error about rows others reference (a delete or
 * update of the referenced table) rather than a key that is not there?
 * Both name the referencing table; the message says which (an untranslated
 * one), else the call's table does (not for a table that references
 * itself).
 */
static bool
fk_referenced_side(Violation *v)
{
	const char *msg = v->edata->message;

	if (msg && strncmp(msg, "update or delete on table ", 26) == 0)
		return true;
	if (msg && strncmp(msg, "insert or update on table ", 26) == 0)
		return false;
	return v->call->table && strcmp(v->call->table, v->table) != 0;
}

/*
 * A CHECK constraint: its expression, clipped, and its columns.
 */
static void
explain_check(Violation *v)
{
	LOCAL_FCINFO(fcinfo, 1);
	Datum		def;
	char	   *expr;
	bool		one = list_length(v->columns) == 1;

	InitFunctionCallInfoData(*fcinfo, NULL, 1, InvalidOid, NULL, NULL);
	fcinfo->args[0].value = ObjectIdGetDatum(v->conoid);
	fcinfo->args[0].isnull = false;
	def = pg_get_constraintdef(fcinfo);
	if (fcinfo->isnull)
		return;					/* dropped since the error */
	expr = nat_clip(TextDatumGetCString(def));
	if (v->columns == NIL)
	{
		v->en->suggestion = psprintf("The values break check constraint %s of %s: %s; pass values that satisfy it.",
									 v->conname, v->table, expr);
		return;
	}
	v->en->suggestion = psprintf("The values break check constraint %s of %s: %s; give %s %s that %s it.",
								 v->conname, v->table, expr, v->names,
								 one ? "a value" : "values", one ? "satisfies" : "satisfy");
	act(v, psprintf(called(v->call, "update_data") ? "Set %s to %s that %s %s." :
					called(v->call, "insert_data") ? "Give %s %s that %s %s in every row." :
					"Give %s %s that %s %s.",
					v->names, one ? "a value" : "values",
					one ? "satisfies" : "satisfy", expr));
}

/*
 * A key that exists already: the key columns, and for an insert the
 * on_conflict options (ON CONFLICT for the agent's own INSERT).
 */
static void
explain_unique(Violation *v)
{
	char	   *json = json_names(v->columns);
	bool		insert_tool = called(v->call, "insert_data");
	bool		own_insert = !insert_tool && v->call->query_source &&
		failed_command(v->call) == T_InsertStmt;
	StringInfoData keys;
	ListCell   *lc;

	v->en->suggestion =
		psprintf("A row with the same %s already exists in %s.%s", v->names, v->table,
				 insert_tool ? psprintf(" Use on_conflict \"skip\" to keep the existing row, or \"update\" to overwrite it, with conflict_columns %s.", json) :
				 own_insert ? " Add ON CONFLICT to the INSERT to skip or update such rows." :
				 psprintf(" Give %s a value no other row has.", v->names));
	if (insert_tool)
	{
		act(v, psprintf("Retry with \"on_conflict\": \"skip\", \"conflict_columns\": %s to keep the existing row (skippedRows counts it).", json));
		act(v, psprintf("Retry with \"on_conflict\": \"update\", \"conflict_columns\": %s to overwrite the existing row with the new values.", json));
	}
	else if (own_insert)
	{
		initStringInfo(&keys);
		foreach(lc, v->columns)
			appendStringInfo(&keys, "%s%s", keys.len > 0 ? ", " : "",
							 quote_identifier(lfirst(lc)));
		act(v, psprintf("Add ON CONFLICT (%s) DO NOTHING to skip rows whose key exists.", keys.data));
		act(v, psprintf("Add ON CONFLICT (%s) DO UPDATE SET ... = EXCLUDED.... to update them instead.", keys.data));
	}
	else
		act(v, psprintf("Give %s a value no other row of %s has.", v->names, v->table));
	if (all_readable(v->relid, v->attnums))
		act(v, psprintf("Look up the existing row with select_query on \"%s\", filtered on %s.",
						v->table, v->names));
}

/*
 * "e.g. ..." with an example value of the column's type, as the call
 * takes it ("col": value in a write tool's JSON, a literal in SQL); "" if
 * there is none.
 */
static char *
example_phrase(const char *column, Oid typid, int32 typmod, bool json)
{
	char	   *example = nat_type_example(typid, typmod, !json);

	if (example == NULL)
		return "";
	return json ? psprintf(", e.g. %s: %s", nat_json_quoted(column), example) :
		psprintf(", e.g. %s", example);
}

/*
 * The step that gives column col (of type type, with a default or not) a
 * value, in the call's own terms; eg is example_phrase()'s.
 */
static char *
not_null_step(ToolCall *call, const char *col, const char *type, bool has_default,
			  const char *eg)
{
	if (called(call, "update_data"))
		return psprintf("Set \"%s\" to a %s value instead of null%s.", col, type, eg);
	if (called(call, "insert_data") && has_default)
		return psprintf("Leave \"%s\" out of the rows to take its default, or give it a %s value%s.",
						col, type, eg);
	if (called(call, "insert_data"))
		return psprintf("Give \"%s\" a %s value in every row%s.", col, type, eg);
	if (has_default)
		return psprintf("Give \"%s\" a non-null %s value%s, or DEFAULT.", col, type, eg);
	return psprintf("Give \"%s\" a non-null %s value in the statement%s.", col, type, eg);
}

/*
 * A null where the column allows none: its type, its default, an example,
 * and where the call gives it a value.  The column's table is the one the
 * error names: when that is not the call's table, a cascade or a trigger
 * made the null (ON DELETE SET NULL into a NOT NULL column).
 */
static void
explain_not_null(ErrorData *edata, ToolCall *call, ErrorEnrichment *en)
{
	const char *col = edata->column_name;
	Oid			nspid = edata->schema_name ? get_namespace_oid(edata->schema_name, true) : InvalidOid;
	Oid			relid = OidIsValid(nspid) && edata->table_name ?
		get_relname_relid(edata->table_name, nspid) : InvalidOid;
	AttrNumber	attnum = OidIsValid(relid) ? get_attnum(relid, col) : InvalidAttrNumber;
	bool		json = called(call, "insert_data") || called(call, "update_data");
	char	   *table;
	char	   *type;
	char	   *def;
	char	   *eg;
	Oid			typid;
	int32		typmod;
	Oid			collid;

	if (attnum == InvalidAttrNumber || !nat_column_visible(relid, attnum))
	{
		en->suggestion = psprintf("Column \"%s\" cannot be null: supply a value for it.", col);
		en->suggested_actions = lappend(en->suggested_actions,
										psprintf("Give \"%s\" a value in every row.", col));
		return;
	}
	table = quote_qualified_identifier(edata->schema_name, edata->table_name);
	get_atttypetypmodcoll(relid, attnum, &typid, &typmod, &collid);
	type = format_type_with_typemod(typid, typmod);
	def = nat_column_default(relid, attnum);
	if (call->table && strcmp(call->table, table) != 0)
	{
		en->suggestion = psprintf("Column \"%s\" of %s (%s) cannot be null, and this change would make it null there (a foreign key's ON DELETE or ON UPDATE SET NULL, or a trigger); change or delete those rows of %s first.",
								  col, table, type, table);
		en->suggested_actions = lappend(en->suggested_actions,
										psprintf("Update or delete the rows of \"%s\" that would get a null \"%s\", then retry.", table, col));
		return;
	}
	en->suggestion = def ?
		psprintf("Column \"%s\" of %s (%s, default %s) cannot be null: give it a value%s.",
				 col, table, type, def,
				 called(call, "update_data") ? "" : ", or leave it out to take its default") :
		psprintf("Column \"%s\" of %s (%s, no default) cannot be null: give it a value.",
				 col, table, type);
	eg = example_phrase(col, typid, typmod, json);
	en->suggested_actions = lappend(en->suggested_actions,
									not_null_step(call, col, type, def != NULL, eg));
}

/*
 * Explain a constraint violation (class 23) from the catalog: the
 * constraint's columns join affected_resources, a foreign key blocking a
 * delete names the referencing table in dependencies, and the suggestion
 * and suggested_actions say what to do (see the file comment).
 */
void
nat_explain_constraint_error(ErrorData *edata, ToolCall *call, ErrorEnrichment *en)
{
	Violation	v;
	ListCell   *lc;

	if (edata->sqlerrcode == ERRCODE_NOT_NULL_VIOLATION && edata->column_name)
	{
		explain_not_null(edata, call, en);
		return;
	}
	if (!find_violation(edata, call, en, &v))
		return;
	foreach(lc, v.columns)
		en->affected_resources = lappend(en->affected_resources,
										 psprintf("%s.%s", v.table, quote_identifier(lfirst(lc))));

	switch (edata->sqlerrcode)
	{
		case ERRCODE_EXCLUSION_VIOLATION:
			en->suggestion = psprintf("The row conflicts with an existing row of %s under exclusion constraint %s (on %s); change the values so they no longer overlap.",
									  v.table, v.conname, v.names);
			break;
		case ERRCODE_UNIQUE_VIOLATION:
			explain_unique(&v);
			break;
		case ERRCODE_RESTRICT_VIOLATION:
			/* 18 reports an ON DELETE/UPDATE RESTRICT refusal as 23001 */
			explain_fk_referenced(&v);
			break;
		case ERRCODE_FOREIGN_KEY_VIOLATION:
			if (fk_referenced_side(&v))
				explain_fk_referenced(&v);
			else
				explain_fk_referencing(&v);
			break;
		case ERRCODE_CHECK_VIOLATION:
			explain_check(&v);
			break;
	}
}
