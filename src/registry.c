/*-------------------------------------------------------------------------
 *
 * registry.c
 *		  The tools, and the catalog that ai_tool_list() renders.
 *
 * Each tool is a static ToolDef (defined next to its handler, in
 * tool_*.c) whose ToolParam table generates the JSON Schema here and
 * drives argument validation in args.c.  Maxima tied to settings (limit,
 * timeout_ms) are rendered with the caller's effective values.
 *
 * The catalog is assembled as JSON text and parsed once into jsonb: it is
 * small, nested and built only when asked for.
 *
 * IDENTIFICATION
 *		  src/registry.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "neon_ai_tools.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"

/* every tool, in catalog order */
static const ToolDef *const all_tools[] = {
	&nat_tool_select_query,
	&nat_tool_insert_data,
	&nat_tool_update_data,
	&nat_tool_delete_data,
	&nat_tool_execute_sql,
	&nat_tool_explain_query,
	&nat_tool_list_tables,
	&nat_tool_describe_table,
};

/*
 * The tool called name, or NULL.
 */
const ToolDef *
nat_find_tool(const char *name)
{
	int			i;

	for (i = 0; i < lengthof(all_tools); i++)
	{
		if (strcmp(all_tools[i]->name, name) == 0)
			return all_tools[i];
	}
	return NULL;
}

/*
 * Does the tool take an argument called name?
 */
bool
nat_tool_has_param(const ToolDef *tool, const char *name)
{
	int			i;

	for (i = 0; i < tool->nparams; i++)
		if (strcmp(tool->params[i].name, name) == 0)
			return true;
	return false;
}

/*
 * Is the tool available to the caller right now?  The write tools are not
 * in read-only mode, nor on a hot standby (recovery in progress), where
 * nothing can be written.
 */
bool
nat_tool_available(const ToolDef *tool)
{
	if (tool->writes && (nat_read_only || RecoveryInProgress()))
		return false;
	return nat_tool_enabled(tool->name);
}

/*
 * The name of the available tool closest to name, or NULL.
 */
const char *
nat_closest_tool_name(const char *name)
{
	const char *names[lengthof(all_tools)];
	int			n = 0;
	int			i;

	for (i = 0; i < lengthof(all_tools); i++)
		if (nat_tool_available(all_tools[i]))
			names[n++] = all_tools[i]->name;
	return nat_closest_word(name, names, n);
}

/*
 * The names of the available tools, comma-separated.
 */
char *
nat_available_tool_names(void)
{
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	for (i = 0; i < lengthof(all_tools); i++)
		if (nat_tool_available(all_tools[i]))
			appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "", all_tools[i]->name);
	return buf.data;
}

static void
append_json_key(StringInfo buf, const char *key, bool *first)
{
	if (!*first)
		appendStringInfoChar(buf, ',');
	*first = false;
	escape_json(buf, key);
	appendStringInfoChar(buf, ':');
}

/*
 * "type": "string" or "type": ["object", "string"]
 */
static void
append_schema_type(StringInfo buf, int types)
{
	static const struct
	{
		int			bit;
		const char *name;
	}			names[] = {
		{NAT_JSON_ARRAY, "array"},
		{NAT_JSON_BOOLEAN, "boolean"},
		{NAT_JSON_INTEGER, "integer"},
		{NAT_JSON_NUMBER, "number"},
		{NAT_JSON_OBJECT, "object"},
		{NAT_JSON_STRING, "string"},
	};
	int			n = 0;
	int			i;

	/* a number parameter accepts integers too */
	if (types & NAT_JSON_NUMBER)
		types &= ~NAT_JSON_INTEGER;
	for (i = 0; i < lengthof(names); i++)
		if (types & names[i].bit)
			n++;
	if (n > 1)
		appendStringInfoChar(buf, '[');
	n = 0;
	for (i = 0; i < lengthof(names); i++)
	{
		if (types & names[i].bit)
		{
			if (n++ > 0)
				appendStringInfoChar(buf, ',');
			escape_json(buf, names[i].name);
		}
	}
	if (n > 1)
		appendStringInfoChar(buf, ']');
}

/*
 * The JSON Schema of one parameter.
 */
