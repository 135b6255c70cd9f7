/*-------------------------------------------------------------------------
 *
 * call_guard.c
 *		  What any statement run for a tool call may do, at every nesting
 *		  level the engine executes.
 *
 * The checks of sql_guard.c look at the agent's own statement.  PostgreSQL
 * runs SQL at many levels below it: functions and procedures it calls, DO
 * blocks, SQL text run by query_to_xml() or ts_stat() or EXECUTE, views,
 * rules, row-level security policies, column defaults and triggers.  While
 * a call runs, two engine hooks vet all of them:
 *
 * - object_access_hook, OAT_FUNCTION_EXECUTE: the executor reports every
 *   function, operator, aggregate support function, window function and
 *   procedure when it prepares to call it, at any depth, before it runs
 *   (also PL/pgSQL simple expressions, CHECK constraints, domain checks,
 *   CALL arguments and EXECUTE parameters, which never pass an executor
 *   start).  In a read-only call only immutable and stable functions, a
 *   short list of side-effect-free volatile built-ins, Citus's shard
 *   filter (Citus adds it to every read of pg_class) and the
 *   administrator's neon_ai_tools.read_only_allowed_functions run; in any
 *   call, functions that leave session state behind (session-level
 *   advisory locks, dblink's named connections) are refused.
 *
 * - ProcessUtility_hook: every utility statement at every level (SPI and
 *   SQL functions run them with PROCESS_UTILITY_QUERY).  Statements that
 *   leave state in the session are refused in any call: LISTEN, UNLISTEN,
 *   PREPARE, DEALLOCATE, DISCARD, LOAD, DECLARE ... WITH HOLD, temporary
 *   objects, and SET/RESET other than SET LOCAL; NOTIFY in a read-only
 *   call.  Deferred constraint triggers and SET CONSTRAINTS ... DEFERRED
 *   are refused too: a deferred trigger fires at the caller's commit, after
 *   the call and outside its guard.  So are triggers, rules, policies,
 *   indexes and ALTER TABLE on the session's temporary tables.
 *
 * - planner_hook: the planner itself calls functions before anything is
 *   executed (selectivity estimators evaluate an operator's function on a
 *   column's statistics), so every function in the rewritten query (views,
 *   rules and row-level security expanded) is vetted by the same rules
 *   before planning.
 *
 * Parallel workers.  A call's queries may run in parallel: workers are
 * separate processes, which run the functions of their part of the plan
 * (a PARALLEL SAFE PL/pgSQL function and everything it calls) with their
 * own copies of these hooks.  Each worker loads this library (the leader's
 * libraries are loaded first, RestoreLibraryState() calling _PG_init())
 * and then takes the leader's settings (RestoreGUCState()), so the call's
 * state travels in a hidden setting, neon_ai_tools.call_state: empty
 * outside calls, "r|w,<deadline>,<timeout_ms>,<max_call_memory>" while a
 * call may start workers.  The leader sets it with SET LOCAL semantics,
 * inside the call's GUC nest level, before a statement that may start
 * workers (see
 * publish_call_state()); execute.c rolls that level back on every exit
 * (AtEOXact_GUC(false) or the subtransaction's rollback), so it never
 * outlives the call.  Settings are sent to workers
 * unless their source is the built-in default or their context is
 * PGC_POSTMASTER or PGC_INTERNAL (guc.c, can_skip_gucvar(), 15 to 18), hence
 * PGC_SUSET and a session source.  In the worker the assign hook turns the
 * value into the guard's state: the same function, planning and utility
 * rules, read-only or not, and the leader's deadline, compared with the
 * clock since the timer is the leader's (call_timer.c).  A worker can
 * swallow no cancel (subtransactions, so exception blocks, are refused in
 * parallel mode), and the leader's abort ends its workers.
 *
 * Nobody else sets neon_ai_tools.call_state.  It is PGC_SUSET, so an
 * ordinary role gets "permission denied" from SET, set_config(), RESET,
 * ALTER ROLE ... SET and startup options (those are refused when the
 * library defines its settings, see guc_policy.c); the check hook refuses
 * every value but the leader's own (a flag set while it publishes) and, in
 * a parallel worker that is still starting (InitializingParallelWorker),
 * its leader's; and during a call the leader's hooks refuse to go on if the
 * value was changed by a role allowed to (a superuser's RESET skips check
 * hooks).  It is hidden from SHOW ALL and pg_settings, readable only by
 * superusers, and never reset by RESET ALL or DISCARD ALL.
 *
 * ExecutorStart_hook does not vet anything: it misses expressions
 * evaluated without an executor start (listed above), and the function
 * hook sees everything it would; it only publishes the call's state before
 * a parallel plan starts.  fmgr_hook is not used: built-in functions never
 * reach it.
 *
 * Temporary objects made some other way (CREATE FUNCTION pg_temp.f, for
 * example) are caught when the call ends: every object created during the
 * call is noted by the same object access hook, and a call that would leave
 * one in a temporary schema fails and is rolled back.
 *
 * The engine's read-only transaction stays as a second wall behind the
 * function gate.  The hooks act only while a call runs and chain to any
 * hook installed before them, so other extensions see everything as usual.
 *
 * IDENTIFICATION
 *		  src/core/call_guard.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/parallel.h"
#include "access/transam.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/objectaccess.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_language.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "commands/extension.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "run/run.h"
#include "nodes/nodeFuncs.h"
#include "nodes/parsenodes.h"
#include "optimizer/planner.h"
#include "tcop/cmdtag.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"

/*
 * Volatile built-in functions (pg_catalog, every overload) that a read-only
 * call may run: they change nothing, neither data nor the session.  Sorted,
 * for bsearch.  Randomness and clocks; sleeping; SQL-running wrappers whose
 * SQL is itself vetted here at its own level; sizes and positions; and the
 * readers behind system views (pg_locks, pg_prepared_xacts,
 * pg_file_settings, pg_hba_file_rules, pg_stat_xact_*).  Not here, because
 * they do change something: setseed (the session's random sequence),
 * nextval/setval/currval/lastval, large objects, advisory locks,
 * pg_notify, signalling and replication functions, set_config, stats
 * resets, cursor_to_xml (runs a portal opened before the call).
 */
