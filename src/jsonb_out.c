/*-------------------------------------------------------------------------
 *
 * jsonb_out.c
 *		  Building jsonb directly with nat_jsonb_push().
 *
 * Answers are built as jsonb values in memory, never as text that is then
 * parsed.  Row values of the common types (integers, numeric, boolean,
 * text) are pushed as scalars; every other type goes through the SQL
 * function to_jsonb(), called through an FmgrInfo whose expression carries
 * the argument type, so it renders exactly as PostgreSQL renders it
 * (ISO timestamps, arrays as JSON arrays, NaN and Infinity as strings).
 *
 * nat_jsonb_push() keeps pointers until the value is serialized, so every
 * string, Numeric and Jsonb pushed here is a private copy allocated in the
 * current memory context, which the caller keeps alive until then.
 *
 * IDENTIFICATION
 *		  src/jsonb_out.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "neon_ai_tools.h"
#include "nodes/makefuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

/* how a column's values are converted */
enum
{
	OUT_INT2,
	OUT_INT4,
	OUT_INT8,
	OUT_NUMERIC,
	OUT_BOOL,
	OUT_TEXT,
	OUT_JSONB,
	OUT_DATETIME,				/* date, timestamp, timestamptz */
	OUT_OTHER					/* to_jsonb() */
};

/*
 * Every jsonb the extension builds goes through here: one token pushed,
 * and the finished value returned when the outermost container closes
 * (NULL before that).  compat.h bridges pushJsonbValue()'s signature.
 */
JsonbValue *
nat_jsonb_push(NatJsonb *state, JsonbIteratorToken tok, JsonbValue *v)
{
	return nat_jsonb_push_compat(state, tok, v);
}

/*
 * WJB_KEY
 */
void
nat_push_key(NatJsonb *state, const char *key)
{
	JsonbValue	k;

	k.type = jbvString;
	k.val.string.val = (char *) key;
	k.val.string.len = strlen(key);
	nat_jsonb_push(state, WJB_KEY, &k);
}

/*
 * Push a value as an object member (key != NULL) or an array element.
 */
static void
push_value(NatJsonb *state, const char *key, JsonbValue *v)
{
	if (key)
	{
		nat_push_key(state, key);
		nat_jsonb_push(state, WJB_VALUE, v);
	}
	else
		nat_jsonb_push(state, WJB_ELEM, v);
}

void
nat_push_string(NatJsonb *state, const char *key, const char *value)
{
	JsonbValue	v;

	v.type = jbvString;
	v.val.string.val = (char *) value;
	v.val.string.len = strlen(value);
	push_value(state, key, &v);
}

void
nat_push_bool(NatJsonb *state, const char *key, bool value)
{
	JsonbValue	v;

	v.type = jbvBool;
	v.val.boolean = value;
	push_value(state, key, &v);
}

void
nat_push_int(NatJsonb *state, const char *key, int64 value)
{
	JsonbValue	v;

	v.type = jbvNumeric;
	v.val.numeric = int64_to_numeric(value);
	push_value(state, key, &v);
}

/*
 * An existing jsonb value, embedded as it is.
 */
void
nat_push_jsonb(NatJsonb *state, const char *key, Jsonb *value)
{
	JsonbValue	v;

	v.type = jbvBinary;
	v.val.binary.data = &value->root;
	v.val.binary.len = VARSIZE(value) - VARHDRSZ;
	push_value(state, key, &v);
}

/*
 * A JSON array of strings.
 */
void
nat_push_string_array(NatJsonb *state, const char *key, List *values)
{
	ListCell   *lc;

	nat_push_key(state, key);
	nat_jsonb_push(state, WJB_BEGIN_ARRAY, NULL);
	foreach(lc, values)
		nat_push_string(state, NULL, (const char *) lfirst(lc));
	nat_jsonb_push(state, WJB_END_ARRAY, NULL);
}

/*
 * Describe the columns of a result for conversion, in cxt.  Keys are made
 * unique ("id", "id_2", ...) so that duplicate column names are never
 * silently merged in the row object.
 */
