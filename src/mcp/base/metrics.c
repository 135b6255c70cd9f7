/*-------------------------------------------------------------------------
 *
 * metrics.c
 *	  The counters GET /metrics shows, and their Prometheus text (format
 *	  0.0.4).
 *
 * Requests run on libmicrohttpd's threads, one per connection, so every
 * counter is a 64-bit integer changed with an atomic add (relaxed: each
 * count is exact, and a scrape sees each counter whole; durations are
 * kept in microseconds so that their sums are exact too).  Nothing takes
 * a lock on a request's way except the first sight of a tool or role
 * name.
 *
 * Cardinality is bounded.  Tools: the first MAX_TOOLS names that the
 * extension answered for (any answer but unknown_tool); a name it did not
 * know, or one past the limit, counts as "other", so an agent cannot make
 * series up by calling tools that do not exist.  Roles: the first
 * MAX_ROLES token roles that passed the role check (without tokens: "-"),
 * then "other".  Outcomes: "ok" and the extension's error categories; a
 * category it does not document is "other".  Methods: the ones the
 * program answers, then "other".  HTTP statuses: the code itself.
 *
 * IDENTIFICATION
 *	  src/mcp/base/metrics.c
 *
 *-------------------------------------------------------------------------
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/metrics.h"

#define MAX_TOOLS 64
#define MAX_ROLES 32
#define LABEL_BYTES 64

#define ADD(counter, n) __atomic_fetch_add(&(counter), (uint64_t) (n), __ATOMIC_RELAXED)
#define GET(counter) __atomic_load_n(&(counter), __ATOMIC_RELAXED)

/* a bounded set of label values; index count (past the last) is "other" */
typedef struct LabelSet
{
	pthread_mutex_t lock;		/* for adding only */
	int			count;			/* published with release */
	int			max;
	char		names[MAX_TOOLS][LABEL_BYTES];
} LabelSet;

static const char *const outcomes[] = {
	"ok", "tool_error", "invalid_parameters", "unknown_tool", "tool_disabled",
	"resource_limit", "invalid_table", "invalid_column", "syntax_error",
	"invalid_input", "permission_denied", "read_only_violation",
	"constraint_violation", "dependent_objects", "already_exists",
	"confirmation_required", "limit_exceeded", "timeout", "conflict",
	"resource_exhausted", "connection_error", "authentication_error",
	"cancelled", "unknown_error", "other"
};
#define N_OUTCOMES (sizeof(outcomes) / sizeof(outcomes[0]))

static const char *const methods[] = {
	"initialize", "notifications/initialized", "ping", "tools/list",
	"tools/call", "notifications/cancelled", "server/discover", "other"
};
#define N_METHODS (sizeof(methods) / sizeof(methods[0]))

/* latency buckets' upper bounds, in seconds (and microseconds) */
static const char *const bucket_le[] = {
	"0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25",
	"0.5", "1", "2.5", "5", "10", "30", "+Inf"
};
static const uint64_t bucket_us[] = {
	1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000,
	500000, 1000000, 2500000, 5000000, 10000000, 30000000, UINT64_MAX
};
#define N_BUCKETS (sizeof(bucket_us) / sizeof(bucket_us[0]))

static const char *const refusal_names[MCP_REFUSAL_COUNT] = {
	"busy", "token_busy", "body_size", "batch_members", "batch_bytes", "pool_busy"
};
static const char *const auth_names[MCP_AUTHFAIL_COUNT] = {
	"missing", "malformed", "invalid", "expired", "role_forbidden", "role_refused"
};
static const char *const cancel_names[MCP_CANCEL_COUNT] = {
	"notification", "disconnect"
};
static const char *const session_names[MCP_SESSION_EVENT_COUNT] = {
	"created", "deleted", "evicted", "expired", "revoked"
};

static bool enabled = false;
static LabelSet tools = {PTHREAD_MUTEX_INITIALIZER, 0, MAX_TOOLS};
static LabelSet roles = {PTHREAD_MUTEX_INITIALIZER, 0, MAX_ROLES};

