/*-------------------------------------------------------------------------
 *
 * role_policy.c
 *		  The current role's neon_ai_tools.* policy, for a call that runs as
 *		  another role than the one that logged in.
 *
 * The problem.  PostgreSQL applies a role's ALTER ROLE ... SET values when
 * that role logs in, and only then.  A call made after SET ROLE, SET LOCAL
 * ROLE, set_config('role', ...), SET SESSION AUTHORIZATION or inside a
 * SECURITY DEFINER function runs as another role, but with the settings of
 * the role that logged in.  neon-ai-tools-mcp connects as an authenticator
 * and runs each call as the agent's role (SET LOCAL ROLE): the agent role's
 * read_only, max_rows or enabled_tools would not hold.
 *
 * What we do.  At the start of each ai_tool_call(), ai_tool_plan(),
 * ai_tool_list() and ai_tool_run(), when the current user is not the
 * authenticated user (the one whose rows PostgreSQL applied at login), the
 * current role's values of our settings are read from pg_db_role_setting,
 * the role-in-this-database row before the role's own row (the precedence
 * of login), and combined with the session's values in a GUC nest level of
 * the call's own.  After SET SESSION AUTHORIZATION, the session user's
 * values are combined first, as if it had logged in, so that a SET ROLE
 * from there cannot drop them.  Every part of the call reads the nat_*
 * variables of guc.c, which then hold the combination; the nest level is
 * popped when the call ends (or by the abort of an error that leaves the
 * call).  The database's and the global rows are not read: they already
 * apply to the session, in this database.
 *
 * The combination is never looser than either side: a user whose login
 * policy is strict cannot loosen it by SET ROLE to a looser role, and an
 * agent role's policy holds when an authenticator reaches it by SET ROLE.
 *
 *	 - read_only, audit_log_client: on if either is on;
 *	 - max_rows, max_response_bytes, max_timeout, max_affected_rows (where 0
 *	   lets nothing change), max_tool_calls, and the user-settable defaults
 *	   row_limit and timeout: the smaller;
 *	 - lock_timeout: the smaller non-zero value (0 means no lock limit);
 *	 - require_ssl (off, remote, on), audit (off, writes, all) and
 *	   empty_result_hints (query, stats, off): the later in that order,
 *	   which is the stricter;
 *	 - enabled_tools and read_only_allowed_functions: the entries on both
 *	   lists ("*" in enabled_tools is every tool);
 *	 - plan_cache_size and plan_cache_memory: the session's alone.  They
 *	   bound the memory of the session's cache of plans, which outlives the
 *	   call; a per-call value would trim the cache at every call.
 *
 * A value in the role's rows that is not valid for its setting (stored
 * while the library was not loaded) makes the call fail with PostgreSQL's
 * own error, where a login only warns: a policy that cannot be read is not
 * replaced by a looser one.  Names of ours that are no setting are
 * skipped, as at login.
 *
 * Cost.  When the current and the session user are the authenticated user
 * (every call of a session that did not change roles), nothing is done but
 * two comparisons.
 *
 * Cache.  A few roles' values are kept per backend, by role (the database
 * is the backend's own).  pg_db_role_setting has no syscache and sends no
 * catcache or relcache invalidation: a change sends only a snapshot
 * invalidation, for which no callback can be registered.  A role's values
 * are therefore kept with the count of invalidation messages this backend
 * had processed (SharedInvalidMessageCounter), and read again once it
 * moves: every committed ALTER ROLE ... SET, of any session, is among
 * those messages (any other invalidation only costs a read).  This
 * transaction's own uncommitted change is not; the cache is neither used
 * nor kept while the transaction has an XID, which such a change assigns.
 *
 * IDENTIFICATION
 *		  src/core/role_policy.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_db_role_setting.h"
#include "miscadmin.h"
#include "run/run.h"
#include "plan/token.h"
#include "storage/lockdefs.h"
#include "storage/sinval.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/varlena.h"

/* how a role's value and the session's combine */
typedef enum CombineRule
{
	COMBINE_ON_WINS,			/* bool: on if either is on */
	COMBINE_SMALLER,			/* int: the smaller */
	COMBINE_SMALLER_NONZERO,	/* int: the smaller, 0 being no limit */
	COMBINE_LATER_OPTION,		/* enum: the later option, the stricter */
	COMBINE_TOOLS,				/* enabled_tools: both lists' tools */
	COMBINE_FUNCTIONS			/* read_only_allowed_functions: likewise */
} CombineRule;

