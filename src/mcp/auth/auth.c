/*-------------------------------------------------------------------------
 *
 * auth.c
 *	  Bearer-token authentication: the Authorization header, the challenge
 *	  of a refused request and the protected-resource metadata.
 *
 * mcp_auth_check() reads "Bearer TOKEN" (RFC 6750 section 2.1: the scheme
 * is case-insensitive; the token is a b64token of at most
 * MCP_AUTH_MAX_TOKEN bytes) and hands the token to the JWT check when JWTs
 * are configured and it has the form of one (two dots), to the static
 * token check otherwise.  Any other scheme ("Basic ...") counts as no
 * token at all, as RFC 6750 section 3.1 says of a client that "attempted
 * using an unsupported authentication method".
 *
 * The reasons given back are static strings that never quote the token,
 * and contain no '"' or '\\', so they can go in a quoted-string of the
 * WWW-Authenticate header as they are.
 *
 * The protected-resource metadata (RFC 9728) is served at the URL made by
 * inserting "/.well-known/oauth-protected-resource" between the resource
 * URL's host and its path (section 3.1): for https://db.example:8443/mcp,
 * https://db.example:8443/.well-known/oauth-protected-resource/mcp.  The
 * challenge's resource_metadata parameter names that URL, as the MCP
 * authorization specification asks.
 *
 * IDENTIFICATION
 *	  src/mcp/auth/auth.c
 *
 *-------------------------------------------------------------------------
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

#include "auth/auth_int.h"
#include "protocol/protocol.h"

#define AUTH_REALM "neon-ai-tools-mcp"
#define WELL_KNOWN_PATH "/.well-known/oauth-protected-resource"
#define MAX_URL_LEN 2048

/* checks read the configuration; a reload (SIGHUP) replaces it */
static pthread_rwlock_t config_lock = PTHREAD_RWLOCK_INITIALIZER;
static char *authorization_server = NULL;
static char *resource = NULL;
static char *metadata_path = NULL;	/* path part of metadata_url */
static char *metadata_url = NULL;	/* NULL: no authorization server */

static bool check_url(const char *url, const char *what, char **errmsg);
static bool configure_metadata(const McpAuthSettings *settings,
							   char **errmsg);
static char *append_param(char *value, const char *name, const char *txt);
static bool is_b64token(const char *token, size_t len);
static const char *bearer_token(const char *header, size_t *len,
								McpAuthStatus *status, const char **reason);

/*
 * Load and check every configured file and setting.  On failure returns
 * false with a malloc'd message naming the file or setting and the
 * problem, and leaves authentication unconfigured.  Calling it again
 * replaces the previous configuration (not while requests are checked).
 */
bool
mcp_auth_configure(const McpAuthSettings *settings, char **errmsg)
{
	*errmsg = NULL;
	mcp_auth_forget();
	if (settings == NULL)
		return true;
	if (!configure_metadata(settings, errmsg) ||
		(settings->tokens_file != NULL &&
		 !mcp_auth_tokens_load(settings->tokens_file, errmsg)) ||
		!mcp_auth_jwt_configure(settings, errmsg))
	{
		mcp_auth_forget();
		return false;
	}
	return true;
}

/*
 * Is any token source configured?
 */
bool
mcp_auth_enabled(void)
{
	return mcp_auth_tokens_enabled() || mcp_auth_jwt_enabled();
}

/*
 * Check an Authorization header value (NULL: the request had none).  On
 * MCP_AUTH_OK *role is the malloc'd role name; otherwise *role is NULL.
 * *reason is always set to a static description safe to log and to send.
 */
McpAuthStatus
mcp_auth_check(const char *authorization, char **role, const char **reason)
{
	char		identity[MCP_IDENTITY_LEN + 1];

	return mcp_auth_check_identity(authorization, role, identity, reason);
}

/*
 * mcp_auth_check(), and on MCP_AUTH_OK the caller's identity in identity
 * (MCP_IDENTITY_LEN + 1 bytes): "s:" (a static token) or "j:" (a JWT)
 * and the token's SHA-256 in hex.  Sessions and request slots belong to
 * it: to the token, not to its role, so two agents given the same role
 * with different tokens stay apart, and a revoked token's sessions can be
 * found.
 */
