/*-------------------------------------------------------------------------
 *
 * http.h
 *	  The Streamable HTTP transport (http.c, http_session.c).
 *
 * IDENTIFICATION
 *	  src/mcp/http.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_HTTP_H
#define MCP_HTTP_H

#include "neon_ai_tools_mcp.h"

/* what --http and its companion options set */
typedef struct McpHttpSettings
{
	const char *address;		/* numeric address to bind; default 127.0.0.1 */
	int			port;
	const char *tls_cert_file;	/* PEM; both or neither */
	const char *tls_key_file;
	const char **allowed_origins;	/* beside the loopback ones; may hold "*" */
	int			n_allowed_origins;
	bool		allow_insecure; /* a non-loopback address without TLS */
	int			max_connections;
	int			max_requests;	/* in progress at once; more get 503 */
	size_t		max_body_bytes;
	int			shutdown_grace_ms;	/* SIGTERM: calls may finish this long */
} McpHttpSettings;

extern int	mcp_serve_http(const McpHttpSettings *settings);

/* in http_session.c */
extern McpSession *http_session_new(const char *owner);
extern void http_session_publish(McpSession *session, bool ok);
extern bool http_session_find(const char *id, const char *owner,
							  McpSession *copy);
extern bool http_session_end(const char *id, const char *owner);
extern void http_session_forget_all(void);

#endif							/* MCP_HTTP_H */
