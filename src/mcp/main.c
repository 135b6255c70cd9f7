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
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "http.h"
#include "neon_ai_tools_mcp.h"

/* HTTP defaults (see --help) */
#define DEFAULT_HTTP_POOL_SIZE 4
#define DEFAULT_MAX_CONNECTIONS 256
#define DEFAULT_MAX_PER_ADDRESS 64
#define DEFAULT_REQUEST_TIMEOUT_SECS 10
#define DEFAULT_IDLE_TIMEOUT_SECS 60
#define DEFAULT_SESSIONS_PER_TOKEN 64
#define DEFAULT_SHUTDOWN_GRACE_MS 10000
#define POOL_WAIT_MS 30000
#define REQUESTS_PER_CONNECTION 4	/* default --max-requests per pooled one */
#define MAX_ORIGINS 32
#define MAX_HOSTS 32
/* the text block's form when --text-block is not given */
#define TEXT_BLOCK_ENV "NEON_AI_TOOLS_MCP_TEXT_BLOCK"

/* long options without a short form */
enum
{
	OPT_SHOW_CONNINFO = 1,
	OPT_HELP,
	OPT_HTTP,
	OPT_POOL_SIZE,
	OPT_ALLOW_ORIGIN,
	OPT_TLS_CERT,
	OPT_TLS_KEY,
	OPT_ALLOW_INSECURE,
	OPT_MAX_CONNECTIONS,
	OPT_MAX_BODY,
	OPT_MAX_REQUESTS,
	OPT_AUTH_TOKENS,
	OPT_JWT_SECRET,
	OPT_JWT_KEY,
	OPT_JWT_CLAIM,
	OPT_JWT_AUDIENCE,
	OPT_JWT_ISSUER,
	OPT_AUTH_SERVER,
	OPT_RESOURCE_URL,
	OPT_ALLOWED_HOST,
	OPT_MAX_PER_ADDRESS,
	OPT_REQUEST_TIMEOUT,
	OPT_IDLE_TIMEOUT,
	OPT_MAX_REQUESTS_PER_TOKEN,
	OPT_MAX_SESSIONS_PER_TOKEN,
	OPT_MAX_BATCH_MEMBERS,
	OPT_MAX_BATCH_BYTES,
	OPT_TEXT_BLOCK
};

static void help(void);
static void version(void);
static void cleanup(void);
/* what the command line asks for */
typedef struct Options
{
	McpHttpSettings http;
	McpAuthSettings auth;
	bool		serve_http;		/* --http */
	int			pool_size;
	int			verbosity;
	bool		show_conninfo;
	const char *conninfo;
	int			max_batch_members;
	int			max_batch_bytes;
	McpTextBlock text_block;	/* --text-block */
} Options;

static void parse_options(int argc, char **argv, Options *o);
static bool parse_limit_option(int c, Options *o);
static void parse_text_block(const char *value, const char *origin,
							 Options *o);
static int	serve_stdio(Options *o);
static int	serve_http(Options *o);
static bool parse_listen(const char *arg, McpHttpSettings *http);
static int	positive(const char *option, const char *arg);
MCP_NORETURN static void usage_error(void);

