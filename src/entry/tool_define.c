/*-------------------------------------------------------------------------
 *
 * tool_define.c
 *		  Custom tools: ai_tool_define(), ai_tool_from_function() and
 *		  ai_tool_drop(), with every check made when a tool is defined.
 *
 * A definition is refused when it is made, not when an agent calls it:
 *
 * - the name follows the model providers' rule for tool names
 *	 (^[a-zA-Z0-9_-]{1,64}$) and is not a built-in tool's;
 * - each parameter has a valid name, an existing type that is not a
 *	 pseudo-type, and JSON Schema constraints that fit its JSON type (enum
 *	 for strings, minimum/maximum for numbers, maxLength, maxItems); a
 *	 default converts to the type;
 * - the SQL is one SELECT, INSERT, UPDATE, DELETE or MERGE statement,
 *	 parsed and analysed by PostgreSQL with the declared types for $1..$n
 *	 (an unknown table or column, a type mismatch, or a $k past the list
 *	 is PostgreSQL's own error), and it uses every parameter;
 * - the analysed statement is classified: it writes if it is not a query,
 *	 modifies data in a WITH, locks rows (FOR UPDATE/SHARE), or calls a
 *	 function a read-only call would refuse (call_guard.c); a writing
 *	 statement cannot be declared read_only.
 *
 * The definition is stored normalized (types schema-qualified, each
 * parameter's JSON types worked out) by custom_store.c.
 *
 * IDENTIFICATION
 *		  src/core/tool_define.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/comment.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "entry/entry.h"
#include "nodes/nodeFuncs.h"
#include "parser/analyze.h"
#include "parser/parse_type.h"
#include "tcop/cmdtag.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

/* longest description of a tool or a parameter, in characters */
#define NAT_MAX_TOOL_DESCRIPTION	8192
/* parameters of one custom tool */
#define NAT_MAX_TOOL_PARAMS			100

/* the options of a definition, checked */
typedef struct DefineOptions
{
	int			read_only;		/* -1: not given; else the value */
	int			max_rows;		/* 0: not given */
	int			timeout_ms;		/* 0: not given */
	int			destructive;	/* -1: not given */
	int			idempotent;		/* -1: not given */
	char	   *title;
	/* ai_tool_from_function() only */
	char	   *name;
	char	   *description;
	JsonbValue *parameters;		/* object: argument name -> extra keys */
} DefineOptions;

static const char *const param_keys[] = {
	"name", "type", "description", "required", "default", "enum",
	"minimum", "maximum", "maxLength", "maxItems", "examples", NULL
};

/*
 * Is s 1 to 64 letters, digits, underscores or hyphens?
 */
static bool
valid_name(const char *s)
{
	int			len = strlen(s);

	if (len < 1 || len > NAT_MAX_TOOL_NAME)
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == len;
}

static void
check_tool_name(const char *name)
{
	if (!valid_name(name))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_NAME),
				 errmsg("invalid tool name \"%s\"", nat_clip(name)),
				 errdetail("A tool name is 1 to 64 letters, digits, underscores or hyphens, as the model providers require.")));
	if (nat_builtin_tool(name))
		ereport(ERROR,
				(errcode(ERRCODE_RESERVED_NAME),
				 errmsg("tool name \"%s\" is reserved for a built-in tool", name),
				 errhint("Choose another name.")));
}

static void
check_description(const char *what, const char *description)
{
	if (description[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must not be empty", what),
				 errhint("Describe what the tool does and when to use it: the model reads it.")));
	if (nat_exceeds_chars(description, strlen(description), NAT_MAX_TOOL_DESCRIPTION))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is longer than %d characters", what, NAT_MAX_TOOL_DESCRIPTION)));
}

/*
 * A member of a jsonb object, or NULL.
 */
static JsonbValue *
member(JsonbContainer *obj, const char *key)
{
	return getKeyJsonValueFromContainer(obj, key, strlen(key), NULL);
}

static bool
is_array(JsonbValue *v)
{
	return v->type == jbvBinary && JsonContainerIsArray(v->val.binary.data);
}

static bool
is_object(JsonbValue *v)
{
	return v->type == jbvBinary && JsonContainerIsObject(v->val.binary.data) &&
		!JsonContainerIsScalar(v->val.binary.data);
}

