/*-------------------------------------------------------------------------
 *
 * args.c
 *		  Validation and decoding of a tool call's arguments.
 *
 * Validation is driven by the same static ToolParam tables that generate
 * the JSON Schemas of ai_tool_list(), and happens before any SQL is built:
 * unknown keys (with a did-you-mean), wrong JSON types, out-of-range numbers
 * and bad enum values are refused with invalid_parameters and the JSON path
 * of the bad value.  A JSON null for an optional argument means "absent",
 * as agents often send it that way.
 *
 * IDENTIFICATION
 *		  src/core/args.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "miscadmin.h"
#include "registry/registry.h"
#include "utils/builtins.h"
#include "utils/numeric.h"
#include "utils/varlena.h"

/*
 * "string", "number", ... as JSON Schema names them.
 */
const char *
nat_json_type_name(JsonbValue *value)
{
	switch (value->type)
	{
		case jbvNull:
			return "null";
		case jbvString:
			return "string";
		case jbvNumeric:
			return "number";
		case jbvBool:
			return "boolean";
		case jbvBinary:
			if (JsonContainerIsArray(value->val.binary.data))
				return "array";
			if (JsonContainerIsScalar(value->val.binary.data))
				return "scalar";
			return "object";
		default:
			return "value";
	}
}

/*
 * A scalar's text as a type input function wants it: strings unquoted,
 * numbers and booleans as written; arrays and objects as JSON text.
 */
char *
nat_json_value_text(JsonbValue *value)
{
	switch (value->type)
	{
		case jbvString:
			return pnstrdup(value->val.string.val, value->val.string.len);
		case jbvNumeric:
			return DatumGetCString(DirectFunctionCall1(numeric_out,
													   NumericGetDatum(value->val.numeric)));
		case jbvBool:
			return pstrdup(value->val.boolean ? "true" : "false");
		case jbvBinary:
			return JsonbToCString(NULL, value->val.binary.data, value->val.binary.len);
		default:
			return pstrdup("null");
	}
}

/*
 * An integer value of a JSON number, or false if it has a fraction or does
 * not fit in 64 bits.
 */
static JsonbValue *arg_value(Jsonb *args, const char *name);
static void report_missing_argument(const ToolParam *param) pg_attribute_noreturn();

static bool
json_integer_value(JsonbValue *value, int64 *result)
{
	char	   *str = nat_json_value_text(value);
	char	   *end;

	if (strpbrk(str, ".eE") != NULL)
	{
		/* "5.0" is an integer; "5.5" is not */
		char	   *dot = strchr(str, '.');

		if (dot == NULL || strspn(dot + 1, "0") != strlen(dot + 1))
			return false;
		*dot = '\0';
	}
	errno = 0;
	*result = strtoi64(str, &end, 10);
	return errno == 0 && *end == '\0';
}

/*
 * The effective maximum of an integer parameter, if it has one.
 */
static bool
param_maximum(const ToolParam *param, int64 *maximum)
{
	bool		has = param->has_maximum;

	*maximum = param->has_maximum ? param->maximum : PG_INT64_MAX;
	if (param->maximum_setting)
	{
		*maximum = Min(*maximum, (int64) *param->maximum_setting);
		has = true;
	}
	return has;
}

StaticAssertDecl(NAT_MAX_COLUMNS == MaxTupleAttributeNumber,
				 "the column list limit is PostgreSQL's");
StaticAssertDecl(NAT_MAX_SET_COLUMNS == MaxHeapAttributeNumber,
				 "the set limit is PostgreSQL's");

/*
 * The items limit of an array parameter (0: none), and whether it comes
 * from a setting.
 */
static int
param_max_items(const ToolParam *param, bool *from_setting)
{
	int			limit = param->max_items;

	*from_setting = false;
	if (param->max_items_setting &&
		(limit == 0 || *param->max_items_setting < limit))
	{
		limit = *param->max_items_setting;
		*from_setting = true;
	}
	return limit;
}

