/*-------------------------------------------------------------------------
 *
 * type_examples.c
 *		  One valid value of a type, for advice an agent can copy, and what
 *		  the catalog says of a column (its type, default, limit).
 *
 * Error answers about a column (a NOT NULL violation, a value too long)
 * say what to pass: "e.g. \"name\": \"example\"" for a write tool's JSON,
 * "e.g. 'example'" for SQL.  Examples exist for the common built-in types,
 * domains (by their base type), enums (their first label) and arrays of
 * those; other types get none.
 *
 * IDENTIFICATION
 *		  src/answer/type_examples.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_attrdef.h"
#include "catalog/pg_enum.h"
#include "catalog/pg_type.h"
#include "neon_ai_tools.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/fmgroids.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/ruleutils.h"
#include "utils/syscache.h"

/*
 * The first label of an enum, or NULL.
 */
static char *
first_enum_label(Oid typid)
{
	CatCList   *list = SearchSysCacheList1(ENUMTYPOIDNAME, ObjectIdGetDatum(typid));
	char	   *label = NULL;
	float4		best = 0;
	int			i;

	for (i = 0; i < list->n_members; i++)
	{
		Form_pg_enum e = (Form_pg_enum) GETSTRUCT(&list->members[i]->tuple);

		if (label == NULL || e->enumsortorder < best)
		{
			label = NameStr(e->enumlabel);
			best = e->enumsortorder;
		}
	}
	label = label ? pstrdup(label) : NULL;
	ReleaseSysCacheList(list);
	return label;
}

/*
 * A numeric that fits numeric(p,s): 1.5 with s decimals, or 0.5... when
 * p <= s.
 */
static char *
numeric_example(int32 typmod)
{
	int			precision;
	int			scale;

	if (typmod < (int32) VARHDRSZ)
		return pstrdup("9.99");
	precision = ((typmod - VARHDRSZ) >> 16) & 0xffff;
	scale = (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;
	if (scale <= 0)
		return pstrdup("1");
	if (precision > scale)
		return psprintf("1.%s", scale >= 2 ? "50" : "5");
	return psprintf("0.%0*d", scale, 5);
}

/*
 * A string of at most n characters (varchar(n), char(n)).
 */
static char *
string_example(int32 typmod)
{
	int			n = typmod >= (int32) VARHDRSZ ? typmod - VARHDRSZ : 7;

	return pnstrdup("example", Min(n, 7));
}

/* how an example is written */
typedef enum ExampleKind
{
	EXAMPLE_BARE,				/* as it is in JSON and SQL: 42, true */
	EXAMPLE_STRING,				/* "x" in JSON, 'x' in SQL */
	EXAMPLE_JSON				/* as it is in JSON, 'x' in SQL */
} ExampleKind;

/*
 * One value of a scalar type as text, and how it is written; NULL for a
 * type without an example.
 */
static char *
scalar_example(Oid typid, int32 typmod, ExampleKind *kind)
{
	*kind = EXAMPLE_STRING;
	switch (typid)
	{
		case BOOLOID:
			*kind = EXAMPLE_BARE;
			return pstrdup("true");
		case INT2OID:
		case INT4OID:
		case INT8OID:
			*kind = EXAMPLE_BARE;
			return pstrdup("42");
		case NUMERICOID:
			*kind = EXAMPLE_BARE;
			return numeric_example(typmod);
		case FLOAT4OID:
		case FLOAT8OID:
			*kind = EXAMPLE_BARE;
			return pstrdup("1.5");
		case TEXTOID:
		case NAMEOID:
			return string_example(-1);
		case VARCHAROID:
		case BPCHAROID:
			return string_example(typmod);
		case DATEOID:
			return pstrdup("2026-01-31");
		case TIMESTAMPOID:
			return pstrdup("2026-01-31 12:00:00");
		case TIMESTAMPTZOID:
			return pstrdup("2026-01-31 12:00:00+00");
		case TIMEOID:
			return pstrdup("12:00:00");
		case INTERVALOID:
			return pstrdup("1 day");
		case UUIDOID:
			return pstrdup("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
		case JSONOID:
		case JSONBOID:
			*kind = EXAMPLE_JSON;
			return pstrdup("{\"key\": \"value\"}");
	}
	if (type_is_enum(typid))
		return first_enum_label(typid);
	return NULL;
}

/*
 * One valid value of type typid (typmod) as a write tool's JSON takes it
 * (sql false: 42, "example", ["example"]) or as a SQL literal (sql true:
 * 42, 'example', ARRAY['example']); NULL when there is none to give.
 */
char *
nat_type_example(Oid typid, int32 typmod, bool sql)
{
	Oid			base = getBaseTypeAndTypmod(typid, &typmod);
	Oid			elem = get_element_type(base);
	ExampleKind kind;
	char	   *value;
	StringInfoData buf;

	if (OidIsValid(elem))
	{
		value = nat_type_example(elem, -1, sql);
		return value ? psprintf(sql ? "ARRAY[%s]" : "[%s]", value) : NULL;
	}
	value = scalar_example(base, typmod, &kind);
	if (value == NULL || kind == EXAMPLE_BARE || (kind == EXAMPLE_JSON && !sql))
		return value;
	if (sql)
		return quote_literal_cstr(value);
	initStringInfo(&buf);
	escape_json(&buf, value);	/* an enum's label may need it */
	return buf.data;
}

/*
 * The default expression of a column, clipped, or NULL: read from
 * pg_attrdef without locking the table (the error came from a statement
 * that has ended).
 */
char *
nat_column_default(Oid relid, AttrNumber attnum)
{
	Relation	rel = table_open(AttrDefaultRelationId, AccessShareLock);
	ScanKeyData keys[2];
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *result = NULL;

	ScanKeyInit(&keys[0], Anum_pg_attrdef_adrelid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(relid));
	ScanKeyInit(&keys[1], Anum_pg_attrdef_adnum, BTEqualStrategyNumber,
				F_INT2EQ, Int16GetDatum(attnum));
	scan = systable_beginscan(rel, AttrDefaultIndexId, true, NULL, 2, keys);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
	{
		bool		isnull;
		Datum		adbin = heap_getattr(tuple, Anum_pg_attrdef_adbin,
										 RelationGetDescr(rel), &isnull);

		if (!isnull)
		{
			char	   *relname = get_rel_name(relid);
			Node	   *expr = stringToNode(TextDatumGetCString(adbin));

			if (relname != NULL)
				result = nat_clip(deparse_expression(expr,
													 deparse_context_for(relname, relid),
													 false, false));
		}
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return result;
}
