/*-------------------------------------------------------------------------
 *
 * execute.c
 *		  The execution core shared by every tool.
 *
 * Each call runs in its own subtransaction (the PL/Python pattern): a
 * failed call leaves nothing behind and the caller's transaction stays
 * usable.  Inside it, read-only mode and lock_timeout hold for the call
 * (apply_call_settings()), and a GUC nest level rolled back with
 * AtEOXact_GUC(false) makes sure nothing a statement SETs (settings, even
 * SET ROLE) outlives the call.
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
 * The tool only plans (plan.h); this file runs every plan: it is the one
 * place that calls SPI, binds JSON values to the types PostgreSQL infers,
 * fetches single values and applies the row and write caps.  Rows go
 * through row_sink.c's receiver, which renders them straight into the
 * answer under the caps; the rest of the answer is response.c's.
 *
 * IDENTIFICATION
 *		  src/core/execute.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "commands/sequence.h"
#include "plan/continuation.h"
#include "executor/spi.h"
#include "jit/jit.h"
#include "miscadmin.h"
#include "nodes/params.h"
#include "parser/parse_param.h"
#include "storage/proc.h"
#include "plan/token.h"
#include "run/run.h"
#include "plan/tool_plan.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

/* calls in progress in this backend: tools do not nest */
static int	call_depth = 0;

/* ai_tool_run(): the time left to its calls (ms), 0 outside it */
int			nat_call_time_ceiling = 0;

/* the call in progress, for the errors of its limits */
static ToolCall *current_call = NULL;

static void run_plan(ToolCall *call, ToolPlan *plan);

/*
 * Effective time limit of the call: the timeout_ms argument, or the
 * neon_ai_tools.timeout default, never above neon_ai_tools.max_timeout nor
 * a custom tool's own timeout.
 */
int
nat_effective_timeout(ToolCall *call)
{
	const NatIntArg *timeout = &NAT_COMMON(call)->timeout_ms;
	int64		ms = timeout->given ? timeout->value : nat_timeout_ms;

	/* a custom tool's own cap lowers both */
	if (call->tool && call->tool->timeout_ms > 0)
		ms = Min(ms, (int64) call->tool->timeout_ms);
	/* so does the time left to the calls of one model response */
	if (nat_call_time_ceiling > 0)
		ms = Min(ms, (int64) nat_call_time_ceiling);
	return (int) Min(ms, (int64) nat_max_timeout_ms);
}

/* lock_timeout as the caller had it, while a call lowers it */
static int	caller_lock_timeout = -1;

/* jit as the caller had it, while a call runs without it */
static int	caller_jit = -1;

/*
 * Settings in force for the call only, without the GUC machinery: a
 * set_config_option() would make the transaction's settings "dirty", and
 * on 15 every AtEOXact_GUC() of a dirty transaction walks all ~350
 * settings (twice a call: our nest level, then the subtransaction's).
 *
 * Read-only: XactReadOnly, the variable behind transaction_read_only, set
 * inside the call's subtransaction.  Its commit and its abort both put
 * back the caller's value (xact.c restores prevXactReadOnly on either),
 * so no exit path can leave it set; while it is set, check_transaction_
 * read_only() refuses SET transaction_read_only = off, SET TRANSACTION
 * READ WRITE and RESET inside a subtransaction (25001), and SHOW reads
 * the variable.  Verified on 15, 17 and 18 (pg-internals.md, Q4); from 17
 * on, set_config_option() would refuse the function-SET action on it
 * (GUC_NO_RESET), which a plain assignment does not meet.
 *
 * JIT compilation is off for the call (jit_enabled, by assignment too, so
 * that parallel workers, which take the leader's values, do the same):
 * LLVM is a 100 MB library mapped on first use and compiling takes memory,
 * neither of which fits a call whose address space is limited to its
 * max_call_memory (call_memory.c); a call's queries are bounded by its
 * deadline anyway, and setting_guard.c refuses turning it back on.
 *
 * lock_timeout only tightens what the session already has: LockTimeout,
 * read when a lock wait starts, lowered here and put back by
 * restore_call_settings() on every exit, after the call's GUC nest level
 * is popped (which puts back whatever a statement SET, this value being
 * the one it found).
 */
