/*-------------------------------------------------------------------------
 *
 * filter.c
 *		  The where argument: the structured form, and dispatch.
 *
 * A where argument is either a SQL condition string (filter_sql.c) or an
 * object in the structured form:
 *
 *	 {"status": "active",                    bare value: eq
 *	  "age": {"gt": 18, "lte": 65},          operators, ANDed
 *	  "or": [{"role": "admin"}, {"id": {"in": [1, 2]}}],
 *	  "not": {"deleted": true}}
 *
 * Members are ANDed.  Columns are resolved through the catalog, operators
 * are looked up in pg_catalog (or in the column type's own schema) and
 * printed schema-qualified, and every value is a bound parameter of the
 * operator's input type.
 *
 * IDENTIFICATION
 *		  src/sql/filter.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "plan/plan.h"
#include "parser/parse_coerce.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

/* the operators of the structured form */
static const char *const filter_operators[] = {
	"eq", "neq", "gt", "gte", "lt", "lte", "in", "not_in", "like", "ilike",
	"is_null", "between", "contains"
};

static void deparse_object(StringInfo buf, Oid relid, JsonbContainer *obj,
						   QueryParams *params, StringInfo path);

/*
 * Is key one of the structured filter's operators?
 */
static bool
is_filter_operator(const char *key)
{
	int			i;

	for (i = 0; i < lengthof(filter_operators); i++)
		if (strcmp(filter_operators[i], key) == 0)
			return true;
	return false;
}

/*
 * Is the value a JSON object / array?
 */
static bool
is_object(JsonbValue *v)
{
	return v->type == jbvBinary && JsonContainerIsObject(v->val.binary.data);
}

static bool
is_array(JsonbValue *v)
{
	return v->type == jbvBinary && JsonContainerIsArray(v->val.binary.data);
}

/*
 * The input types of an operator used on a column of type coltype.
 * Polymorphic inputs (anyarray @> anyarray) take the column's own type.
 */
static void
operator_types(Oid opno, Oid coltype, Oid *left, Oid *right)
{
	HeapTuple	tuple = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for operator %u", opno);
	*left = ((Form_pg_operator) GETSTRUCT(tuple))->oprleft;
	*right = ((Form_pg_operator) GETSTRUCT(tuple))->oprright;
	ReleaseSysCache(tuple);
	if (IsPolymorphicType(*left))
		*left = coltype;
	if (IsPolymorphicType(*right))
		*right = coltype;
}

/*
 * The operator sqlop for a column of type coltype compared with a value of
 * the same type; refused with invalid_parameters if the type has none.
 */
static Oid
column_operator(const char *sqlop, Oid coltype, const char *opname,
				const char *colname, const char *path)
{
	Oid			opno = nat_lookup_operator(sqlop, coltype, coltype, path);

	if (!OidIsValid(opno))
		nat_invalid_param(path,
						  "Use an operator that the column's type supports, or a SQL condition string.",
						  "operator \"%s\" is not available for column \"%s\" of type %s",
						  opname, colname, format_type_be(coltype));
	return opno;
}

/*
 * Add a value as a parameter of type typid and print "$n".
 */
static void
deparse_value(StringInfo buf, JsonbValue *value, Oid typid,
			  QueryParams *params, const char *path)
{
	bool		isnull;
	Datum		d = nat_convert_value(value, typid, -1, path, NULL, &isnull);

	nat_deparse_param(buf, nat_params_add(params, typid, d, isnull));
}

/*
 * (column[cast] OPERATOR(schema.op) $n), $n the value bound as valtype.
 */
static void
deparse_operator_expr(StringInfo buf, Oid relid, AttrNumber attnum,
					  const char *cast, Oid opno, JsonbValue *value,
					  Oid valtype, QueryParams *params, const char *path)
{
	appendStringInfoChar(buf, '(');
	nat_deparse_column(buf, relid, attnum);
	if (cast)
		appendStringInfoString(buf, cast);
	appendStringInfoChar(buf, ' ');
	nat_deparse_operator_name(buf, opno);
	appendStringInfoChar(buf, ' ');
	deparse_value(buf, value, valtype, params, path);
	appendStringInfoChar(buf, ')');
}

