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
 * IDENTIFICATION
 *		  src/call_timer.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "neon_ai_tools.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"

static TimeoutId call_timeout_id = MAX_TIMEOUTS;	/* not registered yet */
static volatile sig_atomic_t call_timeout_fired = false;

/*
 * Runs in the SIGALRM handler: keep it minimal.
 */
static void
call_timeout_handler(void)
{
	call_timeout_fired = true;
	if (!proc_exit_inprogress)
	{
		InterruptPending = true;
		QueryCancelPending = true;
	}
	SetLatch(MyLatch);
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
	fin = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_ms);
	nat_enable_timeout(call_timeout_id, fin);
}

/*
 * Disarm the timer.  Must be the first thing done on every exit path.
 */
void
nat_timer_disarm(void)
{
	if (call_timeout_id != MAX_TIMEOUTS)
		disable_timeout(call_timeout_id, false);
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
