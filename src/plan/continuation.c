/*-------------------------------------------------------------------------
 *
 * continuation.c
 *		  "next": continue a truncated answer exactly after its last row
 *		  (README, "Continuation").
 *
 * A tool that takes "next" (select_query, execute_sql) answers a truncated
 * result with a token; the same call with that token as "next" returns
 * the rows after the last one returned.  Two ways:
 *
 * - keyset (select_query, when the order is on a unique key): the token
 *   holds the last row's sort keys, and the next page is the rows after
 *   them in the order, found with a condition on the keys.  When the
 *   agent's order_by is not unique, the table's primary key is added to it
 *   as a tie-breaker.  Rows inserted or deleted between pages move nothing:
 *   a row that exists throughout is returned exactly once.
 * - offset (anything else: no order_by, a view, a table without a usable
 *   key, execute_sql's SELECT): the token holds how many rows came before;
 *   the answer warns that rows may shift.
 *
 * The token is signed (token.c) and bound to the tool, the role and the
 * arguments other than next, limit, timeout_ms and format (which change
 * how many rows a page holds and how they are written, not which rows
 * follow): it cannot be forged, nor used by another role or for another
 * query.  Its keys are the values of columns the role may read.
 *
 * IDENTIFICATION
 *		  src/core/continuation.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "plan/continuation.h"
#include "miscadmin.h"
#include "plan/token.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#define NEXT_PURPOSE "next"

/* the arguments a token is not bound to */
static const char *const binding_ignore[] = {
	"next", "limit", "timeout_ms", "format", NULL
};

pg_noreturn static void throw_bad_token(const char *why) pg_attribute_noreturn();

static void
throw_bad_token(const char *why)
{
	ToolError  *err = nat_error(NAT_ERR_INVALID_PARAMETERS,
								"argument \"next\" is not a continuation token of this call%s",
								why);

	err->path = pstrdup("$.next");
	err->suggestion = pstrdup("Pass the \"next\" of the previous answer unchanged, in the same call (same tool, same arguments) by the same role; or leave next out to start from the first row.");
	nat_throw(err);
}

/*
 * Read the call's "next", if any: check it was made for this call and
 * role, and keep what it says.
 */
void
nat_continuation_begin(ToolCall *call)
{
	NatContinuation *cont;
	const char *next;
	char	   *payload;
	Jsonb	   *jb;
	JsonbValue *mode;
	JsonbValue *v;

	if (!nat_tool_has_param(call->tool, "next"))
		return;
	cont = call->cont = palloc0(sizeof(NatContinuation));
	next = NAT_COMMON(call)->next;
	if (next == NULL)
		return;
	payload = nat_token_verify(NEXT_PURPOSE, nat_token_binding(call, binding_ignore), next);
	if (payload == NULL)
		throw_bad_token("");

	/* signed by us: well-formed */
	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(payload)));
	mode = NAT_JSONB_MEMBER(&jb->root, "m");
	cont->given = true;
	cont->given_mode = mode->val.string.val[0];
	if (cont->given_mode == NAT_CONT_OFFSET)
	{
		v = NAT_JSONB_MEMBER(&jb->root, "o");
		cont->given_offset = DatumGetInt64(DirectFunctionCall1(numeric_int8,
															   NumericGetDatum(v->val.numeric)));
	}
	else
	{
		JsonbValue *values = NAT_JSONB_MEMBER(&jb->root, "v");
		int			i;

		cont->nvalues = JsonContainerSize(values->val.binary.data);
		cont->values = palloc0(sizeof(char *) * Max(cont->nvalues, 1));
		for (i = 0; i < cont->nvalues; i++)
		{
			v = getIthJsonbValueFromContainer(values->val.binary.data, i);
			if (v->type == jbvString)
				cont->values[i] = pnstrdup(v->val.string.val, v->val.string.len);
		}
	}
}

static bool
has_key(List *keys, AttrNumber attnum)
{
	ListCell   *lc;

	foreach(lc, keys)
	{
		if (((NatSortKey *) lfirst(lc))->attnum == attnum)
			return true;
	}
	return false;
}

