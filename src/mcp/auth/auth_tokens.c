/*-------------------------------------------------------------------------
 *
 * auth_tokens.c
 *	  Static bearer tokens, stored as SHA-256 hashes.
 *
 * The tokens file has one line per token, "ROLE SHA256HEX": the database
 * role the token stands for, white space, and the SHA-256 of the token in
 * hex (64 digits, either case).  Blank lines and lines whose first
 * non-blank character is '#' are ignored.  A line is made with
 *
 *		printf %s "$TOKEN" | sha256sum
 *
 * (the hash is the first word of the output).  The file never holds a
 * token, so reading it does not give anyone access; it is still better
 * kept from other users (a short token's hash can be guessed at), and a
 * world-readable file is warned about.
 *
 * A presented token is hashed and its hash compared with every line's,
 * with CRYPTO_memcmp and without stopping at a match, so the time taken
 * does not say which line, if any, matched or how much of a hash agreed.
 *
 * IDENTIFICATION
 *	  src/mcp/auth/auth_tokens.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "auth/auth_int.h"
#include "protocol/protocol.h"

#define HASH_LEN 32
#define MAX_FILE_BYTES (1024 * 1024)
#define WHAT "token file"

typedef struct StaticToken
{
	unsigned char hash[HASH_LEN];
	char		role[MCP_AUTH_MAX_ROLE + 1];
	int			lineno;
} StaticToken;

static StaticToken *tokens = NULL;
static size_t ntokens = 0;

static bool parse_line(char *line, StaticToken *entry, const char **why);
static bool parse_hex(const char *hex, size_t len, unsigned char *out);

/*
 * Read the tokens file.  False, with a message naming the file and line,
 * when it cannot be read, a line is not "ROLE SHA256HEX", a role name is
 * not one PostgreSQL accepts, a hash appears twice, or there is no line.
 */
bool
mcp_auth_tokens_load(const char *path, char **errmsg)
{
	char	   *data;
	size_t		len;
	char	   *line;
	size_t		cap = 0;
	int			lineno = 0;

	if (!mcp_auth_read_file(path, WHAT, MCP_AUTH_FILE_HASHES, MAX_FILE_BYTES,
							&data, &len, errmsg))
		return false;
	if (memchr(data, '\0', len) != NULL)
	{
		*errmsg = mcp_psprintf("%s \"%s\" is not a text file", WHAT, path);
		free(data);
		return false;
	}
	for (line = data; line != NULL && *line != '\0';)
	{
		char	   *next = strchr(line, '\n');
		const char *why = NULL;
		StaticToken entry;

		if (next != NULL)
			*next++ = '\0';
		lineno++;
		if (!parse_line(line, &entry, &why))
		{
			if (why == NULL)	/* blank or comment */
			{
				line = next;
				continue;
			}
			*errmsg = mcp_psprintf("%s \"%s\", line %d: %s", WHAT, path,
								   lineno, why);
			free(data);
			mcp_auth_tokens_forget();
			return false;
		}
		for (size_t i = 0; i < ntokens; i++)
		{
			if (memcmp(tokens[i].hash, entry.hash, HASH_LEN) == 0)
			{
				*errmsg = mcp_psprintf("%s \"%s\", line %d: the same token hash appears on an earlier line",
									   WHAT, path, lineno);
				free(data);
				mcp_auth_tokens_forget();
				return false;
			}
		}
		if (ntokens == cap)
		{
			cap = cap ? cap * 2 : 16;
			tokens = mcp_realloc(tokens, cap * sizeof(StaticToken));
		}
		entry.lineno = lineno;
		tokens[ntokens++] = entry;
		line = next;
	}
	free(data);
	if (ntokens == 0)
	{
		*errmsg = mcp_psprintf("%s \"%s\" has no token line (\"ROLE SHA256HEX\")",
							   WHAT, path);
		return false;
	}
	mcp_log(MCP_LOG_INFO, "%zu static token%s from \"%s\"", ntokens,
			ntokens == 1 ? "" : "s", path);
	return true;
}

/*
 * Read the tokens file again (SIGHUP).  On failure the tokens read before
 * stay in force; false with the message.
 */
bool
mcp_auth_tokens_reload(const char *path, char **errmsg)
{
	StaticToken *old = tokens;
	size_t		old_n = ntokens;

	tokens = NULL;
	ntokens = 0;
	if (!mcp_auth_tokens_load(path, errmsg))
	{
		tokens = old;
		ntokens = old_n;
		return false;
	}
	if (old != NULL)
		OPENSSL_cleanse(old, old_n * sizeof(StaticToken));
	free(old);
	return true;
}

