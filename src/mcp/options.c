/*-------------------------------------------------------------------------
 *
 * options.c
 *	  The command line and the configuration file of neon-ai-tools-mcp.
 *
 * Every option is one row of options[] below: its long name (which is also
 * its key in the configuration file), whether it takes a value, and the
 * function that sets it.  getopt_long's table is built from the rows, and
 * the file's "key = value" lines go through the same functions, so an
 * option added here is a key of the file at once.
 *
 * The file (--config FILE) is read first, wherever --config appears, and
 * the command line then overrides it: a single-valued option given on the
 * command line replaces the file's value, and a repeatable one
 * (--allow-origin, --allowed-host) replaces the file's whole list.
 *
 * The file's syntax, as postgresql.conf's and pgbouncer.ini's: one
 * "key = value" a line; blank lines and "#" comments; a value in single or
 * double quotes may hold spaces and "#" (a backslash escapes the quote or
 * itself); a flag takes on/off, true/false, yes/no or 1/0.  Relative paths
 * are taken from the file's directory.  A key that would carry a secret
 * (jwt-secret, password, token) is refused, as is a connection string with
 * a password: secrets are named by a file's path.  Any mistake (unknown
 * key, bad value, key given twice, a file that cannot be read) stops the
 * program with one line naming the file, the line and the key, exit
 * code 2.
 *
 * IDENTIFICATION
 *	  src/mcp/options.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"

/* getopt_long's values: the short options' letters, then these */
enum
{
	OPT_HELP = 256,
	OPT_CONFIG,
	OPT_CHECK_CONFIG,
	OPT_SHOW_CONNINFO,
	OPT_LOG_FORMAT,
	OPT_TEXT_BLOCK,
	OPT_HTTP,
	OPT_DATABASE,
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
	OPT_ADMIN_LISTEN,
	OPT_SECRET,					/* a file-only key that is refused */
	OPT_END
};

/* a row's flags */
#define OPTF_VALUE	0x01		/* takes a value (else a flag) */
#define OPTF_CLI	0x02		/* command line only: not a key of the file */
#define OPTF_PATH	0x04		/* a path: relative to the file's directory */
#define OPTF_LIST	0x08		/* repeatable */
#define OPTF_SECRET 0x10		/* a key of the file that would hold a secret */

typedef struct OptionDef OptionDef;

/*
 * Set an option: value is the argument (NULL for a flag on the command
 * line; a flag's "on"/"off" in the file), in_file says where it comes from.
 * Returns NULL, or why the value is refused.
 */
typedef const char *(*OptionSetter) (McpOptions *o, const OptionDef *def,
									 const char *value, bool in_file);

struct OptionDef
{
	const char *name;			/* --name, and the file's key */
	int			id;				/* getopt_long's value; aliases share it */
	int			flags;			/* OPTF_* */
	OptionSetter set;
	size_t		offset;			/* set_int, set_string...: the field */
	const char *hint;			/* OPTF_SECRET: where the secret goes */
};

static const char *set_flag(McpOptions *o, const OptionDef *def,
							const char *value, bool in_file);
static const char *set_verbose(McpOptions *o, const OptionDef *def,
							   const char *value, bool in_file);
static const char *set_int(McpOptions *o, const OptionDef *def,
						   const char *value, bool in_file);
static const char *set_size(McpOptions *o, const OptionDef *def,
							const char *value, bool in_file);
static const char *set_string(McpOptions *o, const OptionDef *def,
							  const char *value, bool in_file);
static const char *set_listen(McpOptions *o, const OptionDef *def,
							  const char *value, bool in_file);
static const char *set_database(McpOptions *o, const OptionDef *def,
								const char *value, bool in_file);
static const char *set_resource_url(McpOptions *o, const OptionDef *def,
									const char *value, bool in_file);
static const char *set_origin(McpOptions *o, const OptionDef *def,
							  const char *value, bool in_file);
static const char *set_host(McpOptions *o, const OptionDef *def,
							const char *value, bool in_file);
