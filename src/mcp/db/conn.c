/*-------------------------------------------------------------------------
 *
 * conn.c
 *	  One pooled connection of neon-ai-tools-mcp: taking over a new one
 *	  (its notices, its cancel object) and closing it.
 *
 * The lowest file of the database layer: pool.c closes its connections at
 * shutdown, db.c and ready.c open and close them, and neither is called
 * back from here.
 *
 * IDENTIFICATION
 *	  src/mcp/db/conn.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "db/conn.h"

static void log_connected(PGconn *pg);
static void notice_receiver(void *arg, const PGresult *res);

/*
 * Close a connection of the pool.
 */
void
mcp_conn_close(McpConn *conn)
{
	if (conn->cancel != NULL)
		PQfreeCancel(conn->cancel);
	if (conn->pg != NULL)
		PQfinish(conn->pg);
	conn->cancel = NULL;
	conn->pg = NULL;
	conn->prepared_count = 0;
}

/*
 * conn's connection is now pg, open: watch its notices, keep its cancel.
 */
void
mcp_conn_adopt(McpConn *conn, PGconn *pg)
{
	conn->pg = pg;
	conn->prepared_count = 0;
	conn->server_closing = false;
	PQsetNoticeReceiver(pg, notice_receiver, conn);
	conn->cancel = PQgetCancel(pg);
	log_connected(pg);
}

/*
 * Log where we are connected (no password, no full connection string).
 */
static void
log_connected(PGconn *pg)
{
	const char *host = PQhost(pg);

	mcp_log(MCP_LOG_INFO,
			"connected to database \"%s\" as user \"%s\" on %s, port %s%s",
			PQdb(pg), PQuser(pg),
			(host != NULL && host[0] == '/') ? "a Unix socket" : host,
			PQport(pg), PQsslInUse(pg) ? ", SSL" : "");
}

/*
 * Server notices go to our log; a FATAL one (the server is closing this
 * connection: idle timeout, administrator's terminate) marks it closing.
 */
static void
notice_receiver(void *arg, const PGresult *res)
{
	McpConn    *conn = arg;
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);

	if (severity != NULL &&
		(strcmp(severity, "FATAL") == 0 || strcmp(severity, "PANIC") == 0))
		conn->server_closing = true;
	mcp_log(MCP_LOG_INFO, "server: %s", PQresultErrorMessage(res));
}
