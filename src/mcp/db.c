/*-------------------------------------------------------------------------
 *
 * db.c
 *	  The database side of neon-ai-tools-mcp: one libpq connection.
 *
 * The connection is opened lazily, by the first request that needs the
 * database (tools/list or tools/call), so "initialize" always succeeds and
 * an MCP client can show the database's error to its user instead of a dead
 * server.  Each such request that finds no connection tries once to open
 * one.
 *
 * Before each statement an idle connection is checked: a server that ended
 * the session while we were idle (pg_terminate_backend, a restart, an idle
 * timeout, a compute suspended for inactivity) has left a FATAL message and
 * an end-of-file on the socket.  Then the connection is reset once and the
 * statement runs on the new one; it had not been sent, so nothing runs
 * twice.  A connection that dies *while* a statement runs is reset too, but
 * the statement is not repeated: ai_tool_call() may have changed data
 * before the connection died, and a tool call must not run twice behind the
 * agent's back.  That call answers connection_error, saying so.
 *
 * Statements run prepared, with bound parameters, and nothing else is kept
 * on the server between calls (no SET, no temporary object, no lock, no
 * LISTEN): per-call limits travel in the tool's arguments, per-role
 * settings come from ALTER ROLE, which every server connection applies.
 * So the program works behind a pooler in transaction mode, where
 * consecutive calls may run on different server connections and PgBouncer
 * before 1.21 passes named statements through untracked:
 *
 *	- a statement's name is derived from its text (a hash), so a statement
 *	  of that name on any server connection, prepared by any process of
 *	  this program, is the same statement; "already exists" (42P05) when
 *	  preparing is success;
 *	- a Bind that finds no such statement (26000: a pooler moved us to a
 *	  server connection that has not seen it) prepares it there and binds
 *	  again; nothing ran, so this is safe.  After MAX_PREPARE_ATTEMPTS the
 *	  call runs as an unnamed statement (PQexecParams), which works
 *	  everywhere.
 *
 * Parsing and planning the statement on every call instead (unnamed
 * statements only) cost about half the throughput of a cheap call (README,
 * "Behind PgBouncer"; test/bench/mcp_statements.sh).  All messages taken
 * from libpq are masked (mask.c) before anyone sees them.
 *
 * Failures are categorized as the extension's envelope does (README,
 * "Results"): connection_error, authentication_error, and for a failing
 * statement the SQLSTATE class.  This is the transport's own failure
 * handling, not tool logic: a tool's failures come back from the extension
 * as answers, never as SQL errors.
 *
 * IDENTIFICATION
 *	  src/mcp/db.c
 *
 *-------------------------------------------------------------------------
 */
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libpq-fe.h"
#include "neon_ai_tools_mcp.h"

/* how many pending messages an idle check reads at most */
#define MAX_IDLE_READS 64

static PGconn *conn = NULL;

/*
 * The statements this process has prepared since it (re)connected: they
 * are bound directly; a statement not on the list is prepared first.
 */
#define MAX_PREPARED 8
static const char *prepared_sql[MAX_PREPARED];
static int	prepared_count = 0;

/* binds that find no statement before the call runs unnamed */
#define MAX_PREPARE_ATTEMPTS 4

/* the server sent a FATAL notice while we were idle: it is closing */
static bool server_closing = false;

static PGresult *exec_statement(const char *sql, int nparams,
								const char *const *values);
static bool has_sqlstate(const PGresult *res, const char *sqlstate);
static bool ensure_connected(McpDbResult *result);
static bool lost_while_idle(void);
static void log_connected(void);
static void notice_receiver(void *arg, const PGresult *res);
static char *clean_message(const char *message);
static void set_auth_failure(McpDbResult *result, const char *message);
static void set_connection_failure(McpDbResult *result, const char *message);
static void set_sql_failure(McpDbResult *result, const PGresult *res);
static void set_protocol_failure(McpDbResult *result, const char *message);
static bool contains(const char *haystack, const char *needle);

/*
 * Run sql (one statement returning one row of at most MCP_DB_MAX_COLUMNS
 * non-null values) with bound text parameters.  On return, result->status
 * says what happened; free it with mcp_db_result_free().
 */