static uint64_t http_responses[600];	/* by status, 100-599 */
static uint64_t http_response_bytes;
static uint64_t method_calls[N_METHODS];
static uint64_t tool_calls[MAX_TOOLS + 1][MAX_ROLES + 1][N_OUTCOMES];
static uint64_t tool_buckets[MAX_TOOLS + 1][N_BUCKETS];
static uint64_t tool_us[MAX_TOOLS + 1];
static uint64_t tool_bytes[MAX_TOOLS + 1];
static uint64_t pool_waits;
static uint64_t pool_wait_us;
static uint64_t pool_timeouts;
static uint64_t sessions[MCP_SESSION_EVENT_COUNT];
static uint64_t auth_failures[MCP_AUTHFAIL_COUNT];
static uint64_t cancels[MCP_CANCEL_COUNT];
static uint64_t refusals[MCP_REFUSAL_COUNT];

/* the text being rendered */
typedef struct Out
{
	char	   *buf;
	size_t		len;
	size_t		cap;
} Out;

static int	label_index(LabelSet *set, const char *name, bool may_add);
static void out_printf(Out *out, const char *fmt,...) MCP_PRINTF(2, 3);
static void out_counter(Out *out, const char *name, const char *help,
						uint64_t value);
static void out_gauge(Out *out, const char *name, const char *help, int value);
static void out_family(Out *out, const char *name, const char *type,
					   const char *help);
static void out_label(Out *out, const char *value);
static void render_tools(Out *out);
static void render_others(Out *out);

/* the gauges' readers (mcp_metrics_gauges) */
static McpPoolStatsFn pool_stats_fn = NULL;
static McpCountFn sessions_open_fn = NULL;

/* --admin-listen: start counting */
void
mcp_metrics_enable(void)
{
	enabled = true;
}

/* where the pool's figures and the open sessions are read (before serving) */
void
mcp_metrics_gauges(McpPoolStatsFn pool_stats, McpCountFn sessions_open)
{
	pool_stats_fn = pool_stats;
	sessions_open_fn = sessions_open;
}

bool
mcp_metrics_enabled(void)
{
	return enabled;
}

/* one HTTP response queued, and its body's bytes (when known) */
void
mcp_metrics_http_response(int status, size_t bytes)
{
	if (!enabled)
		return;
	if (status >= 100 && status < 600)
		ADD(http_responses[status], 1);
	ADD(http_response_bytes, bytes);
}

/* one JSON-RPC request or notification, by method */
void
mcp_metrics_method(const char *method)
{
	size_t		i;

	if (!enabled)
		return;
	for (i = 0; i < N_METHODS - 1 && strcmp(methods[i], method) != 0; i++)
		;
	ADD(method_calls[i], 1);
}

/*
 * One tools/call that reached the database (or tried to).  tool_exists:
 * the extension answered for the tool, so its name may become a label.
 */
void
mcp_metrics_tool_call(const char *tool, bool tool_exists, const char *role,
					  const char *outcome, double ms, size_t answer_bytes)
{
	int			t;
	int			r;
	size_t		o;
	size_t		b;
	uint64_t	us;

	if (!enabled)
		return;
	t = label_index(&tools, tool, tool_exists);
	r = label_index(&roles, role != NULL ? role : "-", true);
	for (o = 0; o < N_OUTCOMES - 1 && strcmp(outcomes[o], outcome != NULL ? outcome : "") != 0; o++)
		;
	us = ms > 0 ? (uint64_t) (ms * 1000.0) : 0;
	for (b = 0; us > bucket_us[b]; b++)
		;
	ADD(tool_calls[t][r][o], 1);
	ADD(tool_buckets[t][b], 1);
	ADD(tool_us[t], us);
	ADD(tool_bytes[t], answer_bytes);
}

