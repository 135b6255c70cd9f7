/*-------------------------------------------------------------------------
 *
 * citus_worker.c
 *		  On a Citus worker: the part of a coordinator's tool call that
 *		  runs here, guarded as the call is on the coordinator.
 *
 * The coordinator's call (citus_calls.c) sets neon_ai_tools.citus_call with
 * SET LOCAL, which Citus propagates to every worker transaction of the call,
 * after the call's savepoint: "r|w,<deadline>,<timeout_ms>,<write limit>".
 * Where this library is loaded (shared_preload_libraries on the workers),
 * the setting's assign hook starts the call's guard in this backend
 * (call_guard.c, nat_guard_begin_remote()): the shard queries Citus sends
 * for the call are vetted as the call's own statements are on the
 * coordinator (functions a read-only call refuses, session state, the
 * role), a statement that would start after the deadline is refused and a
 * running one is cancelled at it (a timer of its own), and a writing
 * call's rows changed here, nested ones included (a function that writes,
 * a data-modifying WITH that Citus pushes down in a SELECT), are counted
 * against the call's write limit.  The coordinator cannot count those: it
 * sees only the rows its own modifications report.
 *
 * The guard ends with the savepoint in which the setting arrived (the
 * call's own: Citus sends the coordinator's savepoints before the SETs),
 * rolled back or released, or with the transaction.  Only the coordinator may
 * change the setting while the guard runs: its statements arrive as
 * statements of their own (the portal's own statement; a utility statement
 * that arrives so passes the guard: a savepoint, Citus's own settings
 * around the DDL it propagates, or the agent's DDL, vetted on the
 * coordinator before Citus propagated it), while a shard
 * query's code (set_config(), a function's SET clause, RESET) runs inside
 * another statement and is refused, by the check hook for a new value and
 * by the assign hook for a reset, which skips the check hook.  A value put
 * back by a savepoint's rollback or the transaction's end is always taken.
 *
 * Without this library on the workers, the read-only transaction that
 * citus_calls.c propagates still holds.
 *
 * IDENTIFICATION
 *		  src/core/citus_worker.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "run/run.h"
#include "storage/latch.h"
#include "tcop/cmdtag.h"
#include "tcop/pquery.h"
#include "tcop/utility.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/portal.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"

#define CITUS_CALL_SETTING "neon_ai_tools.citus_call"

static char *citus_call_value = NULL;

/* the value the guard runs under (in remote_cxt) */
static char *active_value = NULL;

/* the value being assigned, for begin_remote() */
static const char *citus_call_pending = NULL;

/* a statement of the coordinator's own is running (see above) */
static bool from_coordinator = false;

/* the coordinator is setting the value in its own backend (citus_calls.c) */
static bool coordinator_setting = false;

/* the guard's memory and cancel timer in this backend */
static MemoryContext remote_cxt = NULL;
static TimeoutId remote_timeout_id = MAX_TIMEOUTS;

/* the transaction nesting level at which the guard began */
static int	remote_nest_level = 0;

typedef struct RemoteCall
{
	bool		read_only;
	TimestampTz deadline;
	int			timeout_ms;
	int64		write_limit;	/* -1: none */
} RemoteCall;

/* "r|w,<deadline>,<timeout_ms>,<write limit>"; false if not one */
static bool
parse_remote_call(const char *value, RemoteCall *rc)
{
	char		mode;
	long long	deadline;
	int			timeout_ms;
	long long	limit;
	int			used = 0;

	if (sscanf(value, "%c,%lld,%d,%lld%n", &mode, &deadline, &timeout_ms,
			   &limit, &used) != 4 || value[used] != '\0' ||
		(mode != 'r' && mode != 'w') || timeout_ms <= 0 || limit < -1)
		return false;
	rc->read_only = mode == 'r';
	rc->deadline = (TimestampTz) deadline;
	rc->timeout_ms = timeout_ms;
	rc->write_limit = limit;
	return true;
}

/* may the setting change now? */
static bool
change_allowed(void)
{
	if (coordinator_setting || from_coordinator)
		return true;
	/* a value put back at a savepoint's rollback or the transaction's end */
	if (!IsTransactionState())
		return true;
	/* on the coordinator, during a call; here, during the coordinator's */
	return !nat_guard_active();
}

static void
refuse(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("parameter \"%s\" cannot be changed during a tool call", CITUS_CALL_SETTING),
			 errdetail("It carries a tool call's rules from the Citus coordinator to the workers.")));
}

static bool
check_citus_call(char **newval, void **extra, GucSource source)
{
	RemoteCall	rc;

	if (!change_allowed())
	{
		GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
		GUC_check_errmsg("parameter \"%s\" cannot be changed during a tool call",
						 CITUS_CALL_SETTING);
		GUC_check_errdetail("It carries a tool call's rules from the Citus coordinator to the workers.");
		return false;
	}
	if (**newval == '\0' || parse_remote_call(*newval, &rc))
		return true;
	GUC_check_errdetail("Only neon_ai_tools sets it, on a Citus coordinator.");
	return false;
}

/* the deadline passed: cancel what runs, as statement_timeout does */
static void
remote_timeout_handler(void)
{
	QueryCancelPending = true;
	InterruptPending = true;
	SetLatch(MyLatch);
}

static void
end_remote(void)
{
	if (remote_timeout_id != MAX_TIMEOUTS)
		disable_timeout(remote_timeout_id, false);
	if (!nat_guard_remote())
		return;
	nat_writes_end();
	nat_guard_end();
	active_value = NULL;
	if (remote_cxt != NULL)
		MemoryContextReset(remote_cxt);
}

