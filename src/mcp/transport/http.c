/*-------------------------------------------------------------------------
 *
 * http.c
 *	  MCP over Streamable HTTP, on libmicrohttpd.
 *
 * One endpoint, /mcp, takes POSTed JSON-RPC messages; libmicrohttpd does
 * all of HTTP (parsing, keep-alive, chunked bodies, TLS through GnuTLS)
 * with a thread per connection, so a request's thread may block on its
 * statement.  What is checked, in order, and the status for each failure:
 *
 *	 Host (403: not a name of this server, the DNS-rebinding attack;
 *	 http_checks.c), path (404), method (405, with Allow), every Origin
 *	 (403: a browser page of a site that is not allowed), the bearer token
 *	 (401 with WWW-Authenticate; 400 when malformed), the token's role (403
 *	 for one no token may name, 503 when it cannot be checked;
 *	 role_check.c), Content-Type (415), Accept (406), the body's size
 *	 (413); a request slot when the body starts (503 when all are taken,
 *	 429 when the token has its share; http_limits.c); then the message
 *	 itself: not JSON or not JSON-RPC (400), the revision's rules (below).
 *
 * Revisions (revision.c): a request whose params._meta names 2026-07-28 is
 * stateless: its MCP-Protocol-Version, Mcp-Method and (tools/call)
 * Mcp-Name headers must match the body (400, -32020 HeaderMismatch), and
 * Mcp-Session-Id is ignored.  Otherwise the session-based revisions apply:
 * initialize makes a session (http_session.c) and every later request
 * must name it (400 without, 404 for an unknown one).
 *
 * Answers are JSON, or an SSE stream when the client accepts one and asked
 * for progress on a tools/call (params._meta.progressToken): progress
 * notifications about once a second, then the answer.  A client that
 * closes its connection while its call runs has the statement cancelled
 * (db.c watches the socket); a session's notifications/cancelled cancels
 * the request it names (calls.c).
 *
 * A batch is answered as its members run (http_batch.c).  Connections
 * have deadlines, swept once a second by the main thread, which also
 * reloads the tokens file and the JWT keys on SIGHUP (reload()).
 *
 * Each request is logged on one line: method, tool, role, status, outcome
 * and duration; never a token, a password or an argument.
 *
 * GET /live and /ready are answered before any of the checks above, and
 * --admin-listen adds a listener for them and /metrics (http_health.c).
 *
 * IDENTIFICATION
 *	  src/mcp/transport/http.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>
#include <openssl/evp.h>

#include "auth/auth.h"
#include "transport/http.h"
#include "transport/http_int.h"
#include "base/metrics.h"
#include "protocol/revision.h"

#define MCP_ENDPOINT "/mcp"

/* where older clients look for the protected-resource metadata */
#define METADATA_ROOT_PATH "/.well-known/oauth-protected-resource"

/* request headers, per connection (libmicrohttpd's own memory) */
#define CONNECTION_MEMORY_BYTES (32 * 1024)

/* each connection's thread: enough for libpq, TLS and json-c */
#define THREAD_STACK_BYTES (2 * 1024 * 1024)


static const McpHttpSettings *settings;
static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long requests_seen = 0;
static int	requests_open = 0;	/* begun, and not yet completed() */

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection,
							  const char *url, const char *method,
							  const char *version, const char *upload_data,
							  size_t *upload_data_size, void **state);
static enum MHD_Result check_request(struct MHD_Connection *connection,
									 const char *url, const char *method,
									 HttpRequest *req);

/* what the checks of one request (check_request) read and set */
typedef struct RequestChecked
{
	struct MHD_Connection *connection;
	const char *url;
	const char *method;
	HttpRequest *req;
	const char *reason;			/* why authentication failed, or NULL */
	int			status;			/* a check that answers itself sets it */
	enum MHD_Result result;		/* and this */
} RequestChecked;

/* one check: its test, and how a request that fails it is answered */
typedef struct RequestCheck
{
	bool		(*passes) (RequestChecked *rc);
	bool		post_only;		/* not for DELETE */
	int			status;			/* 0: the check answers itself */
	const char *message;		/* the JSON-RPC error's message */
} RequestCheck;

static bool host_ok(RequestChecked *rc);
static bool endpoint_ok(RequestChecked *rc);
static bool method_ok(RequestChecked *rc);
static bool origin_ok(RequestChecked *rc);
static bool one_authorization(RequestChecked *rc);
static bool authenticated(RequestChecked *rc);
static bool role_ok(RequestChecked *rc);
static bool json_body(RequestChecked *rc);
static bool accepts_json(RequestChecked *rc);
static bool body_fits(RequestChecked *rc);
static enum MHD_Result answer_message(struct MHD_Connection *connection,
									  HttpRequest *req);
static int	check_role(const char *role);
static enum MHD_Result respond_busy(struct MHD_Connection *connection,
									HttpRequest *req, int status);