static void
append_param_schema(StringInfo buf, const ToolParam *param)
{
	bool		first = true;
	int64		maximum;

	appendStringInfoChar(buf, '{');
	append_json_key(buf, "type", &first);
	append_schema_type(buf, param->types);
	append_json_key(buf, "description", &first);
	escape_json(buf, param->description);
	if (param->enum_values)
	{
		int			i;

		append_json_key(buf, "enum", &first);
		appendStringInfoChar(buf, '[');
		for (i = 0; param->enum_values[i]; i++)
		{
			if (i > 0)
				appendStringInfoChar(buf, ',');
			escape_json(buf, param->enum_values[i]);
		}
		appendStringInfoChar(buf, ']');
	}
	if (param->has_minimum)
	{
		append_json_key(buf, "minimum", &first);
		appendStringInfo(buf, INT64_FORMAT, param->minimum);
	}
	maximum = param->has_maximum ? param->maximum : PG_INT64_MAX;
	if (param->maximum_setting)
		maximum = Min(maximum, (int64) *param->maximum_setting);
	if (param->has_maximum || param->maximum_setting)
	{
		append_json_key(buf, "maximum", &first);
		appendStringInfo(buf, INT64_FORMAT, maximum);
	}
	if ((param->types & NAT_JSON_STRING) && param->max_length > 0)
	{
		append_json_key(buf, "maxLength", &first);
		appendStringInfo(buf, "%d", param->max_length);
	}
	if ((param->types & NAT_JSON_ARRAY) &&
		(param->max_items > 0 || param->max_items_setting))
	{
		int			max_items = param->max_items;

		/* the value in force for the caller, as for maximum */
		if (param->max_items_setting &&
			(max_items == 0 || *param->max_items_setting < max_items))
			max_items = *param->max_items_setting;
		append_json_key(buf, "maxItems", &first);
		appendStringInfo(buf, "%d", max_items);
	}
	if ((param->types & NAT_JSON_OBJECT) && param->max_properties > 0)
	{
		append_json_key(buf, "maxProperties", &first);
		appendStringInfo(buf, "%d", param->max_properties);
	}
	if (param->default_setting)
	{
		/* the default in force for the caller, as the call applies it */
		append_json_key(buf, "default", &first);
		appendStringInfo(buf, INT64_FORMAT, Min((int64) *param->default_setting, maximum));
	}
	else if (param->default_json)
	{
		append_json_key(buf, "default", &first);
		appendStringInfoString(buf, param->default_json);
	}
	if (param->examples_json)
	{
		append_json_key(buf, "examples", &first);
		appendStringInfoString(buf, param->examples_json);
	}
	if (param->items_schema)
	{
		append_json_key(buf, "items", &first);
		appendStringInfoString(buf, param->items_schema);
	}
	if (param->object_schema)
	{
		appendStringInfoChar(buf, ',');
		appendStringInfoString(buf, param->object_schema);
	}
	appendStringInfoChar(buf, '}');
}

/*
 * The JSON Schema of a tool's arguments.
 */
static void
append_parameters_schema(StringInfo buf, const ToolDef *tool)
{
	int			i;
	int			nrequired = 0;

	appendStringInfoString(buf, "{\"type\":\"object\",\"properties\":{");
	for (i = 0; i < tool->nparams; i++)
	{
		if (i > 0)
			appendStringInfoChar(buf, ',');
		escape_json(buf, tool->params[i].name);
		appendStringInfoChar(buf, ':');
		append_param_schema(buf, &tool->params[i]);
	}
	appendStringInfoString(buf, "},\"required\":[");
	for (i = 0; i < tool->nparams; i++)
	{
		if (!tool->params[i].required)
			continue;
		if (nrequired++ > 0)
			appendStringInfoChar(buf, ',');
		escape_json(buf, tool->params[i].name);
	}
	appendStringInfoString(buf, "],\"additionalProperties\":false}");
}

/*
 * MCP tool annotations, honest for every tool.
 */
static void
append_annotations(StringInfo buf, const ToolDef *tool)
{
	appendStringInfoString(buf, "{\"title\":");
	escape_json(buf, tool->title);
	appendStringInfo(buf,
					 ",\"readOnlyHint\":%s,\"destructiveHint\":%s,"
					 "\"idempotentHint\":%s,\"openWorldHint\":false}",
					 tool->read_only ? "true" : "false",
					 tool->destructive ? "true" : "false",
					 tool->idempotent ? "true" : "false");
}

/*
 * One catalog entry in the requested format.
 */
static void
append_tool_entry(StringInfo buf, const ToolDef *tool, const char *format)
{
	StringInfoData name;
	StringInfoData title;
	StringInfoData description;
	StringInfoData parameters;
	StringInfoData annotations;

	initStringInfo(&name);
	escape_json(&name, tool->name);
	initStringInfo(&title);
	escape_json(&title, tool->title);
	initStringInfo(&description);
	escape_json(&description, tool->description);
	initStringInfo(&parameters);
	append_parameters_schema(&parameters, tool);
	initStringInfo(&annotations);
	append_annotations(&annotations, tool);

	if (strcmp(format, "openai") == 0)
		appendStringInfo(buf,
						 "{\"type\":\"function\",\"function\":{\"name\":%s,\"description\":%s,\"parameters\":%s}}",
						 name.data, description.data, parameters.data);
	else if (strcmp(format, "anthropic") == 0)
		appendStringInfo(buf,
						 "{\"name\":%s,\"description\":%s,\"input_schema\":%s}",
						 name.data, description.data, parameters.data);
	else if (strcmp(format, "mcp") == 0)
		appendStringInfo(buf,
						 "{\"name\":%s,\"title\":%s,\"description\":%s,\"inputSchema\":%s,\"annotations\":%s}",
						 name.data, title.data, description.data, parameters.data,
						 annotations.data);
	else
		appendStringInfo(buf,
						 "{\"name\":%s,\"title\":%s,\"description\":%s,\"parameters\":%s,\"annotations\":%s}",
						 name.data, title.data, description.data, parameters.data,
						 annotations.data);
}

/*
 * The catalog of the tools available to the caller, in format "native",
 * "openai", "anthropic" or "mcp".
 */
Jsonb *
nat_tool_catalog(const char *format)
{
	StringInfoData buf;
	int			i;
	int			n = 0;

	if (strcmp(format, "native") != 0 && strcmp(format, "openai") != 0 &&
		strcmp(format, "anthropic") != 0 && strcmp(format, "mcp") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unrecognized tool catalog format \"%s\"", format),
				 errhint("Valid formats are \"native\", \"openai\", \"anthropic\" and \"mcp\".")));

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (i = 0; i < lengthof(all_tools); i++)
	{
		if (!nat_tool_available(all_tools[i]))
			continue;
		if (n++ > 0)
			appendStringInfoChar(&buf, ',');
		append_tool_entry(&buf, all_tools[i], format);
	}
	appendStringInfoChar(&buf, ']');
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}
