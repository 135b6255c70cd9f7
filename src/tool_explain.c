/*-------------------------------------------------------------------------
 *
 * tool_explain.c
 *		  The explain_query tool.
 *
 * Runs EXPLAIN (FORMAT JSON) of one statement with bound parameters and
 * answers with the plan.  The call always runs read-only.  analyze: true
 * executes the statement, so it is accepted only for statements that pass
 * the read-only rules (sql_guard.c): "explaining" a DELETE with analyze is
 * refused before anything runs, and the engine would stop it anyway.
 *
 * IDENTIFICATION
 *		  src/tool_explain.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "miscadmin.h"
#include "neon_ai_tools.h"
#include "params.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

static void explain_query(ToolCall *call);

static const ToolParam explain_params[] = {
	{
		.name = "sql",
		.types = NAT_JSON_STRING,
		.required = true,
		.description = "The statement to explain, without EXPLAIN; values as $1, $2, ... in params.",
		.examples_json = "[\"SELECT * FROM orders WHERE customer_id = $1\"]",
		.max_length = NAT_MAX_SQL,
	},
	{
		.name = "params",
		.types = NAT_JSON_ARRAY,
		.description = "Values for $1, $2, ... in order, one for each placeholder: the plan depends on them.",
		.examples_json = "[[42]]",
		.items = NAT_ITEMS_VALUE,
		.max_items = NAT_MAX_PARAMS,
	},
	{
		.name = "analyze",
		.types = NAT_JSON_BOOLEAN,
		.description = "Also run the statement and report actual times and row counts. Only for read-only statements (queries); it runs read-only.",
		.default_json = "false",
	},
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
	.operation = "explain",
	.params = explain_params,
	.nparams = lengthof(explain_params),
	.read_only = true,
	.destructive = false,
	.idempotent = true,
	.handler = explain_query,
};

/*
 * The size of json text rendered as jsonb renders it: white space outside
 * strings dropped, ": " and ", " as separators.  Strings keep their escapes
 * (EXPLAIN escapes as jsonb does).  One pass, nothing allocated.
 */
static Size
json_rendered_size(const char *s, Size len)
{
	Size		size = 0;
	bool		in_string = false;
	Size		i;

	for (i = 0; i < len; i++)
	{
		char		c = s[i];

		if (in_string)
		{
			size++;
			if (c == '\\' && i + 1 < len)
			{
				size++;
				i++;
			}
			else if (c == '"')
				in_string = false;
		}
		else if (c == '"')
		{
			size++;
			in_string = true;
		}
		else if (c == ',' || c == ':')
			size += 2;
		else if (c != ' ' && c != '\n' && c != '\t' && c != '\r')
			size++;
	}
	return size;
}

/*
 * explain_query(sql, params, analyze, timeout_ms)
 */
static void
explain_query(ToolCall *call)
{
	char	   *sql = nat_arg_string(call, "sql");
	bool		analyze = nat_arg_bool(call, "analyze", false);
	JsonbValue *params = nat_arg(call, "params");
	List	   *stmts;
	RawStmt    *rs;
	StringInfoData explain;
	List	   *explain_stmts;
	Oid		   *types;
	int			ntypes;
	int			given = params ? JsonContainerSize(params->val.binary.data) : 0;
	int			i;
	Query	   *query;
	QueryParams bound;
	int			rc;
	bool		isnull;
	Datum		plan;
	text	   *plan_text;
	Size		plan_size;
	Jsonb	   *plan_jsonb;
	MemoryContext old;

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

	explain_stmts = nat_parse_statements(explain.data, "$.sql");
	query = nat_analyze_statement(linitial_node(RawStmt, explain_stmts), explain.data,
								  &types, &ntypes);
	nat_check_query_functions(query, true, "$.sql");

	/* a placeholder planned as NULL would give a misleading plan */
	if (ntypes > given)
		nat_invalid_param("$.params",
						  psprintf("Pass %d values in params, one for each of $1 to $%d.", ntypes, ntypes),
						  "the statement uses $%d but params has %d values", ntypes, given);
	nat_params_init(&bound);
	for (i = 0; i < ntypes; i++)
	{
		Datum		d;

		CHECK_FOR_INTERRUPTS();
		d = nat_convert_value(getIthJsonbValueFromContainer(params->val.binary.data, i),
							  types[i], -1, psprintf("$.params[%d]", i), NULL, &isnull);

		nat_params_add(&bound, types[i], d, isnull);
	}

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* read-only by transaction_read_only: SPI's flag would refuse EXPLAIN */
	rc = SPI_execute_with_args(explain.data, bound.count, bound.types,
							   bound.values, bound.nulls, false, 0);
	if (rc < 0 || SPI_processed != 1)
		elog(ERROR, "EXPLAIN returned no plan");
	plan = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	plan_text = DatumGetTextPP(plan);

	/*
	 * The byte budget: a plan prints its constants (a long literal in a
	 * Filter line), so it can be any size.  It is measured on EXPLAIN's own
	 * text before anything is built from it.
	 */
	plan_size = json_rendered_size(VARDATA_ANY(plan_text), VARSIZE_ANY_EXHDR(plan_text));
	if (plan_size > (Size) nat_max_response_bytes)
	{
		SPI_finish();
		old = MemoryContextSwitchTo(call->cxt);
		nat_push_key(&call->state, "data");
		nat_jsonb_push(&call->state, WJB_BEGIN_ARRAY, NULL);
		nat_jsonb_push(&call->state, WJB_END_ARRAY, NULL);
		nat_push_int(&call->state, "rowCount", 0);
		nat_push_bool(&call->state, "truncated", true);
		nat_push_key(&call->state, "truncation");
		nat_jsonb_push(&call->state, WJB_BEGIN_OBJECT, NULL);
		nat_push_string(&call->state, "reason", "byte_limit");
		nat_push_int(&call->state, "limit", nat_max_response_bytes);
		nat_jsonb_push(&call->state, WJB_END_OBJECT, NULL);
		MemoryContextSwitchTo(old);
		nat_add_warning(call,
						psprintf("The plan is %zu bytes, past the byte limit of %d bytes, so it was left out. Plans print the statement's constants: explain it with shorter values, or explain its parts one at a time.",
								 plan_size, nat_max_response_bytes));
		return;
	}

	/* the plan is json text: make it jsonb in the call's memory */
	old = MemoryContextSwitchTo(call->cxt);
	plan_jsonb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in,
													CStringGetDatum(text_to_cstring(plan_text))));
	MemoryContextSwitchTo(old);
	SPI_finish();

	old = MemoryContextSwitchTo(call->cxt);
	nat_push_jsonb(&call->state, "data", plan_jsonb);
	nat_push_int(&call->state, "rowCount", 1);
	nat_push_bool(&call->state, "truncated", false);
	MemoryContextSwitchTo(old);
}
