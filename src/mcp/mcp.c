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
 *	  structuredContent (kept byte for byte, so numerics stay exact), with
 *	  isError = !success.  That includes unknown tools (the extension's
 *	  unknown_tool answer lists the tools, which lets a model correct
 *	  itself) and failures of the statement itself (no connection,
 *	  extension missing, arguments PostgreSQL rejects): an envelope of the
 *	  same shape, built here.
 *
 * IDENTIFICATION
 *	  src/mcp/mcp.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "neon_ai_tools_mcp.h"

/* newest first; the first one is the default */
static const char *const SUPPORTED_REVISIONS[] = {
	"2025-11-25",
	"2025-06-18",
	"2025-03-26",
	"2024-11-05",
	NULL
};

static const char *const INSTRUCTIONS =
"Tools of the neon_ai_tools PostgreSQL extension. They run inside the "
"database as the connected role, with its privileges, row-level security, "
"timeouts and row caps. Start with list_tables and describe_table to learn "
"the schema. Every tool answers with one JSON object: success true with "
"data (rows), or success false with errorType, error and a suggestion to "
"act on.";

/* the session: the revision initialize negotiated (NULL before it) */
static const char *negotiated_revision = NULL;

/* one request as the handlers see it */
typedef struct McpRequest
{
	json_object *params;		/* NULL or an object */
	const char *params_text;	/* its exact text in the message */
	size_t		params_len;
	bool		in_batch;
} McpRequest;

typedef json_object *(*McpHandler) (json_object *id, const McpRequest *req);

static json_object *handle_initialize(json_object *id, const McpRequest *req);
static json_object *handle_ping(json_object *id, const McpRequest *req);
static json_object *handle_tools_list(json_object *id, const McpRequest *req);
static json_object *handle_tools_call(json_object *id, const McpRequest *req);

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
};
static json_object *invalid_params(json_object *id, const char *message);
static json_object *failure_envelope(const char *tool, const McpDbResult *db,
									 double elapsed_ms);
static json_object *verbatim_json(json_object *value, const char *text);
static void unexpected_answer(McpDbResult *db, const char *message);
static json_object *tool_result(const char *text, json_object *envelope,
								bool is_error);
static const char *session_revision(void);
static double now_ms(void);

/*
 * Answer one request.  params is NULL, an object or an array;
 * params_text/params_len is its exact text in the message.
 */
json_object *
mcp_dispatch(const char *method, json_object *id, json_object *params,
			 const char *params_text, size_t params_len, bool in_batch)
{
	McpRequest	req = {params, params_text, params_len, in_batch};
	json_object *data;
	size_t		i;

	mcp_log(MCP_LOG_DEBUG, "request %s", method);
	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
	{
		if (strcmp(method, methods[i].method) != 0)
			continue;
		if (params != NULL && !json_object_is_type(params, json_type_object))
			return invalid_params(id, "Invalid params: params must be an object");
		return methods[i].handler(id, &req);
	}
	data = json_object_new_object();
	json_object_object_add(data, "method", json_object_new_string(method));
	return jsonrpc_error(id, JSONRPC_METHOD_NOT_FOUND, "Method not found", data);
}

/*
 * Notifications are never answered.
 */
void
mcp_handle_notification(const char *method, json_object *params)
{
	if (strcmp(method, "notifications/initialized") == 0)
		mcp_log(MCP_LOG_DEBUG, "the client is ready");
	else
		mcp_log(MCP_LOG_DEBUG, "ignored notification %s", method);
}

/*
 * Batches exist in the revisions before 2025-06-18 only; *revision is set
 * to the session's revision for the error message.
 */
bool
mcp_batches_allowed(const char **revision)
{
	*revision = session_revision();
	return negotiated_revision != NULL &&
		strcmp(negotiated_revision, "2025-06-18") < 0;
}

/*
 * initialize: negotiate the revision, describe the server.
 */
static json_object *
handle_initialize(json_object *id, const McpRequest *req)
{
	json_object *params = req->params;
	bool		in_batch = req->in_batch;
	json_object *version;
	json_object *client_info;
	json_object *result;
	json_object *capabilities;
	json_object *tools;
	json_object *server_info;
	const char *requested;
	int			i;

	if (in_batch)
		return jsonrpc_error(id, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: initialize must not be part of a batch",
							 NULL);
	if (negotiated_revision != NULL)
		return jsonrpc_error(id, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: the session is already initialized",
							 NULL);
	if (params == NULL ||
		!json_object_object_get_ex(params, "protocolVersion", &version) ||
		!json_object_is_type(version, json_type_string))
		return invalid_params(id, "Invalid params: protocolVersion (a string) is required");

	requested = json_object_get_string(version);
	negotiated_revision = SUPPORTED_REVISIONS[0];
	for (i = 0; SUPPORTED_REVISIONS[i] != NULL; i++)
		if (strcmp(requested, SUPPORTED_REVISIONS[i]) == 0)
			negotiated_revision = SUPPORTED_REVISIONS[i];
	if (json_object_object_get_ex(params, "clientInfo", &client_info) &&
		json_object_is_type(client_info, json_type_object))
	{
		json_object *name = json_object_object_get(client_info, "name");
		json_object *cversion = json_object_object_get(client_info, "version");

		mcp_log(MCP_LOG_INFO, "client %s %s asked for revision %s, using %s",
				name ? json_object_get_string(name) : "(unnamed)",
				cversion ? json_object_get_string(cversion) : "",
				requested, negotiated_revision);
	}

	result = json_object_new_object();
	json_object_object_add(result, "protocolVersion",
						   json_object_new_string(negotiated_revision));
	capabilities = json_object_new_object();
	tools = json_object_new_object();
	json_object_object_add(tools, "listChanged", json_object_new_boolean(0));
	json_object_object_add(capabilities, "tools", tools);
	json_object_object_add(result, "capabilities", capabilities);
	server_info = json_object_new_object();
	json_object_object_add(server_info, "name", json_object_new_string(MCP_PROGNAME));
	if (strcmp(negotiated_revision, "2025-06-18") >= 0)
		json_object_object_add(server_info, "title",
							   json_object_new_string("neon_ai_tools"));
	json_object_object_add(server_info, "version", json_object_new_string(MCP_VERSION));
	json_object_object_add(result, "serverInfo", server_info);
	json_object_object_add(result, "instructions",
						   json_object_new_string(INSTRUCTIONS));
	return jsonrpc_result(id, result);
}

