/*-------------------------------------------------------------------------
 *
 * citus_tables.c
 *		  What Citus makes of a table, read from its catalog at run time.
 *
 * The extension never links to Citus: whether it is there, and what it
 * made of a table, come from its catalog table pg_catalog.pg_dist_partition
 * (one row per Citus table: partmethod 'h' for a hash-distributed table,
 * 'n' with repmodel 't' for a reference table, 'n' with repmodel 's' for a
 * Citus local table or a single-shard table), found by name in the
 * catalog.  Without Citus there is no such table and every answer is
 * "none", at the cost of one syscache lookup.
 *
 * The callers care about one thing: the rows of a distributed table come
 * from several shards at once and in no stable order, and those of a
 * reference table from whichever of its copies the executor picks, so two
 * runs of the same query without ORDER BY may return them in different
 * orders (continuation.c).  A Citus local or single-shard table has one
 * placement and reads like a plain table.
 *
 * IDENTIFICATION
 *		  src/sql/citus_tables.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "miscadmin.h"
#include "plan/plan.h"
#include "nodes/nodeFuncs.h"
#include "rewrite/rewriteHandler.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

/*
 * One row of one of Citus's catalog tables (pg_catalog.<catalog>) by its
 * key column, through the named index when there is one: the values of
 * the columns "names" (n of them) into values/nulls.  False without Citus,
 * for a catalog whose columns this code does not know, or with no such
 * row.  cmp is the key's equality function (F_OIDEQ, F_INT8EQ).
 */
bool
nat_citus_catalog_row(const char *catalog, const char *index_name,
					  const char *key_column, RegProcedure cmp, Datum key,
					  const char *const *names, int n, Datum *values, bool *nulls)
{
	Oid			catalog_oid = get_relname_relid(catalog, PG_CATALOG_NAMESPACE);
	Oid			index;
	AttrNumber	key_att;
	AttrNumber	atts[4];
	Relation	rel;
	ScanKeyData skey;
	SysScanDesc scan;
	HeapTuple	tup;
	bool		found = false;
	int			i;

	Assert(n <= lengthof(atts));
	if (!OidIsValid(catalog_oid))
		return false;
	key_att = get_attnum(catalog_oid, key_column);
	if (key_att == InvalidAttrNumber)
		return false;
	for (i = 0; i < n; i++)
	{
		if ((atts[i] = get_attnum(catalog_oid, names[i])) == InvalidAttrNumber)
			return false;		/* not a Citus this code knows */
	}
	index = get_relname_relid(index_name, PG_CATALOG_NAMESPACE);

	rel = table_open(catalog_oid, AccessShareLock);
	ScanKeyInit(&skey, key_att, BTEqualStrategyNumber, cmp, key);
	scan = systable_beginscan(rel, index, OidIsValid(index), NULL, 1, &skey);
	if (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		for (i = 0; i < n; i++)
			values[i] = heap_getattr(tup, atts[i], RelationGetDescr(rel), &nulls[i]);
		found = true;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/*
 * What Citus made of relid: NAT_CITUS_NONE without Citus, or for a table
 * it does not know.
 */
NatCitusKind
nat_citus_table_kind(Oid relid)
{
	static const char *const names[] = {"partmethod", "repmodel"};
	Datum		values[2];
	bool		nulls[2];

	if (!nat_citus_catalog_row("pg_dist_partition", "pg_dist_partition_logical_relid_index",
							   "logicalrelid", F_OIDEQ, ObjectIdGetDatum(relid),
							   names, 2, values, nulls) ||
		nulls[0] || nulls[1])
		return NAT_CITUS_NONE;
	if (DatumGetChar(values[0]) != 'n')
		return NAT_CITUS_DISTRIBUTED;
	return DatumGetChar(values[1]) == 't' ? NAT_CITUS_REFERENCE : NAT_CITUS_LOCAL;
}

/*
 * Do relid's rows come in no stable order without ORDER BY: a distributed
 * or reference table?
 */
static bool
unordered_table(Oid relid)
{
	NatCitusKind kind = nat_citus_table_kind(relid);

	return kind == NAT_CITUS_DISTRIBUTED || kind == NAT_CITUS_REFERENCE;
}

typedef struct UnorderedContext
{
	Oid			found;			/* the first such table */
	Oid			view;			/* the view being expanded, if any */
} UnorderedContext;

static bool unordered_walker(Node *node, UnorderedContext *cxt);

/*
 * A relation read by a query: a distributed or reference table, or a view
 * whose query reads one (the first found is kept in cxt).  A view is
 * locked as the rewriter will lock it for the query.
 */
static bool
unordered_relation(Oid relid, char relkind, UnorderedContext *cxt)
{
	Relation	view;
	Oid			outer = cxt->view;
	bool		result;

	if (relkind != RELKIND_VIEW)
	{
		if (!unordered_table(relid))
			return false;
		cxt->found = relid;
		return true;
	}
	/* before 16, a view's query lists the view itself (as OLD and NEW) */
	if (relid == cxt->view)
		return false;
	view = relation_open(relid, AccessShareLock);
	cxt->view = relid;
	result = unordered_walker((Node *) get_view_query(view), cxt);
	cxt->view = outer;
	relation_close(view, NoLock);
	return result;
}

static bool
unordered_walker(Node *node, UnorderedContext *cxt)
{
	if (node == NULL)
		return false;
	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, unordered_walker, cxt,
								 QTW_EXAMINE_RTES_BEFORE);
	if (IsA(node, RangeTblEntry))
	{
		RangeTblEntry *rte = (RangeTblEntry *) node;

		return rte->rtekind == RTE_RELATION &&
			unordered_relation(rte->relid, rte->relkind, cxt);
	}
	return expression_tree_walker(node, unordered_walker, cxt);
}

/*
 * The distributed or reference table whose rows a scan of relid returns:
 * relid itself, or the first such table a view reads; InvalidOid if none.
 * Without Citus, InvalidOid at once.
 */
Oid
nat_citus_relation_unordered(Oid relid)
{
	UnorderedContext cxt = {InvalidOid, InvalidOid};

	if (!OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE)))
		return InvalidOid;
	(void) unordered_relation(relid, get_rel_relkind(relid), &cxt);
	return cxt.found;
}

/*
 * The first distributed or reference table the analysed query reads,
 * directly or through views (not through functions: what a function reads
 * is not in the query), or InvalidOid.  Without Citus, InvalidOid at once.
 */
Oid
nat_citus_query_unordered(Query *query)
{
	UnorderedContext cxt = {InvalidOid, InvalidOid};

	if (!OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE)))
		return InvalidOid;
	(void) unordered_walker((Node *) query, &cxt);
	return cxt.found;
}
