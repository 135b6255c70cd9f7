/*-------------------------------------------------------------------------
 *
 * transport.c
 *	  The MCP stdio transport: one JSON-RPC message per line.
 *
 * Input: newline-delimited messages on a file descriptor (stdin), read
 * with read(2) into a buffer of our own, so that the caller knows what is
 * buffered and can poll() the descriptor for the rest (stdio.c watches it
 * while a statement runs).  A line longer than the limit
 * (MCP_MAX_MESSAGE_BYTES) is skipped to its end without being kept: memory
 * stays bounded by the limit plus one read, and the caller answers with an
 * error.  A trailing "\r" is dropped; a last line without newline before
 * EOF still counts.
 *
 * Output: each message is written as one line with
 * json_object_to_json_string_ext(PLAIN | NOSLASHESCAPE), which escapes
 * every control character inside strings, so a message never contains a raw
 * newline; then "\n" and fflush.  Nothing else ever writes to stdout.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/transport.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "transport/transport.h"

#define READER_INITIAL_CAP 8192
#define READER_CHUNK 65536		/* read() at most this much at once */
#define SMALLER(a, b) ((a) < (b) ? (a) : (b))

static void reader_make_room(McpReader *reader);

/*
 * Prepare a reader over the file descriptor fd.
 */
void
mcp_reader_init(McpReader *reader, int fd, size_t max_bytes)
{
	reader->fd = fd;
	reader->cap = READER_INITIAL_CAP;
	reader->buf = mcp_malloc(reader->cap);
	reader->start = reader->end = reader->scanned = 0;
	reader->max_bytes = max_bytes;
	reader->skipping = false;
	reader->eof = false;
	reader->failed = false;
	reader->line = NULL;
	reader->len = 0;
}

/*
 * The next line among the bytes already read, without reading: into
 * reader->line/len (NUL-terminated, valid until the next mcp_reader_next or
 * mcp_reader_fill).
 *
 * Returns MCP_READ_MESSAGE for a line (possibly empty), MCP_READ_TOO_LONG
 * when a line over the limit was consumed and dropped, MCP_READ_NONE when
 * no complete line is buffered yet (fill, then ask again), MCP_READ_EOF at
 * the end of input and MCP_READ_FAILED after a read error.
 */
McpReadStatus
mcp_reader_next(McpReader *reader)
{
	char	   *from = reader->buf + reader->scanned;
	char	   *newline = memchr(from, '\n', reader->end - reader->scanned);
	size_t		len;

	if (newline == NULL)
	{
		reader->scanned = reader->end;
		if (reader->skipping)
		{
			/* the rest of an over-long line: nothing of it is kept */
			reader->start = reader->end = reader->scanned = 0;
			if (!reader->eof && !reader->failed)
				return MCP_READ_NONE;
			reader->skipping = false;
			return MCP_READ_TOO_LONG;
		}
		if (reader->end - reader->start > reader->max_bytes)
		{
			reader->skipping = true;
			reader->start = reader->end = reader->scanned = 0;
			return reader->eof || reader->failed ? mcp_reader_next(reader)
				: MCP_READ_NONE;
		}
		if (reader->failed)
			return MCP_READ_FAILED;
		if (!reader->eof)
			return MCP_READ_NONE;
		if (reader->end == reader->start)
			return MCP_READ_EOF;
		/* a last line without newline still counts */
		reader_make_room(reader);
		newline = reader->buf + reader->end;
	}
	if (reader->skipping)
	{
		reader->skipping = false;
		reader->start = reader->scanned = newline + 1 - reader->buf;
		return MCP_READ_TOO_LONG;
	}
	len = newline - (reader->buf + reader->start);
	reader->line = reader->buf + reader->start;
	reader->start = reader->scanned = SMALLER((size_t) (newline + 1 - reader->buf),
											  reader->end);
	if (len > reader->max_bytes)
	{
		reader->line = NULL;
		reader->len = 0;
		return MCP_READ_TOO_LONG;
	}
	if (len > 0 && reader->line[len - 1] == '\r')
		len--;
	reader->line[len] = '\0';
	reader->len = len;
	return MCP_READ_MESSAGE;
}

/*
 * Read once from the descriptor (which the caller knows to be readable, or
 * is willing to wait on) into the buffer.  Returns false at the end of
 * input or on a read error (mcp_reader_next then reports it, after the
 * lines still buffered).  The line mcp_reader_next returned last is no
 * longer valid.
 */
bool
mcp_reader_fill(McpReader *reader)
{
	ssize_t		n;

	if (reader->eof || reader->failed)
		return false;
	reader_make_room(reader);
	if (reader->cap - reader->end < 2)
		return true;			/* full of lines not taken yet: take them
								 * first */
	do
		n = read(reader->fd, reader->buf + reader->end,
				 SMALLER(reader->cap - reader->end - 1, READER_CHUNK));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		reader->failed = true;
	else if (n == 0)
		reader->eof = true;
	else
		reader->end += n;
	return n > 0;
}

/*
 * Make room for one more read (and a terminating NUL): drop the lines
 * already returned, then grow while the unfinished line is within the
 * limit.  Past the limit, mcp_reader_next starts skipping the line, so the
 * buffer never holds much more than one longest line plus one read.
 */
static void
reader_make_room(McpReader *reader)
{
	if (reader->start > 0)
	{
		memmove(reader->buf, reader->buf + reader->start,
				reader->end - reader->start);
		reader->end -= reader->start;
		reader->scanned -= reader->start;
		reader->start = 0;
	}
	if (reader->cap - reader->end < 2 ||
		(reader->cap - reader->end < READER_CHUNK &&
		 reader->cap < reader->max_bytes + READER_CHUNK + 2))
	{
		size_t		newcap = SMALLER(reader->cap * 2,
									 reader->max_bytes + READER_CHUNK + 2);

		if (newcap > reader->cap)
		{
			reader->buf = mcp_realloc(reader->buf, newcap);
			reader->cap = newcap;
		}
	}
}

/*
 * Release the reader's buffer.
 */
void
mcp_reader_free(McpReader *reader)
{
	free(reader->buf);
	reader->buf = reader->line = NULL;
	reader->len = reader->cap = reader->start = reader->end = 0;
}

/*
 * Write one message as one line and flush it.  Returns false when stdout
 * failed (the client went away); the caller then exits.
 */
bool
mcp_write_message(json_object *message)
{
	const char *txt;
	size_t		len;

	txt = json_object_to_json_string_ext(message,
										 JSON_C_TO_STRING_PLAIN |
										 JSON_C_TO_STRING_NOSLASHESCAPE);

	if (txt == NULL)
	{
		mcp_log(MCP_LOG_ERROR, "could not serialize a message");
		return true;			/* nothing written; keep the session */
	}
	len = strlen(txt);
	if (fwrite(txt, 1, len, stdout) != len ||
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
