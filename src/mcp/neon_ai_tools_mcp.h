/*-------------------------------------------------------------------------
 *
 * neon_ai_tools_mcp.h
 *	  Shared declarations of neon-ai-tools-mcp, the MCP program.
 *
 * The program is a thin transport: it speaks the Model Context Protocol
 * (JSON-RPC 2.0 over stdio, one message per line) on one side and libpq on
 * the other, and runs every tool through the extension's ai_tool_list() and
 * ai_tool_call().  It holds no tool logic of its own.
 *
 * It is a plain C99 + POSIX frontend program that needs only libpq and
 * json-c (no libpgport/libpgcommon), so it builds the same way against any
 * PostgreSQL release's libpq.
 *
 * IDENTIFICATION
 *	  src/mcp/neon_ai_tools_mcp.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NEON_AI_TOOLS_MCP_H
#define NEON_AI_TOOLS_MCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

/* older json-c escapes "/" unconditionally and lacks the flag (cryptsetup) */
#ifndef JSON_C_TO_STRING_NOSLASHESCAPE
#define JSON_C_TO_STRING_NOSLASHESCAPE 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MCP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define MCP_NORETURN __attribute__((noreturn))
#else
#define MCP_PRINTF(f, a)
#define MCP_NORETURN
#endif

#define MCP_PROGNAME "neon-ai-tools-mcp"

/* the extension's version (neon_ai_tools.control), passed in by the Makefile */
#ifndef MCP_VERSION
#define MCP_VERSION "unknown"
#endif

/* Largest accepted message (one line of input), in bytes. */
#define MCP_MAX_MESSAGE_BYTES (4 * 1024 * 1024)

/* what json-c may be asked to build for one message (rawjson.c) */
#define MCP_MAX_MESSAGE_VALUES 100000
#define MCP_MAX_MESSAGE_CONTAINERS 20000

/* batch limits (batch.c): members run, and bytes of answers kept */
#define MCP_DEFAULT_BATCH_MEMBERS 100
#define MCP_DEFAULT_BATCH_BYTES (8 * 1024 * 1024)

/*
 * Exit codes.  They are part of the interface (documented in --help): an MCP
 * client shows them when the server process ends.  The database being
 * unreachable is never a reason to exit: the program keeps speaking MCP and
 * answers with categorized errors.
 */
#define MCP_EXIT_OK			0	/* end of input, --help, --version */
#define MCP_EXIT_USAGE		1	/* bad option or unusable connection string */
#define MCP_EXIT_FATAL		2	/* stdin or stdout failed; out of memory */
#define MCP_EXIT_CONFIG		2	/* the configuration file cannot be used */

/* JSON-RPC 2.0 error codes */
#define JSONRPC_PARSE_ERROR			(-32700)
#define JSONRPC_INVALID_REQUEST		(-32600)
#define JSONRPC_METHOD_NOT_FOUND	(-32601)
#define JSONRPC_INVALID_PARAMS		(-32602)
#define JSONRPC_INTERNAL_ERROR		(-32603)

/* in log.c */
typedef enum McpLogLevel
{
	MCP_LOG_ERROR,
	MCP_LOG_WARNING,
	MCP_LOG_NOTICE,				/* always shown: HTTP's request lines */
	MCP_LOG_INFO,
	MCP_LOG_DEBUG
} McpLogLevel;

typedef enum McpLogFormat
{
	MCP_LOG_TEXT,				/* "neon-ai-tools-mcp: warning: ..." */
	MCP_LOG_JSON				/* one JSON object a line */
} McpLogFormat;

extern void mcp_log_set_verbosity(int verbosity);
extern bool mcp_log_format_parse(const char *name, McpLogFormat *format);
extern void mcp_log_set_format(McpLogFormat format);
extern void mcp_log(McpLogLevel level, const char *fmt,...) MCP_PRINTF(2, 3);
extern void mcp_log_copy_name(char *dst, size_t size, const char *src);

/* in mask.c */
extern void mcp_mask_add_secret(const char *secret);
extern void mcp_mask_add_conninfo_secrets(const char *conninfo);
extern char *mcp_mask_text(const char *text);
extern void mcp_mask_in_place(char *text);
extern void mcp_mask_forget(void);

/* in util.c */
extern void *mcp_malloc(size_t size);
extern void *mcp_realloc(void *ptr, size_t size);
extern char *mcp_strdup(const char *s);
extern char *mcp_strndup(const char *s, size_t len);
extern char *mcp_psprintf(const char *fmt,...) MCP_PRINTF(1, 2);
extern double mcp_now_ms(void);
extern void mcp_release_memory(size_t bytes_handled);
extern uint64_t mcp_text_hash(const char *text);

/* in rawjson.c */
extern bool mcp_json_check(const char *text, size_t len, int max_depth,
						   size_t *offset, const char **reason);
extern bool mcp_json_check_message(const char *text, size_t len,
								   int max_depth, size_t *offset,
								   const char **reason);
extern bool mcp_json_next_element(const char *array, size_t array_len,
								  size_t *pos, const char **start,
								  size_t *len);
