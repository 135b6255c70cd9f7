/*-------------------------------------------------------------------------
 *
 * ready.c
 *	  GET /ready's question: can a connection of the pool run SELECT 1
 *	  within a short time?
 *
 * The check takes a connection from the pool like a request (waiting at
 * most the timeout: a pool that stays full that long is not ready either),
 * runs SELECT 1 on it, and on any failure closes it and tries once more on
 * a new connection, so a database that restarted is ready again as soon as
 * it accepts connections.  Opening the connection is bounded by the same
 * deadline (libpq's non-blocking connect), not by connect_timeout.  A
 * connection that failed is closed, never given back half-used.
 *
 * Probes may come often and from several places (the orchestrator, a load
 * balancer): one check runs at a time, and a probe that arrived while one
 * ran takes its answer, so probes can never hold more than one connection.
 * /ready needs no token, so a probe within REUSE_MS of the last check's
 * end takes its answer too: a client looping on /ready cannot turn each
 * of its requests into a statement of the database, nor keep a connection
 * of the pool busy (a few checks a second at most; orchestrators probe
 * every few seconds, and the answer is at most REUSE_MS old).
 *
 * IDENTIFICATION
 *	  src/mcp/db/ready.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>

#include "db/conn.h"

/* how long a check's answer is reused */
#define REUSE_MS 250

static bool check(int timeout_ms);
static bool run_select(McpConn *conn, double deadline);
static bool connect_within(McpConn *conn, double deadline);
static bool wait_socket(PGconn *pg, bool write, double deadline);

/*
 * Is the database usable?  Answers within about timeout_ms.
 */
bool
mcp_db_ready(int timeout_ms)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static double finished = -1;
	static bool last = false;
	double		arrived = mcp_now_ms();
	bool		ready;

	pthread_mutex_lock(&lock);
	if (finished >= 0 && finished + REUSE_MS >= arrived)
		ready = last;
	else
	{
		ready = last = check(timeout_ms);
		finished = mcp_now_ms();
	}
	pthread_mutex_unlock(&lock);
	return ready;
}

static bool
check(int timeout_ms)
{
	double		deadline = mcp_now_ms() + timeout_ms;
	McpConn    *conn = mcp_pool_acquire_within(timeout_ms);
	bool		ok = false;

	if (conn == NULL)
		return false;
	if (conn->pg != NULL)
	{
		ok = run_select(conn, deadline);
		if (!ok)
			mcp_conn_close(conn);
	}
	if (!ok && connect_within(conn, deadline))
	{
		ok = run_select(conn, deadline);
		if (!ok)
			mcp_conn_close(conn);
	}
	mcp_pool_release(conn);
	return ok;
}

static bool
run_select(McpConn *conn, double deadline)
{
	PGconn	   *pg = conn->pg;
	PGresult   *res;
	bool		ok = false;

	if (conn->server_closing || PQstatus(pg) != CONNECTION_OK ||
		!PQsendQuery(pg, "SELECT 1"))
		return false;
	while (PQisBusy(pg))
	{
		if (!wait_socket(pg, false, deadline) || !PQconsumeInput(pg))
			return false;
	}
	while ((res = PQgetResult(pg)) != NULL)
	{
		ok = PQresultStatus(res) == PGRES_TUPLES_OK;
		PQclear(res);
	}
	return ok && PQstatus(pg) == CONNECTION_OK;
}

static bool
connect_within(McpConn *conn, double deadline)
{
	const char *const *keywords;
	const char *const *values;
	PGconn	   *pg;
	PostgresPollingStatusType status = PGRES_POLLING_WRITING;

	mcp_conninfo_params(&keywords, &values);
	pg = PQconnectStartParams(keywords, values, 1);
	if (pg == NULL)
		return false;
	while (PQstatus(pg) != CONNECTION_BAD && status != PGRES_POLLING_OK &&
		   status != PGRES_POLLING_FAILED)
	{
		if (!wait_socket(pg, status == PGRES_POLLING_WRITING, deadline))
			break;
		status = PQconnectPoll(pg);
	}
	if (status != PGRES_POLLING_OK || PQstatus(pg) != CONNECTION_OK)
	{
		PQfinish(pg);
		return false;
	}
	mcp_conn_adopt(conn, pg);
	return true;
}

/* wait until pg's socket is readable (or writable); false at the deadline */
static bool
wait_socket(PGconn *pg, bool write, double deadline)
{
	for (;;)
	{
		struct pollfd pfd;
		double		left = deadline - mcp_now_ms();
		int			rc;

		if (left <= 0 || PQsocket(pg) < 0)
			return false;
		pfd.fd = PQsocket(pg);
		pfd.events = write ? POLLOUT : POLLIN;
		pfd.revents = 0;
		rc = poll(&pfd, 1, (int) left + 1);
		if (rc > 0)
			return true;
		if (rc < 0 && errno != EINTR)
			return false;
	}
}
