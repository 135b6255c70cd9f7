/*-------------------------------------------------------------------------
 *
 * db.c
 *	  The database side of neon-ai-tools-mcp: statements on the pool's
 *	  connections, as the request's role, cancellable.
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
 * A request with a role (an HTTP caller authenticated by a token) runs its
 * statement as that role: set_config('role', $1, true) and the statement
 * go to the server in one pipeline, ended by one Sync, so they are one
 * transaction, one round trip, and the role is gone when it ends, which is
 * what a pooler in transaction mode needs.  If the server refuses the role
 * (unknown, not granted to the login role), the pipeline is aborted before
 * the statement: nothing ran, and the request answers MCP_DB_ROLE_REFUSED.
 *
 * While a statement runs we wait on its socket with poll(), also watching
 * the HTTP client's socket: a client that hangs up has its statement
 * cancelled (libpq's cancel request), as has one that another thread
 * cancels through calls.c.  Over stdio we watch standard input instead
 * (stdio.c's watch_input), where a notifications/cancelled may arrive.  A
 * cancelled request answers MCP_DB_CANCELLED.
 *
 * Failures are categorized in db_errors.c.
 *
 * IDENTIFICATION
 *	  src/mcp/db/db.c
 *
 *-------------------------------------------------------------------------
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* POLLRDHUP */
#endif
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/calls.h"
#include "db/conn.h"
#include "base/metrics.h"

/* how many pending messages an idle check reads at most */
#define MAX_IDLE_READS 64

/* binds that find no statement before the call runs unnamed */
#define MAX_PREPARE_ATTEMPTS 4

/* how often a long statement reports progress */
#define PROGRESS_INTERVAL_MS 1000

/* the role switch, local to the statement's transaction */
static const char SET_ROLE_SQL[] = "SELECT pg_catalog.set_config('role', $1, true)";

/* one statement's outcome, as the pipeline returned it */
typedef struct Outcome
{
	PGresult   *role;			/* set_config's result (with a role) */
	PGresult   *statement;		/* the statement's result */
	bool		cancelled;		/* the request was cancelled */
} Outcome;

static void run_statement(McpConn *conn, McpContext *ctx, const char *sql,
						  int nparams, const char *const *values,
						  McpDbResult *result);
static bool send_statement(McpConn *conn, const McpContext *ctx,
						   const char *name, const char *sql, int nparams,
						   const char *const *values);
static void collect(McpConn *conn, McpContext *ctx, Outcome *out);
static PGresult *query_result(McpConn *conn, McpContext *ctx, bool *watching,
							  double start);
static PGresult *next_result(McpConn *conn, McpContext *ctx, bool *watching,
							 double start);
static void statement_name(const char *sql, char *name, size_t size);
static bool is_prepared(const McpConn *conn, const char *sql);
static void forget_prepared(McpConn *conn, const char *sql);
static bool prepare(McpConn *conn, const char *name, const char *sql,
					int nparams, PGresult **failure);
static bool statement_missing(const PGresult *res, const char *name);
static void lost_during_statement(McpConn *conn, const PGresult *res,
								  McpDbResult *result);
static void set_from_result(const PGresult *res, McpDbResult *result);
static bool role_refused(const PGresult *res);
static bool has_sqlstate(const PGresult *res, const char *sqlstate);
static bool ensure_connected(McpConn *conn, McpDbResult *result);
static bool lost_while_idle(McpConn *conn);

/*
 * Run sql with the given text parameters on a connection of the pool, as
 * ctx's role, and fill result: MCP_DB_OK with the values of its single row
 * (at most MCP_DB_MAX_COLUMNS columns, as text, NULL for SQL NULL), or a
 * categorized failure.  sql must be a string constant: its address is the
 * prepared statement's identity.
 */
