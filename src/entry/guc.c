/*-------------------------------------------------------------------------
 *
 * guc.c
 *		  The neon_ai_tools.* settings.
 *
 * Guardrails (max_rows, max_response_bytes, max_timeout, lock_timeout,
 * enabled_tools, read_only) are PGC_SUSET: only a superuser, or a role
 * granted SET on the parameter, can change them, and an administrator sets
 * per-role values with ALTER ROLE ... SET.  A role cannot loosen its own
 * limits.  row_limit and timeout are user-settable defaults that are always
 * clamped by the guardrails, and per-call arguments may only tighten.
 * The plan cache's limits are PGC_SUSET too: each session's cache is
 * memory the server pays for.
 *
 * Limits are read from the C variables below, never through
 * current_setting(): a placeholder value set by an unprivileged role before
 * the library was loaded is re-checked (and refused) when we define the
 * variable here.  When that refused value came from the client's startup
 * options, it had already displaced the administrator's values;
 * guc_policy.c puts them back.
 *
 * IDENTIFICATION
 *		  src/core/guc.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "miscadmin.h"
#include "entry/entry.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/varlena.h"

/*
 * max_response_bytes is capped well below jsonb's 256 MB limit: an answer
 * also holds its column header and envelope, and building one costs a few
 * times its size in memory.
 */
#define NAT_MAX_RESPONSE_BYTES_CAP (16 * 1024 * 1024)

static bool check_enabled_tools(char **newval, void **extra, GucSource source);
static bool check_allowed_functions(char **newval, void **extra, GucSource source);

/*
 * The settings of ai_tool_run() (tool_run.c).
 */