static int	prepare_context(struct MHD_Connection *connection, HttpRequest *req,
							json_object *message, McpContext *ctx,
							McpSession *copy, json_object **error);
static int	check_stateless_headers(struct MHD_Connection *connection,
									json_object *message, json_object **error);
static enum MHD_Result end_session(struct MHD_Connection *connection,
								   HttpRequest *req);
static enum MHD_Result serve_metadata(struct MHD_Connection *connection);
static enum MHD_Result respond_unauthorized(struct MHD_Connection *connection,
											McpAuthStatus status,
											const char *reason);
static enum MHD_Result count_authorization(void *cls, enum MHD_ValueKind kind,
										   const char *key, const char *value);

static char *decode_header_value(const char *value);
static int	open_requests(void);
static void reload(const McpHttpSettings *s);
static void completed(void *cls, struct MHD_Connection *connection,
					  void **state, enum MHD_RequestTerminationCode toe);
static void log_mhd(void *cls, const char *fmt, va_list ap) MCP_PRINTF(2, 0);
static char *read_file(const char *path);
static bool check_settings(const McpHttpSettings *s,
						   struct sockaddr_storage *addr, bool *loopback);
static bool readable(const char *path);

/*
 * Can these settings be served (also --check-config)?  The address
 * resolves; one that is not loopback has tokens, and TLS or
 * --allow-insecure-http; the certificate and key go together.  Nothing is
 * bound; the reasons are logged.
 */
bool
mcp_http_check_settings(const McpHttpSettings *s)
{
	struct sockaddr_storage addr;
	bool		loopback;

	return check_settings(s, &addr, &loopback);
}

static bool
check_settings(const McpHttpSettings *s, struct sockaddr_storage *addr,
			   bool *loopback)
{
	struct sockaddr_storage admin_addr;
	bool		admin_loopback;

	if (!http_bind_address(s->address, s->port, addr, loopback))
		return false;
	if (s->admin_port > 0 &&
		!http_bind_address(s->admin_address, s->admin_port, &admin_addr, &admin_loopback))
		return false;
	if (!*loopback && !mcp_auth_enabled())
	{
		mcp_log(MCP_LOG_ERROR, "refusing to listen on %s without authentication "
				"(--auth-tokens, --jwt-secret-file or --jwt-public-key)", s->address);
		return false;
	}
	if (!*loopback && s->tls_cert_file == NULL && !s->allow_insecure)
	{
		mcp_log(MCP_LOG_ERROR, "refusing to listen on %s without TLS "
				"(--tls-cert and --tls-key, or --allow-insecure-http)", s->address);
		return false;
	}
	if ((s->tls_cert_file == NULL) != (s->tls_key_file == NULL))
	{
		mcp_log(MCP_LOG_ERROR, "--tls-cert and --tls-key go together");
		return false;
	}
	if (s->tls_cert_file != NULL &&
		(!readable(s->tls_cert_file) || !readable(s->tls_key_file)))
		return false;
	return true;
}

/* can path be opened for reading?  If not, say why */
static bool
readable(const char *path)
{
	FILE	   *f = fopen(path, "r");

	if (f == NULL)
	{
		mcp_log(MCP_LOG_ERROR, "could not open \"%s\": %s", path, strerror(errno));
		return false;
	}
	fclose(f);
	return true;
}

/*
 * Serve until SIGTERM or SIGINT.  Returns the exit code.
 */
