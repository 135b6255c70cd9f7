/*-------------------------------------------------------------------------
 *
 * sql_guard.c
 *		  What an agent's own SQL may do, decided by PostgreSQL's parser.
 *
 * execute_sql and explain_query take SQL text from the agent.  Statements
 * are split and classified with the raw parser (never by keywords), and
 * refused, before anything runs, when they:
 *
 *	 - control the transaction (each call already is an atomic
 *	   subtransaction), change settings or the role (SET, RESET, SET ROLE,
 *	   SET SESSION AUTHORIZATION), or leave state in the session after the
 *	   call (PREPARE, DECLARE, LISTEN, DISCARD, LOAD);
 *	 - reach outside the database (COPY to or from files or programs);
 *	 - cannot run inside a function or transaction block (VACUUM, CREATE
 *	   DATABASE, ALTER SYSTEM, CONCURRENTLY, ...).
 *
 * In read-only mode the engine refuses writes (transaction_read_only is on
 * for the call, which also stops writes inside volatile functions and
 * nextval), and this file adds what read-only mode cannot see: only
 * queries, SHOW and EXPLAIN are accepted, a data-modifying WITH is refused
 * with a clear reason, and after analysis calls to functions with effects
 * outside the transaction's data (large objects, advisory locks,
 * notifications, signalling other backends, dblink) are refused.  Session
 * advisory locks, which would outlive the call, are refused in every mode.
 *
 * IDENTIFICATION
 *		  src/sql/sql_guard.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "plan/plan.h"
#include "nodes/nodeFuncs.h"
#include "parser/analyze.h"
#include "plan/tool_plan.h"
#include "tcop/cmdtag.h"
#include "tcop/utility.h"
#include "utils/lsyscache.h"

/* what a function check looks for */
typedef struct GuardContext
{
	bool		read_only;
	const char *path;
} GuardContext;

/*
 * Refuse a statement: invalid_parameters for what no tool call may do,
 * read_only_violation (25006) for what only read-only mode forbids.
 */
static void
refuse(const char *path, bool read_only_rule, const char *suggestion,
	   const char *message)
{
	ToolError  *err = nat_error(read_only_rule ? NAT_ERR_READ_ONLY_VIOLATION :
								NAT_ERR_INVALID_PARAMETERS, "%s", message);

	err->path = pstrdup(path);
	err->suggestion = pstrdup(suggestion);
	if (read_only_rule)
		err->sqlerrcode = ERRCODE_READ_ONLY_SQL_TRANSACTION;
	nat_throw(err);
}

/*
 * Split sql into statements with the raw parser.  A syntax error is
 * PostgreSQL's own (42601, with its position in the agent's text).
 */
List *
nat_parse_statements(const char *sql, const char *path)
{
	List	   *stmts = nat_raw_parser(sql);

	if (stmts == NIL)
		nat_invalid_param(path, "Pass one SQL statement, e.g. \"SELECT count(*) FROM orders\".",
						  "the SQL text contains no statement");
	return stmts;
}

/*
 * The text of one statement of sql.
 */
char *
nat_statement_text(const char *sql, RawStmt *rs)
{
	if (rs->stmt_len == 0)
		return pstrdup(sql + rs->stmt_location);
	return pnstrdup(sql + rs->stmt_location, rs->stmt_len);
}

/*
 * The statement's command tag, e.g. "SELECT" or "CREATE TABLE".
 */
const char *
nat_statement_tag(RawStmt *rs)
{
	return GetCommandTagName(CreateCommandTag(rs->stmt));
}

/*
 * Does a WITH clause contain a data-modifying statement?
 */
static bool
with_modifies_data(WithClause *with)
{
	ListCell   *lc;

	if (with == NULL)
		return false;
	foreach(lc, with->ctes)
	{
		CommonTableExpr *cte = lfirst_node(CommonTableExpr, lc);
		Node	   *q = cte->ctequery;

		if (IsA(q, InsertStmt) || IsA(q, UpdateStmt) || IsA(q, DeleteStmt) ||
			IsA(q, MergeStmt))
			return true;
		if (IsA(q, SelectStmt) && with_modifies_data(((SelectStmt *) q)->withClause))
			return true;
	}
	return false;
}

