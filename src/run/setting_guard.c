/*-------------------------------------------------------------------------
 *
 * setting_guard.c
 *		  Settings a tool call may not change (its identity, its read-only
 *		  mode) or raise (its resource use), however it tries.
 *
 * A setting changes through many doors: SET and SET LOCAL at any level,
 * set_config() (a function whose arguments are only Datums when it runs),
 * a function's own SET clause (applied by fmgr_security_definer() for any
 * function that has one), a column DEFAULT or CHECK that calls
 * set_config(), RESET, SET ... TO DEFAULT and set_config(name, NULL, ...).
 * All of them end in set_config_option().  A new value is shown to the
 * setting's check hook, but a reset is not (the reset value was checked
 * once, when it was set); every change, resets included, is shown to the
 * assign hook before the variable changes.  So, once per backend, both
 * hooks of the settings below are wrapped, and while a call runs (call_guard.c
 * says so) the wrappers refuse:
 *
 *	 - the check hook's wrapper: a new value, with PostgreSQL's own error path
 *	   for a refused value (a clear message);
 *	 - the assign hook's wrapper: any change the check hook did not see,
 *	   with an ERROR before the original hook runs and before the variable
 *	   changes, so that nothing has changed and the subtransaction's abort
 *	   has nothing to put back.  A value put back when a nest level, a
 *	   function or a subtransaction ends is one the call started with or
 *	   was allowed to set, so it passes.
 *
 * The rules:
 *
 *	 - role, session_authorization: never changed, to any value.
 *	   PostgreSQL checks a role change against the session user, so code
 *	   run by an agent of an authenticator (neon-ai-tools-mcp, or any SQL
 *	   client that does SET ROLE and then calls a tool) could otherwise
 *	   become any role granted to the authenticator.  SECURITY DEFINER
 *	   functions still work: they change the current user through the
 *	   function manager, not through these settings.
 *	 - transaction_read_only: never turned off in a read-only call.
 *	 - settings that multiply a call's memory or time: never above the value
 *	   the call started with (lowering is fine; the check hook, for a clear
 *	   message, refuses any raise above the current value).  max_call_memory
 *	   is the wall behind them (call_memory.c).
 *	 - geqo: never turned off; jit: never turned on (execute.c turns it off
 *	   for the call: LLVM and its compiling do not fit the memory cap).
 *	 - in a call carried to Citus workers (citus_calls.c): citus.function_
 *	   opens_transaction_block and citus.select_opens_transaction_block,
 *	   which keep the shard queries in the worker transactions that hold the
 *	   call's settings, never turned off; citus.max_adaptive_
 *	   executor_pool_size, the connections it opens per worker, never raised.
 *
 * A parallel worker taking its leader's values as it starts is not
 * checked.  Core's GUC records are written to once, at load; 19 moved each
 * type's fields into a union inside config_generic (compat.h bridges it).
 *
 * IDENTIFICATION
 *		  src/core/setting_guard.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "run/run.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"

typedef enum SettingRule
{
	SETTING_FIXED,				/* no change at all: the call's identity */
	SETTING_READ_ONLY,			/* not turned off in a read-only call */
	SETTING_NO_RAISE,			/* lowered only */
	SETTING_NO_DISABLE,			/* a bool whose off costs more (geqo) */
	SETTING_NO_ENABLE,			/* a bool whose on costs more (jit) */
	SETTING_CITUS_KEEP_ON		/* a bool the call's Citus propagation needs */
} SettingRule;

typedef struct GuardedSetting
{
	const char *name;
	SettingRule rule;
	enum config_type type;
	int			unlimited;		/* NO_RAISE int: the value meaning "no limit"
								 * (larger than any), or INT_MIN for none */
	bool		citus_only;		/* guarded only in a call carried to Citus
								 * workers (citus_calls.c) */
	struct config_generic *var; /* found at load; NULL if absent */
	void	   *check;			/* the setting's own check hook */
	void	   *assign;			/* the setting's own assign hook */
	int			start_int;		/* the value when the call started */
	double		start_real;
	bool		start_bool;
} GuardedSetting;

/*
 * The settings, in the order of the wrappers below (each wrapper knows its
 * index: a hook is not told which setting it serves).
 */
