/*-------------------------------------------------------------------------
 *
 * citus_calls.c
 *		  A tool call's read-only mode and deadline on the Citus workers
 *		  its queries reach.
 *
 * On a Citus coordinator the call's hooks see only the coordinator's part
 * of a query.  The shard queries Citus sends run in the workers' own
 * transactions, which Citus begins with "BEGIN TRANSACTION ISOLATION
 * LEVEL ..." and nothing else: read-write, whatever the coordinator's
 * transaction is (remote_transaction.c, BeginTransactionCommand(), adds
 * READ ONLY only for an explicit BEGIN READ ONLY).  So a STABLE function
 * that calls a writer, pushed down to the shards, wrote on every worker.
 *
 * The mechanism Citus supports for carrying transaction settings to the
 * workers is SET LOCAL propagation (citus.propagate_set_commands =
 * 'local'): a SET LOCAL run through Citus's utility hook, in a statement
 * that is part of a transaction block, is sent at once to every worker
 * transaction already open and replayed, after BEGIN and the savepoints,
 * on every worker connection the transaction opens later.  So, when a
 * call begins in a database where Citus is active:
 *
 *	 - citus.propagate_set_commands = 'local', citus.function_opens_
 *	   transaction_block and citus.select_opens_transaction_block = on, at
 *	   the call's GUC nest level (the last two make every shard query of
 *	   the call run in a worker transaction, where the propagated settings
 *	   are, whatever the caller or a role default set; the setting guard
 *	   refuses turning them off during the call);
 *	 - in a read-only call, SET LOCAL transaction_read_only = on: the
 *	   workers' engines then refuse every write, at every level, as the
 *	   coordinator's does;
 *	 - SET LOCAL neon_ai_tools.citus_call = the call's mode, deadline and
 *	   write limit, for the workers where this library runs
 *	   (citus_worker.c): the call's guard, a cancel at its deadline (a
 *	   worker stops by itself instead of waiting for the coordinator's
 *	   cancel, which Citus forwards connection by connection) and its
 *	   write limit hold there;
 *	 - citus.max_adaptive_executor_pool_size lowered to neon_ai_tools.
 *	   citus_connections_per_worker (4): one call does not take a worker's
 *	   connections and cores from other sessions, and a call that runs out
 *	   of time ends sooner (on abort Citus cancels and rolls back its worker
 *	   connections one after another: with 16 per worker, a CPU-bound join
 *	   given 1 s answered after 2.6 s; with 4, after 1.6 s).
 *
 * The SETs run in a DO block: Citus propagates a SET only inside a
 * transaction block, a DO block or a procedure, or in a function while
 * the executor runs (IsMultiStatementTransaction()), and a call's own
 * utility statements run at executor level 1 outside the planner.
 *
 * The call runs in a subtransaction, which Citus mirrors on the workers
 * with a savepoint, sent before the SETs, and ends there with it, at no
 * cost of its own: a call that fails is rolled back with the savepoint,
 * settings included; when one that succeeds releases it, the worker's
 * guard ends (citus_worker.c, at the savepoint's end), and its read-only
 * state goes back to the caller's (xact.c, CommitSubTransaction(), puts
 * back the parent's XactReadOnly, GUC notwithstanding).  The value of
 * neon_ai_tools.citus_call stays in the worker's transaction, unused.
 * Putting it back with another SET LOCAL, or rolling the savepoint back,
 * would each cost the call round trips to every worker (Citus sends a
 * cancel request on every connection before it rolls a savepoint back):
 * a point select took 30-40 ms with a rollback.
 *
 * IDENTIFICATION
 *		  src/core/citus_calls.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "parser/parser.h"
#include "parser/scansup.h"
#include "run/run.h"
#include "utils/guc.h"

/* neon_ai_tools.citus_connections_per_worker */
int			nat_citus_connections_per_worker = 4;

/* did the running call carry its settings to the workers? */
static bool citus_call = false;
static bool citus_call_read_only = false;
static bool citus_settings_wrapped = false;

/*
 * Is Citus active in this database: its library loaded (its settings
 * exist) and its extension created here?  Without the library loaded, no
 * catalog lookup is made, so a server without Citus pays nothing.
 */
static bool
citus_active(void)
{
	if (GetConfigOption("citus.propagate_set_commands", true, false) == NULL)
		return false;
	return nat_citus_installed();
}

