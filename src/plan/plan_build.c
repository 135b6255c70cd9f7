/*-------------------------------------------------------------------------
 *
 * plan_build.c
 *		  What a planner fills: an empty plan with the call's row and write
 *		  caps, the answer's own keys and its warnings.
 *
 * Planners (tools/) build their ToolPlan with these and never run SQL;
 * run/execute.c runs the plan.  The caps are the call's arguments clamped
 * by the settings (README, "Settings").
 *
 * IDENTIFICATION
 *		  src/plan/plan_build.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "plan/plan.h"
#include "plan/tool_plan.h"

/*
 * Effective row caps: the limit argument, or neon_ai_tools.row_limit,
 * never above neon_ai_tools.max_rows nor a custom tool's own max_rows; and
 * the byte budget.
 */
RowCaps
nat_effective_row_caps(ToolCall *call)
{
	const NatIntArg *limit = &NAT_COMMON(call)->limit;
	RowCaps		caps;

	caps.max_rows = limit->given ? limit->value : nat_row_limit;
	caps.max_rows = Min(caps.max_rows, (int64) nat_max_rows);
	if (call->tool && call->tool->max_rows > 0)
		caps.max_rows = Min(caps.max_rows, (int64) call->tool->max_rows);
	caps.max_bytes = nat_max_response_bytes;
	return caps;
}

/*
 * The write cap of this call: max_affected if given, never above
 * neon_ai_tools.max_affected_rows (validation already refused more).
 */
int64
nat_effective_max_affected(ToolCall *call)
{
	const NatIntArg *max_affected = &NAT_COMMON(call)->max_affected;

	return max_affected->given ?
		Min(max_affected->value, (int64) nat_max_affected_rows) :
		nat_max_affected_rows;
}

/*
 * An empty plan for the call: the call's row caps, no write cap.
 */
void
nat_plan_init(ToolCall *call, ToolPlan *plan)
{
	memset(plan, 0, sizeof(ToolPlan));
	nat_params_init(&plan->params);
	plan->caps = nat_effective_row_caps(call);
	plan->max_affected = -1;
}

/*
 * Add a key of the tool's own to the answer.
 */
void
nat_plan_add_field(ToolPlan *plan, const char *key, AnswerFieldKind kind,
				   int64 value)
{
	AnswerField *field = palloc(sizeof(AnswerField));

	field->key = key;
	field->kind = kind;
	field->value = value;
	plan->answer_fields = lappend(plan->answer_fields, field);
}

/*
 * Add a sentence of the planner's to the answer's "warning".
 */
void
nat_plan_add_warning(ToolPlan *plan, const char *warning)
{
	plan->warnings = lappend(plan->warnings, pstrdup(warning));
}