static void
begin_remote(const RemoteCall *rc)
{
	TimestampTz deadline;

	if (remote_cxt == NULL)
		remote_cxt = AllocSetContextCreate(TopMemoryContext,
										   "neon_ai_tools Citus call",
										   ALLOCSET_SMALL_SIZES);
	/* a deadline no later than the call's time limit from now (clock skew) */
	deadline = Min(rc->deadline,
				   TimestampTzPlusMilliseconds(GetCurrentTimestamp(), rc->timeout_ms));
	nat_guard_begin_remote(rc->read_only, deadline, remote_cxt);
	remote_nest_level = GetCurrentTransactionNestLevel();
	active_value = MemoryContextStrdup(remote_cxt, citus_call_pending);
	if (!rc->read_only)
	{
		nat_writes_begin(remote_cxt);
		nat_writes_set_limit(rc->write_limit);
	}
	if (remote_timeout_id == MAX_TIMEOUTS)
		remote_timeout_id = RegisterTimeout(USER_TIMEOUT, remote_timeout_handler);
	enable_timeout_at(remote_timeout_id, deadline);
}

static void
assign_citus_call(const char *newval, void *extra)
{
	RemoteCall	rc;

	if (!change_allowed())
		refuse();				/* a reset, which the check hook did not see */
	/* on the coordinator the value is only carried to the workers */
	if (coordinator_setting || (nat_guard_active() && !nat_guard_remote()))
		return;
	/* a nested savepoint's end putting back the value the guard runs under */
	if (nat_guard_remote() && newval != NULL && active_value != NULL &&
		strcmp(newval, active_value) == 0)
		return;
	end_remote();
	if (newval != NULL && *newval != '\0' && parse_remote_call(newval, &rc) &&
		IsTransactionState())
	{
		citus_call_pending = newval;
		begin_remote(&rc);
	}
}

/*
 * Is this utility statement one the coordinator sent as a statement of its
 * own (a SET of the call's state, or, during a call, any)?  Then the call's
 * guard lets it run, and it may change the state until
 * nat_citus_worker_statement_done().
 */
bool
nat_citus_worker_from_coordinator(PlannedStmt *pstmt)
{
	Node	   *stmt = pstmt->utilityStmt;
	bool		sets_state;

	sets_state = IsA(stmt, VariableSetStmt) &&
		((VariableSetStmt *) stmt)->name != NULL &&
		pg_strcasecmp(((VariableSetStmt *) stmt)->name, CITUS_CALL_SETTING) == 0;

	/*
	 * While the guard runs, the coordinator's savepoints and SETs pass (its
	 * own SETs around the DDL it propagates, and SET LOCALs, which the
	 * coordinator's guard vetted and sent alone: citus_calls.c).  DDL goes
	 * through the guard; a transaction's end is refused (below).
	 */
	if (!sets_state && !nat_guard_remote())
		return false;
	if (IsA(stmt, TransactionStmt))
	{
		TransactionStmtKind kind = ((TransactionStmt *) stmt)->kind;

		if (kind != TRANS_STMT_SAVEPOINT && kind != TRANS_STMT_RELEASE &&
			kind != TRANS_STMT_ROLLBACK_TO)
			return false;
	}
	else if (!IsA(stmt, VariableSetStmt))
		return false;
	/* the portal's own statement: not one run by a function inside it */
	if (ActivePortal == NULL || !list_member_ptr(ActivePortal->stmts, pstmt))
		return false;
	from_coordinator = true;
	return true;
}

void
nat_citus_worker_statement_done(void)
{
	from_coordinator = false;
}

/* citus_calls.c sets the value in the coordinator's own backend */
void
nat_citus_worker_coordinator_setting(bool on)
{
	coordinator_setting = on;
}

bool
nat_citus_worker_coordinator_setting_now(void)
{
	return coordinator_setting;
}

/*
 * A utility statement in a worker's part of a call that is not one of the
 * coordinator's savepoints or SETs: a transaction's end or start would take
 * what follows out of the call (Citus ends the worker's transaction only
 * after the call's savepoint has ended, and the guard with it).
 */
void
nat_citus_worker_check_utility(Node *stmt)
{
	TransactionStmtKind kind;

	if (!IsA(stmt, TransactionStmt))
		return;
	kind = ((TransactionStmt *) stmt)->kind;
	if (kind == TRANS_STMT_SAVEPOINT || kind == TRANS_STMT_RELEASE ||
		kind == TRANS_STMT_ROLLBACK_TO)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("%s is not allowed in a tool call", GetCommandTagName(CreateCommandTag(stmt))),
			 errdetail("The statements after it would run outside the call on this Citus worker.")));
}

/* the savepoint in which the guard began ends: so does the guard */
static void
remote_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
						SubTransactionId parentSubid, void *arg)
{
	if ((event == SUBXACT_EVENT_COMMIT_SUB || event == SUBXACT_EVENT_ABORT_SUB) &&
		nat_guard_remote() && GetCurrentTransactionNestLevel() <= remote_nest_level)
		end_remote();
}

void
nat_citus_worker_install(void)
{
	RegisterSubXactCallback(remote_subxact_callback, NULL);
	DefineCustomStringVariable(CITUS_CALL_SETTING,
							   "State of a Citus coordinator's tool call, for its workers (internal).",
							   "Set only by neon_ai_tools on a Citus coordinator, with SET LOCAL, which Citus propagates.",
							   &citus_call_value,
							   "",
							   PGC_USERSET,
							   GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE |
							   GUC_NO_RESET_ALL,
							   check_citus_call, assign_citus_call, NULL);
}
