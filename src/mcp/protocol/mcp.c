/*-------------------------------------------------------------------------
 *
 * mcp.c
 *	  The MCP methods of neon-ai-tools-mcp.
 *
 * Requests: initialize, ping, tools/list, tools/call; anything else is
 * -32601.  Notifications: notifications/initialized is noted, the rest
 * (notifications/cancelled: every request is answered before the next
 * line is read) are ignored.
 *
 * Decisions (see also the README's MCP section):
 *
 *	- initialize answers with the client's protocol revision when it is one
 *	  of SUPPORTED_REVISIONS, else with the newest.  It never needs the
 *	  database, so a client can always start the session and show the
 *	  database's error later.  A second initialize is -32600.
 *	- Requests before initialize are answered normally, as in the newest
 *	  revision (lenient: the specification says clients SHOULD NOT send
 *	  them, and refusing would help nobody).
 *	- tools/list is ai_tool_list('mcp'), fetched for every request, so it
 *	  follows the role's settings (enabled_tools, max_rows).  When the
 *	  database cannot answer it is a JSON-RPC error (-32603) whose data is
 *	  an envelope-like object with errorType connection_error,
 *	  authentication_error, ...
 *	- tools/call is ai_tool_call($1, $2::jsonb) with the name and the
 *	  arguments as bound parameters; the arguments are the exact text the
 *	  client sent (rawjson.c), so big or long numbers, exponents, escapes
 *	  and duplicate keys reach the server as they would from SQL.  A request that does not fit the
 *	  CallToolRequest schema (no string name, arguments not an object) is
 *	  -32602.  Everything else is a tool result: the extension's envelope
 *	  as text content and, from revision 2025-06-18 on, as
 *	  structuredContent (kept byte for byte, so numerics stay exact; the
 *	  text block then as --text-block asks: text_block.c), with
 *	  isError = !success.  That includes unknown tools (the extension's
 *	  unknown_tool answer lists the tools, which lets a model correct
 *	  itself) and failures of the statement itself (no connection,
 *	  extension missing, arguments PostgreSQL rejects): an envelope of the
 *	  same shape, built here.
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/mcp.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"
#include "base/metrics.h"
#include "protocol/revision.h"

/*
 * How long a stateless client may keep the tool list: the catalog changes
 * only when an administrator changes settings or custom tools.
 */
#define CATALOG_TTL_MS 60000

static const char *const INSTRUCTIONS =
"Tools of the neon_ai_tools PostgreSQL extension. They run inside the "
"database as the connected role, with its privileges, row-level security, "
"timeouts and row caps. Start with list_tables and describe_table to learn "
"the schema. Every tool answers with one JSON object: success true with "
"data (rows), or success false with errorType, error and a suggestion to "
"act on.";


/* one request as the handlers see it */
typedef struct McpRequest
{
	json_object *params;		/* NULL or an object */
	const char *params_text;	/* its exact text in the message */
	size_t		params_len;
	bool		in_batch;
} McpRequest;

typedef json_object *(*McpHandler) (McpContext *ctx, json_object *id,
									const McpRequest *req);

static json_object *handle_initialize(McpContext *ctx, json_object *id,
									  const McpRequest *req);
static json_object *handle_ping(McpContext *ctx, json_object *id,
								const McpRequest *req);
static json_object *handle_tools_list(McpContext *ctx, json_object *id,
									  const McpRequest *req);
static json_object *handle_tools_call(McpContext *ctx, json_object *id,
									  const McpRequest *req);
static json_object *handle_discover(McpContext *ctx, json_object *id,
									const McpRequest *req);

/* the methods answered, and their handlers */
static const struct
{
	const char *method;
	McpHandler	handler;
}			methods[] = {
	{"initialize", handle_initialize},
	{"ping", handle_ping},
	{"tools/list", handle_tools_list},
	{"tools/call", handle_tools_call},
	{"server/discover", handle_discover},
};
static json_object *invalid_params(json_object *id, const char *message);
static json_object *failure_envelope(const char *tool, const McpDbResult *db,
									 double elapsed_ms);
static json_object *verbatim_json(json_object *value, const char *txt);
static void unexpected_answer(McpDbResult *db, const char *message);
static json_object *tool_result(const McpContext *ctx, const char *txt,
								json_object *envelope, bool is_error);