static const char *set_text_block(McpOptions *o, const OptionDef *def,
								  const char *value, bool in_file);
static const char *set_log_format(McpOptions *o, const OptionDef *def,
								  const char *value, bool in_file);
static const char *set_admin_listen(McpOptions *o, const OptionDef *def,
									const char *value, bool in_file);

#define FIELD(f) offsetof(McpOptions, f)

/* every option, one row each; --help documents them */
static const OptionDef options[] = {
	/* the command line's own */
	{"help", OPT_HELP, OPTF_CLI, NULL, 0, NULL},
	{"version", 'V', OPTF_CLI, NULL, 0, NULL},
	{"config", OPT_CONFIG, OPTF_CLI | OPTF_VALUE, set_string, FIELD(config_file), NULL},
	{"check-config", OPT_CHECK_CONFIG, OPTF_CLI, set_flag, FIELD(check_config), NULL},
	{"show-conninfo", OPT_SHOW_CONNINFO, OPTF_CLI, set_flag, FIELD(show_conninfo), NULL},
	/* general */
	{"database", OPT_DATABASE, OPTF_VALUE, set_database, 0, NULL},
	{"verbose", 'v', 0, set_verbose, 0, NULL},
	{"log-format", OPT_LOG_FORMAT, OPTF_VALUE, set_log_format, 0, NULL},
	{"text-block", OPT_TEXT_BLOCK, OPTF_VALUE, set_text_block, 0, NULL},
	/* HTTP */
	{"http", OPT_HTTP, OPTF_VALUE, set_listen, 0, NULL},
	{"listen", OPT_HTTP, OPTF_VALUE, set_listen, 0, NULL},
	{"pool-size", OPT_POOL_SIZE, OPTF_VALUE, set_int, FIELD(pool_size), NULL},
	{"max-connections", OPT_MAX_CONNECTIONS, OPTF_VALUE, set_int, FIELD(http.max_connections), NULL},
	{"max-requests", OPT_MAX_REQUESTS, OPTF_VALUE, set_int, FIELD(http.max_requests), NULL},
	{"max-body", OPT_MAX_BODY, OPTF_VALUE, set_size, FIELD(http.max_body_bytes), NULL},
	{"max-connections-per-address", OPT_MAX_PER_ADDRESS, OPTF_VALUE, set_int, FIELD(http.max_connections_per_address), NULL},
	{"request-timeout", OPT_REQUEST_TIMEOUT, OPTF_VALUE, set_int, FIELD(http.request_timeout_secs), NULL},
	{"idle-timeout", OPT_IDLE_TIMEOUT, OPTF_VALUE, set_int, FIELD(http.idle_timeout_secs), NULL},
	{"max-requests-per-token", OPT_MAX_REQUESTS_PER_TOKEN, OPTF_VALUE, set_int, FIELD(http.max_requests_per_token), NULL},
	{"max-sessions-per-token", OPT_MAX_SESSIONS_PER_TOKEN, OPTF_VALUE, set_int, FIELD(http.max_sessions_per_token), NULL},
	{"max-batch-members", OPT_MAX_BATCH_MEMBERS, OPTF_VALUE, set_int, FIELD(max_batch_members), NULL},
	{"max-batch-bytes", OPT_MAX_BATCH_BYTES, OPTF_VALUE, set_int, FIELD(max_batch_bytes), NULL},
	{"allowed-host", OPT_ALLOWED_HOST, OPTF_VALUE | OPTF_LIST, set_host, 0, NULL},
	{"allow-origin", OPT_ALLOW_ORIGIN, OPTF_VALUE | OPTF_LIST, set_origin, 0, NULL},
	{"tls-cert", OPT_TLS_CERT, OPTF_VALUE | OPTF_PATH, set_string, FIELD(http.tls_cert_file), NULL},
	{"tls-key", OPT_TLS_KEY, OPTF_VALUE | OPTF_PATH, set_string, FIELD(http.tls_key_file), NULL},
	{"allow-insecure-http", OPT_ALLOW_INSECURE, 0, set_flag, FIELD(http.allow_insecure), NULL},
	{"admin-listen", OPT_ADMIN_LISTEN, OPTF_VALUE, set_admin_listen, 0, NULL},
	/* bearer tokens */
	{"auth-tokens", OPT_AUTH_TOKENS, OPTF_VALUE | OPTF_PATH, set_string, FIELD(auth.tokens_file), NULL},
	{"jwt-secret-file", OPT_JWT_SECRET, OPTF_VALUE | OPTF_PATH, set_string, FIELD(auth.jwt_secret_file), NULL},
	{"jwt-public-key", OPT_JWT_KEY, OPTF_VALUE | OPTF_PATH, set_string, FIELD(auth.jwt_key_file), NULL},
	{"jwt-role-claim", OPT_JWT_CLAIM, OPTF_VALUE, set_string, FIELD(auth.jwt_role_claim), NULL},
	{"jwt-audience", OPT_JWT_AUDIENCE, OPTF_VALUE, set_string, FIELD(auth.jwt_audience), NULL},
	{"jwt-issuer", OPT_JWT_ISSUER, OPTF_VALUE, set_string, FIELD(auth.jwt_issuer), NULL},
	{"authorization-server", OPT_AUTH_SERVER, OPTF_VALUE, set_string, FIELD(auth.authorization_server), NULL},
	{"resource-url", OPT_RESOURCE_URL, OPTF_VALUE, set_resource_url, 0, NULL},
	/* keys that would put a secret in the file: refused, saying where it goes */
	{"jwt-secret", OPT_SECRET, OPTF_SECRET, NULL, 0,
	"write the secret to a file readable by this program only and name it with jwt-secret-file"},
	{"password", OPT_SECRET, OPTF_SECRET, NULL, 0,
	"put the password in a password file: passfile=FILE in database's connection string, PGPASSFILE or ~/.pgpass"},
	{"token", OPT_SECRET, OPTF_SECRET, NULL, 0,
	"list the tokens' SHA-256 hashes in a file and name it with auth-tokens"},
};