extern bool mcp_json_check_utf8(const char *text, size_t len, size_t *offset,
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
extern size_t mcp_json_minify(const char *text, size_t len, char *out);
extern bool mcp_json_is_int64(const char *text, size_t len);
extern bool mcp_json_string_is_unicode(const char *text, size_t len);

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

/* in transport.c */
typedef enum McpReadStatus
{
	MCP_READ_MESSAGE,			/* one line read (without its newline) */
	MCP_READ_NONE,				/* no complete line buffered yet */
	MCP_READ_TOO_LONG,			/* a line over the limit was skipped */
	MCP_READ_EOF,				/* end of input */
	MCP_READ_FAILED				/* read error */
} McpReadStatus;

typedef struct McpReader
{
	int			fd;
	char	   *buf;			/* bytes read: [start, end) not yet returned */
	size_t		cap;			/* allocated size of buf */
	size_t		start;
	size_t		end;
	size_t		scanned;		/* no newline in [start, scanned) */
	size_t		max_bytes;		/* longest accepted line */
	bool		skipping;		/* inside a line over the limit */
	bool		eof;			/* read() returned 0 */
	bool		failed;			/* read() failed */
	char	   *line;			/* the line returned last, NUL-terminated */
	size_t		len;			/* its length in bytes */
} McpReader;

extern void mcp_reader_init(McpReader *reader, int fd, size_t max_bytes);
extern McpReadStatus mcp_reader_next(McpReader *reader);
extern bool mcp_reader_fill(McpReader *reader);
extern void mcp_reader_free(McpReader *reader);
extern bool mcp_write_message(json_object *message);

/* in stdio.c */
extern int	mcp_serve_stdio(void);

/* in conninfo.c */
extern bool mcp_conninfo_configure(const char *conninfo, char **errmsg);
extern void mcp_conninfo_params(const char *const **keywords,
								const char *const **values);
extern void mcp_conninfo_show(FILE *out);
extern void mcp_conninfo_forget(void);
extern bool mcp_conninfo_has_password(const char *conninfo);

/*
 * One MCP session: what initialize negotiated.  stdio has exactly one; over
 * HTTP the session-based revisions get one per Mcp-Session-Id (session.c),
 * and 2026-07-28's stateless requests none.
 */
typedef struct McpSession
{
	char		id[40];			/* Mcp-Session-Id ("" over stdio) */
	const char *revision;		/* negotiated at initialize; NULL before */
	/* catalog_watch.c: tell the client when the tool list changes */
	bool		watch_catalog;	/* stdio only */
	bool		catalog_listed; /* the client has a list */
	uint64_t	catalog_hash;	/* of the list it has */
	double		catalog_checked_ms;
} McpSession;

/* in calls.c: requests in flight, for notifications/cancelled */
typedef struct McpInflight McpInflight;

typedef struct McpContext McpContext;

/*
 * A transport's progress writer: called about once a second while a
 * statement runs, for a request that asked for progress (progress_token).
 */
typedef void (*McpProgressFn) (McpContext *ctx, double elapsed_ms);

/*
 * stdio's input watcher: called by db.c whenever input_fd is readable while
 * a statement runs.  It applies a notifications/cancelled at once and keeps
 * other messages for later; it sets input_fd to -1 to stop being watched.
 */
typedef void (*McpInputFn) (McpContext *ctx);

/*
 * Everything one message is handled with.  The transport fills it; the
 * handlers read it (and set http_status when the transport must answer with
 * something other than 200).
 */
struct McpContext
{
	/* set by the transport */
	McpSession *session;		/* the message's session, or NULL */
	bool		http;			/* over HTTP (else stdio) */
	const char *role;			/* run statements as this role, or NULL */
	const char *scope;			/* who may cancel: a session id, a role, "" */
	int			client_fd;		/* HTTP: the client's socket, or -1 */
	McpProgressFn progress;		/* writes progress notifications, or NULL */
	void	   *progress_arg;	/* the transport's own */
	int			input_fd;		/* stdio: standard input, or -1 */
	McpInputFn	watch_input;	/* stdio: reads input_fd while waiting */

	/* set while the message is handled (mcp.c) */
	const char *revision;		/* the revision the message is read under */
	bool		stateless;		/* 2026-07-28: version and capabilities in _meta */
	json_object *progress_token;	/* the request's _meta.progressToken */
	McpInflight *inflight;		/* the request being answered, or NULL */
	char		method[40];		/* for the request log line */
	char		tool[72];		/* tools/call's tool, for the log line */
	char		request_id[41]; /* the JSON-RPC id, for the log line */
	const char *outcome;		/* "ok", or an error category */
	char		category[40];	/* a tool's errorType, for outcome */
	size_t		bytes;			/* tools/call: the size of the tool's answer */
	int			http_status;	/* 0, or a status the transport must send */
	bool		list_changed;	/* send notifications/tools/list_changed */
};

extern void mcp_context_init(McpContext *ctx, McpSession *session);

/* in log.c: lines about a request */
extern void mcp_log_bind(const McpContext *ctx);
extern void mcp_log_request(McpLogLevel level, const char *method,
							const McpContext *ctx, const char *role,
							int status, double start);

/* in calls.c */
extern McpInflight *mcp_inflight_begin(const char *scope, const char *id_text);
extern void mcp_inflight_end(McpInflight *inflight);
extern bool mcp_inflight_cancel(const char *scope, const char *id_text,
								bool remember);
extern void mcp_inflight_cancel_all(void);
extern void mcp_inflight_forget(void);
extern int	mcp_inflight_count(void);

/* in db.c */
#define MCP_DB_MAX_COLUMNS 2

typedef enum McpDbStatus
{
	MCP_DB_OK,					/* the statement ran; values hold its row */
	MCP_DB_CONNECTION_ERROR,	/* could not connect, or lost the connection */
	MCP_DB_AUTHENTICATION_ERROR,	/* the server refused the credentials */
	MCP_DB_SQL_ERROR,			/* the statement failed with an SQLSTATE */
	MCP_DB_CANCELLED,			/* the client cancelled the request */
	MCP_DB_ROLE_REFUSED,		/* the server refused to switch to the role */
	MCP_DB_BUSY					/* no connection became free in time */
} McpDbStatus;

typedef struct McpDbResult
{
	McpDbStatus status;
	char	   *values[MCP_DB_MAX_COLUMNS]; /* MCP_DB_OK: the row, as text */
	char	   *message;		/* errors: masked primary message */
	char	   *detail;			/* errors: masked detail, or NULL */
	char	   *hint;			/* errors: masked hint, or NULL */
	char		sqlstate[6];	/* errors: SQLSTATE, or "" */
	const char *error_type;		/* errors: errorType (fine category) */
	const char *portable_type;	/* errors: error_type (portable category) */
	bool		retryable;		/* errors: worth retrying as it is */
	const char *suggestion;		/* errors: one sentence of advice */
} McpDbResult;

extern void mcp_db_query(McpContext *ctx, const char *sql, int nparams,
						 const char *const *values, McpDbResult *result);
extern void mcp_db_result_free(McpDbResult *result);

/* in ready.c: can a pooled connection run SELECT 1 within timeout_ms? */
extern bool mcp_db_ready(int timeout_ms);

/* in pool.c */
typedef struct McpConn McpConn;
extern void mcp_pool_configure(int size, int wait_ms);
extern McpConn *mcp_pool_acquire(void);
extern McpConn *mcp_pool_acquire_within(int wait_ms);
extern void mcp_pool_release(McpConn *conn);
extern void mcp_pool_close(void);

/* in db_errors.c: failures categorized as the extension's envelope does */
extern char *mcp_db_clean_message(const char *message);
extern void mcp_db_set_connection_failure(McpDbResult *result,
										  const char *message);
extern void mcp_db_set_protocol_failure(McpDbResult *result,
										const char *message);
extern void mcp_db_set_sql_failure(McpDbResult *result, const void *pgresult);

/* in jsonrpc.c */
extern json_object *jsonrpc_result(json_object *id, json_object *result);
extern json_object *jsonrpc_error(json_object *id, int code,
								  const char *message, json_object *data);
extern json_object *jsonrpc_process_line(McpContext *ctx, const char *line,
										 size_t len);
extern bool jsonrpc_parse(const char *line, size_t len, json_object **message,
						  json_object **error);
extern json_object *jsonrpc_process_parsed(McpContext *ctx, json_object *message,
										   const char *text, size_t len);
extern char *jsonrpc_to_text(json_object *message);
extern json_object *jsonrpc_oversized_error(size_t max_bytes);
extern json_object *jsonrpc_process_member(McpContext *ctx, const char *text,
										   size_t len);
extern json_object *jsonrpc_member_id(const char *text, size_t len);

/* in batch.c: a batch being run, member by member */
typedef struct McpBatch
{
	const char *text;			/* the batch's text */
	size_t		len;
	size_t		pos;			/* where the next member starts */
	int			members;		/* members read so far */
	size_t		bytes;			/* bytes of the answers made so far */
} McpBatch;

extern void mcp_batch_configure(int members, size_t bytes);
extern bool mcp_batch_begin(McpContext *ctx, McpBatch *batch,
							const char *text, size_t len,
							json_object **error);
extern char *mcp_batch_next(McpContext *ctx, McpBatch *batch, bool *done);
extern json_object *mcp_batch_process(McpContext *ctx, const char *text,
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
extern bool mcp_revision_is_stateless(const char *revision);

extern const char *mcp_tools_list_sql(const char *revision);

/* in catalog_watch.c */
extern void mcp_catalog_seen(McpSession *session, const char *list_text);
extern bool mcp_catalog_changed(McpContext *ctx);
extern json_object *mcp_list_changed_notification(void);

/* JSON-RPC error codes of 2026-07-28 */
#define MCP_HEADER_MISMATCH			(-32020)
#define MCP_MISSING_CAPABILITY		(-32021)
#define MCP_UNSUPPORTED_VERSION		(-32022)

#endif							/* NEON_AI_TOOLS_MCP_H */
