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
 * Over HTTP the answers are written out as they are made (http_batch.c),
 * so a batch holds one answer at a time; over stdio the batch's answer
 * is one line, an array whose text is kept as the object's serialization
 * (json_object_set_serializer), so writing it out builds no tree.
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/batch.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "base/metrics.h"
#include "protocol/protocol.h"

static int	max_members = MCP_DEFAULT_BATCH_MEMBERS;
static size_t max_bytes = MCP_DEFAULT_BATCH_BYTES;

typedef struct BatchText
{
	char	   *data;
	size_t		len;
	size_t		cap;
} BatchText;

static json_object *limit_error(const char *txt, size_t len, bool members);
static void append(BatchText *out, const char *txt, size_t n);

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
 * Start reading the batch whose text is text/len (an array, checked
 * already).  False with *error the answer when it cannot be run at all
 * (empty, or no batches in the session's revision).
 */
bool
mcp_batch_begin(McpContext *ctx, McpBatch *batch, const char *txt,
				size_t len, json_object **error)
{
	const char *revision;
	const char *member;
	size_t		member_len;

	memset(batch, 0, sizeof(*batch));
	batch->txt = txt;

	batch->len = len;
	*error = NULL;
	if (!mcp_json_next_element(txt, len, &batch->pos, &member, &member_len))
	{
		*error = jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
							   "Invalid Request: empty batch", NULL);
		return false;
	}
	batch->pos = 0;
	if (!mcp_batches_allowed(ctx, &revision))
	{
		char	   *message = mcp_psprintf("Invalid Request: JSON-RPC batches are not supported in protocol revision %s",
										   revision);

		*error = jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST, message, NULL);
		free(message);
		return false;
	}
	return true;
}

/*
 * Run the next member: its answer as text (malloc'd), or NULL when it has
 * none (a notification) or when there is no member left (*done set).  The
 * answer's bytes count against max_bytes.
 */
char *
mcp_batch_next(McpContext *ctx, McpBatch *batch, bool *done)
{
	const char *member;
	size_t		member_len;
	json_object *answer;
	char	   *txt;

	*done = !mcp_json_next_element(batch->txt, batch->len, &batch->pos,
								   &member, &member_len);
	if (*done)
		return NULL;
	if (batch->members >= max_members)
	{
		mcp_metrics_refusal(MCP_REFUSED_BATCH_MEMBERS);
		answer = limit_error(member, member_len, true);
	}
	else if (batch->bytes >= max_bytes)
	{
		mcp_metrics_refusal(MCP_REFUSED_BATCH_BYTES);
		answer = limit_error(member, member_len, false);
	}
	else
		answer = jsonrpc_process_member(ctx, member, member_len);
	batch->members++;
	if (answer == NULL)
		return NULL;
	txt = jsonrpc_to_text(answer);

	json_object_put(answer);
	batch->bytes += strlen(txt);
	return txt;
}

/*
 * Answer a whole batch at once (stdio; HTTP streams it, http_batch.c).
 * NULL when nothing is to be answered (every member a notification).
 */
json_object *
mcp_batch_process(McpContext *ctx, const char *txt, size_t len)
{
	BatchText	out = {NULL, 0, 0};
	McpBatch	batch;
	json_object *answer;
	char	   *answer_text;
	bool		done = false;

	if (!mcp_batch_begin(ctx, &batch, txt, len, &answer))
		return answer;
	while (!done)
	{
		answer_text = mcp_batch_next(ctx, &batch, &done);
		if (answer_text == NULL)
			continue;
		append(&out, out.len == 0 ? "[" : ",", 1);
		append(&out, answer_text, strlen(answer_text));
		free(answer_text);
	}
	if (out.len == 0)
		return NULL;
	append(&out, "]", 1);
	mcp_release_memory(out.len);
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
limit_error(const char *txt, size_t len, bool members)
{
	json_object *id = jsonrpc_member_id(txt, len);
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
append(BatchText *out, const char *txt, size_t n)
{
	if (out->len + n + 1 > out->cap)
	{
		out->cap = (out->len + n + 1) * 2;
		out->data = mcp_realloc(out->data, out->cap);
	}
	memcpy(out->data + out->len, txt, n);
	out->len += n;
	out->data[out->len] = '\0';
}
