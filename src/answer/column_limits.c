/*-------------------------------------------------------------------------
 *
 * column_limits.c
 *		  A value past its column's limit: the column and the limit; and a
 *		  column's default, for advice on a NOT NULL column.
 *
 * "value too long for type character varying(10)" (22001) and "numeric
 * field overflow" (22003) name a type, not the column, and not the limit
 * in words an agent acts on.  A write tool's value is converted before its
 * statement runs, so the conversion knows the column (execute.c calls
 * nat_explain_value_limit()); in the agent's own INSERT or UPDATE, the
 * column is found among those the statement writes (statement_shape.c)
 * by its type: the only one of that type, or those of it, named.  Only
 * columns the role may see are named.
 *
 * Limits: varchar(n) and char(n) hold n characters; numeric(p,s) values
 * below 10^(p-s) with s decimals; smallint, integer and bigint their
 * ranges.
 *
 * IDENTIFICATION
 *		  src/answer/column_limits.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_attrdef.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_type.h"
#include "answer/answer.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/syscache.h"

/* the limit of a type, in words */
typedef struct TypeLimit
{
	char	   *holds;			/* "at most 10 characters" */
	char	   *value;			/* "a value of at most 10 characters" */
	char	   *eg;				/* ", e.g. 999.99", or "" */
} TypeLimit;

/* numeric(p,s) with p at most this gets its largest value as an example */
#define NUMERIC_EXAMPLE_DIGITS 20

/*
 * The limit of numeric(precision, scale).
 */
static void
numeric_limit(int precision, int scale, TypeLimit *limit)
{
	int			whole = precision - scale;

	limit->holds = psprintf("numbers below 10^%d in absolute value, with at most %d decimal%s",
							whole, Max(scale, 0), scale == 1 ? "" : "s");
	limit->value = psprintf("a number below 10^%d in absolute value", whole);
	limit->eg = "";
	if (whole > 0 && scale >= 0 && precision <= NUMERIC_EXAMPLE_DIGITS)
	{
		char		nines[NUMERIC_EXAMPLE_DIGITS + 1];

		memset(nines, '9', precision);
		nines[precision] = '\0';
		limit->eg = scale > 0 ?
			psprintf(", e.g. %.*s.%s", whole, nines, nines + whole) :
			psprintf(", e.g. %s", nines);
	}
}

/*
 * The limit of type typid (typmod), a domain's by its base type; false
 * when the type has none this file describes.
 */