static const char *const read_only_builtins[] = {
	"bernoulli",
	"clock_timestamp",
	"current_query",
	"gen_random_uuid",
	"pg_blocking_pids",
	"pg_current_wal_flush_lsn",
	"pg_current_wal_insert_lsn",
	"pg_current_wal_lsn",
	"pg_database_size",
	"pg_get_wal_replay_pause_state",
	"pg_hba_file_rules",
	"pg_ident_file_mappings",
	"pg_indexes_size",
	"pg_is_in_recovery",
	"pg_is_wal_replay_paused",
	"pg_jit_available",
	"pg_last_wal_receive_lsn",
	"pg_last_wal_replay_lsn",
	"pg_last_xact_replay_timestamp",
	"pg_lock_status",
	"pg_notification_queue_usage",
	"pg_partition_ancestors",
	"pg_partition_tree",
	"pg_prepared_xact",
	"pg_relation_size",
	"pg_safe_snapshot_blocking_pids",
	"pg_show_all_file_settings",
	"pg_sleep",
	"pg_sleep_for",
	"pg_sleep_until",
	"pg_stat_get_xact_blocks_fetched",
	"pg_stat_get_xact_blocks_hit",
	"pg_stat_get_xact_function_calls",
	"pg_stat_get_xact_function_self_time",
	"pg_stat_get_xact_function_total_time",
	"pg_stat_get_xact_numscans",
	"pg_stat_get_xact_tuples_deleted",
	"pg_stat_get_xact_tuples_fetched",
	"pg_stat_get_xact_tuples_hot_updated",
	"pg_stat_get_xact_tuples_inserted",
	"pg_stat_get_xact_tuples_newpage_updated",
	"pg_stat_get_xact_tuples_returned",
	"pg_stat_get_xact_tuples_updated",
	"pg_table_size",
	"pg_tablespace_size",
	"pg_total_relation_size",
	"query_to_xml",
	"query_to_xml_and_xmlschema",
	"query_to_xmlschema",
	"random",
	"random_normal",
	"system",
	"timeofday",
	"ts_stat",
	"uuidv4",
	"uuidv7",
};

/* the call being guarded; calls do not nest */
typedef struct GuardState
{
	bool		active;
	bool		read_only;
	List	   *allowed;		/* OIDs from read_only_allowed_functions */
	bool		allowed_resolved;	/* "allowed" is worked out */
	List	   *created;		/* ObjectAddress * made during the call */
	Oid			role;			/* the role setting at the start (InvalidOid:
								 * none) */
	Oid			session_user;	/* the session user at the start */
	MemoryContext cxt;			/* the call's memory */
	bool		remote;			/* on a Citus worker, a coordinator's call
								 * (citus_worker.c) */
	TimestampTz remote_deadline;	/* ... and its deadline */
} GuardState;

static GuardState guard;

/* the hidden setting that carries the call's state to parallel workers */
#define CALL_STATE_SETTING "neon_ai_tools.call_state"
static char *call_state = NULL;

/* the value this backend published for its call in progress */
static char published_state[64];

/* true only while this backend publishes its own value */
static bool publishing = false;

/* inside REFRESH MATERIALIZED VIEW CONCURRENTLY, whose diff table is temporary */
static int	core_refresh_depth = 0;

static object_access_hook_type prev_object_access_hook = NULL;
static ProcessUtility_hook_type prev_ProcessUtility = NULL;
static planner_hook_type prev_planner = NULL;
static ExecutorStart_hook_type prev_executor_start = NULL;
static ExecutorFinish_hook_type prev_executor_finish = NULL;

static void publish_call_state(void);

/* ---- functions ---- */

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static bool
is_read_only_builtin(const char *name)
{
	return bsearch(&name, read_only_builtins, lengthof(read_only_builtins),
				   sizeof(const char *), compare_names) != NULL;
}

/*
 * dblink's functions that connect or run SQL on another connection: what
 * they run there commits on its own, outside the call's transaction and
 * its write count, and a named connection outlives the call.
 */
static bool
is_dblink_runner(const char *name)
{
	static const char *const runners[] = {
		"dblink", "dblink_connect", "dblink_connect_u", "dblink_exec",
		"dblink_fetch", "dblink_open", "dblink_send_query",
	};
	int			i;

	for (i = 0; i < lengthof(runners); i++)
	{
		if (strcmp(name, runners[i]) == 0)
			return true;
	}
	return false;
}

/*
 * Citus's functions that run SQL on other nodes over connections of their
 * own, outside the call's distributed transaction: there it would run
 * without the call's read-only mode, guard, write count and rollback (on a
 * worker as on the coordinator).  In pg_catalog, where only a superuser
 * can create functions.
 */
static bool
is_citus_runner(Form_pg_proc proc)
{
	static const char *const runners[] = {
		"citus_run_local_command", "master_run_on_worker",
		"run_command_on_all_nodes", "run_command_on_colocated_placements",
		"run_command_on_coordinator", "run_command_on_placements",
		"run_command_on_shards", "run_command_on_workers",
	};
	int			i;

	if (proc->pronamespace != PG_CATALOG_NAMESPACE)
		return false;
	for (i = 0; i < lengthof(runners); i++)
	{
		if (strcmp(NameStr(proc->proname), runners[i]) == 0)
			return true;
	}
	return false;
}

/*
 * Functions no call may run, because their effect outlives it or reaches
 * beyond it: the session-level advisory lock functions (the
 * transaction-level ones end with the caller's transaction, like any
 * lock), setseed (the session's random sequence), dblink's connections and
 * the SQL it runs on them (see above), and signalling backends (a cancel
 * the agent sends to its own backend would cancel the caller's statement).
 * proc may be NULL for a built-in function: only OIDs are tested then.
 */
