/*-------------------------------------------------------------------------
 *
 * http_limits.c
 *	  What one HTTP client may hold: time on a connection, and request slots.
 *
 * Connection deadlines.  libmicrohttpd's own timeout (idle_secs) counts
 * from the last byte received, so a client that sends one byte every few
 * seconds keeps its connection, and its thread, forever.  Here each
 * connection has an absolute deadline in every phase but one:
 *
 *	- from connecting until its first request is read in full (headers and
 *	  body): request_secs;
 *	- between requests on a kept-alive connection, until the next request
 *	  line: idle_secs, counted from the end of the previous answer;
 *	- from a request line until that request is read in full: request_secs;
 *	- while a request is answered (its statement runs, its SSE stream is
 *	  written): none; the call's own timeout applies;
 *	- from a JSON answer being queued until it is sent: idle_secs, so a
 *	  client that reads it a byte now and then cannot keep it (and the
 *	  request slot it holds until then) for longer.
 *
 * http_limits_sweep(), run about once a second, shuts down (shutdown(2),
 * not close: the socket stays libmicrohttpd's) each connection past its
 * deadline; libmicrohttpd then sees the end of the stream and closes it.
 * Together with the per-address connection limit (libmicrohttpd's), a
 * client that sends nothing valid holds at most that many slots for at
 * most request_secs each.
 *
 * Request slots.  At most max_requests requests are answered at once
 * (more: 503), and at most per_identity of them for one identity (the
 * token; "" without authentication), so one caller cannot take every slot.
 * A slot is held until its answer is sent, and a client may read its
 * answer and send its next request (on another connection) before the
 * thread that sent it has given the slot back: a request that finds no
 * slot waits up to SLOT_WAIT_MS for one before it is refused, so a client
 * that keeps within the limits is never refused for that race.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/http_limits.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "transport/http_int.h"

typedef enum ConnPhase
{
	PHASE_READING,				/* a request is being received */
	PHASE_BUSY,					/* a request is being answered */
	PHASE_WRITING,				/* its answer is being sent */
	PHASE_IDLE					/* kept alive, between requests */
} ConnPhase;

typedef struct HttpConn
{
	int			fd;
	ConnPhase	phase;
	double		deadline;		/* mcp_now_ms() past which it is shut down */
	bool		shut;
	struct HttpConn *prev;
	struct HttpConn *next;
} HttpConn;

/* one identity's requests in progress */
typedef struct IdentitySlots
{
	char		identity[MCP_IDENTITY_LEN + 1];
	int			count;
} IdentitySlots;

/* how long a request waits for a slot that is being given back */
#define SLOT_WAIT_MS 250

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t slot_freed = PTHREAD_COND_INITIALIZER;
static HttpConn *conns = NULL;
static double request_ms = 10000;
static double idle_ms = 60000;
static int	max_requests = 16;
static int	per_identity = 8;
static int	in_progress = 0;
static IdentitySlots *slots = NULL;

static void set_phase(struct MHD_Connection *connection, ConnPhase phase,
					  double ms);

/*
 * Set the limits (before the daemon starts).
 */
void
http_limits_configure(int request_secs, int idle_secs, int requests,
					  int requests_per_identity)
{
	request_ms = request_secs * 1000.0;
	idle_ms = idle_secs * 1000.0;
	max_requests = requests;
	per_identity = requests_per_identity;
	free(slots);
	slots = mcp_malloc(sizeof(IdentitySlots) * (size_t) requests);
	memset(slots, 0, sizeof(IdentitySlots) * (size_t) requests);
}

/*
 * libmicrohttpd's MHD_OPTION_NOTIFY_CONNECTION: a connection opened or
 * closed.
 */
void
http_limits_notify(void *cls, struct MHD_Connection *connection,
				   void **socket_context, enum MHD_ConnectionNotificationCode toe)
{
	HttpConn   *conn = *socket_context;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED)
	{
		const union MHD_ConnectionInfo *info =
			MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);

		conn = mcp_malloc(sizeof(HttpConn));
		memset(conn, 0, sizeof(*conn));
		conn->fd = info != NULL ? info->connect_fd : -1;
		conn->phase = PHASE_READING;
		conn->deadline = mcp_now_ms() + request_ms;
		pthread_mutex_lock(&lock);
		conn->next = conns;
		if (conns != NULL)
			conns->prev = conn;
		conns = conn;
		pthread_mutex_unlock(&lock);
		*socket_context = conn;
		return;
	}
	if (conn == NULL)
		return;
	pthread_mutex_lock(&lock);
	if (conn->prev != NULL)
		conn->prev->next = conn->next;
	else
		conns = conn->next;
	if (conn->next != NULL)
		conn->next->prev = conn->prev;
	pthread_mutex_unlock(&lock);
	free(conn);
	*socket_context = NULL;
}