#define N_OPTIONS ((int) (sizeof(options) / sizeof(options[0])))

/* strings the file's values were copied into, freed at exit */
static char **kept;
static int	n_kept;

/* why a value is refused, when the reason is built */
static char why[256];

static void apply_command_line(McpOptions *o, int argc, char **argv,
							   bool first_pass);
static void read_config(McpOptions *o, const char *path);
static void apply_line(McpOptions *o, const char *path, int lineno,
					   char *line, int *first_line);
static const char *split_line(char *line, char **key, char **value);
static const OptionDef *find_option(const char *name);
static const char *near_key(const char *key);
static int	distance(const char *a, const char *b);
static const char *keep(char *s);
static bool positive(const char *value, int *n);
static bool parse_bool(const char *value, bool *on);
MCP_NORETURN static void config_error(const char *path, int lineno,
									  const char *fmt,...) MCP_PRINTF(3, 4);

/*
 * The defaults, then the environment, then the configuration file, then
 * the command line, into *o.  A usage error exits with code 1, a mistake
 * in the file with code 2.
 */
void
mcp_options_parse(int argc, char **argv, McpOptions *o)
{
	const char *env = getenv(TEXT_BLOCK_ENV);

	memset(o, 0, sizeof(*o));
	o->http.address = "127.0.0.1";
	o->http.allowed_origins = o->origins;
	o->http.allowed_hosts = o->hosts;
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
	o->log_format = MCP_LOG_TEXT;
	if (env != NULL && env[0] != '\0' && !mcp_text_block_parse(env, &o->text_block))
	{
		mcp_log(MCP_LOG_ERROR, "invalid value \"%s\" for %s: json, compact or summary is required",
				env, TEXT_BLOCK_ENV);
		mcp_options_usage_error();
	}

	/* --config and --check-config first, wherever they are */
	apply_command_line(o, argc, argv, true);
	if (o->config_file != NULL)
		read_config(o, o->config_file);
	apply_command_line(o, argc, argv, false);

	if (optind < argc)
	{
		const char *reason = set_database(o, NULL, argv[optind++], false);

		if (reason != NULL)
		{
			mcp_log(MCP_LOG_ERROR, "invalid connection string: %s", reason);
			mcp_options_usage_error();
		}
	}
	if (optind < argc)
	{
		mcp_mask_add_conninfo_secrets(o->conninfo);
		mcp_log(MCP_LOG_ERROR, "too many command-line arguments (first is \"%s\")",
				argv[optind]);
		mcp_options_usage_error();
	}
}

