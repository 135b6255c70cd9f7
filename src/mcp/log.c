/*-------------------------------------------------------------------------
 *
 * log.c
 *	  Logging of neon-ai-tools-mcp: stderr only, passwords masked.
 *
 * Standard output belongs to the protocol: one stray byte there breaks the
 * client's session.  Every diagnostic therefore goes through mcp_log(),
 * which writes one line to stderr ("neon-ai-tools-mcp: warning: ...") after
 * masking every known secret (mask.c), so a password that libpq echoes in
 * an error message never reaches a log.  Errors and warnings are always
 * written; -v adds informational lines, -vv debugging ones.
 *
 * IDENTIFICATION
 *	  src/mcp/log.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neon_ai_tools_mcp.h"

static int	log_verbosity = 0;

/*
 * 0: errors and warnings; 1: also info; 2 or more: also debug.
 */
void
mcp_log_set_verbosity(int verbosity)
{
	log_verbosity = verbosity;
}

/*
 * Write one masked line to stderr.  Line breaks inside the message (libpq's
 * messages have several lines) are kept, but each message ends with exactly
 * one newline.
 */
void
mcp_log(McpLogLevel level, const char *fmt,...)
{
	static const char *const prefixes[] = {
		"error: ", "warning: ", "", "", "debug: "
	};
	va_list		ap;
	int			needed;
	char	   *raw;
	char	   *masked;
	size_t		len;

	if ((level == MCP_LOG_INFO && log_verbosity < 1) ||
		(level == MCP_LOG_DEBUG && log_verbosity < 2))
		return;

	va_start(ap, fmt);
	needed = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (needed < 0)
		return;
	raw = mcp_malloc((size_t) needed + 1);
	va_start(ap, fmt);
	vsnprintf(raw, (size_t) needed + 1, fmt, ap);
	va_end(ap);

	masked = mcp_mask_text(raw);
	len = strlen(masked);
	while (len > 0 && (masked[len - 1] == '\n' || masked[len - 1] == '\r'))
		masked[--len] = '\0';

	fprintf(stderr, "%s: %s%s\n", MCP_PROGNAME, prefixes[level], masked);
	fflush(stderr);
	free(masked);
	free(raw);
}
