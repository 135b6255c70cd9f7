/*-------------------------------------------------------------------------
 *
 * registry.c
 *		  The tools, and the catalog that ai_tool_list() renders.
 *
 * Each built-in tool is a static ToolDef (defined next to its planner, in
 * tools/) whose ToolParam table generates the JSON Schema here and drives
 * argument validation in args.c.  Custom tools (ai_tool_define()) are
 * ToolDefs built from their stored definitions when asked for
 * (tools/custom_tool.c), after the built-ins in the catalog, by name.  Maxima tied to settings (limit,
 * timeout_ms) are rendered with the caller's effective values.
 *
 * The catalog is assembled as JSON text and parsed once into jsonb: it is
 * small, nested and built only when asked for.
 *
 * IDENTIFICATION
 *		  src/core/registry.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "envelope_schema.h"
#include "registry/registry.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"

/*
 * The built-in tools, in catalog order, and the custom tools' planner: the
 * tools/ layer above defines them and the module registers them at load
 * (entry/neon_ai_tools.c), so this table names no planner itself.
 */
static const ToolDef *const *builtin_tools = NULL;
static int	n_builtin_tools = 0;

void
nat_register_tools(const ToolDef *const *tools, int ntools,
				   ToolPlanner custom_tool_planner)
{
	builtin_tools = tools;
	n_builtin_tools = ntools;
	nat_register_custom_planner(custom_tool_planner);
}

/*
 * The built-in tool called name, or NULL.
 */
const ToolDef *
nat_builtin_tool(const char *name)
{
	int			i;

	for (i = 0; i < n_builtin_tools; i++)
	{
		if (strcmp(builtin_tools[i]->name, name) == 0)
			return builtin_tools[i];
	}
	return NULL;
}

/*
 * The tool called name, built-in or custom (custom_tool.c), or NULL.
 */
const ToolDef *
nat_find_tool(const char *name)
{
	const ToolDef *tool = nat_builtin_tool(name);

	return tool ? tool : nat_find_custom_tool(name);
}

/*
 * Every tool (const ToolDef *), in catalog order: the built-in tools, then
 * the custom tools by name.
 */
static List *
every_tool(void)
{
	List	   *tools = NIL;
	int			i;

	ListCell   *lc;

	for (i = 0; i < n_builtin_tools; i++)
		tools = lappend(tools, (void *) builtin_tools[i]);
	/* a custom tool named like a built-in of a later version is shadowed */
	foreach(lc, nat_custom_tools())
	{
		if (nat_builtin_tool(((const ToolDef *) lfirst(lc))->name) == NULL)
			tools = lappend(tools, lfirst(lc));
	}
	return tools;
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
 * The tools available to the caller (const ToolDef *), in catalog order.
 */
List *
nat_available_tools(void)
{
	List	   *tools = NIL;
	ListCell   *lc;

	foreach(lc, every_tool())
	{
		if (nat_tool_available(lfirst(lc)))
			tools = lappend(tools, lfirst(lc));
	}
	return tools;
}

/*
 * The names of the available tools, comma-separated.
 */
char *
nat_available_tool_names(void)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, every_tool())
	{
		if (nat_tool_available(lfirst(lc)))
			appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "",
							 ((const ToolDef *) lfirst(lc))->name);
	}
	return buf.data;
}

/*
 * How one catalog format writes the schemas.  The parameter tables are the
 * one source; each format renders what its provider accepts (README,
 * "Tool catalog formats").
 */
typedef struct CatalogFormat
{
	const char *name;
	bool		type_lists;		/* two shapes as "type": [a, b]; else anyOf */
	bool		closed;			/* no open objects: where as SQL text, column
								 * values as {column, value} pairs */
	bool		strict;			/* OpenAI structured outputs: every property
								 * required (null: absent), only the keywords
								 * strict mode supports */
	bool		openapi;		/* Gemini's Schema (OpenAPI subset): no
								 * additionalProperties, no null type; its
								 * Type enum's upper-case names, int64 sizes
								 * as strings (@google/genai's types) */
	bool		examples;		/* examples of each parameter */
	bool		compact;		/* option compact: first sentences only, no
								 * examples (set by nat_tool_catalog) */
} CatalogFormat;

