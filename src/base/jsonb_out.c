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
 *		  src/answer/jsonb_out.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "base/base.h"
#include "nodes/makefuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/array.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
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

/* a container unpacked into an answer: its parse state and pairs array */
#define CONTAINER_MEMORY 600

/* objects with more keys are left to core's sort as they are */
#define PRESORT_MAX_PAIRS 64

/* jsonb's order of object keys: shorter first, then bytewise */
static inline int
key_order(const JsonbPair *a, const JsonbPair *b)
{
	if (a->key.val.string.len != b->key.val.string.len)
		return a->key.val.string.len > b->key.val.string.len ? 1 : -1;
	return memcmp(a->key.val.string.val, b->key.val.string.val,
				  a->key.val.string.len);
}

/*
 * Put an object's pairs in jsonb's key order before core closes it.  Core
 * sorts every object it closes with qsort_arg(), moving whole JsonbPairs
 * through a comparator called by pointer; given pairs already in order it
 * only checks them.  An answer's keys arrive in the order a call produces
 * them, and sorting them cost a tenth of a small call: here the order is
 * found with pointers and inline comparisons, and each pair moved once.
 * An object with a key twice is left to core, which keeps the last value.
 */
static void
presort_object(JsonbValue *object)
{
	int			n = object->val.object.nPairs;
	JsonbPair  *pairs = object->val.object.pairs;
	JsonbPair  *order[PRESORT_MAX_PAIRS];
	JsonbPair  *copy;
	bool		moved = false;
	int			i;

	if (n < 3 || n > PRESORT_MAX_PAIRS)
		return;
	for (i = 0; i < n; i++)
	{
		JsonbPair  *p = &pairs[i];
		int			j = i;
		int			c = 1;

		while (j > 0 && (c = key_order(order[j - 1], p)) > 0)
		{
			order[j] = order[j - 1];
			j--;
		}
		if (c == 0 && j > 0)
			return;				/* a key twice */
		moved |= (j != i);
		order[j] = p;
	}
	if (!moved)
		return;
	copy = palloc(n * sizeof(JsonbPair));
	for (i = 0; i < n; i++)
		copy[i] = *order[i];
	memcpy(pairs, copy, n * sizeof(JsonbPair));
	pfree(copy);
}

/*
 * Every jsonb the extension builds goes through here: one token pushed,
 * and the finished value returned when the outermost container closes
 * (NULL before that).  compat.h bridges pushJsonbValue()'s signature.
 */
JsonbValue *
nat_jsonb_push(NatJsonb *state, JsonbIteratorToken tok, JsonbValue *v)
{
	if (tok == WJB_END_OBJECT)
	{
		JsonbValue *object = nat_jsonb_open_container(state);

		if (object != NULL && object->type == jbvObject)
			presort_object(object);
	}
	return nat_jsonb_push_compat(state, tok, v);
}

/*
 * WJB_KEY
 */
void
nat_push_key(NatJsonb *state, const char *key)
{
	nat_push_key_len(state, key, strlen(key));
}

/*
 * WJB_KEY, of len bytes (a key nat_jsonb_next_key gave, not NUL-terminated)
 */
