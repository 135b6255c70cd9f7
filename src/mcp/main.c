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
 * neon_ai_tools_mcp.h).
 *
 * IDENTIFICATION
 *	  src/mcp/main.c
 *
 *-------------------------------------------------------------------------
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "neon_ai_tools_mcp.h"

static void help(void);
static void version(void);
static void cleanup(void);

int
main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{"help", no_argument, NULL, 2},
		{"show-conninfo", no_argument, NULL, 1},
		{"verbose", no_argument, NULL, 'v'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0}
	};
	int			c;
	int			verbosity = 0;
	bool		show_conninfo = false;
	const char *conninfo = NULL;
	char	   *errmsg = NULL;
	int			status;
	int			i;

	/* --help and --version alone, as PostgreSQL's programs do */
	if (argc > 1)
	{
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0)
		{
			help();
			exit(MCP_EXIT_OK);
		}
		if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		{
			version();
			exit(MCP_EXIT_OK);
		}
	}

	while ((c = getopt_long(argc, argv, "vV", long_options, NULL)) != -1)
	{
		switch (c)
		{
			case 'v':
				verbosity++;
				break;
			case 'V':
				version();
				exit(MCP_EXIT_OK);
			case 1:
				show_conninfo = true;
				break;
			case 2:
				help();
				exit(MCP_EXIT_OK);
			default:
				/* getopt_long has said what is wrong */
				fprintf(stderr, "Try \"%s --help\" for more information.\n",
						MCP_PROGNAME);
				exit(MCP_EXIT_USAGE);
		}
	}
	if (optind < argc)
		conninfo = argv[optind++];
	if (optind < argc)
	{
		mcp_mask_add_conninfo_secrets(conninfo);
		mcp_log(MCP_LOG_ERROR, "too many command-line arguments (first is \"%s\")",
				argv[optind]);
		fprintf(stderr, "Try \"%s --help\" for more information.\n",
				MCP_PROGNAME);
		mcp_mask_forget();
		exit(MCP_EXIT_USAGE);
	}
	mcp_log_set_verbosity(verbosity);

	/* keep our copy, then hide the password from ps */
	if (!mcp_conninfo_configure(conninfo, &errmsg))
	{
		mcp_log(MCP_LOG_ERROR, "invalid connection string: %s", errmsg);
		free(errmsg);
		cleanup();
		exit(MCP_EXIT_USAGE);
	}
	for (i = 1; i < argc; i++)
		mcp_mask_in_place(argv[i]);

	if (show_conninfo)
	{
		mcp_conninfo_show(stdout);
		cleanup();
		exit(MCP_EXIT_OK);
	}

	/* a client that went away is seen as a write error, not a signal */
	signal(SIGPIPE, SIG_IGN);

	mcp_log(MCP_LOG_INFO, "%s %s ready (MCP over stdio)", MCP_PROGNAME, MCP_VERSION);
	status = mcp_serve_stdio();
	cleanup();
	return status;
}

/*
 * Release everything (so that valgrind's leak check sees a clean exit).
 */
static void
cleanup(void)
{
	mcp_pool_close();
	mcp_conninfo_forget();
	mcp_mask_forget();
}

/*
 * --version
 */
static void
version(void)
{
	printf("%s (neon_ai_tools) %s\n", MCP_PROGNAME, MCP_VERSION);
}

/*
 * --help, on stdout.  The examples carry no password.
 */
static void
help(void)
{
	printf("%s serves the tools of the neon_ai_tools PostgreSQL extension to MCP\n"
		   "clients (Model Context Protocol, stdio transport: JSON-RPC 2.0, one message\n"
		   "per line on standard input and output; logs go to standard error).\n\n",
		   MCP_PROGNAME);
	printf("Usage:\n");
	printf("  %s [OPTION]... [CONNINFO]\n\n", MCP_PROGNAME);
	printf("CONNINFO is a libpq connection string or URI, or a database name; without it,\n"
		   "the PG* environment variables apply (PGHOST, PGPORT, PGDATABASE, PGUSER,\n"
		   "PGPASSWORD, PGSSLMODE, ...).  Unless given, sslmode is \"require\" when a host\n"
		   "is not local (local: a Unix socket, localhost, 127.x.x.x, ::1) and\n"
		   "connect_timeout is 10 seconds.  The database's schema search path must\n"
		   "reach the extension's functions.\n\n");
	printf("Options:\n");
	printf("      --show-conninfo    print the connection parameters (passwords masked)\n"
		   "                         and exit, without connecting\n");
	printf("  -v, --verbose          log more to standard error (twice: debugging output)\n");
	printf("  -V, --version          output version information, then exit\n");
	printf("  -?, --help             show this help, then exit\n\n");
	printf("Examples:\n");
	printf("  %s \"host=/var/run/postgresql dbname=app\"\n", MCP_PROGNAME);
	printf("  PGPASSWORD=... %s \"postgresql://agent@db.example.com/app\"\n", MCP_PROGNAME);
	printf("  Keep passwords off the command line: PGPASSWORD, ~/.pgpass or a service\n"
		   "  file.  Passwords are masked in every message and log line.\n\n");
	printf("Exit status:\n");
	printf("  %d  the client closed standard input (the end of a session)\n", MCP_EXIT_OK);
	printf("  %d  usage error: a bad option, or a connection string libpq cannot parse\n",
		   MCP_EXIT_USAGE);
	printf("  %d  standard input or output failed (the client went away), or out of\n"
		   "     memory\n", MCP_EXIT_FATAL);
	printf("  An unreachable database does not end the program: tools/list and tools/call\n"
		   "  then answer with connection_error or authentication_error.\n");
}
