/*-------------------------------------------------------------------------
 *
 * db_errors.c
 *	  The MCP program's own failures, categorized as the extension's
 *	  envelope categorizes errors (README, "Results").
 *
 * This is the transport's failure handling, not tool logic: a tool's
 * failures come back from the extension as answers, never as SQL errors.
 * What reaches here is a connection that could not be made or was lost, a
 * login the server refused, or a statement of ours that failed (the
 * extension missing, EXECUTE not granted, the arguments not JSON).  Every
 * message taken from libpq is masked (mask.c) before anyone sees it.
 *
 * IDENTIFICATION
 *	  src/mcp/db/db_errors.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "libpq-fe.h"
#include "db/db.h"

/* errorType, portable type and retryable of each kind (error_kinds.h) */
static const struct
{
	const char *error_type;
	const char *portable_type;
	bool		retryable;
}			error_kinds[] = {
#define NAT_ERROR_KIND(id, type, portable, retryable) [id] = {type, portable, retryable},
#include "error_kinds.h"
#undef NAT_ERROR_KIND
};

/*
 * Categorize a failure as the extension does: its errorType, its portable
 * type and whether a retry as it is may succeed.
 */
void
mcp_db_set_error_kind(McpDbResult *result, McpErrorKind kind)
{
	result->error_type = error_kinds[kind].error_type;
	result->portable_type = error_kinds[kind].portable_type;
	result->retryable = error_kinds[kind].retryable;
}

static void set_auth_failure(McpDbResult *result, const char *message);
static bool contains(const char *haystack, const char *needle);

/*
 * A masked, one-line copy of a libpq message: trailing newlines dropped,
 * inner newlines and tabs folded into single spaces.
 */
char *
mcp_db_clean_message(const char *message)
{
	char	   *masked = mcp_mask_text(message);
	char	   *out = masked;
	char	   *p;
	bool		space = false;

	for (p = masked; *p != '\0'; p++)
	{
		if (*p == '\n' || *p == '\r' || *p == '\t')
		{
			space = true;
			continue;
		}
		if (space && out > masked && out[-1] != ' ')
			*out++ = ' ';
		space = false;
		*out++ = *p;
	}
	*out = '\0';
	return masked;
}

/*
 * Fill result for a login the server refused: authentication_error.
 */
static void
set_auth_failure(McpDbResult *result, const char *message)
{
	result->status = MCP_DB_AUTHENTICATION_ERROR;
	result->message = mcp_strdup(message);
	mcp_db_set_error_kind(result, NAT_ERR_AUTHENTICATION_ERROR);
	result->suggestion =
		"The server refused the login: check the user name and password "
		"(or ~/.pgpass, PGPASSWORD) in the MCP server's configuration and "
		"the server's pg_hba.conf; retrying as it is will fail again.";
}

/*
 * Fill result for a connection that could not be made or was lost (message
 * already masked): authentication_error when the server refused the login,
 * connection_error otherwise, with a suggestion for the usual causes.
 * libpq gives no SQLSTATE for a failed connection, so its message is all
 * there is to go by.
 */
void
mcp_db_set_connection_failure(McpDbResult *result, const char *message)
{
	if (contains(message, "password authentication failed") ||
		contains(message, "no password supplied") ||
		contains(message, "authentication failed") ||
		contains(message, "no pg_hba.conf entry") ||
		contains(message, "is not permitted to log in") ||
		(contains(message, "role \"") && contains(message, "does not exist")) ||
		contains(message, "permission denied for database"))
	{
		set_auth_failure(result, message);
		return;
	}
	result->status = MCP_DB_CONNECTION_ERROR;
	result->message = mcp_strdup(message);
	mcp_db_set_error_kind(result, NAT_ERR_CONNECTION_ERROR);
	if (contains(message, "SSL was required") ||
		contains(message, "does not support SSL"))
	{
		result->suggestion =
			"The server does not offer SSL, which neon-ai-tools-mcp requires by "
			"default for hosts that are not local: add sslmode=disable (or "
			"prefer) to the connection string if the network is trusted.";
	}
	else if (contains(message, "database \"") && contains(message, "does not exist"))
	{
		result->suggestion =
			"The database does not exist: check the database name in the MCP "
			"server's connection string.";
	}
	else
	{
		result->suggestion =
			"The database is not reachable: check that the server is running and "
			"that the host and port in the MCP server's connection string are "
			"right, then retry.";
	}
}

