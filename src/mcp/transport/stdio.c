/*-------------------------------------------------------------------------
 *
 * stdio.c
 *	  Serving MCP over stdio: one session, messages in order, cancellable.
 *
 * The main thread reads standard input itself and answers each message in
 * order; it is the only writer of standard output (answers, and progress
 * notifications for requests that asked for them).  Before each message
 * runs, and while its statement runs (db.c watches standard input for us:
 * watch_input), we read ahead: a notifications/cancelled is applied at once
 * (calls.c sends the statement's cancel request, or remembers it for a
 * request not begun yet), and other messages are kept, in order, to be
 * answered next.  At most QUEUE_LIMIT are kept; past that
 * standard input is not watched until they are answered, so a client that
 * floods us is read no faster than it is answered.
 *
 * Standard input used to be read by a thread of its own that handed every
 * message to the main thread.  Waking another thread for each message cost
 * about 25 us a round trip, a third of the program's own time per call
 * (test/bench/README.md, "MCP stdio").
 *
 * SIGTERM and SIGINT, taken by a signal thread with sigwait(), cancel what
 * is in flight and wake the main thread through a pipe; the program then
 * exits after the answer in progress, as at the end of input.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/stdio.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol/protocol.h"
#include "transport/transport.h"

/* at most this many messages (and one more) read ahead of the one answered */
#define QUEUE_LIMIT 64

typedef struct QueuedLine
{
	McpReadStatus status;
	char	   *txt;			/* MCP_READ_MESSAGE: the line */
	size_t		len;
	struct QueuedLine *next;
} QueuedLine;

static McpSession session;		/* the one session of stdio */
static McpReader reader;		/* standard input */

/* messages read while a statement ran, oldest first (main thread only) */
static QueuedLine *head = NULL;
static QueuedLine *tail = NULL;
static int	queued = 0;

/* set by the signal thread */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool stopping = false;
static int	wake_pipe[2] = {-1, -1};

static bool open_wake_pipe(void);
static QueuedLine *next_line(void);
static bool wait_for_input(void);
static QueuedLine *take_line(McpReadStatus status);
static void watch_input(McpContext *ctx);
static bool read_ahead(void);
static void *wait_for_signal(void *arg);
static bool is_stopping(void);
static bool is_cancellation(const char *line, size_t len);
static void write_progress(McpContext *ctx, double elapsed_ms);

/*
 * Serve until the end of input (or a signal).  Returns the exit code.
 */