static const CatalogFormat catalog_formats[] = {
	{"native", true, false, false, false, true},
	{"openai", false, false, false, false, true},
	{"openai_strict", false, true, true, false, false},
	{"anthropic", false, false, false, false, true},
	{"mcp", false, false, false, false, true},
	{"gemini", false, true, false, true, false},
};

/* a scalar bound to a placeholder or stored in a column */
#define SCALAR_ANYOF \
	"{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"number\"},{\"type\":\"boolean\"},{\"type\":\"null\"}]}"
#define SCALAR_STRICT \
	"{\"type\":[\"string\",\"number\",\"boolean\",\"null\"]}"
#define SCALAR_OPENAPI \
	"{\"anyOf\":[{\"type\":\"STRING\"},{\"type\":\"NUMBER\"},{\"type\":\"BOOLEAN\"}],\"nullable\":true}"

/* any value: a scalar, an array of scalars, or (open formats) an object */
#define VALUE_ANYOF \
	"{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"number\"},{\"type\":\"boolean\"},{\"type\":\"null\"}," \
	"{\"type\":\"array\",\"items\":" SCALAR_ANYOF "},{\"type\":\"object\"}]}"
#define VALUE_STRICT \
	"{\"anyOf\":[" SCALAR_STRICT ",{\"type\":\"array\",\"items\":" SCALAR_STRICT "}]}"
#define VALUE_OPENAPI \
	"{\"anyOf\":[{\"type\":\"STRING\"},{\"type\":\"NUMBER\"},{\"type\":\"BOOLEAN\"}," \
	"{\"type\":\"ARRAY\",\"items\":" SCALAR_OPENAPI "}],\"nullable\":true}"

/* one column's value, where an object of column values cannot be declared */
#define PAIR_STRICT \
	"{\"type\":\"object\",\"properties\":{\"column\":{\"type\":\"string\"},\"value\":" VALUE_STRICT "}," \
	"\"required\":[\"column\",\"value\"],\"additionalProperties\":false}"
#define PAIR_OPENAPI \
	"{\"type\":\"OBJECT\",\"properties\":{\"column\":{\"type\":\"STRING\"},\"value\":" VALUE_OPENAPI "}," \
	"\"required\":[\"column\",\"value\"]}"

/* a column name in a list: NAT_MAX_IDENTIFIER at most */
#define COLUMN_ITEM "{\"type\":\"string\",\"minLength\":1,\"maxLength\":63}"
#define COLUMN_ITEM_OPENAPI "{\"type\":\"STRING\",\"minLength\":\"1\",\"maxLength\":\"63\"}"

/* a sort key */
#define SORT_KEY \
	"{\"type\":\"object\",\"properties\":{\"column\":" COLUMN_ITEM "," \
	"\"direction\":{\"type\":\"string\",\"enum\":[\"asc\",\"desc\"],\"default\":\"asc\"}," \
	"\"nulls\":{\"type\":\"string\",\"enum\":[\"first\",\"last\"]}},\"required\":[\"column\"]," \
	"\"additionalProperties\":false}"
#define SORT_KEY_OPENAPI \
	"{\"type\":\"OBJECT\",\"properties\":{\"column\":" COLUMN_ITEM_OPENAPI "," \
	"\"direction\":{\"type\":\"STRING\",\"enum\":[\"asc\",\"desc\"],\"default\":\"asc\"}," \
	"\"nulls\":{\"type\":\"STRING\",\"enum\":[\"first\",\"last\"]}},\"required\":[\"column\"]}"
#define SORT_KEY_STRICT \
	"{\"type\":\"object\",\"properties\":{\"column\":{\"type\":\"string\"}," \
	"\"direction\":{\"type\":[\"string\",\"null\"],\"enum\":[\"asc\",\"desc\",null]}," \
	"\"nulls\":{\"type\":[\"string\",\"null\"],\"enum\":[\"first\",\"last\",null]}}," \
	"\"required\":[\"column\",\"direction\",\"nulls\"],\"additionalProperties\":false}"

/* a bit beside NAT_JSON_*: an object of column values written as pairs */
#define PAIRS_SHAPE 0x10000

