/*-------------------------------------------------------------------------
 *
 * auth.h
 *	  Bearer-token authentication of neon-ai-tools-mcp's HTTP transport.
 *
 * A request's "Authorization: Bearer TOKEN" header names a database role:
 *
 *	- static tokens: a file of "ROLE SHA256HEX" lines holds the SHA-256 of
 *	  each token (never the token); a presented token is hashed and
 *	  compared, in constant time, with every line;
 *	- JWTs (RFC 7519, compact JWS): HS256 with a shared secret, RS256 with
 *	  an RSA public key, ES256 with an EC P-256 public key; a claim
 *	  (default "role", PostgREST's convention) names the role.
 *
 * The module also writes the WWW-Authenticate challenge of a refused
 * request (RFC 6750) and the OAuth protected-resource metadata document
 * (RFC 9728) the MCP authorization specification asks for.
 *
 * mcp_auth_configure() runs once, before the transport starts its threads;
 * mcp_auth_check() and the functions that build text may then be called
 * from any number of threads at once, and mcp_auth_reload() (SIGHUP) may
 * replace the token file's lines and the JWT keys meanwhile;
 * mcp_auth_forget() runs after they have all stopped.
 *
 * IDENTIFICATION
 *	  src/mcp/auth/auth.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_AUTH_H
#define MCP_AUTH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct McpAuthSettings
{
	/* static tokens, "ROLE SHA256HEX" lines (# comments); NULL: none */
	const char *tokens_file;
	/* HS256 secret: the file's bytes, line break at the end left out */
	const char *jwt_secret_file;
	/* PEM public key: RSA -> RS256, EC P-256 -> ES256; NULL: none */
	const char *jwt_key_file;
	/* role claim, or a path "app_metadata.role"; NULL: "role" */
	const char *jwt_role_claim;
	/* "aud" (string or array) must hold it; NULL: see auth_jwt_claims.c */
	const char *jwt_audience;
	/* "iss" must equal it; NULL: any issuer */
	const char *jwt_issuer;
	/* clock skew allowed for exp, nbf and iat; < 0: 30 seconds */
	int			jwt_leeway_seconds;
	/* advertised in the protected-resource metadata; NULL: none */
	const char *authorization_server;
	/* the MCP endpoint's URL (https://host:port/mcp); NULL: none */
	const char *resource;
} McpAuthSettings;

typedef enum McpAuthStatus
{
	MCP_AUTH_OK,				/* *role names the request's role */
	MCP_AUTH_MISSING,			/* no bearer token (no header, or another
								 * scheme): 401 */
	MCP_AUTH_MALFORMED,			/* the header is not "Bearer b64token" of at
								 * most 8 kB: 400 */
	MCP_AUTH_INVALID,			/* unknown token; a JWT that is not one, or
								 * with a bad signature or claims: 401 */
	MCP_AUTH_EXPIRED			/* a JWT past its "exp": 401 */
} McpAuthStatus;

/* a caller's identity: "s:" or "j:" and the token's SHA-256 in hex */
#define MCP_IDENTITY_LEN 66

/* in auth.c */
extern bool mcp_auth_configure(const McpAuthSettings *settings,
							   char **errmsg);
extern bool mcp_auth_enabled(void);
extern McpAuthStatus mcp_auth_check(const char *authorization, char **role,
									const char **reason);
extern McpAuthStatus mcp_auth_check_identity(const char *authorization,
											 char **role, char *identity,
											 const char **reason);
extern bool mcp_auth_reload(const McpAuthSettings *settings);
extern bool mcp_auth_identity_current(const char *identity);
extern void mcp_auth_each_token_role(void (*fn) (const char *role, int lineno,
												 void *arg),
									 void *arg);
extern char *mcp_auth_challenge(McpAuthStatus status, const char *reason);
extern char *mcp_auth_resource_metadata(void);
extern const char *mcp_auth_metadata_path(void);
extern const char *mcp_auth_status_name(McpAuthStatus status);
extern void mcp_auth_forget(void);

/* in role_check.c */
typedef enum McpRoleVerdict
{
	MCP_ROLE_OK,
	MCP_ROLE_REFUSED,
	MCP_ROLE_UNKNOWN			/* the database could not be asked */
} McpRoleVerdict;

extern McpRoleVerdict mcp_role_check(const char *role, char *why,
									 size_t why_size);
extern void mcp_role_check_forget(void);
extern int	mcp_role_check_tokens(void);

#endif							/* MCP_AUTH_H */