McpAuthStatus
mcp_auth_check_identity(const char *authorization, char **role,
						char *identity, const char **reason)
{
	McpAuthStatus status;
	const char *token;
	size_t		len;
	size_t		dots = 0;
	bool		jwt;

	*role = NULL;
	identity[0] = '\0';
	token = bearer_token(authorization, &len, &status, reason);
	if (token == NULL)
		return status;
	pthread_rwlock_rdlock(&config_lock);
	if (!mcp_auth_enabled())
	{
		pthread_rwlock_unlock(&config_lock);
		*reason = "authentication is not configured";
		return MCP_AUTH_INVALID;
	}
	for (size_t i = 0; i < len; i++)
		dots += (token[i] == '.');
	jwt = dots == 2 && mcp_auth_jwt_enabled();
	if (jwt)
		status = mcp_auth_jwt_check(token, len, role, reason);
	else if (mcp_auth_tokens_enabled())
		status = mcp_auth_tokens_check(token, len, role, reason);
	else
	{
		*reason = "the bearer token is not a JWT";
		status = MCP_AUTH_INVALID;
	}
	pthread_rwlock_unlock(&config_lock);
	if (status == MCP_AUTH_OK)
	{
		unsigned char hash[32];
		unsigned int hash_len = 0;

		EVP_Digest(token, len, hash, &hash_len, EVP_sha256(), NULL);
		identity[0] = jwt ? 'j' : 's';
		identity[1] = ':';
		for (unsigned int i = 0; i < hash_len && i < 32; i++)
			snprintf(identity + 2 + 2 * i, 3, "%02x", hash[i]);
	}
	return status;
}

/*
 * SIGHUP: read the tokens file and the JWT key files again.  A file that
 * cannot be used is reported and the previous one stays in force.  Returns
 * whether everything was read.
 */
bool
mcp_auth_reload(const McpAuthSettings *settings)
{
	char	   *errmsg = NULL;
	bool		ok = true;

	pthread_rwlock_wrlock(&config_lock);
	if (settings->tokens_file != NULL &&
		!mcp_auth_tokens_reload(settings->tokens_file, &errmsg))
	{
		mcp_log(MCP_LOG_ERROR, "reload: %s; the previous tokens stay in force", errmsg);
		free(errmsg);
		errmsg = NULL;
		ok = false;
	}
	if (!mcp_auth_jwt_reload_keys(settings, &errmsg))
	{
		mcp_log(MCP_LOG_ERROR, "reload: %s; the previous JWT keys stay in force", errmsg);
		free(errmsg);
		ok = false;
	}
	pthread_rwlock_unlock(&config_lock);
	return ok;
}

/*
 * May a session made with identity go on after a reload?  Not when it was
 * made with a static token that is no longer in the file.  (JWTs are
 * checked again with every request, as every token is.)
 */
bool
mcp_auth_identity_current(const char *identity)
{
	unsigned char hash[32];
	bool		current;

	if (strncmp(identity, "s:", 2) != 0 || strlen(identity) != 66)
		return true;
	for (int i = 0; i < 32; i++)
	{
		unsigned int byte;

		if (sscanf(identity + 2 + 2 * i, "%2x", &byte) != 1)
			return false;
		hash[i] = (unsigned char) byte;
	}
	pthread_rwlock_rdlock(&config_lock);
	current = mcp_auth_tokens_has_hash(hash);
	pthread_rwlock_unlock(&config_lock);
	return current;
}

/*
 * Call fn with each role the tokens file names, and its line.
 */
void
mcp_auth_each_token_role(void (*fn) (const char *role, int lineno, void *arg),
						 void *arg)
{
	pthread_rwlock_rdlock(&config_lock);
	mcp_auth_tokens_roles(fn, arg);
	pthread_rwlock_unlock(&config_lock);
}

/*
 * The token of a "Bearer TOKEN" header value, or NULL with *status and
 * *reason set.  The token is not copied: *len bytes from the result.
 */
