/*-------------------------------------------------------------------------
 *
 * empty_hints.c
 *		  Existing values close to a filter's value, for a read that
 *		  answered no rows (README, "Empty results").
 *
 * An agent that filters {"status": "Active"} on a column holding "active"
 * gets no rows and concludes there are none.  When select_query answers
 * no rows, this file reads the where argument for equality and IN
 * conditions on text-like columns (text, varchar, char, name, citext and
 * domains over them) and enum columns, and, for each value shown to match
 * nothing, looks for values the column holds that differ from it only by
 * case or surrounding spaces, by a few letters (edit distance), as a
 * prefix, or as the initials of their words.  Up to NAT_HINT_MAX_CLOSE of
 * them go into the answer's warning and suggested_actions, and into
 * did_you_mean when there is exactly one.
 *
 * Where the values come from (neon_ai_tools.empty_result_hints):
 *
 *	 - the column's statistics (pg_statistic's most common values and
 *	   histogram bounds, from the syscache: no query), under pg_stats's own
 *	   rule: only when the role may SELECT the column and row-level security
 *	   is not in force for the role on the table, since statistics are
 *	   computed from every row, those a policy hides included;
 *	 - with "query", when the statistics cannot be used or do not settle it:
 *	   a bounded read as the calling role, inside the call (its read-only
 *	   mode and guards): a few index probes around the value when a btree
 *	   index of the column's default ordering leads with it, else the values
 *	   of the first NAT_HINT_SCAN_ROWS rows read.  Where the statistics'
 *	   rule holds (the role may read every row's value of the column) and
 *	   the relation is a table of its own, the index or the table is read
 *	   directly, with the call's snapshot: a query costs several times a
 *	   probe.  Otherwise (row-level security, views, parents of children)
 *	   the same read is a query as the role, so that policies and rules
 *	   apply.  It runs in a subtransaction of its own under a short time
 *	   limit (NAT_HINT_TIMEOUT_MS, at most half the time the call has
 *	   left); any failure of it only means no hint.
 *
 * A value counts as matching nothing when it is the where's only
 * condition (the empty answer proves it), or when the values read settle
 * it: the statistics hold every value of the column, a scan read fewer rows
 * than its bound, or an index probe started at the value itself.
 * Otherwise another condition may be why no row matched, and nothing is
 * said.
 *
 * Covered: the structured where (bare values, eq, in and bare lists, in
 * the members of the top level and of "and" lists), and the SQL-string
 * where's "column = 'value'" and "column IN ('a', 'b')" in its top-level
 * AND, read from the raw parse tree.  Conditions under or and not are not
 * looked into.
 *
 * IDENTIFICATION
 *		  src/answer/empty_hints.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_index.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "answer/answer.h"
#include "nodes/params.h"
#include "nodes/parsenodes.h"
#include "parser/parse_coerce.h"
#include "plan/tool_plan.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"

#define NAT_HINT_MAX_COLUMNS	3	/* columns looked into */
#define NAT_HINT_MAX_VALUES		5	/* values of one column looked for */
#define NAT_HINT_MAX_CLOSE		5	/* close values offered for one value */
#define NAT_HINT_MAX_ACTIONS	10	/* suggested_actions in all */
#define NAT_HINT_SCAN_ROWS		1000	/* rows a scan reads */
#define NAT_HINT_PROBE_ROWS		3	/* rows each index probe reads */
#define NAT_HINT_TIMEOUT_MS		50	/* the query's own time limit */
#define NAT_HINT_MAX_CHARS		255 /* longest value compared */

/* a column of the filter, the values looked for in it, and what it holds */
typedef struct HintColumn
{
	AttrNumber	attnum;
	char	   *name;
	Oid			typid;			/* the column's type */
	Oid			collid;			/* and collation */
	bool		folded_equal;	/* its equality ignores case (citext, a
								 * nondeterministic collation) */
	bool		bpchar;			/* char(n): trailing spaces do not count */
	List	   *given;			/* of char *: the values looked for */

	bool		read;			/* the values below were read */
	bool		complete;		/* they settle whether a value is there */
	bool		from_stats;
	List	   *values;			/* of char *: values the column holds */
	List	   *folded;			/* of char *: the same, folded (fold()) */
} HintColumn;

/* what the where argument holds */
typedef struct HintFilter
{
	Oid			relid;
	List	   *columns;		/* of HintColumn */
	int			conditions;		/* conditions in all */
	bool		echo;			/* {"col": "v"} or {"col": {"eq": "v"}} and
								 * nothing else: a retry may echo it */
} HintFilter;

static void collect_object(HintFilter *f, JsonbContainer *obj, int depth);
static void collect_sql(HintFilter *f, const char *condition);

/*
 * A column of the table by name, as nat_resolve_column() finds it (as
 * written, else folded to lower case), without raising: the query that
 * just ran resolved it already.  InvalidAttrNumber for none.
 */
static AttrNumber
find_column(Oid relid, const char *name)
{
	AttrNumber	attnum = get_attnum(relid, name);

	if (attnum == InvalidAttrNumber)
		attnum = get_attnum(relid, asc_tolower(name, strlen(name)));
	return attnum > 0 ? attnum : InvalidAttrNumber;
}

/*
 * Is a column of this type one whose values can be near misses: text-like
 * (string category: text, varchar, char, name, citext, domains over them)
 * or an enum?
 */
static bool
hintable_type(Oid typid)
{
	Oid			base = getBaseType(typid);

	return TypeCategory(base) == TYPCATEGORY_STRING || type_is_enum(base);
}

/*
 * Is the type citext (whose equality ignores case), in whatever schema?
 */
static bool
is_citext(Oid typid)
{
	HeapTuple	tuple = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	bool		result;

	if (!HeapTupleIsValid(tuple))
		return false;
	result = strcmp(NameStr(((Form_pg_type) GETSTRUCT(tuple))->typname), "citext") == 0;
	ReleaseSysCache(tuple);
	return result;
}

/*
 * The filter's entry for a column, made on first need; NULL when the
 * column's type takes no hints or enough columns are looked into.
 */