/*
 * Append the value as JSON text.
 */
static void
append_value(StringInfo buf, JsonbValue *v)
{
	appendStringInfoString(buf, JsonbToCString(NULL, &JsonbValueToJsonb(v)->root, -1));
}

/*
 * A JSON integer member as an int64 in [min, max], or an error.
 */
static int64
integer_member(JsonbValue *v, const char *what, const char *param, int64 min, int64 max)
{
	char	   *str;
	char	   *end;
	int64		n;

	if (v->type != jbvNumeric)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" of parameter \"%s\" must be an integer", what, param)));
	str = nat_json_value_text(v);
	errno = 0;
	n = strtoi64(str, &end, 10);
	if (*end != '\0' || errno != 0 || n < min || n > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" of parameter \"%s\" must be an integer between " INT64_FORMAT " and " INT64_FORMAT,
						what, param, min, max)));
	return n;
}

/*
 * The JSON types a parameter of this PostgreSQL type takes, as a
 * NAT_JSON_* mask.
 */
static int
json_types_of(Oid typid)
{
	Oid			base = getBaseType(typid);

	switch (base)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
			return NAT_JSON_INTEGER;
		case NUMERICOID:
		case FLOAT4OID:
		case FLOAT8OID:
			return NAT_JSON_NUMBER;
		case BOOLOID:
			return NAT_JSON_BOOLEAN;
		case JSONOID:
		case JSONBOID:
			return NAT_JSON_OBJECT | NAT_JSON_ARRAY | NAT_JSON_STRING |
				NAT_JSON_NUMBER | NAT_JSON_BOOLEAN;
	}
	if (type_is_array(base))
		return NAT_JSON_ARRAY;
	return NAT_JSON_STRING;
}

static void
append_json_types(StringInfo buf, int mask)
{
	static const struct
	{
		int			bit;
		const char *name;
	}			names[] = {
		{NAT_JSON_STRING, "string"}, {NAT_JSON_INTEGER, "integer"},
		{NAT_JSON_NUMBER, "number"}, {NAT_JSON_BOOLEAN, "boolean"},
		{NAT_JSON_OBJECT, "object"}, {NAT_JSON_ARRAY, "array"},
	};
	int			n = 0;

	appendStringInfoString(buf, ",\"json_types\":[");
	for (int i = 0; i < lengthof(names); i++)
		if (mask & names[i].bit)
			appendStringInfo(buf, "%s\"%s\"", n++ ? "," : "", names[i].name);
	appendStringInfoChar(buf, ']');
}

/*
 * For an array of scalars, the JSON type of its elements ("json_items"),
 * which the catalog shows as the array's items.
 */
static void
append_json_items(StringInfo buf, Oid typid)
{
	Oid			base = getBaseType(typid);
	Oid			elem = type_is_array(base) ? get_element_type(base) : InvalidOid;
	int			mask = OidIsValid(elem) ? json_types_of(elem) : 0;

	switch (mask)
	{
		case NAT_JSON_STRING:
			appendStringInfoString(buf, ",\"json_items\":\"string\"");
			break;
		case NAT_JSON_INTEGER:
			appendStringInfoString(buf, ",\"json_items\":\"integer\"");
			break;
		case NAT_JSON_NUMBER:
			appendStringInfoString(buf, ",\"json_items\":\"number\"");
			break;
		case NAT_JSON_BOOLEAN:
			appendStringInfoString(buf, ",\"json_items\":\"boolean\"");
			break;
		default:
			break;				/* json, nested arrays: any value */
	}
}

/*
 * Resolve a parameter's type; pseudo-types are refused.
 */
static void
resolve_param_type(const char *type, const char *param, Oid *typid, int32 *typmod)
{
	nat_parse_type_missing_ok(type, typid, typmod);
	if (!OidIsValid(*typid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("type \"%s\" of parameter \"%s\" does not exist", type, param)));
	if (get_typtype(*typid) == TYPTYPE_PSEUDO)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("parameter \"%s\" cannot be of pseudo-type %s", param,
						format_type_be(*typid))));
}

/*
 * Check one key of a parameter spec that constrains values, and append it
 * to the normalized spec.
 */