static void
apply_call_settings(ToolCall *call)
{
	if (call->read_only)
		XactReadOnly = true;
	caller_jit = jit_enabled;
	jit_enabled = false;

	if (nat_lock_timeout_ms > 0 &&
		(LockTimeout == 0 || LockTimeout > nat_lock_timeout_ms))
	{
		caller_lock_timeout = LockTimeout;
		LockTimeout = nat_lock_timeout_ms;
	}
}

/*
 * Before parallel workers may start (call_guard.c's publish_call_state()):
 * a worker takes the leader's settings whose source is not the built-in
 * default, so a lock_timeout lowered by assignment alone would not reach
 * it.  Set once more through the GUC machinery, with its current value and
 * SET LOCAL semantics at the current level (rolled back with it, and at the
 * latest with the call's nest level).  Transaction_read_only needs nothing:
 * workers always get it.
 */
void
nat_call_settings_for_workers(void)
{
	char		value[32];

	if (caller_lock_timeout < 0)
		return;
	snprintf(value, sizeof(value), "%d", LockTimeout);
	(void) set_config_option("lock_timeout", value,
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_LOCAL, true, 0, false);
}

/*
 * Put back the caller's lock_timeout; the subtransaction's end puts back
 * XactReadOnly.
 */
static void
restore_call_settings(void)
{
	if (caller_lock_timeout >= 0)
		LockTimeout = caller_lock_timeout;
	caller_lock_timeout = -1;
	if (caller_jit >= 0)
		jit_enabled = (bool) caller_jit;
	caller_jit = -1;
}

/*
 * limit_exceeded: a Citus worker counted more rows changed by the call's
 * shard queries than the call's write limit (citus_worker.c).  Its message
 * is the worker's own, which names no value.
 */
static ToolError *
worker_write_limit_error(ErrorData *edata)
{
	ToolError  *err = nat_error(NAT_ERR_LIMIT_EXCEEDED, "%s", edata->message);

	err->suggestion = pstrdup("Change fewer rows per call: narrow the statement's filter, or split the change into smaller batches.");
	return err;
}

/*
 * A value that did not convert to its column's type: an invalid_input
 * error naming the argument path, the column and the type, with
 * PostgreSQL's own message.  NULL if the error came from elsewhere.
 */
static ToolError *
conversion_error(ErrorData *edata)
{
	ConversionFailure failure;
	char	   *type;
	ToolError  *err;

	if (!nat_conversion_failed(&failure))
		return NULL;
	if (ERRCODE_TO_CATEGORY(edata->sqlerrcode) != ERRCODE_DATA_EXCEPTION)
		return NULL;
	type = format_type_with_typemod(failure.typid, failure.typmod);
	err = nat_error(NAT_ERR_INVALID_INPUT,
					failure.column ? "invalid value at %s for column \"%s\" of type %s: %s" :
					"invalid value at %s%s for type %s: %s",
					failure.path, failure.column ? failure.column : "", type,
					nat_clip_quoted(edata->message));
	err->path = failure.path;
	err->column = failure.column;
	err->sqlerrcode = edata->sqlerrcode;
	/* examples of the type, and the value probably meant (value_advice.c) */
	nat_advise_conversion(err, &failure);
	nat_explain_value_limit(err, failure.typid, failure.typmod);	/* too long, too large */
	return err;
}

/*
 * How the call ended, for the audit log: success, dry_run or
 * error:<errorType>, from the call's state.
 */
