/*-------------------------------------------------------------------------
 *
 * http_batch.c
 *	  Answering a JSON-RPC batch over HTTP as it is run.
 *
 * A batch (2025-03-26 sessions) is answered with one JSON array, written
 * out member by member: libmicrohttpd asks for more of the body
 * (http_batch_read, in the connection's thread) and each time the next
 * member is run (batch.c) and its answer sent, chunked.  So a batch holds
 * one member's answer at a time, whatever its size, and a client that
 * closes the connection stops it (the member running is cancelled, the
 * rest are not run).
 *
 * The HTTP status must be sent first: the members are run until the first
 * answer, and a batch with none (every member a notification) is answered
 * 202 with no body, as before.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/http_batch.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "transport/http_int.h"
#include "base/metrics.h"

/* how much libmicrohttpd asks for at once */
#define BATCH_BLOCK_BYTES (32 * 1024)

typedef struct BatchStream
{
	McpContext	ctx;
	McpSession	session;
	McpBatch	batch;
	char	   *body;			/* the batch's text, taken from the request */
	const char *role;			/* the request's (it outlives the stream's
								 * reads) */
	double		start;
	char	   *pending;		/* answer text not yet sent */
	size_t		pending_len;
	size_t		pending_sent;
	size_t		total;			/* bytes sent */
	bool		done;			/* the closing bracket is pending or sent */
} BatchStream;

static ssize_t batch_read(void *cls, uint64_t pos, char *buf, size_t max);
static void batch_free(void *cls);
static void set_pending(BatchStream *stream, const char *before, char *txt);

/*
 * Answer the batch in message (parsed as an empty array; its text is the
 * request's body) by streaming.  ctx is the request's context, whose
 * session is *session.
 */
enum MHD_Result
http_answer_batch(struct MHD_Connection *connection, HttpRequest *req,
				  McpContext *ctx, McpSession *session)
{
	BatchStream *stream = mcp_malloc(sizeof(BatchStream));
	json_object *error;
	struct MHD_Response *response;
	enum MHD_Result result;
	char	   *first = NULL;

	memset(stream, 0, sizeof(*stream));
	stream->session = *session;
	stream->ctx = *ctx;
	if (ctx->session == session)
	{
		stream->ctx.session = &stream->session;
		stream->ctx.scope = stream->session.id;
	}
	stream->body = req->body;
	req->body = NULL;
	stream->role = req->role;
	stream->start = req->start;
	if (!mcp_batch_begin(&stream->ctx, &stream->batch, stream->body != NULL ? stream->body : "",
						 req->len, &error))
	{
		char	   *txt = jsonrpc_to_text(error);

		json_object_put(error);
		http_log_request("-", &stream->ctx, req->role, 400, req->start);
		batch_free(stream);
		return http_respond(connection, 400, "application/json", txt, NULL, NULL);
	}
	/* the status goes first: run up to the first answer */
	while (first == NULL && !stream->done)
		first = mcp_batch_next(&stream->ctx, &stream->batch, &stream->done);
	if (first == NULL)
	{
		http_log_request(stream->ctx.method[0] ? stream->ctx.method : "-", &stream->ctx,
						 req->role, 202, req->start);
		batch_free(stream);
		return http_respond(connection, 202, NULL, NULL, NULL, NULL);
	}
	stream->done = false;
	set_pending(stream, "[", first);
	response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, BATCH_BLOCK_BYTES,
												 batch_read, stream, batch_free);
	if (response == NULL)
	{
		batch_free(stream);
		return MHD_NO;
	}
	MHD_add_response_header(response, "Content-Type", "application/json");
	mcp_metrics_http_response(200, 0);
	result = MHD_queue_response(connection, 200, response);
	MHD_destroy_response(response);
	return result;
}

/*
 * libmicrohttpd's content reader: up to max bytes of the answer; the
 * next member runs when what was made is sent.
 */
static ssize_t
batch_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	BatchStream *stream = cls;
	size_t		n;

	while (stream->pending_sent == stream->pending_len)
	{
		bool		last = false;
		char	   *txt;

		if (stream->done)
		{
			http_log_request(stream->ctx.method[0] ? stream->ctx.method : "-",
							 &stream->ctx, stream->role, 200, stream->start);
			return MHD_CONTENT_READER_END_OF_STREAM;
		}
		txt = mcp_batch_next(&stream->ctx, &stream->batch, &last);

		if (txt != NULL)
			set_pending(stream, ",", txt);
		else if (last)
		{
			set_pending(stream, "]", NULL);
			stream->done = true;
		}
	}
	n = stream->pending_len - stream->pending_sent;
	if (n > max)
		n = max;
	memcpy(buf, stream->pending + stream->pending_sent, n);
	stream->pending_sent += n;
	stream->total += n;
	return (ssize_t) n;
}

/* the next text to send: before (one character) then text (taken over) */
static void
set_pending(BatchStream *stream, const char *before, char *txt)
{
	size_t		len = txt != NULL ? strlen(txt) : 0;

	free(stream->pending);
	stream->pending = mcp_malloc(len + 2);
	stream->pending[0] = before[0];
	if (txt != NULL)
		memcpy(stream->pending + 1, txt, len);
	stream->pending[len + 1] = '\0';
	stream->pending_len = len + 1;
	stream->pending_sent = 0;
	free(txt);
}

static void
batch_free(void *cls)
{
	BatchStream *stream = cls;

	/* the stream's bytes (its 200 was counted when queued) */
	mcp_metrics_http_response(0, stream->total);
	free(stream->pending);
	free(stream->body);
	mcp_release_memory(stream->total);
	free(stream);
}