/*
 * Check a present argument's size against the limits of its parameter,
 * before anything walks or copies it.  A setting's cap (the rows of one
 * insert) is a limit_exceeded refusal; the fixed limits are
 * invalid_parameters.
 */
static void
check_param_size(const ToolParam *param, JsonbValue *value, const char *path)
{
	if (value->type == jbvString && param->max_length > 0 &&
		nat_exceeds_chars(value->val.string.val, value->val.string.len,
						  param->max_length))
		nat_invalid_param(path,
						  psprintf("Pass at most %d characters in \"%s\".",
								   param->max_length, param->name),
						  "argument \"%s\" is longer than the limit of %d characters",
						  param->name, param->max_length);
	if (value->type == jbvBinary && JsonContainerIsArray(value->val.binary.data))
	{
		bool		from_setting;
		int			limit = param_max_items(param, &from_setting);
		int			n = JsonContainerSize(value->val.binary.data);

		if ((limit > 0 || from_setting) && n > limit)
		{
			ToolError  *err;

			if (!from_setting)
				nat_invalid_param(path,
								  psprintf("Pass at most %d items in \"%s\".",
										   limit, param->name),
								  "argument \"%s\" has %d items, more than the limit of %d",
								  param->name, n, limit);
			err = nat_error(NAT_ERR_LIMIT_EXCEEDED,
							"argument \"%s\" has %d items, more than the limit of %d for your role; nothing was done",
							param->name, n, limit);
			err->path = pstrdup(path);
			err->suggestion = psprintf("Split the call into batches of at most %d items.",
									   Max(limit, 1));
			nat_throw(err);
		}
	}
	if (value->type == jbvBinary && JsonContainerIsObject(value->val.binary.data) &&
		param->max_properties > 0 &&
		JsonContainerSize(value->val.binary.data) > param->max_properties)
		nat_invalid_param(path,
						  psprintf("Pass at most %d members in \"%s\".",
								   param->max_properties, param->name),
						  "argument \"%s\" has %d members, more than the limit of %d",
						  param->name, (int) JsonContainerSize(value->val.binary.data),
						  param->max_properties);
}

/*
 * Check one present argument against its parameter row.
 */
