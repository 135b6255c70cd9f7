/*-------------------------------------------------------------------------
 *
 * transport.h
 *	  The transport layer of neon-ai-tools-mcp: stdio.
 *
 * The transport layer: reading and writing messages over stdio (here) and
 * HTTP (http.h, http_int.h).  Uses every folder below it: base/, db/,
 * protocol/, auth/.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/transport.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_TRANSPORT_H
#define MCP_TRANSPORT_H

#include "base/base.h"

/* in transport.c */
typedef enum McpReadStatus
{
	MCP_READ_MESSAGE,			/* one line read (without its newline) */
	MCP_READ_NONE,				/* no complete line buffered yet */
	MCP_READ_TOO_LONG,			/* a line over the limit was skipped */
	MCP_READ_EOF,				/* end of input */
	MCP_READ_FAILED				/* read error */
} McpReadStatus;

typedef struct McpReader
{
	int			fd;
	char	   *buf;			/* bytes read: [start, end) not yet returned */
	size_t		cap;			/* allocated size of buf */
	size_t		start;
	size_t		end;
	size_t		scanned;		/* no newline in [start, scanned) */
	size_t		max_bytes;		/* longest accepted line */
	bool		skipping;		/* inside a line over the limit */
	bool		eof;			/* read() returned 0 */
	bool		failed;			/* read() failed */
	char	   *line;			/* the line returned last, NUL-terminated */
	size_t		len;			/* its length in bytes */
} McpReader;

extern void mcp_reader_init(McpReader *reader, int fd, size_t max_bytes);
extern McpReadStatus mcp_reader_next(McpReader *reader);
extern bool mcp_reader_fill(McpReader *reader);
extern void mcp_reader_free(McpReader *reader);
extern bool mcp_write_message(json_object *message);

/* in stdio.c */
extern int	mcp_serve_stdio(void);


#endif							/* MCP_TRANSPORT_H */
