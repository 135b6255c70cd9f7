/*-------------------------------------------------------------------------
 *
 * values.c
 *		  Bound parameters, and agent-supplied JSON values as Datums.
 *
 * Every value an agent supplies reaches PostgreSQL as a bound parameter of
 * the column's (or operator's) type, converted by that type's own input
 * function: a number or a string "5" becomes an integer through int4in, a
 * JSON array becomes a PostgreSQL array element by element, an object
 * becomes json or jsonb.  Nothing is pasted into SQL text.
 *
 * IDENTIFICATION
 *		  src/sql/values.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "plan/plan.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

/*
 * Where the value being converted came from, so that a conversion error
 * can name the argument, the column and the type.  The caller's strings
 * are only pointed to while the conversion runs (this runs once per value);
 * nat_conversion_capture() copies them when an error interrupts it, before
 * the subtransaction's rollback can free them.
 */
static bool conversion_active = false;
static const char *conversion_path;
static int	conversion_index;
static const char *conversion_key;
static const char *conversion_column;
static Oid	conversion_type;
static int32 conversion_typmod;

/*
 * The scalar whose input function is running (an element, for an array
 * value), its type and its index in the array (-1: not an element).  The
 * JsonbValue is copied: callers keep theirs on the stack, which is gone
 * by the time an error is caught; what it points to (the arguments'
 * jsonb) lives until the subtransaction's rollback.
 */
static JsonbValue conversion_scalar;
static bool conversion_has_scalar;
static Oid	conversion_scalar_type;
static int32 conversion_scalar_typmod;
static int	conversion_element;

/* what nat_conversion_capture() kept, in the call's memory */
static bool conversion_captured = false;
static ConversionFailure captured;

/* a value longer than this (in bytes) is not kept: no near miss for it */
#define GIVEN_MAX_BYTES 256

/*
 * Input functions looked up during the current call, by type.  A 100-row
 * insert converts 100 values of each column, and looking the function up
 * each time (pg_type, then pg_proc) cost as much as calling it.  The table
 * and what the functions keep in fn_extra (domain_in's constraint state,
 * array_in's element I/O) live in the call's memory, so they go with the
 * call: none outlives a catalog change between calls, and the memory is
 * one entry per distinct type the call converts, which its arguments
 * bound.  Outside a call (ai_tool_define checking a default) nothing is
 * kept.  Entries never move (dynahash), so a pointer to one stays valid
 * while further types are looked up.
 */
typedef struct InputFunction
{
	Oid			typid;			/* the key */
	Oid			ioparam;
	FmgrInfo	flinfo;
	void	   *domain_extra;	/* domain_check()'s state, for a domain */
} InputFunction;

static MemoryContext input_function_cxt = NULL; /* the call's, during one */
static HTAB *input_functions = NULL;

/*
 * The input function of typid: the call's entry, or without a call the
 * caller's scratch entry, filled in.
 */