/*
 * May the role read the column (on the table, or the column itself)?
 */
static bool
may_read(Oid relid, AttrNumber attnum)
{
	return pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) == ACLCHECK_OK ||
		pg_attribute_aclcheck(relid, attnum, GetUserId(), ACL_SELECT) == ACLCHECK_OK;
}

/* what unique_order() looks for */
#define UNIQUE_CONTAINED	0	/* a unique key the order contains */
#define UNIQUE_ADD_PRIMARY	1	/* the primary key, added to the order */
#define UNIQUE_ADD_ANY		2	/* any unique key, added to the order */

/*
 * Is the order unique: does it contain every column of a unique index that
 * has no predicate, no expression and only NOT NULL columns?  With
 * UNIQUE_ADD_PRIMARY, the primary key's columns (if the role may read them
 * all) are added to keys instead, and with UNIQUE_ADD_ANY those of the
 * first such unique index the role may read; false if there is none.
 */
static bool
unique_order(Oid relid, List **keys, int what)
{
	bool		primary = what == UNIQUE_ADD_PRIMARY;
	bool		add = what != UNIQUE_CONTAINED;
	Relation	rel = relation_open(relid, AccessShareLock);
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;
	bool		found = false;

	foreach(lc, indexes)
	{
		HeapTuple	tup = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(lfirst_oid(lc)));
		Form_pg_index index;
		bool		usable;
		int			i;

		if (!HeapTupleIsValid(tup))
			continue;
		index = (Form_pg_index) GETSTRUCT(tup);
		usable = index->indisunique && index->indimmediate && index->indisvalid &&
			(!primary || index->indisprimary) &&
			heap_attisnull(tup, Anum_pg_index_indpred, NULL) &&
			heap_attisnull(tup, Anum_pg_index_indexprs, NULL);
		for (i = 0; usable && i < index->indnkeyatts; i++)
		{
			AttrNumber	attnum = index->indkey.values[i];

			if (!TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attnotnull ||
				(add && !may_read(relid, attnum)) ||
				(!add && !has_key(*keys, attnum)))
				usable = false;
		}
		for (i = 0; usable && add && i < index->indnkeyatts; i++)
		{
			NatSortKey *key;

			if (has_key(*keys, index->indkey.values[i]))
				continue;
			key = palloc0(sizeof(NatSortKey));
			key->attnum = index->indkey.values[i];
			*keys = lappend(*keys, key);
		}
		ReleaseSysCache(tup);
		if (usable)
		{
			found = true;
			break;
		}
	}
	relation_close(rel, AccessShareLock);
	return found;
}

/*
 * Can every key be compared with its type's default ordering operators,
 * as ORDER BY sorts it?
 */
static bool
comparable(Oid relid, List *keys)
{
	ListCell   *lc;

	foreach(lc, keys)
	{
		TypeCacheEntry *tc = lookup_type_cache(get_atttype(relid, ((NatSortKey *) lfirst(lc))->attnum),
											   TYPECACHE_LT_OPR | TYPECACHE_GT_OPR | TYPECACHE_EQ_OPR);

		if (!OidIsValid(tc->lt_opr) || !OidIsValid(tc->gt_opr) || !OidIsValid(tc->eq_opr))
			return false;
	}
	return true;
}

/*
 * How a Citus table is named in a note: "a Citus distributed table".
 */
static const char *
citus_kind_name(Oid relid)
{
	return nat_citus_table_kind(relid) == NAT_CITUS_REFERENCE ?
		"a Citus reference table" : "a Citus distributed table";
}

/*
 * The sort keys' column names, "a, b", quoted where needed.
 */
static char *
key_names(Oid relid, List *keys)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, keys)
		appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "",
						 quote_identifier(get_attname(relid, ((NatSortKey *) lfirst(lc))->attnum,
													  false)));
	return buf.data;
}

