/*-------------------------------------------------------------------------
 *
 * conninfo.c
 *	  Connection parameters of neon-ai-tools-mcp.
 *
 * The command line's CONNINFO (a keyword/value string, a postgresql:// URI
 * or a bare database name) goes to PQconnectdbParams() as an expanded
 * "dbname" entry, so libpq parses it and the PG* environment, service files
 * and ~/.pgpass work as for psql.  Around it the program adds, pg_isready
 * style, a few keyword/value pairs.  Keywords are processed in order and
 * the last one wins, so defaults go before the connection string and
 * fixed settings after it:
 *
 *	- fallback_application_name = neon-ai-tools-mcp;
 *	- sslmode = require, unless sslmode is given (connection string,
 *	  PGSSLMODE, or a service, which may set it) or every host is local: a
 *	  Unix socket (empty host, a path, an abstract "@" socket), localhost,
 *	  127.x.x.x or ::1.  Agents' database traffic should not cross a network
 *	  unencrypted by accident; libpq's own default ("prefer") silently falls
 *	  back to plain text;
 *	- connect_timeout = 10 seconds, unless given: an MCP client waits for
 *	  its tool calls, so an unreachable host must fail in bounded time;
 *	- client_encoding = UTF8, always: MCP messages are UTF-8.
 *
 * A connection string libpq cannot parse is a usage error (exit code 1),
 * reported with its passwords masked.
 *
 * IDENTIFICATION
 *	  src/mcp/db/conninfo.c
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libpq-fe.h"
#include "db/db.h"

#define MAX_PARAMS 8

#define DEFAULT_SSLMODE "require"
#define DEFAULT_CONNECT_TIMEOUT "10"

static const char *param_keywords[MAX_PARAMS + 1];
static const char *param_values[MAX_PARAMS + 1];
static char *conninfo_copy = NULL;
static bool conninfo_is_string = false;
static PQconninfoOption *parsed = NULL;
static bool sslmode_defaulted = false;
static bool timeout_defaulted = false;

static bool is_connection_string(const char *s);
static const char *parsed_value(const char *keyword);
static const char *given_value(const char *keyword, const char *envvar);
static bool host_is_local(const char *host, size_t len);
static bool hosts_are_local(const char *hostaddr, const char *host);
static const char *list_item(const char *list, int n, size_t *len);

/*
 * Take the command line's CONNINFO (NULL: the PG* environment alone) and
 * work out the parameters to connect with.  Returns false, with a masked
 * message in *errmsg (malloc'd), when it cannot be parsed.
 */
bool
mcp_conninfo_configure(const char *conninfo, char **errmsg)
{
	int			n = 0;

	mcp_mask_add_conninfo_secrets(conninfo);
	if (conninfo != NULL)
	{
		conninfo_copy = mcp_strdup(conninfo);
		conninfo_is_string = is_connection_string(conninfo);
	}
	if (conninfo_is_string)
	{
		char	   *err = NULL;
		char	   *masked;
		size_t		len;

		parsed = PQconninfoParse(conninfo, &err);
		if (parsed == NULL)
		{
			masked = mcp_mask_text(err != NULL ? err : "out of memory");
			len = strlen(masked);
			while (len > 0 && isspace((unsigned char) masked[len - 1]))
				masked[--len] = '\0';
			*errmsg = masked;
			if (err != NULL)
				PQfreemem(err);
			return false;
		}
	}

	param_keywords[n] = "fallback_application_name";
	param_values[n++] = MCP_PROGNAME;
	if (given_value("sslmode", "PGSSLMODE") == NULL &&
		given_value("requiressl", "PGREQUIRESSL") == NULL &&
		given_value("service", "PGSERVICE") == NULL &&
		!hosts_are_local(given_value("hostaddr", "PGHOSTADDR"),
						 given_value("host", "PGHOST")))
	{
		sslmode_defaulted = true;
		param_keywords[n] = "sslmode";
		param_values[n++] = DEFAULT_SSLMODE;
	}
	if (given_value("connect_timeout", "PGCONNECT_TIMEOUT") == NULL)
	{
		timeout_defaulted = true;
		param_keywords[n] = "connect_timeout";
		param_values[n++] = DEFAULT_CONNECT_TIMEOUT;
	}
	if (conninfo_copy != NULL)
	{
		param_keywords[n] = "dbname";
		param_values[n++] = conninfo_copy;
	}
	param_keywords[n] = "client_encoding";
	param_values[n++] = "UTF8";
	param_keywords[n] = NULL;
	param_values[n] = NULL;
	return true;
}

