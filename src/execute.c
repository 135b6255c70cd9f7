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
 * Errors are caught and become answers, with two exceptions that must
 * reach the client as they are: a query cancel that our timer did not
 * cause (the client's cancel, or the outer statement_timeout) and
 * assert_failure, exactly as PL/pgSQL's WHEN OTHERS leaves them alone.
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

#include "access/xact.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "neon_ai_tools.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/portal.h"
#include "utils/resowner.h"

/* rows fetched from a cursor at a time */
#define FETCH_BATCH 200

/* calls in progress in this backend: tools do not nest */
static int	call_depth = 0;

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
 */
static void
apply_call_settings(ToolCall *call)
{
	if (call->read_only)
		(void) set_config_option("transaction_read_only", "on",
								 PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, 0, false);

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
 * Find the tool called name, or raise unknown_tool / tool_disabled.
 */
static const ToolDef *
find_available_tool(const char *name)
{
	const ToolDef *tool = nat_find_tool(name);
	ToolError  *err;

	if (tool && nat_tool_available(tool))
		return tool;
	if (tool)
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
	call->cxt = callcxt;
	INSTR_TIME_SET_CURRENT(call->start);
	nat_set_error_context(callcxt);
	nat_clear_pending_error();

	call_depth++;
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(callcxt);

	PG_TRY();
	{
		const ToolDef *tool;
		int			nest;

		tool = call->tool = find_available_tool(name);
		call->operation = tool->operation;
		nat_validate_args(tool, args);
		call->timeout_ms = nat_effective_timeout(call);
		call->read_only = tool->read_only || nat_read_only ||
			nat_arg_bool(call, "read_only", false);

		nest = NewGUCNestLevel();
		apply_call_settings(call);
		nat_timer_arm(call->timeout_ms);

		nat_response_begin(call);
		tool->handler(call);

		/* disarm, then let a cancel that raced with the end surface here */
		nat_timer_disarm();
		CHECK_FOR_INTERRUPTS();

		AtEOXact_GUC(false, nest);
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
		ours = nat_timer_fired();

		MemoryContextSwitchTo(callcxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(callcxt);
		CurrentResourceOwner = oldowner;
		err = nat_take_pending_error();

		if ((edata->sqlerrcode == ERRCODE_QUERY_CANCELED && !ours) ||
			edata->sqlerrcode == ERRCODE_ASSERT_FAILURE)
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
		answer = nat_error_response(call, edata, err);
	}
	PG_END_TRY();

	call_depth--;
	nat_set_error_context(NULL);

	/* copy the answer out before the call's memory goes */
	MemoryContextSwitchTo(oldcxt);
	result = palloc(VARSIZE(answer));
	memcpy(result, answer, VARSIZE(answer));
	MemoryContextDelete(callcxt);
	return result;
}

/*
 * Run a row-returning statement through a cursor and push its rows into the
 * answer as "data" (and its columns as "columns"), under the caps.
 */
void
nat_stream_query(ToolCall *call, const char *sql, QueryParams *params,
				 RowCaps caps, RowResult *result)
{
	Portal		portal;
	ColumnOutput *cols;
	TupleDesc	tupdesc;
	JsonbValue *values;
	Size	   *sizes;
	int64		bytes = 0;
	int			natts;
	int			i;
	bool		done = false;
	MemoryContext spicxt;

	memset(result, 0, sizeof(RowResult));
	call->query = MemoryContextStrdup(call->cxt, sql);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	spicxt = CurrentMemoryContext;

	portal = SPI_cursor_open_with_args(NULL, sql, params->count, params->types,
									   params->values, params->nulls,
									   call->read_only, CURSOR_OPT_NO_SCROLL);
	tupdesc = portal->tupDesc;
	if (tupdesc == NULL)
		elog(ERROR, "query returns no rows");
	natts = tupdesc->natts;
	cols = nat_prepare_columns(tupdesc, call->cxt);

	MemoryContextSwitchTo(call->cxt);
	values = palloc(sizeof(JsonbValue) * Max(natts, 1));
	sizes = palloc(sizeof(Size) * Max(natts, 1));

	nat_push_key(&call->state, "columns");
	pushJsonbValue(&call->state, WJB_BEGIN_ARRAY, NULL);
	for (i = 0; i < natts; i++)
	{
		pushJsonbValue(&call->state, WJB_BEGIN_OBJECT, NULL);
		nat_push_string(&call->state, "name", cols[i].key);
		nat_push_string(&call->state, "type", cols[i].type_name);
		pushJsonbValue(&call->state, WJB_END_OBJECT, NULL);
	}
	pushJsonbValue(&call->state, WJB_END_ARRAY, NULL);

	nat_push_key(&call->state, "data");
	pushJsonbValue(&call->state, WJB_BEGIN_ARRAY, NULL);

	while (!done)
	{
		uint64		n;
		uint64		t;

		MemoryContextSwitchTo(spicxt);
		SPI_cursor_fetch(portal, true, FETCH_BATCH);
		n = SPI_processed;
		if (n == 0)
			break;
		MemoryContextSwitchTo(call->cxt);

		for (t = 0; t < n; t++)
		{
			HeapTuple	tuple = SPI_tuptable->vals[t];
			Size		rowsize = 2;

			if (result->row_count >= caps.max_rows)
			{
				result->truncated = true;
				result->truncation_reason = "row_limit";
				result->truncation_limit = caps.max_rows;
				done = true;
				break;
			}

			for (i = 0; i < natts; i++)
			{
				bool		isnull;
				Datum		d = SPI_getbinval(tuple, tupdesc, i + 1, &isnull);

				sizes[i] = nat_datum_to_jsonb_value(&cols[i], d, isnull, &values[i]);
				rowsize += sizes[i];
			}
			if (bytes + rowsize > caps.max_bytes)
			{
				result->truncated = true;
				result->truncation_reason = "byte_limit";
				result->truncation_limit = caps.max_bytes;
				done = true;
				break;
			}
			bytes += rowsize;

			pushJsonbValue(&call->state, WJB_BEGIN_OBJECT, NULL);
			for (i = 0; i < natts; i++)
			{
				nat_push_key(&call->state, cols[i].key);
				pushJsonbValue(&call->state, WJB_VALUE, &values[i]);
			}
			pushJsonbValue(&call->state, WJB_END_OBJECT, NULL);
			result->row_count++;
		}
		SPI_freetuptable(SPI_tuptable);
		CHECK_FOR_INTERRUPTS();
	}
	pushJsonbValue(&call->state, WJB_END_ARRAY, NULL);

	MemoryContextSwitchTo(spicxt);
	SPI_cursor_close(portal);
	SPI_finish();
	MemoryContextSwitchTo(call->cxt);
}
