/*-------------------------------------------------------------------------
 *
 * deparse.c
 *		  Pieces of generated SQL text.
 *
 * In the manner of postgres_fdw's deparse.c: names are printed from the
 * catalog, never echoed from the agent's input; relations, types,
 * operators and functions are always schema-qualified, so a hostile
 * search_path (an "evil" schema with its own "=" operator placed first)
 * cannot redirect generated SQL; values are only ever "$n" parameters.
 *
 * IDENTIFICATION
 *		  src/sql/deparse.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "plan/plan.h"
#include "parser/parse_oper.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

/*
 * A column of relid, by its catalog name.
 */
void
nat_deparse_column(StringInfo buf, Oid relid, AttrNumber attnum)
{
	appendStringInfoString(buf, quote_identifier(get_attname(relid, attnum, false)));
}

/*
 * A type name that resolves the same under any search_path.
 */
void
nat_deparse_type(StringInfo buf, Oid typid, int32 typmod)
{
	appendStringInfoString(buf,
						   format_type_extended(typid, typmod,
												FORMAT_TYPE_FORCE_QUALIFY |
												FORMAT_TYPE_TYPEMOD_GIVEN));
}

/*
 * OPERATOR(schema.op)
 */
void
nat_deparse_operator_name(StringInfo buf, Oid opno)
{
	HeapTuple	tuple;
	Form_pg_operator form;

	tuple = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for operator %u", opno);
	form = (Form_pg_operator) GETSTRUCT(tuple);
	/* most are pg_catalog's: no lookup of the schema's name for those */
	appendStringInfo(buf, "OPERATOR(%s.%s)",
					 form->oprnamespace == PG_CATALOG_NAMESPACE ? "pg_catalog" :
					 quote_identifier(get_namespace_name(form->oprnamespace)),
					 NameStr(form->oprname));
	ReleaseSysCache(tuple);
}

/*
 * schema.function
 */
void
nat_deparse_function_name(StringInfo buf, Oid funcid)
{
	appendStringInfoString(buf,
						   quote_qualified_identifier(get_namespace_name(get_func_namespace(funcid)),
													  get_func_name(funcid)));
}

/*
 * "schema"."collation"
 */
void
nat_deparse_collation(StringInfo buf, Oid collid)
{
	HeapTuple	tuple;
	Form_pg_collation form;

	tuple = SearchSysCache1(COLLOID, ObjectIdGetDatum(collid));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for collation %u", collid);
	form = (Form_pg_collation) GETSTRUCT(tuple);
	appendStringInfoString(buf,
						   quote_qualified_identifier(get_namespace_name(form->collnamespace),
													  NameStr(form->collname)));
	ReleaseSysCache(tuple);
}

/*
 * $n
 */
void
nat_deparse_param(StringInfo buf, int paramno)
{
	appendStringInfo(buf, "$%d", paramno);
}

/*
 * The schema a type lives in.
 */
static char *
type_schema_name(Oid typid)
{
	HeapTuple	tuple;
	Oid			nspid;

	tuple = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for type %u", typid);
	nspid = ((Form_pg_type) GETSTRUCT(tuple))->typnamespace;
	ReleaseSysCache(tuple);
	return get_namespace_name(nspid);
}

/*
 * Find the binary operator opname for (ltype, rtype) in pg_catalog, or
 * failing that in the schema of ltype (where extension types keep their
 * operators: citext, ltree, ...).  The search path is never consulted.
 * Returns InvalidOid when there is none; the caller reports it.
 */
Oid
nat_lookup_operator(const char *opname, Oid ltype, Oid rtype, const char *path)
{
	HeapTuple	tuple;
	int			i;

	/*
	 * An exact match in pg_catalog, which oper() would find first, straight
	 * from the syscache: most columns have their type's own operators.
	 */
	tuple = SearchSysCache4(OPERNAMENSP, CStringGetDatum(opname),
							ObjectIdGetDatum(ltype), ObjectIdGetDatum(rtype),
							ObjectIdGetDatum(PG_CATALOG_NAMESPACE));
	if (HeapTupleIsValid(tuple))
	{
		Oid			result = ((Form_pg_operator) GETSTRUCT(tuple))->oid;

		ReleaseSysCache(tuple);
		return result;
	}

	for (i = 0; i < 2; i++)
	{
		/* the type's schema is looked up only when pg_catalog has none */
		char	   *schema = i == 0 ? "pg_catalog" : type_schema_name(ltype);
		Operator	op;
		Oid			result;

		if (schema == NULL || (i == 1 && strcmp(schema, "pg_catalog") == 0))
			continue;
		op = oper(NULL, list_make2(makeString(pstrdup(schema)), makeString(pstrdup(opname))),
				  ltype, rtype, true, -1);
		if (op == NULL)
			continue;
		result = oprid(op);
		ReleaseSysCache(op);
		return result;
	}
	return InvalidOid;
}