static void
validate_param(const ToolParam *param, JsonbValue *value, const char *path)
{
	const char *type = nat_json_type_name(value);
	int			mask = 0;
	int64		integer;

	switch (value->type)
	{
		case jbvString:
			mask = NAT_JSON_STRING;
			break;
		case jbvBool:
			mask = NAT_JSON_BOOLEAN;
			break;
		case jbvNumeric:
			mask = NAT_JSON_NUMBER;
			if (json_integer_value(value, &integer))
				mask |= NAT_JSON_INTEGER;
			break;
		case jbvBinary:
			if (JsonContainerIsArray(value->val.binary.data))
				mask = NAT_JSON_ARRAY;
			else if (!JsonContainerIsScalar(value->val.binary.data))
				mask = NAT_JSON_OBJECT;
			break;
		default:
			break;
	}

	if ((mask & param->types) == 0)
	{
		StringInfoData expected;
		static const struct
		{
			int			bit;
			const char *name;
		}			names[] = {
			{NAT_JSON_STRING, "a string"},
			{NAT_JSON_INTEGER, "an integer"},
			{NAT_JSON_NUMBER, "a number"},
			{NAT_JSON_BOOLEAN, "a boolean"},
			{NAT_JSON_OBJECT, "an object"},
			{NAT_JSON_ARRAY, "an array"},
		};
		int			i;
		int			n = 0;

		initStringInfo(&expected);
		for (i = 0; i < lengthof(names); i++)
		{
			if (param->types & names[i].bit)
				appendStringInfo(&expected, "%s%s", n++ > 0 ? " or " : "", names[i].name);
		}
		if (mask == NAT_JSON_NUMBER && (param->types & NAT_JSON_INTEGER) &&
			strpbrk(nat_json_value_text(value), ".") == NULL)
			nat_invalid_param(path, NULL, "argument \"%s\" is out of range", param->name);
		nat_invalid_param(path, psprintf("Pass %s for \"%s\".", expected.data, param->name),
						  "argument \"%s\" must be %s, not %s",
						  param->name, expected.data,
						  (mask == NAT_JSON_NUMBER && (param->types & NAT_JSON_INTEGER)) ?
						  "a number with a fraction" : type);
	}

	check_param_size(param, value, path);

	if ((mask & NAT_JSON_INTEGER) && (param->types & NAT_JSON_INTEGER))
	{
		int64		maximum;

		/* integer was set when the mask was */
		if (param->has_minimum && integer < param->minimum)
			nat_invalid_param(path, NULL,
							  "argument \"%s\" must be at least " INT64_FORMAT,
							  param->name, param->minimum);
		if (param_maximum(param, &maximum) && integer > maximum)
			nat_invalid_param(path,
							  psprintf("Pass at most " INT64_FORMAT ".", maximum),
							  "argument \"%s\" must be at most " INT64_FORMAT "%s",
							  param->name, maximum,
							  param->maximum_setting ? " (the server's limit for your role)" : "");
	}

	if (mask == NAT_JSON_STRING && param->enum_values)
	{
		/* enum values are short: a clipped copy decides as well */
		char	   *s = nat_clip_len(value->val.string.val, value->val.string.len);
		int			n = 0;
		int			i;

		while (param->enum_values[n])
			n++;
		for (i = 0; i < n; i++)
			if (strcmp(s, param->enum_values[i]) == 0)
				break;
		if (i == n)
		{
			StringInfoData allowed;
			const char *close = nat_closest_word(s, param->enum_values, n);

			initStringInfo(&allowed);
			for (i = 0; i < n; i++)
				appendStringInfo(&allowed, "%s\"%s\"", i > 0 ? ", " : "", param->enum_values[i]);
			nat_invalid_param_offer(path, close,
									close ? psprintf("Retry with \"%s\": \"%s\".", param->name, close) : NULL,
									psprintf("Use one of %s.", allowed.data),
									"argument \"%s\" must be one of %s",
									param->name, allowed.data);
		}
	}

	if (param->validate)
		param->validate(value, path);
}

/*
 * Store a present, validated argument in the tool's argument struct.
 */
static void
decode_param(const ToolParam *param, JsonbValue *value, char *targs)
{
	void	   *field = targs + param->offset;
	int64		i;

	switch (param->decode)
	{
		case NAT_DECODE_NONE:
			break;
		case NAT_DECODE_TEXT:
			*(char **) field = pnstrdup(value->val.string.val, value->val.string.len);
			break;
		case NAT_DECODE_JSON:
			{
				JsonbValue *copy = palloc(sizeof(JsonbValue));

				*copy = *value;
				*(JsonbValue **) field = copy;
				break;
			}
		case NAT_DECODE_BOOL:
			((NatBoolArg *) field)->given = true;
			((NatBoolArg *) field)->value = value->val.boolean;
			break;
		case NAT_DECODE_INT:
			if (json_integer_value(value, &i))
			{
				((NatIntArg *) field)->given = true;
				((NatIntArg *) field)->value = i;
			}
			break;
		case NAT_DECODE_ENUM:
			{
				char	   *s = nat_clip_len(value->val.string.val, value->val.string.len);
				int			n;

				for (n = 0; param->enum_values[n]; n++)
					if (strcmp(s, param->enum_values[n]) == 0)
						*(int *) field = n;
				break;
			}
	}
}

/*
 * Store a parameter's default in the tool's argument struct: the value of
 * its default setting, or its default_json; zero otherwise.
 */