/*
 * getopt_long over argv.  The first pass takes --help, --version, --config
 * and --check-config and stays silent about the rest; the second applies
 * everything else, over what the file set.
 */
static void
apply_command_line(McpOptions *o, int argc, char **argv, bool first_pass)
{
	struct option long_options[N_OPTIONS + 1];
	int			row_of[N_OPTIONS + 1];
	int			n = 0;
	int			c;
	int			i;
	int			index;

	for (i = 0; i < N_OPTIONS; i++)
	{
		if (options[i].flags & OPTF_SECRET)
			continue;
		long_options[n].name = options[i].name;
		long_options[n].has_arg = (options[i].flags & OPTF_VALUE) ? required_argument : no_argument;
		long_options[n].flag = NULL;
		long_options[n].val = options[i].id;
		row_of[n++] = i;
	}
	memset(&long_options[n], 0, sizeof(long_options[n]));

	optind = 0;					/* glibc: start over, with a new scan */
	opterr = first_pass ? 0 : 1;
	while ((index = -1, c = getopt_long(argc, argv, "vV", long_options, &index)) != -1)
	{
		const OptionDef *def = NULL;
		const char *reason;

		if (c == '?' || c == ':')
		{
			if (first_pass)
				continue;
			mcp_options_usage_error();	/* getopt_long has said why */
		}
		if (index >= 0)
			def = &options[row_of[index]];
		else
			for (i = 0; i < N_OPTIONS && def == NULL; i++)
				if (options[i].id == c)
					def = &options[i];
		if (c == OPT_HELP || c == 'V' || c == OPT_CONFIG || c == OPT_CHECK_CONFIG)
		{
			if (!first_pass)
				continue;
			if (c == OPT_HELP)
				mcp_help();
			else if (c == 'V')
				mcp_version();
			if (c == OPT_HELP || c == 'V')
			{
				mcp_options_forget();
				exit(MCP_EXIT_OK);
			}
		}
		else if (first_pass)
			continue;
		reason = def->set(o, def, optarg, false);
		if (reason != NULL)
		{
			mcp_log(MCP_LOG_ERROR, "invalid value \"%s\" for --%s: %s",
					optarg != NULL ? optarg : "", def->name, reason);
			mcp_options_usage_error();
		}
	}
}

/*
 * Read the configuration file at path into *o.
 */
static void
read_config(McpOptions *o, const char *path)
{
	FILE	   *file = fopen(path, "r");
	char	   *line = NULL;
	size_t		cap = 0;
	int			lineno = 0;
	int			first_line[OPT_END];

	if (file == NULL)
		config_error(path, 0, "could not read the configuration file: %s",
					 strerror(errno));
	memset(first_line, 0, sizeof(first_line));
	errno = 0;
	while (getline(&line, &cap, file) != -1)
	{
		lineno++;
		apply_line(o, path, lineno, line, first_line);
		errno = 0;
	}
	free(line);
	if (errno != 0)
	{
		int			err = errno;

		fclose(file);
		config_error(path, lineno + 1, "could not read the configuration file: %s",
					 strerror(err));
	}
	fclose(file);
}

/*
 * One line of the file at path: a comment, a blank line or "key = value",
 * applied.  first_line[id] is where an option was set first.
 */
