/*-------------------------------------------------------------------------
 *
 * value_advice.c
 *		  What an invalid_input answer says about a value its type refused.
 *
 * The suggestion gives one or two valid examples of the type
 * (value_examples.c); when the value given was probably meant as a valid
 * one (value_near_miss.c), the answer offers the converted value: in
 * did_you_mean when there is one, and in suggested_actions as a step
 * naming where it goes ('Use "2026-11-27" at $.where.placed_at.').  The
 * value offered derives from the one given at that place; nothing from
 * another place of the call, another column or the table is quoted.
 *
 * Two sources of such errors:
 *
 *	 - the extension's own conversion of a JSON value (structured where,
 *	   rows, set, params of execute_sql, explain_query and custom tools):
 *	   values.c says where and what (nat_advise_conversion());
 *	 - PostgreSQL's own input error for a value written in the agent's SQL
 *	   text (execute_sql, a SQL-string where) or cast there from a text
 *	   parameter: the type and the value are read from the message, and
 *	   the value is offered again only if it is found in the call's own
 *	   input (a parameter, or a quoted literal of its SQL text); a value
 *	   from the table's rows (a cast in a view) gets the examples alone.
 *	   PostgreSQL's hint to change the datestyle setting gives way to the
 *	   date in ISO form (nat_advise_value_error()).
 *
 * IDENTIFICATION
 *		  src/answer/value_advice.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "answer/answer.h"
#include "parser/parse_type.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"

/* the middle of 'value "V" is out of range for type T' */
#define OUT_OF_RANGE "\" is out of range for type "

/* a value longer than this (in bytes) is not looked for in the call */
#define VALUE_MAX_BYTES 256

/* what an answer about one value says */
typedef struct ValueAdvice
{
	char	   *suggestion;
	char	   *did_you_mean;
	List	   *actions;
	char	   *hint;			/* in place of PostgreSQL's datestyle hint */
} ValueAdvice;

/*
 * Where a value was given: a JSON path (the value is written as JSON), or
 * the argument holding SQL text and the value as written there.
 */
typedef struct ValuePlace
{
	const char *path;
	const char *literal;		/* the value as written in SQL, or NULL */
} ValuePlace;

/*
 * A value as the agent writes it at place: a JSON string, or a SQL literal.
 */
static char *
written(const char *value, const ValuePlace *place)
{
	return place->literal ? quote_literal_cstr(value) : nat_json_quoted(value);
}

/*
 * 'Use "v" at $.path.' or 'Write 'v' in place of 'x' in $.sql.', with
 * what the reading assumes (" if the day comes first") when given.
 */
static char *
use_step(const char *value, const ValuePlace *place, const char *reading)
{
	const char *tail = reading ? psprintf(" %s", reading) : "";

	if (place->literal)
		return psprintf("Write %s in place of %s in %s%s.", value,
						quote_literal_cstr(nat_clip(place->literal)),
						place->path, tail);
	return psprintf("Use %s at %s%s.", value, place->path, tail);
}

/*
 * The advice for given, a value of type given_type refused where a value
 * of type typid was expected (the same type, or typid an array of it).
 */
static void
advise(Oid typid, int32 typmod, Oid given_type, int32 given_typmod,
	   const char *given, const ValuePlace *place, ValueAdvice *adv)
{
	char	   *examples = nat_value_examples(typid, typmod, place->literal != NULL);
	Oid			base = getBaseType(OidIsValid(given_type) ? given_type : typid);
	NearMiss	nm;

	memset(adv, 0, sizeof(ValueAdvice));
	adv->suggestion = examples;
	memset(&nm, 0, sizeof(NearMiss));
	if (OidIsValid(given_type) && place->path != NULL)
		nat_value_near_miss(given_type, given_typmod, given, &nm);
	/* a value too long to quote whole is not offered: a clipped one is wrong */
	for (int i = nm.count - 1; i >= 0; i--)
		if (nat_exceeds_chars(nm.values[i], strlen(nm.values[i]), NAT_ECHO_CHARS))
		{
			nm.values[i] = nm.values[1];
			nm.readings[i] = nm.readings[1];
			nm.count--;
		}
	if (nm.count == 1)
		nm.readings[0] = NULL;

	if (nm.count == 1)
	{
		char	   *value = nm.values[0];

		adv->did_you_mean = value;
		adv->suggestion = psprintf("Did you mean %s? %s", written(value, place), examples);
		adv->actions = list_make1(use_step(written(value, place), place, NULL));
	}
	else if (nm.count == 2)
	{
		char	   *first = written(nm.values[0], place);
		char	   *second = written(nm.values[1], place);

		adv->suggestion = psprintf("The value reads two ways: %s %s, %s %s. %s",
								   first, nm.readings[0], second, nm.readings[1],
								   examples);
		adv->actions = list_make2(use_step(first, place, nm.readings[0]),
								  use_step(second, place, nm.readings[1]));
	}
	else if (nm.note)
		adv->suggestion = psprintf("%s %s", nm.note, examples);
	else if (nm.use_null)
	{
		adv->suggestion = psprintf("For a missing value pass %s, not a string. %s",
								   place->literal ? "NULL" : "JSON null", examples);
		adv->actions = list_make1(use_step(place->literal ? "NULL" : "null", place, NULL));
	}

	if (base == DATEOID || base == TIMESTAMPOID || base == TIMESTAMPTZOID)
		adv->hint = psprintf("Write dates as year-month-day, e.g. %s.",
							 nm.count == 1 ? written(pnstrdup(adv->did_you_mean, 10), place) :
							 written("2026-11-27", place));
}