static HintColumn *
hint_column(HintFilter *f, AttrNumber attnum)
{
	HintColumn *col;
	Oid			typid;
	int32		typmod;
	Oid			collid;
	ListCell   *lc;

	foreach(lc, f->columns)
	{
		col = lfirst(lc);
		if (col->attnum == attnum)
			return col;
	}
	get_atttypetypmodcoll(f->relid, attnum, &typid, &typmod, &collid);
	if (list_length(f->columns) >= NAT_HINT_MAX_COLUMNS || !hintable_type(typid))
		return NULL;
	col = palloc0(sizeof(HintColumn));
	col->attnum = attnum;
	col->name = get_attname(f->relid, attnum, false);
	col->typid = typid;
	col->collid = collid;
	col->bpchar = getBaseType(typid) == BPCHAROID;
	col->folded_equal = (OidIsValid(collid) && !get_collation_isdeterministic(collid)) ||
		is_citext(getBaseType(typid));
	f->columns = lappend(f->columns, col);
	return col;
}

/*
 * Look for value in the column.
 */
static void
add_given(HintFilter *f, AttrNumber attnum, const char *value, int len)
{
	HintColumn *col;

	if (attnum == InvalidAttrNumber || (col = hint_column(f, attnum)) == NULL)
		return;
	if (list_length(col->given) < NAT_HINT_MAX_VALUES &&
		pg_mbstrlen_with_len(value, len) <= NAT_HINT_MAX_CHARS)
		col->given = lappend(col->given, pnstrdup(value, len));
}

/*
 * Look for the strings of a JSON array in the column.
 */
static void
add_given_list(HintFilter *f, AttrNumber attnum, JsonbValue *list)
{
	int			n = JsonContainerSize(list->val.binary.data);
	int			i;

	for (i = 0; i < n && i < NAT_HINT_MAX_VALUES; i++)
	{
		JsonbValue *item = getIthJsonbValueFromContainer(list->val.binary.data, i);

		if (item->type == jbvString)
			add_given(f, attnum, item->val.string.val, item->val.string.len);
	}
}

/*
 * One member of a filter object naming a column: a bare value, a bare
 * list (in), or operators of which eq and in are looked into.
 */
static void
collect_member(HintFilter *f, const char *key, JsonbValue *v)
{
	AttrNumber	attnum = find_column(f->relid, key);
	JsonbValue *op;

	f->conditions++;
	if (v->type == jbvString)
		add_given(f, attnum, v->val.string.val, v->val.string.len);
	else if (v->type == jbvBinary && JsonContainerIsArray(v->val.binary.data))
		add_given_list(f, attnum, v);
	else if (v->type == jbvBinary && JsonContainerIsObject(v->val.binary.data))
	{
		f->conditions += JsonContainerSize(v->val.binary.data) - 1;
		op = NAT_JSONB_MEMBER(v->val.binary.data, "eq");
		if (op && op->type == jbvString)
			add_given(f, attnum, op->val.string.val, op->val.string.len);
		op = NAT_JSONB_MEMBER(v->val.binary.data, "in");
		if (op && op->type == jbvBinary && JsonContainerIsArray(op->val.binary.data))
			add_given_list(f, attnum, op);
	}
}

/*
 * The members of a filter object (ANDed), and of its "and" lists.
 */
static void
collect_object(HintFilter *f, JsonbContainer *obj, int depth)
{
	NatJsonbKeys keys;
	const char *k;
	int			klen;
	JsonbValue	v;

	nat_jsonb_keys_begin(&keys, obj);
	while (nat_jsonb_next_key(&keys, &k, &klen, &v))
	{
		char	   *key = pnstrdup(k, klen);

		if (strcmp(key, "and") == 0 && v.type == jbvBinary &&
			JsonContainerIsArray(v.val.binary.data) && depth < NAT_MAX_WHERE_DEPTH)
		{
			int			n = JsonContainerSize(v.val.binary.data);
			int			i;

			for (i = 0; i < n; i++)
			{
				JsonbValue *item = getIthJsonbValueFromContainer(v.val.binary.data, i);

				if (item->type == jbvBinary && JsonContainerIsObject(item->val.binary.data))
					collect_object(f, item->val.binary.data, depth + 1);
				else if (item->type == jbvString)
					collect_sql(f, pnstrdup(item->val.string.val, item->val.string.len));
				else
					f->conditions++;
			}
		}
		else if (strcmp(key, "and") == 0 || strcmp(key, "or") == 0 ||
				 strcmp(key, "not") == 0)
			f->conditions += 2; /* not looked into: never the only one */
		else
			collect_member(f, key, &v);
	}
}

/*
 * The column a raw expression names, if it is a plain column reference
 * (column or table.column), else NULL.
 */
static const char *
raw_column_name(Node *node)
{
	ColumnRef  *ref;
	Node	   *last;

	if (node == NULL || !IsA(node, ColumnRef))
		return NULL;
	ref = (ColumnRef *) node;
	if (list_length(ref->fields) > 2)
		return NULL;
	last = llast(ref->fields);
	return IsA(last, String) ? strVal(last) : NULL;
}

/*
 * The string a raw expression is, if it is a string literal (cast or not),
 * else NULL.
 */
static const char *
raw_string(Node *node)
{
	A_Const    *c;

	if (node != NULL && IsA(node, TypeCast))
		node = ((TypeCast *) node)->arg;
	if (node == NULL || !IsA(node, A_Const))
		return NULL;
	c = (A_Const *) node;
	if (c->isnull || !IsA(&c->val, String))
		return NULL;
	return strVal(&c->val);
}

/*
 * One raw condition: its top-level AND's members; column = 'value' (either
 * way round) and column IN ('a', 'b') are looked into.
 */