static void
decode_default(const ToolParam *param, char *targs)
{
	void	   *field = targs + param->offset;
	int			n;

	switch (param->decode)
	{
		case NAT_DECODE_BOOL:
			((NatBoolArg *) field)->value = param->default_json &&
				strcmp(param->default_json, "true") == 0;
			break;
		case NAT_DECODE_INT:
			if (param->default_setting)
				((NatIntArg *) field)->value = *param->default_setting;
			else if (param->default_json)
				((NatIntArg *) field)->value = strtoi64(param->default_json, NULL, 10);
			break;
		case NAT_DECODE_ENUM:
			/* default_json is the quoted name of one of the values */
			for (n = 0; param->default_json && param->enum_values[n]; n++)
				if (strlen(param->default_json) == strlen(param->enum_values[n]) + 2 &&
					strncmp(param->default_json + 1, param->enum_values[n],
							strlen(param->enum_values[n])) == 0)
					*(int *) field = n;
			break;
		default:
			break;
	}
}

/*
 * Validate a call's arguments against its tool's parameter table, and
 * decode them into a new struct of the tool's (ToolDef.args_size bytes):
 * the only place arguments are read by name.
 */
void *
nat_decode_args(const ToolDef *tool, Jsonb *args)
{
	NatJsonbKeys keys;
	const char *k;
	int			klen;
	JsonbValue	v;
	int			i;
	const char **names = palloc(sizeof(char *) * Max(tool->nparams, 1));
	bool	   *given = palloc0(sizeof(bool) * Max(tool->nparams, 1));
	char	   *targs = palloc0(Max(tool->args_size, sizeof(CommonArgs)));

	for (i = 0; i < tool->nparams; i++)
	{
		names[i] = tool->params[i].name;
		decode_default(&tool->params[i], targs);
	}

	nat_jsonb_keys_begin(&keys, &args->root);
	while (nat_jsonb_next_key(&keys, &k, &klen, &v))
	{
		/* an unknown key is quoted back clipped: it may be huge */
		char	   *key = nat_clip_len(k, klen);
		const ToolParam *param = NULL;
		char	   *path = psprintf("$.%s", key);

		for (i = 0; i < tool->nparams; i++)
		{
			if (strlen(tool->params[i].name) == klen &&
				memcmp(tool->params[i].name, k, klen) == 0)
			{
				param = &tool->params[i];
				break;
			}
		}
		if (param == NULL)
		{
			const char *close = nat_argument_meant(tool, key);
			StringInfoData known;

			initStringInfo(&known);
			for (i = 0; i < tool->nparams; i++)
				appendStringInfo(&known, "%s%s", i > 0 ? ", " : "", names[i]);
			nat_invalid_param_offer(path, close,
									close ? psprintf("Rename the argument \"%s\" to \"%s\".",
													 nat_clip(key), close) : NULL,
									psprintf("Use only the arguments %s.", known.data),
									"unknown argument \"%s\" for tool %s", key, tool->name);
		}
		if (v.type == jbvNull && !param->required)
			continue;
		validate_param(param, &v, path);
		given[param - tool->params] = true;
		decode_param(param, &v, targs);
	}

	for (i = 0; i < tool->nparams; i++)
		if (tool->params[i].required && !given[i])
			report_missing_argument(&tool->params[i]);
	return targs;
}

/*
 * A required argument was not given: the step adds it, with the first of
 * its examples when it has some.
 */
static void
report_missing_argument(const ToolParam *param)
{
	ToolError  *err = nat_error(NAT_ERR_INVALID_PARAMETERS,
								"missing required argument \"%s\"", param->name);
	char	   *example = NULL;

	if (param->examples_json)
	{
		Jsonb	   *examples = DatumGetJsonbP(DirectFunctionCall1(jsonb_in,
																  CStringGetDatum(param->examples_json)));
		JsonbValue *first = getIthJsonbValueFromContainer(&examples->root, 0);

		if (first)
			example = nat_json_value_text(first);
		if (first && first->type == jbvString)
			example = psprintf("\"%s\"", example);
	}
	err->path = psprintf("$.%s", param->name);
	err->suggestion = psprintf("Add \"%s\" (%s)", param->name, param->description);
	err->suggested_actions =
		list_make1(example && strlen(example) <= 200 ?
				   psprintf("Add the argument \"%s\", e.g. \"%s\": %s.",
							param->name, param->name, example) :
				   psprintf("Add the argument \"%s\".", param->name));
	nat_throw(err);
}

