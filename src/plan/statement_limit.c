/*-------------------------------------------------------------------------
 *
 * statement_limit.c
 *		  The row cap of the agent's query, written into the query itself.
 *
 * execute_sql reads at most the row cap plus one rows of a query (and, on
 * a continued page, the rows it skips first): row_sink.c stops the
 * executor there.  Stopping the executor is enough on one node, but the
 * planner does not know it and plans for the whole result (a full sort
 * where a top-N sort or an index scan would do), and Citus runs the
 * shards' queries whole and gathers every row on the coordinator before
 * the first one reaches us: a SELECT without LIMIT on a wide distributed
 * table writes the whole table to the coordinator's temporary files to
 * answer a few hundred rows.  So a query without LIMIT runs as
 *
 *	 <the agent's text>
 *	 LIMIT <cap + 1 + skip>
 *
 * a constant the extension computes, which Citus pushes down to every
 * shard (with the ORDER BY, merging on the coordinator).  The LIMIT goes
 * at the end of the agent's own statement, at the level of its ORDER BY,
 * rather than around it in a subquery: Citus does not keep the order of a
 * subquery's ORDER BY under an outer LIMIT (each shard's first rows would
 * be gathered in no order), and the text before it, so every error
 * position, stays the agent's.
 *
 * Only where the LIMIT cannot change what the statement does: a plain
 * query (CMD_SELECT: not SELECT INTO, which is a utility statement) with
 * no LIMIT or FETCH FIRST of its own (LIMIT ALL and LIMIT NULL count as
 * one), no data-modifying WITH and no FOR UPDATE/SHARE at any level.  Its
 * text is then one complete select statement without a locking clause or
 * a limit clause (a trailing OFFSET takes "LIMIT" after it), and the
 * grammar accepts a LIMIT clause after it; the newline ends a trailing
 * "--" comment.
 *
 * IDENTIFICATION
 *		  src/sql/statement_limit.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "plan/plan.h"
#include "nodes/nodeFuncs.h"

/*
 * Does a query at any level lock rows (FOR UPDATE/SHARE) or change data?
 */
static bool
locks_or_modifies(Node *node, void *context)
{
	if (node == NULL)
		return false;
	check_stack_depth();
	if (IsA(node, Query))
	{
		Query	   *query = (Query *) node;

		if (query->rowMarks != NIL || query->hasModifyingCTE ||
			query->commandType != CMD_SELECT)
			return true;
		return query_tree_walker(query, locks_or_modifies, context, 0);
	}
	return expression_tree_walker(node, locks_or_modifies, context);
}

/*
 * The text to run for the agent's analysed query: sql with "LIMIT rows"
 * after it, or sql itself where a LIMIT does not apply (see above).
 */
char *
nat_statement_with_limit(const char *sql, Query *query, int64 rows)
{
	if (query->commandType != CMD_SELECT || query->utilityStmt != NULL ||
		query->limitCount != NULL || rows <= 0 ||
		locks_or_modifies((Node *) query, NULL))
		return (char *) sql;
	return psprintf("%s\nLIMIT " INT64_FORMAT, sql, rows);
}