/*
 * A value the extension could not convert to its column's (or
 * parameter's) type: err, an invalid_input error, gets the examples and,
 * for a near miss, the value meant and where to put it.
 */
void
nat_advise_conversion(ToolError *err, const ConversionFailure *failure)
{
	ValuePlace	place;
	ValueAdvice adv;

	place.path = failure->element >= 0 ?
		psprintf("%s[%d]", failure->path, failure->element) : failure->path;
	place.literal = NULL;
	advise(failure->typid, failure->typmod, failure->given_type,
		   failure->given_typmod, failure->given, &place, &adv);
	err->suggestion = adv.suggestion;
	err->did_you_mean = adv.did_you_mean;
	err->suggested_actions = list_concat(adv.actions, err->suggested_actions);
}

/*
 * The type name and the value of PostgreSQL's input error messages:
 *	 invalid input syntax for type T: "V"		(or without ': "V"')
 *	 invalid input value for enum T: "V"
 *	 value "V" is out of range for type T
 *	 date/time field value out of range: "V"	(no type: *type NULL)
 *	 T out of range								(no value: *value NULL)
 * False for any other message (or one in another language).
 */
static bool
parse_input_error(const char *message, char **type, char **value)
{
	static const char *const type_first[] = {
		"invalid input syntax for type ", "invalid input value for enum "
	};
	static const char datetime[] = "date/time field value out of range: \"";
	size_t		len = strlen(message);
	const char *p;

	*type = NULL;
	*value = NULL;
	for (int i = 0; i < lengthof(type_first); i++)
		if (strncmp(message, type_first[i], strlen(type_first[i])) == 0)
		{
			const char *t = message + strlen(type_first[i]);

			p = strstr(t, ": \"");
			if (p == NULL && strchr(t, '"') == NULL && strlen(t) < NAMEDATALEN * 2)
			{
				*type = pstrdup(t); /* no value: "... for type json" */
				return true;
			}
			if (p == NULL || message[len - 1] != '"' || p + 3 > message + len - 1)
				return false;
			*type = pnstrdup(t, p - t);
			*value = pnstrdup(p + 3, message + len - 1 - (p + 3));
			return true;
		}
	if (strncmp(message, datetime, sizeof(datetime) - 1) == 0 &&
		message[len - 1] == '"' && len >= sizeof(datetime))
	{
		*value = pnstrdup(message + sizeof(datetime) - 1, len - sizeof(datetime));
		return true;
	}
	if (strncmp(message, "value \"", 7) == 0 &&
		(p = strstr(message, OUT_OF_RANGE)) != NULL)
	{
		*value = pnstrdup(message + 7, p - message - 7);
		*type = pstrdup(p + strlen(OUT_OF_RANGE));
		return true;
	}
	if (len > 13 && len < 64 && strcmp(message + len - 13, " out of range") == 0 &&
		strchr(message, '"') == NULL)
	{
		*type = pnstrdup(message, len - 13);	/* "integer out of range" */
		return true;
	}
	return false;
}

typedef struct TypeLookup
{
	const char *name;
	Oid			typid;
	int32		typmod;
} TypeLookup;

