/*-------------------------------------------------------------------------
 *
 * http_session.c
 *	  The sessions of the session-based MCP revisions over HTTP.
 *
 * initialize makes a session; its id (128 random bits, hex) goes back in
 * the Mcp-Session-Id header and must come with every later request of that
 * session.  A session belongs to the caller that made it (the token's role,
 * or "" without authentication): another caller presenting its id gets 404
 * as for an unknown one.  Sessions end with DELETE, after SESSION_IDLE_SECS
 * without a request, or when the table is full (the least recently used
 * goes first).  2026-07-28 has no sessions.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/http_session.c
 *
 *-------------------------------------------------------------------------
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "transport/http.h"
#include "base/metrics.h"

#define MAX_SESSIONS 1024
#define SESSION_IDLE_SECS 3600

typedef struct HttpSession
{
	McpSession	mcp;			/* id and revision */
	char	   *owner;			/* the role that made it, or "" */
	time_t		last_used;
	unsigned long long use_seq; /* orders uses within a second too */
	bool		in_use;
} HttpSession;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static HttpSession sessions[MAX_SESSIONS];
static int	per_owner = 64;
static unsigned long long use_counter = 0;	/* under lock */

static void end_session(HttpSession *session);
static HttpSession *slot_for(const char *owner);

/*
 * Sessions one owner may have (--max-sessions-per-token).
 */
void
http_session_configure(int max_per_owner)
{
	if (max_per_owner > 0)
		per_owner = max_per_owner < MAX_SESSIONS ? max_per_owner : MAX_SESSIONS;
}

/*
 * A new session for owner, not yet usable by others until
 * http_session_publish().  NULL if no random id could be made.
 */
McpSession *
http_session_new(const char *owner)
{
	HttpSession *session = mcp_malloc(sizeof(HttpSession));
	unsigned char bits[16];
	int			i;

	if (getrandom(bits, sizeof(bits), 0) != (ssize_t) sizeof(bits))
	{
		free(session);
		return NULL;
	}
	memset(session, 0, sizeof(*session));
	for (i = 0; i < (int) sizeof(bits); i++)
		snprintf(session->mcp.id + 2 * i, 3, "%02x", bits[i]);
	session->owner = mcp_strdup(owner != NULL ? owner : "");
	return &session->mcp;
}

/*
 * Keep a session initialize succeeded for (copied into the table), or
 * drop it (ok false).
 */
void
http_session_publish(McpSession *mcp, bool ok)
{
	HttpSession *fresh = (HttpSession *) mcp;
	HttpSession *slot;

	if (ok)
	{
		pthread_mutex_lock(&lock);
		slot = slot_for(fresh->owner);
		if (slot->in_use && time(NULL) - slot->last_used > SESSION_IDLE_SECS)
			mcp_metrics_session(MCP_SESSION_EXPIRED);
		else if (slot->in_use)
		{
			mcp_metrics_session(MCP_SESSION_EVICTED);
			mcp_log(MCP_LOG_INFO, "session table: ended the least recently used session of %s",
					strcmp(slot->owner, fresh->owner) == 0 ? "the same token" : "the token with the most sessions");
		}
		mcp_metrics_session(MCP_SESSION_CREATED);
		end_session(slot);
		*slot = *fresh;
		slot->in_use = true;
		slot->last_used = time(NULL);
		slot->use_seq = ++use_counter;
		fresh->owner = NULL;
		pthread_mutex_unlock(&lock);
	}
	free(fresh->owner);
	free(fresh);
}

/*
 * Find session id of owner.  Copies it into *copy (the revision pointer is
 * a constant) and returns true, or false if there is none.
 */