/*
 * No order_by on a relation whose rows come in no stable order (a Citus
 * distributed or reference table, or a view reading one: its rows come
 * from several shards at once, or from whichever copy the executor
 * picks), so pages by offset would skip and repeat rows.  A table gets the
 * order of its primary key, or else of a unique key the role may read
 * (on a distributed table every unique key holds the distribution
 * column), and continues by keyset; the answer's note says so.  Returns
 * false when there is no such key (a view, a table without one): then
 * there is no next, and the note says what to pass instead.
 */
static bool
default_order(ToolCall *call, Oid relid, Oid unordered, List **keys)
{
	NatContinuation *cont = call->cont;
	char		relkind = get_rel_relkind(relid);
	bool		primary = false;

	if (unordered == relid &&
		(relkind == RELKIND_RELATION || relkind == RELKIND_PARTITIONED_TABLE) &&
		((primary = unique_order(relid, keys, UNIQUE_ADD_PRIMARY)) ||
		 unique_order(relid, keys, UNIQUE_ADD_ANY)))
	{
		if (comparable(relid, *keys))
		{
			cont->note = psprintf("No order_by was given, and %s is %s, whose rows come in no stable order: they are in the order of its %s (%s), so that next continues exactly.",
								  call->table, citus_kind_name(relid),
								  primary ? "primary key" : "unique key",
								  key_names(relid, *keys));
			return true;
		}
		*keys = NIL;
	}
	if (unordered == relid)
		cont->note = psprintf("There is no next: %s is %s without a primary key or unique key you may read, so its rows come in no stable order and pages by offset would skip or repeat rows. Pass an order_by on columns that identify a row.",
							  call->table, citus_kind_name(relid));
	else
		cont->note = psprintf("There is no next: %s reads %s, whose rows come in no stable order, so pages by offset would skip or repeat rows. Pass an order_by on columns that identify a row.",
							  call->table, citus_kind_name(unordered));
	return false;
}

/*
 * select_query's order (keys, of NatSortKey, from order_by): decide how
 * this page continues, adding the primary key as a tie-breaker where that
 * makes the order unique, or a unique key as the order where none was
 * given and the rows have no stable order (default_order()).  A token for
 * another way (the table changed since) is refused.
 */
char
nat_continuation_order(ToolCall *call, Oid relid, List **keys)
{
	NatContinuation *cont = call->cont;
	char		relkind = get_rel_relkind(relid);
	char		mode = NAT_CONT_OFFSET;
	Oid			unordered;
	int			i;

	if (cont == NULL)
		return NAT_CONT_NONE;
	if (*keys == NIL &&
		OidIsValid(unordered = nat_citus_relation_unordered(relid)) &&
		!default_order(call, relid, unordered, keys))
		mode = NAT_CONT_NONE;
	else if (*keys != NIL &&
			 (relkind == RELKIND_RELATION || relkind == RELKIND_PARTITIONED_TABLE ||
			  relkind == RELKIND_MATVIEW) &&
			 (unique_order(relid, keys, UNIQUE_CONTAINED) ||
			  unique_order(relid, keys, UNIQUE_ADD_PRIMARY)) &&
			 comparable(relid, *keys))
		mode = NAT_CONT_KEYSET;
	if (cont->given &&
		(cont->given_mode != mode ||
		 (mode == NAT_CONT_KEYSET && cont->nvalues != list_length(*keys))))
		throw_bad_token(": the table's keys changed since it was made");

	cont->mode = mode;
	cont->relid = relid;
	if (mode == NAT_CONT_KEYSET)
	{
		cont->nkeys = list_length(*keys);
		cont->keys = palloc(sizeof(NatSortKey) * cont->nkeys);
		for (i = 0; i < cont->nkeys; i++)
			cont->keys[i] = *(NatSortKey *) list_nth(*keys, i);
	}
	return mode;
}

