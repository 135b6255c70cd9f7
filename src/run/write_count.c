/*-------------------------------------------------------------------------
 *
 * write_count.c
 *		  The rows a tool call changes, counted by the executor at every
 *		  level, against the call's write limit.
 *
 * A call's write limit (max_affected, neon_ai_tools.max_affected_rows) and
 * its confirmation apply to every row the call changes, not only to those
 * of the agent's own statement: rows changed by functions, procedures and
 * DO blocks it runs, by data-modifying WITH queries, by rules, by triggers
 * and by foreign-key actions (ri_triggers.c runs its DELETE and UPDATE
 * through SPI) all pass through a ModifyTable node of some executor run.
 *
 * So, while a writing call runs, every executor run the call starts has its
 * ModifyTable nodes wrapped (nat_writes_watch(), from call_guard.c's
 * ExecutorStart hook, after the plan's state is built).  The wrapper counts
 * what the node itself counts: es_processed, which ExecInsert(),
 * ExecUpdate(), ExecDelete() and MERGE raise for each row they change, but
 * only for the node that sets the statement's tag (canSetTag).  A node
 * that does not (a data-modifying WITH, a rule's extra action) has
 * canSetTag set for the length of each of its own invocations, and the
 * executor's es_processed put back after it, so the statement's own count
 * is unchanged.  Nested statements run their own executor, so nothing is
 * counted twice.  TRUNCATE changes rows without an executor: call_guard.c
 * counts the rows of every table it would empty, before it runs
 * (nat_writes_add()).
 *
 * Citus runs a modification of a distributed, reference or Citus local
 * table as a custom scan on the coordinator, with no ModifyTable node
 * there: the shards change on the workers, and Citus adds the rows they
 * report to es_processed.  Such an executor run is counted by that
 * es_processed when it finishes, less the rows its nested runs counted
 * (Citus's local execution of a shard placed on the coordinator runs its
 * own ModifyTable), so no row counts twice.
 *
 * The limit is checked when any statement of the call finishes
 * (ExecutorFinish, after its AFTER triggers and cascades ran) and when the
 * call ends: past it the call fails with limit_exceeded and its
 * subtransaction is rolled back, so nothing is changed.  Rows changed in a
 * block that was later rolled back (an exception handler) still count: the
 * count never goes down.  A read-only call writes nothing and is not
 * watched.
 *
 * IDENTIFICATION
 *		  src/core/write_count.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/table.h"
#include "catalog/heap.h"
#include "catalog/objectaddress.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "utils/rel.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_namespace.h"
#include "nodes/extensible.h"
#include "access/htup_details.h"
#include "access/xact.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "run/run.h"
#include "nodes/execnodes.h"
#include "nodes/parsenodes.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"

/* a wrapped node and the function it ran before */
typedef struct WrappedNode
{
	PlanState  *node;
	ExecProcNodeMtd real;
} WrappedNode;

/* the function every ModifyTable node runs (ExecModifyTable, not exported) */
static ExecProcNodeMtd modify_table_real = NULL;

static struct
{
	bool		active;			/* a writing call is being counted */
	int			paused;			/* the call's own bookkeeping is writing */
	int64		total;			/* rows changed so far, every level */
	int64		limit;			/* -1: none */
	WrappedNode *wrapped;		/* nodes that ran another function, if any
								 * (another extension wrapped them): in the
								 * call's memory */
	int			nwrapped;
	int			maxwrapped;
	List	   *citus_runs;		/* CitusRun of each Citus modification running */
	int64		last_citus_rows;	/* rows counted for the last Citus
									 * modification to finish, or -1 */
	Node	   *citus_utility;	/* the utility statement whose Citus tables
								 * were counted through Citus, while it runs */
	List	   *citus_tables;	/* those tables (Oid) */
	bool		citus_counted;	/* the statement being counted has one */
	MemoryContext cxt;
}			writes;

/* a Citus modification's executor run, counted when it finishes */
typedef struct CitusRun
{
	EState	   *estate;
	uint64		processed;		/* es_processed when it started */
	int64		total;			/* the call's count when it started */
} CitusRun;