static GuardedSetting guarded[] = {
	{"role", SETTING_FIXED, PGC_STRING, INT_MIN},
	{"session_authorization", SETTING_FIXED, PGC_STRING, INT_MIN},
	{"work_mem", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"maintenance_work_mem", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"logical_decoding_work_mem", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"temp_buffers", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"hash_mem_multiplier", SETTING_NO_RAISE, PGC_REAL, INT_MIN},
	{"join_collapse_limit", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"from_collapse_limit", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"geqo", SETTING_NO_DISABLE, PGC_BOOL, INT_MIN},
	{"geqo_threshold", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"geqo_effort", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"geqo_pool_size", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"geqo_generations", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"max_parallel_workers_per_gather", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"max_parallel_workers", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"max_parallel_maintenance_workers", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"temp_file_limit", SETTING_NO_RAISE, PGC_INT, -1},
	{"lock_timeout", SETTING_NO_RAISE, PGC_INT, 0},
	{"max_stack_depth", SETTING_NO_RAISE, PGC_INT, INT_MIN},
	{"jit", SETTING_NO_ENABLE, PGC_BOOL, INT_MIN},
	{"transaction_read_only", SETTING_READ_ONLY, PGC_BOOL, INT_MIN},
	{"citus.function_opens_transaction_block", SETTING_CITUS_KEEP_ON, PGC_BOOL, INT_MIN, true},
	{"citus.select_opens_transaction_block", SETTING_CITUS_KEEP_ON, PGC_BOOL, INT_MIN, true},
	{"citus.max_adaptive_executor_pool_size", SETTING_NO_RAISE, PGC_INT, INT_MIN, true},
};

/* is the backend in a tool call whose settings are guarded? */
static bool
guarding(const GuardedSetting *s)
{
	return nat_guard_active() && !InitializingParallelWorker &&
		(!s->citus_only || nat_citus_call_active());
}

/* the message of each refusal: primary, detail */
static void
refusal(const GuardedSetting *s, const char **msg, const char **detail)
{
	switch (s->rule)
	{
		case SETTING_FIXED:
			*msg = "parameter \"%s\" cannot be changed during a tool call";
			*detail = "A tool call runs as the role that started it, from its start to its end, at every level.";
			break;
		case SETTING_READ_ONLY:
			*msg = "parameter \"%s\" cannot be turned off during a read-only tool call";
			*detail = "A read-only call stays read-only at every level.";
			break;
		case SETTING_NO_DISABLE:
			*msg = "parameter \"%s\" cannot be turned off during a tool call";
			*detail = "Turning it off lets the planner use much more memory and time; a tool call may not.";
			break;
		case SETTING_CITUS_KEEP_ON:
			*msg = "parameter \"%s\" cannot be turned off during a tool call";
			*detail = "The call's read-only mode and deadline reach the Citus workers only in the worker transactions it opens.";
			break;
		case SETTING_NO_ENABLE:
			*msg = "parameter \"%s\" cannot be turned on during a tool call";
			*detail = "A tool call runs without JIT compilation, whose memory does not fit the call's neon_ai_tools.max_call_memory.";
			break;
		default:
			*msg = "parameter \"%s\" cannot be raised during a tool call";
			*detail = "It bounds the memory or time a tool call may use; a call may lower it, never raise it.";
			break;
	}
}

/* from a check hook: PostgreSQL's refusal of a value */
static bool
refuse_value(const GuardedSetting *s)
{
	const char *msg;
	const char *detail;

	refusal(s, &msg, &detail);
	GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
	GUC_check_errmsg(msg, s->name);
	GUC_check_errdetail("%s", detail);
	return false;
}

/* from an assign hook: before anything changes */
static void
refuse_change(const GuardedSetting *s)
{
	const char *msg;
	const char *detail;

	refusal(s, &msg, &detail);
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg_internal(msg, s->name),
			 errdetail_internal("%s", detail)));
}

/* is new above old, for an integer whose "no limit" is unlimited? */
static bool
int_raises(const GuardedSetting *s, int newval, int old)
{
	if (s->unlimited != INT_MIN)
	{
		if (old == s->unlimited)
			return false;
		if (newval == s->unlimited)
			return true;
	}
	return newval > old;
}

/* would a bool setting's new value break its rule? */
static bool
bool_refused(const GuardedSetting *s, bool newval, bool old)
{
	switch (s->rule)
	{
		case SETTING_NO_DISABLE:
		case SETTING_CITUS_KEEP_ON:
			return old && !newval;
		case SETTING_NO_ENABLE:
			return newval && !old;
		case SETTING_READ_ONLY:
			return nat_guard_read_only() && !newval;
		default:
			return false;
	}
}

/* ---- check hooks: a new value, against the current one ---- */