/*
 * execute_sql's query (analysed; one statement, continued by offset):
 * when it reads a Citus distributed or reference table, directly or
 * through views, its rows come in another order on each run unless its
 * ORDER BY says which, so an offset would skip and repeat rows.  Without
 * ORDER BY there is no next, and the note asks for one on a unique key
 * (the table's primary key, when the role may read it, as the example);
 * with one, the note says it must be on a unique key for next to be
 * exact.  What a function reads is not seen.
 */
void
nat_continuation_statement(ToolCall *call, Query *query)
{
	NatContinuation *cont = call->cont;
	Oid			unordered;
	char	   *name = NULL;
	List	   *keys = NIL;
	char	   *example = "";

	if (cont == NULL || cont->mode != NAT_CONT_OFFSET ||
		!OidIsValid(unordered = nat_citus_query_unordered(query)))
		return;

	/* name only a table the role may read */
	if (pg_class_aclcheck(unordered, GetUserId(), ACL_SELECT) == ACLCHECK_OK)
	{
		name = quote_qualified_identifier(get_namespace_name(get_rel_namespace(unordered)),
										  get_rel_name(unordered));
		if (unique_order(unordered, &keys, UNIQUE_ADD_PRIMARY))
			example = psprintf(", for example ORDER BY %s (the primary key of %s)",
							   key_names(unordered, keys), name);
	}
	if (query->sortClause != NIL)
	{
		cont->note = psprintf("The statement reads %s%s: next is exact only if its ORDER BY is on a unique key%s, since rows that tie come in another order on each run.",
							  citus_kind_name(unordered),
							  name ? psprintf(" (%s)", name) : "", example);
		return;
	}
	if (cont->given)
		throw_bad_token(": the statement reads a Citus table without ORDER BY");
	cont->mode = NAT_CONT_NONE;
	cont->note = psprintf("There is no next: the statement reads %s%s without ORDER BY, so its rows come in another order on each run and pages by offset would skip or repeat rows. Add ORDER BY on a unique key%s to page with next.",
						  citus_kind_name(unordered),
						  name ? psprintf(" (%s)", name) : "", example);
}

/*
 * "column OPERATOR(op) $n [COLLATE c]": the last row's value bound with
 * the column's type and collation.
 */
static void
deparse_compare(StringInfo buf, Oid relid, AttrNumber attnum, Oid opno,
				int param)
{
	Oid			typid;
	int32		typmod;
	Oid			collid;

	get_atttypetypmodcoll(relid, attnum, &typid, &typmod, &collid);

	nat_deparse_column(buf, relid, attnum);
	appendStringInfoChar(buf, ' ');
	nat_deparse_operator_name(buf, opno);
	appendStringInfoChar(buf, ' ');
	nat_deparse_param(buf, param);
	if (OidIsValid(collid))
	{
		appendStringInfoString(buf, " COLLATE ");
		nat_deparse_collation(buf, collid);
	}
}

/*
 * The condition "after the token's last row" of a keyset page: for keys
 * k1..kn, (k1 after v1) OR (k1 = v1 AND k2 after v2) OR ..., where
 * "after" follows each key's direction and NULLS placement.
 */