/* one setting of the policy */
typedef struct PolicySetting
{
	const char *name;
	CombineRule rule;
	int			unit;			/* GUC_UNIT_* of an integer, for parse_int() */
	const struct config_enum_entry *options;	/* of an enum */
	void	   *variable;		/* guc.c's C variable */
} PolicySetting;

static const PolicySetting policy_settings[] = {
	{"neon_ai_tools.enabled_tools", COMBINE_TOOLS, 0, NULL, &nat_enabled_tools},
	{"neon_ai_tools.read_only", COMBINE_ON_WINS, 0, NULL, &nat_read_only},
	{"neon_ai_tools.row_limit", COMBINE_SMALLER, 0, NULL, &nat_row_limit},
	{"neon_ai_tools.max_rows", COMBINE_SMALLER, 0, NULL, &nat_max_rows},
	{"neon_ai_tools.max_response_bytes", COMBINE_SMALLER, GUC_UNIT_BYTE, NULL, &nat_max_response_bytes},
	{"neon_ai_tools.timeout", COMBINE_SMALLER, GUC_UNIT_MS, NULL, &nat_timeout_ms},
	{"neon_ai_tools.max_timeout", COMBINE_SMALLER, GUC_UNIT_MS, NULL, &nat_max_timeout_ms},
	{"neon_ai_tools.lock_timeout", COMBINE_SMALLER_NONZERO, GUC_UNIT_MS, NULL, &nat_lock_timeout_ms},
	{"neon_ai_tools.max_affected_rows", COMBINE_SMALLER, 0, NULL, &nat_max_affected_rows},
	{"neon_ai_tools.require_ssl", COMBINE_LATER_OPTION, 0, nat_require_ssl_options, &nat_require_ssl},
	{"neon_ai_tools.audit", COMBINE_LATER_OPTION, 0, nat_audit_options, &nat_audit},
	{"neon_ai_tools.audit_log_client", COMBINE_ON_WINS, 0, NULL, &nat_audit_log_client},
	{"neon_ai_tools.read_only_allowed_functions", COMBINE_FUNCTIONS, 0, NULL, &nat_read_only_allowed_functions},
	{"neon_ai_tools.max_tool_calls", COMBINE_SMALLER, 0, NULL, &nat_max_tool_calls},
	{"neon_ai_tools.run_timeout", COMBINE_SMALLER_NONZERO, GUC_UNIT_MS, NULL, &nat_run_timeout_ms},
	{"neon_ai_tools.max_call_memory", COMBINE_SMALLER, GUC_UNIT_KB, NULL, &nat_max_call_memory_kb},
	{"neon_ai_tools.confirmation", COMBINE_LATER_OPTION, 0, nat_confirmation_options, &nat_confirmation},
	{"neon_ai_tools.confirmation_timeout", COMBINE_SMALLER, GUC_UNIT_MS, NULL, &nat_confirmation_timeout_ms},
	{"neon_ai_tools.confirmation_min_rows", COMBINE_SMALLER, 0, NULL, &nat_confirmation_min_rows},
	{"neon_ai_tools.empty_result_hints", COMBINE_LATER_OPTION, 0, nat_empty_hints_options, &nat_empty_hints},
};

#define NUM_POLICY_SETTINGS lengthof(policy_settings)

/* a role's value of one setting */
typedef struct RoleValue
{
	bool		set;			/* the role's rows give one */
	int			number;			/* a bool's, an integer's or an enum's */
	char	   *text;			/* a list's, in TopMemoryContext */
} RoleValue;

