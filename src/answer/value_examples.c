/*-------------------------------------------------------------------------
 *
 * value_examples.c
 *		  Valid values of a type, written so that an agent can copy them.
 *
 * An invalid_input answer says which type a value must have; an agent
 * corrects itself in one step from an example ("2026-11-27"), not from a
 * reference to the type's input rules.  Built-in types have their
 * examples in a table; a domain takes its base type's (PostgreSQL checks
 * its constraints on top), an array its element type's as a JSON array,
 * ranges and multiranges their written form, an enum its labels (in their
 * order, the first ENUM_LABELS_SHOWN).  A type's modifier narrows the
 * description (varchar(20), numeric(10,2), bit(3)).
 *
 * Examples are written as the agent passes values: JSON values in a
 * tool's arguments (18, "2026-11-27", [1, 2]), or SQL literals when the
 * value was written in the agent's SQL text (18, '2026-11-27').  Nothing
 * here names a table or a column, nor any value stored in one: only type
 * names and enum labels, which every role may read in the catalog.
 *
 * IDENTIFICATION
 *		  src/answer/value_examples.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_enum.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "answer/answer.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

/* the labels an answer lists, at most */
#define ENUM_LABELS_SHOWN	20

/* how an example is written */
typedef enum ExampleForm
{
	EX_STRING,					/* a JSON string; a quoted SQL literal */
	EX_NUMBER,					/* as it is in both: 18, true */
	EX_JSON						/* as it is in JSON; a quoted SQL literal */
} ExampleForm;

typedef struct TypeExample
{
	Oid			typid;
	const char *what;			/* what the values are, or NULL */
	ExampleForm form;
	const char *examples[2];	/* the second may be NULL */
} TypeExample;

#define RANGE_FORM "\"[lower,upper)\": [ and ] include a bound, ( and ) exclude it"
#define MULTIRANGE_FORM "ranges in braces"

