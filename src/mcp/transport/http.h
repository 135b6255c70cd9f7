/*-------------------------------------------------------------------------
 *
 * http.h
 *	  The Streamable HTTP transport (http.c, http_session.c).
 *
 * IDENTIFICATION
 *	  src/mcp/transport/http.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_HTTP_H
#define MCP_HTTP_H

#include "base/base.h"

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
	int			max_connections_per_address;
	int			request_timeout_secs;	/* to receive a request in full */
	int			idle_timeout_secs;	/* a kept-alive connection between
									 * requests */
	int			max_requests_per_token;
	int			max_sessions_per_token;
	const char **allowed_hosts; /* Host values besides the loopback ones */
	int			n_allowed_hosts;
	const char *resource_url;	/* --resource-url: its host is allowed too */
	const void *auth_settings;	/* McpAuthSettings, for reloads */
	const char *admin_address;	/* --admin-listen: /live, /ready, /metrics */
	int			admin_port;		/* 0: no admin listener */
} McpHttpSettings;

extern int	mcp_serve_http(const McpHttpSettings *settings);
extern bool mcp_http_check_settings(const McpHttpSettings *settings);
extern const char *http_parse_admin_listen(const char *arg, McpHttpSettings *http);

/* in http_session.c */
extern void http_session_configure(int per_owner);
extern McpSession *http_session_new(const char *owner);
extern int	http_session_end_stale(bool (*current) (const char *owner));
extern void http_session_publish(McpSession *session, bool ok);
extern bool http_session_find(const char *id, const char *owner,
							  McpSession *copy);
extern bool http_session_end(const char *id, const char *owner);
extern void http_session_forget_all(void);
extern int	http_session_open_count(void);

#endif							/* MCP_HTTP_H */