/* pool.c: a request waited ms for a connection (timed out: got none) */
void
mcp_metrics_pool_wait(double ms, bool timed_out)
{
	if (!enabled)
		return;
	ADD(pool_waits, 1);
	ADD(pool_wait_us, ms > 0 ? (uint64_t) (ms * 1000.0) : 0);
	if (timed_out)
		ADD(pool_timeouts, 1);
}

/* the counters of one event by its kind: a function each (metrics.h) */
#define EVENT_COUNTER(function, kind_type, counters) \
void \
function(kind_type kind) \
{ \
	if (enabled) \
		ADD(counters[kind], 1); \
}

EVENT_COUNTER(mcp_metrics_session, McpSessionEvent, sessions)
EVENT_COUNTER(mcp_metrics_auth_failure, McpAuthFailure, auth_failures)
EVENT_COUNTER(mcp_metrics_cancel, McpCancelVia, cancels)
EVENT_COUNTER(mcp_metrics_refusal, McpRefusal, refusals)

/*
 * name's index in set: found, or added if may_add and there is room, else
 * set->max ("other").  Readers never lock: a name is written before the
 * count that makes it visible.
 */
static int
label_index(LabelSet *set, const char *name, bool may_add)
{
	int			n = __atomic_load_n(&set->count, __ATOMIC_ACQUIRE);
	int			i;

	if (strlen(name) >= LABEL_BYTES)
		return set->max;
	for (i = 0; i < n; i++)
		if (strcmp(set->names[i], name) == 0)
			return i;
	if (!may_add || n >= set->max)
		return set->max;
	pthread_mutex_lock(&set->lock);
	n = set->count;
	for (i = 0; i < n; i++)
		if (strcmp(set->names[i], name) == 0)
			break;
	if (i == n && n < set->max)
	{
		strcpy(set->names[n], name);
		__atomic_store_n(&set->count, n + 1, __ATOMIC_RELEASE);
	}
	else if (i == n)
		i = set->max;
	pthread_mutex_unlock(&set->lock);
	return i;
}

/*
 * The whole exposition (malloc'd).  A family is written with its HELP and
 * TYPE even when it has no sample yet, so a scraper knows it exists.
 */
char *
mcp_metrics_render(void)
{
	Out			out = {NULL, 0, 0};
	int			size,
				in_use,
				idle,
				waiting;
	int			i;

	out_printf(&out, "%s", "");
	out_family(&out, "neon_ai_tools_mcp_info", "gauge", "The program's version.");
	out_printf(&out, "neon_ai_tools_mcp_info{version=\"%s\"} 1\n", MCP_VERSION);
	out_family(&out, "neon_ai_tools_mcp_http_responses_total", "counter",
			   "HTTP responses sent, by status code.");
	for (i = 100; i < 600; i++)
		if (GET(http_responses[i]) > 0)
			out_printf(&out, "neon_ai_tools_mcp_http_responses_total{code=\"%d\"} %llu\n",
					   i, (unsigned long long) GET(http_responses[i]));
	out_counter(&out, "neon_ai_tools_mcp_http_response_bytes_total",
				"Bytes of HTTP response bodies.", GET(http_response_bytes));
	out_family(&out, "neon_ai_tools_mcp_jsonrpc_messages_total", "counter",
			   "JSON-RPC requests and notifications handled, by method.");
	for (i = 0; i < (int) N_METHODS; i++)
		if (GET(method_calls[i]) > 0)
			out_printf(&out, "neon_ai_tools_mcp_jsonrpc_messages_total{method=\"%s\"} %llu\n",
					   methods[i], (unsigned long long) GET(method_calls[i]));
	render_tools(&out);

	size = in_use = idle = waiting = 0;
	if (pool_stats_fn != NULL)
		pool_stats_fn(&size, &in_use, &idle, &waiting);
	out_gauge(&out, "neon_ai_tools_mcp_pool_size",
			  "Database connections the pool may hold (--pool-size).", size);
	out_family(&out, "neon_ai_tools_mcp_pool_connections", "gauge",
			   "Open database connections of the pool, in use or idle.");
	out_printf(&out, "neon_ai_tools_mcp_pool_connections{state=\"in_use\"} %d\n", in_use);
	out_printf(&out, "neon_ai_tools_mcp_pool_connections{state=\"idle\"} %d\n", idle);
	out_gauge(&out, "neon_ai_tools_mcp_pool_waiting",
			  "Requests waiting for a database connection now.", waiting);
	out_counter(&out, "neon_ai_tools_mcp_pool_acquires_total",
				"Database connections taken from the pool.", GET(pool_waits));
	out_family(&out, "neon_ai_tools_mcp_pool_wait_seconds_total", "counter",
			   "Time spent waiting for a database connection.");
	out_printf(&out, "neon_ai_tools_mcp_pool_wait_seconds_total %.6f\n",
			   GET(pool_wait_us) / 1e6);
	out_family(&out, "neon_ai_tools_mcp_pool_wait_timeouts_total", "counter",
			   "Requests that found no free database connection in time.");
	out_printf(&out, "neon_ai_tools_mcp_pool_wait_timeouts_total %llu\n",
			   (unsigned long long) GET(pool_timeouts));
	render_others(&out);
	return out.buf;
}