/*
 * Append a list of columns of relid given as a JSON array of names or a
 * comma-separated string ("id, name"); "*", an empty list or no value at
 * all (NULL) mean every column the role may read: "*" with SELECT on the
 * table, else the columns it was granted SELECT on, by name, so that a
 * role with column privileges still reads what it may; *omitted (if not
 * NULL) is set to how many columns that left out.  A role that may read
 * no column gets "*", for PostgreSQL to refuse.  Names are resolved
 * through the catalog; 'path' is the argument's JSON path.  Returns the
 * columns' attribute numbers (int).
 */
List *
nat_deparse_column_list(StringInfo buf, Oid relid, JsonbValue *columns,
						const char *path, int *omitted)
{
	List	   *names = NIL;
	List	   *attnums = NIL;
	ListCell   *lc;

	if (columns != NULL && columns->type == jbvString)
	{
		char	   *str = nat_json_value_text(columns);
		const char *p = str;

		if (strcmp(str, "*") != 0)
		{
			/*
			 * Scan "a, \"b c\", d" one name at a time, stopping at the column
			 * limit: the count is known only while scanning, and a huge list
			 * must not be split first.
			 */
			for (;;)
			{
				const char *e = p;
				bool		in_quotes = false;
				bool		quoted;
				char	   *item;
				const char *q;
				char	   *name;

				CHECK_FOR_INTERRUPTS();
				if (list_length(names) == NAT_MAX_COLUMNS)
					nat_invalid_param(path,
									  psprintf("Name at most %d columns.", NAT_MAX_COLUMNS),
									  "argument \"%s\" names more than the limit of %d columns",
									  path + 2, NAT_MAX_COLUMNS);
				/* the next item ends at a comma outside double quotes */
				for (; *e && (in_quotes || *e != ','); e++)
					if (*e == '"')
						in_quotes = !in_quotes;
				item = pnstrdup(p, e - p);
				q = item;
				name = nat_read_identifier(&q, &quoted);
				while (isspace((unsigned char) *q))
					q++;
				if (name == NULL || *q != '\0')
					nat_invalid_param(path, "Separate column names with commas, e.g. \"id, name\".",
									  "invalid column list \"%s\"", nat_clip(str));
				nat_check_identifier(name, strlen(name), path);
				pfree(item);
				names = lappend(names, name);
				if (*e == '\0')
					break;
				p = e + 1;
			}
		}
	}
	else if (columns != NULL)
	{
		int			i;

		for (i = 0; i < JsonContainerSize(columns->val.binary.data); i++)
		{
			JsonbValue *item = getIthJsonbValueFromContainer(columns->val.binary.data, i);

			CHECK_FOR_INTERRUPTS();
			names = lappend(names, nat_json_value_text(item));
		}
	}

	if (omitted)
		*omitted = 0;
	if (names == NIL)
	{
		int			left_out;

		attnums = nat_readable_columns(relid, &left_out);
		if (attnums == NIL || left_out == 0)
		{
			appendStringInfoChar(buf, '*');
			return nat_relation_columns(relid);
		}
		foreach(lc, attnums)
		{
			if (foreach_current_index(lc) > 0)
				appendStringInfoString(buf, ", ");
			nat_deparse_column(buf, relid, lfirst_int(lc));
		}
		if (omitted)
			*omitted = left_out;
		return attnums;
	}
	foreach(lc, names)
	{
		char	   *itempath = columns->type == jbvString ? pstrdup(path) :
			psprintf("%s[%d]", path, foreach_current_index(lc));
		AttrNumber	attnum;

		CHECK_FOR_INTERRUPTS();
		attnum = nat_resolve_column(relid, (char *) lfirst(lc), itempath);
		if (foreach_current_index(lc) > 0)
			appendStringInfoString(buf, ", ");
		nat_deparse_column(buf, relid, attnum);
		attnums = lappend_int(attnums, attnum);
	}
	return attnums;
}

/*
 * " LIMIT $k [OFFSET $m]" for a query capped at max_rows: $k is one row
 * past the cap, so that fetching it tells whether the answer is truncated.
 */
void
nat_deparse_limit_offset(StringInfo buf, QueryParams *params, int64 max_rows,
						 int64 offset)
{
	appendStringInfoString(buf, " LIMIT ");
	nat_deparse_param(buf, nat_params_add(params, INT8OID,
										  Int64GetDatum(max_rows + 1), false));
	if (offset > 0)
	{
		appendStringInfoString(buf, " OFFSET ");
		nat_deparse_param(buf, nat_params_add(params, INT8OID,
											  Int64GetDatum(offset), false));
	}
}