static json_object *server_capabilities(const McpContext *ctx);
static void add_caching_hints(const McpContext *ctx, json_object *result);
static void note_outcome(McpContext *ctx, const McpDbResult *db);
static void note_tool_error(McpContext *ctx, const char *envelope);
static void set_progress_token(McpContext *ctx, json_object *params);

/*
 * Answer one request.  params is NULL, an object or an array;
 * params_text/params_len is its exact text in the message.
 */
json_object *
mcp_dispatch(McpContext *ctx, const char *method, json_object *id,
			 json_object *params, const char *params_text, size_t params_len,
			 bool in_batch)
{
	McpRequest	req = {params, params_text, params_len, in_batch};
	json_object *response;
	json_object *data;
	size_t		i;

	mcp_log(MCP_LOG_DEBUG, "request %s", method);
	mcp_metrics_method(method);
	mcp_log_copy_name(ctx->method, sizeof(ctx->method), method);
	if (id != NULL)
		mcp_log_copy_name(ctx->request_id, sizeof(ctx->request_id),
						  json_object_get_string(id));
	response = mcp_resolve_revision(ctx, method, id, params);
	if (response != NULL)
		return response;
	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
	{
		if (strcmp(method, methods[i].method) != 0)
			continue;
		if (params != NULL && !json_object_is_type(params, json_type_object))
			return invalid_params(id, "Invalid params: params must be an object");
		set_progress_token(ctx, params);
		/* what is logged while it runs names the request */
		mcp_log_bind(ctx);
		response = methods[i].handler(ctx, id, &req);
		mcp_log_bind(NULL);
		mcp_decorate_result(ctx, response);
		return response;
	}
	data = json_object_new_object();
	json_object_object_add(data, "method", json_object_new_string(method));
	if (ctx->stateless)
		ctx->http_status = 404;
	return jsonrpc_error(id, JSONRPC_METHOD_NOT_FOUND, "Method not found", data);
}

/*
 * Notifications are never answered.  notifications/cancelled stops the
 * request it names, if it is in flight in the same scope (calls.c).
 */
void
mcp_handle_notification(McpContext *ctx, const char *method, json_object *params)
{
	json_object *request_id;

	mcp_metrics_method(method);
	if (strcmp(method, "notifications/initialized") == 0)
		mcp_log(MCP_LOG_DEBUG, "the client is ready");
	else if (strcmp(method, "notifications/cancelled") == 0 && params != NULL &&
			 json_object_is_type(params, json_type_object) &&
			 json_object_object_get_ex(params, "requestId", &request_id))
	{
		char	   *key = mcp_id_key(request_id);

		if (key != NULL)
		{
			bool		running = mcp_inflight_cancel(ctx->scope, key, !ctx->http);

			if (running)
				mcp_metrics_cancel(MCP_CANCEL_NOTIFICATION);
			mcp_log(MCP_LOG_INFO, "cancelling request %s%s", key,
					running ? "" : ctx->http ? " (not running: dropped)" : " (not running yet)");
			free(key);
		}
	}
	else
		mcp_log(MCP_LOG_DEBUG, "ignored notification %s", method);
}

/*
 * Batches exist in the revisions before 2025-06-18 only; *revision is set
 * to the session's revision for the error message.
 */
bool
mcp_batches_allowed(const McpContext *ctx, const char **revision)
{
	const char *negotiated = ctx->session != NULL ? ctx->session->revision : NULL;

	*revision = negotiated != NULL ? negotiated : mcp_session_revision_for("");
	return negotiated != NULL && strcmp(negotiated, MCP_REVISION_2025_06_18) < 0;
}

/*
 * A request id as a key for calls.c: "s:" and a string's value, "n:" and
 * an integer's digits.  NULL for anything else.
 */
char *
mcp_id_key(json_object *id)
{
	if (json_object_is_type(id, json_type_string))
		return mcp_psprintf("s:%s", json_object_get_string(id));
	if (json_object_is_type(id, json_type_int))
		return mcp_psprintf("n:%lld", (long long) json_object_get_int64(id));
	return NULL;
}

