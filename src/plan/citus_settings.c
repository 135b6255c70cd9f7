/*-------------------------------------------------------------------------
 *
 * citus_settings.c
 *		  Which of Citus's settings a tool call may change, when Citus is
 *		  loaded.
 *
 * Citus has some 130 settings, all in the "citus." namespace and most of
 * them settable by any role.  A few shape how Citus plans and executes one
 * query, and an agent needs them: Citus's own answer to a join of tables
 * that are not co-located is SET LOCAL citus.enable_repartition_joins = on.
 * The others decide how Citus keeps the cluster consistent and the call's
 * rules in force on every node: what it propagates to the workers (SET
 * commands, DDL, roles), which statements open a transaction block there,
 * its connections, its metadata, which tables are visible (shards), its
 * safety switches.  A call may change only the settings of the allow-list
 * below, at any level; all other Citus settings are refused:
 *
 *	 - SET LOCAL / RESET at any level (the agent's statement, a DO block, a
 *	   function): refused by name before it runs (call_guard.c's utility
 *	   hook);
 *	 - set_config() in any query the call plans: refused by name before it
 *	   runs, and a name that is not a constant is refused too (it could name
 *	   any setting), while Citus is loaded;
 *	 - a function whose SET clause names one (ALTER FUNCTION ... SET, or
 *	   CREATE FUNCTION ... SET in a writable call): refused before it runs,
 *	   unless the function is Citus's own (citus_shards_on_worker() sets
 *	   citus.show_shards_for_app_name_prefixes for itself);
 *	 - any other way (an expression the executor evaluates without the
 *	   planner, such as a CHECK constraint calling set_config()): the wall
 *	   behind, as for the role: every statement, plan and function the call
 *	   starts, and its end, compare each refused setting's stack of values
 *	   (guc.c pushes an entry on the first change in a transaction level)
 *	   with the one at the start of the call, and a call that changed one
 *	   fails and is rolled back.  Settings Citus changes itself while it
 *	   runs a statement (it turns local execution off, switches to
 *	   sequential mode, turns DDL propagation off around its own commands)
 *	   are left out of that comparison: the first three ways still refuse
 *	   them to the agent.
 *
 * The allowed settings, and why each cannot weaken what Citus or the call
 * guarantees (README, "Citus's settings in a call"):
 *
 *	 - enable_repartition_joins, enable_single_hash_repartition_joins: let
 *	   the planner repartition a join of tables that are not co-located,
 *	   through intermediate results on the workers that end with the
 *	   transaction; the same rows, in another plan; read-only calls stay
 *	   read-only (no table is written);
 *	 - local_table_join_policy: which side of a join between a local and a
 *	   distributed table Citus moves;
 *	 - explain_all_tasks, explain_analyze_sort_method: what EXPLAIN shows;
 *	 - max_adaptive_executor_pool_size, max_intermediate_result_size:
 *	   lowered only (fewer connections per node, a smaller result gathered
 *	   on the coordinator), as setting_guard.c holds work_mem;
 *	 - multi_shard_modify_mode: 'sequential' only (one connection per node,
 *	   which Citus's own hints ask for, and switches to itself).
 *
 * Not allowed, among others: enable_router_execution (a debugging switch
 * that only makes queries fail or take the multi-shard path), and
 * enable_local_execution (turned off, the coordinator runs its own shards'
 * queries over a loopback connection, in another backend, outside the
 * call's guard; Citus turns it off itself when it must, which is left
 * alone).  Without Citus nothing here applies: "citus." names are then
 * placeholders like any other.
 *
 * IDENTIFICATION
 *		  src/core/citus_settings.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/parallel.h"
#include "catalog/dependency.h"
#include "catalog/pg_proc.h"
#include "commands/extension.h"
#include "plan/plan.h"
#include "nodes/parsenodes.h"
#include "nodes/primnodes.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

#define CITUS_PREFIX		"citus."
#define CITUS_PREFIX_LEN	6

typedef enum CitusRule
{
	CITUS_ANY,					/* allowed, any value */
	CITUS_LOWER,				/* allowed, an integer lowered only */
	CITUS_VALUE,				/* allowed, one value only (or the start's) */
	CITUS_OWN					/* refused, but Citus changes it itself */
} CitusRule;

typedef struct CitusSetting
{
	const char *name;
	CitusRule	rule;
	int			unlimited;		/* CITUS_LOWER: "no limit", or INT_MIN */
	const char *value;			/* CITUS_VALUE: the one value allowed */
} CitusSetting;