void
mcp_db_query(const char *sql, int nparams, const char *const *values,
			 McpDbResult *result)
{
	PGresult   *res;
	int			i;

	memset(result, 0, sizeof(*result));
	if (!ensure_connected(result))
		return;

	res = exec_statement(sql, nparams, values);
	if (res != NULL && PQresultStatus(res) == PGRES_TUPLES_OK &&
		PQntuples(res) == 1 && PQnfields(res) <= MCP_DB_MAX_COLUMNS)
	{
		result->status = MCP_DB_OK;
		for (i = 0; i < PQnfields(res); i++)
			result->values[i] = PQgetisnull(res, 0, i)
				? NULL : mcp_strdup(PQgetvalue(res, 0, i));
	}
	else if (PQstatus(conn) == CONNECTION_BAD)
	{
		char	   *lost = clean_message(res != NULL &&
										 PQresultErrorMessage(res)[0] != '\0'
										 ? PQresultErrorMessage(res)
										 : PQerrorMessage(conn));
		const char *sqlstate = res != NULL
			? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
		bool		protocol = sqlstate != NULL && strcmp(sqlstate, "08P01") == 0;

		mcp_log(MCP_LOG_WARNING,
				"the database connection was lost during a statement: %s", lost);
		PQreset(conn);
		prepared_count = 0;
		server_closing = false;
		if (PQstatus(conn) == CONNECTION_OK)
		{
			mcp_log(MCP_LOG_WARNING, "reconnected to the database");
			if (protocol)
				set_protocol_failure(result, lost);
			else
				set_connection_failure(result, lost);
		}
		else
		{
			char	   *again = clean_message(PQerrorMessage(conn));
			char	   *both = mcp_psprintf("%s; reconnecting failed: %s",
											lost, again);

			mcp_log(MCP_LOG_WARNING, "could not reconnect: %s", again);
			if (protocol)
				set_protocol_failure(result, both);
			else
				set_connection_failure(result, both);
			free(both);
			free(again);
			PQfinish(conn);
			conn = NULL;
		}
		if (result->status == MCP_DB_CONNECTION_ERROR)
			result->suggestion =
				"The connection to the database was lost while the call was "
				"running; the call may or may not have taken effect, so check "
				"(for example with select_query) before repeating a write.";
		free(lost);
	}
	else if (res != NULL && (PQresultStatus(res) == PGRES_FATAL_ERROR ||
							 PQresultStatus(res) == PGRES_NONFATAL_ERROR))
		set_sql_failure(result, res);
	else
	{
		result->status = MCP_DB_SQL_ERROR;
		result->message = mcp_strdup(res == NULL
									 ? "no result from the server"
									 : "the statement returned no single row");
		result->error_type = "unknown_error";
		result->portable_type = "unknown";
		result->suggestion = "Retry the call; if it fails again, check the server log.";
	}
	PQclear(res);
}

/*
 * Free what a result holds (not the struct itself).
 */
void
mcp_db_result_free(McpDbResult *result)
{
	int			i;

	for (i = 0; i < MCP_DB_MAX_COLUMNS; i++)
		free(result->values[i]);
	free(result->message);
	free(result->detail);
	free(result->hint);
	memset(result, 0, sizeof(*result));
}

/*
 * Close the connection (at exit).
 */
void
mcp_db_disconnect(void)
{
	if (conn != NULL)
		PQfinish(conn);
	conn = NULL;
}

/*
 * Run sql as a prepared statement named after its text (see the head of
 * the file).  Returns the result of the statement, or of a PQprepare that
 * failed (the caller reports either).
 */