static const char *
call_outcome(ToolCall *call)
{
	if (call->error_type != NULL)
		return psprintf("error:%s", call->error_type);
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
 * Find the tool called name, or raise unknown_tool / tool_disabled (or
 * read_only_violation for a write tool on a hot standby).
 */
static const ToolDef *
find_available_tool(ToolCall *call, const char *name)
{
	const ToolDef *tool = nat_find_tool(name);
	ToolError  *err;

	/* counted under its name even when refused; an unknown name is not */
	if (tool)
		call->stats_tool = MemoryContextStrdup(call->cxt, tool->name);
	if (tool && nat_tool_available(tool))
		return tool;
	if (tool && tool->writes && nat_read_only)
	{
		err = nat_error(NAT_ERR_TOOL_DISABLED,
						"tool \"%s\" writes, and this role is read-only", nat_clip(name));
		err->suggestion = pstrdup("Only reading tools are available (neon_ai_tools.read_only is on); read the data instead, or ask the database administrator.");
	}
	else if (tool && tool->writes && RecoveryInProgress() && nat_tool_enabled(tool->name))
	{
		/* what the engine itself answers a write on a standby: 25006 */
		err = nat_error(NAT_ERR_READ_ONLY_VIOLATION,
						"tool \"%s\" writes, and the server is a read-only hot standby", nat_clip(name));
		err->sqlerrcode = ERRCODE_READ_ONLY_SQL_TRANSACTION;
		err->suggestion = pstrdup(NAT_STANDBY_SUGGESTION);
	}
	else if (tool)
	{
		err = nat_error(NAT_ERR_TOOL_DISABLED,
						"tool \"%s\" is not enabled for this role", nat_clip(name));
		err->suggestion = nat_available_tool_names()[0] ?
			psprintf("Use one of the enabled tools: %s.", nat_available_tool_names()) :
			pstrdup("No tools are enabled for this role; ask the database administrator.");
	}
	else
	{
		const char *meant = name[0] ? nat_tool_meant(name) : NULL;

		err = name[0] == '\0' ?
			nat_error(NAT_ERR_UNKNOWN_TOOL, "no tool name was given") :
			nat_error(NAT_ERR_UNKNOWN_TOOL, "tool \"%s\" does not exist", nat_clip(name));
		if (meant)
			nat_error_offer(err, meant,
							psprintf("Call the tool \"%s\" instead.", meant));
		else
			err->suggestion = psprintf("Use one of the tools listed by ai_tool_list(): %s.",
									   nat_available_tool_names());
	}
	nat_throw(err);
}

/*
 * Run the call in its own subtransaction and return its answer, a success
 * or an error, in call->cxt.  Everything that can fail (the tool, the
 * checks at the end, building the success answer) runs inside PG_TRY, and
 * the subtransaction is released only after PG_END_TRY: an error can
 * never arrive after the release, when there is nothing left to roll back
 * (which would be a FATAL).  The error answer is built after PG_END_TRY
 * too, from the copied error data.
 *
 * A real cancel that our timer did not cause is re-thrown as it is.
 */
static Jsonb *
run_in_subtransaction(ToolCall *call, const char *name, Jsonb *args)
{
	ResourceOwner oldowner = CurrentResourceOwner;
	MemoryContext callcxt = call->cxt;
	Jsonb	   *volatile answer = NULL;
	ErrorData  *volatile edata = NULL;
	ToolError  *err;
	bool		ours;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(callcxt);

	PG_TRY();
	{
		const ToolDef *tool;
		ToolPlan	plan;
		int			nest;
		int			timeout_ms;

		nat_check_connection();
		/* before anything copies them */
		if (args != NULL)
			nat_memory_check_args(VARSIZE_ANY(args));
		tool = call->tool = find_available_tool(call, name);
		call->operation = tool->operation;
		call->args = nat_normalize_args(tool, args);
		call->targs = nat_decode_args(tool, call->args);
		nat_continuation_begin(call);
		call->timeout_ms = nat_effective_timeout(call);
		call->read_only = tool->read_only || nat_read_only ||
			NAT_COMMON(call)->read_only.value;

		nest = NewGUCNestLevel();
		apply_call_settings(call);
		nat_timer_arm(call->timeout_ms);
		call->deadline = nat_timer_deadline(&timeout_ms);
		nat_citus_call_begin(call->read_only);
		nat_guard_begin(call->read_only, callcxt);	/* after: reads the
													 * deadline */
		if (!call->read_only)
			nat_writes_begin(callcxt);
		nat_memory_arm();

		/* validated and decoded (above); planned; run and rendered */
		nat_response_begin(call);
		nat_plan_init(call, &plan);
		tool->plan(call, call->targs, &plan);
		if (call->plan_only)
			nat_response_plan_description(call, &plan);
		else
			run_plan(call, &plan);

		/* every row the call changed, at every level, within its limit */
		nat_writes_check();
		/* disarm, then let a cancel that raced with the end surface here */
		nat_timer_disarm();
		nat_memory_disarm(false);
		CHECK_FOR_INTERRUPTS();
		/* code that caught the cancel and finished anyway still timed out */
		if (nat_timer_fired())
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("canceling statement: the tool call ran past its time limit of %d ms",
							call->timeout_ms)));
		nat_guard_check_end();
		nat_guard_end();
		nat_writes_end();
		nat_citus_call_end();
		AtEOXact_GUC(false, nest);
		restore_call_settings();

		MemoryContextSwitchTo(callcxt);
		answer = nat_response_finish(call);
	}
	PG_CATCH();
	{
		nat_timer_disarm();
		nat_memory_disarm(true);
		nat_guard_end();
		nat_writes_end();
		nat_citus_call_abort();
		MemoryContextSwitchTo(callcxt);
		edata = CopyErrorData();
		FlushErrorState();
		nat_conversion_capture();	/* before the rollback frees its strings */
	}
	PG_END_TRY();

	if (edata == NULL)
	{
		if (call->dry_run || call->plan_only)
			RollbackAndReleaseCurrentSubTransaction();	/* keep nothing */
		else
			ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(callcxt);
		CurrentResourceOwner = oldowner;
		return answer;
	}

	ours = nat_timer_fired() || nat_memory_exceeded();
	RollbackAndReleaseCurrentSubTransaction();
	restore_call_settings();	/* after the rollback put back ours */
	MemoryContextSwitchTo(callcxt);
	CurrentResourceOwner = oldowner;
	err = nat_take_pending_error();

	if (is_interrupt_cancel(edata) && !ours)
		ReThrowError(edata);

	/* a re-fire of our timer must not cancel the caller's statement */
	if (ours)
		QueryCancelPending = false;
	call->timed_out = nat_timer_fired() && !nat_memory_exceeded() &&
		edata->sqlerrcode == ERRCODE_QUERY_CANCELED;

	if (edata->sqlerrcode != ERRCODE_NAT_TOOL_ERROR)
		err = NULL;
	/* over the cap: seen by the timer, or an allocation the limit refused */
	if ((nat_memory_exceeded() ||
		 (edata->sqlerrcode == ERRCODE_OUT_OF_MEMORY && nat_max_call_memory_kb > 0)) &&
		!call->timed_out)
		err = nat_memory_limit_error();
	if (err == NULL && edata->sqlerrcode == ERRCODE_NAT_WORKER_WRITE_LIMIT)
		err = worker_write_limit_error(edata);
	if (err == NULL && !call->timed_out)
		err = conversion_error(edata);
	return nat_error_response(call, edata, err);
}