/*
 * Call fn for each line's role, with its line number.
 */
void
mcp_auth_tokens_roles(void (*fn) (const char *role, int lineno, void *arg),
					  void *arg)
{
	for (size_t i = 0; i < ntokens; i++)
		fn(tokens[i].role, tokens[i].lineno, arg);
}

/*
 * Is there still a line whose token hashes to hash (HASH_LEN bytes)?
 */
bool
mcp_auth_tokens_has_hash(const unsigned char *hash)
{
	bool		found = false;

	for (size_t i = 0; i < ntokens; i++)
		found |= CRYPTO_memcmp(tokens[i].hash, hash, HASH_LEN) == 0;
	return found;
}

/*
 * One line: false with *why NULL for a blank or comment line, false with
 * *why set for a bad line.  The line is changed in place.
 */
static bool
parse_line(char *line, StaticToken *entry, const char **why)
{
	const char *sep = " \t\r";
	char	   *role;
	char	   *hex;
	size_t		role_len;
	size_t		hex_len;

	role = line + strspn(line, sep);
	if (*role == '\0' || *role == '#')
		return false;
	role_len = strcspn(role, sep);
	hex = role + role_len;
	hex += strspn(hex, sep);
	if (*hex == '\0')
	{
		*why = "expected \"ROLE SHA256HEX\"";
		return false;
	}
	hex_len = strcspn(hex, sep);
	if (hex[hex_len + strspn(hex + hex_len, sep)] != '\0')
	{
		*why = "expected \"ROLE SHA256HEX\", found more than two fields";
		return false;
	}
	if (!mcp_auth_role_name_ok(role, role_len))
	{
		*why = "the role name must have 1 to 63 bytes of UTF-8 and no control character";
		return false;
	}
	if (!parse_hex(hex, hex_len, entry->hash))
	{
		*why = "the hash must be 64 hexadecimal digits (the SHA-256 of the token)";
		return false;
	}
	memcpy(entry->role, role, role_len);
	entry->role[role_len] = '\0';
	return true;
}

/*
 * 64 hex digits into 32 bytes.
 */
static bool
parse_hex(const char *hex, size_t len, unsigned char *out)
{
	if (len != 2 * HASH_LEN)
		return false;
	for (size_t i = 0; i < len; i++)
	{
		char		c = hex[i];
		int			v;

		if (c >= '0' && c <= '9')
			v = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = (c | 0x20) - 'a' + 10;
		else
			return false;
		if (i % 2 == 0)
			out[i / 2] = (unsigned char) (v << 4);
		else
			out[i / 2] |= (unsigned char) v;
	}
	return true;
}

/*
 * Is a tokens file loaded?
 */
bool
mcp_auth_tokens_enabled(void)
{
	return ntokens > 0;
}

/*
 * Look a token up.  Every entry is compared, in constant time; the match,
 * if any, is picked with masks rather than a branch on the comparison.
 */
McpAuthStatus
mcp_auth_tokens_check(const char *token, size_t len, char **role,
					  const char **reason)
{
	unsigned char hash[HASH_LEN];
	unsigned int hash_len = 0;
	size_t		found = 0;		/* index + 1 of the match; 0: none */

	if (EVP_Digest(token, len, hash, &hash_len, EVP_sha256(), NULL) != 1 ||
		hash_len != HASH_LEN)
	{
		*reason = "the bearer token could not be checked";
		return MCP_AUTH_INVALID;
	}
	for (size_t i = 0; i < ntokens; i++)
	{
		/* all ones when equal, all zeros otherwise */
		size_t		mask = (size_t) 0 -
			(size_t) (CRYPTO_memcmp(hash, tokens[i].hash, HASH_LEN) == 0);

		found |= mask & (i + 1);
	}
	OPENSSL_cleanse(hash, sizeof(hash));
	if (found == 0)
	{
		*reason = "the bearer token is not valid";
		return MCP_AUTH_INVALID;
	}
	*role = mcp_strdup(tokens[found - 1].role);
	*reason = "static token";
	return MCP_AUTH_OK;
}

/*
 * Forget every token.
 */
void
mcp_auth_tokens_forget(void)
{
	if (tokens != NULL)
		OPENSSL_cleanse(tokens, ntokens * sizeof(StaticToken));
	free(tokens);
	tokens = NULL;
	ntokens = 0;
}
