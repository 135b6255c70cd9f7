/*-------------------------------------------------------------------------
 *
 * settings.c
 *		  The variables behind the neon_ai_tools.* settings that every layer
 *		  reads, and their enum options.
 *
 * They are defined (DefineCustom*Variable, check hooks, the administrator's
 * policy) at the top, in entry/guc.c and entry/guc_answer.c; the variables
 * live here, at the bottom, so that the layers that read a limit need not
 * reach up to the code that registers it.  Settings owned by one module
 * (max_call_memory, the plan cache's, default_format) stay beside it.
 *
 * IDENTIFICATION
 *		  src/base/settings.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "base/base.h"
#include "utils/guc.h"
#include "utils/varlena.h"

char	   *nat_enabled_tools = NULL;
bool		nat_read_only = false;
int			nat_row_limit = 1000;
int			nat_max_rows = 10000;
int			nat_max_response_bytes = 1024 * 1024;

int			nat_timeout_ms = 30000;
int			nat_max_timeout_ms = 300000;
int			nat_lock_timeout_ms = 5000;
int			nat_max_tool_calls = 16;
int			nat_run_timeout_ms = 0;
int			nat_max_affected_rows = 1000;
int			nat_require_ssl = NAT_REQUIRE_SSL_REMOTE;
int			nat_audit = NAT_AUDIT_WRITES;
bool		nat_audit_log_client = false;
char	   *nat_read_only_allowed_functions = NULL;
bool		nat_track_stats = true;
int			nat_stats_max = 1000;

/* in order of strictness: role_policy.c takes the later one */
const struct config_enum_entry nat_require_ssl_options[] = {
	{"off", NAT_REQUIRE_SSL_OFF, false},
	{"remote", NAT_REQUIRE_SSL_REMOTE, false},
	{"on", NAT_REQUIRE_SSL_ON, false},
	{NULL, 0, false}
};

const struct config_enum_entry nat_audit_options[] = {
	{"off", NAT_AUDIT_OFF, false},
	{"writes", NAT_AUDIT_WRITES, false},
	{"all", NAT_AUDIT_ALL, false},
	{NULL, 0, false}
};

/* in order of strictness: role_policy.c takes the later one */
const struct config_enum_entry nat_empty_hints_options[] = {
	{"query", NAT_EMPTY_HINTS_QUERY, false},
	{"stats", NAT_EMPTY_HINTS_STATS, false},
	{"off", NAT_EMPTY_HINTS_OFF, false},
	{NULL, 0, false}
};

int			nat_empty_hints = NAT_EMPTY_HINTS_QUERY;

const struct config_enum_entry nat_confirmation_options[] = {
	{"flag", NAT_CONFIRMATION_FLAG, false},
	{"token", NAT_CONFIRMATION_TOKEN, false},
	{NULL, 0, false}
};

/* the answer's row formats (answer/formats.c), in NatFormat order */
const char *const nat_answer_format_names[] = {
	"json", "columnar", "csv", "markdown", NULL
};

int			nat_default_format = NAT_FORMAT_JSON;

/*
 * Is the tool in neon_ai_tools.enabled_tools?
 */
bool
nat_tool_enabled(const char *name)
{
	char	   *raw;
	List	   *names;
	ListCell   *lc;
	bool		found = false;

	if (nat_enabled_tools == NULL || strcmp(nat_enabled_tools, "*") == 0)
		return true;

	raw = pstrdup(nat_enabled_tools);
	if (!SplitIdentifierString(raw, ',', &names))
		return false;			/* cannot happen: the check hook parsed it */
	foreach(lc, names)
	{
		const char *item = (const char *) lfirst(lc);

		if (strcmp(item, "*") == 0 || strcmp(item, name) == 0)
		{
			found = true;
			break;
		}
	}
	list_free(names);
	pfree(raw);
	return found;
}