static void
normalize_constraint(StringInfo out, const char *key, JsonbValue *v,
					 const char *param, int types)
{
	if (strcmp(key, "enum") == 0)
	{
		if (types != NAT_JSON_STRING)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("\"enum\" applies only to parameters passed as strings, and parameter \"%s\" is not one", param)));
		if (!is_array(v) || JsonContainerSize(v->val.binary.data) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("\"enum\" of parameter \"%s\" must be a non-empty array of strings", param)));
		for (int i = 0; i < JsonContainerSize(v->val.binary.data); i++)
			if (getIthJsonbValueFromContainer(v->val.binary.data, i)->type != jbvString)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("\"enum\" of parameter \"%s\" must be a non-empty array of strings", param)));
	}
	else if (strcmp(key, "minimum") == 0 || strcmp(key, "maximum") == 0)
	{
		if (!(types & (NAT_JSON_INTEGER | NAT_JSON_NUMBER)) || (types & NAT_JSON_STRING))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("\"%s\" applies only to numeric parameters, and parameter \"%s\" is not one", key, param)));
		(void) integer_member(v, key, param, PG_INT64_MIN, PG_INT64_MAX);
	}
	else if (strcmp(key, "maxLength") == 0)
	{
		if (!(types & NAT_JSON_STRING))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("\"maxLength\" applies only to parameters passed as strings, and parameter \"%s\" is not one", param)));
		(void) integer_member(v, key, param, 1, NAT_MAX_SQL);
	}
	else if (strcmp(key, "maxItems") == 0)
	{
		if (!(types & NAT_JSON_ARRAY))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("\"maxItems\" applies only to array parameters, and parameter \"%s\" is not one", param)));
		(void) integer_member(v, key, param, 1, NAT_MAX_PARAMS);
	}
	else if (strcmp(key, "examples") == 0 && !is_array(v))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"examples\" of parameter \"%s\" must be an array", param)));
	appendStringInfo(out, ",\"%s\":", key);
	append_value(out, v);
}

/*
 * Check every key of a parameter spec is known.
 */
static void
check_param_keys(JsonbContainer *spec, const char *param)
{
	NatJsonbKeys keys;
	const char *k;
	int			klen;
	JsonbValue	v;

	nat_jsonb_keys_begin(&keys, spec);
	while (nat_jsonb_next_key(&keys, &k, &klen, &v))
	{
		char	   *key = pnstrdup(k, klen);
		int			i;

		for (i = 0; param_keys[i]; i++)
			if (strcmp(key, param_keys[i]) == 0)
				break;
		if (param_keys[i] == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unrecognized key \"%s\" in parameter \"%s\"", nat_clip(key), param),
					 errhint("Valid keys are name, type, description, required, default, enum, minimum, maximum, maxLength, maxItems and examples.")));
	}
}

/*
 * Check one parameter spec and append its normalized form to out; its
 * type goes to *typid.
 */
