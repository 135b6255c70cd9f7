/*-------------------------------------------------------------------------
 *
 * call_timer.c
 *		  The private per-call timeout.
 *
 * SET statement_timeout inside a running statement does nothing: core arms
 * that timer only when a client command starts.  So each tool call arms a
 * timer of its own, registered once per backend as a USER_TIMEOUT.  Its
 * handler does what core's statement-timeout handler does (request a query
 * cancel and wake the latch) and records that it fired, so that the
 * resulting "canceling statement" ERROR can be told apart from a cancel by
 * the client or by the outer statement_timeout, which must propagate.
 *
 * Agent code can catch a cancel (PL/pgSQL's EXCEPTION WHEN query_canceled)
 * and go on, so the deadline is enforced in three steps:
 *   1. at the deadline, and every 100 ms after it, a query cancel;
 *   2. from the deadline on, every statement, plan and function the call
 *      starts is refused with the same cancel (nat_deadline_check(), called
 *      by call_guard.c's hooks), so caught code cannot do more work;
 *   3. NAT_DEADLINE_GRACE_MS after the deadline, code that still has not
 *      unwound ends the backend: a FATAL with our message at the next
 *      hook, or, for code that reaches no hook (a loop of PL/pgSQL
 *      assignments), the timer itself requests a backend termination as
 *      pg_terminate_backend() would, and the error context says why.
 * The session is lost in step 3 only, as with transaction_timeout.
 *
 * One step of a call may get a shorter limit of its own (nat_timer_step_
 * arm(): the bounded query of an empty read's hints, empty_hints.c), a
 * second timer whose cancel the step catches and takes as "no answer in
 * time", never as the call's timeout.
 *
 * A parallel worker running part of a call has no timer of its own: the
 * leader's timer cancels the leader, whose abort ends the workers.  The
 * worker adopts the leader's deadline (nat_timer_adopt(), from the state
 * call_guard.c passes to workers) and its hooks compare the clock with it,
 * so step 2 holds in the worker too.
 *
 * IDENTIFICATION
 *		  src/core/call_timer.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "base/base.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"

/* how long code may go on after the deadline before the backend ends */
#define NAT_DEADLINE_GRACE_MS	500
/* ... and, for code that reaches no hook, when the timer ends it */
#define NAT_DEADLINE_KILL_MS	800

static TimeoutId call_timeout_id = MAX_TIMEOUTS;	/* not registered yet */
static TimeoutId step_timeout_id = MAX_TIMEOUTS;
static volatile sig_atomic_t call_timeout_fired = false;
static volatile sig_atomic_t call_timeout_killed = false;

/* a cancel of ours was taken (ProcessInterrupts() cleared it) and the call went on */
static volatile sig_atomic_t call_cancel_taken = false;
static TimestampTz call_deadline = 0;
static int	call_timeout_ms = 0;

/* in a parallel worker: no timer here, the deadline is read off the clock */
static bool deadline_by_clock = false;
static ErrorContextCallback deadline_context;

/*
 * Runs in the SIGALRM handler: keep it minimal.
 */
static void
call_timeout_handler(void)
{
	/*
	 * Fired before and no cancel pending: the last one was taken, and the
	 * code went on.  One still pending was not taken: the code has not
	 * reached a CHECK_FOR_INTERRUPTS() since (a long step that checks for
	 * none, or a backend the machine had no time to run), and the cancel will
	 * stop it there; that is not code that caught it.
	 */
	if (call_timeout_fired && !QueryCancelPending)
		call_cancel_taken = true;
	call_timeout_fired = true;
	if (!proc_exit_inprogress)
	{
		InterruptPending = true;
		QueryCancelPending = true;
		if (call_cancel_taken &&
			GetCurrentTimestamp() >=
			TimestampTzPlusMilliseconds(call_deadline, NAT_DEADLINE_KILL_MS))
		{
			call_timeout_killed = true;
			ProcDiePending = true;
		}
	}
	SetLatch(MyLatch);
}

/*
 * The step's timer: a query cancel, as the call's timer's first step.
 */
static void
step_timeout_handler(void)
{
	if (!proc_exit_inprogress)
	{
		InterruptPending = true;
		QueryCancelPending = true;
	}
	SetLatch(MyLatch);
}

/* names the cause when the timer had to end the backend */
static void
deadline_error_context(void *arg)
{
	if (call_timeout_killed)
		errcontext("a tool call ran past its time limit of %d ms and did not stop when cancelled",
				   call_timeout_ms);
}

