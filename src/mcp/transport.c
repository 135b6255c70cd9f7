/*-------------------------------------------------------------------------
 *
 * transport.c
 *	  The MCP stdio transport: one JSON-RPC message per line.
 *
 * Input: newline-delimited messages on stdin.  A line longer than the
 * limit (MCP_MAX_MESSAGE_BYTES) is skipped to its end without being kept:
 * memory stays bounded by the limit, and the caller answers with an error.
 * A trailing "\r" is dropped; a last line without newline before EOF still
 * counts.
 *
 * Output: each message is written as one line with
 * json_object_to_json_string_ext(PLAIN | NOSLASHESCAPE), which escapes
 * every control character inside strings, so a message never contains a raw
 * newline; then "\n" and fflush.  Nothing else ever writes to stdout.
 *
 * IDENTIFICATION
 *	  src/mcp/transport.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "neon_ai_tools_mcp.h"

#define READER_INITIAL_CAP 8192

/*
 * Prepare a reader over in.
 */
void
mcp_reader_init(McpReader *reader, FILE *in, size_t max_bytes)
{
	reader->in = in;
	reader->cap = READER_INITIAL_CAP;
	reader->buf = mcp_malloc(reader->cap);
	reader->buf[0] = '\0';
	reader->len = 0;
	reader->max_bytes = max_bytes;
}

/*
 * Read the next line into reader->buf/len.
 *
 * Returns MCP_READ_MESSAGE for a line (possibly empty), MCP_READ_TOO_LONG
 * when a line over the limit was consumed and dropped, MCP_READ_EOF at the
 * end of input and MCP_READ_FAILED on a read error.
 */
McpReadStatus
mcp_read_message(McpReader *reader)
{
	bool		too_long = false;
	bool		any = false;
	int			c;

	reader->len = 0;
	for (;;)
	{
		/* one thread reads the stream (stdio.c's reader): no lock per byte */
		c = getc_unlocked(reader->in);
		if (c == EOF)
		{
			if (ferror(reader->in))
			{
				if (errno == EINTR)
				{
					clearerr(reader->in);
					continue;
				}
				return MCP_READ_FAILED;
			}
			if (!any)
				return MCP_READ_EOF;
			break;
		}
		any = true;
		if (c == '\n')
			break;
		if (too_long)
			continue;
		if (reader->len >= reader->max_bytes)
		{
			/* drop what we have and skip to the end of the line */
			too_long = true;
			reader->len = 0;
			continue;
		}
		if (reader->len + 1 >= reader->cap)
		{
			size_t		newcap = reader->cap * 2;

			if (newcap > reader->max_bytes + 1)
				newcap = reader->max_bytes + 1;
			reader->buf = mcp_realloc(reader->buf, newcap);
			reader->cap = newcap;
		}
		reader->buf[reader->len++] = (char) c;
	}
	if (too_long)
	{
		reader->buf[0] = '\0';
		return MCP_READ_TOO_LONG;
	}
	if (reader->len > 0 && reader->buf[reader->len - 1] == '\r')
		reader->len--;
	reader->buf[reader->len] = '\0';
	return MCP_READ_MESSAGE;
}

/*
 * Release the reader's buffer.
 */
void
mcp_reader_free(McpReader *reader)
{
	free(reader->buf);
	reader->buf = NULL;
	reader->len = reader->cap = 0;
}

/*
 * Write one message as one line and flush it.  Returns false when stdout
 * failed (the client went away); the caller then exits.
 */
bool
mcp_write_message(json_object *message)
{
	const char *text;
	size_t		len;

	text = json_object_to_json_string_ext(message,
										  JSON_C_TO_STRING_PLAIN |
										  JSON_C_TO_STRING_NOSLASHESCAPE);

	if (text == NULL)
	{
		mcp_log(MCP_LOG_ERROR, "could not serialize a message");
		return true;			/* nothing written; keep the session */
	}
	len = strlen(text);
	if (fwrite(text, 1, len, stdout) != len ||
		fputc('\n', stdout) == EOF ||
		fflush(stdout) == EOF)
	{
		mcp_log(MCP_LOG_ERROR, "could not write to standard output: %s",
				strerror(errno));
		return false;
	}
	mcp_log(MCP_LOG_DEBUG, "sent %zu bytes", len + 1);
	return true;
}