int
mcp_serve_http(const McpHttpSettings *s)
{
	struct sockaddr_storage addr;
	struct MHD_Daemon *daemon;
	struct MHD_Daemon *admin = NULL;
	sigset_t	signals;
	bool		loopback;
	char	   *cert = NULL;
	char	   *key = NULL;
	unsigned int flags = MHD_USE_THREAD_PER_CONNECTION |
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
	int			sig;
	int			waited;

	settings = s;
	if (!check_settings(s, &addr, &loopback))
		return MCP_EXIT_USAGE;
	if (s->tls_cert_file != NULL)
	{
		cert = read_file(s->tls_cert_file);
		key = read_file(s->tls_key_file);
		if (cert == NULL || key == NULL)
		{
			free(cert);
			free(key);
			return MCP_EXIT_USAGE;
		}
		flags |= MHD_USE_TLS;
	}
	if (addr.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;

	/* the signals go to this thread only, through sigwait() */
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &signals, NULL);
	http_checks_configure(s, loopback);
	http_limits_configure(s->request_timeout_secs, s->idle_timeout_secs,
						  s->max_requests, s->max_requests_per_token);
	http_session_configure(s->max_sessions_per_token);
	if (mcp_auth_enabled())
		mcp_role_check_tokens();
	if (s->admin_port > 0)
	{
		/* counted only where they can be read */
		mcp_metrics_enable();
		mcp_metrics_gauges(mcp_pool_stats, http_session_open_count);
		if ((admin = http_admin_start(s->admin_address, s->admin_port)) == NULL)
		{
			free(cert);
			free(key);
			return MCP_EXIT_USAGE;
		}
	}

	/* the logger comes first, so that it also reports the other options */
	daemon = MHD_start_daemon(flags, (uint16_t) s->port, NULL, NULL, handle, NULL,
							  MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
							  MHD_OPTION_SOCK_ADDR, (struct sockaddr *) &addr,
							  MHD_OPTION_CONNECTION_LIMIT, (unsigned int) s->max_connections,
							  MHD_OPTION_PER_IP_CONNECTION_LIMIT,
							  (unsigned int) s->max_connections_per_address,
							  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) CONNECTION_MEMORY_BYTES,
							  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) s->idle_timeout_secs,
							  MHD_OPTION_THREAD_STACK_SIZE, (size_t) THREAD_STACK_BYTES,
							  MHD_OPTION_NOTIFY_CONNECTION, http_limits_notify, NULL,
							  MHD_OPTION_URI_LOG_CALLBACK, http_limits_request_line, NULL,
							  MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
							  cert != NULL ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, cert,
							  MHD_OPTION_HTTPS_MEM_KEY, key,
							  MHD_OPTION_END);
	if (daemon == NULL)
	{
		mcp_log(MCP_LOG_ERROR, "could not listen on %s port %d: %s",
				s->address, s->port, errno != 0 ? strerror(errno) : "unknown error");
		if (admin != NULL)
			MHD_stop_daemon(admin);
		free(cert);
		free(key);
		return MCP_EXIT_USAGE;
	}
	mcp_log(MCP_LOG_NOTICE, "listening on %s://%s%s%s:%d" MCP_ENDPOINT "%s",
			cert != NULL ? "https" : "http",
			addr.ss_family == AF_INET6 ? "[" : "", s->address,
			addr.ss_family == AF_INET6 ? "]" : "", s->port,
			mcp_auth_enabled() ? " (bearer tokens required)" : "");

	for (;;)
	{
		struct timespec second = {1, 0};

		sig = sigtimedwait(&signals, NULL, &second);
		if (sig == SIGHUP)
			reload(s);
		else if (sig == SIGTERM || sig == SIGINT)
			break;
		http_limits_sweep();
	}
	mcp_log(MCP_LOG_NOTICE, "%s received: no new connections; waiting up to %d ms for calls in progress",
			sig == SIGTERM ? "SIGTERM" : "SIGINT", s->shutdown_grace_ms);
	http_health_draining();
	MHD_quiesce_daemon(daemon);

	/*
	 * Wait for the requests to be answered, not only for their statements:
	 * MHD_stop_daemon() shuts every connection down, answer sent or not.
	 */
	for (waited = 0; open_requests() > 0 && waited < s->shutdown_grace_ms; waited += 50)
		usleep(50 * 1000);
	if (mcp_inflight_count() > 0)
	{
		mcp_log(MCP_LOG_NOTICE, "cancelling %d calls still in progress", mcp_inflight_count());
		mcp_inflight_cancel_all();
		/* their answers (cancelled) go out too, if quickly */
		for (waited = 0; open_requests() > 0 && waited < 1000; waited += 10)
			usleep(10 * 1000);
	}
	MHD_stop_daemon(daemon);
	if (admin != NULL)
		MHD_stop_daemon(admin);
	http_session_forget_all();
	free(cert);
	free(key);
	mcp_log(MCP_LOG_NOTICE, "stopped");
	return MCP_EXIT_OK;
}

/*
 * libmicrohttpd's access handler: called once with the headers, then once
 * per piece of body, then once more with none.
 */
static enum MHD_Result
handle(void *cls, struct MHD_Connection *connection, const char *url,
	   const char *method, const char *version, const char *upload_data,
	   size_t *upload_data_size, void **state)
{
	HttpRequest *req = *state;

	if (req == NULL)
	{
		req = mcp_malloc(sizeof(HttpRequest));
		memset(req, 0, sizeof(*req));
		req->start = mcp_now_ms();
		*state = req;
		pthread_mutex_lock(&counter_lock);
		requests_open++;
		pthread_mutex_unlock(&counter_lock);
		/* an answer queued here (a refusal) is timed by http_respond() */
		return check_request(connection, url, method, req);
	}
	if (*upload_data_size > 0)
	{
		size_t		n = *upload_data_size;

		*upload_data_size = 0;
		/* a body is kept only by a request that holds a slot */
		if (!req->answered && !req->entered && req->refused == 0 &&
			(req->refused = http_limits_enter(req->identity)) == 0)
			req->entered = true;
		if (req->answered || req->too_big || req->refused != 0)
			return MHD_YES;
		if (req->len + n > settings->max_body_bytes)
		{
			if (!req->too_big)
				mcp_metrics_refusal(MCP_REFUSED_BODY_SIZE);
			req->too_big = true;
			free(req->body);
			req->body = NULL;
			return MHD_YES;
		}
		if (req->len + n + 1 > req->cap)
		{
			req->cap = (req->len + n + 1) * 2;
			if (req->cap > settings->max_body_bytes + 1)
				req->cap = settings->max_body_bytes + 1;
			req->body = mcp_realloc(req->body, req->cap);
		}
		memcpy(req->body + req->len, upload_data, n);
		req->len += n;
		req->body[req->len] = '\0';
		return MHD_YES;
	}
	if (req->answered)
		return MHD_YES;
	http_limits_request_read(connection);
	if (req->refused != 0)
		return respond_busy(connection, req, req->refused);
	if (strcmp(method, "DELETE") == 0)
		return end_session(connection, req);
	if (req->too_big)
	{
		http_log_request("-", NULL, req->role, 413, req->start);
		return http_respond_error(connection, 413, JSONRPC_INVALID_REQUEST,
								  "Invalid Request: the body is larger than the server accepts");
	}
	return answer_message(connection, req);
}