/* tools/call: calls by tool, role and outcome; latency and bytes by tool */
static void
render_tools(Out *out)
{
	int			ntools = __atomic_load_n(&tools.count, __ATOMIC_ACQUIRE);
	int			nroles = __atomic_load_n(&roles.count, __ATOMIC_ACQUIRE);
	int			t;

	out_family(out, "neon_ai_tools_mcp_tool_calls_total", "counter",
			   "tools/call requests run, by tool, role and outcome (ok or the error category).");
	for (t = 0; t <= MAX_TOOLS; t++)
	{
		if (t >= ntools && t < MAX_TOOLS)
			continue;
		for (int r = 0; r <= MAX_ROLES; r++)
		{
			if (r >= nroles && r < MAX_ROLES)
				continue;
			for (size_t o = 0; o < N_OUTCOMES; o++)
			{
				uint64_t	n = GET(tool_calls[t][r][o]);

				if (n == 0)
					continue;
				out_printf(out, "neon_ai_tools_mcp_tool_calls_total{tool=");
				out_label(out, t < MAX_TOOLS ? tools.names[t] : "other");
				out_printf(out, ",role=");
				out_label(out, r < MAX_ROLES ? roles.names[r] : "other");
				out_printf(out, ",outcome=\"%s\"} %llu\n", outcomes[o], (unsigned long long) n);
			}
		}
	}
	out_family(out, "neon_ai_tools_mcp_tool_call_duration_seconds", "histogram",
			   "tools/call duration as the program saw it, by tool.");
	for (t = 0; t <= MAX_TOOLS; t++)
	{
		uint64_t	cumulative = 0;
		uint64_t	total = 0;
		const char *name = t < MAX_TOOLS ? tools.names[t] : "other";

		if (t >= ntools && t < MAX_TOOLS)
			continue;
		for (size_t b = 0; b < N_BUCKETS; b++)
			total += GET(tool_buckets[t][b]);
		if (total == 0)
			continue;
		for (size_t b = 0; b < N_BUCKETS; b++)
		{
			cumulative += GET(tool_buckets[t][b]);
			out_printf(out, "neon_ai_tools_mcp_tool_call_duration_seconds_bucket{tool=");
			out_label(out, name);
			out_printf(out, ",le=\"%s\"} %llu\n", bucket_le[b], (unsigned long long) cumulative);
		}
		out_printf(out, "neon_ai_tools_mcp_tool_call_duration_seconds_sum{tool=");
		out_label(out, name);
		out_printf(out, "} %.6f\n", GET(tool_us[t]) / 1e6);
		out_printf(out, "neon_ai_tools_mcp_tool_call_duration_seconds_count{tool=");
		out_label(out, name);
		out_printf(out, "} %llu\n", (unsigned long long) cumulative);
	}
	out_family(out, "neon_ai_tools_mcp_tool_answer_bytes_total", "counter",
			   "Bytes of the answers (envelopes) of tools/call, by tool.");
	for (t = 0; t <= MAX_TOOLS; t++)
	{
		if ((t >= ntools && t < MAX_TOOLS) || GET(tool_bytes[t]) == 0)
			continue;
		out_printf(out, "neon_ai_tools_mcp_tool_answer_bytes_total{tool=");
		out_label(out, t < MAX_TOOLS ? tools.names[t] : "other");
		out_printf(out, "} %llu\n", (unsigned long long) GET(tool_bytes[t]));
	}
}