/*
 * Read-only mode accepts queries without locking or INTO, SHOW, and
 * EXPLAIN of what it accepts.
 */
static void
check_read_only_statement(Node *stmt, const char *path)
{
	const char *suggestion =
		"This call is read-only: use SELECT (or SHOW, EXPLAIN); to change data use a write tool, or execute_sql without read_only if the server allows it.";

	switch (nodeTag(stmt))
	{
		case T_SelectStmt:
			{
				SelectStmt *sel = (SelectStmt *) stmt;

				if (sel->intoClause)
					refuse(path, true, suggestion,
						   "SELECT INTO creates a table and is not allowed in a read-only call");
				if (sel->lockingClause)
					refuse(path, true, suggestion,
						   "SELECT ... FOR UPDATE/SHARE locks rows and is not allowed in a read-only call");
				if (with_modifies_data(sel->withClause))
					refuse(path, true, suggestion,
						   "a WITH clause that modifies data is not allowed in a read-only call");
				return;
			}
		case T_VariableShowStmt:
			return;
		case T_VariableSetStmt:
			/* only SET LOCAL of Citus's allowed settings gets this far */
			return;
		case T_ExplainStmt:
			check_read_only_statement(((ExplainStmt *) stmt)->query, path);
			return;
		default:
			refuse(path, true, suggestion,
				   psprintf("%s is not allowed in a read-only call",
							GetCommandTagName(CreateCommandTag(stmt))));
	}
}

/*
 * SET in the agent's statement: only SET LOCAL of one of Citus's settings
 * on the allow-list (citus_settings.c), which ends with the call, as
 * Citus's own advice for a join has it ("SET LOCAL
 * citus.enable_repartition_joins = on", then the query, in mode
 * "multiple").  Everything else is refused: settings and the role are the
 * call's.
 */
static void
check_set_statement(VariableSetStmt *vs, const char *path, const char *tag)
{
	if (nat_citus_set_local_allowed(vs))
		return;
	if (nat_citus_setting(vs->name) && nat_citus_setting_allowed(vs->name))
		refuse(path, false,
			   psprintf("Use SET LOCAL %s = ..., which ends with the call, as the first statement of mode \"multiple\", before the query it is for.",
						vs->name),
			   psprintf("%s of %s is not allowed in a tool call: only SET LOCAL is", tag, vs->name));
	if (nat_citus_setting(vs->name))
		refuse(path, false,
			   psprintf("Of Citus's settings, a call may SET LOCAL only those that shape a query's plan: %s. Write the statement without changing %s.",
						nat_citus_allowed_settings(), vs->name),
			   psprintf("%s of %s is not allowed in a tool call: this Citus setting cannot be changed", tag, vs->name));
	refuse(path, false,
		   "Settings and the role are fixed for the call; write the query without SET (for example use a schema-qualified name instead of SET search_path).",
		   psprintf("%s is not allowed in a tool call: settings and the role cannot be changed", tag));
}

/*
 * The statements that leave state in the session after a call (a listener,
 * a prepared statement, a loaded library) or clear the session's own
 * (DISCARD, DEALLOCATE): refused at every level, in an agent's SQL (below)
 * and in the SQL functions, views and triggers run (run/call_guard.c), from
 * this one list.  Their name, or NULL for any other statement.
 */
const char *
nat_session_state_statement(Node *stmt)
{
	switch (nodeTag(stmt))
	{
		case T_ListenStmt:
			return "LISTEN";
		case T_UnlistenStmt:
			return "UNLISTEN";
		case T_PrepareStmt:
			return "PREPARE";
		case T_DeallocateStmt:
			return "DEALLOCATE";
		case T_DiscardStmt:
			return "DISCARD";
		case T_LoadStmt:
			return "LOAD";
		default:
			return NULL;
	}
}

/*
 * Refuse statements no tool call may run, whatever the mode.
 */
