/*-------------------------------------------------------------------------
 *
 * http_health.c
 *	  GET /live, GET /ready and GET /metrics, and the admin listener
 *	  (--admin-listen) that serves them apart from /mcp.
 *
 * /live answers 200 while the process serves HTTP; /ready answers 200
 * when a pooled connection runs SELECT 1 within READY_TIMEOUT_MS
 * (ready.c), else 503, and 503 once SIGTERM or SIGINT came (the calls in
 * progress are finishing: a load balancer should send no more).  Both need no token and pass no Host or Origin
 * check (orchestrators probe by address), so they say nothing else: a
 * fixed body of a few bytes.  They are on the main listener and on the
 * admin one.
 *
 * /metrics (metrics.c) is only on the admin listener: it names roles and
 * tools, and an admin address is one the operator chose to expose to the
 * scraper (a loopback or private address), so it needs no token.  Without
 * --admin-listen nothing is counted and /metrics does not exist; the main
 * listener answers 404 for it as for any other path.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/http_health.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "transport/http_int.h"
#include "base/metrics.h"

#define READY_TIMEOUT_MS 1000
#define ADMIN_MAX_CONNECTIONS 16
#define ADMIN_TIMEOUT_SECS 10

static bool draining = false;	/* atomic: set by the main thread */

static enum MHD_Result admin_handle(void *cls, struct MHD_Connection *connection,
									const char *url, const char *method,
									const char *version, const char *upload_data,
									size_t *upload_data_size, void **state);
static enum MHD_Result respond_fixed(struct MHD_Connection *connection,
									 bool main_listener, int status,
									 const char *txt);

/*
 * Is this request one of /live or /ready (GET or HEAD)?  Then answer it.
 * The main listener's answers count in the HTTP metrics, the admin's not.
 */
bool
http_health_request(struct MHD_Connection *connection, const char *url,
					const char *method, bool main_listener,
					enum MHD_Result *result)
{
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return false;
	if (strcmp(url, "/live") == 0)
		*result = respond_fixed(connection, main_listener, 200, "live\n");
	else if (strcmp(url, "/ready") == 0)
		*result = !__atomic_load_n(&draining, __ATOMIC_RELAXED) &&
			mcp_db_ready(READY_TIMEOUT_MS)
			? respond_fixed(connection, main_listener, 200, "ready\n")
			: respond_fixed(connection, main_listener, 503, "not ready\n");
	else
		return false;
	return true;
}

/* shutting down: /ready answers 503 from now on */
void
http_health_draining(void)
{
	__atomic_store_n(&draining, true, __ATOMIC_RELAXED);
}

/*
 * Start the admin listener; NULL (logged) if it cannot listen.  It counts
 * nothing itself: scrapes and probes are not the service's traffic.
 */
struct MHD_Daemon *
http_admin_start(const char *address, int port)
{
	struct sockaddr_storage addr;
	struct MHD_Daemon *daemon;
	bool		loopback;
	unsigned int flags = MHD_USE_THREAD_PER_CONNECTION |
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;

	if (!http_bind_address(address, port, &addr, &loopback))
		return NULL;
	if (addr.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	daemon = MHD_start_daemon(flags, (uint16_t) port, NULL, NULL, admin_handle, NULL,
							  MHD_OPTION_SOCK_ADDR, (struct sockaddr *) &addr,
							  MHD_OPTION_CONNECTION_LIMIT, (unsigned int) ADMIN_MAX_CONNECTIONS,
							  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) ADMIN_TIMEOUT_SECS,
							  MHD_OPTION_END);
	if (daemon == NULL)
	{
		mcp_log(MCP_LOG_ERROR, "could not listen on %s port %d (--admin-listen): %s",
				address, port, errno != 0 ? strerror(errno) : "unknown error");
		return NULL;
	}
	mcp_log(MCP_LOG_NOTICE, "admin listening on http://%s%s%s:%d (/live, /ready, /metrics)",
			addr.ss_family == AF_INET6 ? "[" : "", address,
			addr.ss_family == AF_INET6 ? "]" : "", port);
	return daemon;
}

static enum MHD_Result
admin_handle(void *cls, struct MHD_Connection *connection, const char *url,
			 const char *method, const char *version, const char *upload_data,
			 size_t *upload_data_size, void **state)
{
	static int	first;
	enum MHD_Result result;
	struct MHD_Response *response;
	char	   *txt;

	/* the headers call: answer on the next one (a body is not read) */
	if (*state == NULL)
	{
		*state = &first;
		return MHD_YES;
	}
	*upload_data_size = 0;
	if (http_health_request(connection, url, method, false, &result))
		return result;
	if (strcmp(url, "/metrics") != 0)
		return respond_fixed(connection, false, 404, "not found\n");
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return respond_fixed(connection, false, 405, "method not allowed\n");
	txt = mcp_metrics_render();

	response = MHD_create_response_from_buffer(strlen(txt), txt, MHD_RESPMEM_MUST_FREE);
	if (response == NULL)
	{
		free(txt);
		return MHD_NO;
	}
	MHD_add_response_header(response, "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	result = MHD_queue_response(connection, 200, response);
	MHD_destroy_response(response);
	return result;
}

static enum MHD_Result
respond_fixed(struct MHD_Connection *connection, bool main_listener, int status,
			  const char *txt)
{
	struct MHD_Response *response;
	enum MHD_Result result;

	if (main_listener)
	{
		mcp_metrics_http_response(status, strlen(txt));
		http_limits_answer_queued(connection);
	}
	response = MHD_create_response_from_buffer(strlen(txt), (void *) txt,
											   MHD_RESPMEM_PERSISTENT);
	if (response == NULL)
		return MHD_NO;
	MHD_add_response_header(response, "Content-Type", "text/plain; charset=utf-8");
	MHD_add_response_header(response, "Cache-Control", "no-store");
	result = MHD_queue_response(connection, (unsigned int) status, response);
	MHD_destroy_response(response);
	return result;
}

/*
 * --admin-listen [ADDR:]PORT, as --http's: an IPv6 address in brackets.
 * NULL, or why the value is refused.
 */
const char *
http_parse_admin_listen(const char *arg, McpHttpSettings *http)
{
	static char address[256];
	const char *colon = strrchr(arg, ':');
	const char *port = arg;
	char	   *end;
	long		value;

	http->admin_address = "127.0.0.1";
	if (colon != NULL)
	{
		size_t		len = (size_t) (colon - arg);

		if (arg[0] == '[' && len >= 2 && arg[len - 1] == ']')
		{
			arg++;
			len -= 2;
		}
		if (len == 0 || len >= sizeof(address))
			return "[ADDR:]PORT is required (an IPv6 address in brackets)";
		memcpy(address, arg, len);
		address[len] = '\0';
		http->admin_address = address;
		port = colon + 1;
	}
	errno = 0;
	value = strtol(port, &end, 10);
	if (errno != 0 || end == port || *end != '\0' || value <= 0 || value > 65535)
		return "the port must be an integer from 1 to 65535";
	http->admin_port = (int) value;
	return NULL;
}