/*
 * (column OPERATOR(schema.op) $n)
 */
static void
deparse_comparison(StringInfo buf, Oid relid, AttrNumber attnum, Oid coltype,
				   const char *sqlop, const char *opname, JsonbValue *value,
				   QueryParams *params, const char *path)
{
	char	   *colname = get_attname(relid, attnum, false);
	Oid			opno = column_operator(sqlop, coltype, opname, colname, path);
	Oid			left;
	Oid			right;

	operator_types(opno, coltype, &left, &right);
	if (is_object(value) && getBaseType(right) != JSONBOID &&
		getBaseType(right) != JSONOID)
		nat_invalid_param(path, NULL,
						  "operator \"%s\" takes a single value, not an object", opname);
	deparse_operator_expr(buf, relid, attnum, NULL, opno, value, right,
						  params, path);
}

/*
 * (column OPERATOR(=) ANY ($n)) or (column OPERATOR(<>) ALL ($n)), $n an
 * array of the operator's input type.
 */
static void
deparse_in(StringInfo buf, Oid relid, AttrNumber attnum, Oid coltype,
		   bool negate, JsonbValue *value, QueryParams *params,
		   const char *path)
{
	const char *opname = negate ? "not_in" : "in";
	char	   *colname = get_attname(relid, attnum, false);
	Oid			opno;
	Oid			left;
	Oid			right;
	Oid			arraytype;

	if (!is_array(value))
		nat_invalid_param(path, psprintf("Pass a list, e.g. {\"%s\": [1, 2, 3]}.", opname),
						  "operator \"%s\" takes an array of values", opname);
	opno = column_operator(negate ? "<>" : "=", coltype, opname, colname, path);
	operator_types(opno, coltype, &left, &right);
	arraytype = get_array_type(right);
	if (!OidIsValid(arraytype))
		nat_invalid_param(path, NULL, "operator \"%s\" is not available for column \"%s\"",
						  opname, colname);
	appendStringInfoChar(buf, '(');
	nat_deparse_column(buf, relid, attnum);
	appendStringInfoChar(buf, ' ');
	nat_deparse_operator_name(buf, opno);
	appendStringInfoString(buf, negate ? " ALL (" : " ANY (");
	deparse_value(buf, value, arraytype, params, path);
	appendStringInfoString(buf, "))");
}

/*
 * LIKE / ILIKE; columns that are not strings are compared as text.
 */
static void
deparse_like(StringInfo buf, Oid relid, AttrNumber attnum, Oid coltype,
			 bool ilike, JsonbValue *value, QueryParams *params,
			 const char *path)
{
	bool		is_string = TypeCategory(getBaseType(coltype)) == TYPCATEGORY_STRING;
	Oid			opno;

	if (value->type != jbvString)
		nat_invalid_param(path, "Pass a pattern string such as \"%abc%\".",
						  "operator \"%s\" takes a string pattern", ilike ? "ilike" : "like");
	opno = nat_lookup_operator(ilike ? "~~*" : "~~", is_string ? coltype : TEXTOID,
							   TEXTOID, path);
	if (!OidIsValid(opno))
		elog(ERROR, "pattern operator not found");
	deparse_operator_expr(buf, relid, attnum,
						  is_string ? NULL : "::pg_catalog.text", opno, value,
						  TEXTOID, params, path);
}

/*
 * contains: @> for arrays, ranges, json and other container types; a
 * substring test for strings.
 */
