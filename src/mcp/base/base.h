/*-------------------------------------------------------------------------
 *
 * base.h
 *	  Helpers, logging, masking and the message context of neon-ai-tools-mcp.
 *
 * The lowest layer of the program: what every other folder may use.  The
 * program is a thin transport: it speaks the Model Context Protocol
 * (JSON-RPC 2.0 over stdio or HTTP) on one side and libpq on the other, and
 * runs every tool through the extension's ai_tool_list() and ai_tool_call().
 * It holds no tool logic of its own.
 *
 * It is a plain C99 + POSIX frontend program that needs only libpq and
 * json-c (no libpgport/libpgcommon), so it builds the same way against any
 * PostgreSQL release's libpq.
 *
 * This folder (util.c, log.c, mask.c, metrics.c and the message context
 * every layer passes along) includes and calls nothing of the folders
 * above it.
 *
 * IDENTIFICATION
 *	  src/mcp/base/base.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_BASE_H
#define MCP_BASE_H

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
extern char *mcp_mask_text(const char *txt);
extern void mcp_mask_in_place(char *txt);
extern void mcp_mask_forget(void);

/* in util.c */
extern void *mcp_malloc(size_t size);
extern void *mcp_realloc(void *ptr, size_t size);
extern char *mcp_strdup(const char *s);
extern char *mcp_strndup(const char *s, size_t len);
extern char *mcp_psprintf(const char *fmt,...) MCP_PRINTF(1, 2);
extern double mcp_now_ms(void);
extern void mcp_release_memory(size_t bytes_handled);
extern uint64_t mcp_text_hash(const char *txt);

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

/* requests in flight, for notifications/cancelled (db/calls.c) */
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
	bool		stateless;		/* 2026-07-28: version and capabilities in
								 * _meta */
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

/* in context.c */
extern void mcp_context_init(McpContext *ctx, McpSession *session);


/* in log.c: lines about a request */
extern void mcp_log_bind(const McpContext *ctx);
extern void mcp_log_request(McpLogLevel level, const char *method,
							const McpContext *ctx, const char *role,
							int status, double start);


#endif							/* MCP_BASE_H */