static void
normalize_param(StringInfo out, JsonbValue *specv, int index, Oid *typid)
{
	JsonbContainer *spec;
	JsonbValue *v;
	char	   *name;
	char	   *type;
	int32		typmod;
	int			types;
	bool		required;

	if (!is_object(specv))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("parameter %d must be a JSON object", index + 1),
				 errhint("Write each parameter as {\"name\": \"customer_id\", \"type\": \"integer\", \"description\": \"...\"}.")));
	spec = specv->val.binary.data;
	v = member(spec, "name");
	if (v == NULL || v->type != jbvString)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("parameter %d has no name", index + 1)));
	name = pnstrdup(v->val.string.val, v->val.string.len);
	if (!valid_name(name))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_NAME),
				 errmsg("invalid parameter name \"%s\"", nat_clip(name)),
				 errdetail("A parameter name is 1 to 64 letters, digits, underscores or hyphens.")));
	check_param_keys(spec, name);
	v = member(spec, "type");
	if (v == NULL || v->type != jbvString)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("parameter \"%s\" has no type", name),
				 errhint("Give its PostgreSQL type, such as \"integer\", \"text\" or \"timestamptz\".")));
	type = pnstrdup(v->val.string.val, v->val.string.len);
	resolve_param_type(type, name, typid, &typmod);
	types = json_types_of(*typid);

	appendStringInfoString(out, "{\"name\":");
	escape_json(out, name);
	appendStringInfoString(out, ",\"type\":");
	escape_json(out, format_type_extended(*typid, typmod,
										  FORMAT_TYPE_TYPEMOD_GIVEN | FORMAT_TYPE_FORCE_QUALIFY));
	append_json_types(out, types);
	append_json_items(out, *typid);

	v = member(spec, "description");
	if (v && v->type != jbvString)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"description\" of parameter \"%s\" must be a string", name)));
	appendStringInfoString(out, ",\"description\":");
	if (v && v->val.string.len > 0)
	{
		char	   *d = pnstrdup(v->val.string.val, v->val.string.len);

		check_description("parameter description", d);
		escape_json(out, d);
	}
	else
		escape_json(out, psprintf("%s (%s).", name, format_type_be(*typid)));

	/* required unless it has a default, or says it is not */
	v = member(spec, "required");
	if (v && v->type != jbvBool)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"required\" of parameter \"%s\" must be a boolean", name)));
	required = v ? v->val.boolean : member(spec, "default") == NULL;
	if (required && member(spec, "default"))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("parameter \"%s\" cannot be both required and have a default", name)));
	appendStringInfo(out, ",\"required\":%s", required ? "true" : "false");

	if ((v = member(spec, "default")) != NULL)
	{
		bool		isnull;

		/* the default must convert to the type, as a call's value would */
		(void) nat_json_to_datum(v, *typid, typmod, &isnull);
		appendStringInfoString(out, ",\"default\":");
		append_value(out, v);
	}
	/* the constraints: the keys from "enum" on */
	for (int i = 5; param_keys[i]; i++)
		if ((v = member(spec, param_keys[i])) != NULL)
			normalize_constraint(out, param_keys[i], v, name, types);
	appendStringInfoChar(out, '}');
}

/*
 * Check the parameter list and return it normalized; the types go to
 * *types (palloc'd, *ntypes of them).
 */
static Jsonb *
normalize_params(Jsonb *params, Oid **types, int *ntypes)
{
	StringInfoData out;
	int			n;

	if (!JB_ROOT_IS_ARRAY(params) || JB_ROOT_IS_SCALAR(params))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tool parameters must be a JSON array"),
				 errhint("Pass one object for each of $1, $2, ... in order, or '[]' for none.")));
	n = JsonContainerSize(&params->root);
	if (n > NAT_MAX_TOOL_PARAMS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a tool can have at most %d parameters", NAT_MAX_TOOL_PARAMS)));
	*types = palloc(sizeof(Oid) * Max(n, 1));
	*ntypes = n;
	initStringInfo(&out);
	appendStringInfoChar(&out, '[');
	for (int i = 0; i < n; i++)
	{
		JsonbValue *spec = getIthJsonbValueFromContainer(&params->root, i);

		if (i > 0)
			appendStringInfoChar(&out, ',');
		normalize_param(&out, spec, i, &(*types)[i]);
	}
	appendStringInfoChar(&out, ']');

	/* names are unique */
	for (int i = 1; i < n; i++)
		for (int j = 0; j < i; j++)
		{
			JsonbValue *a = member(getIthJsonbValueFromContainer(&params->root, i)->val.binary.data, "name");
			JsonbValue *b = member(getIthJsonbValueFromContainer(&params->root, j)->val.binary.data, "name");

			if (a->val.string.len == b->val.string.len &&
				memcmp(a->val.string.val, b->val.string.val, a->val.string.len) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_DUPLICATE_OBJECT),
						 errmsg("parameter \"%s\" appears more than once",
								pnstrdup(a->val.string.val, a->val.string.len))));
		}
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(out.data)));
}

/* what the classification found in an analysed statement */
typedef struct Classification
{
	Bitmapset  *params;			/* $n used */
	bool		locks_rows;		/* FOR UPDATE/SHARE anywhere */
	Oid			writing_function;	/* a function that may write, or 0 */
} Classification;

static bool
function_writes(Oid funcid, void *context)
{
	Classification *c = (Classification *) context;

	if (!OidIsValid(c->writing_function) && nat_function_may_write(funcid))
		c->writing_function = funcid;
	return false;
}