/*
 * Is this executor run a modification that Citus carries out on the
 * shards (a Citus custom scan at the top of an INSERT, UPDATE, DELETE or
 * MERGE)?
 */
static bool
is_citus_modification(QueryDesc *queryDesc)
{
	Plan	   *top = queryDesc->planstate->plan;
	const char *name;

	if (queryDesc->operation == CMD_SELECT || queryDesc->operation == CMD_UTILITY ||
		!IsA(top, CustomScan))
		return false;
	/* "Citus Adaptive", "Citus INSERT ... SELECT", "Citus MERGE INTO ..." */
	name = ((CustomScan *) top)->methods->CustomName;
	return name != NULL && strncmp(name, "Citus ", 6) == 0;
}

/* are the call's rows being counted now? */
static bool
counting(void)
{
	return writes.active && writes.paused == 0;
}

/*
 * The function a wrapped node ran before: ExecModifyTable, unless another
 * extension had wrapped the node first (then the newest entry for it: a
 * node of an ended executor run can share an address with a new one).
 */
static ExecProcNodeMtd
real_function(PlanState *node)
{
	int			i;

	for (i = writes.nwrapped - 1; i >= 0; i--)
	{
		if (writes.wrapped[i].node == node)
			return writes.wrapped[i].real;
	}
	return modify_table_real;
}

/*
 * One invocation of a ModifyTable node: all its rows without RETURNING,
 * one row with it.
 */
static TupleTableSlot *
counted_modify_table(PlanState *pstate)
{
	ModifyTableState *mt = (ModifyTableState *) pstate;
	EState	   *estate = pstate->state;
	ExecProcNodeMtd real = real_function(pstate);
	uint64		before = estate->es_processed;
	bool		sets_tag = mt->canSetTag;
	TupleTableSlot *slot;
	uint64		done;

	mt->canSetTag = true;
	slot = real(pstate);
	done = estate->es_processed - before;
	if (!sets_tag)
	{
		mt->canSetTag = false;
		estate->es_processed = before;
	}

	/*
	 * A view's rows are changed by its INSTEAD OF triggers, whose own
	 * statements are counted where they run: not twice.  Rows of tables in
	 * pg_catalog are metadata, not data (Citus deletes a dropped table's rows
	 * from its pg_dist_* tables with DELETE statements).
	 */
	if (counting() &&
		mt->resultRelInfo->ri_RelationDesc->rd_rel->relkind != RELKIND_VIEW &&
		RelationGetNamespace(mt->resultRelInfo->ri_RelationDesc) != PG_CATALOG_NAMESPACE)
		writes.total += (int64) done;
	return slot;
}

/*
 * A node that does not set the statement's tag and writes a foreign table:
 * postgres_fdw's direct modification decides whether to count its rows
 * from the plan's flag when it begins, before the node can be wrapped, so
 * they would not be counted (a foreign table in a data-modifying WITH, or
 * in a rule's action).
 */
static void
refuse_uncounted_foreign(ModifyTableState *mt)
{
	int			i;

	if (mt->canSetTag)
		return;
	for (i = 0; i < mt->mt_nrels; i++)
	{
		Relation	rel = mt->resultRelInfo[i].ri_RelationDesc;

		if (rel->rd_rel->relkind == RELKIND_FOREIGN_TABLE)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("foreign table \"%s\" cannot be changed by a data-modifying WITH or a rule in a tool call",
							RelationGetRelationName(rel)),
					 errdetail("The rows it would change cannot be counted against the call's write limit."),
					 errhint("Change the foreign table in a statement of its own.")));
	}
}

static void
wrap_node(PlanState *node)
{
	if (!IsA(node, ModifyTableState) ||
		node->ExecProcNodeReal == counted_modify_table)
		return;
	refuse_uncounted_foreign((ModifyTableState *) node);
	if (modify_table_real == NULL)
		modify_table_real = node->ExecProcNodeReal;
	if (node->ExecProcNodeReal == modify_table_real)
	{
		ExecSetExecProcNode(node, counted_modify_table);
		return;
	}
	if (writes.nwrapped == writes.maxwrapped)
	{
		writes.maxwrapped = Max(8, writes.maxwrapped * 2);
		writes.wrapped = writes.wrapped == NULL ?
			MemoryContextAlloc(writes.cxt, writes.maxwrapped * sizeof(WrappedNode)) :
			repalloc(writes.wrapped, writes.maxwrapped * sizeof(WrappedNode));
	}
	writes.wrapped[writes.nwrapped].node = node;
	writes.wrapped[writes.nwrapped].real = node->ExecProcNodeReal;
	writes.nwrapped++;
	ExecSetExecProcNode(node, counted_modify_table);
}

