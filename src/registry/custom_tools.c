/*-------------------------------------------------------------------------
 *
 * custom_tools.c
 *		  An administrator's tool (ai_tool_define()) as a tool like the
 *		  others.
 *
 * A stored definition (custom_store.c) becomes a ToolDef whose parameter
 * table is built from its parameter list, so the catalog renders its JSON
 * Schema (registry.c) and args.c validates its arguments by the same rules
 * as a built-in tool's.  Its planner is tools/custom_tool.c's, which the
 * module registers at load (nat_register_tools()): this layer does not
 * name the planners above it.
 *
 * IDENTIFICATION
 *		  src/registry/custom_tools.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "registry/registry.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"


/* the planner of every custom tool: tools/custom_tool.c's, registered */
static ToolPlanner custom_planner = NULL;

void
nat_register_custom_planner(ToolPlanner planner)
{
	custom_planner = planner;
}

/*
 * A member of a jsonb object, or NULL.
 */
static JsonbValue *
member(JsonbContainer *obj, const char *key)
{
	return getKeyJsonValueFromContainer(obj, key, strlen(key), NULL);
}

static char *
member_text(JsonbContainer *obj, const char *key)
{
	JsonbValue *v = member(obj, key);

	if (v == NULL || v->type != jbvString)
		return NULL;
	return pnstrdup(v->val.string.val, v->val.string.len);
}

static bool
member_bool(JsonbContainer *obj, const char *key, bool dflt)
{
	JsonbValue *v = member(obj, key);

	return (v && v->type == jbvBool) ? v->val.boolean : dflt;
}

static bool
member_int(JsonbContainer *obj, const char *key, int64 *result)
{
	JsonbValue *v = member(obj, key);

	if (v == NULL || v->type != jbvNumeric)
		return false;
	*result = DatumGetInt64(DirectFunctionCall1(numeric_int8,
												NumericGetDatum(v->val.numeric)));
	return true;
}

/*
 * A member's value as JSON text, or NULL.
 */
static char *
member_json(JsonbContainer *obj, const char *key)
{
	JsonbValue *v = member(obj, key);

	if (v == NULL)
		return NULL;
	return JsonbToCString(NULL, &JsonbValueToJsonb(v)->root, -1);
}

/*
 * The NAT_JSON_* bit of a JSON type's name; 0 for another name.
 */
static int
json_type_bit(const char *name, int len)
{
	static const struct
	{
		const char *name;
		int			bit;
	}			names[] = {
		{"string", NAT_JSON_STRING}, {"integer", NAT_JSON_INTEGER},
		{"number", NAT_JSON_NUMBER}, {"boolean", NAT_JSON_BOOLEAN},
		{"object", NAT_JSON_OBJECT}, {"array", NAT_JSON_ARRAY},
	};

	for (int j = 0; j < lengthof(names); j++)
		if (strlen(names[j].name) == len && memcmp(names[j].name, name, len) == 0)
			return names[j].bit;
	return 0;
}

/*
 * The NAT_JSON_* mask of the stored json_types names.
 */
static int
json_types_mask(JsonbContainer *obj)
{
	JsonbValue *types = member(obj, "json_types");
	int			mask = 0;

	if (types == NULL || types->type != jbvBinary)
		return NAT_JSON_STRING;
	for (int i = 0; i < JsonContainerSize(types->val.binary.data); i++)
	{
		JsonbValue *t = getIthJsonbValueFromContainer(types->val.binary.data, i);

		if (t->type == jbvString)
			mask |= json_type_bit(t->val.string.val, t->val.string.len);
	}
	return mask ? mask : NAT_JSON_STRING;
}

/*
 * The enum's strings, NULL-terminated, or NULL.
 */
static const char *const *
enum_values(JsonbContainer *obj)
{
	JsonbValue *e = member(obj, "enum");
	const char **values;
	int			n;

	if (e == NULL || e->type != jbvBinary)
		return NULL;
	n = JsonContainerSize(e->val.binary.data);
	values = palloc0(sizeof(char *) * (n + 1));
	for (int i = 0; i < n; i++)
	{
		JsonbValue *v = getIthJsonbValueFromContainer(e->val.binary.data, i);

		values[i] = v->type == jbvString ?
			pnstrdup(v->val.string.val, v->val.string.len) : "";
	}
	return values;
}

/*
 * One parameter row from its stored spec.
 */
