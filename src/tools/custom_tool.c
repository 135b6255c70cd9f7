/*-------------------------------------------------------------------------
 *
 * custom_tool.c
 *		  The planner of an administrator's tool (ai_tool_define()).
 *
 * registry/custom_tools.c makes a stored definition a ToolDef whose
 * planner is this one (registered at load, entry/neon_ai_tools.c).  Each
 * argument was decoded as a JSON value into the argument struct after
 * CommonArgs (one JsonbValue * per parameter, in order); the planner
 * converts each to its declared type and binds it to its placeholder ($1
 * is the first parameter).  The statement is the administrator's, checked
 * when it was defined (entry/tool_define.c); it runs as the caller under
 * the call's caps, read-only when the tool is.
 *
 * Types are resolved by name when the tool is called (they were checked
 * when it was defined, and are stored schema-qualified): a type dropped
 * since makes the call fail, not the catalog.
 *
 * IDENTIFICATION
 *		  src/tools/custom_tool.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "tools/tools.h"
#include "parser/parse_type.h"
#include "plan/tool_plan.h"

/*
 * Plan a call of a custom tool: bind each argument (or its default, or
 * NULL) to its placeholder, converted to the parameter's type.
 */
void
nat_plan_custom_tool(ToolCall *call, const void *targs, ToolPlan *plan)
{
	const CustomTool *tool = (const CustomTool *) call->tool;
	const ToolDef *def = &tool->def;

	for (int i = 0; i < def->nparams; i++)
	{
		JsonbValue *value = *(JsonbValue *const *) ((const char *) targs + CUSTOM_ARG_OFFSET(i));
		Oid			typid;
		int32		typmod;
		bool		isnull = true;
		Datum		d = (Datum) 0;

		CHECK_FOR_INTERRUPTS();
		nat_parse_type(tool->type_names[i], &typid, &typmod);
		if (value == NULL)
			value = tool->defaults[i];
		if (value != NULL)
			d = nat_convert_value(value, typid, typmod,
								  psprintf("$.%s", def->params[i].name),
								  NULL, &isnull);
		nat_params_add(&plan->params, typid, d, isnull);
	}

	call->query = (char *) tool->sql;
	plan->sql = tool->sql;
	/* a query (also a function's call); else INSERT, UPDATE, DELETE, MERGE */
	if (def->operation == NAT_OP_SELECT)
		plan->run = PLAN_ROWS;
	else
	{
		/* a data-modifying statement: the write cap, affectedRows */
		plan->run = PLAN_WRITE;
		plan->max_affected = nat_effective_max_affected(call);
	}
}