/*
 * An executor run of the call has started: count the rows its ModifyTable
 * nodes change (the statement's own, and those of its data-modifying WITH
 * queries, which the executor lists in es_auxmodifytables).
 */
void
nat_writes_watch(QueryDesc *queryDesc)
{
	ListCell   *lc;

	if (!writes.active || queryDesc->planstate == NULL)
		return;
	if (is_citus_modification(queryDesc))
	{
		MemoryContext old = MemoryContextSwitchTo(writes.cxt);
		CitusRun   *run = palloc(sizeof(CitusRun));

		run->estate = queryDesc->estate;
		run->processed = queryDesc->estate->es_processed;
		run->total = writes.total;
		writes.citus_runs = lappend(writes.citus_runs, run);
		MemoryContextSwitchTo(old);
		return;
	}
	wrap_node(queryDesc->planstate);
	foreach(lc, queryDesc->estate->es_auxmodifytables)
		wrap_node((PlanState *) lfirst(lc));
}

/*
 * An executor run of the call has finished: a Citus modification adds the
 * rows the workers changed that no nested run counted.  (A run that ended
 * in an error is not finished; its entry stays, unused, until the call
 * ends.)
 */
void
nat_writes_finish(QueryDesc *queryDesc)
{
	ListCell   *lc;

	if (!writes.active)
		return;
	foreach(lc, writes.citus_runs)
	{
		CitusRun   *run = lfirst(lc);
		int64		rows;

		if (run->estate != queryDesc->estate)
			continue;
		rows = (int64) (queryDesc->estate->es_processed - run->processed) -
			(writes.total - run->total);
		writes.citus_runs = foreach_delete_current(writes.citus_runs, lc);
		if (rows > 0 && counting())
			writes.total += rows;
		/* all it changed, its local shards' own runs included */
		writes.last_citus_rows = writes.total - run->total;
		return;
	}
}

/*
 * The statement that just finished was a Citus modification and changed
 * exactly "rows" rows by its own count (what its RETURNING gave back):
 * count that instead of what Citus reported (INSERT ... SELECT into a
 * distributed table reports the rows it sent to the shards, skipped ones
 * included).  Returns the change to the call's count.
 */
int64
nat_writes_citus_exact(int64 rows)
{
	int64		delta;

	if (!writes.active || writes.last_citus_rows < 0)
		return 0;
	delta = rows - writes.last_citus_rows;
	writes.total += delta;
	writes.last_citus_rows = -1;
	return delta;
}

/*
 * A writing call starts: count from zero, with no limit until the plan
 * sets one.
 */
void
nat_writes_begin(MemoryContext cxt)
{
	writes.active = true;
	writes.paused = 0;
	writes.total = 0;
	writes.limit = -1;
	writes.wrapped = NULL;
	writes.nwrapped = 0;
	writes.maxwrapped = 0;
	writes.citus_runs = NIL;
	writes.last_citus_rows = -1;
	writes.citus_utility = NULL;
	writes.citus_tables = NIL;
	writes.cxt = cxt;
}

void
nat_writes_end(void)
{
	writes.active = false;
	writes.paused = 0;
	writes.wrapped = NULL;
	writes.nwrapped = 0;
	writes.maxwrapped = 0;
	writes.citus_runs = NIL;
	writes.cxt = NULL;
}

void
nat_writes_set_limit(int64 limit)
{
	writes.limit = limit;
	nat_citus_call_write_limit(limit);	/* to the workers, in a Citus call */
}

int64
nat_writes_total(void)
{
	return writes.total;
}

/*
 * The call's own bookkeeping (a used confirmation token) writes rows that
 * are not the agent's: not counted.
 */
void
nat_writes_pause(void)
{
	writes.paused++;
}

