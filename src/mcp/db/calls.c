/*-------------------------------------------------------------------------
 *
 * calls.c
 *	  Requests in flight, so that notifications/cancelled can stop them.
 *
 * Each request that may run a statement registers here with its scope (who
 * may cancel it: the stdio session "", an HTTP session id, or over stateless
 * HTTP the authenticated role) and its JSON-RPC id as text.  While its
 * statement runs, db.c attaches the connection's PGcancel; a cancel from
 * any thread (stdio's reader, another HTTP request, SIGTERM) then sends
 * libpq's cancel request at once, which is safe from any thread, and the
 * waiting thread gets the server's 57014 within a round trip.
 *
 * Over stdio, a cancel that arrives before its request registered (stdio
 * reads ahead) is remembered in a small ring and applied when the request
 * begins, unless a request with that id ended lately (the cancel came
 * too late: it is dropped, so a later request reusing the id runs);
 * stdio has one session and one user.  Over HTTP a cancel applies
 * only to a request of the same scope in flight at that moment: one for a
 * finished or unknown id is dropped, so it can neither stop a later request
 * that reuses the id nor push another caller's cancels out of the ring.
 *
 * IDENTIFICATION
 *	  src/mcp/db/calls.c
 *
 *-------------------------------------------------------------------------
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "libpq-fe.h"
#include "db/db.h"
#include "db/calls.h"

/* cancels remembered for requests not yet begun */
#define EARLY_CANCELS 16
/* requests ended lately: a cancel for one of them is late, not early */
#define FINISHED_KEYS 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static McpInflight *inflight_list = NULL;
static int	inflight_n = 0;
static char *early[EARLY_CANCELS];
static int	early_next = 0;
static char *finished[FINISHED_KEYS];
static int	finished_next = 0;

static char *scoped_key(const char *scope, const char *id_text);
static void send_cancel(McpInflight *inflight);

/*
 * Register a request.  scope and id_text are copied.
 */
McpInflight *
mcp_inflight_begin(const char *scope, const char *id_text)
{
	McpInflight *inflight = mcp_malloc(sizeof(McpInflight));
	int			i;

	memset(inflight, 0, sizeof(*inflight));
	inflight->key = scoped_key(scope, id_text);
	pthread_mutex_lock(&lock);
	for (i = 0; i < EARLY_CANCELS; i++)
		if (early[i] != NULL && strcmp(early[i], inflight->key) == 0)
		{
			inflight->cancelled = true;
			free(early[i]);
			early[i] = NULL;
		}
	inflight->next = inflight_list;
	inflight_list = inflight;
	inflight_n++;
	pthread_mutex_unlock(&lock);
	return inflight;
}

/*
 * Unregister and free a request.
 */
void
mcp_inflight_end(McpInflight *inflight)
{
	McpInflight **p;

	if (inflight == NULL)
		return;
	pthread_mutex_lock(&lock);
	for (p = &inflight_list; *p != NULL; p = &(*p)->next)
		if (*p == inflight)
		{
			*p = inflight->next;
			inflight_n--;
			break;
		}
	free(finished[finished_next]);
	finished[finished_next] = inflight->key;
	finished_next = (finished_next + 1) % FINISHED_KEYS;
	pthread_mutex_unlock(&lock);
	free(inflight);
}

/*
 * Cancel the request id_text of scope.  Returns whether it was in flight;
 * if not, and remember is set (stdio), the cancel is remembered for a
 * request that begins later; otherwise it is dropped.
 */
bool
mcp_inflight_cancel(const char *scope, const char *id_text, bool remember)
{
	char	   *key = scoped_key(scope, id_text);
	McpInflight *inflight;
	bool		found = false;

	pthread_mutex_lock(&lock);
	for (inflight = inflight_list; inflight != NULL; inflight = inflight->next)
		if (strcmp(inflight->key, key) == 0)
		{
			send_cancel(inflight);
			found = true;
		}
	for (int i = 0; !found && remember && i < FINISHED_KEYS; i++)
		if (finished[i] != NULL && strcmp(finished[i], key) == 0)
		{
			/* it ended already: forget it, so it is not dropped twice */
			free(finished[i]);
			finished[i] = NULL;
			remember = false;
		}
	if (!found && remember)
	{
		free(early[early_next]);
		early[early_next] = key;
		early_next = (early_next + 1) % EARLY_CANCELS;
		key = NULL;
	}
	pthread_mutex_unlock(&lock);
	free(key);
	return found;
}

/*
 * Cancel every request in flight (shutdown).
 */
void
mcp_inflight_cancel_all(void)
{
	McpInflight *inflight;

	pthread_mutex_lock(&lock);
	for (inflight = inflight_list; inflight != NULL; inflight = inflight->next)
		send_cancel(inflight);
	pthread_mutex_unlock(&lock);
}

/*
 * Free the remembered cancels and ended requests (at exit).
 */
void
mcp_inflight_forget(void)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < EARLY_CANCELS; i++)
	{
		free(early[i]);
		early[i] = NULL;
	}
	for (int i = 0; i < FINISHED_KEYS; i++)
	{
		free(finished[i]);
		finished[i] = NULL;
	}
	pthread_mutex_unlock(&lock);
}

/*
 * How many requests are in flight.
 */
int
mcp_inflight_count(void)
{
	int			n;

	pthread_mutex_lock(&lock);
	n = inflight_n;
	pthread_mutex_unlock(&lock);
	return n;
}

/*
 * db.c: a statement of this request is about to be sent on a connection
 * whose cancel object is cancel.  Returns false if the request was
 * cancelled already (then nothing must be sent).
 */
bool
mcp_inflight_attach(McpInflight *inflight, PGcancel *cancel)
{
	bool		go;

	if (inflight == NULL)
		return true;
	pthread_mutex_lock(&lock);
	go = !inflight->cancelled;
	inflight->cancel = go ? cancel : NULL;
	pthread_mutex_unlock(&lock);
	return go;
}

/*
 * db.c: the statement ended; returns whether the request was cancelled.
 */
bool
mcp_inflight_detach(McpInflight *inflight)
{
	bool		cancelled;

	if (inflight == NULL)
		return false;
	pthread_mutex_lock(&lock);
	inflight->cancel = NULL;
	cancelled = inflight->cancelled;
	pthread_mutex_unlock(&lock);
	return cancelled;
}

/*
 * db.c: the client went away (an HTTP disconnect): cancel this request.
 */
void
mcp_inflight_cancel_one(McpInflight *inflight)
{
	pthread_mutex_lock(&lock);
	send_cancel(inflight);
	pthread_mutex_unlock(&lock);
}

/* under lock */
static void
send_cancel(McpInflight *inflight)
{
	char		errbuf[256];

	if (inflight->cancelled)
		return;
	inflight->cancelled = true;
	if (inflight->cancel != NULL &&
		!PQcancel(inflight->cancel, errbuf, sizeof(errbuf)))
		mcp_log(MCP_LOG_WARNING, "could not send a cancel request: %s", errbuf);
}

static char *
scoped_key(const char *scope, const char *id_text)
{
	return mcp_psprintf("%s\x1f%s", scope != NULL ? scope : "",
						id_text != NULL ? id_text : "");
}
