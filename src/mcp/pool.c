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
 *	  src/mcp/pool.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conn.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t freed = PTHREAD_COND_INITIALIZER;
static McpConn *slots = NULL;
static int	nslots = 0;
static int	wait_limit_ms = 30000;

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
	struct timespec deadline;
	McpConn    *found = NULL;

	if (slots == NULL)
		mcp_pool_configure(1, wait_limit_ms);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += wait_limit_ms / 1000;
	deadline.tv_nsec += (long) (wait_limit_ms % 1000) * 1000000L;
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
		if (pthread_cond_timedwait(&freed, &lock, &deadline) == ETIMEDOUT)
			break;
	}
	if (found != NULL)
		found->busy = true;
	pthread_mutex_unlock(&lock);
	return found;
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
