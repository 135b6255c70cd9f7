/*-------------------------------------------------------------------------
 *
 * tool_execute.c
 *		  The execute_sql tool.
 *
 * Runs the agent's own SQL with bound parameters.  Every statement is
 * classified by PostgreSQL's raw parser and checked (sql_guard.c) before
 * anything runs; then each one is analysed right before it runs (so a
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
 *		  src/tool_execute.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "neon_ai_tools.h"
#include "params.h"
#include "utils/memutils.h"

static void execute_sql(ToolCall *call);

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
	{
		.name = "sql",
		.decode = NAT_DECODE_TEXT,
		.offset = offsetof(ExecuteArgs, sql),
		.types = NAT_JSON_STRING,
		.required = true,
		.description = "The SQL statement to run. Put values in params and refer to them as $1, $2, ... instead of writing them into the text.",
		.examples_json = "[\"SELECT id, total FROM orders WHERE customer_id = $1 ORDER BY total DESC\", \"UPDATE orders SET status = $2 WHERE id = $1\"]",
		.max_length = NAT_MAX_SQL,
	},
	{
		.name = "params",
		.decode = NAT_DECODE_JSON,
		.offset = offsetof(ExecuteArgs, params),
		.types = NAT_JSON_ARRAY,
		.description = "Values for $1, $2, ... in order; each is converted to the type PostgreSQL infers for its placeholder; null is SQL NULL.",
		.examples_json = "[[42], [\"shipped\", 7], [null, \"2024-01-01\"]]",
		.items = NAT_ITEMS_VALUE,
		.max_items = NAT_MAX_PARAMS,
	},
	{
		.name = "mode",
		.decode = NAT_DECODE_ENUM,
		.offset = offsetof(ExecuteArgs, mode),
		.types = NAT_JSON_STRING,
		.description = "single (default): exactly one statement. multiple: up to " CppAsString2(NAT_MAX_STATEMENTS) " statements separated by semicolons, run in order, all or nothing, with one result per statement in data; the byte limit is shared by all of them.",
		.enum_values = mode_values,
		.default_json = "\"single\"",
	},
	{
		.name = "read_only",
		.decode = NAT_DECODE_BOOL,
		.offset = offsetof(CommonArgs, read_only),
		.types = NAT_JSON_BOOLEAN,
		.description = "Run read-only: only queries, SHOW and EXPLAIN, enforced by the database engine. Always on when the server is in read-only mode.",
		.default_json = "false",
	},
	NAT_PARAM_LIMIT("rows per statement"),
	NAT_PARAM_MAX_AFFECTED,
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
	.operation = "execute",
	.params = execute_params,
	.nparams = lengthof(execute_params),
	.args_size = sizeof(ExecuteArgs),
	.read_only = false,
	.writes = false,			/* stays available, read-only, in read-only mode */
	.destructive = true,
	.idempotent = false,
	.handler = execute_sql,
};

/*
 * Does the statement change data (so that affectedRows and the write cap
 * apply)?
 */
static bool
changes_rows(Query *query)
{
	return query->commandType == CMD_INSERT ||
		query->commandType == CMD_UPDATE ||
		query->commandType == CMD_DELETE ||
		query->commandType == CMD_MERGE ||
		query->hasModifyingCTE;
}

/*
 * Bind the JSON params to the types inferred for $1..$ntypes.
 */
static void
bind_params(QueryParams *bound, JsonbValue *params, Oid *types, int ntypes,
			const char *path_prefix)
{
	int			given = params ? JsonContainerSize(params->val.binary.data) : 0;
	int			i;

	if (ntypes > given)
		nat_invalid_param("$.params",
						  psprintf("Pass %d values in params, one for each of $1 to $%d.", ntypes, ntypes),
						  "%s uses $%d but params has %d value%s",
						  path_prefix, ntypes, given, given == 1 ? "" : "s");
	for (i = 0; i < ntypes; i++)
	{
		JsonbValue *value;
		bool		isnull;
		Datum		d;

		CHECK_FOR_INTERRUPTS();
		value = getIthJsonbValueFromContainer(params->val.binary.data, i);
		d = nat_convert_value(value, types[i], -1,
							  psprintf("$.params[%d]", i), NULL, &isnull);

		nat_params_add(bound, types[i], d, isnull);
	}
}

/*
 * Run one statement and push its result at the current level of the
 * answer.  Returns whether its rows were truncated.
 */
static bool
run_statement(ToolCall *call, const char *sql, RawStmt *rs, int index,
			  bool multiple)
{
	JsonbValue *params = NAT_ARGS(call, ExecuteArgs)->params;
	char	   *what = multiple ? psprintf("statement %d", index + 1) : "the statement";
	Oid		   *types;
	int			ntypes;
	Query	   *query;
	QueryParams bound;
	RowResult	rows;
	int64		affected;
	bool		modifies;

	/*
	 * The statement's analysis, bound values and execution live in a
	 * context of their own, freed when it has run: only its rows stay, in
	 * the answer (row_sink.c puts them in the call's context).  So many
	 * statements cost no more than the largest of them.
	 */
	MemoryContext stmtcxt = AllocSetContextCreate(call->cxt,
												  "neon_ai_tools statement",
												  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(stmtcxt);

	/* analysis errors point into the agent's whole text, which the call keeps */
	call->query = (char *) sql;
	query = nat_analyze_statement(rs, sql, &types, &ntypes);
	nat_check_query_functions(query, call->read_only, "$.sql");

	nat_params_init(&bound);
	bind_params(&bound, params, types, ntypes, what);

	modifies = changes_rows(query);
	affected = nat_execute_statement(call, nat_statement_text(sql, rs), &bound,
									 query->commandType == CMD_SELECT && !modifies,
									 modifies ? nat_effective_max_affected(call) : -1,
									 nat_effective_row_caps(call), &rows);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(stmtcxt);
	if (modifies)
		nat_push_int(&call->state, "affectedRows", affected);
	nat_response_rows(call, &rows);
	return rows.truncated;
}

/*
 * execute_sql(sql, params, mode, read_only, limit, max_affected,
 *			   timeout_ms)
 */
static void
execute_sql(ToolCall *call)
{
	const ExecuteArgs *args = NAT_ARGS(call, ExecuteArgs);
	char	   *sql = args->sql;
	bool		multiple = args->mode == MODE_MULTIPLE;
	List	   *stmts;
	ListCell   *lc;
	bool		truncated = false;

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

	if (!multiple)
	{
		(void) run_statement(call, sql, linitial_node(RawStmt, stmts), 0, false);
		return;
	}

	nat_push_key(&call->state, "data");
	nat_jsonb_push(&call->state, WJB_BEGIN_ARRAY, NULL);
	foreach(lc, stmts)
	{
		RawStmt    *rs = lfirst_node(RawStmt, lc);

		nat_jsonb_push(&call->state, WJB_BEGIN_OBJECT, NULL);
		nat_push_int(&call->state, "statement", foreach_current_index(lc) + 1);
		nat_push_string(&call->state, "command", nat_statement_tag(rs));
		truncated |= run_statement(call, sql, rs, foreach_current_index(lc), true);
		nat_jsonb_push(&call->state, WJB_END_OBJECT, NULL);
	}
	nat_jsonb_push(&call->state, WJB_END_ARRAY, NULL);
	nat_push_int(&call->state, "rowCount", list_length(stmts));
	nat_push_bool(&call->state, "truncated", truncated);
}
