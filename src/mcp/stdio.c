/*-------------------------------------------------------------------------
 *
 * stdio.c
 *	  Serving MCP over stdio: one session, messages in order, cancellable.
 *
 * A reader thread reads standard input while the main thread answers, so
 * that a notifications/cancelled for the request being answered is seen at
 * once: the reader applies it itself (calls.c sends the statement's cancel
 * request) instead of queueing it behind the request it cancels.  Every
 * other message is queued and answered in order by the main thread, which
 * is the only writer of standard output (answers, and progress
 * notifications for requests that asked for them).  The queue is bounded,
 * so a client that floods us is read no faster than it is answered.
 *
 * SIGTERM and SIGINT, taken by a signal thread with sigwait(), cancel what
 * is in flight; the program then exits after that answer, as at the end of
 * input.
 *
 * IDENTIFICATION
 *	  src/mcp/stdio.c
 *
 *-------------------------------------------------------------------------
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "neon_ai_tools_mcp.h"

/* at most this many messages wait to be answered */
#define QUEUE_LIMIT 64

typedef struct QueuedLine
{
	McpReadStatus status;
	char	   *text;			/* MCP_READ_MESSAGE: the line */
	size_t		len;
	struct QueuedLine *next;
} QueuedLine;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static QueuedLine *head = NULL;
static QueuedLine *tail = NULL;
static int	queued = 0;
static bool stopping = false;	/* a signal asked us to exit */

static McpSession session;		/* the one session of stdio */

static void *read_input(void *arg);
static void *wait_for_signal(void *arg);
static bool is_cancellation(const char *line, size_t len);
static void enqueue(McpReadStatus status, const char *text, size_t len);
static QueuedLine *dequeue(void);
static void write_progress(McpContext *ctx, double elapsed_ms);

/*
 * Serve until the end of input (or a signal).  Returns the exit code.
 */
int
mcp_serve_stdio(void)
{
	McpReader  *reader = mcp_malloc(sizeof(McpReader));
	pthread_t	reader_thread;
	pthread_t	signal_thread;
	sigset_t	signals;
	int			status = MCP_EXIT_OK;

	/* the signals go to the signal thread only */
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	pthread_sigmask(SIG_BLOCK, &signals, NULL);

	session.watch_catalog = true;
	/* the reader thread owns the reader (and frees it): see the end */
	mcp_reader_init(reader, stdin, MCP_MAX_MESSAGE_BYTES);
	if (pthread_create(&reader_thread, NULL, read_input, reader) != 0 ||
		pthread_create(&signal_thread, NULL, wait_for_signal, &signals) != 0)
	{
		mcp_log(MCP_LOG_ERROR, "could not start a thread");
		exit(MCP_EXIT_FATAL);
	}
	pthread_detach(signal_thread);

	for (;;)
	{
		QueuedLine *line = dequeue();
		McpContext	ctx;
		json_object *response = NULL;

		if (line == NULL)
			break;				/* a signal */
		if (line->status == MCP_READ_EOF || line->status == MCP_READ_FAILED)
		{
			if (line->status == MCP_READ_EOF)
				mcp_log(MCP_LOG_INFO, "end of input; exiting");
			else
			{
				mcp_log(MCP_LOG_ERROR, "could not read standard input");
				status = MCP_EXIT_FATAL;
			}
			free(line);
			break;
		}
		mcp_context_init(&ctx, &session);
		ctx.progress = write_progress;
		if (line->status == MCP_READ_TOO_LONG)
			response = jsonrpc_oversized_error(MCP_MAX_MESSAGE_BYTES);
		else
			response = jsonrpc_process_line(&ctx, line->text, line->len);
		free(line->text);
		free(line);
		if (response != NULL)
		{
			bool		ok = mcp_write_message(response);

			json_object_put(response);
			if (ok && ctx.list_changed)
			{
				json_object *notification = mcp_list_changed_notification();

				ok = mcp_write_message(notification);
				json_object_put(notification);
			}
			if (!ok)
			{
				status = MCP_EXIT_FATAL;
				break;
			}
		}
	}

	/*
	 * The reader may be blocked in a read (after a signal, or a failed
	 * write): leave it to the process's exit.  It frees its own reader, so
	 * nothing of this frame is left to it.
	 */
	pthread_mutex_lock(&lock);
	while (head != NULL)
	{
		QueuedLine *next = head->next;

		free(head->text);
		free(head);
		head = next;
	}
	pthread_mutex_unlock(&lock);
	pthread_detach(reader_thread);
	return status;
}

