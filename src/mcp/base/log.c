/*-------------------------------------------------------------------------
 *
 * log.c
 *	  Logging of neon-ai-tools-mcp: stderr only, passwords masked, as text
 *	  or as one JSON object a line.
 *
 * Standard output belongs to the protocol: one stray byte there breaks the
 * client's session.  Every diagnostic therefore goes through this file,
 * which writes one line to stderr after masking every known secret
 * (mask.c), so a password that libpq echoes in an error message never
 * reaches a log.  Errors, warnings and notices are always written; -v adds
 * informational lines, -vv debugging ones.
 *
 * Two kinds of line, in two formats (--log-format):
 *
 *	 - a message, mcp_log(): text "neon-ai-tools-mcp: warning: ...", or
 *	   JSON {"time", "level", "msg"} plus, when it is written while a
 *	   request is handled (mcp_log_bind), that request's method, id,
 *	   session, role and tool;
 *	 - a request's summary, mcp_log_request(): text "request method=...
 *	   tool=... role=... status=... outcome=... duration_ms=... bytes=...
 *	   id=... session=...", or JSON with "event": "request" and the same
 *	   fields (null when a request has none).
 *
 * Neither carries a token, a password, a JWT or a tool's argument values:
 * the fields are names, categories and numbers, and messages are masked.
 * A session is named by the first characters of its Mcp-Session-Id only:
 * enough to follow it, not enough to use it.
 *
 * IDENTIFICATION
 *	  src/mcp/base/log.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "base/base.h"

/* characters of a session id written to the log */
#define SESSION_PREFIX_LEN 12

static int	log_verbosity = 0;
static McpLogFormat log_format = MCP_LOG_TEXT;

/* the request this thread is handling, or NULL (mcp_log_bind) */
static __thread const McpContext *bound;

static const char *const level_names[] = {
	"error", "warning", "notice", "info", "debug"
};

static bool shown(McpLogLevel level);
static char *continuation_lines(const char *message);
static void write_line(const char *txt);
static json_object *json_line(McpLogLevel level);
static void add_string(json_object *line, const char *key, const char *value);
static void add_context(json_object *line, const McpContext *ctx);
static void session_prefix(const McpContext *ctx, char *out);
static void request_id(const McpContext *ctx, char *out, size_t size);

/*
 * 0: errors, warnings and notices; 1: also info; 2 or more: also debug.
 */
void
mcp_log_set_verbosity(int verbosity)
{
	log_verbosity = verbosity;
}

/*
 * "text" or "json" (--log-format), into *format; false for another name.
 */
bool
mcp_log_format_parse(const char *name, McpLogFormat *format)
{
	if (strcmp(name, "text") == 0)
		*format = MCP_LOG_TEXT;
	else if (strcmp(name, "json") == 0)
		*format = MCP_LOG_JSON;
	else
		return false;
	return true;
}

void
mcp_log_set_format(McpLogFormat format)
{
	log_format = format;
}

/*
 * Lines written by this thread belong to ctx's request from now on (NULL:
 * to none).  The transport's handler binds a request while it answers it.
 */
void
mcp_log_bind(const McpContext *ctx)
{
	bound = ctx;
}

/*
 * Write one masked message.  Line breaks inside the message (libpq's
 * messages have several lines) are kept in text, the lines after the first
 * indented by a tab, and escaped in JSON; each line ends with exactly one
 * newline.
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

	if (!shown(level))
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

	if (log_format == MCP_LOG_JSON)
	{
		json_object *line = json_line(level);

		add_string(line, "msg", masked);
		if (bound != NULL)
			add_context(line, bound);
		write_line(json_object_to_json_string_ext(line, JSON_C_TO_STRING_PLAIN |
												  JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(line);
	}
	else
	{
		char	   *continued = continuation_lines(masked);
		char	   *txt = mcp_psprintf("%s: %s%s", MCP_PROGNAME, prefixes[level],
									   continued);

		write_line(txt);
		free(txt);
		free(continued);
	}
	free(masked);
	free(raw);
}

/*
 * One line for a request that has been answered: method ("-" when it has
 * none), ctx (NULL when the request was refused before it was read), the
 * role it ran as, its HTTP status (0 over stdio) and when it began
 * (mcp_now_ms).  A refusal (4xx, 5xx) that no handler categorized has the
 * outcome "refused".
 */
