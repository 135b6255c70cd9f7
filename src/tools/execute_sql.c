/*-------------------------------------------------------------------------
 *
 * execute_sql.c
 *		  The execute_sql tool.
 *
 * Plans the agent's own SQL with bound parameters.  Every statement is
 * classified by PostgreSQL's raw parser and checked (sql_guard.c) before
 * anything runs; then execute.c analyses each one right before it runs (so a
 * later statement sees what an earlier one created), with the parameter
 * types inferred from use as the extended protocol does, and each JSON
 * parameter is converted by its type's input function.  Queries stream
 * through a cursor under the row and byte caps; data-modifying statements
 * report affectedRows and are held to the write cap.
 *
 * mode "single" runs exactly one statement; mode "multiple" runs several in
 * order, all-or-nothing (the call's subtransaction), and answers with one
 * result object per statement in data.
 *
 * IDENTIFICATION
 *		  src/tools/execute_sql.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "tools/tools.h"
#include "plan/continuation.h"
#include "tools/params.h"
#include "plan/tool_plan.h"

static void execute_sql(ToolCall *call, const void *targs, ToolPlan *plan);

/* the decoded arguments */
typedef struct ExecuteArgs
{
	CommonArgs	common;			/* read_only, limit, max_affected, timeout_ms */
	char	   *sql;
	JsonbValue *params;
	int			mode;			/* MODE_* */
} ExecuteArgs;

/* mode, as the indexes of mode_values */
#define MODE_SINGLE		0
#define MODE_MULTIPLE	1

static const char *const mode_values[] = {"single", "multiple", NULL};

static const ToolParam execute_params[] = {
	NAT_PARAM_SQL(ExecuteArgs,
				  "The SQL statement to run. Put values in params and refer to them as $1, $2, ... instead of writing them into the text.",
				  "[\"SELECT id, total FROM orders WHERE customer_id = $1 ORDER BY total DESC\", \"UPDATE orders SET status = $2 WHERE id = $1\"]"),
	NAT_PARAM_SQL_VALUES(ExecuteArgs,
						 "Values for $1, $2, ... in order; each is converted to the type PostgreSQL infers for its placeholder; null is SQL NULL.",
						 "[[42], [\"shipped\", 7], [null, \"2024-01-01\"]]"),
	{
		.name = "mode",
		.decode = NAT_DECODE_ENUM,.offset = offsetof(ExecuteArgs, mode),
		.types = NAT_JSON_STRING,
		.description = "single (default): exactly one statement. multiple: up to " CppAsString2(NAT_MAX_STATEMENTS) " statements separated by semicolons, run in order, all or nothing, with one result per statement in data; the byte limit is shared by all of them.",
		.enum_values = mode_values,
		.default_json = "\"single\"",
	},
	NAT_PARAM_SWITCH("read_only", offsetof(CommonArgs, read_only),
					 "Run read-only: only queries, SHOW and EXPLAIN, enforced by the database engine. Always on when the server is in read-only mode."),
	NAT_PARAM_LIMIT("rows per statement"),
	NAT_PARAM_FORMAT("the rows"),
	NAT_PARAM_NEXT("The statement runs again and skips the rows already returned (by offset: rows may shift)."),
	NAT_PARAM_MAX_AFFECTED,
	NAT_PARAM_CONFIRMATION_TOKEN,
	NAT_PARAM_TIMEOUT_MS,
};

const ToolDef nat_tool_execute_sql = {
	.name = "execute_sql",
	.title = "Run SQL",
	.description = "Run your own SQL statement with bound parameters ($1, $2, ... taken from params), as your database role. "
	"Use it for what the other tools cannot express: joins, aggregates, subqueries, DDL. Prefer select_query, insert_data, update_data and delete_data for simple reads and writes. "
	"Transaction control, SET/RESET/SET ROLE, COPY, LISTEN, PREPARE and statements that cannot run inside a transaction are refused; each call is atomic. "
	"With read_only: true only queries run, enforced by the engine. Rows are capped (limit) and the answer says when they were truncated; data-modifying statements report affectedRows and may change at most max_affected rows. "
	"Example: {\"sql\": \"SELECT c.name, count(*) AS orders FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.status = $1 GROUP BY c.name ORDER BY orders DESC\", \"params\": [\"paid\"], \"read_only\": true, \"limit\": 10}",
	.operation = NAT_OP_EXECUTE,
	NAT_TOOL_PARAMS(execute_params, ExecuteArgs),
	.read_only = false,
	.writes = false,			/* stays available, read-only, in read-only
								 * mode */
	.destructive = true,
	.idempotent = false,
	.plan = execute_sql,
};

/*
 * execute_sql(sql, params, mode, read_only, limit, max_affected,
 *			   timeout_ms)
 */
static void
execute_sql(ToolCall *call, const void *targs, ToolPlan *plan)
{
	const ExecuteArgs *args = targs;
	char	   *sql = args->sql;
	bool		multiple = args->mode == MODE_MULTIPLE;
	List	   *stmts;
	ListCell   *lc;

	call->query_source = sql;
	call->query = sql;			/* syntax errors point into it */
	stmts = nat_parse_statements(sql, "$.sql");
	if (!multiple && list_length(stmts) > 1)
		nat_invalid_param("$.sql",
						  "Pass one statement, or pass \"mode\": \"multiple\" to run several in order, all or nothing.",
						  "mode \"single\" runs one statement, and the SQL text has %d",
						  list_length(stmts));
	if (list_length(stmts) > NAT_MAX_STATEMENTS)
		nat_invalid_param("$.sql",
						  psprintf("Pass at most %d statements in one call; split the rest into further calls.",
								   NAT_MAX_STATEMENTS),
						  "the SQL text has %d statements, more than the limit of %d",
						  list_length(stmts), NAT_MAX_STATEMENTS);

	/* every statement is checked before any of them runs */
	foreach(lc, stmts)
		nat_check_statement(lfirst_node(RawStmt, lc), call->read_only, "$.sql");

	/* each is analysed and bound right before it runs (execute.c) */
	plan->run = PLAN_AGENT;
	plan->source = sql;
	plan->statements = stmts;
	plan->json_params = args->params;
	plan->multiple = multiple;
	plan->max_affected = nat_effective_max_affected(call);

	/* one statement's rows continue by offset (continuation.c) */
	if (call->cont && !multiple)
	{
		call->cont->mode = NAT_CONT_OFFSET;
		if (call->cont->given && call->cont->given_mode != NAT_CONT_OFFSET)
			elog(ERROR, "an execute_sql continuation token is not an offset");
		call->cont->base = call->cont->skip =
			call->cont->given ? call->cont->given_offset : 0;
	}
	else if (call->cont && call->cont->given)
		nat_invalid_param("$.next", "Use next with mode \"single\" only.",
						  "mode \"multiple\" cannot be continued");
}
