/*-------------------------------------------------------------------------
 *
 * statement_shape.c
 *		  What one statement names: the table it writes, the columns it
 *		  gives values, the columns and relations it refers to.
 *
 * The error answers of writes (answer/constraint_errors.c,
 * answer/column_limits.c, answer/privilege_errors.c) say which column or
 * privilege a failure is about.  PostgreSQL's errors do not always carry
 * it: "value too long for type character varying(10)" names no column,
 * "permission denied for table t" no privilege.  The statement that failed
 * (the generated SQL of a tool, or the agent's own statement) does: it is
 * read again here with the raw parser, which touches no catalog, so the
 * answer names only what the statement itself wrote.  Relations are
 * resolved on request, without a lock (the statement already ran).
 *
 * IDENTIFICATION
 *		  src/sql/statement_shape.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "plan/plan.h"
#include "nodes/nodeFuncs.h"

/*
 * Collect the column references, relations and ON CONFLICT key columns of
 * a raw statement.  (Names given values are taken from the statement's
 * own fields: a ResTarget's name in a select list is an alias.)
 */
static bool
collect_references(Node *node, StatementShape *shape)
{
	if (node == NULL)
		return false;
	if (IsA(node, ColumnRef))
	{
		Node	   *last = llast(((ColumnRef *) node)->fields);

		if (IsA(last, A_Star))
			shape->star = true;
		else if (IsA(last, String))
			shape->referenced = lappend(shape->referenced, strVal(last));
		return false;
	}
	if (IsA(node, RangeVar))
	{
		shape->relations = lappend(shape->relations, node);
		return false;
	}
	if (IsA(node, IndexElem) && ((IndexElem *) node)->name)
		shape->referenced = lappend(shape->referenced, ((IndexElem *) node)->name);
	return raw_expression_tree_walker(node, collect_references, shape);
}

/*
 * The names of a list of ResTarget (INSERT's column list, UPDATE's SET).
 */
static List *
target_names(List *targets)
{
	List	   *names = NIL;
	ListCell   *lc;

	foreach(lc, targets)
	{
		ResTarget  *rt = lfirst_node(ResTarget, lc);

		if (rt->name)
			names = lappend(names, rt->name);
	}
	return names;
}

/*
 * How many of the table's columns, from the first, an INSERT without a
 * column list gives values: as many as its VALUES rows or select list
 * have; none for DEFAULT VALUES; -1 when a * leaves it open.
 */
static int
leading_columns(InsertStmt *ins)
{
	SelectStmt *select = (SelectStmt *) ins->selectStmt;
	ListCell   *lc;

	if (select == NULL)
		return 0;
	if (!IsA(select, SelectStmt) || select->op != SETOP_NONE)
		return -1;
	if (select->valuesLists != NIL)
		return list_length(linitial(select->valuesLists));
	foreach(lc, select->targetList)
	{
		ResTarget  *rt = lfirst_node(ResTarget, lc);

		if (IsA(rt->val, ColumnRef) &&
			IsA(llast(((ColumnRef *) rt->val)->fields), A_Star))
			return -1;
	}
	return list_length(select->targetList);
}

/*
 * Read sql, one statement, into *shape.  False when it is not one
 * statement (the shape is then empty).
 */
bool
nat_statement_shape(const char *sql, StatementShape *shape)
{
	List	   *stmts;
	Node	   *stmt;

	memset(shape, 0, sizeof(StatementShape));
	shape->command = T_Invalid;
	if (sql == NULL)
		return false;
	stmts = nat_raw_parser(sql);
	if (list_length(stmts) != 1)
		return false;
	stmt = linitial_node(RawStmt, stmts)->stmt;
	shape->command = nodeTag(stmt);
	if (IsA(stmt, InsertStmt))
	{
		InsertStmt *ins = (InsertStmt *) stmt;

		shape->target = ins->relation;
		shape->written = target_names(ins->cols);
		shape->all_written = ins->cols == NIL;
		shape->written_count = leading_columns(ins);
		if (ins->onConflictClause)
			shape->conflict_updated = target_names(ins->onConflictClause->targetList);
	}
	else if (IsA(stmt, UpdateStmt))
	{
		shape->target = ((UpdateStmt *) stmt)->relation;
		shape->written = target_names(((UpdateStmt *) stmt)->targetList);
	}
	else if (IsA(stmt, DeleteStmt))
		shape->target = ((DeleteStmt *) stmt)->relation;
	else if (IsA(stmt, MergeStmt))
		shape->target = ((MergeStmt *) stmt)->relation;
	else if (!IsA(stmt, SelectStmt))
		return true;			/* the raw walker knows no utility statement */
	(void) collect_references(stmt, shape);
	return true;
}

/*
 * The relation the statement writes, or InvalidOid.  The lookups here run
 * while an error is answered, so they neither raise nor wait
 * (nat_rangevar_relation()).
 */
Oid
nat_statement_target(StatementShape *shape)
{
	return shape->target ? nat_rangevar_relation(shape->target) : InvalidOid;
}

/*
 * The relation of the statement that PostgreSQL names relname (its
 * messages give the bare name): the written one first, then the first of
 * the others that resolves; InvalidOid if none does.
 */
Oid
nat_statement_relation(StatementShape *shape, const char *relname)
{
	ListCell   *lc;

	if (shape->target && strcmp(shape->target->relname, relname) == 0)
		return nat_statement_target(shape);
	foreach(lc, shape->relations)
	{
		RangeVar   *rv = lfirst(lc);
		Oid			relid;

		if (strcmp(rv->relname, relname) != 0)
			continue;
		relid = nat_rangevar_relation(rv);
		if (OidIsValid(relid))
			return relid;
	}
	return InvalidOid;
}

/*
 * Does list (of char *) hold name?
 */
bool
nat_name_listed(List *list, const char *name)
{
	ListCell   *lc;

	foreach(lc, list)
	{
		if (strcmp((const char *) lfirst(lc), name) == 0)
			return true;
	}
	return false;
}