static bool
classify_walker(Node *node, void *context)
{
	Classification *c = (Classification *) context;

	if (node == NULL)
		return false;
	if (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXTERN)
		c->params = bms_add_member(c->params, ((Param *) node)->paramid);
	(void) check_functions_in_node(node, function_writes, context);
	if (IsA(node, Query))
	{
		if (((Query *) node)->rowMarks != NIL)
			c->locks_rows = true;
		return query_tree_walker((Query *) node, classify_walker, context, 0);
	}
	return expression_tree_walker(node, classify_walker, context);
}

/*
 * Error context callback while the tool's SQL is parsed: a position in it
 * is reported in the tool's SQL (QUERY), not in the caller's statement.
 */
static void
tool_sql_error_callback(void *arg)
{
	int			pos = geterrposition();

	if (pos > 0)
	{
		errposition(0);
		internalerrposition(pos);
		internalerrquery((const char *) arg);
	}
}

/*
 * Parse and analyse the tool's SQL with its parameters' types; check it is
 * one statement of an allowed kind that uses every parameter.  Returns the
 * operation it reports, and whether the statement itself writes (*writes)
 * or calls a function that may (*calls_writer).
 */
static NatOperation
check_statement(const char *sql, Oid *types, int ntypes, bool *writes,
				bool *calls_writer)
{
	List	   *stmts;
	RawStmt    *rs;
	Query	   *query;
	Classification c;
	ErrorContextCallback errcallback;

	if (nat_exceeds_chars(sql, strlen(sql), NAT_MAX_SQL))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("tool SQL is longer than %d characters", NAT_MAX_SQL)));
	errcallback.callback = tool_sql_error_callback;
	errcallback.arg = (void *) sql;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	stmts = nat_raw_parser(sql);
	if (list_length(stmts) != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tool SQL must be exactly one statement, not %d", list_length(stmts)),
				 errhint("Write one statement with $1, $2, ... for the parameters; a function can hold more.")));
	rs = linitial_node(RawStmt, stmts);
	switch (nodeTag(rs->stmt))
	{
		case T_SelectStmt:
		case T_InsertStmt:
		case T_UpdateStmt:
		case T_DeleteStmt:
		case T_MergeStmt:
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("tool SQL must be a SELECT, INSERT, UPDATE, DELETE or MERGE statement, not %s",
							GetCommandTagName(CreateCommandTag(rs->stmt)))));
	}

	query = parse_analyze_fixedparams(rs, sql, types, ntypes, NULL);
	error_context_stack = errcallback.previous;
	if (query->commandType == CMD_UTILITY)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("tool SQL must not create a table (SELECT INTO)")));

	memset(&c, 0, sizeof(c));
	(void) query_tree_walker(query, classify_walker, &c, 0);
	if (query->rowMarks != NIL)
		c.locks_rows = true;
	for (int i = 1; i <= ntypes; i++)
		if (!bms_is_member(i, c.params))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("parameter $%d is not used in the tool SQL", i),
					 errhint("Refer to the parameters as $1, $2, ... in the order of the parameter list, and list only those the statement uses.")));

	*writes = query->commandType != CMD_SELECT || query->hasModifyingCTE ||
		c.locks_rows;
	*calls_writer = OidIsValid(c.writing_function);
	switch (query->commandType)
	{
		case CMD_INSERT:
			return NAT_OP_INSERT;
		case CMD_UPDATE:
			return NAT_OP_UPDATE;
		case CMD_DELETE:
			return NAT_OP_DELETE;
		case CMD_SELECT:
			return c.locks_rows || query->hasModifyingCTE ? NAT_OP_EXECUTE : NAT_OP_SELECT;
		default:
			return NAT_OP_EXECUTE;
	}
}

/*
 * A boolean option's value (1 or 0).
 */
static int
bool_option(const char *key, JsonbValue *v)
{
	if (v->type != jbvBool)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("option \"%s\" must be a boolean", key)));
	return v->val.boolean ? 1 : 0;
}

/*
 * Options of a definition: read_only, max_rows, timeout (milliseconds, or
 * a string with a unit), destructive, idempotent, title; and with
 * function, ai_tool_from_function()'s name, description, parameters.
 */
