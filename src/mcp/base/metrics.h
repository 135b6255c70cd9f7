/*-------------------------------------------------------------------------
 *
 * metrics.h
 *	  Counters for GET /metrics (metrics.c): what the HTTP server answered,
 *	  in the Prometheus text exposition format.
 *
 * Every function does nothing until mcp_metrics_enable() (--admin-listen):
 * nothing can read the counters otherwise.
 *
 * IDENTIFICATION
 *	  src/mcp/base/metrics.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_METRICS_H
#define MCP_METRICS_H

#include "base/base.h"

/* why a request or a batch member was refused */
typedef enum McpRefusal
{
	MCP_REFUSED_BUSY,			/* 503: every request slot taken */
	MCP_REFUSED_TOKEN_BUSY,		/* 429: the token has its share */
	MCP_REFUSED_BODY_SIZE,		/* 413: the body is over --max-body */
	MCP_REFUSED_BATCH_MEMBERS,	/* a member past --max-batch-members */
	MCP_REFUSED_BATCH_BYTES,	/* a member past --max-batch-bytes */
	MCP_REFUSED_POOL_BUSY,		/* no database connection became free */
	MCP_REFUSAL_COUNT
} McpRefusal;

/* why a request was refused its authentication */
typedef enum McpAuthFailure
{
	MCP_AUTHFAIL_MISSING,		/* no bearer token */
	MCP_AUTHFAIL_MALFORMED,		/* not "Bearer TOKEN", or two headers */
	MCP_AUTHFAIL_INVALID,		/* unknown token, bad signature or claims */
	MCP_AUTHFAIL_EXPIRED,		/* a JWT past its exp */
	MCP_AUTHFAIL_ROLE_FORBIDDEN,	/* 403: a role no token may name */
	MCP_AUTHFAIL_ROLE_REFUSED,	/* 401: the server refused the role */
	MCP_AUTHFAIL_COUNT
} McpAuthFailure;

/* how a statement in flight was cancelled */
typedef enum McpCancelVia
{
	MCP_CANCEL_NOTIFICATION,	/* notifications/cancelled */
	MCP_CANCEL_DISCONNECT,		/* the HTTP client closed its connection */
	MCP_CANCEL_COUNT
} McpCancelVia;

/* what happened to a session */
typedef enum McpSessionEvent
{
	MCP_SESSION_CREATED,
	MCP_SESSION_DELETED,		/* DELETE */
	MCP_SESSION_EVICTED,		/* --max-sessions-per-token or a full table */
	MCP_SESSION_EXPIRED,		/* idle past its limit, its slot reused */
	MCP_SESSION_REVOKED,		/* its token left the tokens file (SIGHUP) */
	MCP_SESSION_EVENT_COUNT
} McpSessionEvent;

extern void mcp_metrics_enable(void);
extern bool mcp_metrics_enabled(void);
extern void mcp_metrics_http_response(int status, size_t bytes);
extern void mcp_metrics_method(const char *method);
extern void mcp_metrics_tool_call(const char *tool, bool tool_exists,
								  const char *role, const char *outcome,
								  double ms, size_t answer_bytes);
extern void mcp_metrics_pool_wait(double ms, bool timed_out);
extern void mcp_metrics_session(McpSessionEvent event);
extern void mcp_metrics_auth_failure(McpAuthFailure reason);
extern void mcp_metrics_cancel(McpCancelVia via);
extern void mcp_metrics_refusal(McpRefusal reason);
extern char *mcp_metrics_render(void);

/*
 * Gauges read when rendering, from the layers above this one: they hand
 * their readers over at start (transport/http.c), so that this file calls
 * nothing above it.  Not handed over: zero.
 */
typedef void (*McpPoolStatsFn) (int *size, int *in_use, int *idle,
								int *waiting);
typedef int (*McpCountFn) (void);

extern void mcp_metrics_gauges(McpPoolStatsFn pool_stats,
							   McpCountFn sessions_open);

#endif							/* MCP_METRICS_H */
