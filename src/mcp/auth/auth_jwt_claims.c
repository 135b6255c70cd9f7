/*-------------------------------------------------------------------------
 *
 * auth_jwt_claims.c
 *	  The claims of a JWT whose signature has been checked.
 *
 * The payload must be a JSON object with:
 *
 *	- "exp", a number: the token is refused once now > exp + leeway (a
 *	  token without "exp" never expires, so it is refused too);
 *	- "nbf" and "iat", when present, numbers not after now + leeway;
 *	- "iss" equal to the configured issuer, when one is configured;
 *	- "aud" (a string, or an array of strings) holding the configured
 *	  audience, when one is configured.  With an authorization server and
 *	  no audience given, the audience is the resource URL: the MCP
 *	  authorization specification requires a server to accept only tokens
 *	  issued for it;
 *	- the role claim (default "role", as in PostgREST): a string of 1 to
 *	  63 bytes of UTF-8 without control characters.  The claim may be a
 *	  path into nested objects, "app_metadata.role", with PostgREST's
 *	  optional leading dot and double quotes around a name that itself
 *	  has dots: ."https://example.com/claims".role
 *
 * Strings are compared whole: a "\u0000" inside one cannot cut it short.
 * A payload with a key twice in one object (at any depth, escapes decoded)
 * is refused: readers differ on which of the two counts.
 *
 * IDENTIFICATION
 *	  src/mcp/auth/auth_jwt_claims.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auth/auth_int.h"
#include "protocol/protocol.h"

#define DEFAULT_ROLE_CLAIM "role"
#define DEFAULT_LEEWAY 30
#define MAX_LEEWAY 3600
#define MAX_PATH_DEPTH 8
#define MAX_CLAIM_LEN 256
#define PAYLOAD_MAX_DEPTH 32

static char *role_path[MAX_PATH_DEPTH];
static int	role_depth = 0;
static char *audience = NULL;
static char *issuer = NULL;
static int	leeway = DEFAULT_LEEWAY;

static bool parse_role_claim(const char *claim);
static McpAuthStatus check_times(json_object *claims, const char **reason);
static bool string_is(json_object *value, const char *expected);
static bool audience_ok(json_object *claims);
static size_t tree_members(json_object *value);
static size_t text_members(const char *txt, size_t len);

/*
 * The role claim's path, the audience, the issuer and the leeway.
 */
bool
mcp_auth_claims_configure(const McpAuthSettings *settings, char **errmsg)
{
	const char *claim = settings->jwt_role_claim ? settings->jwt_role_claim
		: DEFAULT_ROLE_CLAIM;

	if (!parse_role_claim(claim))
	{
		*errmsg = mcp_psprintf("invalid JWT role claim \"%s\": expected a claim name or a path such as app_metadata.role",
							   claim);
		return false;
	}
	if (settings->jwt_leeway_seconds > MAX_LEEWAY)
	{
		*errmsg = mcp_psprintf("JWT leeway of %d seconds is over the limit of %d",
							   settings->jwt_leeway_seconds, MAX_LEEWAY);
		return false;
	}
	leeway = settings->jwt_leeway_seconds < 0 ? DEFAULT_LEEWAY
		: settings->jwt_leeway_seconds;
	if (settings->jwt_audience != NULL)
		audience = mcp_strdup(settings->jwt_audience);
	else if (settings->authorization_server != NULL &&
			 settings->resource != NULL)
		audience = mcp_strdup(settings->resource);
	if (settings->jwt_issuer != NULL)
		issuer = mcp_strdup(settings->jwt_issuer);
	return true;
}

/*
 * The audience required, or NULL (for the configuration's log line).
 */
const char *
mcp_auth_claims_audience(void)
{
	return audience;
}

/*
 * Split a claim path into role_path: names separated by dots, a name
 * either bare (no dot or quote) or in double quotes (no quote inside); an
 * optional leading dot.
 */
static bool
parse_role_claim(const char *claim)
{
	const char *p = claim;

	if (strlen(claim) > MAX_CLAIM_LEN)
		return false;
	if (*p == '.')
		p++;
	for (;;)
	{
		size_t		n;

		if (role_depth == MAX_PATH_DEPTH)
			return false;
		if (*p == '"')
		{
			n = strcspn(p + 1, "\"");
			if (p[1 + n] != '"' || n == 0)
				return false;
			role_path[role_depth++] = mcp_strndup(p + 1, n);
			p += n + 2;
		}
		else
		{
			n = strcspn(p, ".\"");
			if (n == 0 || p[n] == '"')
				return false;
			role_path[role_depth++] = mcp_strndup(p, n);
			p += n;
		}
		if (*p == '\0')
			return true;
		if (*p != '.')
			return false;
		p++;
	}
}

/*
 * Check the payload's claims; on MCP_AUTH_OK *role is the malloc'd role.
 */