ColumnOutput *
nat_prepare_columns(TupleDesc tupdesc, MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	ColumnOutput *cols = palloc0(sizeof(ColumnOutput) * Max(tupdesc->natts, 1));
	int			i;

	for (i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		ColumnOutput *col = &cols[i];
		char	   *key = pstrdup(NameStr(att->attname));
		int			suffix = 1;
		int			j;

		/* unique key: append _2, _3, ... while an earlier key has it */
		for (j = 0; j < i; j++)
		{
			if (strcmp(cols[j].key, key) == 0)
			{
				key = psprintf("%s_%d", NameStr(att->attname), ++suffix);
				j = -1;			/* start over */
			}
		}
		col->key = key;
		col->name = pstrdup(NameStr(att->attname));
		col->typid = att->atttypid;
		col->type_name = format_type_with_typemod(att->atttypid, att->atttypmod);

		switch (getBaseType(att->atttypid))
		{
			case INT2OID:
				col->category = OUT_INT2;
				break;
			case INT4OID:
				col->category = OUT_INT4;
				break;
			case INT8OID:
				col->category = OUT_INT8;
				break;
			case NUMERICOID:
				col->category = OUT_NUMERIC;
				break;
			case BOOLOID:
				col->category = OUT_BOOL;
				break;
			case TEXTOID:
			case VARCHAROID:
				col->category = OUT_TEXT;
				break;
			case DATEOID:
			case TIMESTAMPOID:
			case TIMESTAMPTZOID:
				col->category = OUT_DATETIME;
				col->typid = getBaseType(att->atttypid);
				break;
			case JSONBOID:
				col->category = OUT_JSONB;
				break;
			default:
				col->category = OUT_OTHER;
				fmgr_info_cxt(F_TO_JSONB, &col->to_jsonb, cxt);
				col->to_jsonb.fn_expr = (Node *)
					makeFuncExpr(F_TO_JSONB, JSONBOID,
								 list_make1(makeNullConst(att->atttypid, -1, InvalidOid)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
				break;
		}
	}
	MemoryContextSwitchTo(old);
	return cols;
}

/*
 * Convert one column value into *out, ready to be pushed.  Returns the size
 * it adds to the answer rendered as JSON text (an estimate for numbers and
 * nested values), for the byte budget.
 */
Size
nat_datum_to_jsonb_value(ColumnOutput *col, Datum value, bool isnull,
						 JsonbValue *out)
{
	JsonbValue	v;
	Size		size = strlen(col->key) + 4;	/* "key": and a comma */

	if (isnull)
	{
		v.type = jbvNull;
		size += 4;
	}
	else
	{
		switch (col->category)
		{
			case OUT_INT2:
			case OUT_INT4:
			case OUT_INT8:
				v.type = jbvNumeric;
				v.val.numeric = int64_to_numeric(col->category == OUT_INT2 ? DatumGetInt16(value) :
												 col->category == OUT_INT4 ? DatumGetInt32(value) :
												 DatumGetInt64(value));
				size += 20;
				break;
			case OUT_NUMERIC:
				{
					Numeric		n = DatumGetNumericCopy(value);

					if (numeric_is_nan(n) || numeric_is_inf(n))
					{
						v.type = jbvString;
						v.val.string.val = numeric_normalize(n);
						v.val.string.len = strlen(v.val.string.val);
					}
					else
					{
						v.type = jbvNumeric;
						v.val.numeric = n;
					}
					size += VARSIZE(n) * 2;
					break;
				}
			case OUT_BOOL:
				v.type = jbvBool;
				v.val.boolean = DatumGetBool(value);
				size += 5;
				break;
			case OUT_TEXT:
				v.type = jbvString;
				v.val.string.val = TextDatumGetCString(value);
				v.val.string.len = strlen(v.val.string.val);
				size += v.val.string.len + 2;
				break;
			case OUT_DATETIME:
				/* ISO 8601, exactly as to_jsonb() renders it */
				v.type = jbvString;
				v.val.string.val = JsonEncodeDateTime(NULL, value, col->typid, NULL);
				v.val.string.len = strlen(v.val.string.val);
				size += v.val.string.len + 2;
				break;
			case OUT_JSONB:
				{
					Jsonb	   *jb = DatumGetJsonbPCopy(value);

					v.type = jbvBinary;
					v.val.binary.data = &jb->root;
					v.val.binary.len = VARSIZE(jb) - VARHDRSZ;
					size += VARSIZE(jb);
					break;
				}
			default:
				{
					Jsonb	   *jb = DatumGetJsonbP(FunctionCall1(&col->to_jsonb, value));

					v.type = jbvBinary;
					v.val.binary.data = &jb->root;
					v.val.binary.len = VARSIZE(jb) - VARHDRSZ;
					size += VARSIZE(jb);
					break;
				}
		}
	}
	*out = v;
	return size;
}