bool
http_session_find(const char *id, const char *owner, McpSession *copy)
{
	bool		found = false;
	int			i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < MAX_SESSIONS && !found; i++)
	{
		HttpSession *session = &sessions[i];

		if (!session->in_use || strcmp(session->mcp.id, id) != 0)
			continue;
		if (time(NULL) - session->last_used > SESSION_IDLE_SECS)
			end_session(session);
		else if (strcmp(session->owner, owner != NULL ? owner : "") == 0)
		{
			session->last_used = time(NULL);
			session->use_seq = ++use_counter;
			*copy = session->mcp;
			found = true;
		}
	}
	pthread_mutex_unlock(&lock);
	return found;
}

/*
 * End session id of owner (DELETE).  Returns whether it existed.
 */
bool
http_session_end(const char *id, const char *owner)
{
	bool		found = false;
	int			i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < MAX_SESSIONS; i++)
		if (sessions[i].in_use && strcmp(sessions[i].mcp.id, id) == 0 &&
			strcmp(sessions[i].owner, owner != NULL ? owner : "") == 0)
		{
			end_session(&sessions[i]);
			mcp_metrics_session(MCP_SESSION_DELETED);
			found = true;
		}
	pthread_mutex_unlock(&lock);
	return found;
}

/*
 * Forget every session (at exit).
 */
void
http_session_forget_all(void)
{
	int			i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < MAX_SESSIONS; i++)
		end_session(&sessions[i]);
	pthread_mutex_unlock(&lock);
}

/*
 * Under lock: the slot a new session of owner takes.  A free or expired
 * slot; else owner's own least recently used session when it has its
 * share; else the least recently used session of the owner with the most.
 */
static HttpSession *
slot_for(const char *owner)
{
	HttpSession *own_oldest = NULL;
	HttpSession *free_slot = NULL;
	HttpSession *victim = NULL;
	int			own = 0;
	int			most = 0;
	int			i;

	for (i = 0; i < MAX_SESSIONS; i++)
	{
		HttpSession *s = &sessions[i];

		if (!s->in_use || time(NULL) - s->last_used > SESSION_IDLE_SECS)
		{
			if (free_slot == NULL)
				free_slot = s;
			continue;
		}
		if (strcmp(s->owner, owner) == 0)
		{
			own++;
			if (own_oldest == NULL || s->use_seq < own_oldest->use_seq)
				own_oldest = s;
		}
	}
	if (own >= per_owner)
		return own_oldest;
	if (free_slot != NULL)
		return free_slot;
	/* full: the owner with the most sessions gives up its oldest */
	for (i = 0; i < MAX_SESSIONS; i++)
	{
		HttpSession *s = &sessions[i];
		int			n = 0;

		if (victim != NULL && strcmp(s->owner, victim->owner) == 0)
		{
			if (s->use_seq < victim->use_seq)
				victim = s;
			continue;
		}
		for (int j = 0; j < MAX_SESSIONS; j++)
			n += strcmp(sessions[j].owner, s->owner) == 0;
		if (n > most)
		{
			most = n;
			victim = s;
		}
	}
	return victim;
}

/*
 * After a reload: end the sessions whose owner is no longer current.
 * Returns how many.
 */
int
http_session_end_stale(bool (*current) (const char *owner))
{
	int			n = 0;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < MAX_SESSIONS; i++)
		if (sessions[i].in_use && !current(sessions[i].owner))
		{
			end_session(&sessions[i]);
			mcp_metrics_session(MCP_SESSION_REVOKED);
			n++;
		}
	pthread_mutex_unlock(&lock);
	return n;
}

/*
 * The metrics' gauge (base/metrics.c; http.c hands this function over):
 * sessions open now (not idle past their limit).
 */
int
http_session_open_count(void)
{
	time_t		now = time(NULL);
	int			n = 0;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < MAX_SESSIONS; i++)
		n += sessions[i].in_use && now - sessions[i].last_used <= SESSION_IDLE_SECS;
	pthread_mutex_unlock(&lock);
	return n;
}

/* under lock */
static void
end_session(HttpSession *session)
{
	if (session->in_use)
		free(session->owner);
	memset(session, 0, sizeof(*session));
}
