/*-------------------------------------------------------------------------
 *
 * execute.c
 *		  The execution core shared by every tool.
 *
 * Each call runs in its own subtransaction (the PL/Python pattern): a
 * failed call leaves nothing behind and the caller's transaction stays
 * usable.  Inside it, a GUC nest level carries transaction_read_only and
 * lock_timeout for the call and is rolled back with AtEOXact_GUC(false),
 * so nothing a statement SETs (settings, even SET ROLE) outlives the call.
 * The private timer (call_timer.c) bounds the call's time.
 *
 * While the call runs, call_guard.c vets every statement and function the
 * engine executes for it, at every nesting level.
 *
 * Errors are caught and become answers, with one exception that must reach
 * the client as it is: a real cancel that our timer did not cause (the
 * client's cancel request, pg_cancel_backend, or the outer
 * statement_timeout).  A cancel SQLSTATE raised by the agent's own code
 * (RAISE ... USING ERRCODE = 'query_canceled') is an error like any other.
 *
 * Query results are streamed through a cursor and never materialized past
 * the caps: the rows are counted up to the row cap plus one, to report
 * truncation honestly, and rows stop being added at the byte budget.
 *
 * IDENTIFICATION
 *		  src/execute.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "neon_ai_tools.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/portal.h"
#include "utils/resowner.h"

/* rows fetched from a cursor at a time */
#define FETCH_BATCH 200

/* calls in progress in this backend: tools do not nest */
static int	call_depth = 0;

/* the caller's subtransaction when the call began */
static SubTransactionId call_caller_subid = InvalidSubTransactionId;

/*
 * Forget the call in progress.  Normally the call's own handler does this;
 * an error that escapes it (one raised while the error answer is built)
 * aborts the caller's transaction or subtransaction instead, and the abort
 * callbacks below reset the state so the session can call tools again.
 */
static void
forget_call(void)
{
	call_depth = 0;
	call_caller_subid = InvalidSubTransactionId;
	nat_set_error_context(NULL);
	nat_guard_end();
}

static void
call_xact_callback(XactEvent event, void *arg)
{
	if (call_depth > 0 && (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT))
		forget_call();
}

static void
call_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
					  SubTransactionId parentSubid, void *arg)
{
	if (call_depth > 0 && event == SUBXACT_EVENT_ABORT_SUB && mySubid == call_caller_subid)
		forget_call();
}

void
nat_execute_install(void)
{
	RegisterXactCallback(call_xact_callback, NULL);
	RegisterSubXactCallback(call_subxact_callback, NULL);
}

/*
 * Effective time limit of the call: the timeout_ms argument, or the
 * neon_ai_tools.timeout default, never above neon_ai_tools.max_timeout.
 */
int
nat_effective_timeout(ToolCall *call)
{
	int64		ms = nat_arg_int(call, "timeout_ms", nat_timeout_ms);

	return (int) Min(ms, (int64) nat_max_timeout_ms);
}

/*
 * Effective row caps: the limit argument, or neon_ai_tools.row_limit,
 * never above neon_ai_tools.max_rows; and the byte budget.
 */
RowCaps
nat_effective_row_caps(ToolCall *call)
{
	RowCaps		caps;

	caps.max_rows = nat_arg_int(call, "limit", nat_row_limit);
	caps.max_rows = Min(caps.max_rows, (int64) nat_max_rows);
	caps.max_bytes = nat_max_response_bytes;
	return caps;
}

/*
 * Settings in force for the call only, at the GUC nest level "nest".
 *
 * transaction_read_only is set with GUC_ACTION_LOCAL: from 17 on it is
 * GUC_NO_RESET, and set_config_option() refuses GUC_ACTION_SAVE (the
 * function-SET action) on it.  LOCAL is equally undone when the nest level
 * is popped with AtEOXact_GUC(false) or the subtransaction rolls back, on
 * every version.
 */