/*
 * The keyword/value arrays for PQconnectdbParams(..., expand_dbname = 1).
 */
void
mcp_conninfo_params(const char *const **keywords, const char *const **values)
{
	*keywords = param_keywords;
	*values = param_values;
}

/*
 * --show-conninfo: every parameter that has a value, where it comes from,
 * passwords masked.  Nothing is connected.
 */
void
mcp_conninfo_show(FILE *out)
{
	PQconninfoOption *defaults = PQconndefaults();
	PQconninfoOption *opt;

	fprintf(out, "# %s connection parameters (passwords masked; nothing connected)\n",
			MCP_PROGNAME);
	if (defaults == NULL)
		return;
	for (opt = defaults; opt->keyword != NULL; opt++)
	{
		const char *value = NULL;
		const char *source = NULL;
		const char *env = opt->envvar ? getenv(opt->envvar) : NULL;
		char	   *masked;
		int			i;

		for (i = 0; param_keywords[i] != NULL; i++)
			if (strcmp(param_keywords[i], opt->keyword) == 0 &&
				strcmp(opt->keyword, "dbname") != 0)
			{
				value = param_values[i];
				source = (strcmp(opt->keyword, "client_encoding") == 0)
					? "always UTF8 (MCP messages are UTF-8)"
					: (strcmp(opt->keyword, "sslmode") == 0)
					? MCP_PROGNAME " default: not a local connection"
					: MCP_PROGNAME " default";
			}
		if (strcmp(opt->keyword, "client_encoding") != 0 &&
			parsed_value(opt->keyword) != NULL)
		{
			value = parsed_value(opt->keyword);
			source = "connection string";
		}
		else if (strcmp(opt->keyword, "dbname") == 0 &&
				 conninfo_copy != NULL && !conninfo_is_string)
		{
			value = conninfo_copy;
			source = "command line";
		}
		if (value == NULL && env != NULL && env[0] != '\0')
		{
			value = env;
			source = opt->envvar;
		}
		if (value == NULL && opt->compiled != NULL && opt->compiled[0] != '\0')
		{
			value = opt->compiled;
			source = "libpq default";
		}
		if (value == NULL)
			continue;
		if (strcmp(opt->keyword, "password") == 0 ||
			strcmp(opt->keyword, "sslpassword") == 0)
			value = "********";
		masked = mcp_mask_text(value);
		fprintf(out, "%s=%s\t# %s\n", opt->keyword, masked, source);
		free(masked);
	}
	if (!sslmode_defaulted && given_value("sslmode", "PGSSLMODE") == NULL)
		fprintf(out, "# sslmode: not forced (%s)\n",
				given_value("service", "PGSERVICE") != NULL
				? "a service file may set it"
				: "every host is local");
	PQconninfoFree(defaults);
}

/*
 * Free what mcp_conninfo_configure() kept.
 */
void
mcp_conninfo_forget(void)
{
	if (parsed != NULL)
		PQconninfoFree(parsed);
	parsed = NULL;
	if (conninfo_copy != NULL)
	{
		memset(conninfo_copy, 0, strlen(conninfo_copy));
		free(conninfo_copy);
	}
	conninfo_copy = NULL;
}

/*
 * Does conninfo carry a password (password=, or a URI's user:password@)
 * or an SSL key's passphrase (sslpassword=)?
 * A configuration file must not (options.c): it names a password file.
 * What libpq cannot parse carries none here; mcp_conninfo_configure says
 * what is wrong with it.
 */
