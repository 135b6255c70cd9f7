/*-------------------------------------------------------------------------
 *
 * main.c
 *	  neon-ai-tools-mcp: serve the neon_ai_tools extension over MCP.
 *
 * Usage: neon-ai-tools-mcp [OPTION]... [CONNINFO]
 *
 * Reads JSON-RPC messages from stdin, one per line, and writes the answers
 * to stdout, one per line, until the client closes stdin.  Structured like
 * PostgreSQL's pg_isready: getopt_long, libpq keyword/value arrays with
 * fallback_application_name, documented exit codes (see --help and
 * base/base.h).
 *
 * IDENTIFICATION
 *	  src/mcp/main.c
 *
 *-------------------------------------------------------------------------
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "options.h"
#include "transport/transport.h"

#define POOL_WAIT_MS 30000

static void cleanup(void);
static bool check_stdio(McpOptions *o);
static int	configure_http(McpOptions *o);
static int	check_config(McpOptions *o);
static int	serve_stdio(McpOptions *o);
static int	serve_http(McpOptions *o);

int
main(int argc, char **argv)
{
	McpOptions	o;
	char	   *errmsg = NULL;
	int			status;
	int			i;

	/* --help and --version alone, as PostgreSQL's programs do */
	if (argc > 1)
	{
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0)
		{
			mcp_help();
			exit(MCP_EXIT_OK);
		}
		if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		{
			mcp_version();
			exit(MCP_EXIT_OK);
		}
	}
	mcp_options_parse(argc, argv, &o);
	mcp_log_set_verbosity(o.verbosity);
	mcp_log_set_format(o.log_format);

	/* keep our copy, then hide the password from ps */
	if (!mcp_conninfo_configure(o.conninfo, &errmsg))
	{
		mcp_log(MCP_LOG_ERROR, "invalid connection string: %s", errmsg);
		free(errmsg);
		cleanup();
		exit(MCP_EXIT_USAGE);
	}
	for (i = 1; i < argc; i++)
		mcp_mask_in_place(argv[i]);

	if (o.check_config)
	{
		status = check_config(&o);
		cleanup();
		exit(status);
	}
	if (o.show_conninfo)
	{
		mcp_conninfo_show(stdout);
		cleanup();
		exit(MCP_EXIT_OK);
	}

	/* a client that went away is seen as a write error, not a signal */
	signal(SIGPIPE, SIG_IGN);

	mcp_batch_configure(o.max_batch_members, (size_t) o.max_batch_bytes);
	mcp_text_block_configure(o.text_block);
	status = o.serve_http ? serve_http(&o) : serve_stdio(&o);
	cleanup();
	return status;
}

/*
 * --check-config: the command line, the file and what startup checks of
 * them together (token files and keys read, the address resolved), without
 * connecting or listening.
 */
static int
check_config(McpOptions *o)
{
	int			status;

	if (!o->serve_http && !check_stdio(o))
		return MCP_EXIT_USAGE;
	if (o->serve_http)
	{
		if ((status = configure_http(o)) != MCP_EXIT_OK)
			return status;
		if (!mcp_http_check_settings(&o->http))
			return MCP_EXIT_USAGE;
	}
	printf("configuration OK\n");
	return MCP_EXIT_OK;
}

/*
 * Options stdio cannot use.
 */
static bool
check_stdio(McpOptions *o)
{
	if (o->auth.tokens_file || o->auth.jwt_secret_file || o->auth.jwt_key_file)
	{
		mcp_log(MCP_LOG_ERROR, "bearer tokens are for --http; over stdio the connection string's role is used");
		return false;
	}
	if (o->http.admin_port > 0)
	{
		mcp_log(MCP_LOG_ERROR, "--admin-listen is for --http");
		return false;
	}
	return true;
}

/*
 * MCP over stdio: one session, one connection.
 */
static int
serve_stdio(McpOptions *o)
{
	if (!check_stdio(o))
	{
		cleanup();
		mcp_options_usage_error();
	}
	mcp_pool_configure(1, POOL_WAIT_MS);
	mcp_log(MCP_LOG_INFO, "%s %s ready (MCP over stdio)", MCP_PROGNAME, MCP_VERSION);
	return mcp_serve_stdio();
}

/*
 * The HTTP settings that depend on each other, and the tokens; 0, or the
 * exit code.
 */
static int
configure_http(McpOptions *o)
{
	char	   *errmsg = NULL;

	if (!mcp_auth_configure(&o->auth, &errmsg))
	{
		mcp_log(MCP_LOG_ERROR, "%s", errmsg);
		free(errmsg);
		return MCP_EXIT_USAGE;
	}
	if (o->pool_size <= 0)
		o->pool_size = DEFAULT_HTTP_POOL_SIZE;
	if (o->http.max_requests <= 0)
		o->http.max_requests = o->pool_size * REQUESTS_PER_CONNECTION;

	/*
	 * One token may take half of the request slots, unless told; without
	 * tokens every caller is the same one, who may take them all.
	 */
	if (!mcp_auth_enabled())
		o->http.max_requests_per_token = o->http.max_requests;
	else if (o->http.max_requests_per_token <= 0)
		o->http.max_requests_per_token = o->http.max_requests > 1
			? o->http.max_requests / 2 : 1;
	if (o->http.max_requests_per_token > o->http.max_requests)
		o->http.max_requests_per_token = o->http.max_requests;
	if (o->http.max_connections_per_address > o->http.max_connections)
		o->http.max_connections_per_address = o->http.max_connections;
	o->http.auth_settings = &o->auth;
	return MCP_EXIT_OK;
}

/*
 * MCP over HTTP: tokens, the pool, the listener.
 */
static int
serve_http(McpOptions *o)
{
	int			status = configure_http(o);

	if (status != MCP_EXIT_OK)
		return status;
	mcp_pool_configure(o->pool_size, POOL_WAIT_MS);
	return mcp_serve_http(&o->http);
}

/*
 * Release everything (so that valgrind's leak check sees a clean exit).
 */
static void
cleanup(void)
{
	mcp_pool_close();
	mcp_auth_forget();
	mcp_inflight_forget();
	mcp_conninfo_forget();
	mcp_mask_forget();
	mcp_options_forget();
}