static void
apply_call_settings(ToolCall *call)
{
	if (call->read_only)
		(void) set_config_option("transaction_read_only", "on",
								 PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_LOCAL, true, 0, false);

	/* lock_timeout only tightens what the session already has */
	if (nat_lock_timeout_ms > 0 &&
		(LockTimeout == 0 || LockTimeout > nat_lock_timeout_ms))
	{
		char		value[32];

		snprintf(value, sizeof(value), "%d", nat_lock_timeout_ms);
		(void) set_config_option("lock_timeout", value,
								 PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, 0, false);
	}
}

/*
 * A value that did not convert to its column's type: an invalid_input
 * error naming the argument path, the column and the type, with
 * PostgreSQL's own message.  NULL if the error came from elsewhere.
 */
static ToolError *
conversion_error(ErrorData *edata)
{
	char	   *path;
	char	   *column;
	Oid			typid;
	ToolError  *err;

	if (!nat_conversion_failed(&path, &column, &typid))
		return NULL;
	if (ERRCODE_TO_CATEGORY(edata->sqlerrcode) != ERRCODE_DATA_EXCEPTION)
		return NULL;
	err = nat_error("invalid_input",
					column ? "invalid value at %s for column \"%s\" of type %s: %s" :
					"invalid value at %s%s for type %s: %s",
					path, column ? column : "", format_type_be(typid),
					edata->message);
	err->path = path;
	err->column = column;
	err->sqlerrcode = edata->sqlerrcode;
	err->suggestion = psprintf("Pass a value of type %s, in the format PostgreSQL accepts for it.",
							   format_type_be(typid));
	return err;
}

/*
 * How the call ended, for the audit log: success, dry_run or
 * error:<errorType>.
 */
static const char *
call_outcome(ToolCall *call, Jsonb *answer)
{
	JsonbValue *type = getKeyJsonValueFromContainer(&answer->root, "errorType",
													strlen("errorType"), NULL);

	if (type != NULL && type->type == jbvString)
		return psprintf("error:%.*s", type->val.string.len, type->val.string.val);
	return call->dry_run ? "dry_run" : "success";
}

/*
 * Is this the cancel of an interrupt (the client's cancel request,
 * pg_cancel_backend, statement_timeout, our own timer), rather than the
 * same SQLSTATE raised by the agent's code?  Interrupts are turned into
 * errors by the backend's ProcessInterrupts(), which the error records as
 * where it was raised; RAISE and ASSERT record PL/pgSQL's functions.  A
 * caught cancel re-raised with a bare RAISE keeps its origin.
 */
static bool
is_interrupt_cancel(ErrorData *edata)
{
	return edata->sqlerrcode == ERRCODE_QUERY_CANCELED &&
		edata->funcname != NULL &&
		strcmp(edata->funcname, "ProcessInterrupts") == 0;
}

/*
 * Find the tool called name, or raise unknown_tool / tool_disabled.
 */
static const ToolDef *
find_available_tool(const char *name)
{
	const ToolDef *tool = nat_find_tool(name);
	ToolError  *err;

	if (tool && nat_tool_available(tool))
		return tool;
	if (tool && tool->writes && nat_read_only)
	{
		err = nat_error("tool_disabled",
						"tool \"%s\" writes, and this role is read-only", name);
		err->suggestion = pstrdup("Only reading tools are available (neon_ai_tools.read_only is on); read the data instead, or ask the database administrator.");
	}
	else if (tool)
	{
		err = nat_error("tool_disabled",
						"tool \"%s\" is not enabled for this role", name);
		err->suggestion = nat_available_tool_names()[0] ?
			psprintf("Use one of the enabled tools: %s.", nat_available_tool_names()) :
			pstrdup("No tools are enabled for this role; ask the database administrator.");
	}
	else
	{
		const char *close = nat_closest_tool_name(name);

		err = nat_error("unknown_tool", "tool \"%s\" does not exist", name);
		err->suggestion = close ?
			psprintf("Did you mean \"%s\"?", close) :
			psprintf("Use one of the tools listed by ai_tool_list(): %s.",
					 nat_available_tool_names());
	}
	nat_throw(err);
}