static InputFunction *
input_function(Oid typid, InputFunction *scratch)
{
	InputFunction *entry;
	Oid			infunc;
	bool		found;

	if (input_function_cxt != NULL && input_functions != NULL)
	{
		entry = hash_search(input_functions, &typid, HASH_FIND, NULL);
		if (entry != NULL)
			return entry;
	}
	scratch->typid = typid;
	scratch->domain_extra = NULL;
	getTypeInputInfo(typid, &infunc, &scratch->ioparam);
	if (input_function_cxt == NULL)
	{
		fmgr_info(infunc, &scratch->flinfo);
		return scratch;
	}
	fmgr_info_cxt(infunc, &scratch->flinfo, input_function_cxt);
	if (input_functions == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(InputFunction);
		ctl.hcxt = input_function_cxt;
		input_functions = hash_create("neon_ai_tools input functions", 16, &ctl,
									  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	/* entered only once complete: a failed lookup leaves no half entry */
	entry = hash_search(input_functions, &typid, HASH_ENTER, &found);
	*entry = *scratch;
	return entry;
}

/*
 * Convert an argument value for a column (or operator input) of type
 * typid, remembering where it came from until the conversion succeeds.
 * The value's JSON path is 'path', followed by [index] when index >= 0 and
 * by .key when key is given (joined only if the conversion fails).
 */
Datum
nat_convert_member(JsonbValue *value, Oid typid, int32 typmod,
				   const char *path, int index, const char *key,
				   const char *column, bool *isnull)
{
	Datum		result;

	conversion_path = path;
	conversion_index = index;
	conversion_key = key;
	conversion_column = column;
	conversion_type = typid;
	conversion_typmod = typmod;
	conversion_has_scalar = false;
	conversion_element = -1;
	conversion_active = true;
	result = nat_json_to_datum(value, typid, typmod, isnull);
	conversion_active = false;
	return result;
}

Datum
nat_convert_value(JsonbValue *value, Oid typid, int32 typmod,
				  const char *path, const char *column, bool *isnull)
{
	return nat_convert_member(value, typid, typmod, path, -1, NULL, column,
							  isnull);
}

/*
 * The text of the scalar that was being converted, if it is short enough
 * to be worth a near miss (an answer quotes nothing longer).
 */
static char *
given_text(JsonbValue *value)
{
	if (value->type == jbvString)
		return value->val.string.len <= GIVEN_MAX_BYTES ?
			pnstrdup(value->val.string.val, value->val.string.len) : NULL;
	if (value->type == jbvNumeric || value->type == jbvBool)
	{
		char	   *str = nat_json_value_text(value);

		return strlen(str) <= GIVEN_MAX_BYTES ? str : NULL;
	}
	return NULL;
}

/*
 * An error is being caught: if it interrupted a conversion, copy where
 * that was into CurrentMemoryContext, which must outlive the rollback.
 */
void
nat_conversion_capture(void)
{
	StringInfoData path;

	if (!conversion_active)
		return;
	conversion_active = false;
	initStringInfo(&path);
	appendStringInfoString(&path, conversion_path ? conversion_path : "");
	if (conversion_index >= 0)
		appendStringInfo(&path, "[%d]", conversion_index);
	if (conversion_key && conversion_key[0])
		appendStringInfo(&path, ".%s", conversion_key);
	memset(&captured, 0, sizeof(ConversionFailure));
	captured.path = path.data;
	captured.column = conversion_column && conversion_column[0] ?
		pstrdup(conversion_column) : NULL;
	captured.typid = conversion_type;
	captured.typmod = conversion_typmod;
	captured.given = conversion_has_scalar ? given_text(&conversion_scalar) : NULL;
	captured.given_type = conversion_has_scalar ? conversion_scalar_type : InvalidOid;
	captured.given_typmod = conversion_scalar_typmod;
	captured.element = conversion_element;
	conversion_captured = true;
}

/*
 * If an error interrupted a conversion, say where and what (strings in
 * the memory of nat_conversion_capture()) and forget it.
 */
bool
nat_conversion_failed(ConversionFailure *failure)
{
	if (!conversion_captured)
		return false;
	conversion_captured = false;
	*failure = captured;
	return true;
}

/*
 * A call starts: nothing converted yet; input functions are kept in cxt,
 * the call's memory, until nat_conversion_end().
 */
void
nat_conversion_begin(MemoryContext cxt)
{
	conversion_active = false;
	conversion_captured = false;
	input_function_cxt = cxt;
	input_functions = NULL;
}

/*
 * The call ends (its memory goes next).
 */
void
nat_conversion_end(void)
{
	input_function_cxt = NULL;
	input_functions = NULL;
}

/*
 * Start an empty parameter list.
 */
void
nat_params_init(QueryParams *params)
{
	params->count = 0;
	params->capacity = 8;
	params->types = palloc(sizeof(Oid) * params->capacity);
	params->values = palloc(sizeof(Datum) * params->capacity);
	params->nulls = palloc(sizeof(char) * params->capacity);
}

/*
 * Add a parameter; returns its number n, for "$n".
 */
int
nat_params_add(QueryParams *params, Oid type, Datum value, bool isnull)
{
	if (params->count == params->capacity)
	{
		params->capacity *= 2;
		params->types = repalloc(params->types, sizeof(Oid) * params->capacity);
		params->values = repalloc(params->values, sizeof(Datum) * params->capacity);
		params->nulls = repalloc(params->nulls, sizeof(char) * params->capacity);
	}
	params->types[params->count] = type;
	params->values[params->count] = isnull ? (Datum) 0 : value;
	params->nulls[params->count] = isnull ? 'n' : ' ';
	return ++params->count;
}

/*
 * Convert an array value to a PostgreSQL array of typid, element by
 * element, so nested JSON arrays become multi-dimensional arrays only
 * when the input function of the array type accepts them.
 */
static Datum
json_array_to_datum(JsonbValue *value, Oid typid, int32 typmod)
{
	Oid			elemtype = get_element_type(typid);
	JsonbIterator *it;
	JsonbValue	elem;
	JsonbIteratorToken tok;
	List	   *datums = NIL;
	List	   *nullflags = NIL;
	int			n,
				i;
	Datum	   *elems;
	bool	   *nulls;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	int			dims[1];
	int			lbs[1] = {1};
	ListCell   *lc,
			   *lc2;

	Assert(value->type == jbvBinary);
	it = JsonbIteratorInit(value->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &elem, true)) != WJB_DONE)
	{
		bool		isnull;
		Datum		d;

		CHECK_FOR_INTERRUPTS();
		if (tok != WJB_ELEM)
			continue;
		/* the array's typmod applies to each element, as in array_in */
		conversion_element = list_length(datums);
		d = nat_json_to_datum(&elem, elemtype, typmod, &isnull);
		conversion_element = -1;
		datums = lappend(datums, (void *) DatumGetPointer(d));
		nullflags = lappend_int(nullflags, isnull);
	}

	n = list_length(datums);
	elems = palloc(sizeof(Datum) * Max(n, 1));
	nulls = palloc(sizeof(bool) * Max(n, 1));
	i = 0;
	forboth(lc, datums, lc2, nullflags)
	{
		elems[i] = PointerGetDatum(lfirst(lc));
		nulls[i] = lfirst_int(lc2);
		i++;
	}
	dims[0] = n;
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	if (n == 0)
		return PointerGetDatum(construct_empty_array(elemtype));
	return PointerGetDatum(construct_md_array(elems, nulls, 1, dims, lbs,
											  elemtype, typlen, typbyval,
											  typalign));
}