/*
 * The checks that need only the request line and headers, in order: the
 * first one a request fails answers it at once (libmicrohttpd then reads
 * no body and closes).  A check with a status is answered here with that
 * status and its message; one without answers itself (another header, a
 * status that depends).
 */
static const RequestCheck REQUEST_CHECKS[] = {
	{host_ok, false, 403, "Forbidden: the Host is not this server's name"},
	{endpoint_ok, false, 404, "Not Found: the MCP endpoint is " MCP_ENDPOINT},
	{method_ok, false, 0, NULL},	/* 405 with Allow */
	{origin_ok, false, 403, "Forbidden: the Origin is not allowed"},
	{one_authorization, false, 0, NULL},	/* 400 with a challenge */
	{authenticated, false, 0, NULL},	/* 400 or 401 with a challenge */
	{role_ok, false, 0, NULL},	/* 403, or 503 */
	{json_body, true, 415, "Unsupported Media Type: the body must be application/json"},
	{accepts_json, true, 406, "Not Acceptable: the client must accept application/json and text/event-stream"},
	{body_fits, true, 413, "Invalid Request: the body is larger than the server accepts"},
};

static enum MHD_Result
check_request(struct MHD_Connection *connection, const char *url,
			  const char *method, HttpRequest *req)
{
	const char *metadata_path = mcp_auth_metadata_path();
	RequestChecked rc = {connection, url, method, req, NULL, 0, MHD_YES};

	/* probes: before the Host check, as orchestrators probe by address */
	if (http_health_request(connection, url, method, true, &rc.result))
	{
		req->answered = true;
		return rc.result;
	}
	if (metadata_path != NULL && strcmp(method, "GET") == 0 &&
		(strcmp(url, metadata_path) == 0 || strcmp(url, METADATA_ROOT_PATH) == 0))
	{
		req->answered = true;
		return serve_metadata(connection);
	}
	for (size_t i = 0; i < sizeof(REQUEST_CHECKS) / sizeof(REQUEST_CHECKS[0]); i++)
	{
		const RequestCheck *check = &REQUEST_CHECKS[i];

		if ((check->post_only && strcmp(method, "POST") != 0) ||
			check->passes(&rc))
			continue;
		if (check->status != 0)
		{
			rc.status = check->status;
			rc.result = http_respond_error(connection, check->status,
										   JSONRPC_INVALID_REQUEST, check->message);
		}
		req->answered = true;
		http_log_request(method, NULL, req->role, rc.status, req->start);
		if (rc.reason != NULL)
			mcp_log(MCP_LOG_NOTICE, "request refused: %s", rc.reason);
		return rc.result;
	}
	return MHD_YES;
}

/* the checks of REQUEST_CHECKS: true when the request passes */
static bool
host_ok(RequestChecked *rc)
{
	return http_host_allowed(rc->connection);
}

static bool
endpoint_ok(RequestChecked *rc)
{
	return strcmp(rc->url, MCP_ENDPOINT) == 0;
}

static bool
method_ok(RequestChecked *rc)
{
	if (strcmp(rc->method, "POST") == 0 || strcmp(rc->method, "DELETE") == 0)
		return true;
	rc->status = 405;
	rc->result = http_respond(rc->connection, 405, "application/json",
							  mcp_strdup("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,"
										 "\"message\":\"Method Not Allowed: POST a JSON-RPC message (this server opens no stream on GET)\"}}"),
							  "Allow", "POST, DELETE");
	return false;
}

static bool
origin_ok(RequestChecked *rc)
{
	return http_origins_allowed(rc->connection);
}

/* with tokens configured: at most one Authorization header */
static bool
one_authorization(RequestChecked *rc)
{
	int			authorizations = 0;

	if (!mcp_auth_enabled())
		return true;
	MHD_get_connection_values(rc->connection, MHD_HEADER_KIND,
							  count_authorization, &authorizations);
	if (authorizations <= 1)
		return true;
	rc->status = 400;
	rc->result = respond_unauthorized(rc->connection, MCP_AUTH_MALFORMED,
									  "more than one Authorization header");
	mcp_metrics_auth_failure(MCP_AUTHFAIL_MALFORMED);
	return false;
}