/*
 * The items schema of an array parameter in a format.
 */
static const char *
items_schema(int items, const CatalogFormat *fmt)
{
	switch (items)
	{
		case NAT_ITEMS_COLUMN:
			return fmt->strict ? "{\"type\":\"string\"}" :
				fmt->openapi ? COLUMN_ITEM_OPENAPI : COLUMN_ITEM;
		case NAT_ITEMS_SORT_KEY:
			if (fmt->strict)
				return SORT_KEY_STRICT;
			return fmt->openapi ? SORT_KEY_OPENAPI : SORT_KEY;
		case NAT_ITEMS_ROW:
			/* a row of column values: an open object, or a list of pairs */
			if (fmt->strict)
				return "{\"type\":\"array\",\"items\":" PAIR_STRICT "}";
			if (fmt->openapi)
				return "{\"type\":\"ARRAY\",\"items\":" PAIR_OPENAPI "}";
			return "{\"type\":\"object\",\"maxProperties\":" CppAsString2(NAT_MAX_SET_COLUMNS) "}";
		case NAT_ITEMS_VALUE:
			return fmt->strict ? VALUE_STRICT : fmt->openapi ? VALUE_OPENAPI : VALUE_ANYOF;
	}
	return NULL;
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
 * A size keyword (maxLength, maxItems, ...): a number, or in Gemini's
 * Schema a string (int64 in the API's JSON, string in the SDK's types).
 */
static void
append_size_keyword(StringInfo buf, const char *key, int64 value,
					const CatalogFormat *fmt, bool *first)
{
	append_json_key(buf, key, first);
	appendStringInfo(buf, fmt->openapi ? "\"" INT64_FORMAT "\"" : INT64_FORMAT, value);
}

/* each JSON type's name, and its name in Gemini's Type enum */
static const struct
{
	int			bit;
	const char *name;
	const char *openapi_name;
}			type_names[] = {
	{NAT_JSON_ARRAY, "array", "ARRAY"},
	{NAT_JSON_BOOLEAN, "boolean", "BOOLEAN"},
	{NAT_JSON_INTEGER, "integer", "INTEGER"},
	{NAT_JSON_NUMBER, "number", "NUMBER"},
	{NAT_JSON_OBJECT, "object", "OBJECT"},
	{NAT_JSON_STRING, "string", "STRING"},
	{PAIRS_SHAPE, "array", "ARRAY"},
};

/*
 * "type": "string", or "type": ["object", "string"], with "null" added for
 * a nullable strict parameter; "type": "STRING" in Gemini's Schema.
 */
static void
append_schema_type(StringInfo buf, int types, bool nullable,
				   const CatalogFormat *fmt)
{
	int			n = 0;
	int			i;

	for (i = 0; i < lengthof(type_names); i++)
		if (types & type_names[i].bit)
			n++;
	if (n + nullable > 1)
		appendStringInfoChar(buf, '[');
	n = 0;
	for (i = 0; i < lengthof(type_names); i++)
	{
		if (types & type_names[i].bit)
		{
			if (n++ > 0)
				appendStringInfoChar(buf, ',');
			escape_json(buf, fmt->openapi ? type_names[i].openapi_name :
						type_names[i].name);
		}
	}
	if (nullable)
		appendStringInfoString(buf, ",\"null\"");
	if (n + nullable > 1)
		appendStringInfoChar(buf, ']');
}

/*
 * The effective maximum of an integer parameter (PG_INT64_MAX: none).
 */
static int64
param_maximum(const ToolParam *param)
{
	int64		maximum = param->has_maximum ? param->maximum : PG_INT64_MAX;

	if (param->maximum_setting)
		maximum = Min(maximum, (int64) *param->maximum_setting);
	return maximum;
}

/*
 * The keywords that apply to the shapes in types (for a single shape, or
 * for a type list; an anyOf branch has one shape).
 */
static void
append_type_keywords(StringInfo buf, const ToolParam *param, int types,
					 const CatalogFormat *fmt, bool nullable, bool *first)
{
	if ((types & NAT_JSON_STRING) && param->enum_values)
	{
		int			i;

		append_json_key(buf, "enum", first);
		appendStringInfoChar(buf, '[');
		for (i = 0; param->enum_values[i]; i++)
		{
			if (i > 0)
				appendStringInfoChar(buf, ',');
			escape_json(buf, param->enum_values[i]);
		}
		/* a nullable enum lists null too, or null would be refused */
		if (nullable)
			appendStringInfoString(buf, ",null");
		appendStringInfoChar(buf, ']');
	}
	if (types & (NAT_JSON_INTEGER | NAT_JSON_NUMBER))
	{
		if (param->has_minimum)
		{
			append_json_key(buf, "minimum", first);
			appendStringInfo(buf, INT64_FORMAT, param->minimum);
		}
		if (param->has_maximum || param->maximum_setting)
		{
			append_json_key(buf, "maximum", first);
			appendStringInfo(buf, INT64_FORMAT, param_maximum(param));
		}
	}
	/* strict mode supports no string length keywords */
	if ((types & NAT_JSON_STRING) && param->max_length > 0 && !fmt->strict)
	{
		append_size_keyword(buf, "maxLength", param->max_length, fmt, first);
	}
	if ((types & NAT_JSON_ARRAY) &&
		(param->max_items > 0 || param->max_items_setting))
	{
		int			max_items = param->max_items;

		/* the value in force for the caller, as for maximum */
		if (param->max_items_setting &&
			(max_items == 0 || *param->max_items_setting < max_items))
			max_items = *param->max_items_setting;
		append_size_keyword(buf, "maxItems", max_items, fmt, first);
	}
	if ((types & NAT_JSON_ARRAY) && param->items_type)
	{
		append_json_key(buf, "items", first);
		appendStringInfoString(buf, "{\"type\":");
		append_schema_type(buf, param->items_type, false, fmt);
		appendStringInfoChar(buf, '}');
	}
	else if ((types & NAT_JSON_ARRAY) && param->items != NAT_ITEMS_NONE)
	{
		append_json_key(buf, "items", first);
		appendStringInfoString(buf, items_schema(param->items, fmt));
	}
	if ((types & NAT_JSON_OBJECT) && param->max_properties > 0)
	{
		append_size_keyword(buf, "maxProperties", param->max_properties, fmt, first);
	}
	if (types & PAIRS_SHAPE)
	{
		append_size_keyword(buf, "maxItems", param->max_properties, fmt, first);
		append_json_key(buf, "items", first);
		appendStringInfoString(buf, fmt->strict ? PAIR_STRICT : PAIR_OPENAPI);
	}
}

/* a compact description is at least this long, unless the full one is not */
#define COMPACT_DESCRIPTION_MIN 40

/*
 * The first sentence of a description, for the compact catalog: up to the
 * first ". " that does not end an abbreviation (e.g., i.e.) or an ellipsis,
 * or the first
 * two when the first is too short to say anything ("Which rows to
 * return.").
 */
static const char *
first_sentence(const char *description)
{
	const char *p;

	for (p = description; (p = strstr(p, ". ")) != NULL; p++)
	{
		if ((p - description >= 3 && strncmp(p - 3, "e.g", 3) == 0) ||
			(p - description >= 3 && strncmp(p - 3, "i.e", 3) == 0) ||
			(p > description && p[-1] == '.') ||
			p - description < COMPACT_DESCRIPTION_MIN)
			continue;
		return pnstrdup(description, p - description + 1);
	}
	return description;
}

/*
 * The JSON Schema of one parameter.
 */
static void
append_param_schema(StringInfo buf, const ToolParam *param, const CatalogFormat *fmt)
{
	bool		first = true;
	int			types = param->types;
	bool		nullable = fmt->strict && !param->required;
	const char *description = param->description;
	StringInfoData dflt;
	int			n = 0;
	int			i;

	/* a number parameter accepts integers too */
	if (types & NAT_JSON_NUMBER)
		types &= ~NAT_JSON_INTEGER;

	/*
	 * Without open objects: an object of column values becomes a list of
	 * pairs; a second shape beside the object (where's SQL text, rows' list
	 * of rows) is the one declared.  The tools still take every shape.
	 */
	if (fmt->closed && (types & NAT_JSON_OBJECT))
	{
		types &= ~NAT_JSON_OBJECT;
		if (types == 0 && param->pairs)
			types = PAIRS_SHAPE;
		if (param->closed_description)
			description = param->closed_description;
	}
	if (fmt->compact)
		description = first_sentence(description);
	for (i = 0; i < lengthof(type_names); i++)
		if (types & type_names[i].bit)
			n++;

	/* the default in force for the caller, as the call applies it */
	initStringInfo(&dflt);
	if (param->default_setting)
		appendStringInfo(&dflt, INT64_FORMAT,
						 Min((int64) *param->default_setting, param_maximum(param)));
	else if (param->default_enum_setting)
		escape_json(&dflt, param->enum_values[*param->default_enum_setting]);
	else if (param->default_json)
		appendStringInfoString(&dflt, param->default_json);

	appendStringInfoChar(buf, '{');
	append_json_key(buf, "description", &first);
	if (fmt->strict && dflt.len > 0)
		escape_json(buf, psprintf("%s Default (null): %s.", description, dflt.data));
	else
		escape_json(buf, description);

	if (n == 1 || fmt->type_lists)
	{
		append_json_key(buf, "type", &first);
		append_schema_type(buf, types, nullable, fmt);
		append_type_keywords(buf, param, types, fmt, nullable, &first);
	}
	else
	{
		/* one branch a shape, each with its own keywords */
		append_json_key(buf, "anyOf", &first);
		appendStringInfoChar(buf, '[');
		n = 0;
		for (i = 0; i < lengthof(type_names); i++)
		{
			bool		bfirst = true;

			if (!(types & type_names[i].bit))
				continue;
			if (n++ > 0)
				appendStringInfoChar(buf, ',');
			appendStringInfoChar(buf, '{');
			append_json_key(buf, "type", &bfirst);
			append_schema_type(buf, type_names[i].bit, false, fmt);
			append_type_keywords(buf, param, type_names[i].bit, fmt, false, &bfirst);
			appendStringInfoChar(buf, '}');
		}
		if (nullable)
			appendStringInfoString(buf, ",{\"type\":\"null\"}");
		appendStringInfoChar(buf, ']');
	}
	if (dflt.len > 0 && !fmt->strict)
	{
		append_json_key(buf, "default", &first);
		appendStringInfoString(buf, dflt.data);
	}
	if (param->examples_json && fmt->examples)
	{
		append_json_key(buf, "examples", &first);
		appendStringInfoString(buf, param->examples_json);
	}
	appendStringInfoChar(buf, '}');
}

/*
 * The JSON Schema of a tool's arguments.
 */
static void
append_parameters_schema(StringInfo buf, const ToolDef *tool, const CatalogFormat *fmt)
{
	int			i;
	int			nrequired = 0;

	appendStringInfo(buf, "{\"type\":\"%s\",\"properties\":{",
					 fmt->openapi ? "OBJECT" : "object");
	for (i = 0; i < tool->nparams; i++)
	{
		if (i > 0)
			appendStringInfoChar(buf, ',');
		escape_json(buf, tool->params[i].name);
		appendStringInfoChar(buf, ':');
		append_param_schema(buf, &tool->params[i], fmt);
	}
	appendStringInfoString(buf, "},\"required\":[");
	for (i = 0; i < tool->nparams; i++)
	{
		/* strict: every property, optional ones nullable */
		if (!tool->params[i].required && !fmt->strict)
			continue;
		if (nrequired++ > 0)
			appendStringInfoChar(buf, ',');
		escape_json(buf, tool->params[i].name);
	}
	appendStringInfoString(buf, fmt->openapi ? "]}" : "],\"additionalProperties\":false}");
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
 * The tool's description; in a format without open objects, without its
 * closing example when that writes an object shape the format does not
 * declare (where, set, rows).
 */
static const char *
closed_tool_description(const ToolDef *tool, const CatalogFormat *fmt)
{
	const char *example;
	int			i;

	if (!fmt->closed || (example = strstr(tool->description, " Example: ")) == NULL)
		return tool->description;
	for (i = 0; i < tool->nparams; i++)
		if (tool->params[i].types & NAT_JSON_OBJECT)
			return pnstrdup(tool->description, example - tool->description);
	return tool->description;
}

/*
 * One catalog entry in the requested format.
 */
static void
append_tool_entry(StringInfo buf, const ToolDef *tool, const CatalogFormat *fmt)
{
	StringInfoData name;
	StringInfoData title;
	StringInfoData description;
	StringInfoData parameters;
	StringInfoData annotations;
	const char *format = fmt->name;

	initStringInfo(&name);
	escape_json(&name, tool->name);
	initStringInfo(&title);
	escape_json(&title, tool->title);
	initStringInfo(&description);
	escape_json(&description, fmt->compact ? first_sentence(tool->description) :
				closed_tool_description(tool, fmt));
	initStringInfo(&parameters);
	append_parameters_schema(&parameters, tool, fmt);
	initStringInfo(&annotations);
	append_annotations(&annotations, tool);

	if (strcmp(format, "openai") == 0 || strcmp(format, "openai_strict") == 0)
		appendStringInfo(buf,
						 "{\"type\":\"function\",\"function\":{\"name\":%s,\"description\":%s,\"parameters\":%s%s}}",
						 name.data, description.data, parameters.data,
						 fmt->strict ? ",\"strict\":true" : "");
	else if (strcmp(format, "anthropic") == 0)
		appendStringInfo(buf,
						 "{\"name\":%s,\"description\":%s,\"input_schema\":%s}",
						 name.data, description.data, parameters.data);
	else if (strcmp(format, "mcp") == 0)
		appendStringInfo(buf,
						 "{\"name\":%s,\"title\":%s,\"description\":%s,\"inputSchema\":%s,"
						 "\"outputSchema\":%s,\"annotations\":%s}",
						 name.data, title.data, description.data, parameters.data,
						 NAT_ENVELOPE_SCHEMA, annotations.data);
	else if (strcmp(format, "gemini") == 0)
		appendStringInfo(buf,
						 "{\"name\":%s,\"description\":%s,\"parameters\":%s}",
						 name.data, description.data, parameters.data);
	else
		appendStringInfo(buf,
						 "{\"name\":%s,\"title\":%s,\"description\":%s,\"parameters\":%s,\"annotations\":%s}",
						 name.data, title.data, description.data, parameters.data,
						 annotations.data);
}

/*
 * The catalog format called name; an ERROR if there is none.
 */
static const CatalogFormat *
catalog_format(const char *name)
{
	int			i;

	for (i = 0; i < lengthof(catalog_formats); i++)
		if (strcmp(name, catalog_formats[i].name) == 0)
			return &catalog_formats[i];
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("unrecognized tool catalog format \"%s\"", name),
			 errhint("Valid formats are \"native\", \"openai\", \"openai_strict\", \"anthropic\", \"mcp\" and \"gemini\".")));
	return NULL;				/* keep the compiler quiet */
}

/*
 * The catalog of the tools available to the caller, in one of the
 * catalog_formats; compact: for clients that pay per token, each
 * description's first sentence and no examples (README, "Catalog
 * formats").
 */
Jsonb *
nat_tool_catalog(const char *format, bool compact)
{
	StringInfoData buf;
	const CatalogFormat *fmt = catalog_format(format);
	CatalogFormat compact_fmt;
	ListCell   *lc;
	int			n = 0;

	if (compact)
	{
		compact_fmt = *fmt;
		compact_fmt.compact = true;
		compact_fmt.examples = false;
		fmt = &compact_fmt;
	}

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	foreach(lc, every_tool())
	{
		if (!nat_tool_available(lfirst(lc)))
			continue;
		if (n++ > 0)
			appendStringInfoChar(&buf, ',');
		append_tool_entry(&buf, lfirst(lc), fmt);
	}
	appendStringInfoChar(&buf, ']');
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}

/*
 * One tool's catalog entry in a format, whether it is available or not
 * (ai_tool_define() answers with it).
 */
Jsonb *
nat_tool_entry(const ToolDef *tool, const char *format)
{
	StringInfoData buf;

	initStringInfo(&buf);
	append_tool_entry(&buf, tool, catalog_format(format));
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}