static void
deparse_contains(StringInfo buf, Oid relid, AttrNumber attnum, Oid coltype,
				 JsonbValue *value, QueryParams *params, const char *path)
{
	if (TypeCategory(getBaseType(coltype)) == TYPCATEGORY_STRING)
	{
		if (value->type != jbvString)
			nat_invalid_param(path, NULL,
							  "operator \"contains\" on a text column takes a string");
		appendStringInfoString(buf, "(pg_catalog.strpos(");
		nat_deparse_column(buf, relid, attnum);
		appendStringInfoString(buf, "::pg_catalog.text, ");
		deparse_value(buf, value, TEXTOID, params, path);
		appendStringInfoString(buf, ") OPERATOR(pg_catalog.>) 0)");
		return;
	}
	/* an object is a jsonb containment pattern: compare as a value */
	if (is_object(value) && getBaseType(coltype) == JSONBOID)
	{
		Oid			opno = column_operator("@>", coltype, "contains",
										   get_attname(relid, attnum, false), path);

		deparse_operator_expr(buf, relid, attnum, NULL, opno, value, JSONBOID,
							  params, path);
		return;
	}
	deparse_comparison(buf, relid, attnum, coltype, "@>", "contains", value,
					   params, path);
}

/*
 * A negated operator the filter does not have ("not_like", "not_null"):
 * never offered the operator it negates, which selects the other rows.
 */
static void
report_negated_operator(const char *op, const char *negates, const char *path)
{
	ToolError  *err = nat_error(NAT_ERR_INVALID_PARAMETERS,
								"unknown filter operator \"%s\"", nat_clip(op));

	err->path = pstrdup(path);
	if (strcmp(negates, "is_null") == 0)
	{
		err->suggestion = pstrdup("For values that are not null, use is_null with false.");
		err->suggested_actions = list_make1(pstrdup("Use {\"is_null\": false} for the column."));
	}
	else
	{
		err->suggestion = psprintf("The structured filter has no negated %s; write the condition as a SQL string with NOT (\"where\": \"NOT (column %s ...)\"), or use not_in, neq or is_null where they fit.",
								   negates, strcmp(negates, "like") == 0 ? "LIKE" :
								   strcmp(negates, "ilike") == 0 ? "ILIKE" :
								   strcmp(negates, "between") == 0 ? "BETWEEN" : "...");
		err->suggested_actions = list_make1(pstrdup("Write the condition as a SQL string in \"where\" with NOT."));
	}
	nat_throw(err);
}

/*
 * One operator applied to a column.
 */
static void
deparse_operator(StringInfo buf, Oid relid, AttrNumber attnum, Oid coltype,
				 const char *op, JsonbValue *value, QueryParams *params,
				 const char *path)
{
	static const struct
	{
		const char *name;
		const char *sqlop;
	}			comparisons[] = {
		{"eq", "="}, {"neq", "<>"}, {"gt", ">"}, {"gte", ">="},
		{"lt", "<"}, {"lte", "<="},
	};
	int			i;

	/* eq null / neq null are IS [NOT] NULL, as an agent would mean */
	if (value->type == jbvNull &&
		(strcmp(op, "eq") == 0 || strcmp(op, "neq") == 0))
	{
		appendStringInfoChar(buf, '(');
		nat_deparse_column(buf, relid, attnum);
		appendStringInfoString(buf, strcmp(op, "eq") == 0 ? " IS NULL)" : " IS NOT NULL)");
		return;
	}
	for (i = 0; i < lengthof(comparisons); i++)
	{
		if (strcmp(op, comparisons[i].name) == 0)
		{
			if (value->type == jbvNull)
				nat_invalid_param(path, "Use {\"is_null\": true} to test for NULL.",
								  "operator \"%s\" cannot compare with null", op);
			deparse_comparison(buf, relid, attnum, coltype, comparisons[i].sqlop,
							   op, value, params, path);
			return;
		}
	}
	if (strcmp(op, "in") == 0 || strcmp(op, "not_in") == 0)
		deparse_in(buf, relid, attnum, coltype, op[0] == 'n', value, params, path);
	else if (strcmp(op, "like") == 0 || strcmp(op, "ilike") == 0)
		deparse_like(buf, relid, attnum, coltype, op[0] == 'i', value, params, path);
	else if (strcmp(op, "is_null") == 0)
	{
		if (value->type != jbvBool)
			nat_invalid_param(path, "Pass {\"is_null\": true} or {\"is_null\": false}.",
							  "operator \"is_null\" takes true or false");
		appendStringInfoChar(buf, '(');
		nat_deparse_column(buf, relid, attnum);
		appendStringInfoString(buf, value->val.boolean ? " IS NULL)" : " IS NOT NULL)");
	}
	else if (strcmp(op, "between") == 0)
	{
		JsonbValue *low;
		JsonbValue *high;

		if (!is_array(value) || JsonContainerSize(value->val.binary.data) != 2)
			nat_invalid_param(path, "Pass two bounds, e.g. {\"between\": [10, 20]}.",
							  "operator \"between\" takes an array of two values");
		low = getIthJsonbValueFromContainer(value->val.binary.data, 0);
		high = getIthJsonbValueFromContainer(value->val.binary.data, 1);
		appendStringInfoChar(buf, '(');
		deparse_comparison(buf, relid, attnum, coltype, ">=", "between", low,
						   params, psprintf("%s[0]", path));
		appendStringInfoString(buf, " AND ");
		deparse_comparison(buf, relid, attnum, coltype, "<=", "between", high,
						   params, psprintf("%s[1]", path));
		appendStringInfoChar(buf, ')');
	}
	else if (strcmp(op, "contains") == 0)
		deparse_contains(buf, relid, attnum, coltype, value, params, path);
	else
	{
		const char *negates;
		const char *close = nat_filter_operator_meant(op, filter_operators,
													  lengthof(filter_operators),
													  &negates);

		if (negates)
			report_negated_operator(op, negates, path);
		nat_invalid_param_offer(path, close,
								close ? psprintf("Use the operator \"%s\".", close) : NULL,
								"Use one of eq, neq, gt, gte, lt, lte, in, not_in, like, ilike, is_null, between, contains.",
								"unknown filter operator \"%s\"", nat_clip(op));
	}
}

