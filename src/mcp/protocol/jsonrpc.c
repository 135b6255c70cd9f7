/*-------------------------------------------------------------------------
 *
 * jsonrpc.c
 *	  JSON-RPC 2.0 framing of neon-ai-tools-mcp.
 *
 * One input line is one message: a request (it has an id), a notification
 * (no id) or, in protocol revisions that allow them, a batch (an array of
 * those).  This file parses the line with json_tokener, checks the JSON-RPC
 * envelope and hands valid requests to mcp.c (a line enters through
 * message.c, which sends a batch to batch.c; the answers are built by
 * jsonrpc_message.c).  It answers with the standard codes:
 *
 *	-32700 parse error: not JSON (also: invalid UTF-8 anywhere, overlong
 *		   forms and surrogates included, a raw control character in a
 *		   string, trailing characters, nesting deeper than MAX_DEPTH); id
 *		   null;
 *	-32600 invalid request: not an object, "jsonrpc" is not "2.0", no
 *		   string "method", an id that is not a string or an integer
 *		   within 64 bits (MCP forbids null ids; 1.0, 1e2 and
 *		   18446744073709551616 are refused, not rounded; a string with an
 *		   unpaired \u surrogate escape is refused, not replaced; then id
 *		   null), "params" that is not structured, an empty or forbidden
 *		   batch, a line over the size limit;
 *	-32601 and -32602 come from mcp.c.
 *
 * An id is echoed as the exact text the client sent (rawjson.c), so it
 * comes back unchanged whatever its escapes or digits.
 *
 * Notifications are never answered, whatever their method.  Unknown members
 * of a message are ignored.  Responses a client sends (objects with
 * "result" or "error" and no "method") are ignored too: this server sends
 * no requests.
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/jsonrpc.c
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

/* deepest nesting json_tokener accepts (its default is 32) */
#define MAX_DEPTH 64

static json_object *parse_line(const char *line, size_t len,
							   json_object **error_data);
static json_object *parse_failure(const char *reason, size_t offset,
								  json_object **error_data);
static json_object *process_message(McpContext *ctx, json_object *message,
									const char *txt, size_t len,
									bool in_batch);
static bool valid_id(json_object *id, const char *txt, size_t len);

/*
 * Parse one message (line, len).  True with *message (NULL for the JSON
 * value null, which is answered as an invalid request) when there is a
 * message to process; false with *error the -32700 answer, or NULL for a
 * blank line, which is no message.
 */
bool
jsonrpc_parse(const char *line, size_t len, json_object **message,
			  json_object **error)
{
	json_object *error_data = NULL;
	size_t		i;

	*message = NULL;
	*error = NULL;
	for (i = 0; i < len && isspace((unsigned char) line[i]); i++)
		;
	if (i == len)
		return false;			/* blank lines are not messages */

	if (line[i] == '[')
	{
		/* a batch: checked whole here, parsed member by member (batch.c) */
		size_t		end;
		const char *reason = NULL;

		if (mcp_json_check(line, len, MAX_DEPTH, &end, &reason))
		{
			*message = json_object_new_array();
			return true;
		}
		parse_failure(reason, end, &error_data);
	}
	else
		*message = parse_line(line, len, &error_data);
	if (error_data != NULL)
	{
		*error = jsonrpc_error(NULL, JSONRPC_PARSE_ERROR, "Parse error", error_data);
		return false;
	}
	return true;
}

/*
 * Answer one parsed message that is not a batch (message.c), whose exact
 * text is text, len.  NULL when nothing is to be answered.
 */
json_object *
jsonrpc_process_one(McpContext *ctx, json_object *message, const char *txt,
					size_t len)
{
	return process_message(ctx, message, txt, len, false);
}

/*
 * Answer one member of a batch, given its text (checked already).
 */
json_object *
jsonrpc_process_member(McpContext *ctx, const char *txt, size_t len)
{
	json_object *error_data = NULL;
	json_object *member = parse_line(txt, len, &error_data);
	json_object *response;

	if (error_data != NULL)
		return jsonrpc_error(NULL, JSONRPC_PARSE_ERROR, "Parse error", error_data);
	response = process_message(ctx, member, txt, len, true);
	json_object_put(member);
	return response;
}

/*
 * The id of a batch member that is a request (an object with a method and
 * a valid id), set to serialize as its text; NULL for anything else.
 */
json_object *
jsonrpc_member_id(const char *txt, size_t len)
{
	json_object *error_data = NULL;
	json_object *member = parse_line(txt, len, &error_data);
	json_object *id = NULL;

	json_object_put(error_data);
	if (json_object_is_type(member, json_type_object) &&
		json_object_object_get_ex(member, "method", NULL) &&
		json_object_object_get_ex(member, "id", &id) &&
		valid_id(id, txt, len))
		json_object_get(id);
	else
		id = NULL;
	json_object_put(member);
	return id;
}