/*
 * notifications/progress for the request, elapsed_ms into its statement.
 * progress must increase: it counts whole seconds.
 */
json_object *
mcp_progress_notification(const McpContext *ctx, double elapsed_ms)
{
	json_object *message = json_object_new_object();
	json_object *params = json_object_new_object();
	char	   *txt = mcp_psprintf("running for %.0f s", elapsed_ms / 1000.0);

	json_object_object_add(params, "progressToken", json_object_get(ctx->progress_token));
	json_object_object_add(params, "progress",
						   json_object_new_int64((int64_t) (elapsed_ms / 1000.0 + 0.5)));
	json_object_object_add(params, "message", json_object_new_string(txt));
	free(txt);
	json_object_object_add(message, "jsonrpc", json_object_new_string("2.0"));
	json_object_object_add(message, "method", json_object_new_string("notifications/progress"));
	json_object_object_add(message, "params", params);
	return message;
}

/*
 * Note the request's progress token (a string or an integer), if any.
 */
static void
set_progress_token(McpContext *ctx, json_object *params)
{
	json_object *meta;
	json_object *token;

	ctx->progress_token = NULL;
	if (params != NULL &&
		json_object_object_get_ex(params, "_meta", &meta) &&
		json_object_is_type(meta, json_type_object) &&
		json_object_object_get_ex(meta, "progressToken", &token) &&
		(json_object_is_type(token, json_type_string) ||
		 json_object_is_type(token, json_type_int)))
		ctx->progress_token = token;
}

/*
 * initialize: negotiate the revision, describe the server.
 */
