/*-------------------------------------------------------------------------
 *
 * setting_guard.c
 *		  Settings a tool call may not change (its identity) or raise (its
 *		  resource use), however it tries.
 *
 * A setting changes through many doors: SET and SET LOCAL at any level,
 * set_config() (a function whose arguments are only Datums when it runs),
 * a function's own SET clause (applied by fmgr_security_definer() for any
 * function that has one), a column DEFAULT or CHECK that calls set_config(),
 * RESET and SET ... TO DEFAULT.  All of them end in set_config_option(),
 * which asks the setting's check hook about every new value.  So, once per
 * backend, the check hooks of the settings below are wrapped: while a call
 * runs (call_guard.c says so) the wrapper refuses the value, with
 * PostgreSQL's own error path for a refused value, before the original
 * hook is asked.  Outside calls the wrapper only passes the value on.
 *
 *	 - role, session_authorization: never, to any value.  PostgreSQL checks a
 *	   role change against the session user, so code run by an agent of an
 *	   authenticator (neon-ai-tools-mcp, or any SQL client that does SET
 *	   ROLE and then calls a tool) could otherwise become any role granted
 *	   to the authenticator.  SECURITY DEFINER functions still work: they
 *	   change the current user through the function manager, not through
 *	   these settings.
 *	 - settings that multiply a call's memory or time: never raised above
 *	   the value in force (lowering is fine).  max_call_memory is the wall
 *	   behind them (call_memory.c); refusing the raise keeps a call from
 *	   needing it.
 *
 * Values restored when a nest level, a function or a subtransaction ends
 * are not checked (AtEOXact_GUC() calls no check hook), and neither is a
 * parallel worker taking its leader's values as it starts.  Core's GUC
 * records are written to once, at load; 19 moved each type's fields into a
 * union inside config_generic (compat.h bridges it).
 *
 * IDENTIFICATION
 *		  src/core/setting_guard.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "neon_ai_tools.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"

typedef enum SettingRule
{
	SETTING_FIXED,				/* no change at all: the call's identity */
	SETTING_NO_RAISE,			/* lowered only */
	SETTING_NO_DISABLE,			/* a bool whose off costs more (geqo) */
	SETTING_NO_ENABLE			/* a bool whose on costs more (jit) */
} SettingRule;

typedef struct GuardedSetting
{
	const char *name;
	SettingRule rule;
	int			unlimited;		/* NO_RAISE int: the value meaning "no limit"
								 * (larger than any), or INT_MIN for none */
	struct config_generic *var; /* found at load; NULL if absent */
	void	   *original;		/* the setting's own check hook */
} GuardedSetting;

/*
 * The settings, in the order of the wrappers below (each wrapper knows its
 * index: a check hook is not told which setting it checks).
 */
static GuardedSetting guarded[] = {
	{"role", SETTING_FIXED, INT_MIN},
	{"session_authorization", SETTING_FIXED, INT_MIN},
	{"work_mem", SETTING_NO_RAISE, INT_MIN},
	{"maintenance_work_mem", SETTING_NO_RAISE, INT_MIN},
	{"logical_decoding_work_mem", SETTING_NO_RAISE, INT_MIN},
	{"temp_buffers", SETTING_NO_RAISE, INT_MIN},
	{"hash_mem_multiplier", SETTING_NO_RAISE, INT_MIN},
	{"join_collapse_limit", SETTING_NO_RAISE, INT_MIN},
	{"from_collapse_limit", SETTING_NO_RAISE, INT_MIN},
	{"geqo", SETTING_NO_DISABLE, INT_MIN},
	{"geqo_threshold", SETTING_NO_RAISE, INT_MIN},
	{"geqo_effort", SETTING_NO_RAISE, INT_MIN},
	{"geqo_pool_size", SETTING_NO_RAISE, INT_MIN},
	{"geqo_generations", SETTING_NO_RAISE, INT_MIN},
	{"max_parallel_workers_per_gather", SETTING_NO_RAISE, INT_MIN},
	{"max_parallel_workers", SETTING_NO_RAISE, INT_MIN},
	{"max_parallel_maintenance_workers", SETTING_NO_RAISE, INT_MIN},
	{"temp_file_limit", SETTING_NO_RAISE, -1},
	{"lock_timeout", SETTING_NO_RAISE, 0},
	{"max_stack_depth", SETTING_NO_RAISE, INT_MIN},
	{"jit", SETTING_NO_ENABLE, INT_MIN},
};

/* is the backend in a tool call whose settings are guarded? */
static bool
guarding(void)
{
	return nat_guard_active() && !InitializingParallelWorker;
}

static bool
refuse_change(const GuardedSetting *s)
{
	GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
	GUC_check_errmsg("parameter \"%s\" cannot be changed during a tool call", s->name);
	GUC_check_errdetail("A tool call runs as the role that started it, from its start to its end, at every level.");
	GUC_check_errhint("Grant the rights the call needs to that role, or use a SECURITY DEFINER function.");
	return false;
}

static bool
refuse_raise(const GuardedSetting *s)
{
	GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
	GUC_check_errmsg("parameter \"%s\" cannot be raised during a tool call", s->name);
	GUC_check_errdetail("It bounds the memory or time a tool call may use; a call may lower it, never raise it.");
	GUC_check_errhint("Ask the database administrator to raise it for the role, outside tool calls.");
	return false;
}