static void
type_lookup(void *arg)
{
	TypeLookup *lookup = arg;

	nat_parse_type_missing_ok(lookup->name, &lookup->typid, &lookup->typmod);
}

/*
 * The type a message names (format_type_be()'s form), or InvalidOid.
 * On 15 a name that does not parse raises: run safely.
 */
static Oid
type_of_message(const char *name)
{
	TypeLookup	lookup = {name, InvalidOid, -1};

	if (!nat_run_safely(type_lookup, &lookup))
		return InvalidOid;
	return lookup.typid;
}

/*
 * The string argument key of the call's arguments, or NULL.
 */
static const char *
string_argument(struct ToolCall *call, const char *key)
{
	JsonbValue *v;

	if (call->args == NULL || !JB_ROOT_IS_OBJECT(call->args))
		return NULL;
	v = getKeyJsonValueFromContainer(&call->args->root, key, strlen(key), NULL);
	return v && v->type == jbvString ?
		pnstrdup(v->val.string.val, v->val.string.len) : NULL;
}

/*
 * Where the call gave value: the first string of its params equal to it
 * ($.params[i]), else its SQL text ($.sql) or SQL-string where ($.where)
 * holding it as a quoted literal.  False if it gave no such value.
 */
static bool
place_of_value(struct ToolCall *call, const char *value, ValuePlace *place)
{
	static const char *const sql_keys[] = {"sql", "where"};
	JsonbValue *params = NULL;
	char	   *quoted = psprintf("'%s'", value);

	if (call->args != NULL && JB_ROOT_IS_OBJECT(call->args))
		params = NAT_JSONB_MEMBER(&call->args->root, "params");
	if (params != NULL && params->type == jbvBinary &&
		JsonContainerIsArray(params->val.binary.data))
	{
		int			n = JsonContainerSize(params->val.binary.data);

		for (int i = 0; i < n; i++)
		{
			JsonbValue *v = getIthJsonbValueFromContainer(params->val.binary.data, i);

			if (v && v->type == jbvString && v->val.string.len == strlen(value) &&
				memcmp(v->val.string.val, value, v->val.string.len) == 0)
			{
				place->path = psprintf("$.params[%d]", i);
				place->literal = NULL;
				return true;
			}
		}
	}
	for (int i = 0; i < lengthof(sql_keys); i++)
	{
		const char *sql = string_argument(call, sql_keys[i]);

		if (sql != NULL && strstr(sql, quoted) != NULL)
		{
			place->path = psprintf("$.%s", sql_keys[i]);
			place->literal = value;
			return true;
		}
	}
	return false;
}

/*
 * PostgreSQL refused a value in a live call (class 22, a message of
 * parse_input_error()): the suggestion with examples, and for a near miss
 * of a value the call gave, the value meant and the step; *hint replaces
 * PostgreSQL's datestyle hint (left alone otherwise).  False, with nothing
 * set, for other errors.
 */
bool
nat_advise_value_error(struct ToolCall *call, ErrorData *edata,
					   char **suggestion, char **did_you_mean,
					   List **actions, char **hint)
{
	char	   *type;
	char	   *value;
	Oid			typid;
	ValuePlace	place = {NULL, NULL};
	ValueAdvice adv;

	if (ERRCODE_TO_CATEGORY(edata->sqlerrcode) != ERRCODE_DATA_EXCEPTION ||
		edata->message == NULL ||
		!parse_input_error(edata->message, &type, &value))
		return false;
	if (type != NULL)
		typid = type_of_message(type);
	else
		typid = strpbrk(value, " T:") != NULL ? TIMESTAMPTZOID : DATEOID;
	if (!OidIsValid(typid))
		return false;
	/* a value the call gave, short enough to be read again */
	if (value == NULL || strlen(value) > VALUE_MAX_BYTES ||
		!place_of_value(call, value, &place))
	{
		place.path = NULL;
		place.literal = (call->query_source || string_argument(call, "where")) ?
			"" : NULL;
	}
	advise(typid, -1, place.path ? typid : InvalidOid, -1, value, &place, &adv);
	*suggestion = adv.suggestion;
	*did_you_mean = adv.did_you_mean;
	*actions = adv.actions;
	/* "datestyle" until 17, "DateStyle" from 18 */
	if (edata->hint &&
		strstr(asc_tolower(edata->hint, strlen(edata->hint)), "\"datestyle\"") != NULL)
		*hint = adv.hint;
	return true;
}