static void
collect_raw(HintFilter *f, Node *node, int depth)
{
	A_Expr	   *a;
	const char *column;
	const char *value;
	ListCell   *lc;

	check_stack_depth();
	if (IsA(node, BoolExpr) && ((BoolExpr *) node)->boolop == AND_EXPR)
	{
		foreach(lc, ((BoolExpr *) node)->args)
			collect_raw(f, lfirst(lc), depth + 1);
		return;
	}
	f->conditions++;
	if (!IsA(node, A_Expr))
		return;
	a = (A_Expr *) node;
	if (list_length(a->name) != 1 || strcmp(strVal(linitial(a->name)), "=") != 0)
		return;
	if (a->kind == AEXPR_OP)
	{
		column = raw_column_name(a->lexpr);
		value = raw_string(a->rexpr);
		if (column == NULL)
		{
			column = raw_column_name(a->rexpr);
			value = raw_string(a->lexpr);
		}
		if (column && value)
			add_given(f, find_column(f->relid, column), value, strlen(value));
	}
	else if (a->kind == AEXPR_IN && (column = raw_column_name(a->lexpr)) != NULL &&
			 a->rexpr != NULL && IsA(a->rexpr, List))
	{
		foreach(lc, (List *) a->rexpr)
		{
			if ((value = raw_string(lfirst(lc))) != NULL)
				add_given(f, find_column(f->relid, column), value, strlen(value));
		}
	}
}

/*
 * A SQL condition string, parsed as filter_sql.c parses it (it did, just
 * before: it parses).  Its shape was checked there.
 */
static void
collect_sql(HintFilter *f, const char *condition)
{
	List	   *stmts = nat_raw_parser(psprintf("SELECT %s", condition));
	SelectStmt *sel;

	if (list_length(stmts) != 1)
	{
		f->conditions += 2;
		return;
	}
	sel = (SelectStmt *) linitial_node(RawStmt, stmts)->stmt;
	if (!IsA(sel, SelectStmt) || list_length(sel->targetList) != 1)
	{
		f->conditions += 2;
		return;
	}
	collect_raw(f, linitial_node(ResTarget, sel->targetList)->val, 0);
}

/*
 * A value as compared: without surrounding spaces, in lower case.
 */
static char *
fold(const char *value)
{
	const char *start = value;
	const char *end = value + strlen(value);

	while (*start != '\0' && isspace((unsigned char) *start))
		start++;
	while (end > start && isspace((unsigned char) end[-1]))
		end--;
	return str_tolower(start, end - start, DEFAULT_COLLATION_OID);
}

/*
 * The length of a char(n) value without its trailing spaces, which its
 * equality ignores; of any other value, its length.
 */
static int
compared_length(HintColumn *col, const char *value)
{
	int			len = strlen(value);

	if (col->bpchar)
		while (len > 0 && value[len - 1] == ' ')
			len--;
	return len;
}

/*
 * A value in lower case, as an equality that ignores case compares it.
 */
static char *
lower_case(const char *value)
{
	return str_tolower(value, strlen(value), DEFAULT_COLLATION_OID);
}

/*
 * Does the column hold value (by the column's equality, as far as text
 * tells it)?
 */
static bool
holds(HintColumn *col, const char *value)
{
	ListCell   *lc;
	char	   *lower = col->folded_equal ? lower_case(value) : NULL;
	int			len = compared_length(col, value);

	foreach(lc, col->values)
	{
		const char *v = lfirst(lc);

		if (lower ? strcmp(lower, lower_case(v)) == 0 :
			(compared_length(col, v) == len && strncmp(v, value, len) == 0))
			return true;
	}
	return false;
}

/*
 * Note a value the column holds (a char(n) value without the padding its
 * output keeps: an agent would not type it, and its equality ignores it).
 */
static void
add_value(HintColumn *col, char *value)
{
	if (pg_mbstrlen(value) > NAT_HINT_MAX_CHARS)
		return;
	if (col->bpchar)
		value[compared_length(col, value)] = '\0';
	col->values = lappend(col->values, value);
	col->folded = lappend(col->folded, fold(value));
}

/*
 * May the role read the column's statistics?  pg_stats's rule: SELECT on
 * the column (or the table), and row-level security not in force for the
 * role on the table: statistics are computed from every row.
 */
static bool
stats_readable(Oid relid, AttrNumber attnum)
{
	Oid			user = GetUserId();

	if (pg_class_aclcheck(relid, user, ACL_SELECT) != ACLCHECK_OK &&
		pg_attribute_aclcheck(relid, attnum, user, ACL_SELECT) != ACLCHECK_OK)
		return false;
	return check_enable_rls(relid, InvalidOid, true) != RLS_ENABLED;
}

/*
 * The values of one slot of the statistics, as text; returns how many.
 */
static int
add_slot_values(HintColumn *col, HeapTuple tuple, int kind, double *covered)
{
	AttStatsSlot sslot;
	Oid			output;
	bool		is_varlena;
	int			i;

	if (!get_attstatsslot(&sslot, tuple, kind, InvalidOid,
						  ATTSTATSSLOT_VALUES |
						  (covered ? ATTSTATSSLOT_NUMBERS : 0)))
		return 0;
	getTypeOutputInfo(sslot.valuetype, &output, &is_varlena);
	for (i = 0; i < sslot.nvalues; i++)
	{
		/* a long value is not read whole only to be left out */
		if (is_varlena && VARSIZE_ANY_EXHDR(DatumGetPointer(sslot.values[i])) >
			NAT_HINT_MAX_CHARS * pg_database_encoding_max_length())
			continue;
		add_value(col, OidOutputFunctionCall(output, sslot.values[i]));
		if (covered && i < sslot.nnumbers)
			*covered += sslot.numbers[i];
	}
	i = sslot.nvalues;
	free_attstatsslot(&sslot);
	return i;
}

/*
 * The column's values from its statistics: the most common values and the
 * histogram's bounds.  They hold every value of the column when there is
 * no histogram and the most common values are all the distinct values
 * ANALYZE counted.  False when there are none or the role may not read
 * them.
 */