static const char *
bearer_token(const char *header, size_t *len, McpAuthStatus *status,
			 const char **reason)
{
	const char *p = header;
	const char *token;
	size_t		n;

	*status = MCP_AUTH_MISSING;
	*reason = "the request has no bearer token";
	if (header == NULL)
		return NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0')
		return NULL;
	if (strncasecmp(p, "Bearer", 6) != 0 ||
		(p[6] != ' ' && p[6] != '\t' && p[6] != '\0'))
	{
		*reason = "the Authorization header does not use the Bearer scheme";
		return NULL;
	}
	p += 6;
	while (*p == ' ' || *p == '\t')
		p++;
	token = p;
	n = strcspn(token, " \t");
	p = token + n;
	p += strspn(p, " \t");
	*status = MCP_AUTH_MALFORMED;
	if (n == 0)
	{
		*reason = "the Authorization header has no bearer token";
		return NULL;
	}
	if (*p != '\0')
	{
		*reason = "the bearer token has characters RFC 6750 does not allow";
		return NULL;
	}
	if (n > MCP_AUTH_MAX_TOKEN)
	{
		*reason = "the bearer token is too long";
		return NULL;
	}
	if (!is_b64token(token, n))
	{
		*reason = "the bearer token has characters RFC 6750 does not allow";
		return NULL;
	}
	*len = n;
	return token;
}

/*
 * RFC 6750's b64token: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" /
 * "/" ) *"=".  (The len bytes hold no NUL.)
 */
static bool
is_b64token(const char *token, size_t len)
{
	size_t		i = 0;

	while (i < len && (((token[i] | 0x20) >= 'a' && (token[i] | 0x20) <= 'z') ||
					   (token[i] >= '0' && token[i] <= '9') ||
					   strchr("-._~+/", token[i]) != NULL))
		i++;
	while (i > 0 && i < len && token[i] == '=')
		i++;
	return i == len;
}

/*
 * The WWW-Authenticate value for a refused request (malloc'd): the error
 * code RFC 6750 section 3.1 gives the status (none when no token was
 * presented), the reason, and where the protected-resource metadata is.
 */
char *
mcp_auth_challenge(McpAuthStatus status, const char *reason)
{
	const char *error = NULL;
	char	   *description = NULL;
	char	   *value;

	if (status == MCP_AUTH_MALFORMED)
		error = "invalid_request";
	else if (status == MCP_AUTH_INVALID || status == MCP_AUTH_EXPIRED)
		error = "invalid_token";
	if (error != NULL && reason != NULL)
	{
		size_t		j = 0;

		/* a quoted-string of printable ASCII; the reasons are already */
		description = mcp_malloc(strlen(reason) + 1);
		for (const char *p = reason; *p != '\0'; p++)
			if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
				description[j++] = *p;
		description[j] = '\0';
	}
	value = mcp_psprintf("Bearer realm=\"%s\"", AUTH_REALM);
	if (error != NULL)
		value = append_param(value, "error", error);
	if (description != NULL)
		value = append_param(value, "error_description", description);
	if (metadata_url != NULL)
		value = append_param(value, "resource_metadata", metadata_url);
	free(description);
	return value;
}

/*
 * value + ', name="text"' (value is freed; text is a valid quoted-string).
 */
static char *
append_param(char *value, const char *name, const char *txt)
{
	char	   *with = mcp_psprintf("%s, %s=\"%s\"", value, name, txt);

	free(value);
	return with;
}

/*
 * The protected-resource metadata document (RFC 9728 section 2), malloc'd
 * JSON; NULL when no authorization server is configured.
 */
char *
mcp_auth_resource_metadata(void)
{
	json_object *doc;
	json_object *servers;
	json_object *methods;
	char	   *txt;

	if (metadata_url == NULL)
		return NULL;
	doc = json_object_new_object();
	json_object_object_add(doc, "resource", json_object_new_string(resource));
	servers = json_object_new_array();
	json_object_array_add(servers,
						  json_object_new_string(authorization_server));
	json_object_object_add(doc, "authorization_servers", servers);
	methods = json_object_new_array();
	json_object_array_add(methods, json_object_new_string("header"));
	json_object_object_add(doc, "bearer_methods_supported", methods);
	json_object_object_add(doc, "resource_name",
						   json_object_new_string(MCP_PROGNAME));
	txt = mcp_strdup(json_object_to_json_string_ext(doc,
													JSON_C_TO_STRING_PLAIN |
													JSON_C_TO_STRING_NOSLASHESCAPE));

	json_object_put(doc);
	return txt;
}

