/*-------------------------------------------------------------------------
 *
 * pool.c
 *	  A small pool of database connections shared by concurrent requests.
 *
 * Each request takes a connection for the whole of its statement and gives
 * it back, so a call never waits behind another call's statement on one
 * connection: it waits only for a free connection, and at most wait_ms
 * (then it answers "busy", which the HTTP transport turns into 503).
 * Connections are opened lazily by db.c, on first use, so a pool of eight
 * that serves one client holds one connection.  stdio uses a pool of one.
 *
 * IDENTIFICATION
 *	  src/mcp/db/pool.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/conn.h"
#include "base/metrics.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t freed = PTHREAD_COND_INITIALIZER;
static McpConn *slots = NULL;
static int	nslots = 0;
static int	wait_limit_ms = 30000;
static int	waiting = 0;		/* requests waiting for a connection */

static McpConn *take(int wait_ms, double *waited_ms);

/*
 * Set the pool's size and how long a request waits for a connection.
 * Called once, before any request.
 */
void
mcp_pool_configure(int size, int wait_ms)
{
	nslots = size > 0 ? size : 1;
	slots = mcp_malloc(sizeof(McpConn) * nslots);
	memset(slots, 0, sizeof(McpConn) * nslots);
	wait_limit_ms = wait_ms;
}

/*
 * Take a connection: an idle one that is open if there is one, else any
 * idle one.  NULL if none became free within the wait limit.
 */
McpConn *
mcp_pool_acquire(void)
{
	double		waited_ms = 0;
	McpConn    *conn = take(wait_limit_ms, &waited_ms);

	mcp_metrics_pool_wait(waited_ms, conn == NULL);
	return conn;
}

/*
 * The same, waiting at most wait_ms, and not counted in the metrics
 * (/ready's check).
 */
McpConn *
mcp_pool_acquire_within(int wait_ms)
{
	double		waited_ms = 0;

	return take(wait_ms, &waited_ms);
}

static McpConn *
take(int wait_ms, double *waited_ms)
{
	struct timespec deadline;
	McpConn    *found = NULL;
	double		start = 0;
	bool		waited = false;

	if (slots == NULL)
		mcp_pool_configure(1, wait_limit_ms);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += wait_ms / 1000;
	deadline.tv_nsec += (long) (wait_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L)
	{
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}

	pthread_mutex_lock(&lock);
	for (;;)
	{
		int			i;

		for (i = 0; i < nslots; i++)
			if (!slots[i].busy &&
				(found == NULL || (found->pg == NULL && slots[i].pg != NULL)))
				found = &slots[i];
		if (found != NULL)
			break;
		if (!waited)
		{
			waiting++;
			waited = true;
			start = mcp_now_ms();
		}
		if (pthread_cond_timedwait(&freed, &lock, &deadline) == ETIMEDOUT)
			break;
	}
	if (waited)
		waiting--;
	if (found != NULL)
		found->busy = true;
	pthread_mutex_unlock(&lock);
	if (waited)
		*waited_ms = mcp_now_ms() - start;
	return found;
}

/*
 * The metrics' gauges (base/metrics.c; transport/http.c hands this
 * function over): the pool's size, its open connections in use and idle,
 * and the requests waiting for one.
 */
void
mcp_pool_stats(int *size, int *in_use, int *idle, int *waiters)
{
	pthread_mutex_lock(&lock);
	*size = nslots;
	*in_use = *idle = 0;
	for (int i = 0; i < nslots; i++)
	{
		if (slots[i].busy)
			(*in_use)++;
		else if (slots[i].pg != NULL)
			(*idle)++;
	}
	*waiters = waiting;
	pthread_mutex_unlock(&lock);
}

/*
 * Give a connection back.
 */
void
mcp_pool_release(McpConn *conn)
{
	pthread_mutex_lock(&lock);
	conn->busy = false;
	pthread_cond_signal(&freed);
	pthread_mutex_unlock(&lock);
}

/*
 * Close every connection (at exit, when no request runs any more).
 */
void
mcp_pool_close(void)
{
	int			i;

	for (i = 0; i < nslots; i++)
		mcp_conn_close(&slots[i]);
	free(slots);
	slots = NULL;
	nslots = 0;
}