/*
 * Run one tool call and return its answer, allocated in the caller's
 * memory context.  Expected failures become error answers.
 *
 * Tools do not nest: call_depth says a call is in progress, and is
 * restored on every way out, errors included (pg_stat_statements keeps
 * its nesting level the same way).
 */
Jsonb *
nat_run_tool_call(const char *name, Jsonb *args, bool plan_only)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	MemoryContext callcxt;
	ToolCall   *call;
	Jsonb	   *volatile answer = NULL;
	Jsonb	   *result;
	int			nest;
	Oid			call_user = GetUserId();

	if (call_depth > 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("ai_tool_call() cannot be called from inside a tool call")));
	/* a call needs a subtransaction, which parallel mode cannot start */
	if (IsInParallelMode())
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("ai_tool_call() cannot run in a parallel operation"),
				 errhint("Declare functions that call ai_tool_call() PARALLEL UNSAFE.")));

	callcxt = AllocSetContextCreate(CurrentMemoryContext,
									"neon_ai_tools call",
									ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(callcxt);

	/*
	 * Under SET ROLE, the current role's policy, for the whole call: its
	 * checks, its error answer and its audit line (role_policy.c).
	 */
	nest = nat_role_policy_begin();

	call = palloc0(sizeof(ToolCall));
	/* answers and the audit log quote the name: clipped, it may be huge */
	call->tool_name = nat_clip(name);
	call->args = args;
	call->plan_only = plan_only;
	call->affected_rows = -1;
	call->cxt = callcxt;
	INSTR_TIME_SET_CURRENT(call->start);
	nat_set_error_context(callcxt);
	nat_clear_pending_error();
	nat_conversion_begin(callcxt);

	call_depth++;
	current_call = call;
	PG_TRY();
	{
		answer = run_in_subtransaction(call, name, args);
	}
	PG_FINALLY();
	{
		/* no answer: an error is on its way out (a cancel not ours) */
		if (answer == NULL && !plan_only)
			nat_stats_call_escaped(call);
		call_depth--;
		current_call = NULL;

		/*
		 * Sequence state (currval, lastval) the call leaves to the next
		 * caller: cleared when the call ran as another role than the one that
		 * logged in (SET ROLE or SET SESSION AUTHORIZATION by an
		 * authenticator, which may hand the session to another role next).
		 */
		if (call_user != GetSessionUserId() || call_user != GetAuthenticatedUserId())
			ResetSequenceCaches();
		nat_set_error_context(NULL);
		nat_conversion_end();
	}
	PG_END_TRY();

	/* a plan ran nothing: there is no call to audit or count */
	if (!plan_only)
	{
		nat_stats_call_answered(call, answer);
		nat_audit_call(call, call_outcome(call));
	}
	nat_role_policy_end(nest);

	/* copy the answer out before the call's memory goes */
	MemoryContextSwitchTo(oldcxt);
	result = palloc(VARSIZE(answer));
	memcpy(result, answer, VARSIZE(answer));
	MemoryContextDelete(callcxt);
	return result;
}