/*
 * Run one tool call and return its answer, allocated in the caller's
 * memory context.  Expected failures become error answers.
 */
Jsonb *
nat_run_tool_call(const char *name, Jsonb *args)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	MemoryContext callcxt;
	ToolCall   *call;
	Jsonb	   *volatile answer = NULL;
	Jsonb	   *result;

	if (call_depth > 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("ai_tool_call() cannot be called from inside a tool call")));

	callcxt = AllocSetContextCreate(CurrentMemoryContext,
									"neon_ai_tools call",
									ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(callcxt);
	call = palloc0(sizeof(ToolCall));
	call->tool_name = pstrdup(name);
	call->args = args;
	call->affected_rows = -1;
	call->cxt = callcxt;
	INSTR_TIME_SET_CURRENT(call->start);
	nat_set_error_context(callcxt);
	nat_clear_pending_error();
	nat_conversion_reset();

	call_depth++;
	call_caller_subid = GetCurrentSubTransactionId();
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(callcxt);

	PG_TRY();
	{
		const ToolDef *tool;
		int			nest;

		nat_check_connection();
		tool = call->tool = find_available_tool(name);
		call->operation = tool->operation;
		nat_validate_args(tool, args);
		call->timeout_ms = nat_effective_timeout(call);
		call->read_only = tool->read_only || nat_read_only ||
			nat_arg_bool(call, "read_only", false);

		nest = NewGUCNestLevel();
		apply_call_settings(call);
		nat_timer_arm(call->timeout_ms);
		nat_guard_begin(call->read_only, callcxt);	/* after: reads the deadline */

		nat_response_begin(call);
		tool->handler(call);

		/* disarm, then let a cancel that raced with the end surface here */
		nat_timer_disarm();
		CHECK_FOR_INTERRUPTS();
		/* code that caught the cancel and finished anyway still timed out */
		if (nat_timer_fired())
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("canceling statement: the tool call ran past its time limit of %d ms",
							call->timeout_ms)));
		nat_guard_check_end();
		nat_guard_end();

		AtEOXact_GUC(false, nest);
		if (call->dry_run)
			RollbackAndReleaseCurrentSubTransaction();	/* keep nothing */
		else
			ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(callcxt);
		CurrentResourceOwner = oldowner;

		answer = nat_response_finish(call);
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		ToolError  *err;
		bool		ours;

		nat_timer_disarm();
		nat_guard_end();
		ours = nat_timer_fired();

		MemoryContextSwitchTo(callcxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(callcxt);
		CurrentResourceOwner = oldowner;
		err = nat_take_pending_error();

		if (is_interrupt_cancel(edata) && !ours)
		{
			call_depth--;
			nat_set_error_context(NULL);
			MemoryContextSwitchTo(oldcxt);
			ReThrowError(edata);
		}

		/* a re-fire of our timer must not cancel the caller's statement */
		if (ours)
			QueryCancelPending = false;
		call->timed_out = ours && edata->sqlerrcode == ERRCODE_QUERY_CANCELED;

		if (edata->sqlerrcode != ERRCODE_NAT_TOOL_ERROR)
			err = NULL;
		if (err == NULL && !call->timed_out)
			err = conversion_error(edata);
		answer = nat_error_response(call, edata, err);
	}
	PG_END_TRY();

	call_depth--;
	nat_set_error_context(NULL);
	nat_audit_call(call, call_outcome(call, answer));

	/* copy the answer out before the call's memory goes */
	MemoryContextSwitchTo(oldcxt);
	result = palloc(VARSIZE(answer));
	memcpy(result, answer, VARSIZE(answer));
	MemoryContextDelete(callcxt);
	return result;
}

/*
 * Rows going into the answer under the caps: "columns" is pushed when the
 * sink opens, then rows are added to "data" until a cap is reached.
 */
typedef struct RowSink
{
	ToolCall   *call;
	TupleDesc	tupdesc;
	ColumnOutput *cols;
	JsonbValue *values;
	int64		bytes;
	RowCaps		caps;
	RowResult  *result;
} RowSink;

