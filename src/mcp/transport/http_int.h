/*-------------------------------------------------------------------------
 *
 * http_int.h
 *	  What http.c and http_sse.c share.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/http_int.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_HTTP_INT_H
#define MCP_HTTP_INT_H

#include <sys/socket.h>

#include <microhttpd.h>

#include "auth/auth.h"
#include "protocol/protocol.h"
#include "transport/http.h"
#include "transport/transport.h"

/* one request's state, from its first header to its answer */
typedef struct HttpRequest
{
	char	   *body;
	size_t		len;
	size_t		cap;
	bool		too_big;		/* more than max_body_bytes came */
	bool		answered;		/* a response was queued already */
	char	   *role;			/* the token's role, or NULL */
	char		identity[MCP_IDENTITY_LEN + 1]; /* the token's, or "" */
	size_t		answer_bytes;	/* the answer's size, once known */
	bool		entered;		/* holds a request slot (http_limits.c) */
	int			refused;		/* no slot: 503 or 429 to answer */
	double		start;
	char		scope[32];		/* a stateless request's own cancel scope */
} HttpRequest;

/* in http_respond.c */
extern enum MHD_Result http_respond(struct MHD_Connection *connection,
									int status, const char *content_type,
									char *txt, const char *header,
									const char *value);
extern enum MHD_Result http_respond_error(struct MHD_Connection *connection,
										  int status, int code,
										  const char *message);
extern void http_log_request(const char *method, const McpContext *ctx,
							 const char *role, int status, double start);
extern bool http_accepts(const char *accept, const char *type);

/* in http.c */
extern void http_leave_request(const char *identity);

/* in http_health.c */
extern bool http_health_request(struct MHD_Connection *connection,
								const char *url, const char *method,
								bool main_listener, enum MHD_Result *result);
extern struct MHD_Daemon *http_admin_start(const char *address, int port);
extern void http_health_draining(void);

/* in http_batch.c */
extern enum MHD_Result http_answer_batch(struct MHD_Connection *connection,
										 HttpRequest *req, McpContext *ctx,
										 McpSession *session);

/* in http_checks.c */
extern void http_checks_configure(const McpHttpSettings *s, bool loopback);
extern bool http_origins_allowed(struct MHD_Connection *connection);
extern bool http_host_allowed(struct MHD_Connection *connection);
extern bool http_is_loopback_host(const char *host, size_t len);
extern bool http_bind_address(const char *address, int port,
							  struct sockaddr_storage *addr, bool *loopback);

/* in http_limits.c */
extern void http_limits_configure(int request_secs, int idle_secs,
								  int requests, int requests_per_identity);
extern void http_limits_notify(void *cls, struct MHD_Connection *connection,
							   void **socket_context,
							   enum MHD_ConnectionNotificationCode toe);
extern void *http_limits_request_line(void *cls, const char *uri,
									  struct MHD_Connection *connection);
extern void http_limits_request_read(struct MHD_Connection *connection);
extern void http_limits_request_done(struct MHD_Connection *connection);
extern void http_limits_answer_queued(struct MHD_Connection *connection);
extern int	http_limits_sweep(void);
extern int	http_limits_enter(const char *identity);
extern void http_limits_leave(const char *identity);

/* in http_sse.c */
extern bool http_wants_stream(struct MHD_Connection *connection,
							  json_object *message);
extern enum MHD_Result http_start_sse(struct MHD_Connection *connection,
									  HttpRequest *req, McpContext *ctx,
									  McpSession *session,
									  json_object *message);

#endif							/* MCP_HTTP_INT_H */