/*
 * Called by the guard's hooks whenever the call starts a statement, a plan
 * or a function: past the deadline nothing more may run.
 */
void
nat_deadline_check(void)
{
	if (!call_timeout_fired &&
		!(deadline_by_clock && GetCurrentTimestamp() >= call_deadline))
		return;
	/* past the grace, code that took the cancel and went on ends the backend */
	if ((call_cancel_taken || deadline_by_clock) &&
		GetCurrentTimestamp() >=
		TimestampTzPlusMilliseconds(call_deadline, NAT_DEADLINE_GRACE_MS))
		ereport(FATAL,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("terminating connection because a tool call ran past its time limit of %d ms",
						call_timeout_ms),
				 errdetail("The call's code caught the cancel at its time limit and went on.")));

	/*
	 * This error is the cancel, delivered here: code that catches it (a
	 * PL/Perl eval, which checks for no interrupt) has taken it.
	 */
	call_cancel_taken = true;
	ereport(ERROR,
			(errcode(ERRCODE_QUERY_CANCELED),
			 errmsg("canceling statement: the tool call ran past its time limit of %d ms",
					call_timeout_ms)));
}

/*
 * Arm the timer for a call that may run timeout_ms milliseconds.
 */
void
nat_timer_arm(int timeout_ms)
{
	TimestampTz fin;

	if (call_timeout_id == MAX_TIMEOUTS)
		call_timeout_id = RegisterTimeout(USER_TIMEOUT, call_timeout_handler);

	call_timeout_fired = false;
	call_timeout_killed = false;
	call_cancel_taken = false;
	call_timeout_ms = timeout_ms;
	fin = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_ms);
	call_deadline = fin;
	deadline_context.callback = deadline_error_context;
	deadline_context.arg = NULL;
	deadline_context.previous = error_context_stack;
	error_context_stack = &deadline_context;
	nat_enable_timeout(call_timeout_id, fin);
}

/*
 * The deadline of the call whose timer is armed, and its time limit.
 */
TimestampTz
nat_timer_deadline(int *timeout_ms)
{
	*timeout_ms = call_timeout_ms;
	return call_deadline;
}

/*
 * In a parallel worker: take the leader's deadline, checked against the
 * clock by nat_deadline_check().
 */
void
nat_timer_adopt(TimestampTz deadline, int timeout_ms)
{
	call_deadline = deadline;
	call_timeout_ms = timeout_ms;
	deadline_by_clock = true;
}

/*
 * Disarm the timer.  Must be the first thing done on every exit path.
 */
void
nat_timer_disarm(void)
{
	if (call_timeout_id != MAX_TIMEOUTS)
		disable_timeout(call_timeout_id, false);
	if (error_context_stack == &deadline_context)
		error_context_stack = deadline_context.previous;
}

/*
 * Did our timer fire during this call?  False if the outer
 * statement_timeout fired too: that one is the client's and must win.
 */
bool
nat_timer_fired(void)
{
	if (!call_timeout_fired)
		return false;
	if (get_timeout_indicator(STATEMENT_TIMEOUT, false))
		return false;
	return true;
}

/*
 * Give one step of the call at most ms milliseconds (the caller keeps it
 * before the call's deadline).  The cancel it requests is an ordinary
 * query_canceled ERROR, which the step catches; nat_timer_step_end() says
 * whether the step's timer was the cause.
 */
void
nat_timer_step_arm(int ms)
{
	if (step_timeout_id == MAX_TIMEOUTS)
		step_timeout_id = RegisterTimeout(USER_TIMEOUT, step_timeout_handler);
	(void) get_timeout_indicator(step_timeout_id, true);
	enable_timeout_after(step_timeout_id, ms);
}

/*
 * End the step's limit, on every way out of the step; true if it fired.
 * A cancel it requested that nothing took yet (the step ended as it fired)
 * is withdrawn, unless the call's own timer or the statement_timeout fired
 * too: the call must not be cancelled for its step.  (A client's cancel
 * arriving in that same instant is withdrawn with it.)
 */
bool
nat_timer_step_end(void)
{
	bool		fired;

	if (step_timeout_id == MAX_TIMEOUTS)
		return false;
	disable_timeout(step_timeout_id, true);
	fired = get_timeout_indicator(step_timeout_id, true);
	if (fired && !call_timeout_fired &&
		!get_timeout_indicator(STATEMENT_TIMEOUT, false))
		QueryCancelPending = false;
	return fired;
}