void
mcp_db_query(McpContext *ctx, const char *sql, int nparams,
			 const char *const *values, McpDbResult *result)
{
	McpConn    *conn;

	memset(result, 0, sizeof(*result));
	conn = mcp_pool_acquire();
	if (conn == NULL)
	{
		mcp_metrics_refusal(MCP_REFUSED_POOL_BUSY);
		result->status = MCP_DB_BUSY;
		result->message = mcp_strdup("every database connection of the MCP server is busy");
		mcp_db_set_error_kind(result, NAT_ERR_RESOURCE_EXHAUSTED);
		result->suggestion = "The MCP server is at its connection limit: retry shortly.";
		return;
	}
	if (ensure_connected(conn, result))
		run_statement(conn, ctx, sql, nparams, values, result);
	mcp_pool_release(conn);
}

/*
 * Free what a result holds.
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
 * Prepare (once per connection), send, wait, and interpret.  A Bind that
 * finds no statement (26000: a pooler moved us) ran nothing, so the whole
 * pipeline is sent again after preparing; after MAX_PREPARE_ATTEMPTS it
 * runs unnamed (name NULL), which works everywhere.
 */
static void
run_statement(McpConn *conn, McpContext *ctx, const char *sql, int nparams,
			  const char *const *values, McpDbResult *result)
{
	char		name[64];
	Outcome		out;
	int			attempt;
	bool		named = true;

	statement_name(sql, name, sizeof(name));
	for (attempt = 0;; attempt++)
	{
		PGresult   *failure = NULL;

		memset(&out, 0, sizeof(out));
		if (attempt == MAX_PREPARE_ATTEMPTS)
		{
			mcp_log(MCP_LOG_INFO, "statement %s not found after %d attempts; running it unnamed",
					name, MAX_PREPARE_ATTEMPTS);
			named = false;
		}
		if (named && !is_prepared(conn, sql) &&
			!prepare(conn, name, sql, nparams, &failure))
		{
			out.statement = failure;
			break;
		}
		if (!mcp_inflight_attach(ctx->inflight, conn->cancel))
		{
			out.cancelled = true;
			break;
		}
		if (!send_statement(conn, ctx, named ? name : NULL, sql, nparams, values))
		{
			mcp_inflight_detach(ctx->inflight);
			break;
		}
		collect(conn, ctx, &out);
		out.cancelled = mcp_inflight_detach(ctx->inflight);
		if (!named || !statement_missing(out.statement, name) ||
			(out.role != NULL && PQresultStatus(out.role) != PGRES_TUPLES_OK))
			break;
		/* this server connection lacks it: a pooler moved us */
		mcp_log(MCP_LOG_DEBUG, "statement %s not found; preparing it again", name);
		forget_prepared(conn, sql);
		PQclear(out.role);
		PQclear(out.statement);
	}

	if (PQstatus(conn->pg) == CONNECTION_BAD)
		lost_during_statement(conn, out.statement, result);
	else if (out.role != NULL && PQresultStatus(out.role) != PGRES_TUPLES_OK &&
			 !role_refused(out.role))
		mcp_db_set_sql_failure(result, out.role);
	else if (out.role != NULL && PQresultStatus(out.role) != PGRES_TUPLES_OK)
	{
		char	   *message = mcp_db_clean_message(PQresultErrorMessage(out.role));

		mcp_log(MCP_LOG_WARNING, "the server refused the role: %s", message);
		result->status = MCP_DB_ROLE_REFUSED;
		result->message = message;
		mcp_db_set_error_kind(result, NAT_ERR_PERMISSION_DENIED);
		result->suggestion = "The token's role cannot be used on this database.";
	}
	else if (out.cancelled && (out.statement == NULL ||
							   PQresultStatus(out.statement) != PGRES_TUPLES_OK))
	{
		result->status = MCP_DB_CANCELLED;
		result->message = mcp_strdup("the request was cancelled");
		/* the program's own category: the client cancelled the request */
		result->error_type = "cancelled";
		result->portable_type = "cancelled";
		result->suggestion = "The client cancelled this request; its statement was stopped.";
	}
	else
		set_from_result(out.statement, result);
	PQclear(out.role);
	PQclear(out.statement);
}

/*
 * Send the statement (named: prepared; NULL: unnamed), after the role switch
 * in one pipeline when the request has a role.
 */