static void
define_tool_run_settings(void)
{
	DefineCustomIntVariable("neon_ai_tools.max_tool_calls",
							"Maximum number of tool calls ai_tool_run() runs from one model response.",
							"Calls past it are answered with a limit_exceeded error and not run.",
							&nat_max_tool_calls,
							16, 1, 1000,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.run_timeout",
							"Time limit of all the tool calls ai_tool_run() runs from one model response.",
							"Zero means neon_ai_tools.max_timeout; never above it. Calls past it are answered with a timeout error and not run.",
							&nat_run_timeout_ms,
							0, 0, INT_MAX,
							PGC_USERSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
}

/*
 * The statistics in shared memory (tool_stats.c).  stats_max sizes the
 * shared memory, so it is read at server start only, and exists only when
 * the library is preloaded (PostgreSQL refuses a PGC_POSTMASTER setting
 * defined later, as for pg_stat_statements.max); track_stats is PGC_SUSET:
 * the counts are the administrator's, not the caller's to skip.
 */
static void
define_stats_settings(void)
{
	DefineCustomBoolVariable("neon_ai_tools.track_stats",
							 "Counts tool calls in ai_tool_stats().",
							 "Needs neon_ai_tools in shared_preload_libraries.",
							 &nat_track_stats,
							 true,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	if (!process_shared_preload_libraries_in_progress)
		return;
	DefineCustomIntVariable("neon_ai_tools.stats_max",
							"Maximum number of (role, database, tool) entries ai_tool_stats() keeps.",
							"Calls of further combinations are counted in one row, tool \"(other)\".",
							&nat_stats_max,
							1000, 10, 100000,
							PGC_POSTMASTER,
							0,
							NULL, NULL, NULL);
}

/*
 * The write limit and the memory cap of one call (write_count.c,
 * call_memory.c).
 */
static void
define_call_limit_settings(void)
{
	DefineCustomIntVariable("neon_ai_tools.max_affected_rows",
							"Maximum number of rows one update or delete may change.",
							"A call that would change more is rolled back entirely.",
							&nat_max_affected_rows,
							1000, 0, INT_MAX,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.max_call_memory",
							"Maximum memory one tool call may add to its backend.",
							"A call that grows its backend's private memory by more is stopped and answered resource_limit; arguments larger than an eighth of it are refused.",
							&nat_max_call_memory_kb,
							256 * 1024, 8 * 1024, INT_MAX,
							PGC_SUSET,
							GUC_UNIT_KB,
							NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.citus_connections_per_worker",
							"Maximum connections one tool call opens to each Citus worker.",
							"A call lowers citus.max_adaptive_executor_pool_size to it; fewer connections leave the workers' connections and CPU to other sessions and end a timed-out call sooner.",
							&nat_citus_connections_per_worker,
							4, 1, 1000,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);
}

/*
 * Define every setting; called once from _PG_init().
 */
void
nat_define_settings(void)
{
	/* before the placeholders are replaced: see guc_policy.c */
	nat_policy_before_define();

	DefineCustomStringVariable("neon_ai_tools.enabled_tools",
							   "Tools that ai_tool_list() shows and ai_tool_call() runs.",
							   "A comma-separated list of tool names, or \"*\" for all tools.",
							   &nat_enabled_tools,
							   "*",
							   PGC_SUSET,
							   GUC_LIST_INPUT,
							   check_enabled_tools, NULL, NULL);

	DefineCustomBoolVariable("neon_ai_tools.read_only",
							 "Runs every tool call read-only and hides the tools that write.",
							 NULL,
							 &nat_read_only,
							 false,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.row_limit",
							"Default number of rows a query tool returns.",
							"Clamped to neon_ai_tools.max_rows.",
							&nat_row_limit,
							1000, 1, INT_MAX,
							PGC_USERSET,
							0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.max_rows",
							"Maximum number of rows a tool call may return.",
							NULL,
							&nat_max_rows,
							10000, 1, INT_MAX,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.max_response_bytes",
							"Maximum size of the rows in one answer; rows past it are left out.",
							NULL,
							&nat_max_response_bytes,
							1024 * 1024, 1024, NAT_MAX_RESPONSE_BYTES_CAP,
							PGC_SUSET,
							GUC_UNIT_BYTE,
							NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.timeout",
							"Default time limit of one tool call.",
							"Clamped to neon_ai_tools.max_timeout.",
							&nat_timeout_ms,
							30000, 1, INT_MAX,
							PGC_USERSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.max_timeout",
							"Maximum time limit of one tool call.",
							NULL,
							&nat_max_timeout_ms,
							300000, 1, INT_MAX,
							PGC_SUSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.lock_timeout",
							"Maximum time a tool call waits for a lock.",
							"Zero lets a call wait for locks until its own timeout.",
							&nat_lock_timeout_ms,
							5000, 0, INT_MAX,
							PGC_SUSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);

	define_call_limit_settings();

	DefineCustomEnumVariable("neon_ai_tools.require_ssl",
							 "Which connections must use SSL to call tools.",
							 "off: none; remote: TCP from a non-loopback address; on: every connection, Unix sockets refused.",
							 &nat_require_ssl,
							 NAT_REQUIRE_SSL_REMOTE,
							 nat_require_ssl_options,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomEnumVariable("neon_ai_tools.audit",
							 "Which tool calls leave a line in the server log.",
							 "off: none; writes: calls that may change data; all: every call.",
							 &nat_audit,
							 NAT_AUDIT_WRITES,
							 nat_audit_options,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("neon_ai_tools.audit_log_client",
							 "Also sends audit lines to the client, as NOTICEs (for tests).",
							 NULL,
							 &nat_audit_log_client,
							 false,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.plan_cache_size",
							"Number of prepared plans each session keeps for the SQL that tools run.",
							"Zero disables the cache.",
							&nat_plan_cache_size,
							256, 0, 100000,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.plan_cache_memory",
							"Memory each session's cache of prepared plans may hold.",
							"Least recently used plans are freed to stay under it; zero disables the cache.",
							&nat_plan_cache_memory,
							16 * 1024, 0, MAX_KILOBYTES,
							PGC_SUSET,
							GUC_UNIT_KB,
							NULL, NULL, NULL);

	DefineCustomStringVariable("neon_ai_tools.read_only_allowed_functions",
							   "Volatile functions a read-only tool call may run besides the built-in allow-list.",
							   "A comma-separated list of schema-qualified function names (every overload), such as \"app.price, app.lookup\".",
							   &nat_read_only_allowed_functions,
							   "",
							   PGC_SUSET,
							   GUC_LIST_INPUT,
							   check_allowed_functions, NULL, NULL);

	define_tool_run_settings();
	define_stats_settings();

	nat_define_answer_settings();
	MarkGUCPrefixReserved("neon_ai_tools");

	nat_policy_after_define();
}

/*
 * read_only_allowed_functions: every entry a schema-qualified name.  Whether
 * the functions exist is decided at call time (they may be created later).
 */
static bool
check_allowed_functions(char **newval, void **extra, GucSource source)
{
	char	   *raw = pstrdup(*newval);
	List	   *entries;
	ListCell   *lc;

	if (!SplitGUCList(raw, ',', &entries))
	{
		GUC_check_errdetail("List syntax is invalid.");
		return false;
	}
	foreach(lc, entries)
	{
		char	   *schema;
		char	   *name;

		if (!nat_split_allowed_function((char *) lfirst(lc), &schema, &name))
		{
			GUC_check_errdetail("\"%s\" is not a schema-qualified function name.",
								(char *) lfirst(lc));
			GUC_check_errhint("Write each function as schema.name, such as app.price: an unqualified name would follow the caller's search_path.");
			return false;
		}
	}
	list_free(entries);
	pfree(raw);
	return true;
}

/*
 * enabled_tools must be "*" or a syntactically valid list.  Unknown names
 * are accepted (a list may name tools of a newer version) but match nothing.
 */
static bool
check_enabled_tools(char **newval, void **extra, GucSource source)
{
	char	   *raw;
	List	   *names;
	bool		ok;

	raw = pstrdup(*newval);
	ok = SplitIdentifierString(raw, ',', &names);
	list_free(names);
	pfree(raw);
	if (!ok)
		GUC_check_errdetail("List syntax is invalid.");
	return ok;
}