/*
 * The allow-list, then the refused settings Citus changes itself while it
 * runs a statement (set_config_option() in Citus 13.2: local_executor.c,
 * multi_executor.c, adaptive_executor.c, citus_depended_object.c,
 * truncate.c, metadata_sync.c, owned.c, database.c, alter_table.c, and
 * the SET clause of citus_shards_on_worker()), and the two a call on a
 * Citus cluster sets for itself as it starts (so that Citus carries its
 * read-only state to the workers), which have a guard of their own.  Any
 * other Citus setting is refused.
 */
static const CitusSetting citus_settings[] = {
	{"citus.enable_repartition_joins", CITUS_ANY},
	{"citus.enable_single_hash_repartition_joins", CITUS_ANY},
	{"citus.local_table_join_policy", CITUS_ANY},
	{"citus.explain_all_tasks", CITUS_ANY},
	{"citus.explain_analyze_sort_method", CITUS_ANY},
	{"citus.max_adaptive_executor_pool_size", CITUS_LOWER, INT_MIN},
	{"citus.max_intermediate_result_size", CITUS_LOWER, -1},
	{"citus.multi_shard_modify_mode", CITUS_VALUE, 0, "sequential"},

	{"citus.enable_local_execution", CITUS_OWN},
	{"citus.force_max_query_parallelization", CITUS_OWN},
	{"citus.hide_citus_dependent_objects", CITUS_OWN},
	{"citus.enable_ddl_propagation", CITUS_OWN},
	{"citus.enable_create_database_propagation", CITUS_OWN},
	{"citus.enable_create_role_propagation", CITUS_OWN},
	{"citus.enable_alter_role_propagation", CITUS_OWN},
	{"citus.enable_alter_role_set_propagation", CITUS_OWN},
	{"citus.enable_metadata_sync", CITUS_OWN},
	{"citus.enable_manual_changes_to_shards", CITUS_OWN},
	{"citus.enable_local_reference_table_foreign_keys", CITUS_OWN},
	{"citus.show_shards_for_app_name_prefixes", CITUS_OWN},
	{"citus.propagate_set_commands", CITUS_OWN},
	{"citus.function_opens_transaction_block", CITUS_OWN},
};

/* one Citus setting of this backend, and where the call found it */
typedef struct CitusVar
{
	struct config_generic *var;
	const CitusSetting *setting;	/* NULL: refused */
	GucStack   *start_stack;	/* var->stack when the call began */
	int			start_int;		/* CITUS_LOWER: the value then */
	char		start_value[NAMEDATALEN];	/* CITUS_VALUE: the value then */
} CitusVar;

static CitusVar *citus_vars = NULL;
static int	n_citus_vars = 0;
static bool scanned = false;

/* the call's comparison is on (nat_citus_settings_begin() to _end()) */
static bool watching = false;

/* "citus.enable_repartition_joins, ...", for messages */
static char *allowed_list = NULL;

/* a setting Citus defined (not a placeholder a SET made) */
static bool
is_citus_var(struct config_generic *var)
{
	return pg_strncasecmp(var->name, CITUS_PREFIX, CITUS_PREFIX_LEN) == 0 &&
		(var->flags & GUC_CUSTOM_PLACEHOLDER) == 0;
}

/*
 * Find Citus's settings, once per backend.  Citus is loaded only from
 * shared_preload_libraries, so by the first call it has defined them all,
 * whatever the order of the libraries there.  Placeholders (a "citus."
 * name SET without Citus) are not Citus's.
 */
static void
scan_settings(void)
{
	struct config_generic **vars;
	int			nvars;
	int			i;
	int			j;

	if (scanned)
		return;
	vars = nat_guc_variables(&nvars);
	for (i = 0; i < nvars; i++)
	{
		if (is_citus_var(vars[i]))
			n_citus_vars++;
	}
	if (n_citus_vars == 0)
	{
		scanned = true;
		return;
	}
	citus_vars = MemoryContextAllocZero(TopMemoryContext,
										sizeof(CitusVar) * n_citus_vars);
	n_citus_vars = 0;
	for (i = 0; i < nvars; i++)
	{
		CitusVar   *v;

		if (!is_citus_var(vars[i]))
			continue;
		v = &citus_vars[n_citus_vars++];
		v->var = vars[i];
		for (j = 0; j < lengthof(citus_settings); j++)
		{
			if (pg_strcasecmp(vars[i]->name, citus_settings[j].name) == 0)
				v->setting = &citus_settings[j];
		}
		/* a type that changed is refused rather than misread */
		if (v->setting && v->setting->rule == CITUS_LOWER &&
			vars[i]->vartype != PGC_INT)
			v->setting = NULL;
	}
	scanned = true;
}