static bool
stats_values(Oid relid, HintColumn *col)
{
	HeapTuple	tuple;
	bool		inh;
	int			mcv;
	int			hist;
	double		covered;
	float4		distinct;

	if (!stats_readable(relid, col->attnum))
		return false;
	/* a read of a parent reads its children: their statistics together */
	inh = get_rel_relkind(relid) == RELKIND_PARTITIONED_TABLE || has_subclass(relid);
	tuple = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(relid),
							Int16GetDatum(col->attnum), BoolGetDatum(inh));
	if (!HeapTupleIsValid(tuple))
		return false;
	covered = ((Form_pg_statistic) GETSTRUCT(tuple))->stanullfrac;
	distinct = ((Form_pg_statistic) GETSTRUCT(tuple))->stadistinct;
	mcv = add_slot_values(col, tuple, STATISTIC_KIND_MCV, &covered);
	hist = add_slot_values(col, tuple, STATISTIC_KIND_HISTOGRAM, NULL);
	ReleaseSysCache(tuple);
	col->read = true;
	col->from_stats = true;
	col->complete = hist == 0 && distinct > 0 && mcv >= (int) distinct &&
		covered > 0.999;
	return mcv + hist > 0;
}

/*
 * The access method of a relation.
 */
static Oid
relation_am(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			am;

	if (!HeapTupleIsValid(tuple))
		return InvalidOid;
	am = ((Form_pg_class) GETSTRUCT(tuple))->relam;
	ReleaseSysCache(tuple);
	return am;
}

/*
 * Is opclass the default btree operator class of the column's type (so
 * that ORDER BY the column follows it)?  From the syscache: core's
 * GetDefaultOpClass() scans pg_opclass.
 */
static bool
default_btree_opclass(Oid opclass, Oid typid)
{
	HeapTuple	tuple = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclass));
	Form_pg_opclass form;
	bool		result;

	if (!HeapTupleIsValid(tuple))
		return false;
	form = (Form_pg_opclass) GETSTRUCT(tuple);
	result = form->opcmethod == BTREE_AM_OID && form->opcdefault &&
		(form->opcintype == typid || IsBinaryCoercible(typid, form->opcintype));
	ReleaseSysCache(tuple);
	return result;
}

/*
 * A valid, complete btree index leading with the column, in its type's
 * default ordering and the column's collation, so that ORDER BY the column
 * and its operator family's comparisons read it, and its operator class
 * (*opclass); InvalidOid when there is none.
 */
static Oid
leading_index(Oid relid, HintColumn *col, Oid *opclass)
{
	Relation	rel = RelationIdGetRelation(relid);
	Oid			collid = col->collid;
	Oid			result = InvalidOid;
	ListCell   *lc;

	if (!RelationIsValid(rel))
		return InvalidOid;
	foreach(lc, RelationGetIndexList(rel))
	{
		HeapTuple	tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(lfirst_oid(lc)));
		Form_pg_index index;
		bool		isnull;
		oidvector  *classes;
		oidvector  *collations;

		if (!HeapTupleIsValid(tuple))
			continue;
		index = (Form_pg_index) GETSTRUCT(tuple);
		classes = (oidvector *) DatumGetPointer(SysCacheGetAttr(INDEXRELID, tuple,
																Anum_pg_index_indclass, &isnull));
		collations = (oidvector *) DatumGetPointer(SysCacheGetAttr(INDEXRELID, tuple,
																   Anum_pg_index_indcollation, &isnull));
		if (index->indisvalid && index->indkey.values[0] == col->attnum &&
			heap_attisnull(tuple, Anum_pg_index_indpred, NULL) &&
			collations->values[0] == collid &&
			relation_am(index->indexrelid) == BTREE_AM_OID &&
			default_btree_opclass(classes->values[0], col->typid))
		{
			result = index->indexrelid;
			*opclass = classes->values[0];
		}
		ReleaseSysCache(tuple);
		if (OidIsValid(result))
			break;
	}
	RelationClose(rel);
	return result;
}

/*
 * One bounded read of a column's values, run by run_bounded(): a query as
 * the role (read_query), or made on the table (read_heap) or its index
 * (read_index) itself.
 */
typedef struct HintSeen
{
	uint32		hash;
	int			len;
	char	   *bytes;			/* NULL: a free slot */
} HintSeen;

typedef struct HintRead
{
	Oid			relid;
	HintColumn *col;
	MemoryContext cxt;			/* where the values go */
	bool		scan;			/* a scan (read_heap, read_query): complete
								 * only if it stopped before its bound */
	Oid			index;			/* probes: read_index, or read_query's */
	Oid			opclass;
	const char *table;			/* read_query: the relation's display name */
	char	   *sql[2];			/* ... the scan, or the probes at or after $1
								 * and before it */
	HintSeen   *seen;			/* the distinct values read, by their bytes
								 * (made on first need) */
	int			nslots;			/* a power of two, over twice the rows read */
	int			nseen;
} HintRead;

/*
 * Is this value (its bytes) new to the read?  Notes it if so: the column's
 * values are kept distinct, so that each is compared once.
 */
static bool
first_seen(HintRead *r, const char *bytes, int len)
{
	uint32		hash = hash_bytes((const unsigned char *) bytes, len);
	int			i = hash & (r->nslots - 1);

	if (r->seen == NULL)
		r->seen = MemoryContextAllocZero(r->cxt, sizeof(HintSeen) * r->nslots);
	for (; r->seen[i].bytes != NULL; i = (i + 1) & (r->nslots - 1))
	{
		if (r->seen[i].hash == hash && r->seen[i].len == len &&
			memcmp(r->seen[i].bytes, bytes, len) == 0)
			return false;
	}
	if (r->nseen >= r->nslots / 2)
		return false;			/* cannot happen: fewer rows are read */
	r->seen[i].hash = hash;
	r->seen[i].len = len;
	r->seen[i].bytes = MemoryContextAlloc(r->cxt, Max(len, 1));
	memcpy(r->seen[i].bytes, bytes, len);
	r->nseen++;
	return true;
}

/*
 * Note a value read from a table or an index, once: told apart by its
 * bytes, written out (its type's output function) only when new.  Values
 * stored out of line or compressed are long: never close to a value given,
 * they are not read.
 */