int
main(int argc, char **argv)
{
	Options		o;
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
	parse_options(argc, argv, &o);
	mcp_log_set_verbosity(o.verbosity);

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
 * The command line, into *o; a usage error exits.
 */
static void
parse_options(int argc, char **argv, Options *o)
{
	static const struct option long_options[] = {
		{"help", no_argument, NULL, OPT_HELP},
		{"show-conninfo", no_argument, NULL, OPT_SHOW_CONNINFO},
		{"verbose", no_argument, NULL, 'v'},
		{"version", no_argument, NULL, 'V'},
		{"http", required_argument, NULL, OPT_HTTP},
		{"pool-size", required_argument, NULL, OPT_POOL_SIZE},
		{"allow-origin", required_argument, NULL, OPT_ALLOW_ORIGIN},
		{"tls-cert", required_argument, NULL, OPT_TLS_CERT},
		{"tls-key", required_argument, NULL, OPT_TLS_KEY},
		{"allow-insecure-http", no_argument, NULL, OPT_ALLOW_INSECURE},
		{"max-connections", required_argument, NULL, OPT_MAX_CONNECTIONS},
		{"max-body", required_argument, NULL, OPT_MAX_BODY},
		{"max-requests", required_argument, NULL, OPT_MAX_REQUESTS},
		{"auth-tokens", required_argument, NULL, OPT_AUTH_TOKENS},
		{"jwt-secret-file", required_argument, NULL, OPT_JWT_SECRET},
		{"jwt-public-key", required_argument, NULL, OPT_JWT_KEY},
		{"jwt-role-claim", required_argument, NULL, OPT_JWT_CLAIM},
		{"jwt-audience", required_argument, NULL, OPT_JWT_AUDIENCE},
		{"jwt-issuer", required_argument, NULL, OPT_JWT_ISSUER},
		{"authorization-server", required_argument, NULL, OPT_AUTH_SERVER},
		{"resource-url", required_argument, NULL, OPT_RESOURCE_URL},
		{"allowed-host", required_argument, NULL, OPT_ALLOWED_HOST},
		{"max-connections-per-address", required_argument, NULL, OPT_MAX_PER_ADDRESS},
		{"request-timeout", required_argument, NULL, OPT_REQUEST_TIMEOUT},
		{"idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT},
		{"max-requests-per-token", required_argument, NULL, OPT_MAX_REQUESTS_PER_TOKEN},
		{"max-sessions-per-token", required_argument, NULL, OPT_MAX_SESSIONS_PER_TOKEN},
		{"max-batch-members", required_argument, NULL, OPT_MAX_BATCH_MEMBERS},
		{"max-batch-bytes", required_argument, NULL, OPT_MAX_BATCH_BYTES},
		{"text-block", required_argument, NULL, OPT_TEXT_BLOCK},
		{NULL, 0, NULL, 0}
	};
	static const char *origins[MAX_ORIGINS];
	int			c;

	memset(o, 0, sizeof(*o));
	o->http.address = "127.0.0.1";
	o->http.allowed_origins = origins;
	o->http.max_connections = DEFAULT_MAX_CONNECTIONS;
	o->http.max_body_bytes = MCP_MAX_MESSAGE_BYTES;
	o->http.shutdown_grace_ms = DEFAULT_SHUTDOWN_GRACE_MS;
	o->http.max_connections_per_address = DEFAULT_MAX_PER_ADDRESS;
	o->http.request_timeout_secs = DEFAULT_REQUEST_TIMEOUT_SECS;
	o->http.idle_timeout_secs = DEFAULT_IDLE_TIMEOUT_SECS;
	o->http.max_sessions_per_token = DEFAULT_SESSIONS_PER_TOKEN;
	o->max_batch_members = MCP_DEFAULT_BATCH_MEMBERS;
	o->max_batch_bytes = MCP_DEFAULT_BATCH_BYTES;
	o->auth.jwt_leeway_seconds = -1;
	o->text_block = MCP_TEXT_JSON;
	if (getenv(TEXT_BLOCK_ENV) != NULL && getenv(TEXT_BLOCK_ENV)[0] != '\0')
		parse_text_block(getenv(TEXT_BLOCK_ENV), TEXT_BLOCK_ENV, o);
	while ((c = getopt_long(argc, argv, "vV", long_options, NULL)) != -1)
	{
		switch (c)
		{
			case 'v':
				o->verbosity++;
				break;
			case 'V':
				version();
				exit(MCP_EXIT_OK);
			case OPT_SHOW_CONNINFO:
				o->show_conninfo = true;
				break;
			case OPT_HELP:
				help();
				exit(MCP_EXIT_OK);
			case OPT_HTTP:
				if (!parse_listen(optarg, &o->http))
					usage_error();
				o->serve_http = true;
				break;
			case OPT_POOL_SIZE:
				o->pool_size = positive("--pool-size", optarg);
				break;
			case OPT_ALLOW_ORIGIN:
				if (o->http.n_allowed_origins == MAX_ORIGINS)
				{
					mcp_log(MCP_LOG_ERROR, "at most %d --allow-origin options", MAX_ORIGINS);
					usage_error();
				}
				origins[o->http.n_allowed_origins++] = optarg;
				break;
			case OPT_TLS_CERT:
				o->http.tls_cert_file = optarg;
				break;
			case OPT_TLS_KEY:
				o->http.tls_key_file = optarg;
				break;
			case OPT_ALLOW_INSECURE:
				o->http.allow_insecure = true;
				break;
			case OPT_MAX_CONNECTIONS:
				o->http.max_connections = positive("--max-connections", optarg);
				break;
			case OPT_MAX_REQUESTS:
				o->http.max_requests = positive("--max-requests", optarg);
				break;
			case OPT_MAX_BODY:
				o->http.max_body_bytes = (size_t) positive("--max-body", optarg);
				break;
			case OPT_AUTH_TOKENS:
				o->auth.tokens_file = optarg;
				break;
			case OPT_JWT_SECRET:
				o->auth.jwt_secret_file = optarg;
				break;
			case OPT_JWT_KEY:
				o->auth.jwt_key_file = optarg;
				break;
			case OPT_JWT_CLAIM:
				o->auth.jwt_role_claim = optarg;
				break;
			case OPT_JWT_AUDIENCE:
				o->auth.jwt_audience = optarg;
				break;
			case OPT_JWT_ISSUER:
				o->auth.jwt_issuer = optarg;
				break;
			case OPT_AUTH_SERVER:
				o->auth.authorization_server = optarg;
				break;
			case OPT_RESOURCE_URL:
				o->auth.resource = optarg;
				o->http.resource_url = optarg;
				break;
			default:
				/* the limits; else getopt_long has said what is wrong */
				if (!parse_limit_option(c, o))
					usage_error();
		}
	}
	if (optind < argc)
		o->conninfo = argv[optind++];
	if (optind < argc)
	{
		mcp_mask_add_conninfo_secrets(o->conninfo);
		mcp_log(MCP_LOG_ERROR, "too many command-line arguments (first is \"%s\")",
				argv[optind]);
		usage_error();
	}
}

/*
 * The HTTP server's limits and allowed hosts, and --text-block; false for
 * an unknown option.
 */
static bool
parse_limit_option(int c, Options *o)
{
	static const char *hosts[MAX_HOSTS];

	o->http.allowed_hosts = hosts;
	switch (c)
	{
		case OPT_ALLOWED_HOST:
			if (o->http.n_allowed_hosts == MAX_HOSTS)
			{
				mcp_log(MCP_LOG_ERROR, "at most %d --allowed-host options", MAX_HOSTS);
				usage_error();
			}
			hosts[o->http.n_allowed_hosts++] = optarg;
			break;
		case OPT_MAX_PER_ADDRESS:
			o->http.max_connections_per_address =
				positive("--max-connections-per-address", optarg);
			break;
		case OPT_REQUEST_TIMEOUT:
			o->http.request_timeout_secs = positive("--request-timeout", optarg);
			break;
		case OPT_IDLE_TIMEOUT:
			o->http.idle_timeout_secs = positive("--idle-timeout", optarg);
			break;
		case OPT_MAX_REQUESTS_PER_TOKEN:
			o->http.max_requests_per_token = positive("--max-requests-per-token", optarg);
			break;
		case OPT_MAX_SESSIONS_PER_TOKEN:
			o->http.max_sessions_per_token = positive("--max-sessions-per-token", optarg);
			break;
		case OPT_MAX_BATCH_MEMBERS:
			o->max_batch_members = positive("--max-batch-members", optarg);
			break;
		case OPT_MAX_BATCH_BYTES:
			o->max_batch_bytes = positive("--max-batch-bytes", optarg);
			break;
		case OPT_TEXT_BLOCK:
			parse_text_block(optarg, "--text-block", o);
			break;
		default:
			return false;
	}
	return true;
}

/*
 * --text-block or its environment variable (origin names which), into o;
 * a usage error for an unknown form.
 */
static void
parse_text_block(const char *value, const char *origin, Options *o)
{
	if (!mcp_text_block_parse(value, &o->text_block))
	{
		mcp_log(MCP_LOG_ERROR, "invalid value \"%s\" for %s: json, compact or summary is required",
				value, origin);
		usage_error();
	}
}

/*
 * MCP over stdio: one session, one connection.
 */
static int
serve_stdio(Options *o)
{
	if (o->auth.tokens_file || o->auth.jwt_secret_file || o->auth.jwt_key_file)
	{
		mcp_log(MCP_LOG_ERROR, "bearer tokens are for --http; over stdio the connection string's role is used");
		usage_error();
	}
	mcp_pool_configure(1, POOL_WAIT_MS);
	mcp_log(MCP_LOG_INFO, "%s %s ready (MCP over stdio)", MCP_PROGNAME, MCP_VERSION);
	return mcp_serve_stdio();
}

/*
 * MCP over HTTP: tokens, the pool, the listener.
 */
static int
serve_http(Options *o)
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
	mcp_pool_configure(o->pool_size, POOL_WAIT_MS);
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
	return mcp_serve_http(&o->http);
}

/*
 * --http [ADDR:]PORT; an IPv6 address goes in brackets: [::1]:8080.
 */
static bool
parse_listen(const char *arg, McpHttpSettings *http)
{
	static char address[256];
	const char *colon = strrchr(arg, ':');
	const char *port = arg;

	if (colon != NULL)
	{
		size_t		len = (size_t) (colon - arg);

		if (arg[0] == '[' && len >= 2 && arg[len - 1] == ']')
		{
			arg++;
			len -= 2;
		}
		if (len == 0 || len >= sizeof(address))
		{
			mcp_log(MCP_LOG_ERROR, "invalid --http address \"%s\"", arg);
			return false;
		}
		memcpy(address, arg, len);
		address[len] = '\0';
		http->address = address;
		port = colon + 1;
	}
	http->port = positive("--http port", port);
	if (http->port > 65535)
	{
		mcp_log(MCP_LOG_ERROR, "invalid --http port \"%s\"", port);
		return false;
	}
	return true;
}

/*
 * A positive integer option, or a usage error.
 */
static int
positive(const char *option, const char *arg)
{
	char	   *end;
	long		value;

	errno = 0;
	value = strtol(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || value <= 0 || value > INT_MAX)
	{
		mcp_log(MCP_LOG_ERROR, "invalid value \"%s\" for %s: a positive integer is required",
				arg, option);
		usage_error();
	}
	return (int) value;
}

MCP_NORETURN static void
usage_error(void)
{
	fprintf(stderr, "Try \"%s --help\" for more information.\n", MCP_PROGNAME);
	cleanup();
	exit(MCP_EXIT_USAGE);
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
	printf("%s serves the tools of the neon_ai_tools PostgreSQL extension\n"
		   "to MCP clients (Model Context Protocol): over stdio by default (JSON-RPC\n"
		   "2.0, one message per line on standard input and output), or over\n"
		   "Streamable HTTP with --http.  Logs go to standard error.\n\n",
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
	printf("      --text-block FORM  what a tool result's text block holds beside\n"
		   "                         structuredContent: json (the whole answer),\n"
		   "                         compact (the same JSON without whitespace or\n"
		   "                         redundant fields, rows as arrays) or summary (one\n"
		   "                         line); default $%s,\n"
		   "                         else json.  Before revision 2025-06-18: json\n",
		   TEXT_BLOCK_ENV);
	printf("  -v, --verbose          log more to standard error (twice: debugging output)\n");
	printf("  -V, --version          output version information, then exit\n");
	printf("  -?, --help             show this help, then exit\n\n");
	printf("HTTP options:\n");
	printf("      --http [ADDR:]PORT serve MCP over Streamable HTTP at\n"
		   "                         http(s)://ADDR:PORT/mcp (ADDR defaults to\n"
		   "                         127.0.0.1; an IPv6 address in brackets)\n");
	printf("      --pool-size N      database connections shared by requests (default %d)\n",
		   DEFAULT_HTTP_POOL_SIZE);
	printf("      --max-connections N  HTTP connections at once (default %d)\n",
		   DEFAULT_MAX_CONNECTIONS);
	printf("      --max-requests N   requests in progress at once; more get 503 with\n"
		   "                         Retry-After (default %d per pooled connection)\n",
		   REQUESTS_PER_CONNECTION);
	printf("      --max-body BYTES   largest request body, else 413 (default %d)\n",
		   MCP_MAX_MESSAGE_BYTES);
	printf("      --max-connections-per-address N  connections from one client address\n"
		   "                         (default %d)\n", DEFAULT_MAX_PER_ADDRESS);
	printf("      --request-timeout SECS  a request must arrive in full (headers and\n"
		   "                         body) within this, else its connection is closed\n"
		   "                         (default %d)\n",
		   DEFAULT_REQUEST_TIMEOUT_SECS);
	printf("      --idle-timeout SECS  a kept-alive connection may wait this long for its\n"
		   "                         next request (default %d)\n", DEFAULT_IDLE_TIMEOUT_SECS);
	printf("      --max-requests-per-token N  requests of one token in progress at once;\n"
		   "                         more get 429 (default: half of --max-requests)\n");
	printf("      --max-sessions-per-token N  sessions of one token; another initialize\n"
		   "                         ends its own oldest (default %d)\n",
		   DEFAULT_SESSIONS_PER_TOKEN);
	printf("      --max-batch-members N  members of a JSON-RPC batch that are run; the\n"
		   "                         rest answer -32600 (default %d)\n", MCP_DEFAULT_BATCH_MEMBERS);
	printf("      --max-batch-bytes BYTES  once a batch's answers reach this, its remaining\n"
		   "                         members answer -32600 unrun (default %d)\n",
		   MCP_DEFAULT_BATCH_BYTES);
	printf("      --allowed-host NAME  a Host name the server answers to besides loopback\n"
		   "                         names and --resource-url's host (repeatable)\n");
	printf("      --allow-origin ORIGIN  a browser Origin allowed besides loopback pages\n"
		   "                         (repeatable; \"*\" allows all); others get 403\n");
	printf("      --tls-cert FILE, --tls-key FILE  serve HTTPS with this PEM certificate\n");
	printf("      --allow-insecure-http  allow a non-loopback ADDR without TLS\n\n");
	printf("Bearer tokens (HTTP; each names the database role a request runs as):\n");
	printf("      --auth-tokens FILE lines \"ROLE SHA256-OF-TOKEN\" (make one with\n"
		   "                         printf %%s \"$TOKEN\" | sha256sum)\n");
	printf("      --jwt-secret-file FILE  HS256 JWTs signed with this secret\n");
	printf("      --jwt-public-key FILE   RS256 (RSA) or ES256 (P-256) JWTs, PEM public key\n");
	printf("      --jwt-role-claim NAME   the claim naming the role (default \"role\";\n"
		   "                         a dotted path walks into objects)\n");
	printf("      --jwt-audience AUD, --jwt-issuer ISS  required aud and iss\n");
	printf("      --authorization-server URL  advertised in the OAuth protected-resource\n"
		   "                         metadata (/.well-known/oauth-protected-resource)\n");
	printf("      --resource-url URL the endpoint's public URL, for that metadata\n\n");
	printf("With tokens, the program connects as an authenticator role (LOGIN NOINHERIT,\n"
		   "granted the agent roles) and runs each request as the token's role\n"
		   "(set_config('role', ..., true) in the request's transaction).  A token's\n"
		   "role must exist, be granted to the login role, and be neither the login\n"
		   "role, \"none\", a superuser nor BYPASSRLS (else 403).  A\n"
		   "non-loopback ADDR needs tokens, and TLS or --allow-insecure-http.  SIGHUP\n"
		   "reads the tokens file and the JWT keys again.\n\n");
	printf("Examples:\n");
	printf("  %s \"host=/var/run/postgresql dbname=app\"\n", MCP_PROGNAME);
	printf("  PGPASSWORD=... %s \"postgresql://agent@db.example.com/app\"\n", MCP_PROGNAME);
	printf("  %s --http 8080 --auth-tokens /etc/neon-ai-tools/tokens \\\n"
		   "      \"dbname=app user=authenticator\"\n", MCP_PROGNAME);
	printf("  Keep passwords off the command line: PGPASSWORD, ~/.pgpass or a service\n"
		   "  file.  Passwords and tokens are masked in every message and log line.\n\n");
	printf("Exit status:\n");
	printf("  %d  the client closed standard input (the end of a session), or SIGTERM\n",
		   MCP_EXIT_OK);
	printf("  %d  usage error: a bad option, or a connection string libpq cannot parse,\n"
		   "     or an HTTP address, certificate or token file that cannot be used\n",
		   MCP_EXIT_USAGE);
	printf("  %d  standard input or output failed (the client went away), or out of\n"
		   "     memory\n", MCP_EXIT_FATAL);
	printf("  An unreachable database does not end the program: tools/list and tools/call\n"
		   "  then answer with connection_error or authentication_error.\n");
}