/* is new above current, for an integer whose "no limit" is unlimited? */
static bool
int_raises(const GuardedSetting *s, int newval, int current)
{
	if (s->unlimited != INT_MIN)
	{
		if (current == s->unlimited)
			return false;
		if (newval == s->unlimited)
			return true;
	}
	return newval > current;
}

static bool
check_int(int i, int *newval, void **extra, GucSource source)
{
	GuardedSetting *s = &guarded[i];
	struct config_int *conf = NAT_GUC_INT(s->var);
	GucIntCheckHook original = (GucIntCheckHook) s->original;

	if (guarding() && int_raises(s, *newval, *conf->variable))
		return refuse_raise(s);
	return original == NULL || original(newval, extra, source);
}

static bool
check_real(int i, double *newval, void **extra, GucSource source)
{
	GuardedSetting *s = &guarded[i];
	struct config_real *conf = NAT_GUC_REAL(s->var);
	GucRealCheckHook original = (GucRealCheckHook) s->original;

	if (guarding() && *newval > *conf->variable)
		return refuse_raise(s);
	return original == NULL || original(newval, extra, source);
}

static bool
check_bool(int i, bool *newval, void **extra, GucSource source)
{
	GuardedSetting *s = &guarded[i];
	struct config_bool *conf = NAT_GUC_BOOL(s->var);
	GucBoolCheckHook original = (GucBoolCheckHook) s->original;

	if (guarding() && s->rule == SETTING_NO_ENABLE && !*conf->variable && *newval)
	{
		/* jit: LLVM and its compiling do not fit a call's memory cap */
		GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
		GUC_check_errmsg("parameter \"%s\" cannot be turned on during a tool call", s->name);
		GUC_check_errdetail("A tool call runs without JIT compilation, whose memory does not fit the call's neon_ai_tools.max_call_memory.");
		return false;
	}
	if (guarding() && s->rule == SETTING_NO_DISABLE && *conf->variable && !*newval)
	{
		/* geqo: off searches every join order, in memory that grows fast */
		GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
		GUC_check_errmsg("parameter \"%s\" cannot be turned off during a tool call", s->name);
		GUC_check_errdetail("Turning it off lets the planner use much more memory and time; a tool call may not.");
		return false;
	}
	return original == NULL || original(newval, extra, source);
}

static bool
check_string(int i, char **newval, void **extra, GucSource source)
{
	GucStringCheckHook original = (GucStringCheckHook) guarded[i].original;

	if (guarding())
		return refuse_change(&guarded[i]);
	return original == NULL || original(newval, extra, source);
}

#define WRAP(i, type, fn) \
	static bool wrap_##i(type *newval, void **extra, GucSource source) \
	{ return fn(i, newval, extra, source); }

WRAP(0, char *, check_string)
WRAP(1, char *, check_string)
WRAP(2, int, check_int)
WRAP(3, int, check_int)
WRAP(4, int, check_int)
WRAP(5, int, check_int)
WRAP(6, double, check_real)
WRAP(7, int, check_int)
WRAP(8, int, check_int)
WRAP(9, bool, check_bool)
WRAP(10, int, check_int)
WRAP(11, int, check_int)
WRAP(12, int, check_int)
WRAP(13, int, check_int)
WRAP(14, int, check_int)
WRAP(15, int, check_int)
WRAP(16, int, check_int)
WRAP(17, int, check_int)
WRAP(18, int, check_int)
WRAP(19, int, check_int)
WRAP(20, bool, check_bool)

static void *const wrappers[] = {
	wrap_0, wrap_1, wrap_2, wrap_3, wrap_4, wrap_5, wrap_6, wrap_7, wrap_8,
	wrap_9, wrap_10, wrap_11, wrap_12, wrap_13, wrap_14, wrap_15, wrap_16,
	wrap_17, wrap_18, wrap_19, wrap_20,
};

StaticAssertDecl(lengthof(wrappers) == lengthof(guarded),
				 "one check-hook wrapper per guarded setting");

/*
 * Put the wrapper in front of one setting's check hook, if the setting is
 * of the type its rule expects (a version that changed it is left alone,
 * and the Assert says so in a development build).
 */
static void
wrap_setting(int i, struct config_generic *var)
{
	GuardedSetting *s = &guarded[i];
	enum config_type expected;

	switch (i)
	{
		case 0:
		case 1:
			expected = PGC_STRING;
			break;
		case 6:
			expected = PGC_REAL;
			break;
		case 9:
		case 20:
			expected = PGC_BOOL;
			break;
		default:
			expected = PGC_INT;
			break;
	}
	Assert(var->vartype == expected);
	if (var->vartype != expected)
		return;
	s->var = var;
	switch (expected)
	{
		case PGC_STRING:
			s->original = (void *) NAT_GUC_STRING(var)->check_hook;
			NAT_GUC_STRING(var)->check_hook = (GucStringCheckHook) wrappers[i];
			break;
		case PGC_REAL:
			s->original = (void *) NAT_GUC_REAL(var)->check_hook;
			NAT_GUC_REAL(var)->check_hook = (GucRealCheckHook) wrappers[i];
			break;
		case PGC_BOOL:
			s->original = (void *) NAT_GUC_BOOL(var)->check_hook;
			NAT_GUC_BOOL(var)->check_hook = (GucBoolCheckHook) wrappers[i];
			break;
		default:
			s->original = (void *) NAT_GUC_INT(var)->check_hook;
			NAT_GUC_INT(var)->check_hook = (GucIntCheckHook) wrappers[i];
			break;
	}
}

/*
 * At load: wrap the check hooks (once per backend: a library is loaded
 * once).
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