static void
param_from_spec(ToolParam *param, JsonbContainer *spec, int index,
				CustomTool *tool)
{
	int64		n;
	JsonbValue *dflt;

	param->name = member_text(spec, "name");
	param->decode = NAT_DECODE_JSON;
	param->offset = CUSTOM_ARG_OFFSET(index);
	param->types = json_types_mask(spec);
	param->required = member_bool(spec, "required", true);
	param->description = member_text(spec, "description");
	param->enum_values = enum_values(spec);
	if ((param->has_minimum = member_int(spec, "minimum", &n)))
		param->minimum = n;
	if ((param->has_maximum = member_int(spec, "maximum", &n)))
		param->maximum = n;
	if (member_int(spec, "maxLength", &n))
		param->max_length = (int) n;
	if (member_int(spec, "maxItems", &n))
		param->max_items = (int) n;
	param->default_json = member_json(spec, "default");
	param->examples_json = member_json(spec, "examples");
	if (param->types & NAT_JSON_ARRAY)
	{
		char	   *items = member_text(spec, "json_items");

		param->items = NAT_ITEMS_VALUE;
		if (items)
			param->items_type = json_type_bit(items, strlen(items));
	}

	/*
	 * Nothing an agent sends is taken without bound: strings and arrays the
	 * definition does not limit get the limits of execute_sql's sql and
	 * params, shown in the schema like any other (an enum needs none).
	 */
	if ((param->types & NAT_JSON_STRING) && param->max_length == 0 &&
		param->enum_values == NULL)
		param->max_length = NAT_MAX_SQL;
	if ((param->types & NAT_JSON_ARRAY) && param->max_items == 0)
		param->max_items = NAT_MAX_PARAMS;

	tool->type_names[index] = member_text(spec, "type");
	dflt = member(spec, "default");
	tool->defaults[index] = dflt;
}

/*
 * The tool a stored definition describes, in the current memory context.
 */
const ToolDef *
nat_custom_tool(const CustomToolRow *row)
{
	CustomTool *tool = palloc0(sizeof(CustomTool));
	JsonbContainer *params = &row->parameters->root;
	JsonbContainer *options = &row->options->root;
	int			nparams = JsonContainerSize(params);
	ToolParam  *rows = palloc0(sizeof(ToolParam) * Max(nparams, 1));
	char	   *title = member_text(options, "title");
	int64		n;

	tool->type_names = palloc0(sizeof(char *) * Max(nparams, 1));
	tool->defaults = palloc0(sizeof(JsonbValue *) * Max(nparams, 1));
	for (int i = 0; i < nparams; i++)
	{
		JsonbValue *spec = getIthJsonbValueFromContainer(params, i);

		if (spec->type != jbvBinary || !JsonContainerIsObject(spec->val.binary.data))
			elog(ERROR, "custom tool \"%s\" has a malformed parameter list", row->name);
		param_from_spec(&rows[i], spec->val.binary.data, i, tool);
	}

	tool->def.name = row->name;
	tool->def.title = title ? title : row->name;
	tool->def.description = row->description;
	tool->def.operation = row->operation;
	tool->def.params = rows;
	tool->def.nparams = nparams;
	tool->def.args_size = CUSTOM_ARG_OFFSET(nparams);
	tool->def.read_only = row->read_only;
	tool->def.writes = !row->read_only;
	tool->def.destructive = member_bool(options, "destructive", !row->read_only);
	tool->def.idempotent = member_bool(options, "idempotent", row->read_only);
	Assert(custom_planner != NULL);
	tool->def.plan = custom_planner;
	tool->def.custom = true;
	if (member_int(options, "max_rows", &n))
		tool->def.max_rows = (int) n;
	if (member_int(options, "timeout_ms", &n))
		tool->def.timeout_ms = (int) n;
	tool->sql = row->sql;
	return &tool->def;
}

/*
 * The custom tool called name, or NULL.
 */
const ToolDef *
nat_find_custom_tool(const char *name)
{
	List	   *rows;

	/* no custom tool has a longer name: do not look (nor copy it) */
	if (strlen(name) > NAT_MAX_TOOL_NAME)
		return NULL;
	rows = nat_custom_tool_rows(name);
	return rows == NIL ? NULL : nat_custom_tool(linitial(rows));
}

/*
 * Every custom tool (const ToolDef *), in name order.
 */
List *
nat_custom_tools(void)
{
	List	   *tools = NIL;
	ListCell   *lc;

	foreach(lc, nat_custom_tool_rows(NULL))
		tools = lappend(tools, (void *) nat_custom_tool(lfirst(lc)));
	return tools;
}