/*
 * Raise limit_exceeded: the call would change more rows than the cap (at
 * every level: write_count.c).
 */
static void
throw_limit_exceeded(ToolCall *call, int64 affected, int64 max_affected)
{
	ToolError  *err = nat_error(NAT_ERR_LIMIT_EXCEEDED,
								"this %s would change " INT64_FORMAT " rows, more than the limit of " INT64_FORMAT "; nothing was changed",
								call->operation == NAT_OP_EXECUTE ? "statement" :
								nat_operation_names[call->operation],
								affected, max_affected);

	err->suggestion = psprintf("Narrow the where filter so that at most " INT64_FORMAT " rows match, or raise max_affected if the server's limit allows.",
							   max_affected);
	err->suggested_actions = list_make2(pstrdup("Run the same call with \"dry_run\": true to preview which rows match."),
										pstrdup("Split the change into smaller batches with narrower filters."));
	if (call->table)
		err->affected_resources = list_make1(call->table);
	nat_throw(err);
}

void
nat_throw_write_limit(int64 total, int64 limit)
{
	Assert(current_call != NULL);
	throw_limit_exceeded(current_call, total, limit);
	pg_unreachable();
}

/*
 * Parse a one-shot statement's $n with the bound values' types.
 */
static void
fixed_params_setup(ParseState *pstate, void *arg)
{
	QueryParams *params = (QueryParams *) arg;

	setup_parse_fixed_parameters(pstate, params->types, params->count);
}

/*
 * The bound values as a ParamListInfo, constant for the planner.
 */
