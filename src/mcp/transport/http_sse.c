/*-------------------------------------------------------------------------
 *
 * http_sse.c
 *	  Answering a tools/call with an SSE stream: progress, then the answer.
 *
 * A worker thread runs the call (its statement reports progress about once
 * a second through sse_progress) and queues events; the connection's own
 * thread, in sse_read, sends them as libmicrohttpd asks.  While nothing is
 * queued, sse_read watches the client's socket in short slices, so a client
 * that closes the stream has its call cancelled at once: for 2026-07-28
 * closing the stream is the cancel.  Only the connection's thread may look
 * at the socket; libmicrohttpd closes it after sse_free, which waits for
 * the worker.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/http_sse.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

#include "transport/http.h"
#include "transport/http_int.h"
#include "base/metrics.h"

/* a quiet stream checks for a hang-up this often, and keeps alive so */
#define SSE_WATCH_MS 20
#define SSE_KEEPALIVE_MS 15000

/* one SSE answer */
typedef struct SseStream
{
	pthread_mutex_t lock;
	pthread_cond_t changed;
	pthread_t	worker;
	char	   *events;			/* text not yet sent */
	size_t		len;
	size_t		sent;
	bool		done;
	McpContext	ctx;
	McpSession	session;
	json_object *message;		/* the request, parsed */
	char	   *body;			/* and its text */
	size_t		body_len;
	char	   *role;
	double		start;
	char		scope[40];		/* the request's cancel scope and id */
	char	   *id_key;
	int			client_fd;		/* for sse_read only */
	bool		cancel_sent;	/* connection thread only */
} SseStream;

static void sse_push(SseStream *stream, json_object *message);
static void sse_progress(McpContext *ctx, double elapsed_ms);
static void *sse_work(void *arg);
static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max);
static bool client_gone(int fd);
static void cancel_stream(SseStream *stream);
static void sse_free(void *cls);

/*
 * A tools/call that asked for progress, from a client that accepts a
 * stream.
 */
bool
http_wants_stream(struct MHD_Connection *connection, json_object *message)
{
	const char *accept = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Accept");
	json_object *method;
	json_object *params;
	json_object *meta;

	return accept != NULL && http_accepts(accept, "text/event-stream") &&
		json_object_is_type(message, json_type_object) &&
		json_object_object_get_ex(message, "id", NULL) &&
		json_object_object_get_ex(message, "method", &method) &&
		strcmp(json_object_get_string(method), "tools/call") == 0 &&
		json_object_object_get_ex(message, "params", &params) &&
		json_object_object_get_ex(params, "_meta", &meta) &&
		json_object_object_get_ex(meta, "progressToken", NULL);
}

/* SSE: queue one event (under no lock) */
static void
sse_push(SseStream *stream, json_object *message)
{
	char	   *txt = jsonrpc_to_text(message);
	char	   *event = mcp_psprintf("event: message\ndata: %s\n\n", txt);
	size_t		n = strlen(event);

	free(txt);
	pthread_mutex_lock(&stream->lock);
	stream->events = mcp_realloc(stream->events, stream->len + n + 1);
	memcpy(stream->events + stream->len, event, n + 1);
	stream->len += n;
	pthread_cond_broadcast(&stream->changed);
	pthread_mutex_unlock(&stream->lock);
	free(event);
}

static void
sse_progress(McpContext *ctx, double elapsed_ms)
{
	json_object *message = mcp_progress_notification(ctx, elapsed_ms);

	sse_push(ctx->progress_arg, message);
	json_object_put(message);
}

static void *
sse_work(void *arg)
{
	SseStream  *stream = arg;
	json_object *response;

	response = jsonrpc_process_parsed(&stream->ctx, stream->message, stream->body,
									  stream->body_len);
	http_log_request(stream->ctx.method, &stream->ctx, stream->role, 200, stream->start);
	if (response != NULL)
		sse_push(stream, response);
	json_object_put(response);
	pthread_mutex_lock(&stream->lock);
	stream->done = true;
	pthread_cond_broadcast(&stream->changed);
	pthread_mutex_unlock(&stream->lock);
	return NULL;
}

/*
 * libmicrohttpd asks for the next piece of the stream.  While nothing is
 * queued, watch the client's socket in short slices: a client that hangs
 * up has its call cancelled at once, not at the next write.  (Only this
 * thread may look at the socket: libmicrohttpd closes it after the
 * response is freed.)
 */