/* with tokens configured: a valid bearer token (it sets the role) */
static bool
authenticated(RequestChecked *rc)
{
	McpAuthStatus auth;

	if (!mcp_auth_enabled())
		return true;
	auth = mcp_auth_check_identity(MHD_lookup_connection_value(rc->connection, MHD_HEADER_KIND,
															   "Authorization"),
								   &rc->req->role, rc->req->identity, &rc->reason);
	if (auth == MCP_AUTH_OK)
		return true;
	rc->status = auth == MCP_AUTH_MALFORMED ? 400 : 401;
	rc->result = respond_unauthorized(rc->connection, auth, rc->reason);
	mcp_metrics_auth_failure(auth == MCP_AUTH_MISSING ? MCP_AUTHFAIL_MISSING
							 : auth == MCP_AUTH_MALFORMED ? MCP_AUTHFAIL_MALFORMED
							 : auth == MCP_AUTH_EXPIRED ? MCP_AUTHFAIL_EXPIRED
							 : MCP_AUTHFAIL_INVALID);
	return false;
}

/* the token's role, if any, is one a request may run as */
static bool
role_ok(RequestChecked *rc)
{
	if (rc->req->role == NULL || (rc->status = check_role(rc->req->role)) == 0)
		return true;
	rc->result = http_respond_error(rc->connection, rc->status, JSONRPC_INVALID_REQUEST,
									rc->status == 403 ? "Forbidden: the token's role may not be used"
									: "Service Unavailable: the token's role could not be checked; retry shortly");
	return false;
}

static bool
json_body(RequestChecked *rc)
{
	const char *type = MHD_lookup_connection_value(rc->connection, MHD_HEADER_KIND,
												   "Content-Type");

	return type != NULL && strncasecmp(type, "application/json", 16) == 0 &&
		(type[16] == '\0' || type[16] == ';' || type[16] == ' ');
}

static bool
accepts_json(RequestChecked *rc)
{
	const char *accept = MHD_lookup_connection_value(rc->connection, MHD_HEADER_KIND,
													 "Accept");

	return accept == NULL || http_accepts(accept, "application/json") ||
		http_accepts(accept, "text/event-stream");
}

/* a Content-Length over --max-body is refused before the body comes */
static bool
body_fits(RequestChecked *rc)
{
	const char *length = MHD_lookup_connection_value(rc->connection, MHD_HEADER_KIND,
													 "Content-Length");

	if (length == NULL || strtoull(length, NULL, 10) <= settings->max_body_bytes)
		return true;
	mcp_metrics_refusal(MCP_REFUSED_BODY_SIZE);
	return false;
}

/*
 * Is the token's role one a request may run as (role_check.c)?  0, or the
 * status to refuse with: 403, or 503 when the database could not say.
 */
static int
check_role(const char *role)
{
	char		why[256];
	McpRoleVerdict verdict = mcp_role_check(role, why, sizeof(why));

	if (verdict == MCP_ROLE_OK)
		return 0;
	if (verdict == MCP_ROLE_REFUSED)
		mcp_metrics_auth_failure(MCP_AUTHFAIL_ROLE_FORBIDDEN);
	mcp_log(MCP_LOG_WARNING, "request refused: the token's role \"%s\" %s", role, why);
	return verdict == MCP_ROLE_REFUSED ? 403 : 503;
}

/*
 * The whole body is here: answer the message.
 */