static ParamListInfo
param_list(QueryParams *params)
{
	ParamListInfo list;
	int			i;

	if (params->count == 0)
		return NULL;
	list = makeParamList(params->count);
	for (i = 0; i < params->count; i++)
	{
		list->params[i].ptype = params->types[i];
		list->params[i].value = params->values[i];
		list->params[i].isnull = params->nulls[i] == 'n';
		list->params[i].pflags = PARAM_FLAG_CONST;
	}
	return list;
}

/*
 * Run one statement of any kind and push its result into the answer at
 * the current level of call->state: "columns" and "data" for the rows it
 * returns ("data" is empty when it returns none), under the caps, without
 * the last hidden columns of each row.  The caller sets call->query, the
 * statement errors and the audit log show.
 *
 * The rows go through row_sink.c's receiver, which renders them as they
 * come: a query stops at the caps, a data-modifying statement runs to its
 * end with its RETURNING rows past the caps counted and dropped.  A query
 * (query = true) returns the number of rows pushed; any other statement
 * returns the number of rows it affected (SPI_processed), and past
 * max_affected (if >= 0) a limit_exceeded error unwinds the call's
 * subtransaction, so nothing is changed.  The cap is checked on the
 * count, never through SPI's tcount, which would silently stop a
 * data-modifying statement part way.
 */
static int64
execute_statement(ToolCall *call, const char *sql, QueryParams *params,
				  bool query, int64 max_affected, RowCaps caps, int hidden,
				  RowResult *result)
{
	SPIPlanPtr	plan;
	SPIExecuteOptions options;
	DestReceiver *sink;
	int64		affected;
	int64		changed_before = nat_writes_total();
	int			rc;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* the agent's text is measured as written, without a LIMIT added to it */
	plan = nat_prepare_cached(sql, params->count, params->types,
							  call->query_source == NULL ? NAT_SQL_GENERATED :
							  strlen(call->query) > NAT_PLAN_CACHE_MAX_AGENT_SQL ?
							  NAT_SQL_AGENT_LONG : NAT_SQL_AGENT);

	sink = nat_row_sink_create(call, caps, hidden, result);
	memset(&options, 0, sizeof(options));
	options.params = param_list(params);
	options.dest = sink;

	/*
	 * SPI's read_only flag would refuse utility statements that only read
	 * (EXPLAIN, SHOW); read-only calls are enforced by transaction_read_only
	 * and call_guard.c instead.  A query in a read-only call runs on the
	 * call's snapshot.
	 */
	options.read_only = query && call->read_only;
	if (plan != NULL)
		rc = SPI_execute_plan_extended(plan, &options);
	else
	{
		/* not to be kept: a one-shot plan, planned, run and freed */
		if (options.params)
		{
			options.params->parserSetup = fixed_params_setup;
			options.params->parserSetupArg = params;
		}
		rc = SPI_execute_extended(sql, &options);
	}
	if (rc < 0)
		elog(ERROR, "SPI_execute failed: %s", SPI_result_code_string(rc));
	nat_plan_cache_settle();
	nat_row_sink_close(sink);
	affected = (int64) SPI_processed;	/* SPI_finish() restores the caller's */
	SPI_finish();

	/*
	 * What the statement changed at every level, as the executor counted it
	 * (write_count.c; a read-only call changes nothing and is not counted).
	 */
	call->statement_own = query ? -1 : affected;
	call->statement_changed = call->read_only ? (query ? 0 : affected) :
		nat_writes_total() - changed_before;
	if (!query || call->statement_changed > 0)
		call->affected_rows = Max(call->affected_rows, 0) + call->statement_changed;
	if (max_affected >= 0 && nat_writes_total() > max_affected)
		throw_limit_exceeded(call, nat_writes_total(), max_affected);
	return query ? result->row_count : call->statement_changed;
}


/*
 * Run a statement that returns one row of one column, and return that
 * value (never null), copied into the call's memory.  The SQL is run as
 * one shot, not cached.  SPI's read_only flag would refuse a utility
 * statement (EXPLAIN): only generated queries of a read-only call run on
 * the call's snapshot.
 */