static bool
send_statement(McpConn *conn, const McpContext *ctx, const char *name,
			   const char *sql, int nparams, const char *const *values)
{
	PGconn	   *pg = conn->pg;
	bool		ok;

	if (ctx->role == NULL)
		return name != NULL
			? PQsendQueryPrepared(pg, name, nparams, values, NULL, NULL, 0)
			: PQsendQueryParams(pg, sql, nparams, NULL, values, NULL, NULL, 0);

	if (!PQenterPipelineMode(pg))
		return false;
	ok = PQsendQueryParams(pg, SET_ROLE_SQL, 1, NULL, &ctx->role, NULL, NULL, 0) &&
		(name != NULL
		 ? PQsendQueryPrepared(pg, name, nparams, values, NULL, NULL, 0)
		 : PQsendQueryParams(pg, sql, nparams, NULL, values, NULL, NULL, 0)) &&
		PQpipelineSync(pg);
	if (!ok)
	{
		while (PQgetResult(pg) != NULL)
			;
		PQexitPipelineMode(pg);
	}
	return ok;
}

/*
 * Read what the statement (and the role switch before it) returned.  In a
 * pipeline each query's results end with a NULL, and the Sync's own result
 * comes last; all of it must be read before the pipeline can end.
 */
static void
collect(McpConn *conn, McpContext *ctx, Outcome *out)
{
	PGconn	   *pg = conn->pg;
	bool		watching = ctx->client_fd >= 0;
	double		start = mcp_now_ms();

	if (ctx->role != NULL)
		out->role = query_result(conn, ctx, &watching, start);
	out->statement = query_result(conn, ctx, &watching, start);
	if (ctx->role == NULL || PQstatus(pg) == CONNECTION_BAD)
		return;
	for (;;)
	{
		PGresult   *res = next_result(conn, ctx, &watching, start);
		bool		sync = res != NULL && PQresultStatus(res) == PGRES_PIPELINE_SYNC;

		PQclear(res);
		if (sync || PQstatus(pg) == CONNECTION_BAD)
			break;
	}
	if (PQstatus(pg) != CONNECTION_BAD && !PQexitPipelineMode(pg))
		mcp_log(MCP_LOG_WARNING, "could not leave pipeline mode: %s",
				PQerrorMessage(pg));
}

/*
 * One query's first result; the rest of its results, to its NULL, are
 * read and dropped.
 */
static PGresult *
query_result(McpConn *conn, McpContext *ctx, bool *watching, double start)
{
	PGresult   *first = next_result(conn, ctx, watching, start);
	PGresult   *res = first;

	while (res != NULL && PQstatus(conn->pg) != CONNECTION_BAD)
	{
		res = next_result(conn, ctx, watching, start);
		PQclear(res);
	}
	return first;
}

/*
 * Wait for the next result, watching the client's socket (a hang-up cancels
 * the request) and reporting progress.
 */