/*
 * The path the metadata is served on: "/.well-known/oauth-protected-resource"
 * followed by the resource URL's path ("/mcp"), or without it when no
 * resource URL is configured.
 */
const char *
mcp_auth_metadata_path(void)
{
	return metadata_path != NULL ? metadata_path : WELL_KNOWN_PATH;
}

/*
 * A status's name for logs ("ok", "missing", ...).
 */
const char *
mcp_auth_status_name(McpAuthStatus status)
{
	switch (status)
	{
		case MCP_AUTH_OK:
			return "ok";
		case MCP_AUTH_MISSING:
			return "missing";
		case MCP_AUTH_MALFORMED:
			return "malformed";
		case MCP_AUTH_INVALID:
			return "invalid";
		case MCP_AUTH_EXPIRED:
			return "expired";
	}
	return "unknown";
}

/*
 * Free everything; authentication is then unconfigured.
 */
void
mcp_auth_forget(void)
{
	mcp_auth_tokens_forget();
	mcp_auth_jwt_forget();
	free(authorization_server);
	free(resource);
	free(metadata_path);
	free(metadata_url);
	authorization_server = resource = metadata_path = metadata_url = NULL;
}

/*
 * The resource and authorization server URLs, and from them the metadata
 * URL and path.
 */
static bool
configure_metadata(const McpAuthSettings *settings, char **errmsg)
{
	const char *rest;
	const char *path;

	if (settings->authorization_server != NULL &&
		settings->resource == NULL)
	{
		*errmsg = mcp_strdup("an authorization server needs the MCP endpoint's URL (--resource-url)");
		return false;
	}
	if (settings->resource == NULL)
		return true;
	if (!check_url(settings->resource, "resource URL", errmsg) ||
		(settings->authorization_server != NULL &&
		 !check_url(settings->authorization_server,
					"authorization server URL", errmsg)))
		return false;
	resource = mcp_strdup(settings->resource);
	rest = strstr(resource, "://") + 3;
	path = rest + strcspn(rest, "/?");
	/* RFC 9728 section 3.1: a path of "/" alone is no path */
	metadata_path = mcp_psprintf("%s%s", WELL_KNOWN_PATH,
								 strcmp(path, "/") == 0 ? "" : path);
	if (settings->authorization_server == NULL)
		return true;
	authorization_server = mcp_strdup(settings->authorization_server);
	metadata_url = mcp_psprintf("%.*s%s", (int) (path - resource), resource,
								metadata_path);
	return true;
}

/*
 * An absolute http(s) URL without a fragment, printable ASCII with no
 * quote, backslash or space (it goes into a quoted-string).
 */
static bool
check_url(const char *url, const char *what, char **errmsg)
{
	const char *rest;
	size_t		len = strnlen(url, MAX_URL_LEN + 1);

	if (strncasecmp(url, "https://", 8) == 0)
		rest = url + 8;
	else if (strncasecmp(url, "http://", 7) == 0)
		rest = url + 7;
	else
	{
		*errmsg = mcp_psprintf("invalid %s: it must start with https:// or http://", what);
		return false;
	}
	if (len > MAX_URL_LEN)
	{
		*errmsg = mcp_psprintf("invalid %s: longer than %d bytes", what,
							   MAX_URL_LEN);
		return false;
	}
	for (const char *p = url; *p != '\0'; p++)
	{
		if (*p <= 0x20 || *p >= 0x7f || *p == '"' || *p == '\\' ||
			*p == '#')
		{
			*errmsg = mcp_psprintf("invalid %s: it has a space, a quote, a backslash, a fragment or a character that is not printable ASCII",
								   what);
			return false;
		}
	}
	if (*rest == '\0' || *rest == '/' || *rest == '?')
	{
		*errmsg = mcp_psprintf("invalid %s: it has no host", what);
		return false;
	}
	/* RFC 9728 section 1.2: a resource identifier has no query either */
	if (strchr(rest, '?') != NULL && strcmp(what, "resource URL") == 0)
	{
		*errmsg = mcp_psprintf("invalid %s: it has a query", what);
		return false;
	}
	return true;
}