/*
 * The reader thread.
 */
static void *
read_input(void *arg)
{
	McpReader  *reader = arg;

	for (;;)
	{
		McpReadStatus rs = mcp_read_message(reader);

		if (rs == MCP_READ_MESSAGE && is_cancellation(reader->buf, reader->len))
		{
			McpContext	ctx;
			json_object *response;

			mcp_context_init(&ctx, &session);
			response = jsonrpc_process_line(&ctx, reader->buf, reader->len);
			json_object_put(response);	/* a notification has none */
			continue;
		}
		enqueue(rs, reader->buf, reader->len);
		if (rs == MCP_READ_EOF || rs == MCP_READ_FAILED)
			break;
	}
	mcp_reader_free(reader);
	free(reader);
	return NULL;
}

/*
 * The signal thread: SIGTERM or SIGINT cancels what runs and stops the
 * main loop after its current message.
 */
static void *
wait_for_signal(void *arg)
{
	sigset_t   *signals = arg;
	int			sig;

	if (sigwait(signals, &sig) != 0)
		return NULL;
	mcp_log(MCP_LOG_INFO, "%s received; cancelling what runs and exiting",
			sig == SIGTERM ? "SIGTERM" : "SIGINT");
	pthread_mutex_lock(&lock);
	stopping = true;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&lock);
	mcp_inflight_cancel_all();
	return NULL;
}

/*
 * Is this line a single notifications/cancelled?  A cheap test first: most
 * lines do not even contain the name.
 */
static bool
is_cancellation(const char *line, size_t len)
{
	json_object *message;
	json_object *method;
	bool		yes;

	if (memmem(line, len, "notifications/cancelled", 23) == NULL)
		return false;
	message = json_tokener_parse(line);
	yes = message != NULL && json_object_is_type(message, json_type_object) &&
		!json_object_object_get_ex(message, "id", NULL) &&
		json_object_object_get_ex(message, "method", &method) &&
		json_object_is_type(method, json_type_string) &&
		strcmp(json_object_get_string(method), "notifications/cancelled") == 0;
	json_object_put(message);
	return yes;
}

static void
enqueue(McpReadStatus status, const char *text, size_t len)
{
	QueuedLine *line = mcp_malloc(sizeof(QueuedLine));

	line->status = status;
	line->text = status == MCP_READ_MESSAGE ? mcp_strndup(text, len) : NULL;
	line->len = len;
	line->next = NULL;
	pthread_mutex_lock(&lock);
	while (queued >= QUEUE_LIMIT && !stopping)
		pthread_cond_wait(&changed, &lock);
	if (tail != NULL)
		tail->next = line;
	else
		head = line;
	tail = line;
	queued++;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&lock);
}

/* the next line, or NULL when a signal asked us to stop */
static QueuedLine *
dequeue(void)
{
	QueuedLine *line = NULL;

	pthread_mutex_lock(&lock);
	while (head == NULL && !stopping)
		pthread_cond_wait(&changed, &lock);
	if (!stopping)
	{
		line = head;
		head = line->next;
		if (head == NULL)
			tail = NULL;
		queued--;
		pthread_cond_broadcast(&changed);
	}
	pthread_mutex_unlock(&lock);
	return line;
}

/*
 * notifications/progress on standard output (the main thread is the only
 * writer).
 */
static void
write_progress(McpContext *ctx, double elapsed_ms)
{
	json_object *message = mcp_progress_notification(ctx, elapsed_ms);

	mcp_write_message(message);
	json_object_put(message);
}