static void
parse_options(Jsonb *options, bool function, DefineOptions *opts)
{
	NatJsonbKeys keys;
	const char *k;
	int			klen;
	JsonbValue	v;

	memset(opts, 0, sizeof(*opts));
	opts->read_only = opts->destructive = opts->idempotent = -1;
	if (!JB_ROOT_IS_OBJECT(options) || JB_ROOT_IS_SCALAR(options))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tool options must be a JSON object")));
	nat_jsonb_keys_begin(&keys, &options->root);
	while (nat_jsonb_next_key(&keys, &k, &klen, &v))
	{
		char	   *key = pnstrdup(k, klen);

		if (strcmp(key, "read_only") == 0)
			opts->read_only = bool_option(key, &v);
		else if (strcmp(key, "destructive") == 0)
			opts->destructive = bool_option(key, &v);
		else if (strcmp(key, "idempotent") == 0)
			opts->idempotent = bool_option(key, &v);
		else if (strcmp(key, "max_rows") == 0)
		{
			if (v.type != jbvNumeric ||
				!parse_int(nat_json_value_text(&v), &opts->max_rows, 0, NULL) ||
				opts->max_rows < 1)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("option \"max_rows\" must be a positive integer")));
		}
		else if (strcmp(key, "timeout") == 0)
		{
			const char *hint = NULL;
			int			ms;

			if ((v.type != jbvNumeric && v.type != jbvString) ||
				!parse_int(nat_json_value_text(&v), &ms, GUC_UNIT_MS, &hint) || ms < 1)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("option \"timeout\" must be a positive number of milliseconds or a time with a unit, such as \"5s\"")));
			opts->timeout_ms = ms;
		}
		else if (strcmp(key, "title") == 0 && v.type == jbvString)
			opts->title = pnstrdup(v.val.string.val, v.val.string.len);
		else if (function && strcmp(key, "name") == 0 && v.type == jbvString)
			opts->name = pnstrdup(v.val.string.val, v.val.string.len);
		else if (function && strcmp(key, "description") == 0 && v.type == jbvString)
			opts->description = pnstrdup(v.val.string.val, v.val.string.len);
		else if (function && strcmp(key, "parameters") == 0 && is_object(&v))
		{
			opts->parameters = palloc(sizeof(JsonbValue));
			*opts->parameters = v;
		}
		else
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unrecognized or invalid tool option \"%s\"", nat_clip(key)),
					 errhint(function ?
							 "Valid options are name, description, parameters (an object), read_only, max_rows, timeout, destructive, idempotent and title." :
							 "Valid options are read_only, max_rows, timeout, destructive, idempotent and title.")));
	}
	if (opts->title && nat_exceeds_chars(opts->title, strlen(opts->title), 200))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("option \"title\" is longer than 200 characters")));
}

/*
 * The options as stored: those given, read_only aside (a column).
 */
static Jsonb *
stored_options(const DefineOptions *opts)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	if (opts->title)
	{
		appendStringInfoString(&buf, "\"title\":");
		escape_json(&buf, opts->title);
	}
	if (opts->max_rows > 0)
		appendStringInfo(&buf, "%s\"max_rows\":%d", buf.len > 1 ? "," : "", opts->max_rows);
	if (opts->timeout_ms > 0)
		appendStringInfo(&buf, "%s\"timeout_ms\":%d", buf.len > 1 ? "," : "", opts->timeout_ms);
	if (opts->destructive >= 0)
		appendStringInfo(&buf, "%s\"destructive\":%s", buf.len > 1 ? "," : "",
						 opts->destructive ? "true" : "false");
	if (opts->idempotent >= 0)
		appendStringInfo(&buf, "%s\"idempotent\":%s", buf.len > 1 ? "," : "",
						 opts->idempotent ? "true" : "false");
	appendStringInfoChar(&buf, '}');
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}

/*
 * The kind of a writing statement, for a message.
 */
static const char *
statement_kind(NatOperation operation)
{
	switch (operation)
	{
		case NAT_OP_INSERT:
			return "an INSERT";
		case NAT_OP_UPDATE:
			return "an UPDATE";
		case NAT_OP_DELETE:
			return "a DELETE";
		default:
			return "a MERGE, or a query that modifies data or locks rows";
	}
}