static PGresult *
exec_statement(const char *sql, int nparams, const char *const *values)
{
	char		name[64];
	uint64_t	hash = UINT64_C(14695981039346656037);
	const unsigned char *p;
	int			attempt;
	bool		known;
	int			i;

	/* FNV-1a: the same text, the same name, in every process */
	for (p = (const unsigned char *) sql; *p != '\0'; p++)
		hash = (hash ^ *p) * UINT64_C(1099511628211);
	snprintf(name, sizeof(name), "neon_ai_tools_mcp_%016" PRIx64, hash);

	known = false;
	for (i = 0; i < prepared_count && !known; i++)
		known = prepared_sql[i] == sql || strcmp(prepared_sql[i], sql) == 0;
	for (attempt = 0; attempt < MAX_PREPARE_ATTEMPTS; attempt++)
	{
		PGresult   *res;

		if (!known)
		{
			PGresult   *prep = PQprepare(conn, name, sql, nparams, NULL);

			if (prep == NULL ||
				(PQresultStatus(prep) != PGRES_COMMAND_OK &&
				 !has_sqlstate(prep, "42P05")))
				return prep;
			PQclear(prep);
			/* no room (not with our two statements): prepare it every time */
			if (prepared_count < MAX_PREPARED)
				prepared_sql[prepared_count++] = sql;
			known = true;
		}
		res = PQexecPrepared(conn, name, nparams, values, NULL, NULL, 0);
		if (!has_sqlstate(res, "26000") ||
			PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) == NULL ||
			strstr(PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY), name) == NULL)
			return res;
		/* this server connection lacks it: a pooler moved us */
		PQclear(res);
		mcp_log(MCP_LOG_DEBUG, "statement %s not found; preparing it again", name);
		for (i = 0; i < prepared_count; i++)
			if (prepared_sql[i] == sql || strcmp(prepared_sql[i], sql) == 0)
			{
				prepared_sql[i] = prepared_sql[--prepared_count];
				break;
			}
		known = false;
	}
	mcp_log(MCP_LOG_INFO, "statement %s not found after %d attempts; running it unnamed",
			name, MAX_PREPARE_ATTEMPTS);
	return PQexecParams(conn, sql, nparams, NULL, values, NULL, NULL, 0);
}

/*
 * Did res fail with this SQLSTATE?
 */
static bool
has_sqlstate(const PGresult *res, const char *sqlstate)
{
	const char *code;

	if (res == NULL)
		return false;
	code = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	return code != NULL && strcmp(code, sqlstate) == 0;
}

/*
 * Make sure there is a usable connection: open one, or reset one the
 * server closed while we were idle.  Returns false with result filled in
 * (connection_error or authentication_error) when that fails.
 */
static bool
ensure_connected(McpDbResult *result)
{
	const char *const *keywords;
	const char *const *values;

	if (conn != NULL && !lost_while_idle())
		return true;

	if (conn != NULL)
	{
		mcp_log(MCP_LOG_WARNING,
				"the database connection was closed while idle; reconnecting");
		PQreset(conn);
		prepared_count = 0;
	}
	else
	{
		mcp_conninfo_params(&keywords, &values);
		mcp_log(MCP_LOG_INFO, "connecting to the database");
		conn = PQconnectdbParams(keywords, values, 1);
		prepared_count = 0;
		if (conn != NULL)
			PQsetNoticeReceiver(conn, notice_receiver, NULL);
	}
	server_closing = false;

	if (conn != NULL && PQstatus(conn) == CONNECTION_OK)
	{
		log_connected();
		return true;
	}
	else
	{
		char	   *message = clean_message(conn != NULL
											? PQerrorMessage(conn)
											: "out of memory");

		mcp_log(MCP_LOG_WARNING, "could not connect to the database: %s",
				message);
		set_connection_failure(result, message);
		free(message);
		if (conn != NULL)
			PQfinish(conn);
		conn = NULL;
		return false;
	}
}

/*
 * Has the server closed our idle connection?  Reads whatever is pending on
 * the socket without blocking: the FATAL message a server sends before it
 * closes an idle session reaches the notice receiver, an end-of-file marks
 * the connection bad.  The FATAL alone is enough: the end-of-file may lag
 * behind it by a moment.
 */
static bool
lost_while_idle(void)
{
	int			i;

	for (i = 0; i < MAX_IDLE_READS; i++)
	{
		struct pollfd pfd;

		if (server_closing || PQstatus(conn) != CONNECTION_OK ||
			PQsocket(conn) < 0)
			return true;
		pfd.fd = PQsocket(conn);
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (poll(&pfd, 1, 0) <= 0)
			return false;
		if (!PQconsumeInput(conn))
			return true;
	}
	return server_closing || PQstatus(conn) != CONNECTION_OK;
}

/*
 * One informational line about the new connection.
 */
static void
log_connected(void)
{
	const char *host = PQhost(conn);

	mcp_log(MCP_LOG_INFO,
			"connected to database \"%s\" as user \"%s\" on %s, port %s%s",
			PQdb(conn), PQuser(conn),
			(host != NULL && host[0] == '/') ? "a Unix socket" : host,
			PQport(conn), PQsslInUse(conn) ? ", SSL" : "");
}

/*
 * libpq's notices (a WARNING from a statement, the FATAL a server sends
 * before closing an idle session) go to the log, masked; never to stdout.
 * A FATAL or PANIC one means the session is ending.
 */