/* a role's policy, as cached */
typedef struct RolePolicy
{
	Oid			roleid;			/* InvalidOid: a free slot */
	bool		reusable;		/* read outside a transaction with an XID */
	uint64		inval_count;	/* SharedInvalidMessageCounter before reading */
	bool		any;			/* some value is set */
	RoleValue	values[NUM_POLICY_SETTINGS];
} RolePolicy;

/* a few roles: a pooled connection serves several agents' roles in turn */
#define ROLE_POLICY_CACHE_SIZE 16

static RolePolicy role_policies[ROLE_POLICY_CACHE_SIZE];
static int	next_slot = 0;

static void apply_role_policy(Oid roleid, int *nest);
static RolePolicy *role_policy(Oid roleid);
static void read_role_policy(Oid roleid, RolePolicy *policy);
static bool note_role_value(const char *name, const char *value, void *arg);
static void parse_role_value(const PolicySetting *setting, const char *stored,
							 RoleValue *value);
static void free_role_policy(RolePolicy *policy);
static char *combined_value(const PolicySetting *setting, const RoleValue *role);
static char *both_tools(const char *session, const char *role);
static char *both_functions(const char *session, const char *role);
static void role_policy_context(void *arg);

/*
 * Apply, for one call, the policy of the roles the call runs as that did
 * not log in: the session user after SET SESSION AUTHORIZATION (as if it
 * had logged in), then the current user.  Returns the GUC nest level to
 * give nat_role_policy_end() when the call ends, or 0 when nothing was
 * applied.
 */
int
nat_role_policy_begin(void)
{
	Oid			authenticated = GetAuthenticatedUserId();
	Oid			session = GetSessionUserId();
	Oid			current = GetUserId();
	int			nest = 0;

	if (current == authenticated && session == authenticated)
		return 0;
	if (session != authenticated)
		apply_role_policy(session, &nest);
	if (current != authenticated && current != session)
		apply_role_policy(current, &nest);
	return nest;
}

/*
 * Combine roleid's values with the values in force, in a GUC nest level
 * made on first need (*nest, 0 until then).
 */
static void
apply_role_policy(Oid roleid, int *nest)
{
	RolePolicy *policy = role_policy(roleid);
	int			i;

	if (!policy->any)
		return;
	if (*nest == 0)
		*nest = NewGUCNestLevel();
	for (i = 0; i < NUM_POLICY_SETTINGS; i++)
	{
		char	   *value;

		if (!policy->values[i].set)
			continue;
		value = combined_value(&policy_settings[i], &policy->values[i]);
		/* the function-SET action: undone when the nest level is popped */
		if (value != NULL)
			(void) set_config_option(policy_settings[i].name, value,
									 PGC_SUSET, PGC_S_SESSION,
									 GUC_ACTION_SAVE, true, ERROR, false);
	}
}

/*
 * Put the session's policy back after a call; nest is what
 * nat_role_policy_begin() returned.
 */
void
nat_role_policy_end(int nest)
{
	if (nest > 0)
		AtEOXact_GUC(false, nest);
}

/*
 * The policy of roleid: the cached one while no invalidation message has
 * arrived since it was read, else read again.
 */
static RolePolicy *
role_policy(Oid roleid)
{
	RolePolicy *slot = NULL;
	RolePolicy	fresh;
	bool		reusable;
	int			i;

	AcceptInvalidationMessages();
	reusable = !TransactionIdIsValid(GetTopTransactionIdIfAny());
	for (i = 0; i < ROLE_POLICY_CACHE_SIZE && slot == NULL; i++)
	{
		if (role_policies[i].roleid == roleid)
			slot = &role_policies[i];
	}
	if (slot != NULL && reusable && slot->reusable &&
		slot->inval_count == SharedInvalidMessageCounter)
		return slot;
	if (slot == NULL)
	{
		slot = &role_policies[next_slot];
		next_slot = (next_slot + 1) % ROLE_POLICY_CACHE_SIZE;
	}

	/* read into fresh first: an ERROR leaves the cache as it was */
	memset(&fresh, 0, sizeof(fresh));
	fresh.inval_count = SharedInvalidMessageCounter;
	fresh.reusable = reusable;
	read_role_policy(roleid, &fresh);
	free_role_policy(slot);
	*slot = fresh;
	slot->roleid = roleid;
	return slot;
}