static void
check_any_statement(Node *stmt, const char *path)
{
	const char *tag = GetCommandTagName(CreateCommandTag(stmt));

	/*
	 * Besides the statements that leave state in the session at any level
	 * (nat_session_state_statement()), the agent's own SQL may not run
	 * prepared statements or cursors: nothing of them outlives its call.
	 */
	if (nat_session_state_statement(stmt) != NULL)
		refuse(path, false,
			   "Run the statement itself; a tool call keeps no session state (prepared statements, cursors, listeners) after it returns.",
			   psprintf("%s is not allowed in a tool call: it acts on the session beyond the call", tag));

	switch (nodeTag(stmt))
	{
		case T_TransactionStmt:
			refuse(path, false,
				   "Leave transaction control out: each tool call already runs atomically in its own subtransaction, and mode \"multiple\" runs several statements all-or-nothing.",
				   psprintf("transaction control (%s) is not allowed in a tool call", tag));
			break;
		case T_VariableSetStmt:
			check_set_statement((VariableSetStmt *) stmt, path, tag);
			break;
		case T_ExecuteStmt:
		case T_DeallocateStmt:
		case T_DeclareCursorStmt:
		case T_FetchStmt:
		case T_ClosePortalStmt:
			refuse(path, false,
				   "Run the statement itself; a tool call keeps no session state (prepared statements, cursors, listeners) after it returns.",
				   psprintf("%s is not allowed in a tool call: it acts on the session beyond the call", tag));
			break;
		case T_CopyStmt:
			refuse(path, false,
				   "Use SELECT to read rows and insert_data or INSERT to write them; files and programs on the server are out of reach of a tool call.",
				   "COPY is not allowed in a tool call");
			break;
		case T_VacuumStmt:
		case T_CreatedbStmt:
		case T_DropdbStmt:
		case T_AlterSystemStmt:
		case T_CreateTableSpaceStmt:
		case T_DropTableSpaceStmt:
		case T_CreateSubscriptionStmt:
		case T_AlterSubscriptionStmt:
		case T_DropSubscriptionStmt:
		case T_CheckPointStmt:
			refuse(path, false,
				   "Ask the database administrator to run it: it cannot run inside a tool call's transaction.",
				   psprintf("%s cannot run inside a tool call", tag));
			break;
		case T_IndexStmt:
			if (((IndexStmt *) stmt)->concurrent)
				refuse(path, false,
					   "Create the index without CONCURRENTLY, or ask the database administrator.",
					   "CREATE INDEX CONCURRENTLY cannot run inside a tool call");
			break;
		case T_ReindexStmt:
			{
				ListCell   *lc;

				foreach(lc, ((ReindexStmt *) stmt)->params)
				{
					if (strcmp(lfirst_node(DefElem, lc)->defname, "concurrently") == 0)
						refuse(path, false,
							   "Reindex without CONCURRENTLY, or ask the database administrator.",
							   "REINDEX CONCURRENTLY cannot run inside a tool call");
				}
				break;
			}
		case T_ExplainStmt:
			check_any_statement(((ExplainStmt *) stmt)->query, path);
			break;
		default:
			break;
	}
}

/*
 * Check one statement's kind before anything runs.
 */
void
nat_check_statement(RawStmt *rs, bool read_only, const char *path)
{
	check_any_statement(rs->stmt, path);
	if (read_only)
		check_read_only_statement(rs->stmt, path);
}

/*
 * Functions refused by name (all in pg_catalog unless noted).
 * session: refused in every mode (the effect outlives the call);
 * otherwise refused in read-only mode.
 */
static const struct
{
	const char *name;
	bool		prefix;
	bool		session;
}			denied_functions[] = {
	{"pg_advisory_lock", true, true},	/* and _shared */
	{"pg_try_advisory_lock", true, true},
	{"pg_advisory_xact_lock", true, false},
	{"pg_try_advisory_xact_lock", true, false},
	{"lo_", true, false},		/* large objects escape read-only mode */
	{"lowrite", false, false},
	{"loread", false, false},
	{"pg_notify", false, false},
	{"pg_cancel_backend", false, false},
	{"pg_terminate_backend", false, false},
	{"pg_reload_conf", false, false},
	{"pg_rotate_logfile", false, false},
	{"pg_switch_wal", false, false},
	{"pg_create_restore_point", false, false},
	{"pg_logical_emit_message", false, false},
	{"pg_stat_reset", true, false},
	{"pg_import_system_collations", false, false},
	{"dblink", true, false},	/* any schema: a second connection */
};

/*
 * check_functions_in_node() callback: is this function refused?
 */