static enum MHD_Result
answer_message(struct MHD_Connection *connection, HttpRequest *req)
{
	json_object *message;
	json_object *response = NULL;
	json_object *error = NULL;
	bool		parsed;
	McpContext	ctx;
	McpSession	copy;
	enum MHD_Result result;
	int			status;
	char	   *txt;

	/* parsed once, checked strictly (jsonrpc.c), then handled */
	parsed = jsonrpc_parse(req->body != NULL ? req->body : "", req->len,
						   &message, &error);
	mcp_context_init(&ctx, NULL);
	ctx.http = true;
	ctx.role = req->role;
	if (!parsed)
	{
		status = 400;
		if (error == NULL)
			error = jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
								  "Invalid Request: the body is empty", NULL);
	}
	else
		status = prepare_context(connection, req, message, &ctx, &copy, &error);
	if (status == 0 && !req->entered)
	{
		/* a request without a body takes its slot now */
		if ((status = http_limits_enter(req->identity)) != 0)
		{
			json_object_put(message);
			if (ctx.session != NULL && ctx.session != &copy)
				http_session_publish(ctx.session, false);
			return respond_busy(connection, req, status);
		}
		req->entered = true;
	}
	if (status != 0)
	{
		json_object_put(message);
		txt = jsonrpc_to_text(error);

		json_object_put(error);
		http_log_request("-", &ctx, req->role, status, req->start);
		if (ctx.session != NULL && ctx.session != &copy)
			http_session_publish(ctx.session, false);
		return http_respond(connection, status, "application/json", txt,
							status == 503 || status == 429 ? "Retry-After" : NULL, "1");
	}

	if (json_object_is_type(message, json_type_array))
	{
		/* a batch: answered as its members run (http_batch.c) */
		json_object_put(message);
		return http_answer_batch(connection, req, &ctx, &copy);
	}
	if (http_wants_stream(connection, message))
	{
		/* the stream takes the message over */
		return http_start_sse(connection, req, &ctx, &copy, message);
	}
	response = jsonrpc_process_parsed(&ctx, message, req->body, req->len);
	/* the slot is given back once the answer is sent (completed()) */
	json_object_put(message);
	status = ctx.http_status != 0 ? ctx.http_status : response != NULL ? 200 : 202;
	if (status == 200 && json_object_is_type(response, json_type_object) &&
		json_object_object_get_ex(response, "error", NULL) &&
		json_object_object_get(response, "id") == NULL)
		status = 400;			/* a message we could not read: its id is null */
	http_log_request(ctx.method[0] ? ctx.method : "-", &ctx, req->role, status, req->start);

	if (ctx.session != NULL && ctx.session != &copy)
	{
		/* initialize: keep the session if it succeeded */
		bool		ok = response != NULL &&
			json_object_object_get_ex(response, "result", NULL);
		char		id[sizeof(ctx.session->id)];

		memcpy(id, ctx.session->id, sizeof(id));
		http_session_publish(ctx.session, ok);
		txt = jsonrpc_to_text(response);

		json_object_put(response);
		return http_respond(connection, status, "application/json", txt,
							ok ? "Mcp-Session-Id" : NULL, id);
	}
	if (status == 401)
	{
		mcp_metrics_auth_failure(MCP_AUTHFAIL_ROLE_REFUSED);
		json_object_put(response);
		return respond_unauthorized(connection, MCP_AUTH_INVALID,
									"the token's role cannot be used on this database");
	}
	if (response == NULL)
		return http_respond(connection, status, NULL, NULL, NULL, NULL);
	txt = jsonrpc_to_text(response);

	json_object_put(response);
	req->answer_bytes = strlen(txt);
	result = http_respond(connection, status, "application/json", txt, NULL, NULL);
	return result;
}

/*
 * No request slot for this request: 503 when every slot is taken, 429
 * when its token has its share.
 */
static enum MHD_Result
respond_busy(struct MHD_Connection *connection, HttpRequest *req, int status)
{
	json_object *error = jsonrpc_error(NULL, JSONRPC_INTERNAL_ERROR,
									   status == 503
									   ? "Service Unavailable: too many requests in progress; retry shortly"
									   : "Too Many Requests: this token has its share of the requests in progress (--max-requests-per-token); retry shortly",
									   NULL);
	char	   *txt = jsonrpc_to_text(error);

	json_object_put(error);
	mcp_metrics_refusal(status == 503 ? MCP_REFUSED_BUSY : MCP_REFUSED_TOKEN_BUSY);
	http_log_request("-", NULL, req->role, status, req->start);
	return http_respond(connection, status, "application/json", txt, "Retry-After", "1");
}

/*
 * Set up ctx for message: its session (or none), scope and revision
 * checks.  Returns 0, or an HTTP status with *error the JSON-RPC error.
 */
static int
prepare_context(struct MHD_Connection *connection, HttpRequest *req,
				json_object *message, McpContext *ctx, McpSession *copy,
				json_object **error)
{
	const char *session_id = MHD_lookup_connection_value(connection, MHD_HEADER_KIND,
														 "Mcp-Session-Id");
	const char *version = MHD_lookup_connection_value(connection, MHD_HEADER_KIND,
													  "MCP-Protocol-Version");
	json_object *method = NULL;
	json_object *params = NULL;
	json_object *meta = NULL;

	ctx->client_fd = -1;
	{
		const union MHD_ConnectionInfo *info =
			MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);

		if (info != NULL)
			ctx->client_fd = info->connect_fd;
	}
	ctx->scope = req->role != NULL ? req->role : "";
	if (!json_object_is_type(message, json_type_object) &&
		!json_object_is_type(message, json_type_array))
		return 0;				/* not a message: jsonrpc.c answers -32600
								 * (400) */
	if (json_object_is_type(message, json_type_object))
	{
		json_object_object_get_ex(message, "method", &method);
		json_object_object_get_ex(message, "params", &params);
		if (params != NULL && json_object_is_type(params, json_type_object))
			json_object_object_get_ex(params, "_meta", &meta);
	}

	/*
	 * 2026-07-28: stateless.  Its cancel is the client closing the
	 * connection, never a notification, so the request gets a scope of its
	 * own: no other request can name it.
	 */
	if (meta != NULL && json_object_is_type(meta, json_type_object) &&
		json_object_object_get_ex(meta, "io.modelcontextprotocol/protocolVersion", NULL))
	{
		pthread_mutex_lock(&counter_lock);
		snprintf(req->scope, sizeof(req->scope), "http#%lu", ++requests_seen);
		pthread_mutex_unlock(&counter_lock);
		ctx->scope = req->scope;
		return check_stateless_headers(connection, message, error);
	}

	/* the session-based revisions */
	if (method != NULL && json_object_is_type(method, json_type_string) &&
		strcmp(json_object_get_string(method), "initialize") == 0)
	{
		if (session_id != NULL)
		{
			/* the README's rule: one initialize per session */
			*error = jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
								   "Invalid Request: initialize must not carry Mcp-Session-Id: "
								   "this session is initialized already (DELETE it, or initialize "
								   "without the header for a new one)", NULL);
			return 400;
		}
		ctx->session = http_session_new(req->identity);
		if (ctx->session == NULL)
		{
			*error = jsonrpc_error(NULL, JSONRPC_INTERNAL_ERROR,
								   "Internal error: could not make a session id", NULL);
			return 500;
		}
		ctx->scope = ctx->session->id;
		return 0;
	}
	if (session_id == NULL)
	{
		*error = jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
							   "Bad Request: Mcp-Session-Id is required (send initialize first, "
							   "or use protocol revision " MCP_REVISION_STATELESS " with _meta)", NULL);
		return 400;
	}
	if (!http_session_find(session_id, req->identity, copy))
	{
		*error = jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
							   "Not Found: no such session (it ended or expired); initialize again",
							   NULL);
		return 404;
	}
	if (version != NULL && mcp_known_revision(version) == NULL)
	{
		json_object *data = json_object_new_object();

		json_object_object_add(data, "supported", mcp_supported_revisions());
		json_object_object_add(data, "requested", json_object_new_string(version));
		*error = jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
							   "Bad Request: unsupported MCP-Protocol-Version", data);
		return 400;
	}
	ctx->session = copy;
	ctx->scope = copy->id;
	return 0;
}