static bool
leaves_session_state(Oid funcid, Form_pg_proc proc)
{
	switch (funcid)
	{
		case F_SETSEED:
		case F_PG_CANCEL_BACKEND:
		case F_PG_TERMINATE_BACKEND:
		case F_PG_ADVISORY_LOCK_INT8:
		case F_PG_ADVISORY_LOCK_SHARED_INT8:
		case F_PG_TRY_ADVISORY_LOCK_INT8:
		case F_PG_TRY_ADVISORY_LOCK_SHARED_INT8:
		case F_PG_ADVISORY_UNLOCK_INT8:
		case F_PG_ADVISORY_UNLOCK_SHARED_INT8:
		case F_PG_ADVISORY_LOCK_INT4_INT4:
		case F_PG_ADVISORY_LOCK_SHARED_INT4_INT4:
		case F_PG_TRY_ADVISORY_LOCK_INT4_INT4:
		case F_PG_TRY_ADVISORY_LOCK_SHARED_INT4_INT4:
		case F_PG_ADVISORY_UNLOCK_INT4_INT4:
		case F_PG_ADVISORY_UNLOCK_SHARED_INT4_INT4:
		case F_PG_ADVISORY_UNLOCK_ALL:
			return true;
	}
	return proc != NULL &&
		((proc->prolang == ClanguageId && is_dblink_runner(NameStr(proc->proname))) ||
		 is_citus_runner(proc));
}

/*
 * Volatile, and not one of the side-effect-free built-ins above: a
 * read-only call refuses it unless it is allowed some other way.
 */
static bool
proc_may_write(Form_pg_proc proc)
{
	return proc->provolatile == PROVOLATILE_VOLATILE &&
		!(proc->pronamespace == PG_CATALOG_NAMESPACE &&
		  is_read_only_builtin(NameStr(proc->proname)));
}

/*
 * Citus's shard filter.  On a Citus node (coordinator or worker) Citus's
 * planner adds "pg_catalog.relation_is_a_known_shard(c.oid) IS NOT TRUE"
 * to every query that reads pg_class, to hide shards from clients
 * (worker_shard_visibility.c, citus.show_shards_for_app_name_prefixes):
 * list_tables, describe_table, pg_tables, information_schema and any
 * catalog read of the agent's.  The function is declared VOLATILE but only
 * looks a relation's name up in Citus's metadata: it writes nothing and
 * leaves nothing in the session, so a read-only call may run it, or no
 * read-only call could read the catalog on a Citus node.
 *
 * Only Citus's own: the function of that name in pg_catalog that is a
 * member of extension citus (pg_depend), never a function of the same name
 * elsewhere or one an extension other than Citus brought.  No other Citus
 * function passes here (run_command_on_*, citus_*, master_*, worker_*
 * change data or run SQL on other nodes and stay refused).  The name is
 * compared first, so other functions cost no catalog lookup.
 */
#define CITUS_SHARD_FILTER "relation_is_a_known_shard"

static bool
named_citus_shard_filter(Form_pg_proc proc)
{
	return proc->pronamespace == PG_CATALOG_NAMESPACE &&
		strcmp(NameStr(proc->proname), CITUS_SHARD_FILTER) == 0;
}

/*
 * What a read-only call may make of a built-in function (OID below
 * FirstGenbkiObjectId: defined by pg_proc.dat, so its volatility never
 * changes): worked out once per backend, then a table lookup, so the
 * function hook costs no catalog access on the hot path.
 */
typedef enum BuiltinVerdict
{
	BUILTIN_UNKNOWN = 0,
	BUILTIN_READ_ONLY,			/* immutable, stable or on the allow-list */
	BUILTIN_WRITES				/* volatile and not on the allow-list */
} BuiltinVerdict;

static uint8 builtin_verdicts[FirstGenbkiObjectId];

static void
refuse_session_state(Oid funcid)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("function %s is not allowed in a tool call", format_procedure(funcid)),
			 errdetail("Its effect outlives the call or reaches beyond it (a session-level lock, connection or random seed, SQL run on another connection, or a signal to a backend), and a tool call leaves nothing behind."),
			 errhint("Use the transaction-level variant (pg_advisory_xact_lock), or do this outside tool calls.")));
}

static void
refuse_read_only(Oid funcid)
{
	ereport(ERROR,
			(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
			 errmsg("function %s is not allowed in a read-only tool call", format_procedure(funcid)),
			 errdetail("It is volatile, so it may change data or the session, and it is not on the read-only allow-list."),
			 errhint("Read the data without it, or call the tool without read_only where writing is allowed.")));
}

static List *resolve_allowed_functions(void);

/* work out the OIDs of neon_ai_tools.read_only_allowed_functions */
static void
resolve_allowed(void)
{
	MemoryContext old = MemoryContextSwitchTo(guard.cxt);

	guard.allowed = resolve_allowed_functions();
	guard.allowed_resolved = true;
	MemoryContextSwitchTo(old);
}

/*
 * Is funcid on neon_ai_tools.read_only_allowed_functions?  The leader works
 * the list out when the call begins; a parallel worker when it first needs
 * it (the catalog cannot be read where the worker's state arrives).
 */
static bool
allowed_function(Oid funcid)
{
	if (!guard.allowed_resolved)
		resolve_allowed();
	return list_member_oid(guard.allowed, funcid);
}

/*
 * Vet a function the executor or the planner is about to call.
 */
