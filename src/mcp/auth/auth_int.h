/*-------------------------------------------------------------------------
 *
 * auth_int.h
 *	  Declarations shared by auth.c, auth_tokens.c and auth_jwt.c only.
 *
 * IDENTIFICATION
 *	  src/mcp/auth/auth_int.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_AUTH_INT_H
#define MCP_AUTH_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "auth/auth.h"

/* longest bearer token accepted, in bytes (a JWT with a few claims is well
 * under 2 kB; identity providers' largest stay under 8 kB) */
#define MCP_AUTH_MAX_TOKEN 8192

/* a PostgreSQL role name: NAMEDATALEN - 1 bytes at most */
#define MCP_AUTH_MAX_ROLE 63

/* how a file is checked before it is read */
typedef enum McpAuthFileKind
{
	MCP_AUTH_FILE_SECRET,		/* world access refused, group access warned */
	MCP_AUTH_FILE_HASHES,		/* world access warned */
	MCP_AUTH_FILE_PUBLIC		/* no permission check */
} McpAuthFileKind;

/* in auth_files.c */
extern bool mcp_auth_role_name_ok(const char *name, size_t len);
extern bool mcp_auth_read_file(const char *path, const char *what,
							   McpAuthFileKind kind, size_t max_bytes,
							   char **data, size_t *len, char **errmsg);

/* in auth_tokens.c */
extern bool mcp_auth_tokens_load(const char *path, char **errmsg);
extern bool mcp_auth_tokens_enabled(void);
extern McpAuthStatus mcp_auth_tokens_check(const char *token, size_t len,
										   char **role, const char **reason);
extern void mcp_auth_tokens_forget(void);
extern bool mcp_auth_tokens_reload(const char *path, char **errmsg);
extern bool mcp_auth_tokens_has_hash(const unsigned char *hash);
extern void mcp_auth_tokens_roles(void (*fn) (const char *role, int lineno,
											  void *arg),
								  void *arg);

/* in auth_jwt.c */
extern bool mcp_auth_jwt_configure(const McpAuthSettings *settings,
								   char **errmsg);
extern bool mcp_auth_jwt_enabled(void);
extern McpAuthStatus mcp_auth_jwt_check(const char *token, size_t len,
										char **role, const char **reason);
extern void mcp_auth_jwt_forget(void);
extern bool mcp_auth_jwt_reload_keys(const McpAuthSettings *settings,
									 char **errmsg);

/* in auth_jwt_claims.c */
extern bool mcp_auth_claims_configure(const McpAuthSettings *settings,
									  char **errmsg);
extern const char *mcp_auth_claims_audience(void);
extern McpAuthStatus mcp_auth_claims_check(const char *payload, size_t len,
										   char **role, const char **reason);
extern void mcp_auth_claims_forget(void);

#endif							/* MCP_AUTH_INT_H */