/*
 * 2026-07-28's request headers must be present and match the body
 * (basic/transports/streamable-http.mdx, "Request Metadata").
 */
static int
check_stateless_headers(struct MHD_Connection *connection, json_object *message,
						json_object **error)
{
	static const char *const names[] = {"MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"};
	const char *body_values[3] = {NULL, NULL, NULL};
	json_object *method;
	json_object *params;
	json_object *meta;
	json_object *value;
	int			i;

	json_object_object_get_ex(message, "method", &method);
	json_object_object_get_ex(message, "params", &params);
	json_object_object_get_ex(params, "_meta", &meta);
	json_object_object_get_ex(meta, "io.modelcontextprotocol/protocolVersion", &value);
	body_values[0] = json_object_get_string(value);
	body_values[1] = method != NULL ? json_object_get_string(method) : NULL;
	if (body_values[1] != NULL && strcmp(body_values[1], "tools/call") == 0 &&
		json_object_object_get_ex(params, "name", &value))
		body_values[2] = json_object_get_string(value);

	for (i = 0; i < 3; i++)
	{
		const char *header;
		char	   *decoded;
		char	   *txt;
		bool		same;

		if (body_values[i] == NULL)
			continue;
		header = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, names[i]);
		decoded = header != NULL ? decode_header_value(header) : NULL;
		same = decoded != NULL && strcmp(decoded, body_values[i]) == 0;
		free(decoded);
		if (same)
			continue;
		txt = header == NULL
			? mcp_psprintf("Header mismatch: the %s header is required", names[i])
			: mcp_psprintf("Header mismatch: the %s header does not match the body", names[i]);

		/* the body was read: the error names its id (JSON-RPC 2.0, 5) */
		value = json_object_object_get(message, "id");
		if (!json_object_is_type(value, json_type_string) &&
			!json_object_is_type(value, json_type_int))
			value = NULL;
		*error = jsonrpc_error(value, MCP_HEADER_MISMATCH, txt, NULL);
		free(txt);
		return 400;
	}
	return 0;
}

/*
 * DELETE: end a session of the session-based revisions.
 */
static enum MHD_Result
end_session(struct MHD_Connection *connection, HttpRequest *req)
{
	const char *id = MHD_lookup_connection_value(connection, MHD_HEADER_KIND,
												 "Mcp-Session-Id");
	int			status = id == NULL ? 400 : http_session_end(id, req->identity) ? 204 : 404;

	http_log_request("DELETE", NULL, req->role, status, req->start);
	if (status == 204)
		return http_respond(connection, 204, NULL, NULL, NULL, NULL);
	return http_respond_error(connection, status, JSONRPC_INVALID_REQUEST,
							  status == 400 ? "Bad Request: Mcp-Session-Id is required"
							  : "Not Found: no such session");
}

/*
 * GET /.well-known/oauth-protected-resource (RFC 9728).
 */
static enum MHD_Result
serve_metadata(struct MHD_Connection *connection)
{
	char	   *metadata = mcp_auth_resource_metadata();

	if (metadata == NULL)
		return http_respond_error(connection, 404, JSONRPC_INVALID_REQUEST, "Not Found");
	return http_respond(connection, 200, "application/json", metadata, NULL, NULL);
}