/*
 * Check and store a definition; answer with its native catalog entry.
 */
static Jsonb *
define_tool(const char *name, const char *description, const char *sql,
			Jsonb *parameters, const DefineOptions *opts)
{
	CustomToolRow row;
	Oid		   *types;
	int			ntypes;
	bool		writes;
	bool		calls_writer;

	check_tool_name(name);
	check_description("tool description", description);
	row.parameters = normalize_params(parameters, &types, &ntypes);
	row.operation = check_statement(sql, types, ntypes, &writes, &calls_writer);
	if (opts->read_only == 1 && writes)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tool \"%s\" cannot be read-only: its statement writes", name),
				 errdetail("The statement is %s; a read-only tool runs in a read-only transaction.",
						   statement_kind(row.operation)),
				 errhint("Leave \"read_only\" out: the tool is then classified as writing.")));
	row.read_only = opts->read_only >= 0 ? opts->read_only == 1 : !(writes || calls_writer);
	row.name = (char *) name;
	row.description = (char *) description;
	row.sql = (char *) sql;
	row.options = stored_options(opts);
	nat_custom_tool_store(&row);
	return nat_tool_entry(nat_custom_tool(&row), "native");
}

/*
 * ai_tool_define(name, description, sql, parameters, options)
 */
Jsonb *
nat_define_tool(const char *name, const char *description, const char *sql,
				Jsonb *parameters, Jsonb *options)
{
	DefineOptions opts;

	parse_options(options, false, &opts);
	return define_tool(name, description, sql, parameters, &opts);
}

/*
 * ai_tool_drop(name, if_exists)
 */
void
nat_drop_tool(const char *name, bool if_exists)
{
	if (nat_custom_tool_delete(name))
		return;
	if (nat_builtin_tool(name))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("tool \"%s\" is a built-in tool and cannot be dropped", name),
				 errhint("Leave it out of neon_ai_tools.enabled_tools to hide it.")));
	if (!if_exists)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("custom tool \"%s\" does not exist", nat_clip(name))));
	ereport(NOTICE,
			(errmsg("custom tool \"%s\" does not exist, skipping", nat_clip(name))));
}

/*
 * The parameter spec of one argument of a function: name and type, plus
 * the keys options.parameters gives for it; optional when the function has
 * a default for it.
 */
static void
append_function_param(StringInfo buf, const char *argname, Oid argtype,
					  bool has_default, const DefineOptions *opts)
{
	JsonbValue *extra = NULL;

	appendStringInfoString(buf, "{\"name\":");
	escape_json(buf, argname);
	appendStringInfoString(buf, ",\"type\":");
	escape_json(buf, format_type_extended(argtype, -1, FORMAT_TYPE_FORCE_QUALIFY));
	if (has_default)
		appendStringInfoString(buf, ",\"required\":false");
	if (opts->parameters)
		extra = member(opts->parameters->val.binary.data, argname);
	if (extra && is_object(extra))
	{
		NatJsonbKeys keys;
		const char *k;
		int			klen;
		JsonbValue	v;

		nat_jsonb_keys_begin(&keys, extra->val.binary.data);
		while (nat_jsonb_next_key(&keys, &k, &klen, &v))
		{
			char	   *key = pnstrdup(k, klen);

			if (strcmp(key, "name") == 0 || strcmp(key, "type") == 0 ||
				strcmp(key, "required") == 0 || strcmp(key, "default") == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("option \"parameters\" cannot set \"%s\" of argument \"%s\": it comes from the function", key, argname)));
			appendStringInfoChar(buf, ',');
			escape_json(buf, key);
			appendStringInfoChar(buf, ':');
			append_value(buf, &v);
		}
	}
	else if (extra)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("option \"parameters\" must map argument names to objects")));
	appendStringInfoChar(buf, '}');
}

/*
 * Every name in options.parameters is an input argument's.
 */