static ssize_t
sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	SseStream  *stream = cls;
	ssize_t		n = 0;
	int			quiet_ms = 0;

	pthread_mutex_lock(&stream->lock);
	while (stream->sent == stream->len && !stream->done)
	{
		struct timespec deadline;

		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_nsec += SSE_WATCH_MS * 1000000L;
		if (deadline.tv_nsec >= 1000000000L)
		{
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
		if (pthread_cond_timedwait(&stream->changed, &stream->lock, &deadline) != ETIMEDOUT)
			continue;
		if (client_gone(stream->client_fd))
		{
			pthread_mutex_unlock(&stream->lock);
			cancel_stream(stream);
			return MHD_CONTENT_READER_END_WITH_ERROR;
		}
		quiet_ms += SSE_WATCH_MS;
		if (quiet_ms >= SSE_KEEPALIVE_MS)
		{
			/* a comment line keeps proxies from closing a quiet stream */
			pthread_mutex_unlock(&stream->lock);
			memcpy(buf, ":\n\n", 3);
			return 3;
		}
	}
	if (stream->sent < stream->len)
	{
		n = (ssize_t) (stream->len - stream->sent < max ? stream->len - stream->sent : max);
		memcpy(buf, stream->events + stream->sent, (size_t) n);
		stream->sent += (size_t) n;
	}
	else
		n = MHD_CONTENT_READER_END_OF_STREAM;
	pthread_mutex_unlock(&stream->lock);
	return n;
}

/* has the client hung up (or reset) its connection? */
static bool
client_gone(int fd)
{
	struct pollfd pfd;

	if (fd < 0)
		return false;
	pfd.fd = fd;
	pfd.events = POLLRDHUP;
	pfd.revents = 0;
	return poll(&pfd, 1, 0) > 0 &&
		(pfd.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

/* cancel the stream's call if it still runs */
static void
cancel_stream(SseStream *stream)
{
	bool		done;

	pthread_mutex_lock(&stream->lock);
	done = stream->done;
	pthread_mutex_unlock(&stream->lock);
	if (!done && stream->id_key != NULL && !stream->cancel_sent)
	{
		stream->cancel_sent = true;
		mcp_log(MCP_LOG_INFO, "the client closed its stream; cancelling its call");
		if (mcp_inflight_cancel(stream->scope, stream->id_key, false))
			mcp_metrics_cancel(MCP_CANCEL_DISCONNECT);
	}
}

/* the response is gone (sent, or the client left): stop the call, free */
static void
sse_free(void *cls)
{
	SseStream  *stream = cls;

	cancel_stream(stream);
	pthread_join(stream->worker, NULL);
	/* the stream's bytes (its 200 was counted when queued) */
	mcp_metrics_http_response(0, stream->len);
	pthread_mutex_destroy(&stream->lock);
	pthread_cond_destroy(&stream->changed);
	free(stream->events);
	json_object_put(stream->message);
	free(stream->body);
	free(stream->role);
	free(stream->id_key);
	free(stream);
}

/*
 * Answer with an SSE stream: a worker thread runs the call while this
 * connection's thread sends what it queues.
 */
enum MHD_Result
http_start_sse(struct MHD_Connection *connection, HttpRequest *req,
			   McpContext *ctx, McpSession *session, json_object *message)
{
	SseStream  *stream = mcp_malloc(sizeof(SseStream));
	struct MHD_Response *response;
	enum MHD_Result result;

	memset(stream, 0, sizeof(*stream));
	pthread_mutex_init(&stream->lock, NULL);
	pthread_cond_init(&stream->changed, NULL);
	stream->session = *session;
	stream->ctx = *ctx;
	if (ctx->session == session)
	{
		stream->ctx.session = &stream->session;
		stream->ctx.scope = stream->session.id;
	}
	stream->role = req->role != NULL ? mcp_strdup(req->role) : NULL;
	stream->ctx.role = stream->role;
	snprintf(stream->scope, sizeof(stream->scope), "%s", stream->ctx.scope);
	stream->ctx.scope = stream->scope;
	stream->id_key = mcp_id_key(json_object_object_get(message, "id"));
	stream->message = message;
	/* the worker must not poll the socket: sse_read watches it */
	stream->client_fd = ctx->client_fd;
	stream->ctx.client_fd = -1;
	stream->ctx.progress = sse_progress;
	stream->ctx.progress_arg = stream;
	stream->body = req->body;
	stream->body_len = req->len;
	stream->start = req->start;
	req->body = NULL;
	if (pthread_create(&stream->worker, NULL, sse_work, stream) != 0)
	{
		json_object_put(stream->message);
		free(stream->body);
		free(stream->role);
		free(stream->id_key);
		free(stream);
		return http_respond_error(connection, 503, JSONRPC_INTERNAL_ERROR,
								  "Service Unavailable: could not start a worker");
	}
	response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, sse_read,
												 stream, sse_free);
	MHD_add_response_header(response, "Content-Type", "text/event-stream");
	MHD_add_response_header(response, "Cache-Control", "no-cache");
	MHD_add_response_header(response, "X-Accel-Buffering", "no");
	mcp_metrics_http_response(200, 0);
	result = MHD_queue_response(connection, 200, response);
	MHD_destroy_response(response);
	return result;
}
