/*-------------------------------------------------------------------------
 *
 * http_respond.c
 *	  What the HTTP files share to answer a request: queueing a response
 *	  (counted in the metrics), a JSON-RPC error with a status, the request
 *	  log line, and reading an Accept header.
 *
 * Below http.c and the files it hands requests to (http_batch.c,
 * http_sse.c, http_health.c), which answer through it without calling
 * http.c back.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/http_respond.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>
#include <strings.h>

#include "base/metrics.h"
#include "transport/http_int.h"

/*
 * Queue a response; text (malloc'd, or NULL for no body) is taken over.
 */
enum MHD_Result
http_respond(struct MHD_Connection *connection, int status, const char *content_type,
			 char *txt, const char *header, const char *value)
{
	struct MHD_Response *response;
	enum MHD_Result result;

	response = MHD_create_response_from_buffer(txt != NULL ? strlen(txt) : 0,
											   txt != NULL ? txt : (char *) "",
											   txt != NULL ? MHD_RESPMEM_MUST_FREE
											   : MHD_RESPMEM_PERSISTENT);
	if (response == NULL)
	{
		free(txt);
		return MHD_NO;
	}
	if (content_type != NULL)
		MHD_add_response_header(response, "Content-Type", content_type);
	if (header != NULL)
		MHD_add_response_header(response, header, value);
	mcp_metrics_http_response(status, txt != NULL ? strlen(txt) : 0);
	http_limits_answer_queued(connection);
	result = MHD_queue_response(connection, (unsigned int) status, response);
	MHD_destroy_response(response);
	return result;
}

/* a JSON-RPC error without id, with an HTTP status */
enum MHD_Result
http_respond_error(struct MHD_Connection *connection, int status, int code,
				   const char *message)
{
	json_object *error = jsonrpc_error(NULL, code, message, NULL);
	char	   *txt = jsonrpc_to_text(error);

	json_object_put(error);
	return http_respond(connection, status, "application/json", txt, NULL, NULL);
}

/*
 * One line per request (log.c).
 */
void
http_log_request(const char *method, const McpContext *ctx, const char *role,
				 int status, double start)
{
	mcp_log_request(MCP_LOG_NOTICE, method, ctx, role, status, start);
}

/*
 * Does an Accept header take this type (itself, type/asterisk, or all)?
 */
bool
http_accepts(const char *accept, const char *type)
{
	size_t		major = strcspn(type, "/");
	const char *p = accept;

	while (*p != '\0')
	{
		size_t		n;

		p += strspn(p, " \t,");
		n = strcspn(p, ",;");
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if ((n == strlen(type) && strncasecmp(p, type, n) == 0) ||
			(n == 3 && strncmp(p, "*/*", 3) == 0) ||
			(n == major + 2 && strncasecmp(p, type, major + 1) == 0 && p[major + 1] == '*'))
			return true;
		p += strcspn(p, ",");
	}
	return false;
}
