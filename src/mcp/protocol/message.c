/*-------------------------------------------------------------------------
 *
 * message.c
 *	  One message as a transport received it, one request or notification
 *	  (jsonrpc.c) or a batch of them (batch.c).
 *
 * The top of the protocol layer: the transports hand it a line (stdio) or
 * a body (HTTP).  A batch's members come back through jsonrpc.c one by one,
 * so that neither jsonrpc.c nor batch.c calls the other back.
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/message.c
 *
 *-------------------------------------------------------------------------
 */
#include "protocol/protocol.h"

/*
 * Process one input line; returns the message to send back, or NULL when
 * there is nothing to answer (a notification, a blank line, a response).
 */
json_object *
jsonrpc_process_line(McpContext *ctx, const char *line, size_t len)
{
	json_object *message;
	json_object *error;
	json_object *response;

	if (!jsonrpc_parse(line, len, &message, &error))
		return error;			/* NULL for a blank line */
	response = jsonrpc_process_parsed(ctx, message, line, len);
	json_object_put(message);
	return response;
}

/*
 * Answer a parsed message (a request, a notification or a batch) whose
 * exact text is text, len.  NULL when nothing is to be answered.  A batch
 * comes from jsonrpc_parse() as an empty array: batch.c reads its members
 * from the text.
 */
json_object *
jsonrpc_process_parsed(McpContext *ctx, json_object *message, const char *txt,
					   size_t len)
{
	if (json_object_is_type(message, json_type_array))
		return mcp_batch_process(ctx, txt, len);
	return jsonrpc_process_one(ctx, message, txt, len);
}