static Datum
fetch_value(ToolCall *call, const char *sql, QueryParams *params,
			bool read_only)
{
	Form_pg_attribute att;
	MemoryContext old;
	Datum		value;
	bool		isnull;
	int			rc;

	call->query = MemoryContextStrdup(call->cxt, sql);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	rc = SPI_execute_with_args(sql, params->count, params->types,
							   params->values, params->nulls, read_only, 0);
	if (rc < 0 || SPI_processed != 1 || SPI_tuptable == NULL)
		elog(ERROR, "a query for one value returned no row: %s",
			 SPI_result_code_string(rc));
	value = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (isnull)
		elog(ERROR, "a query for one value returned null");

	/* copy it out of SPI's memory before it goes */
	att = TupleDescAttr(SPI_tuptable->tupdesc, 0);
	old = MemoryContextSwitchTo(call->cxt);
	if (att->attlen == -1)
		value = PointerGetDatum(PG_DETOAST_DATUM_COPY(value));
	else
		value = datumCopy(value, att->attbyval, att->attlen);
	MemoryContextSwitchTo(old);
	SPI_finish();
	return value;
}

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
 * The most rows the row sink can read of one of the agent's queries: the
 * row cap plus one (to tell truncation), after the rows an offset
 * continuation skips; 0 for no bound.
 */
static int64
query_rows(ToolCall *call, ToolPlan *plan)
{
	int64		skip = call->cont && !plan->multiple ? call->cont->skip : 0;

	if (skip < 0 || skip > PG_INT64_MAX - plan->caps.max_rows - 1)
		return 0;
	return plan->caps.max_rows + 1 + skip;
}

/*
 * Run one of the agent's statements and render its result at the current
 * level of the answer.  Returns whether its rows were truncated.
 */