/*
 * [{"column": "a", "value": 1}, ...] as {"a": 1, ...}: the shape of an
 * object of column values in the formats that cannot declare open objects
 * (openai_strict, gemini).  A repeated column is refused, as a repeated key
 * cannot be written in the object shape.
 */
static JsonbValue *
pairs_to_object(const ToolParam *param, JsonbValue *array, const char *path)
{
	NatJsonb	state = {0};
	JsonbValue *result;
	JsonbValue **columns;
	int			n = JsonContainerSize(array->val.binary.data);
	int			i;
	int			j;

	if (n > param->max_properties)
		nat_invalid_param(path,
						  psprintf("Pass at most %d columns.", param->max_properties),
						  "argument \"%s\" has %d columns, more than the limit of %d",
						  param->name, n, param->max_properties);
	columns = palloc(sizeof(JsonbValue *) * Max(n, 1));
	nat_jsonb_push(&state, WJB_BEGIN_OBJECT, NULL);
	for (i = 0; i < n; i++)
	{
		JsonbValue *item = getIthJsonbValueFromContainer(array->val.binary.data, i);
		JsonbValue *column = NULL;
		JsonbValue *value = NULL;

		CHECK_FOR_INTERRUPTS();
		if (item->type == jbvBinary && JsonContainerIsObject(item->val.binary.data) &&
			JsonContainerSize(item->val.binary.data) == 2)
		{
			column = NAT_JSONB_MEMBER(item->val.binary.data, "column");
			value = NAT_JSONB_MEMBER(item->val.binary.data, "value");
		}
		if (column == NULL || value == NULL || column->type != jbvString)
			nat_invalid_param(psprintf("%s[%d]", path, i),
							  "Write each pair as {\"column\": \"name\", \"value\": ...}.",
							  "each item must be an object with exactly the keys \"column\" (a string) and \"value\"");
		columns[i] = column;
		nat_jsonb_push(&state, WJB_KEY, column);
		nat_jsonb_push(&state, WJB_VALUE, value);
	}
	result = nat_jsonb_push(&state, WJB_END_OBJECT, NULL);

	/* fewer members than pairs: a column came twice (the object keeps one) */
	if (result->val.object.nPairs < n)
	{
		for (i = 1; i < n; i++)
		{
			for (j = 0; j < i; j++)
			{
				if (columns[j]->val.string.len == columns[i]->val.string.len &&
					memcmp(columns[j]->val.string.val, columns[i]->val.string.val,
						   columns[i]->val.string.len) == 0)
					nat_invalid_param(psprintf("%s[%d]", path, i), "Name each column once.",
									  "column \"%s\" appears more than once",
									  nat_clip_len(columns[i]->val.string.val,
												   columns[i]->val.string.len));
			}
		}
	}
	return result;
}

/*
 * The value of a pairs parameter in its object shape: set as a list of
 * pairs becomes an object; rows as a list of rows, each a list of pairs,
 * becomes a list of objects.  Anything else is left for validation.
 */