int
mcp_serve_stdio(void)
{
	pthread_t	signal_thread;
	sigset_t	signals;
	int			status = MCP_EXIT_OK;

	/* the signals go to the signal thread only */
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	pthread_sigmask(SIG_BLOCK, &signals, NULL);

	session.watch_catalog = true;
	mcp_reader_init(&reader, STDIN_FILENO, MCP_MAX_MESSAGE_BYTES);
	if (!open_wake_pipe() ||
		pthread_create(&signal_thread, NULL, wait_for_signal, &signals) != 0)
	{
		mcp_log(MCP_LOG_ERROR, "could not start a thread");
		exit(MCP_EXIT_FATAL);
	}
	pthread_detach(signal_thread);

	for (;;)
	{
		QueuedLine *line = next_line();
		McpContext	ctx;
		json_object *response = NULL;
		double		start;

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
		start = mcp_now_ms();
		mcp_context_init(&ctx, &session);
		ctx.progress = write_progress;
		ctx.input_fd = STDIN_FILENO;
		ctx.watch_input = watch_input;
		if (line->status == MCP_READ_TOO_LONG)
			response = jsonrpc_oversized_error(MCP_MAX_MESSAGE_BYTES);
		else
			response = jsonrpc_process_line(&ctx, line->txt, line->len);
		free(line->txt);
		free(line);
		/* -v: a line per message, as --http writes one per request */
		mcp_log_request(MCP_LOG_INFO, ctx.method[0] ? ctx.method : "-", &ctx,
						NULL, 0, start);
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

	while (head != NULL)
	{
		QueuedLine *next = head->next;

		free(head->txt);
		free(head);
		head = next;
	}
	mcp_reader_free(&reader);
	return status;
}

/*
 * The pipe through which the signal thread wakes the main loop, on
 * descriptors above standard error and not inherited by anything the
 * program runs.  A closed standard input must not become it: left closed,
 * its first read fails ("could not read standard input", exit 2).
 */
static bool
open_wake_pipe(void)
{
	int			i;

	if (pipe(wake_pipe) != 0)
		return false;
	for (i = 0; i < 2; i++)
	{
		int			fd = fcntl(wake_pipe[i], F_DUPFD_CLOEXEC, STDERR_FILENO + 1);

		if (fd < 0)
			return false;
		close(wake_pipe[i]);
		wake_pipe[i] = fd;
	}
	return true;
}

/*
 * The next message to answer: one read while a statement ran, else the next
 * one on standard input, waiting for it.  NULL when a signal asked us to
 * stop.
 */
static QueuedLine *
next_line(void)
{
	for (;;)
	{
		QueuedLine *line = NULL;
		McpReadStatus rs;

		if (is_stopping())
			return NULL;
		if (head != NULL)
		{
			line = head;
			head = line->next;
			if (head == NULL)
				tail = NULL;
			queued--;
		}
		else if ((rs = mcp_reader_next(&reader)) != MCP_READ_NONE)
			line = take_line(rs);
		if (line != NULL)
		{
			/*
			 * What came with it, a cancellation above all, is seen before it
			 * runs (calls.c keeps a cancellation for a request not begun).
			 */
			read_ahead();
			return line;
		}
		if (!wait_for_input())
			return NULL;
		mcp_reader_fill(&reader);
	}
}

/*
 * Wait until standard input can be read (or is closed).  False when the
 * signal thread woke us instead.
 */
static bool
wait_for_input(void)
{
	struct pollfd pfd[2];

	pfd[0].fd = STDIN_FILENO;
	pfd[0].events = POLLIN;
	pfd[1].fd = wake_pipe[0];
	pfd[1].events = POLLIN;
	for (;;)
	{
		pfd[0].revents = pfd[1].revents = 0;
		if (poll(pfd, 2, -1) >= 0)
			return pfd[1].revents == 0;
		if (errno != EINTR)
			return true;		/* let read() report what is wrong */
	}
}

/* a copy of what mcp_reader_next returned, to answer later */
static QueuedLine *
take_line(McpReadStatus status)
{
	QueuedLine *line = mcp_malloc(sizeof(QueuedLine));

	line->status = status;
	line->txt = status == MCP_READ_MESSAGE
		? mcp_strndup(reader.line, reader.len) : NULL;
	line->len = status == MCP_READ_MESSAGE ? reader.len : 0;
	line->next = NULL;
	return line;
}

/*
 * db.c calls this while a statement runs (McpInputFn), when standard input
 * is readable: read what it has, and go on reading ahead.
 */
static void
watch_input(McpContext *ctx)
{
	/* full: read no further until answered (the pipe holds the rest) */
	if (queued > QUEUE_LIMIT || !mcp_reader_fill(&reader))
		ctx->input_fd = -1;		/* at the end: the main loop sees it after
								 * this answer */
	else if (!read_ahead())
		ctx->input_fd = -1;
}

/*
 * Take the complete messages already read: apply cancellations at once,
 * keep the rest in order.  Returns false when the queue is full: it holds
 * QUEUE_LIMIT messages and one more, so that a cancellation right behind
 * QUEUE_LIMIT messages is still applied.
 */
static bool
read_ahead(void)
{
	while (queued <= QUEUE_LIMIT)
	{
		McpReadStatus rs = mcp_reader_next(&reader);
		QueuedLine *line;

		if (rs == MCP_READ_NONE || rs == MCP_READ_EOF || rs == MCP_READ_FAILED)
			return true;
		if (rs == MCP_READ_MESSAGE && is_cancellation(reader.line, reader.len))
		{
			McpContext	cancel_ctx;

			mcp_context_init(&cancel_ctx, &session);
			json_object_put(jsonrpc_process_line(&cancel_ctx, reader.line,
												 reader.len));
			continue;
		}
		line = take_line(rs);
		if (tail != NULL)
			tail->next = line;
		else
			head = line;
		tail = line;
		queued++;
	}
	return false;
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
	ssize_t		written;

	if (sigwait(signals, &sig) != 0)
		return NULL;
	mcp_log(MCP_LOG_INFO, "%s received; cancelling what runs and exiting",
			sig == SIGTERM ? "SIGTERM" : "SIGINT");
	pthread_mutex_lock(&lock);
	stopping = true;
	pthread_mutex_unlock(&lock);
	written = write(wake_pipe[1], "", 1);
	(void) written;				/* the pipe is empty: it cannot fail */
	mcp_inflight_cancel_all();
	return NULL;
}

static bool
is_stopping(void)
{
	bool		yes;

	pthread_mutex_lock(&lock);
	yes = stopping;
	pthread_mutex_unlock(&lock);
	return yes;
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
