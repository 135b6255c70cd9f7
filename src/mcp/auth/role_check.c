/*-------------------------------------------------------------------------
 *
 * role_check.c
 *	  Which roles a token may name.
 *
 * A token (a tokens-file line or a JWT's role claim) names the role its
 * requests run as, through set_config('role', ...) on the login role's
 * connection.  Some names would give a caller more than any agent should
 * have, and are refused whoever signed the token:
 *
 *	- "none" (any case): set_config('role', 'none') means the login role;
 *	- the login role itself (session_user);
 *	- a superuser, or a role with BYPASSRLS;
 *	- a role that does not exist, or is not granted to the login role.
 *
 * The verdict comes from the database (one catalog query as the login
 * role) and is kept for VERDICT_TTL_SECS; a reload (SIGHUP) forgets every
 * verdict.  When the database cannot be asked, nothing is kept and the
 * request is refused (503): a role is never used unchecked.
 *
 * To give an agent elevated rights deliberately, grant it the privileges
 * (or membership in a role that has them) rather than naming a privileged
 * role in its token; SECURITY DEFINER functions are the way to let it do
 * one privileged thing.
 *
 * IDENTIFICATION
 *	  src/mcp/auth/role_check.c
 *
 *-------------------------------------------------------------------------
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "auth/auth.h"
#include "db/db.h"
#include "protocol/protocol.h"

#define VERDICT_TTL_SECS 60
#define MAX_VERDICTS 256

/* one word: "ok", or why the role is refused */
static const char ROLE_SQL[] =
"SELECT coalesce((SELECT CASE"
" WHEN r.rolname = session_user THEN 'is the login role'"
" WHEN r.rolsuper THEN 'is a superuser'"
" WHEN r.rolbypassrls THEN 'has BYPASSRLS'"
" WHEN NOT pg_catalog.pg_has_role(session_user, r.oid, 'MEMBER')"
" THEN 'is not granted to the login role'"
" ELSE 'ok' END"
" FROM pg_catalog.pg_roles r WHERE r.rolname = $1), 'does not exist')";

typedef struct Verdict
{
	char		role[64];
	char		why[40];		/* "ok" or a reason */
	time_t		checked;
} Verdict;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Verdict verdicts[MAX_VERDICTS];
static int	next_verdict = 0;

static bool cached(const char *role, char *why, size_t size);
static void remember(const char *role, const char *why);

/*
 * Check role.  MCP_ROLE_OK; MCP_ROLE_REFUSED with *why (a static phrase
 * such as "is a superuser", or a copy in why_buf); or MCP_ROLE_UNKNOWN
 * when the database could not be asked.
 */
McpRoleVerdict
mcp_role_check(const char *role, char *why, size_t why_size)
{
	McpContext	ctx;
	McpDbResult result;
	const char *values[1];
	McpRoleVerdict verdict;

	if (strcasecmp(role, "none") == 0)
	{
		snprintf(why, why_size, "means the login role");
		return MCP_ROLE_REFUSED;
	}
	if (cached(role, why, why_size))
		return strcmp(why, "ok") == 0 ? MCP_ROLE_OK : MCP_ROLE_REFUSED;
	mcp_context_init(&ctx, NULL);
	ctx.http = true;
	values[0] = role;
	mcp_db_query(&ctx, ROLE_SQL, 1, values, &result);
	if (result.status != MCP_DB_OK || result.values[0] == NULL)
	{
		snprintf(why, why_size, "could not be checked: %s",
				 result.message != NULL ? result.message : "no answer");
		verdict = MCP_ROLE_UNKNOWN;
	}
	else
	{
		snprintf(why, why_size, "%s", result.values[0]);
		remember(role, why);
		verdict = strcmp(why, "ok") == 0 ? MCP_ROLE_OK : MCP_ROLE_REFUSED;
	}
	mcp_db_result_free(&result);
	return verdict;
}

/*
 * Forget every verdict (a reload: grants may have changed too).
 */
void
mcp_role_check_forget(void)
{
	pthread_mutex_lock(&lock);
	memset(verdicts, 0, sizeof(verdicts));
	pthread_mutex_unlock(&lock);
}

static bool
cached(const char *role, char *why, size_t size)
{
	bool		found = false;
	time_t		now = time(NULL);

	pthread_mutex_lock(&lock);
	for (int i = 0; i < MAX_VERDICTS && !found; i++)
		if (verdicts[i].role[0] != '\0' && strcmp(verdicts[i].role, role) == 0 &&
			now - verdicts[i].checked < VERDICT_TTL_SECS)
		{
			snprintf(why, size, "%s", verdicts[i].why);
			found = true;
		}
	pthread_mutex_unlock(&lock);
	return found;
}

static void
remember(const char *role, const char *why)
{
	pthread_mutex_lock(&lock);
	snprintf(verdicts[next_verdict].role, sizeof(verdicts[0].role), "%s", role);
	snprintf(verdicts[next_verdict].why, sizeof(verdicts[0].why), "%s", why);
	verdicts[next_verdict].checked = time(NULL);
	next_verdict = (next_verdict + 1) % MAX_VERDICTS;
	pthread_mutex_unlock(&lock);
}

typedef struct LineCheck
{
	int			refused;
	bool		unreachable;	/* the database could not be asked: stop */
} LineCheck;

/* mcp_auth_each_token_role()'s callback: one line per refused role */
static void
check_line(const char *role, int lineno, void *arg)
{
	char		why[256];
	LineCheck  *check = arg;

	if (check->unreachable)
		return;
	switch (mcp_role_check(role, why, sizeof(why)))
	{
		case MCP_ROLE_OK:
			break;
		case MCP_ROLE_REFUSED:
			mcp_log(MCP_LOG_WARNING, "token file, line %d: role \"%s\" is refused: it %s",
					lineno, role, why);
			check->refused++;
			break;
		case MCP_ROLE_UNKNOWN:
			mcp_log(MCP_LOG_WARNING, "token file, line %d: role \"%s\" %s; the roles are checked at their first request",
					lineno, role, why);
			check->unreachable = true;
			break;
	}
}

/*
 * At start and after a reload: say which tokens-file lines name a role
 * that will be refused.  Returns how many.
 */
int
mcp_role_check_tokens(void)
{
	LineCheck	check = {0, false};

	mcp_role_check_forget();
	mcp_auth_each_token_role(check_line, &check);
	return check.refused;
}
