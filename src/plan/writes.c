/*-------------------------------------------------------------------------
 *
 * writes.c
 *		  Rules shared by the tools that change rows.
 *
 * update_data and delete_data refuse to touch every row of a table unless
 * the agent says so (confirm_all_rows), and then warn about it; they never
 * change more rows than the smaller of max_affected and
 * neon_ai_tools.max_affected_rows (execute.c rolls back past it); a dry run
 * reports what would change and keeps nothing.
 *
 * IDENTIFICATION
 *		  src/sql/writes.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "plan/plan.h"
#include "plan/tool_plan.h"

/*
 * Is the where argument a real filter?  Absent, null and {} are not.
 */
static bool
has_filter(JsonbValue *where)
{
	if (where == NULL)
		return false;
	if (where->type == jbvBinary && JsonContainerIsObject(where->val.binary.data) &&
		JsonContainerSize(where->val.binary.data) == 0)
		return false;
	return true;
}

/*
 * Append " WHERE <filter>" for the where argument, or refuse to go on
 * without one unless confirm_all_rows is true (then add a data-loss
 * warning).  op is NAT_OP_UPDATE or NAT_OP_DELETE.
 */
void
nat_deparse_write_filter(StringInfo buf, ToolCall *call, ToolPlan *plan,
						 Oid relid, NatOperation op)
{
	JsonbValue *where = NAT_COMMON(call)->where;
	const char *verb = nat_operation_names[op];

	if (has_filter(where))
	{
		appendStringInfoString(buf, " WHERE ");
		nat_deparse_where(buf, relid, where, &plan->params, "$.where");
		return;
	}

	if (!NAT_COMMON(call)->confirm_all_rows.value)
	{
		ToolError  *err = nat_error(NAT_ERR_CONFIRMATION_REQUIRED,
									"%s without a where filter would %s every row of %s",
									verb, verb, call->table);

		err->path = pstrdup("$.where");
		err->suggestion = psprintf("Add a where filter for the rows to %s; only if every row must go, pass \"confirm_all_rows\": true.",
								   verb);
		err->suggested_actions = list_make2(pstrdup("Add \"where\" naming the rows, e.g. {\"id\": 42}."),
											pstrdup("Preview with \"dry_run\": true first."));
		err->affected_resources = list_make1(call->table);
		nat_throw(err);
	}
	nat_plan_add_warning(plan,
						 psprintf("Every row of %s %s %s (confirm_all_rows): this may be data loss.",
								  call->table,
								  call->dry_run || call->plan_only ? "would be" : "was",
								  op == NAT_OP_UPDATE ? "updated" : "deleted"));
}

/*
 * Append " RETURNING <columns>" for the returning argument; none for an
 * empty list.  By default every column the caller may read: all of them
 * with SELECT on the table, the granted ones with column privileges
 * (nat_deparse_column_list()), and none for a role that may write but not
 * read.
 */
void
nat_deparse_returning(StringInfo buf, ToolCall *call, ToolPlan *plan,
					  Oid relid)
{
	JsonbValue *returning = NAT_COMMON(call)->returning;
	int			omitted;

	if (returning && returning->type == jbvBinary &&
		JsonContainerSize(returning->val.binary.data) == 0)
		return;
	if (returning == NULL && nat_readable_columns(relid, &omitted) == NIL)
		return;
	appendStringInfoString(buf, " RETURNING ");
	plan->columns = nat_deparse_column_list(buf, relid, returning,
											"$.returning", NULL);
}

/*
 * Start a write: resolve the table, note whether it is a dry run.
 */
Oid
nat_begin_write(ToolCall *call)
{
	Oid			relid = nat_resolve_call_table(call);

	call->dry_run = NAT_COMMON(call)->dry_run.value;
	return relid;
}