static void
sink_open(RowSink *sink, ToolCall *call, TupleDesc tupdesc, RowCaps caps,
		  RowResult *result)
{
	MemoryContext old = MemoryContextSwitchTo(call->cxt);
	int			i;

	memset(result, 0, sizeof(RowResult));
	sink->call = call;
	sink->tupdesc = tupdesc;
	sink->cols = nat_prepare_columns(tupdesc, call->cxt);
	sink->values = palloc(sizeof(JsonbValue) * Max(tupdesc->natts, 1));
	sink->bytes = 0;
	sink->caps = caps;
	sink->result = result;

	nat_push_key(&call->state, "columns");
	nat_jsonb_push(&call->state, WJB_BEGIN_ARRAY, NULL);
	for (i = 0; i < tupdesc->natts; i++)
	{
		nat_jsonb_push(&call->state, WJB_BEGIN_OBJECT, NULL);
		nat_push_string(&call->state, "name", sink->cols[i].key);
		nat_push_string(&call->state, "type", sink->cols[i].type_name);
		nat_jsonb_push(&call->state, WJB_END_OBJECT, NULL);
	}
	nat_jsonb_push(&call->state, WJB_END_ARRAY, NULL);

	nat_push_key(&call->state, "data");
	nat_jsonb_push(&call->state, WJB_BEGIN_ARRAY, NULL);
	MemoryContextSwitchTo(old);
}

/*
 * Add one row; false once a cap is reached (the row is not added).
 */
static bool
sink_add(RowSink *sink, HeapTuple tuple)
{
	MemoryContext old;
	RowResult  *result = sink->result;
	int			natts = sink->tupdesc->natts;
	Size		rowsize = 2;
	int			i;

	if (result->row_count >= sink->caps.max_rows)
	{
		result->truncated = true;
		result->truncation_reason = "row_limit";
		result->truncation_limit = sink->caps.max_rows;
		return false;
	}

	old = MemoryContextSwitchTo(sink->call->cxt);
	for (i = 0; i < natts; i++)
	{
		bool		isnull;
		Datum		d = heap_getattr(tuple, i + 1, sink->tupdesc, &isnull);

		rowsize += nat_datum_to_jsonb_value(&sink->cols[i], d, isnull,
											&sink->values[i]);
	}
	if (sink->bytes + rowsize > sink->caps.max_bytes)
	{
		result->truncated = true;
		result->truncation_reason = "byte_limit";
		result->truncation_limit = sink->caps.max_bytes;
		MemoryContextSwitchTo(old);
		return false;
	}
	sink->bytes += rowsize;

	nat_jsonb_push(&sink->call->state, WJB_BEGIN_OBJECT, NULL);
	for (i = 0; i < natts; i++)
	{
		nat_push_key(&sink->call->state, sink->cols[i].key);
		nat_jsonb_push(&sink->call->state, WJB_VALUE, &sink->values[i]);
	}
	nat_jsonb_push(&sink->call->state, WJB_END_OBJECT, NULL);
	result->row_count++;
	MemoryContextSwitchTo(old);
	return true;
}

static void
sink_close(RowSink *sink)
{
	MemoryContext old = MemoryContextSwitchTo(sink->call->cxt);

	nat_jsonb_push(&sink->call->state, WJB_END_ARRAY, NULL);
	MemoryContextSwitchTo(old);
}

/*
 * Run a row-returning statement through a cursor and push its rows into the
 * answer as "data" (and its columns as "columns"), under the caps.
 */
void
nat_stream_query(ToolCall *call, const char *sql, QueryParams *params,
				 RowCaps caps, RowResult *result)
{
	(void) nat_execute_statement(call, sql, params, true, -1, caps, result);
}

/*
 * Raise limit_exceeded: the statement would change more rows than the cap.
 */