/* a counter family with one label: a line for each value of the label */
static void
render_labelled(Out *out, const char *name, const char *help,
				const char *label, const char *const *values,
				const uint64_t *counters, int n)
{
	int			i;

	out_family(out, name, "counter", help);
	for (i = 0; i < n; i++)
		out_printf(out, "%s{%s=\"%s\"} %llu\n", name, label, values[i],
				   (unsigned long long) GET(counters[i]));
}

/* sessions, authentication failures, cancels, refusals */
static void
render_others(Out *out)
{
	static const struct
	{
		const char *name;
		const char *help;
		const char *label;
		const char *const *values;
		const uint64_t *counters;
		int			n;
	}			families[] = {
		{"neon_ai_tools_mcp_sessions_total", "MCP sessions created and ended, by event.",
		"event", session_names, sessions, MCP_SESSION_EVENT_COUNT},
		{"neon_ai_tools_mcp_auth_failures_total", "Requests refused their bearer token or its role, by reason.",
		"reason", auth_names, auth_failures, MCP_AUTHFAIL_COUNT},
		{"neon_ai_tools_mcp_cancels_total", "Statements in flight cancelled, by how.",
		"via", cancel_names, cancels, MCP_CANCEL_COUNT},
		{"neon_ai_tools_mcp_refusals_total", "Requests and batch members refused for a limit, by reason.",
		"reason", refusal_names, refusals, MCP_REFUSAL_COUNT},
	};

	out_gauge(out, "neon_ai_tools_mcp_sessions_open",
			  "MCP sessions open now (session-based revisions).",
			  sessions_open_fn != NULL ? sessions_open_fn() : 0);
	for (int i = 0; i < (int) (sizeof(families) / sizeof(families[0])); i++)
		render_labelled(out, families[i].name, families[i].help, families[i].label,
						families[i].values, families[i].counters, families[i].n);
}

static void
out_family(Out *out, const char *name, const char *type, const char *help)
{
	out_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* a family of one unlabelled value */
static void
out_counter(Out *out, const char *name, const char *help, uint64_t value)
{
	out_family(out, name, "counter", help);
	out_printf(out, "%s %llu\n", name, (unsigned long long) value);
}

static void
out_gauge(Out *out, const char *name, const char *help, int value)
{
	out_family(out, name, "gauge", help);
	out_printf(out, "%s %d\n", name, value);
}

/* a label value in quotes, escaped as the format requires */
static void
out_label(Out *out, const char *value)
{
	const char *p;

	out_printf(out, "\"");
	for (p = value; *p != '\0'; p++)
	{
		if (*p == '\\' || *p == '"')
			out_printf(out, "\\%c", *p);
		else if (*p == '\n')
			out_printf(out, "\\n");
		else
			out_printf(out, "%c", *p);
	}
	out_printf(out, "\"");
}

static void
out_printf(Out *out, const char *fmt,...)
{
	va_list		ap;
	int			n;

	for (;;)
	{
		va_start(ap, fmt);
		n = vsnprintf(out->buf != NULL ? out->buf + out->len : NULL,
					  out->cap - out->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (out->len + (size_t) n < out->cap)
			break;
		out->cap = (out->cap + (size_t) n + 1) * 2;
		out->buf = mcp_realloc(out->buf, out->cap);
	}
	out->len += (size_t) n;
}
