/*-------------------------------------------------------------------------
 *
 * conn.h
 *	  One database connection of the pool (pool.c hands them out, db.c
 *	  runs statements on them).
 *
 * IDENTIFICATION
 *	  src/mcp/db/conn.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_CONN_H
#define MCP_CONN_H

#include "libpq-fe.h"
#include "db/db.h"

/* statements this program prepares: tools/list (two forms) and tools/call */
#define MCP_CONN_MAX_PREPARED 8

struct McpConn
{
	PGconn	   *pg;				/* NULL until first used, or after a failure */
	PGcancel   *cancel;			/* for pg, made when it connected */
	const char *prepared_sql[MCP_CONN_MAX_PREPARED];	/* known prepared here */
	int			prepared_count;
	bool		server_closing; /* the server sent a FATAL notice while idle */
	bool		busy;			/* handed out by the pool */
};

/* in conn.c: close a connection (db.c, ready.c, the pool's shutdown) */
extern void mcp_conn_close(McpConn *conn);

/* in conn.c: take over a new connection (notices, cancel): db.c, ready.c */
extern void mcp_conn_adopt(McpConn *conn, PGconn *pg);

#endif							/* MCP_CONN_H */