/*
 * The condition on one column: a bare value, or an object of operators.
 */
static void
deparse_column_condition(StringInfo buf, Oid relid, const char *colname,
						 JsonbValue *value, QueryParams *params,
						 StringInfo pathbuf)
{
	const char *path = pathbuf->data;
	AttrNumber	attnum = nat_resolve_column(relid, colname, path);
	Oid			coltype = get_atttype(relid, attnum);
	Oid			basetype = getBaseType(coltype);
	bool		operators = false;

	/* an object is operators, unless a JSON column is compared to one */
	if (is_object(value))
	{
		NatJsonbKeys keys;
		const char *key;
		int			keylen;
		JsonbValue	v;

		operators = true;
		if (basetype == JSONBOID || basetype == JSONOID)
		{
			nat_jsonb_keys_begin(&keys, value->val.binary.data);
			while (nat_jsonb_next_key(&keys, &key, &keylen, &v))
				if (!is_filter_operator(nat_clip_len(key, keylen)))
					operators = false;
		}
	}

	if (!operators)
	{
		/* a list for a column that is not an array means "in" */
		if (is_array(value) && !OidIsValid(get_element_type(basetype)) &&
			basetype != JSONBOID && basetype != JSONOID)
			deparse_in(buf, relid, attnum, coltype, false, value, params, path);
		else
			deparse_operator(buf, relid, attnum, coltype, "eq", value, params, path);
		return;
	}
	else
	{
		NatJsonbKeys keys;
		const char *key;
		int			keylen;
		JsonbValue	v;
		int			n = 0;

		appendStringInfoChar(buf, '(');
		nat_jsonb_keys_begin(&keys, value->val.binary.data);
		while (nat_jsonb_next_key(&keys, &key, &keylen, &v))
		{
			/* no operator is long: a clipped copy names it as well */
			char	   *op = nat_clip_len(key, keylen);
			int			len = pathbuf->len;

			if (n++ > 0)
				appendStringInfoString(buf, " AND ");
			appendStringInfo(pathbuf, ".%s", op);
			deparse_operator(buf, relid, attnum, coltype, op, &v, params,
							 pathbuf->data);
			pathbuf->len = len;
			pathbuf->data[len] = '\0';
			path = pathbuf->data;
		}
		if (n == 0)
			nat_invalid_param(path, "Give at least one operator, e.g. {\"gt\": 18}.",
							  "empty operator object for column \"%s\"", nat_clip(colname));
		appendStringInfoChar(buf, ')');
	}
}