/*
 * Read and check the role's values: the role-in-database row, then the
 * role's own row, whose values count only where the first row has none.
 */
static void
read_role_policy(Oid roleid, RolePolicy *policy)
{
	const char *texts[NUM_POLICY_SETTINGS] = {0};
	ErrorContextCallback errcallback;
	Relation	rel;
	Snapshot	snapshot;
	int			i;

	rel = table_open(DbRoleSettingRelationId, AccessShareLock);
	snapshot = RegisterSnapshot(GetCatalogSnapshot(DbRoleSettingRelationId));
	(void) nat_db_role_setting_scan(rel, snapshot, MyDatabaseId, roleid,
									note_role_value, texts);
	(void) nat_db_role_setting_scan(rel, snapshot, InvalidOid, roleid,
									note_role_value, texts);
	UnregisterSnapshot(snapshot);
	table_close(rel, AccessShareLock);

	errcallback.callback = role_policy_context;
	errcallback.arg = NULL;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	PG_TRY();
	{
		for (i = 0; i < NUM_POLICY_SETTINGS; i++)
		{
			if (texts[i] == NULL)
				continue;
			parse_role_value(&policy_settings[i], texts[i], &policy->values[i]);
			policy->any = true;
		}
	}
	PG_CATCH();
	{
		free_role_policy(policy);
		PG_RE_THROW();
	}
	PG_END_TRY();
	error_context_stack = errcallback.previous;
}

/*
 * nat_db_role_setting_scan()'s callback: note the value of one of our
 * settings, unless a row read before gave one.
 */
static bool
note_role_value(const char *name, const char *value, void *arg)
{
	const char **texts = (const char **) arg;
	int			i;

	for (i = 0; i < NUM_POLICY_SETTINGS; i++)
	{
		if (pg_strcasecmp(name, policy_settings[i].name) == 0)
		{
			if (texts[i] == NULL && value != NULL)
				texts[i] = pstrdup(value);
			break;
		}
	}
	return true;
}

/*
 * Check a role's value as SET would (an ERROR if it is not valid), then
 * keep it in the form the combination compares.
 */
static void
parse_role_value(const PolicySetting *setting, const char *stored,
				 RoleValue *value)
{
	const struct config_enum_entry *option;
	bool		on;

	(void) set_config_option(setting->name, stored, PGC_SUSET, PGC_S_SESSION,
							 GUC_ACTION_SET, false, ERROR, false);
	switch (setting->rule)
	{
		case COMBINE_ON_WINS:
			if (parse_bool(stored, &on))
				value->number = on;
			break;
		case COMBINE_SMALLER:
		case COMBINE_SMALLER_NONZERO:
			(void) parse_int(stored, &value->number, setting->unit, NULL);
			break;
		case COMBINE_LATER_OPTION:
			for (option = setting->options; option->name != NULL; option++)
			{
				if (pg_strcasecmp(stored, option->name) == 0)
					value->number = option->val;
			}
			break;
		case COMBINE_TOOLS:
		case COMBINE_FUNCTIONS:
			value->text = MemoryContextStrdup(TopMemoryContext, stored);
			break;
	}
	value->set = true;
}

/*
 * Free what a policy holds outside it.
 */
static void
free_role_policy(RolePolicy *policy)
{
	int			i;

	for (i = 0; i < NUM_POLICY_SETTINGS; i++)
	{
		if (policy->values[i].text !=NULL)
			pfree(policy->values[i].text);
		policy->values[i].text = NULL;
	}
}

/*
 * The value a setting takes for the call: the stricter of the session's
 * (its C variable) and the role's, or NULL when it is the session's.
 */