static void
note_datum(HintRead *r, Form_pg_attribute att, Datum value, Oid output)
{
	const char *bytes;
	int			len;
	MemoryContext old;

	if (att->attlen == -1)
	{
		if (VARATT_IS_EXTERNAL(DatumGetPointer(value)) ||
			VARATT_IS_COMPRESSED(DatumGetPointer(value)))
			return;
		bytes = VARDATA_ANY(DatumGetPointer(value));
		len = VARSIZE_ANY_EXHDR(DatumGetPointer(value));
		if (len > NAT_HINT_MAX_CHARS * pg_database_encoding_max_length())
			return;
	}
	else if (att->attlen == -2)
	{
		bytes = DatumGetCString(value);
		len = strlen(bytes);
	}
	else if (att->attbyval)
	{
		bytes = (const char *) &value;
		len = sizeof(Datum);
	}
	else
	{
		bytes = DatumGetPointer(value);
		len = att->attlen;
	}
	if (!first_seen(r, bytes, len))
		return;
	old = MemoryContextSwitchTo(r->cxt);
	add_value(r->col, OidOutputFunctionCall(output, value));
	MemoryContextSwitchTo(old);
}

/*
 * The forms of a value the index is probed at: as given, and in lower and
 * in upper case without surrounding spaces (a case-sensitive order puts
 * "Active" far from "active"); returns how many are distinct.
 */
static int
probe_forms(const char *value, const char **forms)
{
	char	   *trimmed = fold(value);
	const char *all[3];
	int			n = 0;
	int			i;
	int			j;

	all[0] = value;
	all[1] = trimmed;
	all[2] = str_toupper(trimmed, strlen(trimmed), DEFAULT_COLLATION_OID);
	for (i = 0; i < 3; i++)
	{
		for (j = 0; j < n; j++)
			if (strcmp(all[i], forms[j]) == 0)
				break;
		if (j == n)
			forms[n++] = all[i];
	}
	return n;
}

/*
 * Is the C string s in the list?
 */
static bool
has_string(List *list, const char *s)
{
	ListCell   *lc;

	foreach(lc, list)
	{
		if (strcmp(lfirst(lc), s) == 0)
			return true;
	}
	return false;
}

/*
 * read_query's statements: the values of the first NAT_HINT_SCAN_ROWS rows,
 * or of the first NAT_HINT_PROBE_ROWS rows at or after $1 and of the last
 * before it in the index's order.  The column is selected as it is: its
 * values are told apart by their bytes (note_datum()).
 */
static void
deparse_reads(HintRead *r)
{
	Oid			type = r->scan ? InvalidOid : get_opclass_input_type(r->opclass);
	Oid			family = r->scan ? InvalidOid : get_opclass_family(r->opclass);
	int			i;

	for (i = 0; i < (r->scan ? 1 : 2); i++)
	{
		StringInfoData sql;
		Oid			op = r->scan ? InvalidOid :
			get_opfamily_member(family, type, type,
								i == 0 ? BTGreaterEqualStrategyNumber : BTLessStrategyNumber);

		initStringInfo(&sql);
		appendStringInfoString(&sql, "SELECT t.");
		nat_deparse_column(&sql, r->relid, r->col->attnum);
		appendStringInfo(&sql, " FROM %s t", r->table);
		if (!r->scan)
		{
			if (!OidIsValid(op))
				elog(ERROR, "btree operators of operator family %u not found", family);
			appendStringInfoString(&sql, " WHERE t.");
			nat_deparse_column(&sql, r->relid, r->col->attnum);
			appendStringInfoChar(&sql, ' ');
			nat_deparse_operator_name(&sql, op);
			appendStringInfoString(&sql, " $1 ORDER BY t.");
			nat_deparse_column(&sql, r->relid, r->col->attnum);
			appendStringInfoString(&sql, i == 0 ? "" : " DESC");
		}
		appendStringInfo(&sql, " LIMIT %d", r->scan ? NAT_HINT_SCAN_ROWS : NAT_HINT_PROBE_ROWS);
		r->sql[i] = sql.data;
	}
}

/* read_query's rows, noted as they come: no tuple is kept */
typedef struct HintReceiver
{
	DestReceiver pub;
	HintRead   *r;
	Form_pg_attribute att;
	Oid			output;
	uint64		rows;
} HintReceiver;

static bool
hint_receive(TupleTableSlot *slot, DestReceiver *self)
{
	HintReceiver *rec = (HintReceiver *) self;
	bool		isnull;
	Datum		value = slot_getattr(slot, 1, &isnull);

	rec->rows++;
	if (!isnull)
		note_datum(rec->r, rec->att, value, rec->output);
	return true;
}

static void
hint_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
	HintReceiver *rec = (HintReceiver *) self;
	bool		is_varlena;

	rec->att = TupleDescAttr(typeinfo, 0);
	getTypeOutputInfo(rec->att->atttypid, &rec->output, &is_varlena);
}

static void
hint_done(DestReceiver *self)
{
}

/*
 * Run one of read_query's statements (SPI connected) with key as $1 if
 * given, as the role, its rows noted; returns how many it gave.
 */