static void
check_function(Oid funcid)
{
	HeapTuple	tuple;
	Form_pg_proc proc;
	bool		session_state;
	bool		writes;
	bool		shard_filter;

	if (funcid < FirstGenbkiObjectId)
	{
		if (leaves_session_state(funcid, NULL))
			refuse_session_state(funcid);
		if (!guard.read_only || builtin_verdicts[funcid] == BUILTIN_READ_ONLY)
			return;
		if (builtin_verdicts[funcid] == BUILTIN_WRITES)
		{
			if (!allowed_function(funcid))
				refuse_read_only(funcid);
			return;
		}
	}

	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tuple))
		return;					/* not ours to report; the caller will */
	proc = (Form_pg_proc) GETSTRUCT(tuple);
	session_state = leaves_session_state(funcid, proc);
	writes = proc_may_write(proc);
	shard_filter = writes && named_citus_shard_filter(proc);
	/* a SET clause naming a Citus setting a call may not change */
	nat_citus_check_proconfig(funcid, tuple);
	ReleaseSysCache(tuple);
	if (shard_filter && nat_citus_function(funcid))
		writes = false;

	if (funcid < FirstGenbkiObjectId)
		builtin_verdicts[funcid] = writes ? BUILTIN_WRITES : BUILTIN_READ_ONLY;
	if (session_state)
		refuse_session_state(funcid);
	if (guard.read_only && writes && !allowed_function(funcid) &&
		!(guard.remote && nat_citus_function(funcid)))
		refuse_read_only(funcid);
}

/*
 * Would a read-only call refuse this function as one that may write
 * (volatile, and on neither the built-in nor the administrator's
 * allow-list)?  ai_tool_define() classifies statements with it, outside
 * any call.
 */
bool
nat_function_may_write(Oid funcid)
{
	HeapTuple	tuple;
	Form_pg_proc proc;
	bool		writes;
	bool		shard_filter;

	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tuple))
		return false;
	proc = (Form_pg_proc) GETSTRUCT(tuple);
	writes = proc_may_write(proc);
	shard_filter = writes && named_citus_shard_filter(proc);
	ReleaseSysCache(tuple);
	if (shard_filter && nat_citus_function(funcid))
		return false;
	return writes && !list_member_oid(resolve_allowed_functions(), funcid);
}

/*
 * Note an object created during the call, to check where it lives when the
 * call ends (its catalog row is not visible until the command ends).
 */
static void
note_created(Oid classId, Oid objectId, int subId)
{
	MemoryContext old;
	ObjectAddress *addr;

	if (subId != 0 || !is_objectclass_supported(classId) ||
		get_object_attnum_namespace(classId) == InvalidAttrNumber)
		return;
	old = MemoryContextSwitchTo(guard.cxt);
	addr = palloc(sizeof(ObjectAddress));
	addr->classId = classId;
	addr->objectId = objectId;
	addr->objectSubId = 0;
	guard.created = lappend(guard.created, addr);
	MemoryContextSwitchTo(old);
}

/*
 * In the leader, during a call: the hidden setting is still the call's
 * state, or still empty when nothing has needed it yet (only a role allowed
 * to set it, a superuser, could have changed it).
 */
static void
check_state_intact(void)
{
	if (IsParallelWorker() ||
		(call_state != NULL &&
		 (call_state[0] == '\0' || strcmp(call_state, published_state) == 0)))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("parameter \"%s\" was changed during a tool call", CALL_STATE_SETTING),
			 errdetail("It carries the call's rules to parallel workers, and only neon_ai_tools sets it.")));
}

/*
 * In the leader, during a call: the call still runs as the role that
 * started it.  The settings' own guard (setting_guard.c) refuses every
 * change; this is the wall behind it, two comparisons at each hook.
 */
static void
check_identity_intact(void)
{
	if (IsParallelWorker() ||
		(GetCurrentRoleId() == guard.role && GetSessionUserId() == guard.session_user))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("the role of a tool call was changed during the call"),
			 errdetail("A tool call runs as the role that started it, from its start to its end; the call was rolled back.")));
}

/* what every hook checks first, while a call runs */
static void
check_call_bounds(void)
{
	if (guard.remote)
	{
		/* a worker's part of a call: no statement starts after its deadline */
		if (GetCurrentTimestamp() >= guard.remote_deadline)
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("canceling statement: the tool call on the Citus coordinator ran past its time limit")));
		check_identity_intact();
		return;
	}
	nat_deadline_check();
	nat_memory_check();
	check_state_intact();
	check_identity_intact();
	nat_citus_settings_check();
}

static void
guard_object_access(ObjectAccessType access, Oid classId, Oid objectId,
					int subId, void *arg)
{
	if (prev_object_access_hook)
		prev_object_access_hook(access, classId, objectId, subId, arg);
	if (!guard.active)
		return;
	if (access == OAT_FUNCTION_EXECUTE)
	{
		check_call_bounds();
		check_function(objectId);
	}
	else if (access == OAT_POST_CREATE)
		note_created(classId, objectId, subId);
}

/* ---- planning ---- */

static bool
vet_function(Oid funcid, void *context)
{
	check_function(funcid);
	return false;
}

/* every function, operator and aggregate in the query, at every level */
static bool
vet_query_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, vet_query_walker, context, 0);
	(void) check_functions_in_node(node, vet_function, context);
	nat_citus_check_set_config(node);
	return expression_tree_walker(node, vet_query_walker, context);
}

static PlannedStmt *
guard_planner(NAT_PLANNER_ARGS)
{
	if (guard.active)
	{
		check_call_bounds();
		(void) vet_query_walker((Node *) parse, NULL);
	}
	if (prev_planner)
		return prev_planner(NAT_PLANNER_PASS(cursorOptions));
	return standard_planner(NAT_PLANNER_PASS(cursorOptions));
}

/* ---- utility statements ---- */

static bool
names_temp_schema(const char *schemaname)
{
	return schemaname != NULL &&
		(strcmp(schemaname, "pg_temp") == 0 ||
		 isAnyTempNamespace(get_namespace_oid(schemaname, true)));
}

static bool
rangevar_is_temp(RangeVar *rv)
{
	return rv != NULL &&
		(rv->relpersistence == RELPERSISTENCE_TEMP || names_temp_schema(rv->schemaname));
}

/* does rv name an existing temporary relation (the session's own)? */
static bool
rangevar_is_temp_relation(RangeVar *rv)
{
	Oid			relid;

	if (rv == NULL)
		return false;
	if (rangevar_is_temp(rv))
		return true;
	relid = RangeVarGetRelid(rv, NoLock, true);
	return OidIsValid(relid) && isAnyTempNamespace(get_rel_namespace(relid));
}