/*
 * Fill result for a protocol violation (08P01): the server, or a pooler in
 * between, refused the exchange itself.  That is not a lost connection:
 * sending the same call again meets the same refusal, so it is not
 * retryable.  PgBouncer answers 08P01 for its own refusals too.
 */
void
mcp_db_set_protocol_failure(McpDbResult *result, const char *message)
{
	result->status = MCP_DB_SQL_ERROR;
	result->message = mcp_strdup(message);
	snprintf(result->sqlstate, sizeof(result->sqlstate), "08P01");
	mcp_db_set_error_kind(result, NAT_ERR_UNKNOWN_ERROR);
	result->suggestion =
		"The server or a connection pooler in between refused the protocol "
		"exchange (SQLSTATE 08P01): check the pooler's settings and log "
		"(PgBouncer in transaction mode works with this program) before "
		"calling again.";
}


#define NOT_INSTALLED \
	"The neon_ai_tools extension is not installed in this database, or " \
	"its schema is not on the search_path: run CREATE EXTENSION " \
	"neon_ai_tools, or set search_path in the connection string " \
	"(options=-csearch_path=...) or, behind a connection pooler, " \
	"with ALTER ROLE ... SET search_path."

/*
 * An SQL error of the call itself, by its SQLSTATE (five characters) or
 * class (two): its category and advice.  The first row that matches wins.
 */
typedef struct SqlFailure
{
	const char *sqlstate;
	McpErrorKind kind;
	const char *suggestion;
} SqlFailure;

static const SqlFailure sql_failures[] = {
	{"42883", NAT_ERR_UNKNOWN_ERROR, NOT_INSTALLED},
	{"3F000", NAT_ERR_UNKNOWN_ERROR, NOT_INSTALLED},
	{"42501", NAT_ERR_PERMISSION_DENIED,
		"The database role may not use the neon_ai_tools functions: ask an "
	"administrator to grant EXECUTE on them."},
	{"22", NAT_ERR_INVALID_INPUT,
		"PostgreSQL rejected the arguments as JSON (for example a \\u0000 "
	"escape): change the offending value and call again."},
	{"57014", NAT_ERR_TIMEOUT,
		"The statement was canceled (statement_timeout or an administrator): "
	"narrow the request or retry later."},
	{"53", NAT_ERR_RESOURCE_EXHAUSTED,
	"The server ran out of a resource: retry later with a smaller request."},
	{"54", NAT_ERR_RESOURCE_EXHAUSTED,
	"The server ran out of a resource: retry later with a smaller request."},
};

#define N_SQL_FAILURES (sizeof(sql_failures) / sizeof(sql_failures[0]))

/*
 * Fill result for a statement that failed with an SQLSTATE.
 */
void
mcp_db_set_sql_failure(McpDbResult *result, const void *pgresult)
{
	const PGresult *res = pgresult;
	const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
	const char *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);
	char	   *message;
	const SqlFailure *f;

	if (sqlstate == NULL)
		sqlstate = "";
	if (primary == NULL)
		primary = PQresultErrorMessage(res);
	message = mcp_db_clean_message(primary);
	snprintf(result->sqlstate, sizeof(result->sqlstate), "%s", sqlstate);

	if (strcmp(sqlstate, "08P01") == 0)
		mcp_db_set_protocol_failure(result, message);
	else if (strncmp(sqlstate, "08", 2) == 0 || strncmp(sqlstate, "57P", 3) == 0)
		mcp_db_set_connection_failure(result, message);
	else if (strncmp(sqlstate, "28", 2) == 0)
		set_auth_failure(result, message);
	else
	{
		result->status = MCP_DB_SQL_ERROR;
		result->message = mcp_strdup(message);
		result->retryable = false;
		for (f = sql_failures; f < sql_failures + N_SQL_FAILURES; f++)
			if (strncmp(sqlstate, f->sqlstate, strlen(f->sqlstate)) == 0)
				break;
		if (f < sql_failures + N_SQL_FAILURES)
		{
			mcp_db_set_error_kind(result, f->kind);
			result->suggestion = f->suggestion;
		}
		else
		{
			mcp_db_set_error_kind(result, NAT_ERR_UNKNOWN_ERROR);
			result->suggestion = "Retry the call; if it fails again, check the server log.";
		}
	}
	if (detail != NULL)
		result->detail = mcp_db_clean_message(detail);
	if (hint != NULL)
		result->hint = mcp_db_clean_message(hint);
	free(message);
}

/*
 * Case-sensitive substring test.
 */
static bool
contains(const char *haystack, const char *needle)
{
	return strstr(haystack, needle) != NULL;
}