/*
 * ping: an empty result.
 */
static json_object *
handle_ping(json_object *id, const McpRequest *req)
{
	return jsonrpc_result(id, json_object_new_object());
}

/*
 * tools/list: the extension's MCP catalog, all in one page (no cursor).
 */
static json_object *
handle_tools_list(json_object *id, const McpRequest *req)
{
	McpDbResult db;
	json_object *response;
	double		start = now_ms();

	/* outputSchema came with 2025-06-18, as structuredContent did */
	mcp_db_query(strcmp(session_revision(), "2025-06-18") >= 0 ?
				 "SELECT l::text, jsonb_typeof(l) FROM ai_tool_list('mcp') l" :
				 "SELECT l::text, jsonb_typeof(l) FROM (SELECT coalesce(jsonb_agg(t - 'outputSchema' ORDER BY n), '[]') l"
				 " FROM jsonb_array_elements(ai_tool_list('mcp')) WITH ORDINALITY e(t, n)) s",
				 0, NULL, &db);
	if (db.status == MCP_DB_OK &&
		(db.values[0] == NULL || db.values[1] == NULL ||
		 strcmp(db.values[1], "array") != 0))
		unexpected_answer(&db, "ai_tool_list('mcp') did not answer with a JSON array");
	if (db.status == MCP_DB_OK)
	{
		json_object *result = json_object_new_object();

		json_object_object_add(result, "tools",
							   verbatim_json(json_object_new_array(), db.values[0]));
		response = jsonrpc_result(id, result);
	}
	else
	{
		json_object *data = failure_envelope(NULL, &db, now_ms() - start);
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
handle_tools_call(json_object *id, const McpRequest *req)
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

	start = now_ms();
	mcp_db_query("SELECT r::text, CASE jsonb_typeof(r) WHEN 'object' "
				 "THEN coalesce(r->'success' = 'true', false) END "
				 "FROM ai_tool_call($1, $2::jsonb) r", 2, values, &db);
	if (db.status == MCP_DB_OK && (db.values[0] == NULL || db.values[1] == NULL))
		unexpected_answer(&db, "ai_tool_call() did not answer with a JSON object");
	if (db.status == MCP_DB_OK)
	{
		envelope = verbatim_json(json_object_new_object(), db.values[0]);
		response = jsonrpc_result(id, tool_result(db.values[0], envelope,
												  strcmp(db.values[1], "t") != 0));
	}
	else
	{
		/* the statement itself failed: an envelope of our own, isError */
		char	   *text;

		envelope = failure_envelope(values[0], &db, now_ms() - start);
		text = mcp_strdup(json_object_to_json_string_ext(envelope,
														 JSON_C_TO_STRING_PLAIN |
														 JSON_C_TO_STRING_NOSLASHESCAPE));

		response = jsonrpc_result(id, tool_result(text, envelope, true));
		free(text);
	}
	mcp_db_result_free(&db);
	free(arguments_copy);
	return response;
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
 * 2025-06-18 on, the envelope itself as structuredContent.  Takes over
 * envelope.
 */
static json_object *
tool_result(const char *text, json_object *envelope, bool is_error)
{
	json_object *result = json_object_new_object();
	json_object *content = json_object_new_array();
	json_object *item = json_object_new_object();

	json_object_object_add(item, "type", json_object_new_string("text"));
	json_object_object_add(item, "text", json_object_new_string(text));
	json_object_array_add(content, item);
	json_object_object_add(result, "content", content);
	if (strcmp(session_revision(), "2025-06-18") >= 0)
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
verbatim_json(json_object *value, const char *text)
{
	json_object_set_serializer(value, json_object_userdata_to_json_string,
							   mcp_strdup(text), json_object_free_userdata);
	return value;
}

/*
 * The revision the session speaks: the negotiated one, or the newest
 * before initialize.
 */
static const char *
session_revision(void)
{
	return negotiated_revision != NULL ? negotiated_revision : SUPPORTED_REVISIONS[0];
}

/*
 * A monotonic clock in milliseconds.
 */
static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}