/*
 * Why a utility statement may not run in a call, or NULL if it may.
 */
static const char *
refused_utility(Node *stmt)
{
	const char *session_state;

	/*
	 * Core's REFRESH ... CONCURRENTLY makes, alters and drops a temporary
	 * diff table itself; a temporary object that would survive is still
	 * caught when the call ends.
	 */
	if (core_refresh_depth > 0 &&
		(IsA(stmt, CreateStmt) || IsA(stmt, CreateTableAsStmt) ||
		 IsA(stmt, IndexStmt) || IsA(stmt, AlterTableStmt)))
		return NULL;

	/* LISTEN, PREPARE, DISCARD, ...: the one list sql_guard.c refuses too */
	session_state = nat_session_state_statement(stmt);
	if (session_state != NULL)
		return session_state;

	switch (nodeTag(stmt))
	{
		case T_CopyStmt:
			/* on a worker: Citus's intermediate results and shard copies */
			return ((CopyStmt *) stmt)->is_from && !guard.remote ?
				"COPY ... FROM (the rows it loads would not count against the call's write limit)" : NULL;
		case T_NotifyStmt:
			return guard.read_only ? "NOTIFY" : NULL;
		case T_DeclareCursorStmt:
			if (((DeclareCursorStmt *) stmt)->options & CURSOR_OPT_HOLD)
				return "DECLARE ... WITH HOLD";
			return NULL;
		case T_VariableSetStmt:
			{
				VariableSetStmt *vs = (VariableSetStmt *) stmt;

				/* SET LOCAL and SET TRANSACTION end with the call */
				if (vs->is_local || vs->kind == VAR_SET_MULTI)
					return NULL;
				return vs->kind == VAR_RESET || vs->kind == VAR_RESET_ALL ?
					"RESET (other than by SET LOCAL)" : "SET (other than SET LOCAL)";
			}
		case T_CreateStmt:
			return rangevar_is_temp(((CreateStmt *) stmt)->relation) ?
				"CREATE TEMPORARY TABLE" : NULL;
		case T_CreateTableAsStmt:
			return rangevar_is_temp(((CreateTableAsStmt *) stmt)->into->rel) ?
				"CREATE TEMPORARY TABLE ... AS" : NULL;
		case T_ViewStmt:
			return rangevar_is_temp(((ViewStmt *) stmt)->view) ?
				"CREATE TEMPORARY VIEW" : NULL;
		case T_CreateSeqStmt:
			return rangevar_is_temp(((CreateSeqStmt *) stmt)->sequence) ?
				"CREATE TEMPORARY SEQUENCE" : NULL;
		case T_CreateTrigStmt:
			{
				CreateTrigStmt *ct = (CreateTrigStmt *) stmt;

				if (ct->deferrable || ct->initdeferred)
					return "a deferrable constraint trigger (it would fire at the caller's commit, after the call)";
				return rangevar_is_temp_relation(ct->relation) ?
					"a trigger on a temporary table" : NULL;
			}
		case T_ConstraintsSetStmt:
			return ((ConstraintsSetStmt *) stmt)->deferred ?
				"SET CONSTRAINTS ... DEFERRED (deferred checks would run at the caller's commit, after the call)" : NULL;
		case T_RuleStmt:
			return rangevar_is_temp_relation(((RuleStmt *) stmt)->relation) ?
				"a rule on a temporary table" : NULL;
		case T_CreatePolicyStmt:
			return rangevar_is_temp_relation(((CreatePolicyStmt *) stmt)->table) ?
				"a policy on a temporary table" : NULL;
		case T_IndexStmt:
			return rangevar_is_temp_relation(((IndexStmt *) stmt)->relation) ?
				"an index on a temporary table" : NULL;
		case T_AlterTableStmt:
			return rangevar_is_temp_relation(((AlterTableStmt *) stmt)->relation) ?
				"ALTER on a temporary table" : NULL;
		default:
			return NULL;
	}
}

/*
 * Why a statement that changes the call's identity may not run, or NULL.
 * The settings' check hooks refuse the same change however it is made
 * (setting_guard.c); this names the statement.
 */
static const char *
refused_identity(Node *stmt)
{
	VariableSetStmt *vs;

	if (!IsA(stmt, VariableSetStmt))
		return NULL;
	vs = (VariableSetStmt *) stmt;
	if (vs->name == NULL)
		return NULL;
	/* setting names are case-insensitive ("Role" is role) */
	if (pg_strcasecmp(vs->name, "role") == 0)
		return vs->kind == VAR_RESET ? "RESET ROLE" : "SET ROLE";
	if (pg_strcasecmp(vs->name, "session_authorization") == 0)
		return vs->kind == VAR_RESET ? "RESET SESSION AUTHORIZATION" : "SET SESSION AUTHORIZATION";
	return NULL;
}

/*
 * In a read-only call, the utility statements that change nothing are the
 * only ones that run (an allow-list: PostgreSQL lets CLUSTER, REINDEX,
 * ANALYZE, VACUUM, CHECKPOINT, LOCK and others run in a read-only
 * transaction).  The name of a refused one, or NULL.  DO and CALL run: what
 * they run is vetted at its own level, as is what EXPLAIN ANALYZE runs.
 */
static const char *
refused_read_only(Node *stmt)
{
	switch (nodeTag(stmt))
	{
		case T_ExplainStmt:
			{
				Node	   *query = ((ExplainStmt *) stmt)->query;

				/* EXPLAIN ANALYZE CREATE TABLE AS runs what it explains */
				if (IsA(query, Query) && ((Query *) query)->commandType == CMD_UTILITY)
					return "EXPLAIN of a utility statement";
				return NULL;
			}
		case T_VariableShowStmt:
		case T_VariableSetStmt: /* SET LOCAL and SET TRANSACTION only, see
								 * above */
		case T_DeclareCursorStmt:	/* without HOLD, see above */
		case T_FetchStmt:
		case T_ClosePortalStmt:
		case T_ConstraintsSetStmt:	/* IMMEDIATE only, see above */
		case T_DoStmt:
		case T_CallStmt:
			return NULL;
		case T_TransactionStmt: /* on a worker: Citus's savepoints */
		case T_CopyStmt:		/* on a worker: intermediate results; a
								 * table's rows are refused by the engine */
			return guard.remote ? NULL : GetCommandTagName(CreateCommandTag(stmt));
		default:
			return GetCommandTagName(CreateCommandTag(stmt));
	}
}

