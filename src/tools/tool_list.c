/*-------------------------------------------------------------------------
 *
 * tool_list.c
 *		  The built-in tools, in catalog order.
 *
 * The module registers this list with the registry at load
 * (entry/neon_ai_tools.c): the registry sits below the tools and does not
 * name them.
 *
 * IDENTIFICATION
 *		  src/tools/tool_list.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "tools/tools.h"

const ToolDef *const nat_builtin_tools[] = {
	&nat_tool_select_query,
	&nat_tool_insert_data,
	&nat_tool_update_data,
	&nat_tool_delete_data,
	&nat_tool_execute_sql,
	&nat_tool_explain_query,
	&nat_tool_list_tables,
	&nat_tool_describe_table,
};

const int	nat_builtin_tool_count = lengthof(nat_builtin_tools);