/*
 * and / or: an array of filter objects.
 */
static void
deparse_bool_list(StringInfo buf, Oid relid, const char *op, JsonbValue *value,
				  QueryParams *params, StringInfo path)
{
	int			n;
	int			i;
	int			len = path->len;

	if (!is_array(value) || JsonContainerSize(value->val.binary.data) == 0)
		nat_invalid_param(path->data,
						  psprintf("Pass a non-empty list of conditions, e.g. {\"%s\": [{\"a\": 1}, {\"b\": 2}]}.", op),
						  "\"%s\" takes a non-empty array of conditions", op);
	n = JsonContainerSize(value->val.binary.data);
	appendStringInfoChar(buf, '(');
	for (i = 0; i < n; i++)
	{
		JsonbValue *item = getIthJsonbValueFromContainer(value->val.binary.data, i);

		CHECK_FOR_INTERRUPTS();
		/* the item's path: built on the parent's, not copied (linear) */
		appendStringInfo(path, "[%d]", i);
		if (i > 0)
			appendStringInfo(buf, " %s ", strcmp(op, "or") == 0 ? "OR" : "AND");
		if (item->type == jbvString)
			nat_deparse_sql_condition(buf, relid,
									  pnstrdup(item->val.string.val, item->val.string.len),
									  params, path->data);
		else if (is_object(item))
			deparse_object(buf, relid, item->val.binary.data, params, path);
		else
			nat_invalid_param(path->data, NULL, "each condition of \"%s\" must be an object", op);
		path->len = len;
		path->data[len] = '\0';
		pfree(item);
	}
	appendStringInfoChar(buf, ')');
}

/*
 * A filter object: its members ANDed.
 */
static void
deparse_object(StringInfo buf, Oid relid, JsonbContainer *obj,
			   QueryParams *params, StringInfo path)
{
	NatJsonbKeys keys;
	const char *k;
	int			klen;
	JsonbValue	v;
	int			n = 0;
	int			len = path->len;

	check_stack_depth();
	appendStringInfoChar(buf, '(');
	nat_jsonb_keys_begin(&keys, obj);
	while (nat_jsonb_next_key(&keys, &k, &klen, &v))
	{
		/* keys were checked (nat_validate_where): names are short */
		char	   *key = pnstrdup(k, klen);
		StringInfo	keypath = path;

		path->len = len;
		path->data[len] = '\0';
		appendStringInfo(path, ".%s", key);
		if (n++ > 0)
			appendStringInfoString(buf, " AND ");
		if (strcmp(key, "and") == 0 || strcmp(key, "or") == 0)
			deparse_bool_list(buf, relid, key, &v, params, keypath);
		else if (strcmp(key, "not") == 0)
		{
			if (!is_object(&v))
				nat_invalid_param(keypath->data, "Pass a condition object, e.g. {\"not\": {\"status\": \"deleted\"}}.",
								  "\"not\" takes a condition object");
			appendStringInfoString(buf, "(NOT ");
			deparse_object(buf, relid, v.val.binary.data, params, keypath);
			appendStringInfoChar(buf, ')');
		}
		else
			deparse_column_condition(buf, relid, key, &v, params, keypath);
	}
	path->len = len;
	path->data[len] = '\0';
	if (n == 0)
		appendStringInfoString(buf, "true");
	appendStringInfoChar(buf, ')');
}

/*
 * Where a value sits in a where argument, for error paths.  Validation
 * keeps only these links, one per level on the stack, and renders a path
 * string only for the error it raises, so the work stays linear however
 * deep or wide the filter is.
 */
typedef struct WherePath
{
	const struct WherePath *parent;
	const char *key;			/* member name (len bytes), or NULL */
	int			keylen;
	int			index;			/* array index, when key is NULL */
} WherePath;

