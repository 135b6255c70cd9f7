/*-------------------------------------------------------------------------
 *
 * db.h
 *	  The database layer of neon-ai-tools-mcp.
 *
 * The database layer: the connection string, the pool, running one
 * statement with cancel and progress, and failures categorized as the
 * extension's envelope does.  Uses only base/.
 *
 * IDENTIFICATION
 *	  src/mcp/db/db.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_DB_H
#define MCP_DB_H

#include "base/base.h"

/* in conninfo.c */
extern bool mcp_conninfo_configure(const char *conninfo, char **errmsg);
extern void mcp_conninfo_params(const char *const **keywords,
								const char *const **values);
extern void mcp_conninfo_show(FILE *out);
extern void mcp_conninfo_forget(void);
extern bool mcp_conninfo_has_password(const char *conninfo);

/* in calls.c */
extern McpInflight *mcp_inflight_begin(const char *scope, const char *id_text);
extern void mcp_inflight_end(McpInflight *inflight);
extern bool mcp_inflight_cancel(const char *scope, const char *id_text,
								bool remember);
extern void mcp_inflight_cancel_all(void);
extern void mcp_inflight_forget(void);
extern int	mcp_inflight_count(void);

/* in db.c */
#define MCP_DB_MAX_COLUMNS 2

typedef enum McpDbStatus
{
	MCP_DB_OK,					/* the statement ran; values hold its row */
	MCP_DB_CONNECTION_ERROR,	/* could not connect, or lost the connection */
	MCP_DB_AUTHENTICATION_ERROR,	/* the server refused the credentials */
	MCP_DB_SQL_ERROR,			/* the statement failed with an SQLSTATE */
	MCP_DB_CANCELLED,			/* the client cancelled the request */
	MCP_DB_ROLE_REFUSED,		/* the server refused to switch to the role */
	MCP_DB_BUSY					/* no connection became free in time */
} McpDbStatus;

typedef struct McpDbResult
{
	McpDbStatus status;
	char	   *values[MCP_DB_MAX_COLUMNS]; /* MCP_DB_OK: the row, as text */
	char	   *message;		/* errors: masked primary message */
	char	   *detail;			/* errors: masked detail, or NULL */
	char	   *hint;			/* errors: masked hint, or NULL */
	char		sqlstate[6];	/* errors: SQLSTATE, or "" */
	const char *error_type;		/* errors: errorType (fine category) */
	const char *portable_type;	/* errors: error_type (portable category) */
	bool		retryable;		/* errors: worth retrying as it is */
	const char *suggestion;		/* errors: one sentence of advice */
} McpDbResult;

extern void mcp_db_query(McpContext *ctx, const char *sql, int nparams,
						 const char *const *values, McpDbResult *result);
extern void mcp_db_result_free(McpDbResult *result);

/* in ready.c: can a pooled connection run SELECT 1 within timeout_ms? */
extern bool mcp_db_ready(int timeout_ms);

/* in pool.c */
typedef struct McpConn McpConn;
extern void mcp_pool_configure(int size, int wait_ms);
extern McpConn *mcp_pool_acquire(void);
extern McpConn *mcp_pool_acquire_within(int wait_ms);
extern void mcp_pool_release(McpConn *conn);
extern void mcp_pool_close(void);
extern void mcp_pool_stats(int *size, int *in_use, int *idle, int *waiting);

/*
 * The error categories: the extension's own table (src/base/error_kinds.h,
 * found through this program's -I of that folder), so that a failure the
 * program names itself is categorized as the extension would.
 */
typedef enum McpErrorKind
{
#define NAT_ERROR_KIND(id, type, portable, retryable) id,
#include "error_kinds.h"
#undef NAT_ERROR_KIND
} McpErrorKind;

/* in db_errors.c: failures categorized as the extension's envelope does */
extern void mcp_db_set_error_kind(McpDbResult *result, McpErrorKind kind);
extern char *mcp_db_clean_message(const char *message);
extern void mcp_db_set_connection_failure(McpDbResult *result,
										  const char *message);
extern void mcp_db_set_protocol_failure(McpDbResult *result,
										const char *message);
extern void mcp_db_set_sql_failure(McpDbResult *result, const void *pgresult);


#endif							/* MCP_DB_H */