static void
throw_limit_exceeded(ToolCall *call, int64 affected, int64 max_affected)
{
	ToolError  *err = nat_error("limit_exceeded",
								"this %s would change " INT64_FORMAT " rows, more than the limit of " INT64_FORMAT "; nothing was changed",
								strcmp(call->operation, "execute") == 0 ? "statement" : call->operation,
								affected, max_affected);

	err->suggestion = psprintf("Narrow the where filter so that at most " INT64_FORMAT " rows match, or raise max_affected if the server's limit allows.",
							   max_affected);
	err->suggested_actions = list_make2(pstrdup("Run the same call with \"dry_run\": true to preview which rows match."),
										pstrdup("Split the change into smaller batches with narrower filters."));
	if (call->table)
		err->affected_resources = list_make1(call->table);
	nat_throw(err);
}

/*
 * Run one statement of any kind and push its result into the answer at
 * the current level of call->state: "columns" and "data" for the rows it
 * returns ("data" is empty when it returns none), under the caps.
 *
 * A query (stream = true) is read through a cursor, so no more than the
 * caps is ever fetched, and returns the number of rows pushed.  Any other
 * statement runs to completion and returns the number of rows it affected
 * (SPI_processed); past max_affected (if >= 0) a limit_exceeded error
 * unwinds the call's subtransaction, so nothing is changed.  The cap is
 * checked on the count, never through SPI's tcount, which would silently
 * stop a data-modifying statement part way.
 */
int64
nat_execute_statement(ToolCall *call, const char *sql, QueryParams *params,
					  bool stream, int64 max_affected, RowCaps caps,
					  RowResult *result)
{
	SPIPlanPtr	plan;
	int64		affected;
	int			rc;

	call->query = MemoryContextStrdup(call->cxt, sql);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	plan = nat_prepare_cached(sql, params->count, params->types);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));

	if (stream)
	{
		Portal		portal = SPI_cursor_open(NULL, plan, params->values,
											 params->nulls, call->read_only);
		RowSink		sink;
		bool		more = true;

		sink_open(&sink, call, portal->tupDesc, caps, result);
		while (more)
		{
			uint64		t;

			SPI_cursor_fetch(portal, true, FETCH_BATCH);
			if (SPI_processed == 0)
				break;
			for (t = 0; t < SPI_processed && more; t++)
				more = sink_add(&sink, SPI_tuptable->vals[t]);
			SPI_freetuptable(SPI_tuptable);
			CHECK_FOR_INTERRUPTS();
		}
		sink_close(&sink);
		SPI_cursor_close(portal);
		SPI_finish();
		return result->row_count;
	}

	/*
	 * SPI's read_only flag would refuse utility statements that only read
	 * (EXPLAIN, SHOW); read-only calls are enforced by transaction_read_only
	 * and sql_guard.c instead.
	 */
	rc = SPI_execute_plan(plan, params->values, params->nulls, false, 0);
	if (rc < 0)
		elog(ERROR, "SPI_execute_plan failed: %s", SPI_result_code_string(rc));
	affected = (int64) SPI_processed;
	call->affected_rows = Max(call->affected_rows, 0) + affected;
	if (max_affected >= 0 && affected > max_affected)
		throw_limit_exceeded(call, affected, max_affected);

	if (SPI_tuptable != NULL)
	{
		RowSink		sink;
		uint64		t;

		sink_open(&sink, call, SPI_tuptable->tupdesc, caps, result);
		for (t = 0; t < SPI_processed; t++)
			if (!sink_add(&sink, SPI_tuptable->vals[t]))
				break;
		sink_close(&sink);
	}
	else
	{
		MemoryContext old = MemoryContextSwitchTo(call->cxt);

		memset(result, 0, sizeof(RowResult));
		nat_push_key(&call->state, "data");
		nat_jsonb_push(&call->state, WJB_BEGIN_ARRAY, NULL);
		nat_jsonb_push(&call->state, WJB_END_ARRAY, NULL);
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
	return affected;
}

/*
 * Run a generated data-modifying statement under the write cap; returns
 * the number of rows it affected.
 */
int64
nat_execute_dml(ToolCall *call, const char *sql, QueryParams *params,
				int64 max_affected, RowCaps caps, RowResult *result)
{
	return nat_execute_statement(call, sql, params, false, max_affected,
								 caps, result);
}