/* run SQL (a DO block of SET LOCALs) through SPI */
static void
run_sets(const char *sql)
{
	int			rc;

	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	nat_citus_worker_coordinator_setting(true);
	PG_TRY();
	{
		rc = SPI_execute(sql, false, 0);
	}
	PG_FINALLY();
	{
		nat_citus_worker_coordinator_setting(false);
	}
	PG_END_TRY();
	if (rc != SPI_OK_UTILITY)
		elog(ERROR, "could not carry the tool call's settings to the Citus workers: %s",
			 SPI_result_code_string(rc));
	SPI_finish();
}

/*
 * "SET LOCAL neon_ai_tools.citus_call = ..." for the workers where this
 * library runs (citus_worker.c): the call's mode, deadline, time limit and
 * write limit.
 */
static void
append_call_state(StringInfo sql, int64 write_limit)
{
	int			timeout_ms;
	TimestampTz deadline = nat_timer_deadline(&timeout_ms);

	appendStringInfo(sql,
					 " SET LOCAL neon_ai_tools.citus_call = '%c," INT64_FORMAT ",%d," INT64_FORMAT "';",
					 citus_call_read_only ? 'r' : 'w', (int64) deadline,
					 Max(timeout_ms, 1), write_limit);
}

/*
 * The call begins (inside its subtransaction and GUC nest level, its
 * deadline armed): carry its read-only mode and deadline to the workers.
 */
void
nat_citus_call_begin(bool read_only)
{
	StringInfoData sql;
	const char *pool;

	citus_call = false;
	if (!citus_active())
		return;

	(void) set_config_option("citus.propagate_set_commands", "local",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_LOCAL, true, 0, false);
	(void) set_config_option("citus.function_opens_transaction_block", "on",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_LOCAL, true, 0, false);
	(void) set_config_option("citus.select_opens_transaction_block", "on",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_LOCAL, true, 0, false);
	pool = GetConfigOption("citus.max_adaptive_executor_pool_size", true, false);
	if (pool == NULL || atoi(pool) > nat_citus_connections_per_worker)
	{
		char		value[16];

		snprintf(value, sizeof(value), "%d", nat_citus_connections_per_worker);
		(void) set_config_option("citus.max_adaptive_executor_pool_size", value,
								 PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_LOCAL, true, 0, false);
	}
	citus_call_read_only = read_only;
	initStringInfo(&sql);
	appendStringInfo(&sql, "DO $nat$BEGIN%s",
					 read_only ? " SET LOCAL transaction_read_only = on;" : "");
	append_call_state(&sql, -1);
	appendStringInfoString(&sql, " END$nat$");
	run_sets(sql.data);
	pfree(sql.data);
	if (!citus_settings_wrapped)
	{
		nat_setting_guard_install();	/* Citus's, if loaded after us */
		citus_settings_wrapped = true;
	}
	citus_call = true;
}

/*
 * A writing call's plan set its write limit: the workers count against it
 * too (each its own rows: the coordinator counts only what its own
 * modifications report).
 */
void
nat_citus_call_write_limit(int64 limit)
{
	StringInfoData sql;

	if (!citus_call || citus_call_read_only)
		return;
	initStringInfo(&sql);
	appendStringInfoString(&sql, "DO $nat$BEGIN");
	append_call_state(&sql, limit);
	appendStringInfoString(&sql, " END$nat$");
	run_sets(sql.data);
	pfree(sql.data);
}

/*
 * The call succeeded: its savepoint's release ends it on the workers (see
 * above).
 */
void
nat_citus_call_end(void)
{
	citus_call = false;
}

/*
 * A utility statement of a call carried to the workers, before Citus's
 * hook sees it.  Citus propagates a SET LOCAL (and some DDL) by sending
 * the statement's whole query string to the workers, where it runs as
 * statements of their own, before the statement runs here: a string of
 * several statements ("SET LOCAL ...; COMMIT; INSERT ..." run by EXECUTE)
 * would run all of them there, outside the call.  So such a statement must
 * be alone in its string; and the call's state is set only by this file.
 */
