/*-------------------------------------------------------------------------
 *
 * explain_query.c
 *		  The explain_query tool.
 *
 * Plans EXPLAIN (FORMAT JSON) of one statement with bound parameters, to
 * be answered with the plan.  The call always runs read-only.  analyze: true
 * executes the statement, so it is accepted only for statements that pass
 * the read-only rules (sql_guard.c): "explaining" a DELETE with analyze is
 * refused before anything runs, and the engine would stop it anyway.
 *
 * IDENTIFICATION
 *		  src/tools/explain_query.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "tools/tools.h"
#include "tools/params.h"
#include "plan/tool_plan.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

static void explain_query(ToolCall *call, const void *targs, ToolPlan *plan);

/* the decoded arguments */
typedef struct ExplainArgs
{
	CommonArgs	common;			/* timeout_ms */
	char	   *sql;
	JsonbValue *params;
	NatBoolArg	analyze;
} ExplainArgs;

static const ToolParam explain_params[] = {
	NAT_PARAM_SQL(ExplainArgs,
				  "The statement to explain, without EXPLAIN; values as $1, $2, ... in params.",
				  "[\"SELECT * FROM orders WHERE customer_id = $1\"]"),
	NAT_PARAM_SQL_VALUES(ExplainArgs,
						 "Values for $1, $2, ... in order, one for each placeholder: the plan depends on them.",
						 "[[42]]"),
	NAT_PARAM_SWITCH("analyze", offsetof(ExplainArgs, analyze),
					 "Also run the statement and report actual times and row counts. Only for read-only statements (queries); it runs read-only."),
	NAT_PARAM_TIMEOUT_MS,
};

const ToolDef nat_tool_explain_query = {
	.name = "explain_query",
	.title = "Explain a query plan",
	.description = "Show how PostgreSQL would execute a statement: its plan as JSON (EXPLAIN (FORMAT JSON)), with estimated costs and rows, and with analyze: true the actual times and row counts. "
	"Use it to understand or speed up a slow query, or to check which indexes a query uses, before running it. "
	"Without analyze nothing is executed; with analyze the statement runs read-only, so only queries can be analyzed. "
	"The answer's data is the plan; a plan past the byte limit is left out (truncated). "
	"Example: {\"sql\": \"SELECT * FROM orders WHERE customer_id = $1 ORDER BY created_at DESC LIMIT 10\", \"params\": [42], \"analyze\": true}",
	.operation = NAT_OP_EXPLAIN,
	NAT_TOOL_PARAMS(explain_params, ExplainArgs),
	NAT_TOOL_READS,
	.plan = explain_query,
};

/*
 * explain_query(sql, params, analyze, timeout_ms)
 */
static void
explain_query(ToolCall *call, const void *targs, ToolPlan *plan)
{
	const ExplainArgs *args = targs;
	char	   *sql = args->sql;
	bool		analyze = args->analyze.value;
	List	   *stmts;
	RawStmt    *rs;
	StringInfoData explain;

	call->query_source = sql;
	call->query = sql;			/* syntax errors point into it */
	stmts = nat_parse_statements(sql, "$.sql");
	if (list_length(stmts) != 1)
		nat_invalid_param("$.sql", "Explain one statement at a time.",
						  "explain_query takes one statement, and the SQL text has %d",
						  list_length(stmts));
	rs = linitial_node(RawStmt, stmts);
	if (IsA(rs->stmt, ExplainStmt))
		nat_invalid_param("$.sql", "Pass the statement itself; use \"analyze\": true for EXPLAIN ANALYZE.",
						  "pass the statement without EXPLAIN");
	nat_check_statement(rs, false, "$.sql");
	if (analyze && !IsA(rs->stmt, SelectStmt))
	{
		ToolError  *err = nat_error(NAT_ERR_READ_ONLY_VIOLATION,
									"analyze runs the statement, and %s changes data or the schema: only queries can be analyzed",
									nat_statement_tag(rs));

		err->path = pstrdup("$.analyze");
		err->sqlerrcode = ERRCODE_READ_ONLY_SQL_TRANSACTION;
		err->suggestion = pstrdup("Leave out analyze (or pass false) to see the estimated plan without running the statement.");
		nat_throw(err);
	}
	if (analyze)
		nat_check_statement(rs, true, "$.sql");

	initStringInfo(&explain);
	appendStringInfo(&explain, "EXPLAIN (FORMAT JSON%s) %s",
					 analyze ? ", ANALYZE" : "", nat_statement_text(sql, rs));
	call->query = MemoryContextStrdup(call->cxt, explain.data);

	/*
	 * Analysed now, with the params bound to the types it infers for them: a
	 * placeholder planned as NULL would give a misleading plan, so every one
	 * needs a value.  The EXPLAIN is one statement, so nothing that runs
	 * before it could change what it sees.
	 */
	plan->run = PLAN_VALUE;
	plan->value_shape = PLAN_VALUE_JSON_TEXT;
	plan->utility = true;
	plan->sql = explain.data;
	(void) nat_analyze_and_bind(call,
								linitial_node(RawStmt,
											  nat_parse_statements(explain.data, "$.sql")),
								explain.data, args->params, &plan->params,
								"the statement");
}