static void
notice_receiver(void *arg, const PGresult *res)
{
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);

	if (severity != NULL &&
		(strcmp(severity, "FATAL") == 0 || strcmp(severity, "PANIC") == 0))
		server_closing = true;
	mcp_log(MCP_LOG_INFO, "server: %s", PQresultErrorMessage(res));
}

/*
 * A masked, one-line copy of a libpq message: trailing newlines dropped,
 * inner newlines and tabs folded into single spaces.
 */
static char *
clean_message(const char *message)
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
	result->error_type = "authentication_error";
	result->portable_type = "permission_denied";
	result->retryable = false;
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
static void
set_connection_failure(McpDbResult *result, const char *message)
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
	result->error_type = "connection_error";
	result->portable_type = "connection_error";
	/* the envelope's contract: connection_error is always retryable */
	result->retryable = true;
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
static void
set_protocol_failure(McpDbResult *result, const char *message)
{
	result->status = MCP_DB_SQL_ERROR;
	result->message = mcp_strdup(message);
	snprintf(result->sqlstate, sizeof(result->sqlstate), "08P01");
	result->error_type = "unknown_error";
	result->portable_type = "unknown";
	result->retryable = false;
	result->suggestion =
		"The server or a connection pooler in between refused the protocol "
		"exchange (SQLSTATE 08P01): check the pooler's settings and log "
		"(PgBouncer in transaction mode works with this program) before "
		"calling again.";
}

/*
 * Fill result for a statement that failed with an SQLSTATE.
 */
static void
set_sql_failure(McpDbResult *result, const PGresult *res)
{
	const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
	const char *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);
	char	   *message;

	if (sqlstate == NULL)
		sqlstate = "";
	if (primary == NULL)
		primary = PQresultErrorMessage(res);
	message = clean_message(primary);
	snprintf(result->sqlstate, sizeof(result->sqlstate), "%s", sqlstate);

	if (strcmp(sqlstate, "08P01") == 0)
		set_protocol_failure(result, message);
	else if (strncmp(sqlstate, "08", 2) == 0 || strncmp(sqlstate, "57P", 3) == 0)
		set_connection_failure(result, message);
	else if (strncmp(sqlstate, "28", 2) == 0)
		set_auth_failure(result, message);
	else
	{
		result->status = MCP_DB_SQL_ERROR;
		result->message = mcp_strdup(message);
		result->retryable = false;
		if (strcmp(sqlstate, "42883") == 0 || strcmp(sqlstate, "3F000") == 0)
		{
			result->error_type = "unknown_error";
			result->portable_type = "unknown";
			result->suggestion =
				"The neon_ai_tools extension is not installed in this database, or "
				"its schema is not on the search_path: run CREATE EXTENSION "
				"neon_ai_tools, or set search_path in the connection string "
				"(options=-csearch_path=...) or, behind a connection pooler, "
				"with ALTER ROLE ... SET search_path.";
		}
		else if (strcmp(sqlstate, "42501") == 0)
		{
			result->error_type = "permission_denied";
			result->portable_type = "permission_denied";
			result->suggestion =
				"The database role may not use the neon_ai_tools functions: ask an "
				"administrator to grant EXECUTE on them.";
		}
		else if (strncmp(sqlstate, "22", 2) == 0)
		{
			result->error_type = "invalid_input";
			result->portable_type = "invalid_input";
			result->suggestion =
				"PostgreSQL rejected the arguments as JSON (for example a \\u0000 "
				"escape): change the offending value and call again.";
		}
		else if (strcmp(sqlstate, "57014") == 0)
		{
			result->error_type = "timeout";
			result->portable_type = "timeout";
			result->retryable = true;
			result->suggestion =
				"The statement was canceled (statement_timeout or an administrator): "
				"narrow the request or retry later.";
		}
		else if (strncmp(sqlstate, "53", 2) == 0 || strncmp(sqlstate, "54", 2) == 0)
		{
			result->error_type = "resource_exhausted";
			result->portable_type = "resource_exhausted";
			result->retryable = true;
			result->suggestion = "The server ran out of a resource: retry later with a smaller request.";
		}
		else
		{
			result->error_type = "unknown_error";
			result->portable_type = "unknown";
			result->suggestion = "Retry the call; if it fails again, check the server log.";
		}
	}
	if (detail != NULL)
		result->detail = clean_message(detail);
	if (hint != NULL)
		result->hint = clean_message(hint);
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
