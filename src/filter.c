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
 *		  src/filter.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "neon_ai_tools.h"
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
						   QueryParams *params, const char *path);

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
	appendStringInfoChar(buf, '(');
	nat_deparse_column(buf, relid, attnum);
	appendStringInfoChar(buf, ' ');
	nat_deparse_operator_name(buf, opno);
	appendStringInfoChar(buf, ' ');
	deparse_value(buf, value, right, params, path);
	appendStringInfoChar(buf, ')');
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
	appendStringInfoChar(buf, '(');
	nat_deparse_column(buf, relid, attnum);
	if (!is_string)
		appendStringInfoString(buf, "::pg_catalog.text");
	appendStringInfoChar(buf, ' ');
	nat_deparse_operator_name(buf, opno);
	appendStringInfoChar(buf, ' ');
	deparse_value(buf, value, TEXTOID, params, path);
	appendStringInfoChar(buf, ')');
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

		appendStringInfoChar(buf, '(');
		nat_deparse_column(buf, relid, attnum);
		appendStringInfoChar(buf, ' ');
		nat_deparse_operator_name(buf, opno);
		appendStringInfoChar(buf, ' ');
		deparse_value(buf, value, JSONBOID, params, path);
		appendStringInfoChar(buf, ')');
		return;
	}
	deparse_comparison(buf, relid, attnum, coltype, "@>", "contains", value,
					   params, path);
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
		const char *close = nat_closest_word(op, filter_operators,
											 lengthof(filter_operators));

		nat_invalid_param(path,
						  close ? psprintf("Did you mean \"%s\"?", close) :
						  "Use one of eq, neq, gt, gte, lt, lte, in, not_in, like, ilike, is_null, between, contains.",
						  "unknown filter operator \"%s\"", op);
	}
}

/*
 * The condition on one column: a bare value, or an object of operators.
 */
static void
deparse_column_condition(StringInfo buf, Oid relid, const char *colname,
						 JsonbValue *value, QueryParams *params,
						 const char *path)
{
	AttrNumber	attnum = nat_resolve_column(relid, colname, path);
	Oid			coltype = get_atttype(relid, attnum);
	Oid			basetype = getBaseType(coltype);
	bool		operators = false;

	/* an object is operators, unless a JSON column is compared to one */
	if (is_object(value))
	{
		JsonbIterator *it = JsonbIteratorInit(value->val.binary.data);
		JsonbValue	v;
		JsonbIteratorToken tok;

		operators = true;
		if (basetype == JSONBOID || basetype == JSONOID)
		{
			while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
				if (tok == WJB_KEY &&
					!is_filter_operator(pnstrdup(v.val.string.val, v.val.string.len)))
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
		JsonbIterator *it = JsonbIteratorInit(value->val.binary.data);
		JsonbValue	v;
		JsonbIteratorToken tok;
		int			n = 0;

		appendStringInfoChar(buf, '(');
		while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
		{
			char	   *op;

			if (tok != WJB_KEY)
				continue;
			op = pnstrdup(v.val.string.val, v.val.string.len);
			tok = JsonbIteratorNext(&it, &v, true);
			if (n++ > 0)
				appendStringInfoString(buf, " AND ");
			deparse_operator(buf, relid, attnum, coltype, op, &v, params,
							 psprintf("%s.%s", path, op));
		}
		if (n == 0)
			nat_invalid_param(path, "Give at least one operator, e.g. {\"gt\": 18}.",
							  "empty operator object for column \"%s\"", colname);
		appendStringInfoChar(buf, ')');
	}
}

/*
 * and / or: an array of filter objects.
 */
static void
deparse_bool_list(StringInfo buf, Oid relid, const char *op, JsonbValue *value,
				  QueryParams *params, const char *path)
{
	int			n;
	int			i;

	if (!is_array(value) || JsonContainerSize(value->val.binary.data) == 0)
		nat_invalid_param(path,
						  psprintf("Pass a non-empty list of conditions, e.g. {\"%s\": [{\"a\": 1}, {\"b\": 2}]}.", op),
						  "\"%s\" takes a non-empty array of conditions", op);
	n = JsonContainerSize(value->val.binary.data);
	appendStringInfoChar(buf, '(');
	for (i = 0; i < n; i++)
	{
		JsonbValue *item = getIthJsonbValueFromContainer(value->val.binary.data, i);
		char	   *itempath = psprintf("%s[%d]", path, i);

		if (i > 0)
			appendStringInfo(buf, " %s ", strcmp(op, "or") == 0 ? "OR" : "AND");
		if (item->type == jbvString)
			nat_deparse_sql_condition(buf, relid,
									  pnstrdup(item->val.string.val, item->val.string.len),
									  params, itempath);
		else if (is_object(item))
			deparse_object(buf, relid, item->val.binary.data, params, itempath);
		else
			nat_invalid_param(itempath, NULL, "each condition of \"%s\" must be an object", op);
	}
	appendStringInfoChar(buf, ')');
}

/*
 * A filter object: its members ANDed.
 */
static void
deparse_object(StringInfo buf, Oid relid, JsonbContainer *obj,
			   QueryParams *params, const char *path)
{
	JsonbIterator *it = JsonbIteratorInit(obj);
	JsonbValue	v;
	JsonbIteratorToken tok;
	int			n = 0;

	appendStringInfoChar(buf, '(');
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		char	   *key;
		char	   *keypath;

		if (tok != WJB_KEY)
			continue;
		key = pnstrdup(v.val.string.val, v.val.string.len);
		keypath = psprintf("%s.%s", path, key);
		tok = JsonbIteratorNext(&it, &v, true);
		if (n++ > 0)
			appendStringInfoString(buf, " AND ");
		if (strcmp(key, "and") == 0 || strcmp(key, "or") == 0)
			deparse_bool_list(buf, relid, key, &v, params, keypath);
		else if (strcmp(key, "not") == 0)
		{
			if (!is_object(&v))
				nat_invalid_param(keypath, "Pass a condition object, e.g. {\"not\": {\"status\": \"deleted\"}}.",
								  "\"not\" takes a condition object");
			appendStringInfoString(buf, "(NOT ");
			deparse_object(buf, relid, v.val.binary.data, params, keypath);
			appendStringInfoChar(buf, ')');
		}
		else
			deparse_column_condition(buf, relid, key, &v, params, keypath);
	}
	if (n == 0)
		appendStringInfoString(buf, "true");
	appendStringInfoChar(buf, ')');
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
		deparse_object(buf, relid, where->val.binary.data, params, path);
	else
		nat_invalid_param(path, "Pass an object such as {\"status\": \"active\"} or a SQL condition string.",
						  "argument \"where\" must be an object or a string");
}