static bool
type_limit(Oid typid, int32 typmod, TypeLimit *limit)
{
	const char *range;

	typid = getBaseTypeAndTypmod(typid, &typmod);
	limit->eg = "";
	switch (typid)
	{
		case VARCHAROID:
		case BPCHAROID:
			if (typmod < (int32) VARHDRSZ)
				return false;
			limit->holds = psprintf("at most %d characters", typmod - (int32) VARHDRSZ);
			limit->value = psprintf("a value of %s", limit->holds);
			return true;
		case NUMERICOID:
			if (typmod < (int32) VARHDRSZ)
				return false;
			numeric_limit(((typmod - VARHDRSZ) >> 16) & 0xffff,
						  (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024, limit);
			return true;
		case INT2OID:
			range = "-32768 to 32767";
			break;
		case INT4OID:
			range = "-2147483648 to 2147483647";
			break;
		case INT8OID:
			range = "-9223372036854775808 to 9223372036854775807";
			break;
		default:
			return false;
	}
	limit->holds = psprintf("whole numbers from %s", range);
	limit->value = psprintf("a whole number from %s", range);
	return true;
}

/*
 * A write tool's value that does not fit its column: err (execute.c's
 * invalid_input, with the column, its type and the argument's path) gets
 * the limit in its suggestion, and the step.
 */
void
nat_explain_value_limit(ToolError *err, Oid typid, int32 typmod)
{
	TypeLimit	limit;

	if ((err->sqlerrcode != ERRCODE_STRING_DATA_RIGHT_TRUNCATION &&
		 err->sqlerrcode != ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE) ||
		err->column == NULL || !type_limit(typid, typmod, &limit))
		return;
	/* a near miss offered (value_advice.c) stays first */
	err->suggestion = psprintf("%sColumn \"%s\" is %s: it holds %s.",
							   err->did_you_mean ?
							   psprintf("Did you mean \"%s\"? ", err->did_you_mean) : "",
							   err->column, format_type_with_typemod(typid, typmod),
							   limit.holds);
	err->suggested_actions = lappend(err->suggested_actions,
									 psprintf("Pass %s for \"%s\" (%s)%s.", limit.value,
											  err->column, err->path, limit.eg));
}

/*
 * Does column att have the type the error is about?  22001 names it
 * ("... for type character varying(10)"); numeric's 22003 gives its
 * precision and scale in DETAIL; the integers' name their type.
 */
static bool
type_matches(Form_pg_attribute att, ErrorData *edata)
{
	const char *msg = edata->message;
	const char *type = msg ? strstr(msg, " for type ") : NULL;
	int			precision;
	int			scale;

	if (edata->sqlerrcode == ERRCODE_STRING_DATA_RIGHT_TRUNCATION)
		return type != NULL &&
			strcmp(type + 10, format_type_with_typemod(att->atttypid, att->atttypmod)) == 0;
	if (edata->detail &&
		sscanf(edata->detail, "A field with precision %d, scale %d", &precision, &scale) == 2)
		return att->atttypid == NUMERICOID && att->atttypmod >= (int32) VARHDRSZ &&
			att->atttypmod == (int32) (((precision << 16) | (scale & 0x7ff)) + VARHDRSZ);
	if (msg == NULL)
		return false;
	if (strcmp(msg, "smallint out of range") == 0 || (type && strcmp(type + 10, "smallint") == 0))
		return att->atttypid == INT2OID;
	if (strcmp(msg, "integer out of range") == 0 || (type && strcmp(type + 10, "integer") == 0))
		return att->atttypid == INT4OID;
	if (strcmp(msg, "bigint out of range") == 0 || (type && strcmp(type + 10, "bigint") == 0))
		return att->atttypid == INT8OID;
	return false;
}

/*
 * The columns of relid the statement writes (every one for an INSERT
 * without a column list) that have the error's type and that the role may
 * see.
 */
static List *
matching_columns(Oid relid, StatementShape *shape, ErrorData *edata,
				 Form_pg_attribute *first)
{
	List	   *names = NIL;
	AttrNumber	attnum;
	int			seen = 0;

	for (attnum = 1;; attnum++)
	{
		HeapTuple	tuple = SearchSysCache2(ATTNUM, ObjectIdGetDatum(relid),
											Int16GetDatum(attnum));
		Form_pg_attribute att;

		if (!HeapTupleIsValid(tuple))
			break;
		att = (Form_pg_attribute) GETSTRUCT(tuple);
		if (!att->attisdropped && shape->all_written && shape->written_count >= 0 &&
			seen++ == shape->written_count)
		{
			ReleaseSysCache(tuple);
			break;				/* past the columns given values */
		}
		if (!att->attisdropped && type_matches(att, edata) &&
			(shape->all_written || nat_name_listed(shape->written, NameStr(att->attname))) &&
			nat_column_visible(relid, attnum))
		{
			if (names == NIL)
			{
				*first = palloc(ATTRIBUTE_FIXED_PART_SIZE);
				memcpy(*first, att, ATTRIBUTE_FIXED_PART_SIZE);
			}
			names = lappend(names, pstrdup(NameStr(att->attname)));
		}
		ReleaseSysCache(tuple);
	}
	return names;
}

/*
 * 22001 or 22003 from an INSERT or UPDATE of the agent's own (or any
 * statement the call ran): the column of the target table it is about,
 * and its limit.
 */
void
nat_explain_column_limit_error(ErrorData *edata, ToolCall *call, ErrorEnrichment *en)
{
	StatementShape shape;
	Oid			relid;
	List	   *names;
	Form_pg_attribute att = NULL;
	TypeLimit	limit;
	char	   *table;
	char	   *quoted;

	if (!nat_statement_shape(call->query, &shape) ||
		(shape.command != T_InsertStmt && shape.command != T_UpdateStmt))
		return;
	relid = nat_statement_target(&shape);
	if (!OidIsValid(relid))
		return;
	names = matching_columns(relid, &shape, edata, &att);
	if (names == NIL || !type_limit(att->atttypid, att->atttypmod, &limit))
		return;
	table = nat_relation_display_name(relid);
	quoted = nat_quoted_names(names);
	if (list_length(names) == 1)
		en->suggestion = psprintf("Column %s of %s is %s: it holds %s.", quoted, table,
								  format_type_with_typemod(att->atttypid, att->atttypmod),
								  limit.holds);
	else
		en->suggestion = psprintf("The columns %s of %s are %s: each holds %s.", quoted, table,
								  format_type_with_typemod(att->atttypid, att->atttypmod),
								  limit.holds);
	en->suggested_actions = lappend(en->suggested_actions,
									psprintf("Give %s%s %s%s.",
											 list_length(names) == 1 ? "" : "each of ",
											 quoted, limit.value, limit.eg));
	if (list_length(names) == 1)
		en->affected_resources = lappend(en->affected_resources,
										 psprintf("%s.%s", table, quote_identifier(linitial(names))));
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