void
mcp_log_request(McpLogLevel level, const char *method, const McpContext *ctx,
				const char *role, int status, double start)
{
	const char *tool = ctx != NULL && ctx->tool[0] ? ctx->tool : NULL;
	const char *outcome = status >= 400 &&
		(ctx == NULL || ctx->outcome == NULL || strcmp(ctx->outcome, "ok") == 0)
		? "refused" : ctx != NULL && ctx->outcome != NULL ? ctx->outcome : "ok";
	double		duration = mcp_now_ms() - start;
	size_t		bytes = ctx != NULL ? ctx->bytes : 0;
	char		session[SESSION_PREFIX_LEN + 1];
	char		id[sizeof(((McpContext *) NULL)->request_id)];
	char		duration_text[32];

	if (!shown(level))
		return;
	session_prefix(ctx, session);
	request_id(ctx, id, sizeof(id));
	if (log_format == MCP_LOG_JSON)
	{
		json_object *line = json_line(level);

		add_string(line, "event", "request");
		add_string(line, "method", method);
		json_object_object_add(line, "status",
							   status > 0 ? json_object_new_int(status) : NULL);
		add_string(line, "request_id", id[0] ? id : NULL);
		add_string(line, "session_id", session[0] ? session : NULL);
		add_string(line, "role", role);
		add_string(line, "tool", tool);
		add_string(line, "outcome", outcome);
		snprintf(duration_text, sizeof(duration_text), "%.1f", duration);
		json_object_object_add(line, "duration_ms",
							   json_object_new_double_s(duration, duration_text));
		json_object_object_add(line, "bytes", json_object_new_int64((int64_t) bytes));
		write_line(json_object_to_json_string_ext(line, JSON_C_TO_STRING_PLAIN |
												  JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(line);
		return;
	}
	{
		char		status_text[16] = "-";
		char	   *txt;

		if (status > 0)
			snprintf(status_text, sizeof(status_text), "%d", status);
		txt = mcp_psprintf("%s: request method=%s tool=%s role=%s status=%s outcome=%s duration_ms=%.1f bytes=%zu id=%s session=%s",
						   MCP_PROGNAME, method, tool != NULL ? tool : "-",
						   role != NULL ? role : "-", status_text, outcome,
						   duration, bytes, id[0] ? id : "-",
						   session[0] ? session : "-");

		write_line(txt);
		free(txt);
	}
}

/*
 * A text message as it is written (malloc'd): each line after the first
 * begins with a tab, as PostgreSQL's own log does, and other control
 * characters are '?'.  A message may quote what a client sent (its
 * clientInfo, a request id): no such text can then begin a line of its
 * own that looks like the program's, nor drive a terminal.
 */
static char *
continuation_lines(const char *message)
{
	size_t		breaks = 0;
	const char *p;
	char	   *out;
	char	   *q;

	for (p = message; *p != '\0'; p++)
		breaks += *p == '\n';
	out = q = mcp_malloc(strlen(message) + breaks + 1);
	for (p = message; *p != '\0'; p++)
	{
		unsigned char c = (unsigned char) *p;

		if (c == '\n')
		{
			*q++ = '\n';
			*q++ = '\t';
		}
		else
			*q++ = (c < ' ' && c != '\t') || c == 0x7f ? '?' : (char) c;
	}
	*q = '\0';
	return out;
}

static bool
shown(McpLogLevel level)
{
	return !((level == MCP_LOG_INFO && log_verbosity < 1) ||
			 (level == MCP_LOG_DEBUG && log_verbosity < 2));
}

/* one line, flushed at once: journald and pipes see it whole */
static void
write_line(const char *txt)
{
	fprintf(stderr, "%s\n", txt);
	fflush(stderr);
}

/*
 * A JSON line's first members: the time (RFC 3339, UTC, milliseconds) and
 * the level.
 */
static json_object *
json_line(McpLogLevel level)
{
	json_object *line = json_object_new_object();
	struct timeval now;
	struct tm	tm;
	char		stamp[40];

	gettimeofday(&now, NULL);
	gmtime_r(&now.tv_sec, &tm);
	snprintf(stamp, sizeof(stamp), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
			 tm.tm_min, tm.tm_sec, (int) (now.tv_usec / 1000));
	add_string(line, "time", stamp);
	add_string(line, "level", level_names[level]);
	return line;
}

/* key: value, or null */
static void
add_string(json_object *line, const char *key, const char *value)
{
	json_object_object_add(line, key,
						   value != NULL ? json_object_new_string(value) : NULL);
}

/* the request a message was written for: what identifies it, no values */
static void
add_context(json_object *line, const McpContext *ctx)
{
	char		session[SESSION_PREFIX_LEN + 1];
	char		id[sizeof(ctx->request_id)];

	session_prefix(ctx, session);
	request_id(ctx, id, sizeof(id));
	add_string(line, "method", ctx->method[0] ? ctx->method : NULL);
	add_string(line, "request_id", id[0] ? id : NULL);
	add_string(line, "session_id", session[0] ? session : NULL);
	add_string(line, "role", ctx->role);
	add_string(line, "tool", ctx->tool[0] ? ctx->tool : NULL);
}

/* the first characters of ctx's session id, or "" */
static void
session_prefix(const McpContext *ctx, char *out)
{
	out[0] = '\0';
	if (ctx != NULL && ctx->session != NULL)
		snprintf(out, SESSION_PREFIX_LEN + 1, "%s", ctx->session->id);
}

/*
 * Copy a name the client chose (a method, a tool, an id) into dst for the
 * log: at most size - 1 bytes, control characters, spaces, quotes and
 * backslashes as '?', so that no name can forge a line or a field.
 */
void
mcp_log_copy_name(char *dst, size_t size, const char *src)
{
	size_t		i;

	for (i = 0; src != NULL && src[i] != '\0' && i + 1 < size; i++)
	{
		unsigned char c = (unsigned char) src[i];

		dst[i] = c <= ' ' || c == 0x7f || c == '"' || c == '\\' ? '?' : (char) c;
	}
	dst[i] = '\0';
}

/* ctx's JSON-RPC id as text, or "" */
static void
request_id(const McpContext *ctx, char *out, size_t size)
{
	out[0] = '\0';
	if (ctx != NULL)
		snprintf(out, size, "%s", ctx->request_id);
}
