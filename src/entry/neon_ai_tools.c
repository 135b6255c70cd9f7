/*-------------------------------------------------------------------------
 *
 * neon_ai_tools.c
 *		  SQL entry points of the neon_ai_tools extension.
 *
 * Thin shells: they check the SQL-level arguments and hand over to the
 * registry (ai_tool_list) or the execution core (ai_tool_call).  Misuse of
 * the SQL API itself raises an ordinary ERROR, and so does every call in a
 * session whose administrator's settings could not be restored after a
 * refused startup option (guc_policy.c); everything that goes wrong inside
 * a tool comes back as an error answer.
 *
 * IDENTIFICATION
 *		  src/core/neon_ai_tools.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "entry/entry.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

PG_FUNCTION_INFO_V1(ai_tool_list);
PG_FUNCTION_INFO_V1(ai_tool_call);
PG_FUNCTION_INFO_V1(ai_tool_plan);
PG_FUNCTION_INFO_V1(ai_error_info);
PG_FUNCTION_INFO_V1(ai_tool_define);
PG_FUNCTION_INFO_V1(ai_tool_from_function);
PG_FUNCTION_INFO_V1(ai_tool_drop);
PG_FUNCTION_INFO_V1(ai_tool_run);

/*
 * Module load: register the tools, define the settings, install the hooks
 * that guard calls; from shared_preload_libraries, reserve the statistics'
 * shared memory.
 */
void
_PG_init(void)
{
	nat_register_tools(nat_builtin_tools, nat_builtin_tool_count,
					   nat_plan_custom_tool);
	nat_define_settings();
	nat_guard_install();
	nat_stats_install();
}

/*
 * ai_tool_list(format text DEFAULT 'native', compact boolean DEFAULT false)
 * returns jsonb
 *
 * The catalog of the tools enabled for the caller; compact: short
 * descriptions and no examples.  A NULL compact is false.
 */
Datum
ai_tool_list(PG_FUNCTION_ARGS)
{
	char	   *format;
	Jsonb	   *catalog;
	int			nest;

	nat_policy_check();
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("format must not be null"),
				 errhint("Valid formats are \"native\", \"openai\", \"openai_strict\", \"anthropic\", \"mcp\" and \"gemini\".")));
	format = text_to_cstring(PG_GETARG_TEXT_PP(0));
	/* under SET ROLE, the tools and limits of the current role's policy */
	nest = nat_role_policy_begin();
	catalog = nat_tool_catalog(format,
							   PG_NARGS() > 1 && !PG_ARGISNULL(1) &&
							   PG_GETARG_BOOL(1));
	nat_role_policy_end(nest);
	PG_RETURN_JSONB_P(catalog);
}

/*
 * ai_tool_call() and ai_tool_plan(): check the SQL-level (name, args), as
 * misuse of the SQL API is an ordinary ERROR, and run or plan the call.
 * NULL args mean no arguments.
 */
static Jsonb *
call_tool(FunctionCallInfo fcinfo, bool plan_only)
{
	char	   *name;
	Jsonb	   *args;

	nat_policy_check();
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("tool name must not be null"),
				 errhint("Call ai_tool_list() to see the tools.")));
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));

	if (PG_ARGISNULL(1))
		args = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum("{}")));
	else
		args = PG_GETARG_JSONB_P(1);
	if (!JB_ROOT_IS_OBJECT(args) || JB_ROOT_IS_SCALAR(args))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tool arguments must be a JSON object"),
				 errhint("Pass the arguments as an object, e.g. '{\"table\": \"orders\"}'.")));
	return nat_run_tool_call(name, args, plan_only);
}

/*
 * ai_tool_call(name text, args jsonb DEFAULT '{}') returns jsonb
 *
 * Runs one tool as the caller.
 */
Datum
ai_tool_call(PG_FUNCTION_ARGS)
{
	PG_RETURN_JSONB_P(call_tool(fcinfo, false));
}

/*
 * ai_tool_plan(name text, args jsonb DEFAULT '{}') returns jsonb
 *
 * What ai_tool_call() would run for these arguments, without running it:
 * the arguments are validated and the call planned as the caller, and the
 * answer describes the plan (relation, columns, SQL text, parameter types,
 * caps) instead of its result.  Bound values are never shown.
 */
Datum
ai_tool_plan(PG_FUNCTION_ARGS)
{
	PG_RETURN_JSONB_P(call_tool(fcinfo, true));
}

/*
 * A text argument that must not be null, as a C string.
 */
static char *
required_text(FunctionCallInfo fcinfo, int argno, const char *what)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", what)));
	return text_to_cstring(PG_GETARG_TEXT_PP(argno));
}