static void
apply_line(McpOptions *o, const char *path, int lineno, char *line,
		   int *first_line)
{
	char	   *key;
	char	   *value;
	const char *reason = split_line(line, &key, &value);
	const OptionDef *def;
	const char *slash = strrchr(path, '/');

	if (reason != NULL && key != NULL && key[0] != '\0')
		config_error(path, lineno, "key \"%s\": %s", key, reason);
	if (reason != NULL)
		config_error(path, lineno, "%s", reason);
	if (key == NULL)
		return;					/* blank or comment */
	def = find_option(key);
	if (def == NULL)
	{
		const char *near = near_key(key);

		if (near != NULL)
			config_error(path, lineno, "unknown key \"%s\" (did you mean \"%s\"?)", key, near);
		config_error(path, lineno, "unknown key \"%s\"", key);
	}
	if (def->flags & OPTF_SECRET)
		config_error(path, lineno, "key \"%s\" would put a secret in the file: %s",
					 key, def->hint);
	if (def->flags & OPTF_CLI)
		config_error(path, lineno, "key \"%s\" is for the command line only", key);
	if (!(def->flags & OPTF_LIST) && first_line[def->id] != 0)
		config_error(path, lineno, "duplicate key \"%s\" (first set on line %d)",
					 key, first_line[def->id]);
	first_line[def->id] = lineno;

	if ((def->flags & OPTF_PATH) && value[0] != '/' && value[0] != '\0' && slash != NULL)
		value = mcp_psprintf("%.*s/%s", (int) (slash - path), path, value);
	else
		value = mcp_strdup(value);
	keep(value);
	reason = def->set(o, def, value, true);
	if (reason != NULL)
		config_error(path, lineno, "invalid value \"%s\" for key \"%s\": %s",
					 value, key, reason);
}

/*
 * Split a line, in place, into *key and *value (both NULL for a blank line
 * or a comment).  Returns NULL, or what is wrong with the line.
 */
