/*-------------------------------------------------------------------------
 *
 * plan_description.c
 *		  ai_tool_plan()'s answer: a tool's plan, described instead of run.
 *
 * The call is validated and planned exactly as ai_tool_call() plans it,
 * as the caller (plan.h); then, instead of running, the plan is rendered
 * under "plan":
 *
 *	 run              rows, write, utility, value or statements (PlanRun)
 *	 relation         the resolved relation, schema-qualified
 *	 columns          its columns the answer's rows would carry
 *	 writtenColumns   its columns the statement writes
 *	 sql              the statement, $n for the bound values
 *	 parameterTypes   the type of each $n, in order
 *	 countSql         the count run before a utility statement
 *	 statements       execute_sql: each statement's command and text; their
 *					  values are bound only when they run
 *	 maxRows, maxBytes, maxAffected   the caps the run would apply
 *
 * Bound values are never shown (an error answer never shows them either);
 * their types are.
 *
 * IDENTIFICATION
 *		  src/answer/plan_description.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "answer/answer.h"
#include "parser/scansup.h"
#include "plan/tool_plan.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

static const char *const run_names[] = {
	[PLAN_ROWS] = "rows",
	[PLAN_WRITE] = "write",
	[PLAN_UTILITY] = "utility",
	[PLAN_VALUE] = "value",
	[PLAN_AGENT] = "statements",
};

/*
 * "key": the names of relid's columns in attnums (int).
 */
static void
push_column_names(NatJsonb *state, const char *key, Oid relid, List *attnums)
{
	List	   *names = NIL;
	ListCell   *lc;

	foreach(lc, attnums)
		names = lappend(names, get_attname(relid, (AttrNumber) lfirst_int(lc), false));
	nat_push_string_array(state, key, names);
}

/*
 * "statements": the agent's statements, each {"command", "sql"}.
 */
static void
push_statements(NatJsonb *state, ToolPlan *plan)
{
	ListCell   *lc;

	nat_push_key(state, "statements");
	nat_jsonb_push(state, WJB_BEGIN_ARRAY, NULL);
	foreach(lc, plan->statements)
	{
		RawStmt    *rs = lfirst_node(RawStmt, lc);
		const char *stmt_text = nat_statement_text(plan->source, rs);

		/* 18 and later start a statement after the white space before it */
		while (scanner_isspace(*stmt_text))
			stmt_text++;
		nat_jsonb_push(state, WJB_BEGIN_OBJECT, NULL);
		nat_push_string(state, "command", nat_statement_tag(rs));
		nat_push_string(state, "sql", stmt_text);
		nat_jsonb_push(state, WJB_END_OBJECT, NULL);
	}
	nat_jsonb_push(state, WJB_END_ARRAY, NULL);
}

/*
 * Render the plan as the answer's "plan" (and the planner's warnings and
 * note).
 */
void
nat_response_plan_description(ToolCall *call, ToolPlan *plan)
{
	NatJsonb   *state = &call->state;
	List	   *types = NIL;
	int			i;

	nat_response_warnings(call, plan->warnings);
	if (plan->note)
		nat_push_string(state, "note", plan->note);
	nat_push_key(state, "plan");
	nat_jsonb_push(state, WJB_BEGIN_OBJECT, NULL);
	nat_push_string(state, "run", run_names[plan->run]);
	if (OidIsValid(plan->relid))
	{
		nat_push_string(state, "relation",
						quote_qualified_identifier(get_namespace_name(get_rel_namespace(plan->relid)),
												   get_rel_name(plan->relid)));
		push_column_names(state, "columns", plan->relid, plan->columns);
		if (plan->written_columns != NIL)
			push_column_names(state, "writtenColumns", plan->relid,
							  plan->written_columns);
	}
	if (plan->run == PLAN_AGENT)
		push_statements(state, plan);
	else
	{
		nat_push_string(state, "sql", plan->sql);
		for (i = 0; i < plan->params.count; i++)
			types = lappend(types, format_type_be(plan->params.types[i]));
		nat_push_string_array(state, "parameterTypes", types);
	}
	if (plan->affected_from == PLAN_AFFECTED_COUNT)
		nat_push_string(state, "countSql", plan->count_sql);
	if (plan->run == PLAN_ROWS || plan->run == PLAN_WRITE || plan->run == PLAN_AGENT)
	{
		nat_push_int(state, "maxRows", plan->caps.max_rows);
		nat_push_int(state, "maxBytes", plan->caps.max_bytes);
	}
	if (plan->max_affected >= 0)
		nat_push_int(state, "maxAffected", plan->max_affected);
	nat_jsonb_push(state, WJB_END_OBJECT, NULL);
}