/*
 * A jsonb argument; NULL means dflt.
 */
static Jsonb *
jsonb_arg(FunctionCallInfo fcinfo, int argno, const char *dflt)
{
	if (PG_ARGISNULL(argno))
		return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(dflt)));
	return PG_GETARG_JSONB_P(argno);
}

/*
 * ai_tool_define(name text, description text, sql text, parameters jsonb,
 *				  options jsonb DEFAULT '{}') returns jsonb
 *
 * Defines (or replaces) a custom tool, checked now (tool_define.c); answers
 * with its catalog entry.  EXECUTE is revoked from PUBLIC.
 */
Datum
ai_tool_define(PG_FUNCTION_ARGS)
{
	char	   *name = required_text(fcinfo, 0, "tool name");
	char	   *description = required_text(fcinfo, 1, "tool description");
	char	   *sql = required_text(fcinfo, 2, "tool SQL");

	nat_policy_check();
	PG_RETURN_JSONB_P(nat_define_tool(name, description, sql,
									  jsonb_arg(fcinfo, 3, "[]"),
									  jsonb_arg(fcinfo, 4, "{}")));
}

/*
 * ai_tool_from_function(function regprocedure, options jsonb DEFAULT '{}')
 * returns jsonb
 *
 * Defines (or replaces) a custom tool that calls the function.
 */
Datum
ai_tool_from_function(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("function must not be null")));
	nat_policy_check();
	PG_RETURN_JSONB_P(nat_define_function_tool(PG_GETARG_OID(0),
											   jsonb_arg(fcinfo, 1, "{}")));
}

/*
 * ai_tool_drop(name text, if_exists boolean DEFAULT false) returns void
 */
Datum
ai_tool_drop(PG_FUNCTION_ARGS)
{
	char	   *name = required_text(fcinfo, 0, "tool name");

	nat_policy_check();
	nat_drop_tool(name, !PG_ARGISNULL(1) && PG_GETARG_BOOL(1));
	PG_RETURN_VOID();
}

/*
 * ai_tool_run(response jsonb, options jsonb DEFAULT '{}') returns jsonb
 *
 * Runs the tool calls of one model response, each as ai_tool_call() would,
 * and answers with the messages that carry the results, in the response's
 * dialect (tool_run.c).
 */
Datum
ai_tool_run(PG_FUNCTION_ARGS)
{
	Jsonb	   *answer;
	int			nest;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("model response must not be null")));
	nat_policy_check();
	/* under SET ROLE, max_tool_calls of the current role's policy too */
	nest = nat_role_policy_begin();
	answer = nat_run_model_response(PG_GETARG_JSONB_P(0),
									jsonb_arg(fcinfo, 1, "{}"));
	nat_role_policy_end(nest);
	PG_RETURN_JSONB_P(answer);
}

/*
 * ai_error_info(message text, code text DEFAULT NULL) returns jsonb
 *
 * The error classifier on its own, for error text from PostgreSQL, MySQL
 * or SeekDB/OceanBase (error_patterns.c).  code may be a SQLSTATE, a
 * MySQL/OceanBase error number or an ORA- code; NULL means look for one in
 * the text.  A NULL message is misuse of the SQL API, like a NULL tool
 * name.  Only the first NAT_ERROR_TEXT_READ bytes of the message and
 * NAT_ECHO_CHARS bytes of the code are read.
 */
/*
 * The first max_bytes bytes of a text argument (whole characters), without
 * detoasting or copying the rest; *unread is set to the bytes left out.
 */
static char *
text_start(Datum d, int max_bytes, int64 *unread)
{
	int64		total = (int64) toast_raw_datum_size(d) - VARHDRSZ;
	text	   *slice = DatumGetTextPSlice(d, 0, max_bytes);
	int			len = VARSIZE_ANY_EXHDR(slice);

	len = pg_mbcliplen(VARDATA_ANY(slice), len, len);
	*unread = total - len;
	return pnstrdup(VARDATA_ANY(slice), len);
}

Datum
ai_error_info(PG_FUNCTION_ARGS)
{
	char	   *message;
	char	   *code = NULL;
	int64		unread;
	int64		code_unread = 0;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("error message must not be null"),
				 errhint("Pass the error text as the database reported it; only the code may be NULL.")));
	/* only the start is read: a huge text gets a small answer (README) */
	message = text_start(PG_GETARG_DATUM(0), NAT_ERROR_TEXT_READ, &unread);
	if (!PG_ARGISNULL(1))
		code = text_start(PG_GETARG_DATUM(1), NAT_ECHO_CHARS, &code_unread);
	PG_RETURN_JSONB_P(nat_error_info(message, unread, code, code_unread));
}