static PGresult *
next_result(McpConn *conn, McpContext *ctx, bool *watching, double start)
{
	PGconn	   *pg = conn->pg;
	double		next_progress = start + PROGRESS_INTERVAL_MS;
	bool		reporting = ctx->progress != NULL && ctx->progress_token != NULL;

	while (PQisBusy(pg))
	{
		struct pollfd pfd[3];
		int			nfds = 1;
		int			client = -1;
		int			input = -1;
		int			timeout = -1;
		int			rc;

		pfd[0].fd = PQsocket(pg);
		pfd[0].events = POLLIN;
		pfd[0].revents = 0;
		if (*watching)
		{
			client = nfds++;
			pfd[client].fd = ctx->client_fd;
			pfd[client].events = POLLRDHUP;
			pfd[client].revents = 0;
		}
		if (ctx->watch_input != NULL && ctx->input_fd >= 0)
		{
			input = nfds++;
			pfd[input].fd = ctx->input_fd;
			pfd[input].events = POLLIN;
			pfd[input].revents = 0;
		}
		if (reporting)
		{
			double		left = next_progress - mcp_now_ms();

			timeout = left < 0 ? 0 : (int) left;
		}
		rc = poll(pfd, nfds, timeout);
		if (rc < 0 && errno != EINTR)
			break;
		if (client >= 0 && (pfd[client].revents & (POLLRDHUP | POLLHUP | POLLERR)))
		{
			mcp_log(MCP_LOG_INFO, "the client went away; cancelling its statement");
			*watching = false;
			if (ctx->inflight != NULL)
			{
				mcp_metrics_cancel(MCP_CANCEL_DISCONNECT);
				mcp_inflight_cancel_one(ctx->inflight);
			}
		}
		if (input >= 0 &&
			(pfd[input].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
			ctx->watch_input(ctx);
		if ((pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) && !PQconsumeInput(pg))
			break;
		if (reporting && mcp_now_ms() >= next_progress)
		{
			ctx->progress(ctx, mcp_now_ms() - start);
			next_progress += PROGRESS_INTERVAL_MS;
		}
	}
	return PQgetResult(pg);
}

/*
 * The name of sql's prepared statement: FNV-1a of its text, so the same
 * text has the same name in every process.
 */
static void
statement_name(const char *sql, char *name, size_t size)
{
	snprintf(name, size, "neon_ai_tools_mcp_%016" PRIx64, mcp_text_hash(sql));
}

static bool
is_prepared(const McpConn *conn, const char *sql)
{
	int			i;

	for (i = 0; i < conn->prepared_count; i++)
		if (conn->prepared_sql[i] == sql || strcmp(conn->prepared_sql[i], sql) == 0)
			return true;
	return false;
}

static void
forget_prepared(McpConn *conn, const char *sql)
{
	int			i;

	for (i = 0; i < conn->prepared_count; i++)
		if (conn->prepared_sql[i] == sql || strcmp(conn->prepared_sql[i], sql) == 0)
		{
			conn->prepared_sql[i] = conn->prepared_sql[--conn->prepared_count];
			return;
		}
}

/*
 * Prepare sql as name; "already exists" (42P05: another process of ours
 * prepared it on this server connection) is success.  On failure,
 * *failure is the server's answer (or NULL).
 */
static bool
prepare(McpConn *conn, const char *name, const char *sql, int nparams,
		PGresult **failure)
{
	PGresult   *prep = PQprepare(conn->pg, name, sql, nparams, NULL);

	if (prep == NULL ||
		(PQresultStatus(prep) != PGRES_COMMAND_OK && !has_sqlstate(prep, "42P05")))
	{
		*failure = prep;
		return false;
	}
	PQclear(prep);
	/* no room (not with our statements): prepare it every time */
	if (conn->prepared_count < MCP_CONN_MAX_PREPARED)
		conn->prepared_sql[conn->prepared_count++] = sql;
	return true;
}

/*
 * Did the Bind of statement name find no such statement?
 */
static bool
statement_missing(const PGresult *res, const char *name)
{
	const char *primary;

	if (!has_sqlstate(res, "26000"))
		return false;
	primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	return primary != NULL && strstr(primary, name) != NULL;
}

/*
 * The connection died while a statement ran: reconnect for the next
 * request, but do not repeat this one (it may have written).
 */
static void
lost_during_statement(McpConn *conn, const PGresult *res, McpDbResult *result)
{
	char	   *lost = mcp_db_clean_message(res != NULL &&
											PQresultErrorMessage(res)[0] != '\0'
											? PQresultErrorMessage(res)
											: PQerrorMessage(conn->pg));
	const char *sqlstate = res != NULL
		? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	bool		protocol = sqlstate != NULL && strcmp(sqlstate, "08P01") == 0;
	McpDbResult again;

	mcp_log(MCP_LOG_WARNING,
			"the database connection was lost during a statement: %s", lost);
	mcp_conn_close(conn);
	memset(&again, 0, sizeof(again));
	if (ensure_connected(conn, &again))
	{
		mcp_log(MCP_LOG_WARNING, "reconnected to the database");
		if (protocol)
			mcp_db_set_protocol_failure(result, lost);
		else
			mcp_db_set_connection_failure(result, lost);
	}
	else
	{
		char	   *both = mcp_psprintf("%s; reconnecting failed: %s",
										lost, again.message ? again.message : "");

		if (protocol)
			mcp_db_set_protocol_failure(result, both);
		else
			mcp_db_set_connection_failure(result, both);
		free(both);
	}
	mcp_db_result_free(&again);
	if (result->status == MCP_DB_CONNECTION_ERROR)
	{
		/* not retryable as it is: a write may have landed */
		result->retryable = false;
		result->suggestion =
			"The connection to the database was lost while the call was "
			"running; the call may or may not have taken effect, so check "
			"(for example with select_query) before repeating a write.";
	}
	free(lost);
}

/*
 * Fill result from the statement's answer on a live connection.
 */
static void
set_from_result(const PGresult *res, McpDbResult *result)
{
	int			i;

	if (res != NULL && PQresultStatus(res) == PGRES_TUPLES_OK &&
		PQntuples(res) == 1 && PQnfields(res) <= MCP_DB_MAX_COLUMNS)
	{
		result->status = MCP_DB_OK;
		for (i = 0; i < PQnfields(res); i++)
			result->values[i] = PQgetisnull(res, 0, i)
				? NULL : mcp_strdup(PQgetvalue(res, 0, i));
	}
	else if (res != NULL && (PQresultStatus(res) == PGRES_FATAL_ERROR ||
							 PQresultStatus(res) == PGRES_NONFATAL_ERROR))
		mcp_db_set_sql_failure(result, res);
	else
	{
		result->status = MCP_DB_SQL_ERROR;
		result->message = mcp_strdup(res == NULL
									 ? "no result from the server"
									 : "the statement returned no single row");
		mcp_db_set_error_kind(result, NAT_ERR_UNKNOWN_ERROR);
		result->suggestion = "Retry the call; if it fails again, check the server log.";
	}
}

/*
 * Did set_config('role') fail because of the role itself: unknown (22023,
 * as the setting's check reports it, or 42704) or not granted to the login
 * role (42501)?  Anything else (the server shutting down, a pooler's
 * refusal) is not the token's fault.
 */
static bool
role_refused(const PGresult *res)
{
	return has_sqlstate(res, "22023") || has_sqlstate(res, "42704") ||
		has_sqlstate(res, "42501");
}

/*
 * Does res carry this SQLSTATE?
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
 * Make sure conn has a usable connection: open it if there is none, or
 * open it again if the server closed it while it was idle (the statement
 * was not sent yet, so nothing runs twice).  On failure, fill result.
 */
static bool
ensure_connected(McpConn *conn, McpDbResult *result)
{
	const char *const *keywords;
	const char *const *values;

	if (conn->pg != NULL && !lost_while_idle(conn))
		return true;
	if (conn->pg != NULL)
	{
		mcp_log(MCP_LOG_WARNING,
				"the database connection was closed while idle; reconnecting");
		mcp_conn_close(conn);
	}
	else
		mcp_log(MCP_LOG_INFO, "connecting to the database");

	mcp_conninfo_params(&keywords, &values);
	conn->pg = PQconnectdbParams(keywords, values, 1);
	conn->prepared_count = 0;
	conn->server_closing = false;
	if (conn->pg != NULL && PQstatus(conn->pg) == CONNECTION_OK)
	{
		mcp_conn_adopt(conn, conn->pg);
		return true;
	}
	else
	{
		char	   *message = mcp_db_clean_message(conn->pg != NULL
												   ? PQerrorMessage(conn->pg)
												   : "out of memory");

		mcp_log(MCP_LOG_WARNING, "could not connect to the database: %s",
				message);
		mcp_db_set_connection_failure(result, message);
		free(message);
		mcp_conn_close(conn);
		return false;
	}
}

/*
 * Has the server closed this idle connection?  Reads what it sent (a FATAL
 * notice, an end-of-file) without blocking.
 */
static bool
lost_while_idle(McpConn *conn)
{
	int			i;

	for (i = 0; i < MAX_IDLE_READS; i++)
	{
		struct pollfd pfd;

		if (conn->server_closing || PQstatus(conn->pg) != CONNECTION_OK ||
			PQsocket(conn->pg) < 0)
			return true;
		pfd.fd = PQsocket(conn->pg);
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (poll(&pfd, 1, 0) <= 0)
			return false;
		if (!PQconsumeInput(conn->pg))
			return true;
	}
	return conn->server_closing || PQstatus(conn->pg) != CONNECTION_OK;
}