void
nat_citus_call_check_utility(PlannedStmt *pstmt, const char *queryString)
{
	Node	   *stmt = pstmt->utilityStmt;
	int			len;
	int			i;

	if (!citus_call || queryString == NULL)
		return;
	if (IsA(stmt, VariableSetStmt) && ((VariableSetStmt *) stmt)->name != NULL &&
		pg_strcasecmp(((VariableSetStmt *) stmt)->name, "neon_ai_tools.citus_call") == 0 &&
		!nat_citus_worker_coordinator_setting_now())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("parameter \"%s\" cannot be changed during a tool call",
						"neon_ai_tools.citus_call"),
				 errdetail("It carries a tool call's rules from the Citus coordinator to the workers.")));
	/* everything outside the statement's own text: blanks and semicolons */
	len = strlen(queryString);
	for (i = 0; i < len; i++)
	{
		if (i >= pstmt->stmt_location &&
			(pstmt->stmt_len == 0 || i < pstmt->stmt_location + pstmt->stmt_len))
			continue;
		if (!scanner_isspace(queryString[i]) && queryString[i] != ';')
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("a utility statement must be alone in its query string in a tool call on Citus"),
					 errdetail("Citus sends the whole string to the workers, where every statement in it would run outside the call."),
					 errhint("Run each statement with EXECUTE on its own.")));
	}
}

/* did the running call carry its settings to the workers? */
bool
nat_citus_call_active(void)
{
	return citus_call;
}

/* the call failed: its rollback takes the workers' settings back */
void
nat_citus_call_abort(void)
{
	citus_call = false;
}

/* is stmt "SET citus.enable_ddl_propagation TO '<value>'" (not LOCAL)? */
static bool
is_ddl_propagation_switch(Node *stmt, const char *value)
{
	VariableSetStmt *vs;
	A_Const    *arg;

	if (!IsA(stmt, VariableSetStmt))
		return false;
	vs = (VariableSetStmt *) stmt;
	if (vs->kind != VAR_SET_VALUE || vs->is_local || vs->name == NULL ||
		pg_strcasecmp(vs->name, "citus.enable_ddl_propagation") != 0 ||
		list_length(vs->args) != 1 || !IsA(linitial(vs->args), A_Const))
		return false;
	arg = (A_Const *) linitial(vs->args);
	return !arg->isnull && IsA(&arg->val, String) &&
		strcmp(strVal(&arg->val), value) == 0;
}

/*
 * Citus takes the locks of LOCK and TRUNCATE on every node with metadata,
 * itself included, with one string of its own (resource_lock.c,
 * AcquireDistributedLockOnRelations_Internal()):
 *
 *	 SET citus.enable_ddl_propagation TO 'off'; LOCK ...; ...;
 *	 SET citus.enable_ddl_propagation TO 'on'
 *
 * run here through its local executor and sent as is to the other nodes.
 * Its two SETs are session SETs, which a call refuses (they would outlive
 * it).  The string is recognized by its whole shape, parsed (the SETs
 * first and last, nothing but LOCKs between), and the SET it runs now is
 * applied here as a SET LOCAL, which ends with the call: the same effect
 * for the lock, nothing left behind.  It is applied directly, not run
 * through the utility hooks: Citus propagates a SET LOCAL by sending its
 * statement's whole string to every worker connection of the transaction,
 * and replays it on each new one, where the LOCK in it would wait for the
 * transaction's own lock (a distributed deadlock).  Returns whether it was
 * such a SET (then it is done).  Run by an agent, the same string changes
 * nothing either.
 */
bool
nat_citus_own_lock_switch(PlannedStmt *pstmt, const char *queryString)
{
	List	   *stmts;
	VariableSetStmt *set;
	int			i;

	if (queryString == NULL ||
		(!is_ddl_propagation_switch(pstmt->utilityStmt, "off") &&
		 !is_ddl_propagation_switch(pstmt->utilityStmt, "on")))
		return false;
	if (!nat_citus_setting("citus.enable_ddl_propagation"))
		return false;
	stmts = raw_parser(queryString, RAW_PARSE_DEFAULT);
	if (list_length(stmts) < 3 ||
		!is_ddl_propagation_switch(linitial_node(RawStmt, stmts)->stmt, "off") ||
		!is_ddl_propagation_switch(llast_node(RawStmt, stmts)->stmt, "on"))
		return false;
	for (i = 1; i < list_length(stmts) - 1; i++)
	{
		if (!IsA(list_nth_node(RawStmt, stmts, i)->stmt, LockStmt))
			return false;
	}
	set = (VariableSetStmt *) pstmt->utilityStmt;
	(void) set_config_option(set->name,
							 strVal(&((A_Const *) linitial(set->args))->val),
							 superuser() ? PGC_SUSET : PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_LOCAL, true, 0, false);
	return true;
}