static void
check_parameters_option(const DefineOptions *opts, char **argnames,
						char *argmodes, int nargs)
{
	NatJsonbKeys keys;
	const char *k;
	int			klen;
	JsonbValue	v;

	if (opts->parameters == NULL)
		return;
	nat_jsonb_keys_begin(&keys, opts->parameters->val.binary.data);
	while (nat_jsonb_next_key(&keys, &k, &klen, &v))
	{
		char	   *key = pnstrdup(k, klen);
		int			i;

		for (i = 0; i < nargs; i++)
			if (argnames && argnames[i] && strcmp(argnames[i], key) == 0 &&
				(argmodes == NULL || (argmodes[i] != PROARGMODE_OUT &&
									  argmodes[i] != PROARGMODE_TABLE)))
				break;
		if (i == nargs)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("option \"parameters\" names \"%s\", which is not an input argument of the function",
							nat_clip(key))));
	}
}

/*
 * ai_tool_from_function(function, options): a tool that calls the
 * function, SELECT * FROM f($1, ...), with a parameter for each input
 * argument (named, not variadic).  An argument with a default is optional:
 * absent (or null), the function's default expression applies.
 */
Jsonb *
nat_define_function_tool(Oid funcid, Jsonb *options)
{
	HeapTuple	tuple;
	Form_pg_proc proc;
	Oid		   *argtypes;
	char	  **argnames;
	char	   *argmodes;
	int			nargs;
	int			ninputs = 0;
	int			first_default;
	DefineOptions opts;
	StringInfoData params;
	StringInfoData sql;
	char	   *comment;

	parse_options(options, true, &opts);
	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tuple))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("function with OID %u does not exist", funcid)));
	proc = (Form_pg_proc) GETSTRUCT(tuple);
	if (proc->prokind != PROKIND_FUNCTION)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("%s is not a plain function", format_procedure(funcid)),
				 errhint("Procedures, aggregates and window functions cannot be tools; wrap them in a function.")));
	nargs = get_func_arg_info(tuple, &argtypes, &argnames, &argmodes);
	first_default = proc->pronargs - proc->pronargdefaults;

	initStringInfo(&params);
	initStringInfo(&sql);
	appendStringInfoChar(&params, '[');
	appendStringInfo(&sql, "SELECT * FROM %s(",
					 quote_qualified_identifier(get_namespace_name(proc->pronamespace),
												NameStr(proc->proname)));
	for (int i = 0; i < nargs; i++)
	{
		char		mode = argmodes ? argmodes[i] : PROARGMODE_IN;
		bool		has_default = ninputs >= first_default;

		if (mode == PROARGMODE_OUT || mode == PROARGMODE_TABLE)
			continue;
		if (mode == PROARGMODE_VARIADIC)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("function %s has a variadic argument", format_procedure(funcid)),
					 errhint("Wrap it in a function with a fixed argument list.")));
		if (argnames == NULL || argnames[i] == NULL || argnames[i][0] == '\0')
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("argument %d of function %s has no name", i + 1, format_procedure(funcid)),
					 errhint("Name the function's arguments: the names are the tool's parameters.")));
		if (ninputs > 0)
		{
			appendStringInfoChar(&params, ',');
			appendStringInfoString(&sql, ", ");
		}
		append_function_param(&params, argnames[i], argtypes[i], has_default, &opts);
		ninputs++;
		if (has_default)
		{
			Datum		dflt = DirectFunctionCall2(pg_get_function_arg_default,
												   ObjectIdGetDatum(funcid),
												   Int32GetDatum(i + 1));

			appendStringInfo(&sql, "coalesce($%d, %s)", ninputs, TextDatumGetCString(dflt));
		}
		else
			appendStringInfo(&sql, "$%d", ninputs);
	}
	appendStringInfoString(&params, "]");
	appendStringInfoChar(&sql, ')');
	check_parameters_option(&opts, argnames, argmodes, nargs);

	if (opts.description == NULL)
	{
		comment = GetComment(funcid, ProcedureRelationId, 0);
		if (comment == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("function %s has no comment to describe the tool", format_procedure(funcid)),
					 errhint("Add one with COMMENT ON FUNCTION, or pass \"description\" in the options.")));
		opts.description = comment;
	}
	if (opts.name == NULL)
		opts.name = pstrdup(NameStr(proc->proname));
	ReleaseSysCache(tuple);
	return define_tool(opts.name, opts.description, sql.data,
					   DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(params.data))),
					   &opts);
}