static bool
check_int(int i, int *newval, void **extra, GucSource source)
{
	GuardedSetting *s = &guarded[i];
	GucIntCheckHook check = (GucIntCheckHook) s->check;

	if (guarding(s) && int_raises(s, *newval, *NAT_GUC_INT(s->var)->variable))
		return refuse_value(s);
	return check == NULL || check(newval, extra, source);
}

static bool
check_real(int i, double *newval, void **extra, GucSource source)
{
	GuardedSetting *s = &guarded[i];
	GucRealCheckHook check = (GucRealCheckHook) s->check;

	if (guarding(s) && *newval > *NAT_GUC_REAL(s->var)->variable)
		return refuse_value(s);
	return check == NULL || check(newval, extra, source);
}

static bool
check_bool(int i, bool *newval, void **extra, GucSource source)
{
	GuardedSetting *s = &guarded[i];
	GucBoolCheckHook check = (GucBoolCheckHook) s->check;

	if (guarding(s) && bool_refused(s, *newval, *NAT_GUC_BOOL(s->var)->variable))
		return refuse_value(s);
	return check == NULL || check(newval, extra, source);
}

static bool
check_string(int i, char **newval, void **extra, GucSource source)
{
	GucStringCheckHook check = (GucStringCheckHook) guarded[i].check;

	if (guarding(&guarded[i]))
		return refuse_value(&guarded[i]);
	return check == NULL || check(newval, extra, source);
}

/* ---- assign hooks: every change, resets included, against the start ---- */

static void
assign_int(int i, int newval, void *extra)
{
	GuardedSetting *s = &guarded[i];
	GucIntAssignHook assign = (GucIntAssignHook) s->assign;

	if (guarding(s) && int_raises(s, newval, s->start_int))
		refuse_change(s);
	if (assign)
		assign(newval, extra);
}

static void
assign_real(int i, double newval, void *extra)
{
	GuardedSetting *s = &guarded[i];
	GucRealAssignHook assign = (GucRealAssignHook) s->assign;

	if (guarding(s) && newval > s->start_real)
		refuse_change(s);
	if (assign)
		assign(newval, extra);
}

static void
assign_bool(int i, bool newval, void *extra)
{
	GuardedSetting *s = &guarded[i];
	GucBoolAssignHook assign = (GucBoolAssignHook) s->assign;

	if (guarding(s) && bool_refused(s, newval, s->start_bool))
		refuse_change(s);
	if (assign)
		assign(newval, extra);
}

/*
 * role, session_authorization: the value may only be the one in force (a
 * level put back to what it was); the string is compared, so nothing of the
 * original hook (which switches the role) has run when a change is refused.
 */
static void
assign_string(int i, const char *newval, void *extra)
{
	GuardedSetting *s = &guarded[i];
	GucStringAssignHook assign = (GucStringAssignHook) s->assign;
	char	   *current = *NAT_GUC_STRING(s->var)->variable;

	if (guarding(s) &&
		(newval == NULL || current == NULL || strcmp(newval, current) != 0))
		refuse_change(s);
	if (assign)
		assign(newval, extra);
}

#define WRAP(i, type, check_fn, assign_fn) \
	static bool check_##i(type *newval, void **extra, GucSource source) \
	{ return check_fn(i, newval, extra, source); } \
	static void assign_##i(type newval, void *extra) \
	{ assign_fn(i, newval, extra); }

WRAP(0, char *, check_string, assign_string)
WRAP(1, char *, check_string, assign_string)
WRAP(2, int, check_int, assign_int)
WRAP(3, int, check_int, assign_int)
WRAP(4, int, check_int, assign_int)
WRAP(5, int, check_int, assign_int)
WRAP(6, double, check_real, assign_real)
WRAP(7, int, check_int, assign_int)
WRAP(8, int, check_int, assign_int)
WRAP(9, bool, check_bool, assign_bool)
WRAP(10, int, check_int, assign_int)
WRAP(11, int, check_int, assign_int)
WRAP(12, int, check_int, assign_int)
WRAP(13, int, check_int, assign_int)
WRAP(14, int, check_int, assign_int)
WRAP(15, int, check_int, assign_int)
WRAP(16, int, check_int, assign_int)
WRAP(17, int, check_int, assign_int)
WRAP(18, int, check_int, assign_int)
WRAP(19, int, check_int, assign_int)
WRAP(20, bool, check_bool, assign_bool)
WRAP(21, bool, check_bool, assign_bool)
WRAP(22, bool, check_bool, assign_bool)
WRAP(23, bool, check_bool, assign_bool)
WRAP(24, int, check_int, assign_int)