static bool
function_refused(Oid funcid, void *context)
{
	GuardContext *ctx = (GuardContext *) context;
	char	   *name = get_func_name(funcid);
	bool		in_catalog = get_func_namespace(funcid) == PG_CATALOG_NAMESPACE;
	int			i;

	if (name == NULL)
		return false;
	for (i = 0; i < lengthof(denied_functions); i++)
	{
		bool		match = denied_functions[i].prefix ?
			strncmp(name, denied_functions[i].name, strlen(denied_functions[i].name)) == 0 :
			strcmp(name, denied_functions[i].name) == 0;

		if (!match)
			continue;
		if (!in_catalog && strcmp(denied_functions[i].name, "dblink") != 0)
			continue;
		if (denied_functions[i].session)
			refuse(ctx->path, false,
				   "Use pg_advisory_xact_lock(), which is released with the transaction, or leave locking out.",
				   psprintf("function %s() takes a session lock that would outlive the tool call", name));
		if (ctx->read_only)
			refuse(ctx->path, true,
				   "This call is read-only; functions with effects outside the query's data are not allowed.",
				   psprintf("function %s() is not allowed in a read-only call", name));
	}
	return false;
}

static bool
guard_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	(void) check_functions_in_node(node, function_refused, context);
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, guard_walker, context, 0);
	return expression_tree_walker(node, guard_walker, context);
}

/*
 * Check the functions an analysed statement calls (in any subquery, CTE or
 * FROM item).  Of utility statements, only EXPLAIN and CREATE TABLE AS
 * carry an analysed query.
 */
void
nat_check_query_functions(Query *query, bool read_only, const char *path)
{
	GuardContext ctx;

	ctx.read_only = read_only;
	ctx.path = path;
	if (query->commandType == CMD_UTILITY)
	{
		/* analysis leaves the inner query of these as a Query */
		Node	   *inner = NULL;

		if (IsA(query->utilityStmt, ExplainStmt))
			inner = ((ExplainStmt *) query->utilityStmt)->query;
		else if (IsA(query->utilityStmt, CreateTableAsStmt))
			inner = ((CreateTableAsStmt *) query->utilityStmt)->query;
		if (inner && IsA(inner, Query))
			nat_check_query_functions((Query *) inner, read_only, path);
		return;
	}
	(void) query_tree_walker(query, guard_walker, &ctx, 0);
}

/*
 * Analyse one statement with its parameters' types inferred from use, as
 * the extended protocol's Parse message does.  Unused or unknown
 * parameters are text.  Returns the analysed Query.
 */
Query *
nat_analyze_statement(RawStmt *rs, const char *sql, Oid **types, int *ntypes)
{
	Query	   *query;
	int			i;

	*types = NULL;
	*ntypes = 0;
	query = parse_analyze_varparams(rs, sql, types, ntypes, NULL);
	for (i = 0; i < *ntypes; i++)
		if ((*types)[i] == InvalidOid || (*types)[i] == UNKNOWNOID)
			(*types)[i] = TEXTOID;
	return query;
}

/*
 * Bind the JSON params to the types inferred for $1..$ntypes; "what" names
 * the statement in the error when values are missing.
 */
static void
bind_json_params(QueryParams *bound, JsonbValue *params, Oid *types,
				 int ntypes, const char *what)
{
	int			given = params ? JsonContainerSize(params->val.binary.data) : 0;
	int			i;

	if (ntypes > given)
		nat_invalid_param("$.params",
						  psprintf("Pass %d values in params, one for each of $1 to $%d.", ntypes, ntypes),
						  "%s uses $%d but params has %d value%s",
						  what, ntypes, given, given == 1 ? "" : "s");
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
 * Analyse one of the agent's statements (source is the text it points
 * into), check the functions it calls, and bind the JSON params to the
 * types inferred for its placeholders.  'what' names the statement in the
 * error when values are missing.
 */
Query *
nat_analyze_and_bind(ToolCall *call, RawStmt *rs, const char *source,
					 JsonbValue *json_params, QueryParams *bound,
					 const char *what)
{
	Oid		   *types;
	int			ntypes;
	Query	   *query;

	query = nat_analyze_statement(rs, source, &types, &ntypes);
	nat_check_query_functions(query, call->read_only, "$.sql");
	nat_params_init(bound);
	bind_json_params(bound, json_params, types, ntypes, what);
	return query;
}