static json_object *
handle_initialize(McpContext *ctx, json_object *id, const McpRequest *req)
{
	json_object *params = req->params;
	bool		in_batch = req->in_batch;
	json_object *version;
	json_object *client_info;
	json_object *result;
	const char *requested;

	if (in_batch)
		return jsonrpc_error(id, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: initialize must not be part of a batch",
							 NULL);
	if (ctx->session == NULL)
		return jsonrpc_error(id, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: initialize needs a session", NULL);
	if (ctx->session->revision != NULL)
		return jsonrpc_error(id, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: the session is already initialized",
							 NULL);
	if (params == NULL ||
		!json_object_object_get_ex(params, "protocolVersion", &version) ||
		!json_object_is_type(version, json_type_string))
		return invalid_params(id, "Invalid params: protocolVersion (a string) is required");

	requested = json_object_get_string(version);
	ctx->session->revision = ctx->revision = mcp_session_revision_for(requested);
	if (json_object_object_get_ex(params, "clientInfo", &client_info) &&
		json_object_is_type(client_info, json_type_object))
	{
		json_object *name = json_object_object_get(client_info, "name");
		json_object *cversion = json_object_object_get(client_info, "version");

		mcp_log(MCP_LOG_INFO, "client %s %s asked for revision %s, using %s",
				name ? json_object_get_string(name) : "(unnamed)",
				cversion ? json_object_get_string(cversion) : "",
				requested, ctx->revision);
	}

	result = json_object_new_object();
	json_object_object_add(result, "protocolVersion",
						   json_object_new_string(ctx->revision));
	json_object_object_add(result, "capabilities", server_capabilities(ctx));
	json_object_object_add(result, "serverInfo", mcp_server_info(ctx->revision));
	json_object_object_add(result, "instructions",
						   json_object_new_string(INSTRUCTIONS));
	return jsonrpc_result(id, result);
}

/*
 * ping: an empty result.
 */
static json_object *
handle_ping(McpContext *ctx, json_object *id, const McpRequest *req)
{
	return jsonrpc_result(id, json_object_new_object());
}

/*
 * server/discover (2026-07-28): what initialize told the session-based
 * revisions, for one request.
 */
static json_object *
handle_discover(McpContext *ctx, json_object *id, const McpRequest *req)
{
	json_object *result = json_object_new_object();

	json_object_object_add(result, "supportedVersions", mcp_supported_revisions());
	json_object_object_add(result, "capabilities", server_capabilities(ctx));
	json_object_object_add(result, "instructions", json_object_new_string(INSTRUCTIONS));
	add_caching_hints(ctx, result);
	return jsonrpc_result(id, result);
}

/*
 * What the server offers: tools only.
 */
static json_object *
server_capabilities(const McpContext *ctx)
{
	json_object *capabilities = json_object_new_object();
	json_object *tools = json_object_new_object();

	json_object_object_add(tools, "listChanged",
						   json_object_new_boolean(ctx->session != NULL &&
												   ctx->session->watch_catalog));
	json_object_object_add(capabilities, "tools", tools);
	return capabilities;
}

/*
 * 2026-07-28's caching hints (server/utilities/caching.mdx).  The tool
 * list follows the role's settings, so with authentication (one role per
 * token) a cache must not share it across callers.
 */
static void
add_caching_hints(const McpContext *ctx, json_object *result)
{
	if (!ctx->stateless)
		return;
	json_object_object_add(result, "ttlMs", json_object_new_int(CATALOG_TTL_MS));
	json_object_object_add(result, "cacheScope",
						   json_object_new_string(ctx->role != NULL ? "private" : "public"));
}

/*
 * tools/list: the extension's MCP catalog, all in one page (no cursor).
 */
static json_object *
handle_tools_list(McpContext *ctx, json_object *id, const McpRequest *req)
{
	McpDbResult db;
	json_object *response;
	double		start = mcp_now_ms();

	mcp_db_query(ctx, mcp_tools_list_sql(ctx->revision), 0, NULL, &db);
	note_outcome(ctx, &db);
	if (db.status == MCP_DB_OK &&
		(db.values[0] == NULL || db.values[1] == NULL ||
		 strcmp(db.values[1], "array") != 0))
		unexpected_answer(&db, "ai_tool_list('mcp') did not answer with a JSON array");
	if (db.status == MCP_DB_OK)
	{
		json_object *result = json_object_new_object();

		json_object_object_add(result, "tools",
							   verbatim_json(json_object_new_array(), db.values[0]));
		add_caching_hints(ctx, result);
		mcp_catalog_seen(ctx->session, db.values[0]);
		response = jsonrpc_result(id, result);
	}
	else
	{
		json_object *data = failure_envelope(NULL, &db, mcp_now_ms() - start);
		char	   *message = mcp_psprintf("Internal error: could not list the tools: %s",
										   db.message);

		response = jsonrpc_error(id, JSONRPC_INTERNAL_ERROR, message, data);
		free(message);
	}
	mcp_db_result_free(&db);
	return response;
}

/*
 * tools/call: run one tool through ai_tool_call().  The server reports the
 * answer's success flag beside its text, so the answer (up to
 * neon_ai_tools.max_response_bytes, 1MB by default) is never parsed here.
 */
static json_object *
handle_tools_call(McpContext *ctx, json_object *id, const McpRequest *req)
{
	json_object *params = req->params;
	const char *params_text = req->params_text;
	size_t		params_len = req->params_len;
	json_object *name;
	json_object *arguments = NULL;
	const char *arguments_text;
	size_t		arguments_len;
	char	   *arguments_copy = NULL;
	const char *values[2];
	McpDbResult db;
	json_object *envelope;
	json_object *response;
	double		start;
	char	   *key;

	if (params == NULL ||
		!json_object_object_get_ex(params, "name", &name) ||
		!json_object_is_type(name, json_type_string) ||
		json_object_get_string_len(name) == 0 ||
		strlen(json_object_get_string(name)) != (size_t) json_object_get_string_len(name))
		return invalid_params(id, "Invalid params: name (a non-empty string) is required");
	json_object_object_get_ex(params, "arguments", &arguments);
	if (arguments != NULL && !json_object_is_type(arguments, json_type_object))
		return invalid_params(id, "Invalid params: arguments must be an object");

	/* the client's own text: json-c would change big numbers and escapes */
	if (arguments != NULL)
	{
		if (!mcp_json_member(params_text, params_len, "arguments",
							 &arguments_text, &arguments_len))
			return jsonrpc_error(id, JSONRPC_INTERNAL_ERROR,
								 "Internal error: could not find arguments in the message",
								 NULL);
		arguments_copy = mcp_strndup(arguments_text, arguments_len);
	}

	values[0] = json_object_get_string(name);
	values[1] = arguments_copy != NULL ? arguments_copy : "{}";
	mcp_log(MCP_LOG_DEBUG, "calling tool %s", values[0]);

	start = mcp_now_ms();
	mcp_log_copy_name(ctx->tool, sizeof(ctx->tool), values[0]);
	key = mcp_id_key(id);
	ctx->inflight = mcp_inflight_begin(ctx->scope, key);
	free(key);
	mcp_db_query(ctx, "SELECT r::text, CASE jsonb_typeof(r) WHEN 'object' "
				 "THEN coalesce(r->'success' = 'true', false) END "
				 "FROM ai_tool_call($1, $2::jsonb) r", 2, values, &db);
	mcp_inflight_end(ctx->inflight);
	ctx->inflight = NULL;
	note_outcome(ctx, &db);
	if (db.status == MCP_DB_OK && (db.values[0] == NULL || db.values[1] == NULL))
		unexpected_answer(&db, "ai_tool_call() did not answer with a JSON object");
	if (db.status == MCP_DB_OK)
	{
		envelope = verbatim_json(json_object_new_object(), db.values[0]);
		if (strcmp(db.values[1], "t") != 0)
			note_tool_error(ctx, db.values[0]);
		ctx->bytes = strlen(db.values[0]);
		/* a name the extension does not know must not become a label */
		mcp_metrics_tool_call(values[0], strcmp(ctx->outcome, "unknown_tool") != 0,
							  ctx->role, ctx->outcome, mcp_now_ms() - start,
							  strlen(db.values[0]));
		response = jsonrpc_result(id, tool_result(ctx, db.values[0], envelope,
												  strcmp(db.values[1], "t") != 0));
	}
	else
	{
		/* the statement itself failed: an envelope of our own, isError */
		char	   *txt;

		envelope = failure_envelope(values[0], &db, mcp_now_ms() - start);
		txt = mcp_strdup(json_object_to_json_string_ext(envelope,
														JSON_C_TO_STRING_PLAIN |
														JSON_C_TO_STRING_NOSLASHESCAPE));

		ctx->bytes = strlen(txt);
		mcp_metrics_tool_call(values[0], false, ctx->role, ctx->outcome,
							  mcp_now_ms() - start, strlen(txt));
		response = jsonrpc_result(id, tool_result(ctx, txt, envelope, true));
		free(txt);
	}
	mcp_db_result_free(&db);
	free(arguments_copy);
	ctx->list_changed = mcp_catalog_changed(ctx);
	return response;
}

/*
 * Note how the statement went, for the request's log line and for the
 * HTTP status: a role the server refused is the token's fault (401), no
 * free connection is overload (503).
 */
static void
note_outcome(McpContext *ctx, const McpDbResult *db)
{
	ctx->outcome = db->status == MCP_DB_OK ? "ok" : db->error_type;
	if (db->status == MCP_DB_ROLE_REFUSED)
		ctx->http_status = 401;
	else if (db->status == MCP_DB_BUSY)
		ctx->http_status = 503;
}

/*
 * The tool answered with success false: the outcome is its envelope's
 * errorType (a category, never a value), else "tool_error".
 */
static void
note_tool_error(McpContext *ctx, const char *envelope)
{
	const char *type;
	size_t		len;

	ctx->outcome = "tool_error";
	if (mcp_json_member(envelope, strlen(envelope), "errorType", &type, &len) &&
		len >= 2 && type[0] == '"' && len - 2 < sizeof(ctx->category))
	{
		char		raw[sizeof(ctx->category)];

		memcpy(raw, type + 1, len - 2);
		raw[len - 2] = '\0';
		mcp_log_copy_name(ctx->category, sizeof(ctx->category), raw);
		ctx->outcome = ctx->category;
	}
}

/*
 * Turn an OK result that does not look as expected into an unknown_error.
 */
static void
unexpected_answer(McpDbResult *db, const char *message)
{
	int			i;

	for (i = 0; i < MCP_DB_MAX_COLUMNS; i++)
	{
		free(db->values[i]);
		db->values[i] = NULL;
	}
	db->status = MCP_DB_SQL_ERROR;
	db->message = mcp_strdup(message);
	db->error_type = "unknown_error";
	db->portable_type = "unknown";
	db->suggestion = "Check that the installed neon_ai_tools extension matches this program.";
}

/*
 * A -32602 answer.
 */
static json_object *
invalid_params(json_object *id, const char *message)
{
	return jsonrpc_error(id, JSONRPC_INVALID_PARAMS, message, NULL);
}

/*
 * A CallToolResult: the envelope's text as text content and, from revision
 * 2025-06-18 on, the envelope itself as structuredContent, with the text
 * block in the form --text-block asks for (text_block.c).  Before
 * 2025-06-18 the text is the only content: always the whole envelope.
 * Takes over envelope.
 */
static json_object *
tool_result(const McpContext *ctx, const char *txt, json_object *envelope,
			bool is_error)
{
	json_object *result = json_object_new_object();
	json_object *content = json_object_new_array();
	json_object *item = json_object_new_object();
	bool		structured = strcmp(ctx->revision, MCP_REVISION_2025_06_18) >= 0;
	char	   *block = structured
		? mcp_text_block_render(mcp_text_block_mode(), txt) : NULL;

	json_object_object_add(item, "type", json_object_new_string("text"));
	json_object_object_add(item, "text",
						   json_object_new_string(block != NULL ? block : txt));
	free(block);
	json_object_array_add(content, item);
	json_object_object_add(result, "content", content);
	if (structured)
		json_object_object_add(result, "structuredContent", envelope);
	else
		json_object_put(envelope);
	json_object_object_add(result, "isError", json_object_new_boolean(is_error));
	return result;
}

/*
 * The envelope for a failure of the program's own statement, shaped like
 * the extension's error answers (README, "Results"): success, status,
 * tool, error, errorType, error_type, sqlState/error_code, retryable,
 * suggestion, details, executionTime.  tool may be NULL (tools/list).
 */
static json_object *
failure_envelope(const char *tool, const McpDbResult *db, double elapsed_ms)
{
	json_object *envelope = json_object_new_object();
	char	   *elapsed = mcp_psprintf("%.1fms", elapsed_ms < 0 ? 0 : elapsed_ms);

	json_object_object_add(envelope, "success", json_object_new_boolean(0));
	json_object_object_add(envelope, "status", json_object_new_string("error"));
	if (tool != NULL)
		json_object_object_add(envelope, "tool", json_object_new_string(tool));
	json_object_object_add(envelope, "error",
						   json_object_new_string(db->message && db->message[0]
												  ? db->message : "unknown error"));
	json_object_object_add(envelope, "errorType",
						   json_object_new_string(db->error_type ? db->error_type
												  : "unknown_error"));
	json_object_object_add(envelope, "error_type",
						   json_object_new_string(db->portable_type ? db->portable_type
												  : "unknown"));
	if (db->sqlstate[0] != '\0')
	{
		json_object_object_add(envelope, "error_code", json_object_new_string(db->sqlstate));
		json_object_object_add(envelope, "sqlState", json_object_new_string(db->sqlstate));
	}
	json_object_object_add(envelope, "retryable", json_object_new_boolean(db->retryable));
	if (db->suggestion != NULL)
		json_object_object_add(envelope, "suggestion",
							   json_object_new_string(db->suggestion));
	if (db->detail != NULL || db->hint != NULL)
	{
		json_object *details = json_object_new_object();

		if (db->detail != NULL)
			json_object_object_add(details, "detail", json_object_new_string(db->detail));
		if (db->hint != NULL)
			json_object_object_add(details, "hint", json_object_new_string(db->hint));
		json_object_object_add(envelope, "details", details);
	}
	json_object_object_add(envelope, "executionTime", json_object_new_string(elapsed));
	free(elapsed);
	return envelope;
}

/*
 * Make value (a fresh, empty object or array) serialize as text, which is
 * JSON from the server (jsonb output: valid, no raw newlines).  The text is
 * passed on byte for byte: re-encoding it with json-c would saturate
 * integers beyond 64 bits, and numerics must stay exact.
 */
static json_object *
verbatim_json(json_object *value, const char *txt)
{
	json_object_set_serializer(value, json_object_userdata_to_json_string,
							   mcp_strdup(txt), json_object_free_userdata);
	return value;
}