/*
 * Convert one agent-supplied JSON value to a Datum of type typid.
 *
 * Scalars go through the type's input function as text, so coercion rules
 * are PostgreSQL's own (and its error messages, e.g. 22P02, are what the
 * agent sees).  JSON null is SQL NULL.  Arrays become arrays of the element
 * type; objects and arrays become json/jsonb when that is the target type.
 */
Datum
nat_json_to_datum(JsonbValue *value, Oid typid, int32 typmod, bool *isnull)
{
	InputFunction scratch;
	InputFunction *input;

	*isnull = false;
	if (value->type == jbvNull)
	{
		/*
		 * A parameter typed as a domain is taken as already checked: a NULL
		 * must meet the domain's NOT NULL (and CHECK) constraints here, as
		 * its input function makes every other value meet them.
		 */
		if (get_typtype(typid) == TYPTYPE_DOMAIN)
			domain_check((Datum) 0, true, typid, NULL, NULL);
		*isnull = true;
		return (Datum) 0;
	}

	/* json and jsonb targets take any JSON value as it is */
	if (typid == JSONBOID)
		return JsonbPGetDatum(JsonbValueToJsonb(value));
	if (typid == JSONOID)
	{
		Jsonb	   *jb = JsonbValueToJsonb(value);

		return CStringGetTextDatum(JsonbToCString(NULL, &jb->root,
												  VARSIZE(jb)));
	}

	/*
	 * A JSON number for a numeric or integer column needs no round trip
	 * through text.  Integers only when the number has no decimals (scale 0),
	 * so that 2.5 is still refused by the integer's input function rather
	 * than rounded.
	 */
	/* what a conversion error is about (an element's, for an array) */
	conversion_scalar = *value;
	conversion_has_scalar = true;
	conversion_scalar_type = typid;
	conversion_scalar_typmod = typmod;

	if (value->type == jbvNumeric)
	{
		Datum		n = NumericGetDatum(value->val.numeric);

		if (typid == NUMERICOID)
			return typmod >= 0 ?
				DirectFunctionCall2(numeric, n, Int32GetDatum(typmod)) : n;
		if ((typid == INT4OID || typid == INT8OID || typid == INT2OID) &&
			DatumGetInt32(DirectFunctionCall1(numeric_scale, n)) == 0)
			return typid == INT4OID ? DirectFunctionCall1(numeric_int4, n) :
				typid == INT8OID ? DirectFunctionCall1(numeric_int8, n) :
				DirectFunctionCall1(numeric_int2, n);
	}

	/*
	 * A JSON array builds a true array (one whose input function is
	 * array_in).  Types that only look like arrays (int2vector, oidvector: no
	 * NULLs, one dimension, their own input rules) are left to their input
	 * function, which refuses what they cannot hold instead of storing a
	 * value nothing can output.
	 */
	input = input_function(typid, &scratch);
	if (value->type == jbvBinary && JsonContainerIsArray(value->val.binary.data))
	{
		if (input->flinfo.fn_oid == F_ARRAY_IN)
			return json_array_to_datum(value, typid, typmod);

		/*
		 * A domain over an array: the array of its base type, then the
		 * domain's constraints, as domain_in would apply them.
		 */
		if (input->flinfo.fn_oid == F_DOMAIN_IN)
		{
			int32		basetypmod = typmod;
			Oid			basetype = getBaseTypeAndTypmod(typid, &basetypmod);
			InputFunction base_scratch;

			if (type_is_array(basetype) &&
				input_function(basetype, &base_scratch)->flinfo.fn_oid == F_ARRAY_IN)
			{
				Datum		result = json_array_to_datum(value, basetype, basetypmod);

				domain_check(result, false, typid,
							 input_function_cxt ? &input->domain_extra : NULL,
							 input_function_cxt);
				return result;
			}
		}
	}

	return InputFunctionCall(&input->flinfo, nat_json_value_text(value),
							 input->ioparam, typmod);
}