static void
run_utility(PlannedStmt *pstmt, const char *queryString,
			bool readOnlyTree, ProcessUtilityContext context,
			ParamListInfo params, QueryEnvironment *queryEnv,
			DestReceiver *dest, QueryCompletion *qc)
{
	if (prev_ProcessUtility)
		prev_ProcessUtility(pstmt, queryString, readOnlyTree, context,
							params, queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);
}

/*
 * On a Citus worker, the coordinator's own statements (its savepoints, its
 * setting of the call's state) begin, change or end the call here: not the
 * call's to refuse (citus_worker.c).
 */
static void
run_coordinator_statement(PlannedStmt *pstmt, const char *queryString,
						  bool readOnlyTree, ProcessUtilityContext context,
						  ParamListInfo params, QueryEnvironment *queryEnv,
						  DestReceiver *dest, QueryCompletion *qc)
{
	PG_TRY();
	{
		run_utility(pstmt, queryString, readOnlyTree, context, params,
					queryEnv, dest, qc);
	}
	PG_CATCH();
	{
		nat_citus_worker_statement_done();
		PG_RE_THROW();
	}
	PG_END_TRY();
	nat_citus_worker_statement_done();
}

static void
guard_process_utility(PlannedStmt *pstmt, const char *queryString,
					  bool readOnlyTree, ProcessUtilityContext context,
					  ParamListInfo params, QueryEnvironment *queryEnv,
					  DestReceiver *dest, QueryCompletion *qc)
{
	bool		refresh;

	if (nat_citus_worker_from_coordinator(pstmt))
	{
		run_coordinator_statement(pstmt, queryString, readOnlyTree, context,
								  params, queryEnv, dest, qc);
		return;
	}
	/* Citus's own SETs around the locks it takes on every node */
	if (guard.active && nat_citus_own_lock_switch(pstmt, queryString))
		return;
	if (guard.active)
	{
		Node	   *stmt = pstmt->utilityStmt;
		const char *what;

		/* before Citus's hook, which would propagate it first */
		nat_citus_call_check_utility(pstmt, queryString);
		if (guard.remote)
			nat_citus_worker_check_utility(stmt);
		check_call_bounds();
		publish_call_state();
		if ((what = refused_identity(stmt)) != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("%s is not allowed in a tool call", what),
					 errdetail("A tool call runs as the role that started it, from its start to its end, at every level."),
					 errhint("Grant the rights the call needs to that role, or use a SECURITY DEFINER function.")));
		if ((what = refused_utility(stmt)) != NULL)
			ereport(ERROR,
					(errcode(guard.read_only && IsA(stmt, NotifyStmt) ?
							 ERRCODE_READ_ONLY_SQL_TRANSACTION : ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("%s is not allowed in a tool call", what),
					 errdetail("A tool call leaves nothing behind in the session: no listeners, prepared statements, held cursors, temporary objects or session settings."),
					 errhint("Use SET LOCAL for settings, and ordinary tables or CTEs instead of temporary ones.")));
		if (guard.read_only && (what = refused_read_only(stmt)) != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
					 errmsg("%s is not allowed in a read-only tool call", what),
					 errdetail("A read-only call runs only utility statements that change nothing: EXPLAIN, SHOW, SET LOCAL, DECLARE without HOLD, FETCH, CLOSE, DO and CALL."),
					 errhint("Read the data without it, or call the tool without read_only where writing is allowed.")));
		/* Citus's settings off the allow-list (citus_settings.c) */
		if (IsA(stmt, VariableSetStmt))
			nat_citus_check_set_stmt((VariableSetStmt *) stmt);
		/* rows it will remove or rewrite count first (write_count.c) */
		nat_writes_utility_before(stmt);
	}
	refresh = guard.active && IsA(pstmt->utilityStmt, RefreshMatViewStmt) &&
		((RefreshMatViewStmt *) pstmt->utilityStmt)->concurrent;
	if (refresh)
		core_refresh_depth++;
	PG_TRY();
	{
		run_utility(pstmt, queryString, readOnlyTree, context, params,
					queryEnv, dest, qc);
	}
	PG_FINALLY();
	{
		if (refresh)
			core_refresh_depth--;
		nat_writes_utility_end(pstmt->utilityStmt);
	}
	PG_END_TRY();
	if (guard.active)
	{
		nat_writes_utility_after(pstmt->utilityStmt);
		/* a Citus setting a call may only lower or set to one value */
		if (IsA(pstmt->utilityStmt, VariableSetStmt))
			nat_citus_settings_check();
	}
}

/* ---- the call ---- */

/*
 * The schema and function name of an allow-list entry ("app.price", every
 * overload); false if it is not a schema-qualified name.  The schema is
 * required: an unqualified name would be resolved through the agent's own
 * search_path, where a function of the same name could be planted.
 */
bool
nat_split_allowed_function(const char *entry, char **schema, char **name)
{
	char	   *copy = pstrdup(entry);
	List	   *parts;

	if (!SplitIdentifierString(copy, '.', &parts) || list_length(parts) != 2)
		return false;
	*schema = linitial(parts);
	*name = lsecond(parts);
	return true;
}

/*
 * The OIDs neon_ai_tools.read_only_allowed_functions names: every overload
 * of each "schema.name".  Entries naming no function are skipped: the
 * function may be created later.
 */
