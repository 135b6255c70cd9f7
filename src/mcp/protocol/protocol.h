/*-------------------------------------------------------------------------
 *
 * protocol.h
 *	  The protocol layer of neon-ai-tools-mcp.
 *
 * The protocol layer: JSON-RPC 2.0 framing, batches, the MCP methods, the
 * revisions and the catalog watch, and the text block.  Uses base/ and
 * db/.
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/protocol.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_PROTOCOL_H
#define MCP_PROTOCOL_H

#include "base/base.h"
#include "db/db.h"

/* Largest accepted message (one line of input), in bytes. */
#define MCP_MAX_MESSAGE_BYTES (4 * 1024 * 1024)

/* what json-c may be asked to build for one message (rawjson.c) */
#define MCP_MAX_MESSAGE_VALUES 100000
#define MCP_MAX_MESSAGE_CONTAINERS 20000

/* batch limits (batch.c): members run, and bytes of answers kept */
#define MCP_DEFAULT_BATCH_MEMBERS 100
#define MCP_DEFAULT_BATCH_BYTES (8 * 1024 * 1024)

/* JSON-RPC 2.0 error codes */
#define JSONRPC_PARSE_ERROR			(-32700)
#define JSONRPC_INVALID_REQUEST		(-32600)
#define JSONRPC_METHOD_NOT_FOUND	(-32601)
#define JSONRPC_INVALID_PARAMS		(-32602)
#define JSONRPC_INTERNAL_ERROR		(-32603)

/* JSON-RPC error codes of 2026-07-28 */
#define MCP_HEADER_MISMATCH			(-32020)
#define MCP_MISSING_CAPABILITY		(-32021)
#define MCP_UNSUPPORTED_VERSION		(-32022)

/* in rawjson.c */
extern bool mcp_json_check(const char *txt, size_t len, int max_depth,
						   size_t *offset, const char **reason);
extern bool mcp_json_check_message(const char *txt, size_t len,
								   int max_depth, size_t *offset,
								   const char **reason);
extern bool mcp_json_next_element(const char *array, size_t array_len,
								  size_t *pos, const char **start,
								  size_t *len);
extern bool mcp_json_check_utf8(const char *txt, size_t len, size_t *offset,
								const char **reason);
extern bool mcp_json_member(const char *object, size_t object_len,
							const char *key, const char **value,
							size_t *value_len);
extern long mcp_json_elements(const char *array, size_t array_len,
							  const char ***starts, size_t **lens);
extern bool mcp_json_next_member(const char *object, size_t object_len,
								 size_t *pos, const char **key,
								 size_t *key_len, const char **value,
								 size_t *value_len);
extern size_t mcp_json_minify(const char *txt, size_t len, char *out);
extern bool mcp_json_is_int64(const char *txt, size_t len);
extern bool mcp_json_string_is_unicode(const char *txt, size_t len);

/* in text_block.c: what a tools/call result's text block holds */
typedef enum McpTextBlock
{
	MCP_TEXT_JSON,				/* the envelope as the extension wrote it */
	MCP_TEXT_COMPACT,			/* without whitespace and redundant fields */
	MCP_TEXT_SUMMARY			/* one line */
} McpTextBlock;

extern bool mcp_text_block_parse(const char *name, McpTextBlock *mode);
extern void mcp_text_block_configure(McpTextBlock mode);
extern McpTextBlock mcp_text_block_mode(void);
extern char *mcp_text_block_render(McpTextBlock mode, const char *envelope);

/* in jsonrpc_message.c */
extern json_object *jsonrpc_result(json_object *id, json_object *result);
extern json_object *jsonrpc_error(json_object *id, int code,
								  const char *message, json_object *data);
extern json_object *jsonrpc_oversized_error(size_t max_bytes);
extern char *jsonrpc_to_text(json_object *message);

/* in jsonrpc.c */
extern bool jsonrpc_parse(const char *line, size_t len, json_object **message,
						  json_object **error);
extern json_object *jsonrpc_process_one(McpContext *ctx, json_object *message,
										const char *txt, size_t len);
extern json_object *jsonrpc_process_member(McpContext *ctx, const char *txt,
										   size_t len);
extern json_object *jsonrpc_member_id(const char *txt, size_t len);

/* in batch.c: a batch being run, member by member */
typedef struct McpBatch
{
	const char *txt;			/* the batch's text */
	size_t		len;
	size_t		pos;			/* where the next member starts */
	int			members;		/* members read so far */
	size_t		bytes;			/* bytes of the answers made so far */
} McpBatch;

extern void mcp_batch_configure(int members, size_t bytes);
extern bool mcp_batch_begin(McpContext *ctx, McpBatch *batch,
							const char *txt, size_t len,
							json_object **error);
extern char *mcp_batch_next(McpContext *ctx, McpBatch *batch, bool *done);
extern json_object *mcp_batch_process(McpContext *ctx, const char *txt,
									  size_t len);

/* in mcp.c */
extern json_object *mcp_dispatch(McpContext *ctx, const char *method,
								 json_object *id, json_object *params,
								 const char *params_text, size_t params_len,
								 bool in_batch);
extern bool mcp_batches_allowed(const McpContext *ctx, const char **revision);
extern void mcp_handle_notification(McpContext *ctx, const char *method,
									json_object *params);
extern json_object *mcp_progress_notification(const McpContext *ctx,
											  double elapsed_ms);
extern char *mcp_id_key(json_object *id);

/* in catalog_watch.c */
extern const char *mcp_tools_list_sql(const char *revision);
extern void mcp_catalog_seen(McpSession *session, const char *list_text);
extern bool mcp_catalog_changed(McpContext *ctx);
extern json_object *mcp_list_changed_notification(void);

/* in message.c: one message or a batch, as the transport received it */
extern json_object *jsonrpc_process_line(McpContext *ctx, const char *line,
										 size_t len);
extern json_object *jsonrpc_process_parsed(McpContext *ctx, json_object *message,
										   const char *txt, size_t len);

#endif							/* MCP_PROTOCOL_H */