static const char *
split_line(char *line, char **key, char **value)
{
	char	   *p = line;
	char	   *end;

	*key = *value = NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n' || *p == '\r' || *p == '#')
		return NULL;
	*key = p;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		   (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.')
		p++;
	end = p;
	while (*p == ' ' || *p == '\t')
		p++;
	if (end == *key || *p != '=')
	{
		*end = '\0';
		return end == *key ? "syntax error: a line is \"key = value\""
			: "syntax error: \"=\" expected after the key";
	}
	*end = '\0';
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	*value = p;
	if (*p == '\'' || *p == '"')
	{
		char		quote = *p++;
		char	   *out = *value;

		while (*p != quote)
		{
			if (*p == '\0' || *p == '\n' || *p == '\r')
				return "syntax error: a quoted value has no closing quote";
			if (*p == '\\' && (p[1] == quote || p[1] == '\\'))
				p++;
			*out++ = *p++;
		}
		*out = '\0';
		p++;
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (*p != '\0' && *p != '#')
			return "syntax error: text after a quoted value";
		return NULL;
	}
	end = p + strcspn(p, "#\n");
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*end = '\0';
	if (**value == '\0')
		return "syntax error: the value is missing (quote an empty one: \"\")";
	return NULL;
}

static const OptionDef *
find_option(const char *name)
{
	int			i;

	for (i = 0; i < N_OPTIONS; i++)
		if (strcmp(options[i].name, name) == 0)
			return &options[i];
	return NULL;
}

/*
 * The key of the file nearest to an unknown one (a typo, a prefix, "_" for
 * "-"), or NULL when none is near.
 */
static const char *
near_key(const char *key)
{
	const char *best = NULL;
	int			best_distance = INT_MAX;
	int			limit = strlen(key) < 6 ? 1 : strlen(key) < 12 ? 2 : 3;
	int			i;

	for (i = 0; i < N_OPTIONS; i++)
	{
		int			d;

		if (options[i].flags & (OPTF_CLI | OPTF_SECRET))
			continue;
		d = strncmp(options[i].name, key, strlen(key)) == 0 ? 1
			: distance(key, options[i].name);
		if (d < best_distance)
		{
			best_distance = d;
			best = options[i].name;
		}
	}
	return best_distance <= limit ? best : NULL;
}

/* Levenshtein distance, short strings (keys) only */
static int
distance(const char *a, const char *b)
{
	int			row[64];
	size_t		la = strlen(a);
	size_t		lb = strlen(b);
	size_t		i;
	size_t		j;

	if (la >= 64 || lb >= 64)
		return INT_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = (int) j;
	for (i = 1; i <= la; i++)
	{
		int			diagonal = row[0];

		row[0] = (int) i;
		for (j = 1; j <= lb; j++)
		{
			int			above = row[j];
			int			best = diagonal + (a[i - 1] != b[j - 1]);

			if (above + 1 < best)
				best = above + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diagonal = above;
		}
	}
	return row[lb];
}

/* --- the setters ------------------------------------------------------- */

/* a bool field: set by a flag, or on/off in the file */
static const char *
set_flag(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	bool		on = true;

	if (value != NULL && !parse_bool(value, &on))
		return "on or off is required (also true/false, yes/no, 1/0)";
	*(bool *) ((char *) o + def->offset) = on;
	return NULL;
}

/* -v counts; the file says 0, 1 or 2 (or off, on) */
static const char *
set_verbose(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	bool		on;

	if (value == NULL)
	{
		/* the command line's -v count replaces the file's level */
		if (!o->verbose_from_cli)
			o->verbosity = 0;
		o->verbose_from_cli = true;
		o->verbosity++;
	}
	else if (strcmp(value, "2") == 0)
		o->verbosity = 2;
	else if (parse_bool(value, &on))
		o->verbosity = on ? 1 : 0;
	else
		return "0, 1 or 2 is required (also off, on)";
	return NULL;
}

/* a positive int field */
static const char *
set_int(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	int			n;

	if (!positive(value, &n))
		return "a positive integer is required";
	*(int *) ((char *) o + def->offset) = n;
	return NULL;
}

/* a positive size_t field (at most INT_MAX) */
static const char *
set_size(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	int			n;

	if (!positive(value, &n))
		return "a positive integer is required";
	*(size_t *) ((char *) o + def->offset) = (size_t) n;
	return NULL;
}

/* a const char * field */
static const char *
set_string(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	*(const char **) ((char *) o + def->offset) = value;
	return NULL;
}

/* --http and --listen: [ADDR:]PORT; an IPv6 address goes in brackets */
static const char *
set_listen(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	static char address[256];
	const char *colon = strrchr(value, ':');
	const char *port = value;
	char	   *end;
	long		n;

	if (colon != NULL)
	{
		size_t		len = (size_t) (colon - value);

		if (value[0] == '[' && len >= 2 && value[len - 1] == ']')
		{
			value++;
			len -= 2;
		}
		if (len == 0 || len >= sizeof(address))
			return "[ADDR:]PORT is required (an IPv6 address in brackets)";
		memcpy(address, value, len);
		address[len] = '\0';
		o->http.address = address;
		port = colon + 1;
	}
	errno = 0;
	n = strtol(port, &end, 10);
	if (errno != 0 || end == port || *end != '\0' || n <= 0 || n > 65535)
		return "the port must be an integer from 1 to 65535";
	o->http.port = (int) n;
	o->serve_http = true;
	return NULL;
}

/* CONNINFO or --database; the file's must not carry a password */
static const char *
set_database(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	if (in_file && mcp_conninfo_has_password(value))
	{
		/* the error names the value: not the password in it */
		mcp_mask_add_conninfo_secrets(value);
		return "the connection string carries a password: put it in a password file (passfile=FILE in the connection string, PGPASSFILE or ~/.pgpass)";
	}
	o->conninfo = value;
	return NULL;
}

/* the endpoint's public URL: for the OAuth metadata and the Host check */
static const char *
set_resource_url(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	o->auth.resource = value;
	o->http.resource_url = value;
	return NULL;
}

/* one more allowed Origin; the command line's replace the file's */
static const char *
set_origin(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	if (!in_file && !o->origins_from_cli)
	{
		o->http.n_allowed_origins = 0;
		o->origins_from_cli = true;
	}
	if (o->http.n_allowed_origins == MAX_ORIGINS)
	{
		snprintf(why, sizeof(why), "at most %d origins are allowed", MAX_ORIGINS);
		return why;
	}
	o->origins[o->http.n_allowed_origins++] = value;
	return NULL;
}

/* one more allowed Host; the command line's replace the file's */
static const char *
set_host(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	if (!in_file && !o->hosts_from_cli)
	{
		o->http.n_allowed_hosts = 0;
		o->hosts_from_cli = true;
	}
	if (o->http.n_allowed_hosts == MAX_HOSTS)
	{
		snprintf(why, sizeof(why), "at most %d hosts are allowed", MAX_HOSTS);
		return why;
	}
	o->hosts[o->http.n_allowed_hosts++] = value;
	return NULL;
}

static const char *
set_text_block(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	if (!mcp_text_block_parse(value, &o->text_block))
		return "json, compact or summary is required";
	return NULL;
}

static const char *
set_log_format(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	if (!mcp_log_format_parse(value, &o->log_format))
		return "text or json is required";
	return NULL;
}

/* --admin-listen: /live, /ready and /metrics (http_health.c) */
static const char *
set_admin_listen(McpOptions *o, const OptionDef *def, const char *value, bool in_file)
{
	return http_parse_admin_listen(value, &o->http);
}

/* --- helpers ------------------------------------------------------------ */

/* a positive int, in decimal */
static bool
positive(const char *value, int *n)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || v <= 0 || v > INT_MAX)
		return false;
	*n = (int) v;
	return true;
}