void
nat_push_key_len(NatJsonb *state, const char *key, int len)
{
	JsonbValue	k;

	k.type = jbvString;
	k.val.string.val = (char *) key;
	k.val.string.len = len;
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
 * The size of a string rendered as a JSON string: its bytes, the quotes,
 * and what escaping adds (\" \\ \b \f \n \r \t take two bytes, any other
 * control character six: \u0001).
 */
Size
nat_json_string_size(const char *s, Size len)
{
	Size		size = len + 2;
	Size		i;

	for (i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (c == '"' || c == '\\' || c == '\b' || c == '\f' ||
			c == '\n' || c == '\r' || c == '\t')
			size += 1;
		else if (c < ' ')
			size += 5;
	}
	return size;
}

/*
 * The digits (and sign) of an integer, as the answer writes it.
 */
static Size
int64_rendered_size(int64 n)
{
	uint64		magnitude = n < 0 ? -(uint64) n : (uint64) n;
	Size		size = n < 0 ? 2 : 1;

	while (magnitude >= 10)
	{
		magnitude /= 10;
		size++;
	}
	return size;
}

/*
 * The size of a numeric rendered as JSON.  Its stored size says little:
 * 1e1000 takes a few bytes and renders as 1001 digits.
 */
static Size
numeric_rendered_size(Numeric n)
{
	char	   *str = DatumGetCString(DirectFunctionCall1(numeric_out,
														  NumericGetDatum(n)));
	Size		size = strlen(str);

	pfree(str);
	return size;
}

static Size
scalar_rendered_size(JsonbValue *v)
{
	switch (v->type)
	{
		case jbvString:
			return nat_json_string_size(v->val.string.val, v->val.string.len);
		case jbvNumeric:
			return numeric_rendered_size(v->val.numeric);
		case jbvBool:
			return 5;
		default:
			return 4;
	}
}

/*
 * The size of a jsonb value rendered as text (jsonb_out's spacing, an
 * upper bound), counted without rendering it: a walk over its tokens that
 * stops as soon as the count passes budget.  *memory is an estimate of
 * what the value weighs once pushed into an answer, where it is unpacked
 * into a JsonbValue per token (and a parse state and a pairs array, in a
 * 512-byte chunk, per container).
 */
static Size
jsonb_rendered_size(JsonbContainer *container, Size budget, Size *memory)
{
	JsonbIterator *it = JsonbIteratorInit(container);
	JsonbIteratorToken tok;
	JsonbValue	v;
	Size		size = 0;

	*memory = 0;
	while (size <= budget &&
		   (tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		*memory += sizeof(JsonbPair);
		switch (tok)
		{
			case WJB_BEGIN_ARRAY:
				if (!v.val.array.rawScalar)
					size += 2;
				*memory += CONTAINER_MEMORY;
				break;
			case WJB_BEGIN_OBJECT:
				size += 2;
				*memory += CONTAINER_MEMORY;
				break;
			case WJB_KEY:
				size += scalar_rendered_size(&v) + 4;	/* ": " and ", " */
				break;
			case WJB_ELEM:
				size += 2;		/* ", " */
				pg_fallthrough;
			case WJB_VALUE:
				size += scalar_rendered_size(&v);
				break;
			default:
				break;
		}
		CHECK_FOR_INTERRUPTS();
	}
	return size;
}

/*
 * Does an array of numerics fit in budget bytes, rendered?  Each element
 * is measured, with a check for interrupts, until the budget is passed:
 * to_jsonb() would format every element (and parse it back) without one,
 * and a numeric renders up to some 13,000 times its stored size
 * (1e131071 is a few bytes).
 */
static bool
numeric_array_fits(Datum value, Size budget)
{
	ArrayIterator it = array_create_iterator(DatumGetArrayTypeP(value), 0, NULL);
	Datum		elem;
	bool		isnull;
	Size		size = 2;

	while (size <= budget && array_iterate(it, &elem, &isnull))
	{
		size += 2 + (isnull ? 4 : numeric_rendered_size(DatumGetNumeric(elem)));
		CHECK_FOR_INTERRUPTS();
	}
	array_free_iterator(it);
	return size <= budget;
}

/*
 * A json value as jsonb.  jsonb cannot hold the escape \u0000 (to_jsonb()
 * refuses it), so each one is kept as text: its backslash escaped, the
 * string then reads "\\u0000", as to_jsonb() renders a text holding those
 * six characters.  Other escapes, and the structure, are kept.
 */
static Datum
json_to_jsonb(ColumnOutput *col, Datum value)
{
	char	   *json = TextDatumGetCString(value);
	StringInfoData buf;
	char	   *p;

	if (strstr(json, "\\u0000") == NULL)
		return FunctionCall1(&col->to_jsonb, value);
	initStringInfo(&buf);
	for (p = json; *p; p++)
	{
		if (*p == '\\' && strncmp(p + 1, "u0000", 5) == 0)
			appendStringInfoChar(&buf, '\\');	/* and the one below */
		else if (*p == '\\' && p[1] != '\0')
			appendStringInfoChar(&buf, *p++);
		appendStringInfoChar(&buf, *p);
	}
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
}

/*
 * Is key already used by one of the first n columns?
 */
static bool
key_taken(ColumnOutput *cols, int n, HTAB *keys, const char *key)
{
	int			j;

	if (keys)
		return hash_search(keys, key, HASH_FIND, NULL) != NULL;
	for (j = 0; j < n; j++)
		if (strcmp(cols[j].key, key) == 0)
			return true;
	return false;
}

/* past this many columns, keys are de-duplicated through a hash table */
#define KEY_HASH_THRESHOLD 16

/* a key: a column name (at most NAMEDATALEN - 1 bytes) and a suffix */
#define KEY_SIZE (NAMEDATALEN + 16)

typedef struct KeyEntry
{
	char		key[KEY_SIZE];
	int			next_suffix;	/* for keys that are column names */
} KeyEntry;

/*
 * A key for the column called name that no earlier column has: the name
 * itself, or name_2, name_3, ...  With many columns, a hash table of the
 * keys taken, and per name the next suffix to try, keeps this linear in
 * the number of columns (1664 columns of one name cost 1664 probes, not
 * 1664 squared).
 */
static char *
unique_key(ColumnOutput *cols, int n, HTAB *keys, const char *name)
{
	KeyEntry   *base = NULL;
	char	   *key = pstrdup(name);
	int			suffix = 1;

	if (keys)
	{
		base = hash_search(keys, name, HASH_FIND, NULL);
		if (base)
			suffix = base->next_suffix - 1;
	}
	while (key_taken(cols, n, keys, key))
	{
		key = psprintf("%s_%d", name, ++suffix);
		CHECK_FOR_INTERRUPTS();
	}
	if (keys)
	{
		KeyEntry   *entry = hash_search(keys, key, HASH_ENTER, NULL);

		entry->next_suffix = 2;
		if (base == NULL)
			base = hash_search(keys, name, HASH_FIND, NULL);
		base->next_suffix = suffix + 1;
	}
	return key;
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
	HTAB	   *keys = NULL;
	MemoryContext scratch = NULL;
	Oid			elemtype;
	Oid			basetype;
	int			i;

	if (tupdesc->natts > KEY_HASH_THRESHOLD)
	{
		HASHCTL		ctl;

		ctl.keysize = KEY_SIZE;
		ctl.entrysize = sizeof(KeyEntry);
		ctl.hcxt = cxt;
		keys = hash_create("neon_ai_tools column keys", tupdesc->natts, &ctl,
						   HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	}

	for (i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		ColumnOutput *col = &cols[i];

		col->key = unique_key(cols, i, keys, NameStr(att->attname));
		/* "key": and the ", " after the value */
		col->key_size = nat_json_string_size(col->key, strlen(col->key)) + 4;
		col->name = pstrdup(NameStr(att->attname));
		col->typid = att->atttypid;
		col->typlen = att->attlen;
		col->type_name = nat_type_name(att->atttypid, att->atttypmod, &basetype);

		switch (basetype)
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
				col->typid = basetype;
				break;
			case JSONBOID:
				col->category = OUT_JSONB;
				break;
			default:
				col->category = OUT_OTHER;
				elemtype = get_element_type(basetype);
				col->numeric_array = OidIsValid(elemtype) && getBaseType(elemtype) == NUMERICOID;
				col->json = basetype == JSONOID;
				if (scratch == NULL)
					scratch = AllocSetContextCreate(cxt, "neon_ai_tools conversion",
													ALLOCSET_DEFAULT_SIZES);
				col->scratch = scratch;
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
 * Does the column hold json or jsonb (a domain over them too), whose
 * values are JSON text in the text formats, strings quoted?
 */
bool
nat_column_is_json(const ColumnOutput *col)
{
	return col->category == OUT_JSONB || col->json;
}

/*
 * Convert one column value into *out, ready to be pushed, if it fits in
 * budget bytes of the answer rendered as JSON text; *size is what it adds
 * (its key included).  A value that does not fit is never converted
 * whole: a variable-length value whose stored (uncompressed) size is
 * already past the budget is left as it is, without even being
 * detoasted, and false is returned.  Sizes count the text as rendered:
 * escapes, and numbers as their digits.  *memory is an estimate of what
 * the converted value holds in memory once pushed into the answer.
 */
bool
nat_datum_to_jsonb_value(ColumnOutput *col, Datum value, bool isnull,
						 Size budget, JsonbValue *out, Size *size,
						 Size *memory)
{
	JsonbValue	v;

	*size = col->key_size;
	*memory = sizeof(JsonbPair);
	if (isnull)
	{
		v.type = jbvNull;
		*size += 4;
		*out = v;
		return *size <= budget;
	}

	if (col->typlen == -1 &&
		*size + toast_raw_datum_size(value) - VARHDRSZ > budget)
	{
		*size += toast_raw_datum_size(value) - VARHDRSZ;
		return false;
	}

	switch (col->category)
	{
		case OUT_INT2:
		case OUT_INT4:
		case OUT_INT8:
			{
				int64		n = col->category == OUT_INT2 ? DatumGetInt16(value) :
					col->category == OUT_INT4 ? DatumGetInt32(value) :
					DatumGetInt64(value);

				v.type = jbvNumeric;
				v.val.numeric = int64_to_numeric(n);
				*size += int64_rendered_size(n);
				*memory += VARSIZE(v.val.numeric) + NAT_CHUNK_OVERHEAD;
				break;
			}
		case OUT_NUMERIC:
			{
				Numeric		n = DatumGetNumericCopy(value);

				if (numeric_is_nan(n) || numeric_is_inf(n))
				{
					v.type = jbvString;
					v.val.string.val = numeric_normalize(n);
					v.val.string.len = strlen(v.val.string.val);
					*size += v.val.string.len + 2;
				}
				else
				{
					v.type = jbvNumeric;
					v.val.numeric = n;
					*size += numeric_rendered_size(n);
				}
				*memory += VARSIZE(n) + NAT_CHUNK_OVERHEAD;
				break;
			}
		case OUT_BOOL:
			v.type = jbvBool;
			v.val.boolean = DatumGetBool(value);
			*size += 5;
			break;
		case OUT_TEXT:
			v.type = jbvString;
			v.val.string.val = TextDatumGetCString(value);
			v.val.string.len = strlen(v.val.string.val);
			*size += nat_json_string_size(v.val.string.val, v.val.string.len);
			*memory += v.val.string.len + 1 + NAT_CHUNK_OVERHEAD;
			break;
		case OUT_DATETIME:
			/* ISO 8601, exactly as to_jsonb() renders it */
			v.type = jbvString;
			v.val.string.val = JsonEncodeDateTime(NULL, value, col->typid, NULL);
			v.val.string.len = strlen(v.val.string.val);
			*size += v.val.string.len + 2;
			*memory += v.val.string.len + 1 + NAT_CHUNK_OVERHEAD;
			break;
		case OUT_JSONB:
		default:
			{
				Jsonb	   *jb;

				if (col->category == OUT_JSONB)
					jb = DatumGetJsonbPCopy(value);
				else if (col->numeric_array &&
						 !numeric_array_fits(value, budget - Min(*size, budget)))
				{
					*size = budget + 1;
					return false;
				}
				else
				{
					/* to_jsonb()'s workings go; only its result is kept */
					MemoryContext old = MemoryContextSwitchTo(col->scratch);
					Jsonb	   *result = DatumGetJsonbP(col->json ?
														json_to_jsonb(col, value) :
														FunctionCall1(&col->to_jsonb, value));

					MemoryContextSwitchTo(old);
					jb = palloc(VARSIZE(result));
					memcpy(jb, result, VARSIZE(result));
					MemoryContextReset(col->scratch);
				}

				v.type = jbvBinary;
				v.val.binary.data = &jb->root;
				v.val.binary.len = VARSIZE(jb) - VARHDRSZ;

				/*
				 * Pushed, a container is unpacked into one JsonbValue per
				 * token, its strings and numbers still in jb.
				 */
				if (*size <= budget)
				{
					Size		unpacked;

					*size += jsonb_rendered_size(&jb->root, budget - *size, &unpacked);
					*memory += VARSIZE(jb) + unpacked;
				}
				break;
			}
	}
	*out = v;
	return *size <= budget;
}