static char *
render_path(const WherePath *wp, const char *root)
{
	StringInfoData buf;
	const WherePath *links[NAT_MAX_WHERE_DEPTH * 2 + 8];
	int			n = 0;

	/* the chain is bounded: validation stops past the depth limit */
	for (; wp != NULL && n < lengthof(links); wp = wp->parent)
		links[n++] = wp;
	initStringInfo(&buf);
	appendStringInfoString(&buf, root);
	while (n-- > 0)
	{
		if (links[n]->key)
			appendStringInfo(&buf, ".%s", nat_clip_len(links[n]->key, links[n]->keylen));
		else
			appendStringInfo(&buf, "[%d]", links[n]->index);
	}
	return buf.data;
}

/*
 * What one where argument holds in all, against NAT_MAX_WHERE_TERMS and
 * NAT_MAX_WHERE_SQL: each limit above bounds one level or one list only,
 * and a wide or-list of in lists would otherwise deparse into SQL whose
 * parsing and planning cost grows without bound.
 */
typedef struct WhereBudget
{
	const char *root;
	int			terms;			/* conditions and list values */
	int			sql_chars;		/* characters of condition strings */
} WhereBudget;

static void validate_where_object(JsonbContainer *obj, const WherePath *wp,
								  int depth, WhereBudget *budget);

/*
 * Count n more terms at wp.
 */
static void
count_terms(WhereBudget *budget, int n, const WherePath *wp)
{
	budget->terms += n;
	if (budget->terms > NAT_MAX_WHERE_TERMS)
		nat_invalid_param(render_path(wp, budget->root),
						  psprintf("Use at most %d conditions and list values in one where; split the work into several calls, or use conditions on ranges.",
								   NAT_MAX_WHERE_TERMS),
						  "argument \"where\" has more than %d conditions and list values in all",
						  NAT_MAX_WHERE_TERMS);
}

/*
 * The size of an in / not_in list (or of a bare list meaning in); its
 * values are counted as terms.  Returns how many lists there were (0 or 1).
 */
static int
validate_in_list(JsonbValue *value, const WherePath *wp, WhereBudget *budget)
{
	int			n;

	if (!is_array(value))
		return 0;
	n = JsonContainerSize(value->val.binary.data);
	if (n > NAT_MAX_IN_LIST)
		nat_invalid_param(render_path(wp, budget->root),
						  psprintf("Pass at most %d values in one list; split the filter, or use a condition on a range.",
								   NAT_MAX_IN_LIST),
						  "list of %d values is longer than the limit of %d",
						  n, NAT_MAX_IN_LIST);
	count_terms(budget, Max(n, 1), wp); /* [] stands for false */
	return 1;
}

/*
 * One item of and / or: a SQL condition string or a filter object.
 */
static void
validate_where_item(JsonbValue *item, const WherePath *wp, int depth,
					WhereBudget *budget)
{
	if (!is_object(item))
		count_terms(budget, 1, wp);
	if (item->type == jbvString)
	{
		if (nat_exceeds_chars(item->val.string.val, item->val.string.len,
							  NAT_MAX_WHERE_SQL))
			nat_invalid_param(render_path(wp, budget->root),
							  psprintf("Write a condition of at most %d characters.", NAT_MAX_WHERE_SQL),
							  "where condition is longer than the limit of %d characters",
							  NAT_MAX_WHERE_SQL);
		budget->sql_chars += pg_mbstrlen_with_len(item->val.string.val,
												  item->val.string.len);
		if (budget->sql_chars > NAT_MAX_WHERE_SQL)
			nat_invalid_param(render_path(wp, budget->root),
							  psprintf("Keep the condition strings of one where at most %d characters in all, or use the object form.",
									   NAT_MAX_WHERE_SQL),
							  "where condition strings are longer than the limit of %d characters in all",
							  NAT_MAX_WHERE_SQL);
	}
	if (is_object(item))
		validate_where_object(item->val.binary.data, wp, depth, budget);
}