void
nat_continuation_after(StringInfo buf, ToolCall *call, QueryParams *params)
{
	NatContinuation *cont = call->cont;
	int		   *param = palloc(sizeof(int) * Max(cont->nkeys, 1));
	int			k;
	int			i;

	/* the values, converted by their types' input functions */
	for (i = 0; i < cont->nkeys; i++)
	{
		Oid			typid;
		int32		typmod;
		Oid			collid;
		Oid			input;
		Oid			ioparam;

		get_atttypetypmodcoll(cont->relid, cont->keys[i].attnum, &typid, &typmod, &collid);
		getTypeInputInfo(typid, &input, &ioparam);
		param[i] = cont->values[i] == NULL ? 0 :
			nat_params_add(params, typid,
						   OidInputFunctionCall(input, cont->values[i], ioparam, typmod),
						   false);
	}

	appendStringInfoChar(buf, '(');
	for (k = 0; k < cont->nkeys; k++)
	{
		NatSortKey *key = &cont->keys[k];
		TypeCacheEntry *tc = lookup_type_cache(get_atttype(cont->relid, key->attnum),
											   TYPECACHE_LT_OPR | TYPECACHE_GT_OPR | TYPECACHE_EQ_OPR);

		appendStringInfoString(buf, k > 0 ? " OR (" : "(");
		for (i = 0; i < k; i++)
		{
			if (cont->values[i] == NULL)
			{
				nat_deparse_column(buf, cont->relid, cont->keys[i].attnum);
				appendStringInfoString(buf, " IS NULL");
			}
			else
				deparse_compare(buf, cont->relid, cont->keys[i].attnum,
								lookup_type_cache(get_atttype(cont->relid, cont->keys[i].attnum),
												  TYPECACHE_EQ_OPR)->eq_opr, param[i]);
			appendStringInfoString(buf, " AND ");
		}
		if (cont->values[k] == NULL)
		{
			/* after a null: the non-nulls if nulls come first, else none */
			if (key->nulls_first)
			{
				nat_deparse_column(buf, cont->relid, key->attnum);
				appendStringInfoString(buf, " IS NOT NULL");
			}
			else
				appendStringInfoString(buf, "false");
		}
		else
		{
			appendStringInfoChar(buf, '(');
			deparse_compare(buf, cont->relid, key->attnum,
							key->desc ? tc->lt_opr : tc->gt_opr, param[k]);
			if (!key->nulls_first)
			{
				appendStringInfoString(buf, " OR ");
				nat_deparse_column(buf, cont->relid, key->attnum);
				appendStringInfoString(buf, " IS NULL");
			}
			appendStringInfoChar(buf, ')');
		}
		appendStringInfoChar(buf, ')');
	}
	appendStringInfoChar(buf, ')');
}

/*
 * The "next" of a truncated answer, and the warning of an offset one; NULL
 * when there is nothing to continue (not truncated, no row returned, not
 * a query, or the call takes no next).
 */
char *
nat_continuation_next(ToolCall *call, RowResult *rows)
{
	NatContinuation *cont = call->cont;
	StringInfoData payload;
	int			i;

	if (cont == NULL || cont->mode == NAT_CONT_NONE || !cont->query ||
		!rows->truncated || rows->row_count == 0)
		return NULL;

	initStringInfo(&payload);
	if (cont->mode == NAT_CONT_OFFSET)
		appendStringInfo(&payload, "{\"m\":\"o\",\"o\":" INT64_FORMAT "}",
						 cont->base + rows->row_count);
	else
	{
		if (!cont->have_last)
			return NULL;
		appendStringInfoString(&payload, "{\"m\":\"k\",\"v\":[");
		for (i = 0; i < cont->nkeys; i++)
		{
			Oid			output;
			bool		is_varlena;

			if (i > 0)
				appendStringInfoChar(&payload, ',');
			if (cont->last_null[i])
			{
				appendStringInfoString(&payload, "null");
				continue;
			}
			getTypeOutputInfo(get_atttype(cont->relid, cont->keys[i].attnum),
							  &output, &is_varlena);
			escape_json(&payload, OidOutputFunctionCall(output, cont->last[i]));
		}
		appendStringInfoString(&payload, "]}");
	}
	return nat_token_sign(NEXT_PURPOSE, nat_token_binding(call, binding_ignore),
						  payload.data);
}

/*
 * Why an offset continuation is not exact, for the answer's warning.
 */
const char *
nat_continuation_offset_warning(ToolCall *call)
{
	if (strcmp(call->tool->name, "execute_sql") == 0)
		return "next continues by offset: the statement runs again and skips the rows already returned, so rows inserted or deleted in between may be skipped or returned twice. For exact continuation, read the table with select_query and an order_by.";
	return "next continues by offset (the order is not on a unique key the role can read, or there is no order_by): rows inserted or deleted in between may be skipped or returned twice. Pass an order_by for exact continuation; the table's primary key is added to it as a tie-breaker.";
}