void
nat_writes_resume(void)
{
	Assert(writes.paused > 0);
	writes.paused--;
}

/*
 * Past the limit?  Then the call fails (execute.c words the error).
 */
void
nat_writes_check(void)
{
	if (!writes.active || writes.limit < 0 || writes.total <= writes.limit)
		return;
	if (nat_guard_remote())
		ereport(ERROR,
				(errcode(ERRCODE_NAT_WORKER_WRITE_LIMIT),
				 errmsg("this statement would change " INT64_FORMAT " rows on a Citus worker, more than the tool call's limit of " INT64_FORMAT "; nothing was changed",
						writes.total, writes.limit),
				 errhint("Narrow the statement so that fewer rows change.")));
	nat_throw_write_limit(writes.total, writes.limit);
}

/*
 * Rows changed without an executor (TRUNCATE): counted, then checked, before
 * they change.
 */
void
nat_writes_add(int64 rows)
{
	if (!counting())
		return;
	writes.total += rows;
	nat_writes_check();
}

/*
 * The rows of a Citus table (distributed, reference or Citus local), which
 * are in its shards, mostly on the workers: the coordinator's own table is
 * empty.  They are counted with a query Citus runs on the shards, which
 * needs SELECT on the table.  The shards' own TRUNCATE or DROP that Citus
 * then runs here (the coordinator's placements) are not counted again.
 */
static int64
count_citus_rows(Oid relid)
{
	char	   *sql;
	int64		rows;
	bool		isnull;
	int			rc;
	int			save_nestlevel;
	MemoryContext old;

	/* the query would see only the rows the policies show; all go */
	if (check_enable_rls(relid, InvalidOid, true) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("removing or rewriting the rows of Citus table \"%s\" in a tool call is not allowed under its row-level security",
						get_rel_name(relid)),
				 errdetail("Its rows are in shards on the workers; the call counts them against its write limit with a query, which would see only the rows its policies show."),
				 errhint("Remove the rows with delete_data, which its policies apply to.")));
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("removing or rewriting the rows of Citus table \"%s\" in a tool call needs SELECT on it",
						get_rel_name(relid)),
				 errdetail("Its rows are in shards on the workers; the call counts them against its write limit with a query, before they change."),
				 errhint("Ask the database administrator for SELECT on the table, or remove its rows with delete_data.")));
	sql = psprintf("SELECT pg_catalog.count(*) FROM ONLY %s",
				   quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
											  get_rel_name(relid)));

	/*
	 * Nothing of the agent's in the query: count() and the rest resolved in
	 * pg_catalog only (an aggregate "count" planted earlier in the caller's
	 * search_path would count what it likes).
	 */
	save_nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	if ((rc = SPI_execute(sql, true, 1)) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not count the rows of a Citus table: %s",
			 SPI_result_code_string(rc));
	rows = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
									   SPI_tuptable->tupdesc, 1, &isnull));
	SPI_finish();
	AtEOXact_GUC(false, save_nestlevel);
	pfree(sql);

	old = MemoryContextSwitchTo(writes.cxt);
	writes.citus_tables = list_append_unique_oid(writes.citus_tables, relid);
	MemoryContextSwitchTo(old);
	return isnull ? 0 : rows;
}

/*
 * The rows of a table visible to the statement, counted one by one (a
 * TRUNCATE about to empty it); the call's deadline bounds the scan.
 */
static int64
count_table_rows(Oid relid)
{
	Relation	rel;
	Snapshot	snapshot;
	SysScanDesc scan;
	int64		rows = 0;

	if (!nat_guard_remote() && nat_citus_table_kind(relid) != NAT_CITUS_NONE)
	{
		writes.citus_counted = true;
		return count_citus_rows(relid);
	}
	/* a shard of a table counted above, which Citus empties here too */
	if (writes.citus_utility != NULL &&
		list_member_oid(writes.citus_tables, nat_citus_local_shard_parent(relid)))
		return 0;
	rel = table_open(relid, NoLock);
	snapshot = RegisterSnapshot(GetTransactionSnapshot());

	/* a plain sequential scan (systable_beginscan's is the same on 15 to 19) */
	scan = systable_beginscan(rel, InvalidOid, false, snapshot, 0, NULL);
	while (HeapTupleIsValid(systable_getnext(scan)))
	{
		CHECK_FOR_INTERRUPTS();
		rows++;
	}
	systable_endscan(scan);
	UnregisterSnapshot(snapshot);
	table_close(rel, NoLock);
	return rows;
}

