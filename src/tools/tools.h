/*-------------------------------------------------------------------------
 *
 * tools.h
 *		  The built-in tools: each one's parameter table and planner.  Uses
 *		  plan/ and below.
 *
 * Each layer's header includes the one below it (Makefile, NAT_LAYERS;
 * README, "Layout"), so a file sees its own layer's declarations and
 * those of the layers under it, never those above.
 *
 * IDENTIFICATION
 *		  src/tools/tools.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_TOOLS_H
#define NAT_TOOLS_H

#include "plan/plan.h"

/* in tools/select_query.c, insert_data.c, update_data.c, delete_data.c */
extern const ToolDef nat_tool_select_query;
extern const ToolDef nat_tool_insert_data;
extern const ToolDef nat_tool_update_data;
extern const ToolDef nat_tool_delete_data;

/* in tools/execute_sql.c, explain_query.c */
extern const ToolDef nat_tool_execute_sql;
extern const ToolDef nat_tool_explain_query;

/* in tools/list_tables.c, describe_table.c */
extern const ToolDef nat_tool_list_tables;
extern const ToolDef nat_tool_describe_table;
extern void nat_append_estimated_rows(StringInfo sql);

/* in tools/tool_list.c: the built-in tools, in catalog order */
extern const ToolDef *const nat_builtin_tools[];
extern const int nat_builtin_tool_count;

/* in tools/custom_tool.c: the planner of every custom tool */
extern void nat_plan_custom_tool(struct ToolCall *call, const void *targs,
								 struct ToolPlan *plan);

/* in tools/shared_params.c: the checks of parameters several tools share */
extern void nat_validate_columns(JsonbValue *value, const char *path);
extern void nat_validate_order_by(JsonbValue *value, const char *path);

#endif							/* NAT_TOOLS_H */