static json_object *
parse_line(const char *line, size_t len, json_object **error_data)
{
	json_tokener *tok;
	json_object *value = NULL;
	enum json_tokener_error err;
	size_t		end;
	const char *reason = NULL;

	/*
	 * The grammar and the encoding are checked on the text (rawjson.c);
	 * json-c then only builds the tree, not in strict mode, which newer
	 * json-c makes refuse numbers beyond 64 bits (their text is what counts).
	 */
	if (!mcp_json_check_message(line, len, MAX_DEPTH, &end, &reason))
		return parse_failure(reason, end, error_data);

	tok = json_tokener_new_ex(MAX_DEPTH + 1);
	value = json_tokener_parse_ex(tok, line, (int) len);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (value == NULL && err == json_tokener_continue)
	{
		/* all of it was read; a bare number needs a terminator to end */
		value = json_tokener_parse_ex(tok, "", 1);
		err = json_tokener_get_error(tok);
		if (value == NULL && err == json_tokener_continue)
			reason = "unexpected end of message";
	}
	if (value == NULL && reason == NULL && err != json_tokener_success)
		reason = json_tokener_error_desc(err);
	else if (value != NULL)
	{
		/* only whitespace may follow the value */
		for (; end < len; end++)
			if (!isspace((unsigned char) line[end]))
			{
				reason = "unexpected characters after the JSON value";
				break;
			}
	}
	json_tokener_free(tok);
	if (reason != NULL)
	{
		json_object_put(value);
		return parse_failure(reason, end, error_data);
	}
	return value;
}

/*
 * Set *error_data to {reason, offset} for a parse error's "data"; returns
 * NULL.
 */
static json_object *
parse_failure(const char *reason, size_t offset, json_object **error_data)
{
	json_object *data = json_object_new_object();

	json_object_object_add(data, "reason", json_object_new_string(reason));
	json_object_object_add(data, "offset", json_object_new_int64((int64_t) offset));
	*error_data = data;
	mcp_log(MCP_LOG_WARNING, "parse error at byte %zu: %s", offset, reason);
	return NULL;
}

/*
 * Check one message's JSON-RPC envelope and dispatch it.  text/len is the
 * message's own text.
 */
static json_object *
process_message(McpContext *ctx, json_object *message, const char *txt,
				size_t len, bool in_batch)
{
	json_object *id = NULL;
	json_object *jsonrpc = NULL;
	json_object *method = NULL;
	json_object *params = NULL;
	const char *params_text = NULL;
	size_t		params_len = 0;
	bool		has_id;

	if (!json_object_is_type(message, json_type_object))
		return jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: a message must be a JSON object", NULL);

	has_id = json_object_object_get_ex(message, "id", &id);
	if (has_id && !valid_id(id, txt, len))
		return jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: id must be a string or an integer within 64 bits",
							 NULL);
	if (!json_object_object_get_ex(message, "method", &method))
	{
		if (has_id && (json_object_object_get_ex(message, "result", NULL) ||
					   json_object_object_get_ex(message, "error", NULL)))
		{
			mcp_log(MCP_LOG_DEBUG, "ignored a response from the client");
			return NULL;
		}
		return jsonrpc_error(id, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: method is missing", NULL);
	}
	if (!json_object_object_get_ex(message, "jsonrpc", &jsonrpc) ||
		!json_object_is_type(jsonrpc, json_type_string) ||
		strcmp(json_object_get_string(jsonrpc), "2.0") != 0)
		return jsonrpc_error(id, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: jsonrpc must be \"2.0\"", NULL);
	if (!json_object_is_type(method, json_type_string))
		return jsonrpc_error(id, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: method must be a string", NULL);
	json_object_object_get_ex(message, "params", &params);
	if (params != NULL &&
		!json_object_is_type(params, json_type_object) &&
		!json_object_is_type(params, json_type_array))
		return jsonrpc_error(id, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: params must be an object", NULL);
	if (params != NULL &&
		!mcp_json_member(txt, len, "params", &params_text, &params_len))
		return jsonrpc_error(id, JSONRPC_INTERNAL_ERROR,
							 "Internal error: could not find params in the message",
							 NULL);

	if (!has_id)
	{
		mcp_log_copy_name(ctx->method, sizeof(ctx->method), json_object_get_string(method));
		mcp_handle_notification(ctx, json_object_get_string(method), params);
		return NULL;
	}
	return mcp_dispatch(ctx, json_object_get_string(method), id, params,
						params_text, params_len, in_batch);
}

/*
 * MCP ids: a string or an integer, never null (JSON-RPC would also allow
 * fractions; MCP does not).  An integer must be written as one (not 1.0 or
 * 1e2) and fit in 64 signed bits: json-c would round or saturate anything
 * else.  A string must be valid Unicode (no unpaired \u surrogate).  A
 * valid id is then set to serialize as its text in the message (text/len),
 * so every answer echoes it byte for byte.
 */
static bool
valid_id(json_object *id, const char *txt, size_t len)
{
	const char *id_text;
	size_t		id_len;

	if (!json_object_is_type(id, json_type_string) &&
		!json_object_is_type(id, json_type_int) &&
		!json_object_is_type(id, json_type_double))
		return false;
	if (!mcp_json_member(txt, len, "id", &id_text, &id_len))
		return false;
	if (json_object_is_type(id, json_type_string)
		? !mcp_json_string_is_unicode(id_text, id_len)
		: !mcp_json_is_int64(id_text, id_len))
		return false;
	json_object_set_serializer(id, json_object_userdata_to_json_string,
							   mcp_strndup(id_text, id_len),
							   json_object_free_userdata);
	return true;
}