bool
mcp_conninfo_has_password(const char *conninfo)
{
	PQconninfoOption *options;
	PQconninfoOption *opt;
	bool		found = false;

	if (!is_connection_string(conninfo))
		return false;
	options = PQconninfoParse(conninfo, NULL);
	if (options == NULL)
		return false;
	for (opt = options; opt->keyword != NULL; opt++)
		if ((strcmp(opt->keyword, "password") == 0 ||
			 strcmp(opt->keyword, "sslpassword") == 0) && opt->val != NULL &&
			opt->val[0] != '\0')
			found = true;
	PQconninfoFree(options);
	return found;
}

/*
 * libpq's own test (recognized_connection_string): a URI or something with
 * an "=" in it; anything else is a database name.
 */
static bool
is_connection_string(const char *s)
{
	return strncmp(s, "postgresql://", 13) == 0 ||
		strncmp(s, "postgres://", 11) == 0 ||
		strchr(s, '=') != NULL;
}

/*
 * A keyword's value in the parsed connection string, or NULL.
 */
static const char *
parsed_value(const char *keyword)
{
	PQconninfoOption *opt;

	if (parsed == NULL)
		return NULL;
	for (opt = parsed; opt->keyword != NULL; opt++)
		if (strcmp(opt->keyword, keyword) == 0)
			return opt->val;
	return NULL;
}

/*
 * A keyword's value from the connection string, else from its environment
 * variable (when set and not empty), else NULL.
 */
static const char *
given_value(const char *keyword, const char *envvar)
{
	const char *value = parsed_value(keyword);

	if (value == NULL)
	{
		value = getenv(envvar);
		if (value != NULL && value[0] == '\0')
			value = NULL;
	}
	return value;
}

/*
 * The n-th item (from 0) of a comma-separated list, trimmed; NULL when the
 * list has fewer items.
 */
static const char *
list_item(const char *list, int n, size_t *len)
{
	const char *start = list;
	const char *end;

	if (list == NULL)
		return NULL;
	while (n-- > 0)
	{
		start = strchr(start, ',');
		if (start == NULL)
			return NULL;
		start++;
	}
	end = strchr(start, ',');
	if (end == NULL)
		end = start + strlen(start);
	while (start < end && isspace((unsigned char) *start))
		start++;
	while (end > start && isspace((unsigned char) end[-1]))
		end--;
	*len = end - start;
	return start;
}

/*
 * Is one host (len bytes) a Unix socket or a loopback address?
 */
static bool
host_is_local(const char *host, size_t len)
{
	size_t		i;

	if (host == NULL || len == 0 || host[0] == '/' || host[0] == '@')
		return true;
	if (len == 9 && strncasecmp(host, "localhost", 9) == 0)
		return true;
	if ((len == 3 && strncmp(host, "::1", 3) == 0) ||
		(len == 15 && strncmp(host, "0:0:0:0:0:0:0:1", 15) == 0))
		return true;
	if (len > 4 && strncmp(host, "127.", 4) == 0)
	{
		for (i = 4; i < len; i++)
			if (!isdigit((unsigned char) host[i]) && host[i] != '.')
				return false;
		return true;
	}
	return false;
}

/*
 * Is every host local?  A host's address is its hostaddr entry when there
 * is one, else its host entry; no host at all means the default Unix
 * socket.
 */
static bool
hosts_are_local(const char *hostaddr, const char *host)
{
	int			i;

	for (i = 0;; i++)
	{
		size_t		alen = 0;
		size_t		hlen = 0;
		const char *a = list_item(hostaddr, i, &alen);
		const char *h = list_item(host, i, &hlen);

		if (a == NULL && h == NULL)
			return true;
		if (a != NULL && alen > 0)
		{
			if (!host_is_local(a, alen))
				return false;
		}
		else if (!host_is_local(h, hlen))
			return false;
	}
}