static const TypeExample builtin_examples[] = {
	{INT2OID, "a whole number from -32768 to 32767", EX_NUMBER, {"18", "-5"}},
	{INT4OID, "a whole number from -2147483648 to 2147483647", EX_NUMBER, {"18", "-5"}},
	{INT8OID, "a whole number from -9223372036854775808 to 9223372036854775807", EX_NUMBER, {"18", "9000000000"}},
	{OIDOID, "a whole number from 0 to 4294967295", EX_NUMBER, {"16384", NULL}},
	{INT2VECTOROID, "whole numbers separated by spaces", EX_STRING, {"1 2 3", NULL}},
	{OIDVECTOROID, "object ids separated by spaces", EX_STRING, {"16384 16385", NULL}},
	{NUMERICOID, "a decimal number, with a point and no thousands separators", EX_NUMBER, {"1000.50", "-3"}},
	{FLOAT4OID, "a floating-point number", EX_NUMBER, {"3.14", "1.5e-3"}},
	{FLOAT8OID, "a floating-point number", EX_NUMBER, {"3.14", "1.5e-3"}},
	{MONEYOID, "an amount of money", EX_NUMBER, {"1000.50", NULL}},
	{BOOLOID, NULL, EX_NUMBER, {"true", "false"}},
	{TEXTOID, NULL, EX_STRING, {"any text", NULL}},
	{VARCHAROID, NULL, EX_STRING, {"any text", NULL}},
	{BPCHAROID, NULL, EX_STRING, {"any text", NULL}},
	{NAMEOID, "text of at most 63 bytes", EX_STRING, {"any_name", NULL}},
	{CHAROID, "a single character", EX_STRING, {"a", NULL}},
	{DATEOID, "year-month-day", EX_STRING, {"2026-11-27", NULL}},
	{TIMEOID, "hours:minutes:seconds", EX_STRING, {"14:30:00", NULL}},
	{TIMETZOID, "hours:minutes:seconds and a UTC offset", EX_STRING, {"14:30:00+00", NULL}},
	{TIMESTAMPOID, "year-month-day hours:minutes:seconds", EX_STRING, {"2026-11-27 14:30:00", NULL}},
	{TIMESTAMPTZOID, "year-month-day hours:minutes:seconds and a UTC offset", EX_STRING, {"2026-11-27 14:30:00+00", NULL}},
	{INTERVALOID, "a duration", EX_STRING, {"2 hours", "1 day"}},
	{UUIDOID, "32 hexadecimal digits grouped 8-4-4-4-12", EX_STRING, {"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", NULL}},
	{JSONOID, "any JSON value", EX_JSON, {"{\"key\": \"value\"}", "[1, 2]"}},
	{JSONBOID, "any JSON value", EX_JSON, {"{\"key\": \"value\"}", "[1, 2]"}},
	{INETOID, "an IPv4 or IPv6 address, with an optional netmask", EX_STRING, {"192.168.0.1", "10.0.0.0/8"}},
	{CIDROID, "an IPv4 or IPv6 network", EX_STRING, {"10.0.0.0/8", "2001:db8::/32"}},
	{MACADDROID, "a MAC address", EX_STRING, {"08:00:2b:01:02:03", NULL}},
	{MACADDR8OID, "an EUI-64 MAC address", EX_STRING, {"08:00:2b:01:02:03:04:05", NULL}},
	{BYTEAOID, "bytes as \\x and hexadecimal digits", EX_STRING, {"\\xdeadbeef", NULL}},
	{BITOID, "a string of 0s and 1s", EX_STRING, {"101", NULL}},
	{VARBITOID, "a string of 0s and 1s", EX_STRING, {"101", NULL}},
	{XMLOID, "an XML document or fragment", EX_STRING, {"<a>text</a>", NULL}},
	{POINTOID, "(x,y)", EX_STRING, {"(1.5,2)", NULL}},
	{TSQUERYOID, "words joined by & (and), | (or), ! (not)", EX_STRING, {"fat & rat", NULL}},
	{TSVECTOROID, "words", EX_STRING, {"a fat cat", NULL}},
	{INT4RANGEOID, RANGE_FORM, EX_STRING, {"[1,10)", NULL}},
	{INT8RANGEOID, RANGE_FORM, EX_STRING, {"[1,10)", NULL}},
	{NUMRANGEOID, RANGE_FORM, EX_STRING, {"[1.5,2.5)", NULL}},
	{DATERANGEOID, RANGE_FORM, EX_STRING, {"[2026-01-01,2026-02-01)", NULL}},
	{TSRANGEOID, RANGE_FORM, EX_STRING, {"[2026-01-01 00:00,2026-01-02 00:00)", NULL}},
	{TSTZRANGEOID, RANGE_FORM, EX_STRING, {"[2026-01-01 00:00+00,2026-01-02 00:00+00)", NULL}},
	{INT4MULTIRANGEOID, MULTIRANGE_FORM, EX_STRING, {"{[1,10), [20,30)}", NULL}},
	{INT8MULTIRANGEOID, MULTIRANGE_FORM, EX_STRING, {"{[1,10), [20,30)}", NULL}},
	{NUMMULTIRANGEOID, MULTIRANGE_FORM, EX_STRING, {"{[1.5,2.5)}", NULL}},
	{DATEMULTIRANGEOID, MULTIRANGE_FORM, EX_STRING, {"{[2026-01-01,2026-02-01), [2026-03-01,2026-04-01)}", NULL}},
	{TSMULTIRANGEOID, MULTIRANGE_FORM, EX_STRING, {"{[2026-01-01 00:00,2026-01-02 00:00)}", NULL}},
	{TSTZMULTIRANGEOID, MULTIRANGE_FORM, EX_STRING, {"{[2026-01-01 00:00+00,2026-01-02 00:00+00)}", NULL}},
};

/*
 * What a type's values are and one or two of them, before they are
 * written as JSON or SQL.
 */
typedef struct Examples
{
	const char *what;			/* or NULL */
	ExampleForm form;
	const char *items[2];		/* items[0] NULL: no example known */
} Examples;

static const TypeExample *
builtin_example(Oid typid)
{
	for (int i = 0; i < lengthof(builtin_examples); i++)
		if (builtin_examples[i].typid == typid)
			return &builtin_examples[i];
	return NULL;
}

/*
 * The labels of an enum in their order, at most max of them; *more says
 * whether there are others.  A bounded index scan: an enum may have any
 * number of labels, and the answer lists a few.
 */
List *
nat_enum_labels(Oid enumtypid, int max, bool *more)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	List	   *labels = NIL;

	*more = false;
	ScanKeyInit(&key, Anum_pg_enum_enumtypid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(enumtypid));
	rel = table_open(EnumRelationId, AccessShareLock);
	scan = systable_beginscan(rel, EnumTypIdSortOrderIndexId, true, NULL, 1, &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_enum en = (Form_pg_enum) GETSTRUCT(tuple);

		if (list_length(labels) >= max)
		{
			*more = true;
			break;
		}
		labels = lappend(labels, pstrdup(NameStr(en->enumlabel)));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return labels;
}

/*
 * Append one example, as JSON or as a SQL literal.
 */
