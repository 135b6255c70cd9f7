/*-------------------------------------------------------------------------
 *
 * batch.c
 *	  JSON-RPC batches, bounded in members and in the bytes of their answers.
 *
 * Only the protocol revisions before 2025-06-18 have batches.  A batch is
 * never held as one json-c tree: its text was checked (rawjson.c) when it
 * was read, and each member is parsed, answered and freed in turn, its
 * answer kept as text only.  Two limits bound what one batch costs:
 *
 *	- members: at most max_members members are run;
 *	- bytes: once the answers kept reach max_bytes, no further member runs
 *	  (so the answers stay under max_bytes plus one answer).
 *
 * Past either limit, each remaining request (a member with an id) is
 * answered with -32600 naming the limit, in data.limit, and is not run;
 * remaining notifications and members that are not requests get nothing.
 * Such an answer is about 150 bytes plus its id, and a request is at least
 * about 40 bytes of the body, so those answers stay within a few times
 * the body's size.
 *
 * The members are found one after the other in the text (no table of
 * them), and each is checked again when parsed, with the limits on what
 * one message may hold (rawjson.c), so a batch costs no more json-c memory
 * than its largest member.
 *
 * The batch's answer is an array whose text is kept as the object's
 * serialization (json_object_set_serializer), so writing it out copies
 * the text once and builds no tree.
 *
 * IDENTIFICATION
 *	  src/mcp/batch.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "neon_ai_tools_mcp.h"

static int	max_members = MCP_DEFAULT_BATCH_MEMBERS;
static size_t max_bytes = MCP_DEFAULT_BATCH_BYTES;

typedef struct BatchText
{
	char	   *data;
	size_t		len;
	size_t		cap;
} BatchText;

static json_object *limit_error(const char *text, size_t len, bool members);
static void append(BatchText *out, const char *text, size_t n);

/*
 * Set the limits (--max-batch-members, --max-batch-bytes).
 */
void
mcp_batch_configure(int members, size_t bytes)
{
	if (members > 0)
		max_members = members;
	if (bytes > 0)
		max_bytes = bytes;
}

/*
 * Answer the batch whose text is text/len (an array, checked already).
 * NULL when nothing is to be answered (every member a notification).
 */
json_object *
mcp_batch_process(McpContext *ctx, const char *text, size_t len)
{
	BatchText	out = {NULL, 0, 0};
	const char *revision;
	const char *member;
	size_t		member_len;
	size_t		pos = 0;
	long		i;
	json_object *answer;

	if (!mcp_json_next_element(text, len, &pos, &member, &member_len))
		return jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
							 "Invalid Request: empty batch", NULL);
	pos = 0;
	if (!mcp_batches_allowed(ctx, &revision))
	{
		char	   *message = mcp_psprintf("Invalid Request: JSON-RPC batches are not supported in protocol revision %s",
										   revision);

		answer = jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST, message, NULL);
		free(message);
		return answer;
	}
	for (i = 0; mcp_json_next_element(text, len, &pos, &member, &member_len); i++)
	{
		const char *answer_text;

		if (i >= max_members)
			answer = limit_error(member, member_len, true);
		else if (out.len >= max_bytes)
			answer = limit_error(member, member_len, false);
		else
			answer = jsonrpc_process_member(ctx, member, member_len);
		if (answer == NULL)
			continue;
		answer_text = json_object_to_json_string_ext(answer,
													 JSON_C_TO_STRING_PLAIN |
													 JSON_C_TO_STRING_NOSLASHESCAPE);
		append(&out, out.len == 0 ? "[" : ",", 1);
		append(&out, answer_text, strlen(answer_text));
		json_object_put(answer);
	}
	if (out.len == 0)
		return NULL;
	append(&out, "]", 1);
	mcp_release_memory(out.len);
	if (out.len > max_bytes)
		mcp_log(MCP_LOG_INFO, "a batch's answers reached %zu bytes (limit %zu)",
				out.len, max_bytes);
	answer = json_object_new_array();
	json_object_set_serializer(answer, json_object_userdata_to_json_string,
							   out.data, json_object_free_userdata);
	return answer;
}

/*
 * The answer to a member past a limit: -32600 with its id, if it is a
 * request; NULL otherwise.
 */
static json_object *
limit_error(const char *text, size_t len, bool members)
{
	json_object *id = jsonrpc_member_id(text, len);
	json_object *data;
	json_object *answer;
	char	   *message;

	if (id == NULL)
		return NULL;
	data = json_object_new_object();
	json_object_object_add(data, "limit",
						   json_object_new_string(members ? "maxBatchMembers"
												  : "maxBatchBytes"));
	json_object_object_add(data, "value",
						   json_object_new_int64(members ? (int64_t) max_members
												 : (int64_t) max_bytes));
	message = members
		? mcp_psprintf("Invalid Request: not run: the batch has more than %d members (--max-batch-members)",
					   max_members)
		: mcp_psprintf("Invalid Request: not run: the batch's answers reached %zu bytes (--max-batch-bytes)",
					   max_bytes);
	answer = jsonrpc_error(id, JSONRPC_INVALID_REQUEST, message, data);
	free(message);
	json_object_put(id);
	return answer;
}

/* append n bytes, NUL-terminated */
static void
append(BatchText *out, const char *text, size_t n)
{
	if (out->len + n + 1 > out->cap)
	{
		out->cap = (out->len + n + 1) * 2;
		out->data = mcp_realloc(out->data, out->cap);
	}
	memcpy(out->data + out->len, text, n);
	out->len += n;
	out->data[out->len] = '\0';
}