static uint64
run_read(HintRead *r, const char *sql, Oid type, Datum key)
{
	HintReceiver rec;
	SPIExecuteOptions options;
	SPIPlanPtr	plan;
	int			nargs = OidIsValid(type) ? 1 : 0;

	plan = nat_prepare_cached(sql, nargs, &type, NAT_SQL_GENERATED);
	if (plan == NULL && (plan = SPI_prepare(sql, nargs, &type)) == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
	memset(&rec, 0, sizeof(rec));
	rec.pub.receiveSlot = hint_receive;
	rec.pub.rStartup = hint_startup;
	rec.pub.rShutdown = hint_done;
	rec.pub.rDestroy = hint_done;
	rec.pub.mydest = DestNone;
	rec.r = r;
	memset(&options, 0, sizeof(options));
	if (nargs > 0)
	{
		options.params = makeParamList(1);
		options.params->params[0].value = key;
		options.params->params[0].isnull = false;
		options.params->params[0].ptype = type;
		options.params->params[0].pflags = PARAM_FLAG_CONST;
	}
	options.read_only = true;
	options.dest = (DestReceiver *) &rec;
	if (SPI_execute_plan_extended(plan, &options) < 0)
		elog(ERROR, "SPI_execute_plan_extended failed");
	nat_plan_cache_settle();
	return rec.rows;
}

/*
 * A bounded read by a query as the role (row-level security, a view's
 * rules apply): the scan, or the probes of read_index() with the same
 * stops.
 */
static void
read_query(HintRead *r)
{
	Oid			type;
	Oid			input;
	Oid			ioparam;
	ListCell   *lc;

	deparse_reads(r);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (r->scan)
	{
		r->col->complete = run_read(r, r->sql[0], InvalidOid, (Datum) 0) < NAT_HINT_SCAN_ROWS;
		SPI_finish();
		return;
	}
	type = get_opclass_input_type(r->opclass);
	getTypeInputInfo(type, &input, &ioparam);
	foreach(lc, r->col->given)
	{
		const char *forms[3];
		int			n = probe_forms(lfirst(lc), forms);
		char	   *folded = fold(lfirst(lc));
		int			i;

		for (i = 0; i < n && !has_string(r->col->folded, folded); i++)
			(void) run_read(r, r->sql[0], type,
							OidInputFunctionCall(input, (char *) forms[i], ioparam, -1));
		if (!has_string(r->col->folded, folded))
			(void) run_read(r, r->sql[1], type,
							OidInputFunctionCall(input, (char *) forms[0], ioparam, -1));
	}
	SPI_finish();
	r->col->complete = true;
}

/*
 * read_query's scan made on the table itself, in physical order from its
 * first block: only where the role may read every row's value of the
 * column (read_index's rule).
 */
static void
read_heap(HintRead *r)
{
	Relation	rel = table_open(r->relid, AccessShareLock);
	TupleTableSlot *slot = table_slot_create(rel, NULL);
	TableScanDesc scan = table_beginscan_strat(rel, GetActiveSnapshot(), 0, NULL,
											   true, false);
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), r->col->attnum - 1);
	Oid			output;
	bool		is_varlena;
	int			rows = 0;

	getTypeOutputInfo(att->atttypid, &output, &is_varlena);
	while (rows < NAT_HINT_SCAN_ROWS &&
		   table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		Datum		value = slot_getattr(slot, r->col->attnum, &isnull);

		if (++rows % 64 == 0)
			CHECK_FOR_INTERRUPTS();
		if (!isnull)
			note_datum(r, att, value, output);
	}
	table_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	table_close(rel, AccessShareLock);
	r->col->complete = rows < NAT_HINT_SCAN_ROWS;
}

/*
 * One probe of the index: the values of the first NAT_HINT_PROBE_ROWS rows
 * at or after key (strategy >=), or of the last before it (<), that the
 * call's snapshot sees.
 */
static void
probe_index(HintRead *r, Relation heap, Relation index, TupleTableSlot *slot,
			Datum key, StrategyNumber strategy)
{
	Oid			type = get_opclass_input_type(r->opclass);
	Oid			op = get_opfamily_member(get_opclass_family(r->opclass), type, type, strategy);
	ScanDirection dir = strategy == BTLessStrategyNumber ?
		BackwardScanDirection : ForwardScanDirection;
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(heap), r->col->attnum - 1);
	ScanKeyData skey;
	IndexScanDesc scan;
	Oid			output;
	bool		is_varlena;
	int			n = 0;

	if (!OidIsValid(op))
		elog(ERROR, "btree operator of operator family %u not found",
			 get_opclass_family(r->opclass));
	getTypeOutputInfo(att->atttypid, &output, &is_varlena);
	ScanKeyEntryInitialize(&skey, 0, 1, strategy, type, r->col->collid,
						   get_opcode(op), key);
	scan = nat_index_beginscan(heap, index, GetActiveSnapshot(), 1);
	index_rescan(scan, &skey, 1, NULL, 0);
	while (n++ < NAT_HINT_PROBE_ROWS && index_getnext_slot(scan, dir, slot))
	{
		bool		isnull;
		Datum		value = slot_getattr(slot, r->col->attnum, &isnull);

		CHECK_FOR_INTERRUPTS();
		if (!isnull)
			note_datum(r, att, value, output);
	}
	index_endscan(scan);
}

/*
 * read_query's probes made on the index itself:
 * only where the role may read every row's value of the column (a table
 * of its own, no row-level security in force: stats_readable()), so that
 * reading past the executor shows nothing a query would not.
 */
static void
read_index(HintRead *r)
{
	Relation	heap = table_open(r->relid, AccessShareLock);
	Relation	index = index_open(r->index, AccessShareLock);
	TupleTableSlot *slot = table_slot_create(heap, NULL);
	Oid			input;
	Oid			ioparam;
	ListCell   *lc;

	getTypeInputInfo(get_opclass_input_type(r->opclass), &input, &ioparam);
	foreach(lc, r->col->given)
	{
		const char *forms[3];
		int			n = probe_forms(lfirst(lc), forms);
		char	   *folded = fold(lfirst(lc));
		int			i;

		/*
		 * At the value as given (which says whether it is there), then at its
		 * lower case; a value found that differs only by case and spaces is
		 * all that will be offered (close_values()): the other probes can
		 * stop there.
		 */
		for (i = 0; i < n && !has_string(r->col->folded, folded); i++)
			probe_index(r, heap, index, slot,
						OidInputFunctionCall(input, (char *) forms[i], ioparam, -1),
						BTGreaterEqualStrategyNumber);
		if (!has_string(r->col->folded, folded))
			probe_index(r, heap, index, slot,
						OidInputFunctionCall(input, (char *) forms[0], ioparam, -1),
						BTLessStrategyNumber);
	}
	ExecDropSingleTupleTableSlot(slot);
	index_close(index, AccessShareLock);
	table_close(heap, AccessShareLock);
	r->col->complete = true;
}

