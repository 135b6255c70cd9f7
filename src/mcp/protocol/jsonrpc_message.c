/*-------------------------------------------------------------------------
 *
 * jsonrpc_message.c
 *	  JSON-RPC 2.0 answers of neon-ai-tools-mcp: a result, an error, and
 *	  a message as one line of text.
 *
 * The lowest file of the protocol layer: the method handlers (mcp.c), the
 * revisions (revision.c), the framing (jsonrpc.c), batches and the
 * transports build their answers with these, and they call nothing back.
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/jsonrpc_message.c
 *
 *-------------------------------------------------------------------------
 */
#include "protocol/protocol.h"

/*
 * {"jsonrpc": "2.0", "id": id, "result": result}.  Takes over result; id
 * is borrowed (a reference is added).
 */
json_object *
jsonrpc_result(json_object *id, json_object *result)
{
	json_object *response = json_object_new_object();

	json_object_object_add(response, "jsonrpc", json_object_new_string("2.0"));
	json_object_object_add(response, "id", json_object_get(id));
	json_object_object_add(response, "result", result);
	return response;
}

/*
 * {"jsonrpc": "2.0", "id": id, "error": {code, message[, data]}}.  A NULL
 * id is written as null.  Takes over data (may be NULL); id is borrowed.
 */
json_object *
jsonrpc_error(json_object *id, int code, const char *message, json_object *data)
{
	json_object *response = json_object_new_object();
	json_object *error = json_object_new_object();

	json_object_object_add(error, "code", json_object_new_int(code));
	json_object_object_add(error, "message", json_object_new_string(message));
	if (data != NULL)
		json_object_object_add(error, "data", data);
	json_object_object_add(response, "jsonrpc", json_object_new_string("2.0"));
	json_object_object_add(response, "id", json_object_get(id));
	json_object_object_add(response, "error", error);
	return response;
}

/*
 * The answer to a line that exceeded the size limit (and was skipped).
 */
json_object *
jsonrpc_oversized_error(size_t max_bytes)
{
	json_object *data = json_object_new_object();

	json_object_object_add(data, "maxBytes", json_object_new_int64((int64_t) max_bytes));
	mcp_log(MCP_LOG_WARNING, "skipped a message longer than %zu bytes", max_bytes);
	return jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
						 "Invalid Request: message too large", data);
}

/*
 * A message as one line of text (no raw newline: control characters in
 * strings are escaped), malloc'd.
 */
char *
jsonrpc_to_text(json_object *message)
{
	/* a batch's answer is text already (batch.c): one copy, no printbuf */
	if (json_object_is_type(message, json_type_array) &&
		json_object_get_userdata(message) != NULL)
		return mcp_strdup(json_object_get_userdata(message));
	return mcp_strdup(json_object_to_json_string_ext(message,
													 JSON_C_TO_STRING_PLAIN |
													 JSON_C_TO_STRING_NOSLASHESCAPE));
}