static void
append_item(StringInfo buf, const char *item, ExampleForm form, bool sql)
{
	if (form == EX_NUMBER || (form == EX_JSON && !sql))
		appendStringInfoString(buf, item);
	else if (sql)
		appendStringInfoString(buf, quote_literal_cstr(item));
	else
		escape_json(buf, item);
}

/*
 * What numeric(p,s), varchar(n), bit(n) hold, and an example that fits.
 */
static bool
typmod_examples(Oid typid, int32 typmod, Examples *ex)
{
	if (typmod < 0)
		return false;
	if (typid == NUMERICOID && typmod >= VARHDRSZ)
	{
		int			precision = ((typmod - VARHDRSZ) >> 16) & 0xffff;
		int			scale = (typmod - VARHDRSZ) & 0x7ff;
		int			whole = precision - scale;
		char	   *digits = whole > 0 ? pnstrdup("1000", Min(whole, 4)) : "0";

		if (scale > precision)
			return false;		/* a negative scale (15+): left general */
		ex->form = EX_NUMBER;
		ex->what = scale == 0 ?
			psprintf("a whole number of at most %d digits", precision) :
			psprintf("a number with at most %d digits before the decimal point and %d after it",
					 whole, scale);
		ex->items[0] = scale == 0 ? digits :
			psprintf("%s.%s", digits, scale == 1 ? "5" : "50");
		return true;
	}
	if ((typid == VARCHAROID || typid == BPCHAROID) && typmod > VARHDRSZ)
	{
		ex->form = EX_STRING;
		ex->what = psprintf("text of at most %d characters", typmod - VARHDRSZ);
		ex->items[0] = typmod - VARHDRSZ >= 8 ? "any text" : pnstrdup("abcdefg", typmod - VARHDRSZ);
		return true;
	}
	if ((typid == BITOID || typid == VARBITOID) && typmod > 0)
	{
		int			n = Min(typmod, 64);
		char	   *bits = palloc(n + 1);

		for (int i = 0; i < n; i++)
			bits[i] = i % 2 == 0 ? '1' : '0';
		bits[n] = '\0';
		ex->form = EX_STRING;
		ex->what = psprintf(typid == BITOID ? "exactly %d bits, 0s and 1s" :
							"at most %d bits, 0s and 1s", typmod);
		ex->items[0] = typmod <= 64 ? bits : NULL;
		return true;
	}
	return false;
}

/*
 * What the values of a type (not an enum, an array or a domain) are, and
 * examples of them when known.
 */
static void
scalar_examples(Oid typid, int32 typmod, Examples *ex)
{
	const TypeExample *b;

	memset(ex, 0, sizeof(Examples));
	if (typmod_examples(typid, typmod, ex))
		return;
	b = builtin_example(typid);
	if (b != NULL)
	{
		ex->what = b->what;
		ex->form = b->form;
		ex->items[0] = b->examples[0];
		ex->items[1] = b->examples[1];
		return;
	}
	if (type_is_range(typid))
		ex->what = psprintf("a range of %s values written " RANGE_FORM,
							format_type_be(get_range_subtype(typid)));
	else if (type_is_multirange(typid))
		ex->what = psprintf("ranges of type %s in braces, \"{[lower,upper), ...}\"",
							format_type_be(get_multirange_range(typid)));
}

/*
 * "e.g. 18 or -5" (scalars) or "e.g. [18, -5]" (an array of them), or
 * an empty string when no example is known.
 */
static char *
examples_text(const Examples *ex, bool array, bool sql)
{
	StringInfoData buf;

	initStringInfo(&buf);
	if (ex->items[0] == NULL)
		return buf.data;
	appendStringInfoString(&buf, ", e.g. ");
	if (array)
		appendStringInfoString(&buf, sql ? "ARRAY[" : "[");
	for (int i = 0; i < 2 && ex->items[i] != NULL; i++)
	{
		if (i > 0)
			appendStringInfoString(&buf, array ? ", " : " or ");
		append_item(&buf, ex->items[i], ex->form, sql);
	}
	if (array)
		appendStringInfoChar(&buf, ']');
	return buf.data;
}

/*
 * The labels of an enum, listed: "pending", "shipped" (and, past the
 * first ENUM_LABELS_SHOWN, how many more, or "and more").
 */
static char *
labels_text(Oid enumtypid, bool sql)
{
	StringInfoData buf;
	bool		more;
	List	   *labels = nat_enum_labels(enumtypid, ENUM_LABELS_SHOWN, &more);
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, labels)
	{
		if (foreach_current_index(lc) > 0)
			appendStringInfoString(&buf, ", ");
		append_item(&buf, lfirst(lc), EX_STRING, sql);
	}
	if (labels == NIL)
		appendStringInfoString(&buf, "(it has none)");
	else if (more)
		appendStringInfoString(&buf, ", and more");
	return buf.data;
}