static bool
run_agent_statement(ToolCall *call, ToolPlan *plan, RawStmt *rs, int index)
{
	char	   *what = plan->multiple ? psprintf("statement %d", index + 1) : "the statement";
	Query	   *query;
	QueryParams bound;
	RowResult	rows;
	bool		modifies;
	bool		dml;
	char	   *sql;

	/*
	 * The statement's analysis, bound values and execution live in a context
	 * of their own, freed when it has run: only its rows stay, in the answer
	 * (row_sink.c puts them in the call's context).  So many statements cost
	 * no more than the largest of them.
	 */
	MemoryContext stmtcxt = AllocSetContextCreate(call->cxt,
												  "neon_ai_tools statement",
												  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(stmtcxt);

	/* analysis errors point into the agent's whole text, which the call keeps */
	call->query = (char *) plan->source;
	query = nat_analyze_and_bind(call, rs, plan->source, plan->json_params,
								 &bound, what);

	modifies = changes_rows(query);
	dml = query->commandType != CMD_SELECT && query->commandType != CMD_UTILITY;
	sql = nat_statement_text(plan->source, rs);
	/* errors and the audit log show the statement as the agent wrote it */
	call->query = MemoryContextStrdup(call->cxt, sql);
	if (query->commandType == CMD_SELECT && !modifies)
	{
		/* a query: its rows continued exactly, or not at all (Citus) ... */
		if (!plan->multiple)
			nat_continuation_statement(call, query);
		/* ... and never more of them read than the caps let through */
		sql = nat_statement_with_limit(sql, query, query_rows(call, plan));
	}
	(void) execute_statement(call, sql, &bound,
							 query->commandType == CMD_SELECT && !modifies,
							 plan->max_affected, plan->caps, 0, &rows);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(stmtcxt);

	/*
	 * affectedRows for a statement that changed rows at any level (a SELECT
	 * of a function that deletes, a DO block), with the statement's own count
	 * beside it where that differs.
	 */
	nat_response_statement_end(call, modifies || call->statement_changed > 0,
							   call->statement_changed,
							   dml ? call->statement_own : -1,
							   &rows, plan->multiple);
	return rows.truncated;
}

/*
 * Run the agent's statements in order, each rendered as it ends: at the
 * top level of the answer for one, as one object of "data" each for
 * several.
 */
static void
run_agent_statements(ToolCall *call, ToolPlan *plan)
{
	ListCell   *lc;
	bool		truncated = false;

	if (!plan->multiple)
	{
		(void) run_agent_statement(call, plan, linitial_node(RawStmt, plan->statements), 0);
		return;
	}
	nat_response_statements_begin(call);
	foreach(lc, plan->statements)
	{
		RawStmt    *rs = lfirst_node(RawStmt, lc);

		nat_response_statement_begin(call, foreach_current_index(lc),
									 nat_statement_tag(rs));
		truncated |= run_agent_statement(call, plan, rs, foreach_current_index(lc));
	}
	nat_response_statements_end(call, list_length(plan->statements), truncated);
}

/*
 * Run the plan and render its answer (response.c).
 */
static void
run_plan(ToolCall *call, ToolPlan *plan)
{
	PlanResult	result;

	memset(&result, 0, sizeof(result));
	result.affected = -1;
	result.own_affected = -1;
	nat_response_warnings(call, plan->warnings);

	/*
	 * The write limit holds for every row the call changes, whatever the
	 * tool: the plan's own cap, else the server's.
	 */
	if (!call->read_only)
		nat_writes_set_limit(plan->max_affected >= 0 ? plan->max_affected :
							 nat_max_affected_rows);
	switch (plan->run)
	{
		case PLAN_ROWS:
			call->query = MemoryContextStrdup(call->cxt, plan->sql);
			(void) execute_statement(call, plan->sql, &plan->params, true, -1,
									 plan->caps, 0, &result.rows);
			if (plan->empty_hints && result.rows.received == 0)
				nat_empty_result_hints(call, plan);
			break;
		case PLAN_WRITE:
			call->query = MemoryContextStrdup(call->cxt, plan->sql);
			result.affected = execute_statement(call, plan->sql, &plan->params,
												false, plan->max_affected,
												plan->caps, plan->hidden_columns,
												&result.rows);
			result.own_affected = call->statement_own;
			if (plan->count_returned)
			{
				/*
				 * The rows RETURNING gave back are the rows the statement
				 * itself changed, on whatever node.  The command's count is
				 * not, on Citus: INSERT ... SELECT into a distributed table
				 * reports the rows it sent to the shards (INSERT 0 2 when ON
				 * CONFLICT DO NOTHING skipped one of two); and the executor
				 * here sees none of the rows changed on another node.
				 */
				int64		delta;

				result.own_affected = result.rows.received;
				delta = nat_writes_citus_exact(result.own_affected);
				result.affected += delta;
				call->statement_changed += delta;
				result.affected = Max(result.affected, result.own_affected);
				call->affected_rows = result.affected;
			}
			break;
		case PLAN_UTILITY:
			if (plan->affected_from == PLAN_AFFECTED_COUNT)
			{
				QueryParams none;

				/* not read-only: a snapshot taken now that the lock is held */
				nat_params_init(&none);
				result.affected = DatumGetInt64(fetch_value(call, plan->count_sql,
															&none, false));
			}
			else if (plan->affected_from == PLAN_AFFECTED_CONSTANT)
				result.affected = plan->affected_constant;
			call->query = MemoryContextStrdup(call->cxt, plan->sql);
			(void) execute_statement(call, plan->sql, &plan->params, false, -1,
									 plan->caps, 0, &result.rows);
			break;
		case PLAN_VALUE:
			result.value = fetch_value(call, plan->sql, &plan->params,
									   call->read_only && !plan->utility);
			break;
		case PLAN_AGENT:
			run_agent_statements(call, plan);
			nat_confirmation_check(call, call->affected_rows);
			return;
	}
	nat_response_plan(call, plan, &result);
	if (plan->run == PLAN_WRITE || plan->run == PLAN_UTILITY)
		nat_confirmation_check(call, result.affected);
}
