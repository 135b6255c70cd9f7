/*-------------------------------------------------------------------------
 *
 * help.c
 *	  --help and --version of neon-ai-tools-mcp.
 *
 * Its own file below main.c and options.c, which both print them (alone on
 * the command line, and in the middle of other options).
 *
 * IDENTIFICATION
 *	  src/mcp/help.c
 *
 *-------------------------------------------------------------------------
 */
#include "options.h"
#include "protocol/revision.h"

/*
 * --version
 */
void
mcp_version(void)
{
	printf("%s (neon_ai_tools) %s\n", MCP_PROGNAME, MCP_VERSION);
}

/*
 * --help, on stdout.  The examples carry no password.
 */
void
mcp_help(void)
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
	printf("      --config FILE      read options from FILE: \"key = value\" lines, the keys\n"
		   "                         being the long options' names (listen, database,\n"
		   "                         pool-size, ...); the command line overrides it\n");
	printf("      --check-config     check the options and the file as startup does,\n"
		   "                         print \"configuration OK\" and exit, without connecting\n");
	printf("      --database CONNINFO  the same as CONNINFO\n");
	printf("      --show-conninfo    print the connection parameters (passwords masked)\n"
		   "                         and exit, without connecting\n");
	printf("      --log-format FORMAT  text (the default) or json (one JSON object a\n"
		   "                         line: time, level, request id, session, role, tool,\n"
		   "                         outcome, duration_ms, bytes)\n");
	printf("      --text-block FORM  what a tool result's text block holds beside\n"
		   "                         structuredContent: json (the whole answer),\n"
		   "                         compact (the same JSON without whitespace or\n"
		   "                         redundant fields, rows as arrays) or summary (one\n"
		   "                         line); default $%s,\n"
		   "                         else json.  Before revision "
		   MCP_REVISION_2025_06_18 ": json\n",
		   TEXT_BLOCK_ENV);
	printf("  -v, --verbose          log more to standard error (twice: debugging output)\n");
	printf("  -V, --version          output version information, then exit\n");
	printf("  -?, --help             show this help, then exit\n\n");
	printf("HTTP options:\n");
	printf("      --http [ADDR:]PORT serve MCP over Streamable HTTP at\n"
		   "                         http(s)://ADDR:PORT/mcp (ADDR defaults to\n"
		   "                         127.0.0.1; an IPv6 address in brackets);\n"
		   "                         --listen is the same\n");
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
	printf("      --admin-listen [ADDR:]PORT  also serve GET /live, /ready and /metrics\n"
		   "                         (Prometheus) at http://ADDR:PORT, without tokens\n"
		   "                         (ADDR defaults to 127.0.0.1); /live and /ready are\n"
		   "                         on --http's address too, /metrics only here\n");
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
	printf("  %s --config /etc/neon-ai-tools-mcp/neon-ai-tools-mcp.conf\n", MCP_PROGNAME);
	printf("  Keep passwords off the command line: PGPASSWORD, ~/.pgpass or a service\n"
		   "  file.  Passwords and tokens are masked in every message and log line.\n\n");
	printf("Exit status:\n");
	printf("  %d  the client closed standard input (the end of a session), or SIGTERM\n",
		   MCP_EXIT_OK);
	printf("  %d  usage error: a bad option, or a connection string libpq cannot parse,\n"
		   "     or an HTTP address, certificate or token file that cannot be used\n",
		   MCP_EXIT_USAGE);
	printf("  %d  standard input or output failed (the client went away), or out of\n"
		   "     memory; or the configuration file cannot be used (one line names its\n"
		   "     file, line and key)\n", MCP_EXIT_FATAL);
	printf("  An unreachable database does not end the program: tools/list and tools/call\n"
		   "  then answer with connection_error or authentication_error.\n");
}