static void
validate_where_object(JsonbContainer *obj, const WherePath *wp, int depth,
					  WhereBudget *budget)
{
	const char *root = budget->root;
	NatJsonbKeys keys;
	const char *key;
	int			keylen;
	JsonbValue	v;
	WherePath	member = {wp, NULL, 0, 0};

	/* {} stands for true: a term of its own */
	if (JsonContainerSize(obj) == 0)
		count_terms(budget, 1, wp);

	nat_jsonb_keys_begin(&keys, obj);
	while (nat_jsonb_next_key(&keys, &key, &keylen, &v))
	{
		bool		and_or;
		bool		not;

		member.key = key;
		member.keylen = keylen;
		and_or = NAT_KEY_IS(key, keylen, "and") || NAT_KEY_IS(key, keylen, "or");
		not = NAT_KEY_IS(key, keylen, "not");
		if (!and_or && !not)
			nat_check_identifier(key, keylen,
								 keylen > NAT_MAX_IDENTIFIER ?
								 render_path(&member, root) : NULL);
		if ((and_or && is_array(&v)) || (not && is_object(&v)))
		{
			if (depth + 1 > NAT_MAX_WHERE_DEPTH)
				nat_invalid_param(render_path(&member, root),
								  "Flatten the filter: and/or lists take any number of conditions.",
								  "argument \"where\" is nested deeper than the limit of %d and/or/not levels",
								  NAT_MAX_WHERE_DEPTH);
		}
		if (and_or && is_array(&v))
		{
			int			n = JsonContainerSize(v.val.binary.data);
			int			i;
			WherePath	item = {&member, NULL, 0, 0};

			if (n == 0)
				count_terms(budget, 1, &member);	/* an empty and/or: a term */
			for (i = 0; i < n; i++)
			{
				JsonbValue *elem = getIthJsonbValueFromContainer(v.val.binary.data, i);

				CHECK_FOR_INTERRUPTS();
				item.index = i;
				validate_where_item(elem, &item, depth + 1, budget);
				pfree(elem);
			}
		}
		else if (not && is_object(&v))
			validate_where_object(v.val.binary.data, &member, depth + 1, budget);
		else if (!and_or && !not)
		{
			/*
			 * A column: a bare list, or operators with in / not_in lists. A
			 * list counts its values, any other operator or value one.
			 */
			if (validate_in_list(&v, &member, budget) == 0 && !is_object(&v))
				count_terms(budget, 1, &member);
			if (is_object(&v))
			{
				JsonbValue *list;
				WherePath	op = {&member, NULL, 0, 0};
				int			others = JsonContainerSize(v.val.binary.data);
				int			lists = 0;

				list = NAT_JSONB_MEMBER(v.val.binary.data, "in");
				op.key = "in";
				op.keylen = strlen(op.key);
				if (list)
					lists += validate_in_list(list, &op, budget);
				list = NAT_JSONB_MEMBER(v.val.binary.data, "not_in");
				op.key = "not_in";
				op.keylen = strlen(op.key);
				if (list)
					lists += validate_in_list(list, &op, budget);
				others -= lists;
				if (others > 0 || lists == 0)
					count_terms(budget, Max(others, 1), &member);
			}
		}
	}
}

/*
 * The limits of a where argument (README, "Limits"), checked before any
 * SQL is built: a condition string's length (by its parameter row), the
 * and/or/not depth of the structured form, column names, in lists, and
 * the number of terms and characters of condition strings in all.
 */
void
nat_validate_where(JsonbValue *value, const char *path)
{
	WhereBudget budget = {path, 0, 0};

	if (is_object(value))
		validate_where_object(value->val.binary.data, NULL, 0, &budget);
}

/*
 * Append the where argument, in either form, as a boolean SQL expression.
 */
void
nat_deparse_where(StringInfo buf, Oid relid, JsonbValue *where,
				  QueryParams *params, const char *path)
{
	if (where->type == jbvString)
		nat_deparse_sql_condition(buf, relid,
								  pnstrdup(where->val.string.val, where->val.string.len),
								  params, path);
	else if (is_object(where))
	{
		StringInfoData pathbuf;

		initStringInfo(&pathbuf);
		appendStringInfoString(&pathbuf, path);
		deparse_object(buf, relid, where->val.binary.data, params, &pathbuf);
	}
	else
		nat_invalid_param(path, "Pass an object such as {\"status\": \"active\"} or a SQL condition string.",
						  "argument \"where\" must be an object or a string");
}