/*
 * Lock a table TRUNCATE names as TRUNCATE will, once the role may truncate
 * it (so that no lock is taken on a table the role may not touch).
 */
static void
truncate_lock_callback(const RangeVar *relation, Oid relid, Oid oldrelid,
					   void *arg)
{
	AclResult	aclresult;

	if (!OidIsValid(relid))
		return;
	aclresult = pg_class_aclcheck(relid, GetUserId(), ACL_TRUNCATE);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, get_relkind_objtype(get_rel_relkind(relid)),
					   relation->relname);
}

/* add relid and, if inh, its inheritors, locked as TRUNCATE locks them */
static List *
add_truncated(List *relids, Oid relid, bool inh)
{
	List	   *all = inh ? find_all_inheritors(relid, AccessExclusiveLock, NULL) :
		list_make1_oid(relid);

	return list_concat_unique_oid(relids, all);
}

/*
 * A TRUNCATE the call runs: the rows of every table it would empty (those
 * it names, their inheritors and partitions, and with CASCADE the tables
 * that reference them, as ExecuteTruncate() works them out) count against
 * the write limit before anything is emptied.  A foreign table's rows
 * cannot be counted here: TRUNCATE of one is refused in a call.
 */
static void
count_truncate(TruncateStmt *stmt)
{
	List	   *relids = NIL;
	ListCell   *lc;
	int64		rows = 0;

	foreach(lc, stmt->relations)
	{
		RangeVar   *rv = lfirst_node(RangeVar, lc);
		Oid			relid = RangeVarGetRelidExtended(rv, AccessExclusiveLock, 0,
													 truncate_lock_callback, NULL);

		relids = add_truncated(relids, relid, rv->inh);
	}
	if (stmt->behavior == DROP_CASCADE)
	{
		for (;;)
		{
			List	   *referencing = heap_truncate_find_FKs(relids);
			int			before = list_length(relids);

			foreach(lc, referencing)
				relids = add_truncated(relids, lfirst_oid(lc), true);
			if (list_length(relids) == before)
				break;
		}
	}
	foreach(lc, relids)
	{
		Oid			relid = lfirst_oid(lc);
		char		relkind;

		LockRelationOid(relid, AccessExclusiveLock);
		relkind = get_rel_relkind(relid);
		if (relkind == RELKIND_FOREIGN_TABLE)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("TRUNCATE of foreign table \"%s\" is not allowed in a tool call",
							get_rel_name(relid)),
					 errdetail("The rows it would remove cannot be counted against the call's write limit.")));
		if (relkind == RELKIND_RELATION)
			rows += count_table_rows(relid);
	}
	nat_writes_add(rows);
}

/* ---- utility statements that remove, rewrite or fill tables ---- */