/* is Citus loaded in this backend? */
static bool
citus_loaded(void)
{
	scan_settings();
	return n_citus_vars > 0;
}

/* the table's entry for a setting name, or NULL */
static const CitusSetting *
find_setting(const char *name)
{
	int			i;

	for (i = 0; i < lengthof(citus_settings); i++)
	{
		if (pg_strcasecmp(name, citus_settings[i].name) == 0)
			return &citus_settings[i];
	}
	return NULL;
}

/*
 * Is name one of Citus's settings, Citus being loaded?
 */
bool
nat_citus_setting(const char *name)
{
	return name != NULL &&
		pg_strncasecmp(name, CITUS_PREFIX, CITUS_PREFIX_LEN) == 0 &&
		citus_loaded();
}

/*
 * May a call change this Citus setting (it is on the allow-list)?
 */
bool
nat_citus_setting_allowed(const char *name)
{
	const CitusSetting *s = find_setting(name);

	return s != NULL && s->rule != CITUS_OWN;
}

/*
 * The allow-list, as messages and advice name it (also without Citus:
 * ai_error_info() explains Citus's errors anywhere).
 */
const char *
nat_citus_allowed_settings(void)
{
	StringInfoData list;
	int			i;

	if (allowed_list != NULL)
		return allowed_list;
	initStringInfo(&list);
	for (i = 0; i < lengthof(citus_settings); i++)
	{
		const CitusSetting *s = &citus_settings[i];

		if (s->rule == CITUS_OWN)
			continue;
		appendStringInfo(&list, "%s%s", list.len > 0 ? ", " : "", s->name);
		if (s->rule == CITUS_LOWER)
			appendStringInfoString(&list, " (lowered only)");
		else if (s->rule == CITUS_VALUE)
			appendStringInfo(&list, " ('%s' only)", s->value);
	}
	allowed_list = MemoryContextStrdup(TopMemoryContext, list.data);
	pfree(list.data);
	return allowed_list;
}

/*
 * The agent's own statement (execute_sql) may be SET LOCAL of a setting on
 * the allow-list: to a value, to its default, or FROM CURRENT.
 */
bool
nat_citus_set_local_allowed(VariableSetStmt *vs)
{
	return vs->is_local &&
		(vs->kind == VAR_SET_VALUE || vs->kind == VAR_SET_DEFAULT ||
		 vs->kind == VAR_SET_CURRENT) &&
		nat_citus_setting(vs->name) && nat_citus_setting_allowed(vs->name);
}

/* the refusal of a Citus setting off the allow-list */
static void
refuse_setting(const char *name, const char *function)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 function ?
			 errmsg("function %s sets parameter \"%s\", which cannot be changed during a tool call",
					function, name) :
			 errmsg("parameter \"%s\" cannot be changed during a tool call", name),
			 errdetail("Citus's settings decide how it keeps the cluster consistent and the call's rules on every node; a tool call may change only those that shape one query's plan: %s.",
					   nat_citus_allowed_settings()),
			 errhint("Write the statement without changing %s.", name)));
}

/*
 * SET, SET LOCAL or RESET of a Citus setting, at any level of a call: a
 * setting off the allow-list is refused before it runs.  (SET and RESET
 * without LOCAL are refused for every setting, by call_guard.c.)
 */
void
nat_citus_check_set_stmt(VariableSetStmt *vs)
{
	if (nat_citus_setting(vs->name) && !nat_citus_setting_allowed(vs->name))
		refuse_setting(vs->name, NULL);
}

/*
 * set_config() in a query the call plans (call_guard.c's planner hook
 * walks every expression): a Citus setting off the allow-list is refused,
 * and so is a name that is not a constant, which could be any setting.
 */