/*
 * libmicrohttpd's MHD_OPTION_URI_LOG_CALLBACK: a request line arrived.
 * Returns NULL (the access handler's state starts empty).
 */
void *
http_limits_request_line(void *cls, const char *uri,
						 struct MHD_Connection *connection)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	HttpConn   *conn = info != NULL ? info->socket_context : NULL;
	bool		idle;

	/* a new connection's deadline runs from the connect, not from here */
	pthread_mutex_lock(&lock);
	idle = conn != NULL && conn->phase == PHASE_IDLE;
	pthread_mutex_unlock(&lock);
	if (idle)
		set_phase(connection, PHASE_READING, request_ms);
	return NULL;
}

/* the request is read in full (or answered early): no deadline now */
void
http_limits_request_read(struct MHD_Connection *connection)
{
	set_phase(connection, PHASE_BUSY, 0);
}

/* a JSON answer is queued: it must be read within idle_secs */
void
http_limits_answer_queued(struct MHD_Connection *connection)
{
	set_phase(connection, PHASE_WRITING, idle_ms);
}

/* the request is answered: the connection may idle until the next one */
void
http_limits_request_done(struct MHD_Connection *connection)
{
	set_phase(connection, PHASE_IDLE, idle_ms);
}

static void
set_phase(struct MHD_Connection *connection, ConnPhase phase, double ms)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	HttpConn   *conn = info != NULL ? info->socket_context : NULL;

	if (conn == NULL)
		return;
	pthread_mutex_lock(&lock);
	conn->phase = phase;
	conn->deadline = mcp_now_ms() + ms;
	pthread_mutex_unlock(&lock);
}

/*
 * Shut down every connection past its deadline.  Returns how many.
 */
int
http_limits_sweep(void)
{
	double		now = mcp_now_ms();
	int			n = 0;
	HttpConn   *conn;

	pthread_mutex_lock(&lock);
	for (conn = conns; conn != NULL; conn = conn->next)
		if (conn->phase != PHASE_BUSY && !conn->shut && now > conn->deadline &&
			conn->fd >= 0)
		{
			shutdown(conn->fd, SHUT_RDWR);
			conn->shut = true;
			n++;
		}
	pthread_mutex_unlock(&lock);
	if (n > 0)
		mcp_log(MCP_LOG_INFO, "closed %d connection%s that sent no complete request, or read no answer, in time",
				n, n == 1 ? "" : "s");
	return n;
}

/*
 * The slots of identity in use, or NULL; with the lock held.
 */
static IdentitySlots *
identity_slots(const char *identity)
{
	int			i;

	for (i = 0; i < max_requests; i++)
	{
		if (slots[i].count > 0 && strcmp(slots[i].identity, identity) == 0)
			return &slots[i];
	}
	return NULL;
}

/*
 * Take a request slot for identity (NULL: ""): 0, or 503 when every slot
 * is taken, 429 when identity has its share.
 */
int
http_limits_enter(const char *identity)
{
	IdentitySlots *mine;
	struct timespec until;
	int			status;
	int			i;

	if (identity == NULL)
		identity = "";
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += SLOT_WAIT_MS * 1000000L;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&lock);
	for (;;)
	{
		mine = identity_slots(identity);
		if (in_progress >= max_requests)
			status = 503;
		else if (mine != NULL && mine->count >= per_identity)
			status = 429;
		else
			status = 0;
		if (status == 0 ||
			pthread_cond_timedwait(&slot_freed, &lock, &until) == ETIMEDOUT)
			break;
	}
	if (status == 0)
	{
		/* a free entry: fewer identities than slots are in progress */
		for (i = 0; mine == NULL && i < max_requests; i++)
		{
			if (slots[i].count == 0)
			{
				mine = &slots[i];
				snprintf(mine->identity, sizeof(mine->identity), "%s", identity);
			}
		}
		mine->count++;
		in_progress++;
	}
	pthread_mutex_unlock(&lock);
	return status;
}

/*
 * Give back a slot http_limits_enter() gave.
 */
void
http_limits_leave(const char *identity)
{
	IdentitySlots *mine;

	if (identity == NULL)
		identity = "";
	pthread_mutex_lock(&lock);
	mine = identity_slots(identity);
	if (mine != NULL)
	{
		mine->count--;
		in_progress--;
		pthread_cond_broadcast(&slot_freed);
	}
	pthread_mutex_unlock(&lock);
}