static enum MHD_Result
respond_unauthorized(struct MHD_Connection *connection, McpAuthStatus status,
					 const char *reason)
{
	char	   *challenge = mcp_auth_challenge(status, reason);
	json_object *error = jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
									   status == MCP_AUTH_MALFORMED
									   ? "Bad Request: malformed Authorization header"
									   : "Unauthorized: a valid bearer token is required",
									   NULL);
	char	   *txt = jsonrpc_to_text(error);
	enum MHD_Result result;

	json_object_put(error);
	result = http_respond(connection, status == MCP_AUTH_MALFORMED ? 400 : 401,
						  "application/json", txt, "WWW-Authenticate", challenge);
	free(challenge);
	return result;
}

/* counts the Authorization headers (MHD_get_connection_values' iterator) */
static enum MHD_Result
count_authorization(void *cls, enum MHD_ValueKind kind, const char *key,
					const char *value)
{
	if (strcasecmp(key, "Authorization") == 0)
		(*(int *) cls)++;
	return MHD_YES;
}

/*
 * A header value, or its "=?base64?...?=" form decoded (malloc'd; NULL if
 * it does not decode).
 */
static char *
decode_header_value(const char *value)
{
	size_t		len = strlen(value);
	unsigned char *out;
	int			n;

	if (len < 12 || strncmp(value, "=?base64?", 9) != 0 ||
		strcmp(value + len - 2, "?=") != 0)
		return mcp_strdup(value);
	out = mcp_malloc(len);
	n = EVP_DecodeBlock(out, (const unsigned char *) value + 9, (int) (len - 11));
	if (n < 0)
	{
		free(out);
		return NULL;
	}
	/* EVP_DecodeBlock counts padding as zero bytes */
	if (len >= 13 && value[len - 3] == '=')
		n--;
	if (len >= 14 && value[len - 4] == '=')
		n--;
	out[n] = '\0';
	if (strlen((char *) out) != (size_t) n)
	{
		free(out);
		return NULL;
	}
	return (char *) out;
}

static int
open_requests(void)
{
	int			n;

	pthread_mutex_lock(&counter_lock);
	n = requests_open;
	pthread_mutex_unlock(&counter_lock);
	return n;
}

void
http_leave_request(const char *identity)
{
	http_limits_leave(identity);
}

/* libmicrohttpd is done with a request */
static void
completed(void *cls, struct MHD_Connection *connection, void **state,
		  enum MHD_RequestTerminationCode toe)
{
	HttpRequest *req = *state;

	if (req == NULL)
		return;
	http_limits_request_done(connection);
	if (req->entered)
		http_leave_request(req->identity);
	free(req->body);
	free(req->role);
	mcp_release_memory(req->answer_bytes);
	free(req);
	*state = NULL;
	pthread_mutex_lock(&counter_lock);
	requests_open--;
	pthread_mutex_unlock(&counter_lock);
}

static void
log_mhd(void *cls, const char *fmt, va_list ap)
{
	char		line[512];

	vsnprintf(line, sizeof(line), fmt, ap);
	mcp_log(MCP_LOG_INFO, "libmicrohttpd: %s", line);
}

/* a whole (small) file, NUL-terminated, or NULL with a logged error */
static char *
read_file(const char *path)
{
	FILE	   *f = fopen(path, "r");
	char	   *txt;
	size_t		n = 0;
	size_t		cap = 4096;

	if (f == NULL)
	{
		mcp_log(MCP_LOG_ERROR, "could not open \"%s\": %s", path, strerror(errno));
		return NULL;
	}
	txt = mcp_malloc(cap);

	for (;;)
	{
		size_t		got = fread(txt + n, 1, cap - n - 1, f);

		n += got;
		if (got == 0)
			break;
		if (n + 1 == cap)
		{
			if (cap > 1024 * 1024)
				break;
			cap *= 2;
			txt = mcp_realloc(txt, cap);
		}
	}
	txt[n] = '\0';

	fclose(f);
	return txt;
}


/*
 * SIGHUP: read the tokens file and the JWT keys again, check the roles,
 * and end the sessions of tokens no longer in the file.  Sessions of the
 * other tokens, and requests in progress, go on.
 */
static void
reload(const McpHttpSettings *s)
{
	bool		ok;
	int			ended;

	mcp_log(MCP_LOG_NOTICE, "SIGHUP received: reloading the tokens file and the JWT keys");
	if (s->auth_settings == NULL || !mcp_auth_enabled())
	{
		mcp_log(MCP_LOG_NOTICE, "reload: no tokens are configured; nothing to reload");
		return;
	}
	ok = mcp_auth_reload(s->auth_settings);
	mcp_role_check_tokens();
	ended = http_session_end_stale(mcp_auth_identity_current);
	mcp_log(MCP_LOG_NOTICE, "reload %s; %d session%s of revoked tokens ended",
			ok ? "done" : "incomplete (see above)", ended, ended == 1 ? "" : "s");
}