static List *
resolve_allowed_functions(void)
{
	char	   *copy;
	List	   *items;
	List	   *oids = NIL;
	ListCell   *lc;

	if (nat_read_only_allowed_functions == NULL ||
		nat_read_only_allowed_functions[0] == '\0')
		return NIL;
	copy = pstrdup(nat_read_only_allowed_functions);
	if (!SplitGUCList(copy, ',', &items))
		return NIL;				/* the check hook refused such values */
	foreach(lc, items)
	{
		char	   *schema;
		char	   *name;
		Oid			nspid;
		CatCList   *overloads;
		int			i;

		if (!nat_split_allowed_function((char *) lfirst(lc), &schema, &name))
			continue;
		nspid = get_namespace_oid(schema, true);
		if (!OidIsValid(nspid))
			continue;
		overloads = SearchSysCacheList1(PROCNAMEARGSNSP, CStringGetDatum(name));
		for (i = 0; i < overloads->n_members; i++)
		{
			Form_pg_proc proc = (Form_pg_proc) GETSTRUCT(&overloads->members[i]->tuple);

			if (proc->pronamespace == nspid)
				oids = lappend_oid(oids, proc->oid);
		}
		ReleaseSysCacheList(overloads);
	}
	return oids;
}

/*
 * Publish the call's state for parallel workers, at the current GUC nest
 * level, with SET LOCAL semantics: rolled back with that level, and at the
 * latest with the call's own nest level or subtransaction.
 *
 * Only when a worker may start: before a statement whose plan needs
 * parallel mode starts (guard_executor_start) and before every utility
 * statement (a parallel index build or VACUUM starts workers without an
 * executor).  Most calls start none, and a setting changed at every call
 * would cost each of them a set_config_option() and, on 15, a walk of all
 * settings at each AtEOXact_GUC().  When a level that published is rolled
 * back (an exception block), the value is empty again and the next
 * statement that may start workers publishes it again.  In parallel mode
 * nothing can be set; the statement that entered it published already.
 */
static void
publish_call_state(void)
{
	if (IsParallelWorker() || IsInParallelMode() ||
		(call_state != NULL && strcmp(call_state, published_state) == 0))
		return;
	publishing = true;
	PG_TRY();
	{
		(void) set_config_option(CALL_STATE_SETTING, published_state,
								 PGC_SUSET, PGC_S_SESSION,
								 GUC_ACTION_LOCAL, true, 0, false);
		/* the call's lock_timeout, at the same level */
		nat_call_settings_for_workers();
	}
	PG_FINALLY();
	{
		publishing = false;
	}
	PG_END_TRY();
}

static void
guard_executor_start(QueryDesc *queryDesc, int eflags)
{
	/* a plan kept from earlier starts without the planner: check here too */
	if (guard.active)
		check_call_bounds();
	if (guard.active && queryDesc->plannedstmt->parallelModeNeeded)
		publish_call_state();
	if (prev_executor_start)
		prev_executor_start(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
	/* the plan's state is built: count the rows it will change */
	if (guard.active && !guard.read_only)
		nat_writes_watch(queryDesc);
}

/*
 * A statement of the call has finished, its AFTER triggers and foreign-key
 * actions included: past the call's write limit, the call fails.
 */
static void
guard_executor_finish(QueryDesc *queryDesc)
{
	if (prev_executor_finish)
		prev_executor_finish(queryDesc);
	else
		standard_ExecutorFinish(queryDesc);
	if (guard.active && !guard.read_only)
	{
		nat_writes_finish(queryDesc);
		nat_writes_check();
	}
}

/* is a tool call being guarded in this process? */
bool
nat_guard_active(void)
{
	return guard.active;
}

/* ... and is it read-only? */
bool
nat_guard_read_only(void)
{
	return guard.active && guard.read_only;
}

/*
 * The call starts: guard it, here and in its parallel workers.  Called in
 * the call's GUC nest level, after the call's timer is armed (the deadline
 * goes to the workers).
 */
void
nat_guard_begin(bool read_only, MemoryContext cxt)
{
	int			timeout_ms;
	TimestampTz deadline = nat_timer_deadline(&timeout_ms);

	guard.read_only = read_only;
	guard.cxt = cxt;
	guard.created = NIL;
	guard.allowed = NIL;
	guard.allowed_resolved = false;
	if (read_only)
		resolve_allowed();
	guard.role = GetCurrentRoleId();
	guard.session_user = GetSessionUserId();
	nat_setting_guard_begin();
	nat_citus_settings_begin();
	/* what publish_call_state() sets, if a worker may start */
	snprintf(published_state, sizeof(published_state), "%c," INT64_FORMAT ",%d,%d",
			 read_only ? 'r' : 'w', (int64) deadline, timeout_ms,
			 Max(nat_max_call_memory_kb, 0));
	guard.active = true;
}

/*
 * "function pg_temp.f()": the object's description with the session's own
 * temporary schema (pg_temp_3) written as pg_temp, as the agent wrote it.
 */
static char *
temp_object_description(const ObjectAddress *addr)
{
	char	   *desc = getObjectDescription(addr, false);
	char	   *p = strstr(desc, "pg_temp_");
	StringInfoData buf;

	if (p == NULL)
		return desc;
	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, desc, p - desc + strlen("pg_temp"));
	p += strlen("pg_temp_");
	while (isdigit((unsigned char) *p))
		p++;
	appendStringInfoString(&buf, p);
	return buf.data;
}

/*
 * Before a successful call is kept: refuse it if it made an object in a
 * temporary schema (the caller then rolls the call back).
 */