static void *const check_wrappers[] = {
	check_0, check_1, check_2, check_3, check_4, check_5, check_6, check_7,
	check_8, check_9, check_10, check_11, check_12, check_13, check_14,
	check_15, check_16, check_17, check_18, check_19, check_20, check_21,
	check_22, check_23, check_24,
};

static void *const assign_wrappers[] = {
	assign_0, assign_1, assign_2, assign_3, assign_4, assign_5, assign_6,
	assign_7, assign_8, assign_9, assign_10, assign_11, assign_12, assign_13,
	assign_14, assign_15, assign_16, assign_17, assign_18, assign_19,
	assign_20, assign_21, assign_22, assign_23,
	assign_24,
};

StaticAssertDecl(lengthof(check_wrappers) == lengthof(guarded) &&
				 lengthof(assign_wrappers) == lengthof(guarded),
				 "one pair of hook wrappers per guarded setting");

/*
 * Put the wrappers in front of one setting's hooks, if the setting is of
 * the type the table expects (a version that changed it is left alone, and
 * the Assert says so in a development build).
 */
static void
wrap_setting(int i, struct config_generic *var)
{
	GuardedSetting *s = &guarded[i];

	Assert(var->vartype == s->type);
	if (var->vartype != s->type)
		return;
	s->var = var;
	switch (s->type)
	{
		case PGC_STRING:
			s->check = (void *) NAT_GUC_STRING(var)->check_hook;
			s->assign = (void *) NAT_GUC_STRING(var)->assign_hook;
			NAT_GUC_STRING(var)->check_hook = (GucStringCheckHook) check_wrappers[i];
			NAT_GUC_STRING(var)->assign_hook = (GucStringAssignHook) assign_wrappers[i];
			break;
		case PGC_REAL:
			s->check = (void *) NAT_GUC_REAL(var)->check_hook;
			s->assign = (void *) NAT_GUC_REAL(var)->assign_hook;
			NAT_GUC_REAL(var)->check_hook = (GucRealCheckHook) check_wrappers[i];
			NAT_GUC_REAL(var)->assign_hook = (GucRealAssignHook) assign_wrappers[i];
			break;
		case PGC_BOOL:
			s->check = (void *) NAT_GUC_BOOL(var)->check_hook;
			s->assign = (void *) NAT_GUC_BOOL(var)->assign_hook;
			NAT_GUC_BOOL(var)->check_hook = (GucBoolCheckHook) check_wrappers[i];
			NAT_GUC_BOOL(var)->assign_hook = (GucBoolAssignHook) assign_wrappers[i];
			break;
		default:
			s->check = (void *) NAT_GUC_INT(var)->check_hook;
			s->assign = (void *) NAT_GUC_INT(var)->assign_hook;
			NAT_GUC_INT(var)->check_hook = (GucIntCheckHook) check_wrappers[i];
			NAT_GUC_INT(var)->assign_hook = (GucIntAssignHook) assign_wrappers[i];
			break;
	}
}

/*
 * At load: wrap the hooks (once per backend: a library is loaded once).
 * Called again when a call is first carried to Citus workers, for Citus's
 * settings when Citus was loaded after this library; a setting already
 * wrapped is left alone.
 */
void
nat_setting_guard_install(void)
{
	struct config_generic **vars;
	int			nvars;
	int			i;
	int			j;

	vars = nat_guc_variables(&nvars);
	for (i = 0; i < lengthof(guarded); i++)
	{
		if (guarded[i].var != NULL)
			continue;
		for (j = 0; j < nvars; j++)
		{
			if (strcmp(vars[j]->name, guarded[i].name) == 0)
			{
				wrap_setting(i, vars[j]);
				break;
			}
		}
	}
}

/*
 * A call starts (its own settings applied: jit off, read-only): note the
 * values the assign hooks hold it to.
 */
void
nat_setting_guard_begin(void)
{
	int			i;

	for (i = 0; i < lengthof(guarded); i++)
	{
		GuardedSetting *s = &guarded[i];

		if (s->var == NULL)
			continue;
		switch (s->type)
		{
			case PGC_INT:
				s->start_int = *NAT_GUC_INT(s->var)->variable;
				break;
			case PGC_REAL:
				s->start_real = *NAT_GUC_REAL(s->var)->variable;
				break;
			case PGC_BOOL:
				s->start_bool = *NAT_GUC_BOOL(s->var)->variable;
				break;
			default:
				break;
		}
	}
}
