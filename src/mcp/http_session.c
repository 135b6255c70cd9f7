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
 *	  src/mcp/http_session.c
 *
 *-------------------------------------------------------------------------
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "http.h"

#define MAX_SESSIONS 1024
#define SESSION_IDLE_SECS 3600

typedef struct HttpSession
{
	McpSession	mcp;			/* id and revision */
	char	   *owner;			/* the role that made it, or "" */
	time_t		last_used;
	bool		in_use;
} HttpSession;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static HttpSession sessions[MAX_SESSIONS];

static void end_session(HttpSession *session);

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
	HttpSession *slot = NULL;
	int			i;

	if (ok)
	{
		pthread_mutex_lock(&lock);
		for (i = 0; i < MAX_SESSIONS; i++)
		{
			if (!sessions[i].in_use ||
				time(NULL) - sessions[i].last_used > SESSION_IDLE_SECS)
			{
				slot = &sessions[i];
				break;
			}
			if (slot == NULL || sessions[i].last_used < slot->last_used)
				slot = &sessions[i];
		}
		end_session(slot);
		*slot = *fresh;
		slot->in_use = true;
		slot->last_used = time(NULL);
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

/* under lock */
static void
end_session(HttpSession *session)
{
	if (session->in_use)
		free(session->owner);
	memset(session, 0, sizeof(*session));
}