static char *
combined_value(const PolicySetting *setting, const RoleValue *role)
{
	int			session;
	const struct config_enum_entry *option;

	switch (setting->rule)
	{
		case COMBINE_ON_WINS:
			return (!*(bool *) setting->variable && role->number) ?
				pstrdup("on") : NULL;
		case COMBINE_SMALLER:
			session = *(int *) setting->variable;
			return role->number < session ?
				psprintf("%d", role->number) : NULL;
		case COMBINE_SMALLER_NONZERO:
			session = *(int *) setting->variable;
			return (role->number != 0 &&
					(session == 0 || role->number < session)) ?
				psprintf("%d", role->number) : NULL;
		case COMBINE_LATER_OPTION:
			session = *(int *) setting->variable;
			if (role->number <= session)
				return NULL;
			for (option = setting->options; option->name != NULL; option++)
			{
				if (option->val == role->number)
					return pstrdup(option->name);
			}
			return NULL;
		case COMBINE_TOOLS:
			return both_tools(*(char **) setting->variable, role->text);
		case COMBINE_FUNCTIONS:
			return both_functions(*(char **) setting->variable, role->text);
	}
	return NULL;
}

/*
 * enabled_tools: the tools of the session's list that the role's list has
 * too, or NULL if that is all of the session's.  "*" anywhere in a list
 * is every tool, as in nat_tool_enabled().  A list that does not parse
 * (the check hook refused those) counts as no tools.
 */
static char *
both_tools(const char *session, const char *role)
{
	char	   *mine = pstrdup(session ? session : "*");
	char	   *theirs = pstrdup(role);
	List	   *my_names;
	List	   *their_names;
	StringInfoData buf;
	ListCell   *lc;
	ListCell   *lc2;

	if (!SplitIdentifierString(mine, ',', &my_names))
		my_names = NIL;
	if (!SplitIdentifierString(theirs, ',', &their_names))
		return pstrdup("");
	foreach(lc, their_names)
	{
		if (strcmp((char *) lfirst(lc), "*") == 0)
			return NULL;
	}
	foreach(lc, my_names)
	{
		if (strcmp((char *) lfirst(lc), "*") == 0)
			return pstrdup(role);
	}

	initStringInfo(&buf);
	foreach(lc, my_names)
	{
		foreach(lc2, their_names)
		{
			if (strcmp((char *) lfirst(lc), (char *) lfirst(lc2)) == 0)
			{
				appendStringInfo(&buf, "%s%s", buf.len > 0 ? "," : "",
								 quote_identifier((char *) lfirst(lc)));
				break;
			}
		}
	}
	return buf.data;
}

/*
 * read_only_allowed_functions: the entries of the session's list whose
 * function (schema and name, as call_guard.c reads them) the role's list
 * names too, or NULL if that is all of them.  Entries are written back
 * double-quoted, which SplitGUCList() takes off again.
 */
static char *
both_functions(const char *session, const char *role)
{
	char	   *mine = pstrdup(session ? session : "");
	char	   *theirs = pstrdup(role);
	List	   *my_items;
	List	   *their_items;
	StringInfoData buf;
	ListCell   *lc;
	ListCell   *lc2;
	int			kept = 0;

	if (!SplitGUCList(mine, ',', &my_items) ||
		!SplitGUCList(theirs, ',', &their_items))
		return pstrdup("");

	initStringInfo(&buf);
	foreach(lc, my_items)
	{
		char	   *schema;
		char	   *name;

		if (!nat_split_allowed_function((char *) lfirst(lc), &schema, &name))
			continue;
		foreach(lc2, their_items)
		{
			char	   *schema2;
			char	   *name2;

			if (nat_split_allowed_function((char *) lfirst(lc2), &schema2, &name2) &&
				strcmp(schema, schema2) == 0 && strcmp(name, name2) == 0)
			{
				const char *p;

				appendStringInfoString(&buf, kept++ > 0 ? ", \"" : "\"");
				for (p = (char *) lfirst(lc); *p; p++)
				{
					if (*p == '"')
						appendStringInfoChar(&buf, '"');
					appendStringInfoChar(&buf, *p);
				}
				appendStringInfoChar(&buf, '"');
				break;
			}
		}
	}
	return kept == list_length(my_items) ? NULL : buf.data;
}

/*
 * Context of an error in the current role's values.
 */
static void
role_policy_context(void *arg)
{
	errcontext("neon_ai_tools settings of the current role (ALTER ROLE ... SET)");
}