/* lock a relation DROP or ALTER TABLE names as they will, once owned */
static void
owner_lock_callback(const RangeVar *relation, Oid relid, Oid oldrelid,
					void *arg)
{
	if (!OidIsValid(relid))
		return;
	if (!nat_relation_ownercheck(relid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER,
					   get_relkind_objtype(get_rel_relkind(relid)),
					   relation->relname);
}

/* the rows of the tables and materialized views among relids, locked */
static int64
count_relations(List *relids)
{
	ListCell   *lc;
	int64		rows = 0;

	foreach(lc, relids)
	{
		Oid			relid = lfirst_oid(lc);
		char		relkind;

		LockRelationOid(relid, AccessExclusiveLock);
		relkind = get_rel_relkind(relid);
		if (relkind == RELKIND_RELATION || relkind == RELKIND_MATVIEW)
			rows += count_table_rows(relid);
	}
	return rows;
}

/* the rows of a table and of its inheritors and partitions */
static int64
count_with_inheritors(Oid relid)
{
	return count_relations(find_all_inheritors(relid, AccessExclusiveLock, NULL));
}

/* the rows of the owned relation rv names (none if it does not exist) */
static int64
count_named(RangeVar *rv)
{
	Oid			relid = RangeVarGetRelidExtended(rv, AccessExclusiveLock,
												 RVR_MISSING_OK,
												 owner_lock_callback, NULL);

	return OidIsValid(relid) ? count_with_inheritors(relid) : 0;
}

/* the rows of every table and materialized view of a schema */
static int64
count_schema(const char *name)
{
	Oid			nspid = get_namespace_oid(name, true);
	Relation	rel;
	SysScanDesc scan;
	HeapTuple	tup;
	List	   *relids = NIL;

	if (!OidIsValid(nspid))
		return 0;
	rel = table_open(RelationRelationId, AccessShareLock);
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_class c = (Form_pg_class) GETSTRUCT(tup);

		if (c->relnamespace == nspid &&
			(c->relkind == RELKIND_RELATION || c->relkind == RELKIND_MATVIEW))
			relids = lappend_oid(relids, c->oid);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return count_relations(relids);
}

/*
 * Before a utility statement runs: the rows it will remove or rewrite
 * count, and past the limit nothing runs.  TRUNCATE (above), DROP TABLE
 * and DROP MATERIALIZED VIEW (their inheritors and partitions go with
 * them), DROP SCHEMA (every table in it), and ALTER TABLE that drops a
 * column or changes its type (every row is rewritten).
 */
void
nat_writes_utility_before(Node *stmt)
{
	int64		rows = 0;
	ListCell   *lc;

	if (!counting())
		return;
	writes.citus_counted = false;
	if (IsA(stmt, TruncateStmt))
		count_truncate((TruncateStmt *) stmt);
	else if (IsA(stmt, DropStmt))
	{
		DropStmt   *ds = (DropStmt *) stmt;

		if (ds->removeType == OBJECT_TABLE || ds->removeType == OBJECT_MATVIEW)
		{
			foreach(lc, ds->objects)
				rows += count_named(makeRangeVarFromNameList(lfirst_node(List, lc)));
		}
		else if (ds->removeType == OBJECT_SCHEMA)
		{
			foreach(lc, ds->objects)
				rows += count_schema(strVal(lfirst(lc)));
		}
	}
	else if (IsA(stmt, AlterTableStmt))
	{
		AlterTableStmt *as = (AlterTableStmt *) stmt;

		foreach(lc, as->cmds)
		{
			AlterTableCmd *cmd = lfirst_node(AlterTableCmd, lc);

			if (cmd->subtype == AT_AlterColumnType || cmd->subtype == AT_DropColumn)
			{
				rows = count_named(as->relation);
				break;
			}
		}
	}
	if (writes.citus_counted && writes.citus_utility == NULL)
		writes.citus_utility = stmt;
	if (rows > 0)
		nat_writes_add(rows);
}

/*
 * After a utility statement ran: the rows it put in a table (CREATE TABLE
 * AS, SELECT INTO, CREATE MATERIALIZED VIEW, REFRESH MATERIALIZED VIEW)
 * count, and past the limit the call fails and is rolled back.
 */
void
nat_writes_utility_after(Node *stmt)
{
	RangeVar   *rv = NULL;
	Oid			relid;

	if (!counting())
		return;
	if (IsA(stmt, CreateTableAsStmt))
		rv = ((CreateTableAsStmt *) stmt)->into->rel;
	else if (IsA(stmt, RefreshMatViewStmt))
		rv = ((RefreshMatViewStmt *) stmt)->relation;
	if (rv == NULL)
		return;
	relid = RangeVarGetRelid(rv, NoLock, true);
	if (!OidIsValid(relid))
		return;					/* WITH NO DATA into nothing, IF NOT EXISTS */
	CommandCounterIncrement();	/* see the rows the statement wrote */
	nat_writes_add(count_table_rows(relid));
}

/*
 * A utility statement ended, however (call_guard.c, on every way out): its
 * Citus tables' shards are no longer being emptied, also when an error
 * that agent code catches ended it.
 */
void
nat_writes_utility_end(Node *stmt)
{
	if (stmt == writes.citus_utility)
		writes.citus_utility = NULL;
}
