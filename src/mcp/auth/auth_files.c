/*-------------------------------------------------------------------------
 *
 * auth_files.c
 *	  What the token and JWT files of neon-ai-tools-mcp's authentication
 *	  share: reading a key or tokens file with its permission checks, and
 *	  which role names a token may carry.
 *
 * The lowest file of the authentication layer: auth_tokens.c, auth_jwt.c
 * and auth_jwt_claims.c use it, and auth.c (which uses them) is not called
 * back.
 *
 * IDENTIFICATION
 *	  src/mcp/auth/auth_files.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "auth/auth_int.h"
#include "protocol/protocol.h"

/*
 * A role name the server can be asked to SET ROLE to: 1 to 63 bytes of
 * valid UTF-8, no control character.
 */
bool
mcp_auth_role_name_ok(const char *name, size_t len)
{
	size_t		offset;
	const char *why;

	if (len == 0 || len > MCP_AUTH_MAX_ROLE)
		return false;
	for (size_t i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) name[i];

		if (c < 0x20 || c == 0x7f)
			return false;
	}
	return mcp_json_check_utf8(name, len, &offset, &why);
}

/*
 * Read a whole file of at most max_bytes into a malloc'd, NUL-terminated
 * buffer, after checking it is a regular file and, for secrets, that other
 * users cannot read it (libpq's rule for ~/.pgpass; group access, as for a
 * key file shared with a service group, only warns).  Messages name the
 * file as "what" and its path.
 */
bool
mcp_auth_read_file(const char *path, const char *what, McpAuthFileKind kind,
				   size_t max_bytes, char **data, size_t *len, char **errmsg)
{
	struct stat st;
	int			fd;
	char	   *buf;
	size_t		got = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0)
	{
		*errmsg = mcp_psprintf("could not open %s \"%s\": %s", what, path,
							   strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	if (!S_ISREG(st.st_mode))
	{
		*errmsg = mcp_psprintf("%s \"%s\" is not a regular file", what, path);
		close(fd);
		return false;
	}
	if ((size_t) st.st_size > max_bytes)
	{
		*errmsg = mcp_psprintf("%s \"%s\" is larger than %zu bytes",
							   what, path, max_bytes);
		close(fd);
		return false;
	}
	if (kind == MCP_AUTH_FILE_SECRET && (st.st_mode & S_IRWXO) != 0)
	{
		*errmsg = mcp_psprintf("%s \"%s\" has world access; permissions should be u=rw (0600) or less",
							   what, path);
		close(fd);
		return false;
	}
	if (kind == MCP_AUTH_FILE_SECRET && (st.st_mode & S_IRWXG) != 0)
		mcp_log(MCP_LOG_WARNING, "%s \"%s\" has group access; permissions should be u=rw (0600) or less",
				what, path);
	if (kind == MCP_AUTH_FILE_HASHES && (st.st_mode & S_IRWXO) != 0)
		mcp_log(MCP_LOG_WARNING, "%s \"%s\" has world access; permissions should be u=rw (0600) or less",
				what, path);
	buf = mcp_malloc((size_t) st.st_size + 1);
	while (got < (size_t) st.st_size)
	{
		ssize_t		n = read(fd, buf + got, (size_t) st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
		{
			*errmsg = mcp_psprintf("could not read %s \"%s\": %s", what, path,
								   n < 0 ? strerror(errno) : "unexpected end of file");
			free(buf);
			close(fd);
			return false;
		}
		got += (size_t) n;
	}
	close(fd);
	buf[got] = '\0';
	*data = buf;
	*len = got;
	return true;
}