/*
 * Is an error of the bounded read one that only means no hint?  Its own
 * time limit, and the errors of the read itself; not the call's timeout,
 * its memory limit, or a cancel of the client's.
 */
static bool
hint_error_ignorable(ErrorData *edata, bool step_fired)
{
	if (nat_memory_exceeded() || nat_timer_fired() ||
		edata->sqlerrcode == ERRCODE_OUT_OF_MEMORY)
		return false;
	if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
		return step_fired && !get_timeout_indicator(STATEMENT_TIMEOUT, false);
	return edata->elevel == ERROR;
}

/*
 * Run a bounded read in a subtransaction of its own, under its own time
 * limit (at most half of what the call has left).  Returns false if it
 * did not complete; an error that is the call's is raised again.
 */
static bool
run_bounded(ToolCall *call, void (*read) (HintRead *r), HintRead *r)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	long		left = call->deadline > 0 ?
		TimestampDifferenceMilliseconds(GetCurrentTimestamp(), call->deadline) : 0;
	int			ms = (int) Min((long) NAT_HINT_TIMEOUT_MS, left / 2);
	volatile bool done = false;
	ErrorData  *edata = NULL;
	bool		fired = false;

	if (ms < 1 || !ActiveSnapshotSet())
		return false;
	r->cxt = cxt;
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		nat_timer_step_arm(ms);
		read(r);
		(void) nat_timer_step_end();
		done = true;
	}
	PG_CATCH();
	{
		fired = nat_timer_step_end();
		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
	}
	PG_END_TRY();
	if (done)
		ReleaseCurrentSubTransaction();
	else
	{
		RollbackAndReleaseCurrentSubTransaction();
		nat_clear_pending_error();
	}
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	if (edata && !hint_error_ignorable(edata, fired))
		ReThrowError(edata);
	r->col->read = done;
	if (!done)
	{
		r->col->values = NIL;
		r->col->folded = NIL;
	}
	return done;
}

/*
 * The column's values from a bounded read as the role: probes around the
 * given values when an index allows, else the values of the first
 * NAT_HINT_SCAN_ROWS rows read; made on the index or the table itself
 * where the role may read every row's value of the column, else by a query
 * (so that row-level security and a view's own rules apply).
 */
static void
query_values(ToolCall *call, Oid relid, HintColumn *col)
{
	HintRead	r;
	char		relkind = get_rel_relkind(relid);
	bool		direct;

	memset(&r, 0, sizeof(r));
	r.relid = relid;
	r.col = col;
	if (!type_is_enum(getBaseType(col->typid)))
		r.index = leading_index(relid, col, &r.opclass);
	r.scan = !OidIsValid(r.index);
	/* probes: 4 of NAT_HINT_PROBE_ROWS rows for each of the values */
	StaticAssertStmt(NAT_HINT_SCAN_ROWS < 1024 &&
					 4 * NAT_HINT_PROBE_ROWS * NAT_HINT_MAX_VALUES < 64,
					 "the set of values read must stay under half full");
	r.nslots = r.scan ? 2048 : 128;

	/*
	 * The table's own rows (not a view's, a parent's with its children's, or
	 * a partitioned table's), all of whose values of the column the role may
	 * read: read them without a query.
	 */
	direct = (relkind == RELKIND_RELATION || relkind == RELKIND_MATVIEW) &&
		!has_subclass(relid) && stats_readable(relid, col->attnum) &&
		(r.scan || get_rel_relkind(r.index) == RELKIND_INDEX);
	if (direct)
	{
		(void) run_bounded(call, r.scan ? read_heap : read_index, &r);
		return;
	}
	r.table = call->table;
	(void) run_bounded(call, read_query, &r);
}

/*
 * How close candidate is to given, both folded: 0 for the same text but
 * for case and surrounding spaces, 1 + the edit distance of a likely
 * misspelling, then 5 for a prefix (of at least 2 characters), 6 for the
 * initials of the candidate's words; -1 when not close.
 */
static int
closeness(const char *given, const char *candidate)
{
	int			glen = strlen(given);
	int			clen = strlen(candidate);
	int			gchars = pg_mbstrlen(given);
	int			maxd = gchars < 3 ? 0 : Min(3, Max(1, gchars / 3));
	StringInfoData initials;
	const char *p;

	if (strcmp(given, candidate) == 0)
		return 0;
	if (glen == 0 || clen == 0)
		return -1;
	if (maxd > 0)
	{
		int			d = varstr_levenshtein_less_equal(given, glen, candidate, clen,
													  1, 1, 1, maxd, true);

		if (d <= maxd)
			return 1 + d;
	}
	if (Min(gchars, pg_mbstrlen(candidate)) >= 2 &&
		strncmp(given, candidate, Min(glen, clen)) == 0)
		return 5;
	/* "ny" for "new york" */
	initStringInfo(&initials);
	for (p = candidate; *p != '\0'; p++)
		if ((p == candidate || p[-1] == ' ') && *p != ' ')
			appendStringInfoChar(&initials, *p);
	if (initials.len >= 2 && strchr(candidate, ' ') != NULL &&
		strcmp(initials.data, given) == 0)
		return 6;
	return -1;
}

/*
 * Up to NAT_HINT_MAX_CLOSE values of the column close to given (only those
 * that differ by case and spaces alone, when there are), closest first,
 * ties in the values' byte order (the order they were read in depends on
 * the plan, a hash aggregate's, or on the statistics' sample).
 */