static JsonbValue *
normalize_pairs(const ToolParam *param, JsonbValue *value, const char *path)
{
	NatJsonb	state = {0};
	int			n;
	int			i;
	int			limit;
	bool		from_setting;

	/* set takes no list but the pairs: any list is read as pairs */
	if (param->items != NAT_ITEMS_ROW)
		return value->type == jbvBinary && JsonContainerIsArray(value->val.binary.data) ?
			pairs_to_object(param, value, path) : value;
	if (value->type != jbvBinary || !JsonContainerIsArray(value->val.binary.data))
		return value;
	n = JsonContainerSize(value->val.binary.data);

	/*
	 * Only a list within the items limit (validation refuses a longer one
	 * without walking it) that holds a row written as pairs is rebuilt.
	 */
	limit = param_max_items(param, &from_setting);
	if ((limit > 0 || from_setting) && n > limit)
		return value;
	for (i = 0; i < n; i++)
	{
		JsonbValue *item = getIthJsonbValueFromContainer(value->val.binary.data, i);
		bool		is_array = item->type == jbvBinary &&
			JsonContainerIsArray(item->val.binary.data);

		pfree(item);
		if (is_array)
			break;
	}
	if (i == n)
		return value;

	nat_jsonb_push(&state, WJB_BEGIN_ARRAY, NULL);
	for (i = 0; i < n; i++)
	{
		JsonbValue *item = getIthJsonbValueFromContainer(value->val.binary.data, i);

		CHECK_FOR_INTERRUPTS();
		if (item->type == jbvBinary && JsonContainerIsArray(item->val.binary.data))
			item = pairs_to_object(param, item, psprintf("%s[%d]", path, i));
		nat_jsonb_push(&state, WJB_ELEM, item);
	}
	return nat_jsonb_push(&state, WJB_END_ARRAY, NULL);
}

/*
 * The arguments with the pairs parameter in its object shape (the decoder
 * takes only that one), or args itself when it is not written as pairs.
 */
Jsonb *
nat_normalize_args(const ToolDef *tool, Jsonb *args)
{
	NatJsonb	state = {0};
	NatJsonbKeys keys;
	const char *key;
	int			keylen;
	JsonbValue	v;
	JsonbValue *result = NULL;
	JsonbValue *pairs = NULL;
	const ToolParam *pairs_param = NULL;
	int			i;

	if (!JB_ROOT_IS_OBJECT(args))
		return args;
	for (i = 0; i < tool->nparams && pairs == NULL; i++)
	{
		JsonbValue *value;

		if (!tool->params[i].pairs ||
			(value = arg_value(args, tool->params[i].name)) == NULL)
			continue;
		pairs = normalize_pairs(&tool->params[i], value,
								psprintf("$.%s", tool->params[i].name));
		if (pairs == value)
			pairs = NULL;
		else
			pairs_param = &tool->params[i];
	}
	if (pairs == NULL)
		return args;

	/*
	 * Rebuilding unpacks every other argument: first refuse (by leaving them
	 * to validation) unknown keys, and oversized values before they are
	 * walked.
	 */
	nat_jsonb_keys_begin(&keys, &args->root);
	while (nat_jsonb_next_key(&keys, &key, &keylen, &v))
	{
		const ToolParam *param = NULL;
		char	   *name = pnstrdup(key, keylen);

		for (i = 0; i < tool->nparams; i++)
			if (strcmp(tool->params[i].name, name) == 0)
				param = &tool->params[i];
		if (param == NULL)
			return args;
		if (param != pairs_param)
			check_param_size(param, &v, psprintf("$.%s", name));
	}

	/* the same members, the pairs' value replaced by its object */
	nat_jsonb_push(&state, WJB_BEGIN_OBJECT, NULL);
	nat_jsonb_keys_begin(&keys, &args->root);
	while (nat_jsonb_next_key(&keys, &key, &keylen, &v))
	{
		bool		is_pairs = strlen(pairs_param->name) == keylen &&
			memcmp(pairs_param->name, key, keylen) == 0;

		nat_push_key_len(&state, key, keylen);
		nat_jsonb_push(&state, WJB_VALUE, is_pairs ? pairs : &v);
	}
	result = nat_jsonb_push(&state, WJB_END_OBJECT, NULL);
	return JsonbValueToJsonb(result);
}

/*
 * An argument's value, or NULL when it is absent or JSON null.
 */
static JsonbValue *
arg_value(Jsonb *args, const char *name)
{
	JsonbValue *v = getKeyJsonValueFromContainer(&args->root, name,
												 strlen(name), NULL);

	if (v == NULL || v->type == jbvNull)
		return NULL;
	return v;
}