McpAuthStatus
mcp_auth_claims_check(const char *payload, size_t len, char **role,
					  const char **reason)
{
	json_object *claims = NULL;
	json_object *value;
	McpAuthStatus status;
	size_t		offset;
	const char *why;

	if (mcp_json_check(payload, len, PAYLOAD_MAX_DEPTH, &offset, &why))
		claims = json_tokener_parse(payload);
	if (claims == NULL || !json_object_is_type(claims, json_type_object))
	{
		json_object_put(claims);
		*reason = "the JWT payload is not a JSON object";
		return MCP_AUTH_INVALID;
	}
	if (tree_members(claims) != text_members(payload, len))
	{
		/* json-c keeps the last of two equal keys: which one counts? */
		json_object_put(claims);
		*reason = "the JWT payload has a claim twice";
		return MCP_AUTH_INVALID;
	}
	status = check_times(claims, reason);
	if (status == MCP_AUTH_OK && issuer != NULL &&
		(!json_object_object_get_ex(claims, "iss", &value) ||
		 !string_is(value, issuer)))
	{
		*reason = "the JWT's issuer is not the accepted one";
		status = MCP_AUTH_INVALID;
	}
	if (status == MCP_AUTH_OK && audience != NULL && !audience_ok(claims))
	{
		*reason = "the JWT is not issued for this server's audience";
		status = MCP_AUTH_INVALID;
	}
	value = claims;
	for (int i = 0; status == MCP_AUTH_OK && i < role_depth; i++)
	{
		if (!json_object_is_type(value, json_type_object) ||
			!json_object_object_get_ex(value, role_path[i], &value))
		{
			*reason = "the JWT has no role claim";
			status = MCP_AUTH_INVALID;
		}
	}
	if (status == MCP_AUTH_OK &&
		(!json_object_is_type(value, json_type_string) ||
		 !mcp_auth_role_name_ok(json_object_get_string(value),
								(size_t) json_object_get_string_len(value)) ||
		 strlen(json_object_get_string(value)) !=
		 (size_t) json_object_get_string_len(value)))
	{
		*reason = "the JWT's role claim is not a valid role name";
		status = MCP_AUTH_INVALID;
	}
	if (status == MCP_AUTH_OK)
	{
		*role = mcp_strdup(json_object_get_string(value));
		*reason = "JWT";
	}
	json_object_put(claims);
	return status;
}

/*
 * How many members the objects of a parsed value have, all together
 * (json-c keeps one member per key).
 */
static size_t
tree_members(json_object *value)
{
	size_t		n = 0;

	if (json_object_is_type(value, json_type_object))
	{
		json_object_object_foreach(value, key, member)
		{
			(void) key;
			n += 1 + tree_members(member);
		}
	}
	else if (json_object_is_type(value, json_type_array))
	{
		for (size_t i = 0; i < json_object_array_length(value); i++)
			n += tree_members(json_object_array_get_idx(value, i));
	}
	return n;
}

/*
 * How many members the objects of a JSON text have, all together: its
 * colons outside strings (the text is valid JSON).
 */
static size_t
text_members(const char *txt, size_t len)
{
	size_t		n = 0;
	bool		in_string = false;

	for (size_t i = 0; i < len; i++)
	{
		if (in_string && txt[i] == '\\')
			i++;
		else if (txt[i] == '"')
			in_string = !in_string;
		else if (!in_string && txt[i] == ':')
			n++;
	}
	return n;
}

/*
 * exp (required), nbf and iat against the clock, with the leeway.
 */
static McpAuthStatus
check_times(json_object *claims, const char **reason)
{
	static const char *const names[] = {"exp", "nbf", "iat"};
	double		now = (double) time(NULL);

	for (int i = 0; i < 3; i++)
	{
		json_object *value;
		double		t;

		if (!json_object_object_get_ex(claims, names[i], &value))
		{
			if (i > 0)
				continue;
			*reason = "the JWT has no expiry time (exp)";
			return MCP_AUTH_INVALID;
		}
		if (!json_object_is_type(value, json_type_int) &&
			!json_object_is_type(value, json_type_double))
		{
			*reason = "the JWT's exp, nbf or iat is not a number";
			return MCP_AUTH_INVALID;
		}
		t = json_object_get_double(value);
		if (i == 0 && now > t + leeway)
		{
			*reason = "the JWT has expired";
			return MCP_AUTH_EXPIRED;
		}
		if (i > 0 && t > now + leeway)
		{
			*reason = i == 1 ? "the JWT is not valid yet (nbf)"
				: "the JWT is issued in the future (iat)";
			return MCP_AUTH_INVALID;
		}
	}
	return MCP_AUTH_OK;
}

/*
 * Is value a string equal to expected, all of it?
 */
static bool
string_is(json_object *value, const char *expected)
{
	return json_object_is_type(value, json_type_string) &&
		(size_t) json_object_get_string_len(value) == strlen(expected) &&
		strcmp(json_object_get_string(value), expected) == 0;
}

/*
 * Does "aud" (a string or an array of strings) hold the audience?
 */
static bool
audience_ok(json_object *claims)
{
	json_object *aud;

	if (!json_object_object_get_ex(claims, "aud", &aud))
		return false;
	if (json_object_is_type(aud, json_type_array))
	{
		size_t		n = json_object_array_length(aud);

		for (size_t i = 0; i < n; i++)
			if (string_is(json_object_array_get_idx(aud, i), audience))
				return true;
		return false;
	}
	return string_is(aud, audience);
}

/*
 * Forget the claim settings.
 */
void
mcp_auth_claims_forget(void)
{
	for (int i = 0; i < role_depth; i++)
		free(role_path[i]);
	role_depth = 0;
	free(audience);
	free(issuer);
	audience = issuer = NULL;
	leeway = DEFAULT_LEEWAY;
}