void
nat_citus_check_set_config(Node *node)
{
	FuncExpr   *fexpr;
	Node	   *arg;
	char	   *name;

	if (!IsA(node, FuncExpr) || ((FuncExpr *) node)->funcid != F_SET_CONFIG ||
		!citus_loaded())
		return;
	fexpr = (FuncExpr *) node;
	arg = list_length(fexpr->args) > 0 ? linitial(fexpr->args) : NULL;
	if (arg == NULL || !IsA(arg, Const))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("set_config() with a setting name that is not a constant is not allowed in a tool call on a Citus cluster"),
				 errdetail("Most of Citus's settings cannot be changed during a tool call, and a name computed as the query runs could be one of them."),
				 errhint("Name the setting with a constant, or use SET LOCAL.")));
	if (((Const *) arg)->constisnull)
		return;					/* set_config() refuses it itself */
	name = TextDatumGetCString(((Const *) arg)->constvalue);
	if (nat_citus_setting(name) && !nat_citus_setting_allowed(name))
		refuse_setting(name, NULL);
}

/*
 * A function about to run whose SET clause (pg_proc.proconfig) names a
 * Citus setting off the allow-list is refused, unless it is Citus's own.
 */
void
nat_citus_check_proconfig(Oid funcid, HeapTuple proctup)
{
	bool		isnull;
	Datum		config;
	Datum	   *items;
	int			nitems;
	int			i;

	if (!citus_loaded())
		return;
	config = SysCacheGetAttr(PROCOID, proctup, Anum_pg_proc_proconfig, &isnull);
	if (isnull)
		return;
	deconstruct_array(DatumGetArrayTypeP(config), TEXTOID, -1, false,
					  TYPALIGN_INT, &items, NULL, &nitems);
	for (i = 0; i < nitems; i++)
	{
		char	   *item = TextDatumGetCString(items[i]);
		char	   *eq = strchr(item, '=');

		if (eq == NULL)
			continue;
		*eq = '\0';
		if (!nat_citus_setting(item) || nat_citus_setting_allowed(item))
			continue;
		if (nat_citus_function(funcid))
			return;
		refuse_setting(item, format_procedure(funcid));
	}
}

/*
 * A call starts: note where each Citus setting stands.
 */
void
nat_citus_settings_begin(void)
{
	int			i;

	if (IsParallelWorker() || !citus_loaded())
		return;
	for (i = 0; i < n_citus_vars; i++)
	{
		CitusVar   *v = &citus_vars[i];

		v->start_stack = v->var->stack;
		if (v->setting == NULL)
			continue;
		if (v->setting->rule == CITUS_LOWER)
			v->start_int = *NAT_GUC_INT(v->var)->variable;
		else if (v->setting->rule == CITUS_VALUE)
			snprintf(v->start_value, sizeof(v->start_value), "%s",
					 GetConfigOption(v->var->name, true, false));
	}
	watching = true;
}

void
nat_citus_settings_end(void)
{
	watching = false;
}

/*
 * Has a call changed a Citus setting it may not, however it did?  A
 * setting untouched since the call began has the same stack of values; one
 * changed has an entry pushed at a level of the call.  Only then is its
 * value read.
 */
void
nat_citus_settings_check(void)
{
	int			i;

	if (!watching || IsParallelWorker())
		return;
	for (i = 0; i < n_citus_vars; i++)
	{
		CitusVar   *v = &citus_vars[i];
		const char *value;
		int			newval;

		if (v->var->stack == v->start_stack)
			continue;
		if (v->setting == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("parameter \"%s\" was changed during a tool call", v->var->name),
					 errdetail("A tool call may change only these of Citus's settings: %s; the call was rolled back.",
							   nat_citus_allowed_settings())));
		switch (v->setting->rule)
		{
			case CITUS_LOWER:
				newval = *NAT_GUC_INT(v->var)->variable;
				if (v->start_int == v->setting->unlimited)
					break;
				if (newval == v->setting->unlimited || newval > v->start_int)
					ereport(ERROR,
							(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
							 errmsg("parameter \"%s\" cannot be raised during a tool call",
									v->var->name),
							 errdetail("It bounds the connections or memory a query takes; a call may lower it, never raise it.")));
				break;
			case CITUS_VALUE:
				value = GetConfigOption(v->var->name, true, false);
				if (value && pg_strcasecmp(value, v->setting->value) != 0 &&
					pg_strcasecmp(value, v->start_value) != 0)
					ereport(ERROR,
							(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
							 errmsg("parameter \"%s\" can only be set to \"%s\" during a tool call",
									v->var->name, v->setting->value),
							 errdetail("That value opens fewer connections to the nodes; a call may not take more.")));
				break;
			default:
				break;
		}
	}
}

/* is funcid a member of extension citus? */
bool
nat_citus_function(Oid funcid)
{
	Oid			citus = get_extension_oid("citus", true);

	return OidIsValid(citus) &&
		getExtensionOfObject(ProcedureRelationId, funcid) == citus;
}