/* on/off, true/false, yes/no, 1/0, in any case */
static bool
parse_bool(const char *value, bool *on)
{
	static const char *const yes[] = {"on", "true", "yes", "1"};
	static const char *const no[] = {"off", "false", "no", "0"};
	int			i;

	for (i = 0; i < 4; i++)
	{
		if (strcasecmp(value, yes[i]) == 0)
			return (*on = true);
		if (strcasecmp(value, no[i]) == 0)
			return !(*on = false);
	}
	return false;
}

/* s (malloc'd) lives until mcp_options_forget() */
static const char *
keep(char *s)
{
	kept = mcp_realloc(kept, sizeof(char *) * (n_kept + 1));
	kept[n_kept++] = s;
	return s;
}

/*
 * One line naming the file (and the line), then exit code 2.  Masked as
 * every message is.
 */
static void
config_error(const char *path, int lineno, const char *fmt,...)
{
	va_list		ap;
	char		message[1024];

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	if (lineno > 0)
		mcp_log(MCP_LOG_ERROR, "%s:%d: %s", path, lineno, message);
	else
		mcp_log(MCP_LOG_ERROR, "%s: %s", path, message);
	mcp_options_forget();
	mcp_mask_forget();
	exit(MCP_EXIT_CONFIG);
}

/*
 * A mistake on the command line: point at --help, exit code 1.
 */
void
mcp_options_usage_error(void)
{
	fprintf(stderr, "Try \"%s --help\" for more information.\n", MCP_PROGNAME);
	mcp_options_forget();
	mcp_conninfo_forget();
	mcp_mask_forget();
	exit(MCP_EXIT_USAGE);
}

/*
 * Free the file's values (so that valgrind's leak check sees a clean exit).
 */
void
mcp_options_forget(void)
{
	int			i;

	for (i = 0; i < n_kept; i++)
		free(kept[i]);
	free(kept);
	kept = NULL;
	n_kept = 0;
}
