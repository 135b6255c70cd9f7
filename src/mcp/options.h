/*-------------------------------------------------------------------------
 *
 * options.h
 *	  What the command line and the configuration file set (options.c).
 *
 * IDENTIFICATION
 *	  src/mcp/options.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_OPTIONS_H
#define MCP_OPTIONS_H

#include "auth/auth.h"
#include "transport/http.h"
#include "protocol/protocol.h"

/* HTTP defaults (see --help) */
#define DEFAULT_HTTP_POOL_SIZE 4
#define REQUESTS_PER_CONNECTION 4	/* default --max-requests per pooled one */
#define DEFAULT_MAX_CONNECTIONS 256
#define DEFAULT_MAX_PER_ADDRESS 64
#define DEFAULT_REQUEST_TIMEOUT_SECS 10
#define DEFAULT_IDLE_TIMEOUT_SECS 60
#define DEFAULT_SESSIONS_PER_TOKEN 64
#define DEFAULT_SHUTDOWN_GRACE_MS 10000
#define MAX_ORIGINS 32
#define MAX_HOSTS 32
/* the text block's form when --text-block is not given */
#define TEXT_BLOCK_ENV "NEON_AI_TOOLS_MCP_TEXT_BLOCK"

/* what the command line and the configuration file ask for */
typedef struct McpOptions
{
	McpHttpSettings http;
	McpAuthSettings auth;
	bool		serve_http;		/* --http or --listen */
	int			pool_size;
	int			verbosity;
	bool		show_conninfo;
	bool		check_config;	/* --check-config */
	const char *config_file;	/* --config */
	const char *conninfo;		/* CONNINFO or --database */
	int			max_batch_members;
	int			max_batch_bytes;
	McpTextBlock text_block;	/* --text-block */
	McpLogFormat log_format;	/* --log-format */
	const char *origins[MAX_ORIGINS];
	const char *hosts[MAX_HOSTS];
	bool		origins_from_cli;	/* the command line's replace the file's */
	bool		hosts_from_cli;
	bool		verbose_from_cli;
} McpOptions;

/* in help.c */
extern void mcp_help(void);
extern void mcp_version(void);

/* in options.c */
extern void mcp_options_parse(int argc, char **argv, McpOptions *o);
extern void mcp_options_forget(void);
MCP_NORETURN extern void mcp_options_usage_error(void);

#endif							/* MCP_OPTIONS_H */