static List *
close_values(HintColumn *col, const char *given)
{
	char	   *folded = fold(given);
	const char *best[NAT_HINT_MAX_CLOSE];
	int			score[NAT_HINT_MAX_CLOSE];
	int			n = 0;
	int			i;
	ListCell   *lc;
	ListCell   *lf;
	List	   *result = NIL;

	forboth(lc, col->values, lf, col->folded)
	{
		int			s = closeness(folded, lfirst(lf));
		int			slot;

		CHECK_FOR_INTERRUPTS();
		if (s < 0 || (n == NAT_HINT_MAX_CLOSE &&
					  (s > score[n - 1] ||
					   (s == score[n - 1] && strcmp(lfirst(lc), best[n - 1]) >= 0))))
			continue;
		for (i = 0; i < n; i++)
			if (strcmp(best[i], lfirst(lc)) == 0)
				break;
		if (i < n)
			continue;			/* read twice (statistics, probes) */
		slot = n < NAT_HINT_MAX_CLOSE ? n++ : n - 1;
		while (slot > 0 && (score[slot - 1] > s ||
							(score[slot - 1] == s && strcmp(best[slot - 1], lfirst(lc)) > 0)))
		{
			best[slot] = best[slot - 1];
			score[slot] = score[slot - 1];
			slot--;
		}
		best[slot] = lfirst(lc);
		score[slot] = s;
	}
	/* the same but for case and spaces: misspellings beside it are noise */
	for (i = 0; i < n && (score[0] > 0 || score[i] == 0); i++)
		result = lappend(result, (char *) best[i]);
	return result;
}


/*
 * Say what was found for one value: a sentence of the warning, and one
 * action per close value (a retry that echoes only the column and the
 * value when the where was only that, else the value to use).
 */
static void
offer(ToolCall *call, HintFilter *f, HintColumn *col, const char *given,
	  List *close, List **actions)
{
	StringInfoData warning;
	ListCell   *lc;

	initStringInfo(&warning);
	appendStringInfo(&warning, col->from_stats ?
					 "The table's statistics show no %s in column %s; close values it has: " :
					 "No row has %s in column %s; close values it has: ",
					 nat_json_quoted(given), nat_json_quoted(col->name));
	foreach(lc, close)
	{
		char	   *value = nat_json_quoted(lfirst(lc));

		appendStringInfo(&warning, "%s%s", foreach_current_index(lc) > 0 ? ", " : "", value);
		if (list_length(*actions) >= NAT_HINT_MAX_ACTIONS)
			continue;
		*actions = lappend(*actions, f->echo ?
						   psprintf("Retry with \"where\": {%s: %s}.", nat_json_quoted(col->name), value) :
						   psprintf("Use the value %s for %s.", value, quote_identifier(col->name)));
	}
	appendStringInfoChar(&warning, '.');
	nat_response_warnings(call, list_make1(warning.data));
}

/*
 * The values the column holds, from the source the setting allows; false
 * when none could be read.  The statistics come first; with "query", the
 * bounded query follows when they are not there, or may not be read, or
 * do not settle whether a value is there and offer nothing close to it.
 */
static bool
read_values(ToolCall *call, HintFilter *f, HintColumn *col)
{
	bool		settled = true;
	ListCell   *lc;

	if (stats_values(f->relid, col))
	{
		foreach(lc, col->given)
		{
			char	   *given = lfirst(lc);

			if (!col->complete && !holds(col, given) &&
				close_values(col, given) == NIL)
				settled = false;
		}
		if (settled || nat_empty_hints != NAT_EMPTY_HINTS_QUERY)
			return true;
	}
	col->values = NIL;
	col->folded = NIL;
	col->from_stats = false;
	col->read = false;

	/*
	 * A table Citus manages keeps its rows in shards: its indexes here hold
	 * none, and a query over it is Citus's to plan and send.
	 */
	if (nat_empty_hints != NAT_EMPTY_HINTS_QUERY ||
		nat_citus_table_kind(f->relid) != NAT_CITUS_NONE)
		return false;
	query_values(call, f->relid, col);
	return col->read;
}

/*
 * nat_empty_result_hints(call, plan): run by execute.c when a plan that
 * asks for it (ToolPlan.empty_hints: select_query's) answered no rows.  Adds to the
 * answer a warning sentence per value shown to match nothing that has
 * close values in its column, suggested_actions, and did_you_mean when
 * exactly one value is offered.
 */
void
nat_empty_result_hints(ToolCall *call, ToolPlan *plan)
{
	JsonbValue *where = NAT_COMMON(call)->where;
	MemoryContext old = MemoryContextSwitchTo(call->cxt);
	HintFilter	f;
	List	   *actions = NIL;
	List	   *offered = NIL;
	ListCell   *lc;
	ListCell   *lv;

	if (nat_empty_hints == NAT_EMPTY_HINTS_OFF || where == NULL ||
		!OidIsValid(plan->relid))
	{
		MemoryContextSwitchTo(old);
		return;
	}
	memset(&f, 0, sizeof(f));
	f.relid = plan->relid;
	if (where->type == jbvString)
		collect_sql(&f, pnstrdup(where->val.string.val, where->val.string.len));
	else if (where->type == jbvBinary && JsonContainerIsObject(where->val.binary.data))
	{
		JsonbValue *only;

		collect_object(&f, where->val.binary.data, 0);
		only = f.conditions == 1 && list_length(f.columns) == 1 &&
			JsonContainerSize(where->val.binary.data) == 1 ?
			getKeyJsonValueFromContainer(where->val.binary.data,
										 ((HintColumn *) linitial(f.columns))->name,
										 strlen(((HintColumn *) linitial(f.columns))->name),
										 NULL) : NULL;
		if (only && only->type == jbvBinary && JsonContainerIsObject(only->val.binary.data) &&
			JsonContainerSize(only->val.binary.data) == 1)
			only = NAT_JSONB_MEMBER(only->val.binary.data, "eq");
		f.echo = only != NULL && only->type == jbvString;
	}
	foreach(lc, f.columns)
	{
		HintColumn *col = lfirst(lc);

		if (col->given == NIL || !read_values(call, &f, col))
			continue;
		foreach(lv, col->given)
		{
			char	   *given = lfirst(lv);
			List	   *close;

			/* matched nothing: the only condition, or the values say so */
			if (holds(col, given) || (f.conditions > 1 && !col->complete))
				continue;
			close = close_values(col, given);
			if (close == NIL)
				continue;
			offer(call, &f, col, given, close, &actions);
			offered = list_concat(offered, close);
		}
	}
	call->suggested_actions = actions;
	if (list_length(offered) == 1)
		call->did_you_mean = linitial(offered);
	MemoryContextSwitchTo(old);
}