void
nat_guard_check_end(void)
{
	ListCell   *lc;

	check_identity_intact();
	nat_citus_settings_check();
	if (guard.created == NIL)
		return;
	CommandCounterIncrement();	/* see the catalog rows the call made */
	foreach(lc, guard.created)
	{
		ObjectAddress *addr = (ObjectAddress *) lfirst(lc);
		Relation	catalog = table_open(addr->classId, AccessShareLock);
		HeapTuple	tuple;
		bool		temp = false;

		tuple = get_catalog_object_by_oid(catalog,
										  get_object_attnum_oid(addr->classId),
										  addr->objectId);
		if (HeapTupleIsValid(tuple))
		{
			bool		isnull;
			Datum		nsp = heap_getattr(tuple,
										   get_object_attnum_namespace(addr->classId),
										   RelationGetDescr(catalog), &isnull);

			temp = !isnull && isAnyTempNamespace(DatumGetObjectId(nsp));
		}
		table_close(catalog, AccessShareLock);
		if (temp)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("%s is temporary, and a tool call may not leave temporary objects behind",
							temp_object_description(addr)),
					 errdetail("A tool call leaves nothing behind in the session; the call was rolled back."),
					 errhint("Use ordinary tables or CTEs instead of temporary objects.")));
	}
}

/*
 * On a Citus worker: a coordinator's call reaches this backend (its
 * setting, citus_worker.c).  Its shard queries are guarded as the call is
 * on the coordinator, until the setting goes: read-only, identity, the
 * deadline, the write limit (write_count.c, started by the caller).
 */
void
nat_guard_begin_remote(bool read_only, TimestampTz deadline, MemoryContext cxt)
{
	guard.read_only = read_only;
	guard.cxt = cxt;
	guard.created = NIL;
	guard.allowed = NIL;
	guard.allowed_resolved = false;
	guard.role = GetCurrentRoleId();
	guard.session_user = GetSessionUserId();
	guard.remote = true;
	guard.remote_deadline = deadline;
	nat_setting_guard_begin();
	published_state[0] = '\0';
	guard.active = true;
}

/* a coordinator's call in this worker backend? */
bool
nat_guard_remote(void)
{
	return guard.active && guard.remote;
}

void
nat_guard_end(void)
{
	core_refresh_depth = 0;
	guard.remote = false;
	nat_citus_settings_end();
	guard.active = false;
	guard.read_only = false;
	guard.created = NIL;
	guard.allowed = NIL;
	guard.allowed_resolved = false;
	guard.cxt = NULL;
}

/*
 * Read a call state ("r|w,<deadline>,<timeout_ms>,<max_call_memory kB>");
 * false if value is not one.
 */
static bool
parse_call_state(const char *value, bool *read_only, TimestampTz *deadline,
				 int *timeout_ms, int *cap_kb)
{
	char	   *end;
	long long	d;
	long		t;
	long		m;

	if ((value[0] != 'r' && value[0] != 'w') || value[1] != ',')
		return false;
	errno = 0;
	d = strtoll(value + 2, &end, 10);
	if (errno != 0 || end == value + 2 || *end != ',' || d <= 0)
		return false;
	t = strtol(end + 1, &end, 10);
	if (errno != 0 || *end != ',' || t < 1 || t > INT_MAX)
		return false;
	m = strtol(end + 1, &end, 10);
	if (errno != 0 || *end != '\0' || m < 0 || m > INT_MAX)
		return false;
	*read_only = value[0] == 'r';
	*deadline = (TimestampTz) d;
	*timeout_ms = (int) t;
	*cap_kb = (int) m;
	return true;
}

/*
 * Only this library sets neon_ai_tools.call_state: the leader while it
 * publishes, and a parallel worker restoring its leader's settings as it
 * starts.  The built-in empty value is checked when the setting is defined.
 */
static bool
check_call_state(char **newval, void **extra, GucSource source)
{
	bool		read_only;
	TimestampTz deadline;
	int			timeout_ms;
	int			cap_kb;

	if (publishing)
		return true;
	if (source == PGC_S_DEFAULT && **newval == '\0')
		return true;
	if (IsParallelWorker() && InitializingParallelWorker &&
		(**newval == '\0' ||
		 parse_call_state(*newval, &read_only, &deadline, &timeout_ms, &cap_kb)))
		return true;
	GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
	GUC_check_errmsg("parameter \"%s\" is set only by neon_ai_tools itself",
					 CALL_STATE_SETTING);
	GUC_check_errdetail("It carries the rules of a running tool call to parallel workers.");
	return false;
}

/*
 * In a parallel worker, the leader's call state becomes this process's
 * guard.  The leader keeps its own state in "guard" (nat_guard_begin()).
 */
static void
assign_call_state(const char *newval, void *extra)
{
	bool		read_only;
	TimestampTz deadline;
	int			timeout_ms;
	int			cap_kb;

	if (!IsParallelWorker())
		return;
	if (newval == NULL ||
		!parse_call_state(newval, &read_only, &deadline, &timeout_ms, &cap_kb))
	{
		guard.active = false;
		return;
	}
	guard.read_only = read_only;
	guard.cxt = TopMemoryContext;
	guard.created = NIL;
	guard.allowed = NIL;
	guard.allowed_resolved = false;
	nat_timer_adopt(deadline, timeout_ms);
	/* the worker's own memory under the call's cap (call_memory.c) */
	nat_memory_limit_worker(cap_kb);
	guard.active = true;
}

void
nat_guard_install(void)
{
#ifdef USE_ASSERT_CHECKING
	for (int i = 1; i < lengthof(read_only_builtins); i++)
		Assert(strcmp(read_only_builtins[i - 1], read_only_builtins[i]) < 0);
#endif

	DefineCustomStringVariable(CALL_STATE_SETTING,
							   "State of the tool call in progress, for parallel workers (internal).",
							   "Set only by neon_ai_tools itself.",
							   &call_state,
							   "",
							   PGC_SUSET,
							   GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE |
							   GUC_NO_RESET_ALL | GUC_SUPERUSER_ONLY,
							   check_call_state, assign_call_state, NULL);

	prev_object_access_hook = object_access_hook;
	object_access_hook = guard_object_access;
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = guard_process_utility;
	prev_planner = planner_hook;
	planner_hook = guard_planner;
	prev_executor_start = ExecutorStart_hook;
	ExecutorStart_hook = guard_executor_start;
	prev_executor_finish = ExecutorFinish_hook;
	ExecutorFinish_hook = guard_executor_finish;

	nat_setting_guard_install();
	nat_citus_worker_install();
}