/*
 * The element type of a true array (whose input is array_in: a JSON array
 * converts to it element by element, values.c), else InvalidOid.
 * int2vector and oidvector have an element type, but their own input.
 */
static Oid
true_array_element(Oid typid)
{
	Oid			elem = get_element_type(typid);
	Oid			infunc;
	Oid			ioparam;

	if (!OidIsValid(elem))
		return InvalidOid;
	getTypeInputInfo(typid, &infunc, &ioparam);
	return infunc == F_ARRAY_IN ? elem : InvalidOid;
}

/*
 * " (a domain over integer: a whole number ...)": what a value is, when
 * anything is known.
 */
static void
append_what(StringInfo buf, const char *over, const char *what)
{
	if (over == NULL && what == NULL)
		return;
	appendStringInfo(buf, " (%s%s%s)", over ? over : "",
					 over && what ? ": " : "", what ? what : "");
}

/*
 * One sentence saying how to write a value of type typid (typmod its
 * modifier, -1 for none), with one or two examples: "Pass a value of type
 * date (year-month-day), e.g. "2026-11-27"."  An enum lists its labels.
 * sql: the value is written in SQL text, so examples are SQL literals;
 * else they are JSON values.
 */
char *
nat_value_examples(Oid typid, int32 typmod, bool sql)
{
	int32		basetypmod = typmod;
	Oid			base = getBaseTypeAndTypmod(typid, &basetypmod);
	Oid			elem = true_array_element(base);
	char	   *over = base != typid ?
		psprintf("a domain over %s", format_type_with_typemod(base, basetypmod)) : NULL;
	StringInfoData buf;
	Examples	ex;

	initStringInfo(&buf);
	if (OidIsValid(elem))
	{
		/* an array's element may be a domain too: its base's examples */
		Oid			elembase = getBaseType(elem);

		appendStringInfo(&buf, "Pass %s of ", sql ? "an array" : "a JSON array");
		if (type_is_enum(elembase))
		{
			appendStringInfo(&buf, "labels of type %s", format_type_be(elem));
			append_what(&buf, over, NULL);
			appendStringInfo(&buf, ": %s.", labels_text(elembase, sql));
			return buf.data;
		}
		scalar_examples(elembase, basetypmod, &ex);
		appendStringInfo(&buf, "%s values", format_type_be(elem));
		append_what(&buf, over, ex.what);
		appendStringInfo(&buf, "%s.", examples_text(&ex, true, sql));
		return buf.data;
	}
	appendStringInfoString(&buf, type_is_enum(base) ? "Pass one of the labels of type " :
						   "Pass a value of type ");
	appendStringInfoString(&buf, format_type_with_typemod(typid, typmod));
	if (type_is_enum(base))
	{
		append_what(&buf, over, NULL);
		appendStringInfo(&buf, ": %s.", labels_text(base, sql));
		return buf.data;
	}
	scalar_examples(base, basetypmod, &ex);
	append_what(&buf, over, ex.what);
	if (ex.what == NULL && ex.items[0] == NULL)
		appendStringInfoString(&buf, ", in the text form PostgreSQL's input for it accepts");
	appendStringInfo(&buf, "%s.", examples_text(&ex, false, sql));
	return buf.data;
}

/*
 * One valid value of type typid (typmod) as a write tool's JSON takes it
 * (sql false: 18, "any text", ["any text"]) or as a SQL literal (sql true:
 * 18, 'any text', ARRAY['any text']), for advice naming one value (a NOT
 * NULL column's); an enum gives its first label.  NULL when none is known.
 */
char *
nat_type_example(Oid typid, int32 typmod, bool sql)
{
	int32		basetypmod = typmod;
	Oid			base = getBaseTypeAndTypmod(typid, &basetypmod);
	Oid			elem = true_array_element(base);
	StringInfoData buf;
	Examples	ex;

	if (OidIsValid(elem))
	{
		char	   *value = nat_type_example(elem, -1, sql);

		return value ? psprintf(sql ? "ARRAY[%s]" : "[%s]", value) : NULL;
	}
	initStringInfo(&buf);
	if (type_is_enum(base))
	{
		bool		more;
		List	   *labels = nat_enum_labels(base, 1, &more);

		if (labels == NIL)
			return NULL;
		append_item(&buf, linitial(labels), EX_STRING, sql);
		return buf.data;
	}
	scalar_examples(base, basetypmod, &ex);
	if (ex.items[0] == NULL)
		return NULL;
	append_item(&buf, ex.items[0], ex.form, sql);
	return buf.data;
}
