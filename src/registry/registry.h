/*-------------------------------------------------------------------------
 *
 * registry.h
 *		  The tools' table and parameter tables, argument validation and
 *		  decoding, name guesses, custom tool definitions.  Uses base/.
 *
 * Each layer's header includes the one below it (Makefile, NAT_LAYERS;
 * README, "Layout"), so a file sees its own layer's declarations and
 * those of the layers under it, never those above.
 *
 * IDENTIFICATION
 *		  src/registry/registry.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_REGISTRY_H
#define NAT_REGISTRY_H

#include "base/base.h"

/* ---- in registry/registry.c: the tools and their parameter tables ---- */

/* JSON types a parameter accepts (bit mask) */
#define NAT_JSON_STRING		0x01
#define NAT_JSON_INTEGER	0x02
#define NAT_JSON_NUMBER		0x04
#define NAT_JSON_BOOLEAN	0x08
#define NAT_JSON_OBJECT		0x10
#define NAT_JSON_ARRAY		0x20

struct ToolCall;

/*
 * Limits on argument sizes (README, "Limits").  They are checked in args.c
 * before any SQL is built, and shown in the JSON Schemas.
 *
 * A quoted identifier of NAT_MAX_IDENTIFIER characters, each a doubled
 * quote, takes 2 * 63 + 2 characters; "schema"."table" is two of them and
 * a dot.  A column list holds at most MaxTupleAttributeNumber names, each
 * quoted identifier followed by a comma and a space.
 */
#define NAT_MAX_IDENTIFIER		(NAMEDATALEN - 1)	/* bytes, as PostgreSQL */
#define NAT_MAX_QUOTED_IDENTIFIER (2 * NAT_MAX_IDENTIFIER + 2)
#define NAT_MAX_TABLE_NAME		(2 * NAT_MAX_QUOTED_IDENTIFIER + 1)
#define NAT_MAX_COLUMNS			1664	/* MaxTupleAttributeNumber */
#define NAT_MAX_COLUMN_LIST		(NAT_MAX_COLUMNS * (NAT_MAX_QUOTED_IDENTIFIER + 2))
/* a sort key is a name and at most " DESC NULLS FIRST" */
#define NAT_SORT_KEY_SUFFIX		" DESC NULLS FIRST"
#define NAT_MAX_SORT_KEY		(NAT_MAX_QUOTED_IDENTIFIER + (int) sizeof(NAT_SORT_KEY_SUFFIX) - 1)
#define NAT_MAX_SORT_LIST		(NAT_MAX_COLUMNS * (NAT_MAX_SORT_KEY + 2))
#define NAT_MAX_SET_COLUMNS		1600	/* MaxHeapAttributeNumber */
#define NAT_MAX_SQL				65536	/* characters of an agent's statement */
#define NAT_MAX_WHERE_SQL		16384	/* characters of a where condition */
#define NAT_MAX_WHERE_DEPTH		32	/* and/or/not levels of a where */
#define NAT_MAX_IN_LIST			10000	/* values of one in / not_in */
#define NAT_MAX_WHERE_TERMS		10000	/* conditions and list values of a
										 * where */
#define NAT_MAX_PARAMS			1000	/* values of params */
#define NAT_MAX_STATEMENTS		100 /* statements of one execute_sql call */
#define NAT_MAX_PATTERN			200 /* characters of a LIKE pattern */
#define NAT_MAX_TOOL_NAME		64	/* a custom tool's or parameter's name */

/*
 * One parameter of a tool.  The same row generates the JSON Schema shown by
 * ai_tool_list() and drives the validation in args.c: there is one source of
 * truth for what a tool accepts.
 */
/* the items of an array parameter, rendered per catalog format */
#define NAT_ITEMS_NONE		0
#define NAT_ITEMS_COLUMN	1	/* column names */
#define NAT_ITEMS_SORT_KEY	2	/* {column, direction, nulls} */
#define NAT_ITEMS_ROW		3	/* rows: objects of column values */
#define NAT_ITEMS_VALUE		4	/* any value bound to a placeholder */

/*
 * How args.c stores a validated argument in the tool's argument struct
 * (ToolDef.args_size bytes, beginning with CommonArgs): the handlers read
 * that struct, never the jsonb by name.
 */
typedef enum NatDecode
{
	NAT_DECODE_NONE,			/* not stored */
	NAT_DECODE_TEXT,			/* char *: the string; NULL when absent */
	NAT_DECODE_JSON,			/* JsonbValue *: the value; NULL when absent */
	NAT_DECODE_BOOL,			/* NatBoolArg */
	NAT_DECODE_INT,				/* NatIntArg */
	NAT_DECODE_ENUM				/* int: the index in enum_values */
} NatDecode;

/* a boolean or integer argument: value is the default when not given */
typedef struct NatBoolArg
{
	bool		given;
	bool		value;
} NatBoolArg;

typedef struct NatIntArg
{
	bool		given;
	int64		value;
} NatIntArg;

/*
 * The arguments that mean the same in every tool that takes them (the
 * rows of params.h), read by the core (execute.c, writes.c, names.c).
 * Every tool's argument struct begins with one.
 */
typedef struct CommonArgs
{
	char	   *table;
	JsonbValue *where;
	JsonbValue *returning;
	NatBoolArg	confirm_all_rows;
	NatBoolArg	dry_run;
	NatIntArg	max_affected;
	NatIntArg	limit;
	NatIntArg	offset;
	NatIntArg	timeout_ms;
	NatBoolArg	read_only;
	char	   *format;			/* answer format (formats.h), NULL: default */
	char	   *next;			/* continuation token (continuation.c) */
	char	   *confirmation_token; /* confirmation.c */
} CommonArgs;

typedef struct ToolParam
{
	const char *name;
	NatDecode	decode;			/* how the value is stored, and where: */
	size_t		offset;			/* offsetof in the tool's argument struct */
	int			types;			/* NAT_JSON_* mask */
	bool		required;
	const char *description;	/* written for an LLM */
	const char *const *enum_values; /* NULL-terminated, for strings */
	bool		has_minimum;
	int64		minimum;
	bool		has_maximum;
	int64		maximum;
	int		   *maximum_setting;	/* a setting that caps the value */
	const char *default_json;	/* JSON text, or NULL */
	int		   *default_setting;	/* or: the setting whose value is the
									 * default (clamped to the maximum) */
	int		   *default_enum_setting;	/* or: an enum setting whose value
										 * indexes enum_values */
	const char *examples_json;	/* JSON array text, or NULL */
	int			items;			/* NAT_ITEMS_*: what an array holds */
	int			items_type;		/* or the NAT_JSON_* type of its items */
	/* an object of column values: also taken as [{column, value}, ...] */
	bool		pairs;

	/*
	 * the description in formats without open objects (openai_strict,
	 * gemini), where the object shape is not declared; NULL: the same
	 */
	const char *closed_description;
	/* size limits (0: none), shown as maxLength / maxItems / maxProperties */
	int			max_length;		/* characters of a string */
	int			max_items;		/* items of an array */
	int		   *max_items_setting;	/* a setting that caps the items */
	int			max_properties; /* members of an object */
	/* deeper structural check of a present value, or NULL */
	void		(*validate) (JsonbValue *value, const char *path);
} ToolParam;

struct ToolPlan;

/*
 * A tool's planner: from the decoded arguments, fill the plan that
 * execute.c runs (plan.h).  It never runs SQL nor writes answer keys.
 */
typedef void (*ToolPlanner) (struct ToolCall *call, const void *args,
							 struct ToolPlan *plan);

/* the decoded arguments of a call, in its tool's struct */
#define NAT_ARGS(call, type) ((const type *) (call)->targs)
#define NAT_COMMON(call) NAT_ARGS(call, CommonArgs)

/* a tool that only reads: read-only, not destructive, idempotent */
#define NAT_TOOL_READS \
	.read_only = true, .destructive = false, .idempotent = true

/* a tool that changes rows (and is not offered in read-only mode) */
#define NAT_TOOL_WRITES(destructive_, idempotent_) \
	.read_only = false, .writes = true, \
	.destructive = (destructive_), .idempotent = (idempotent_)

/* a ToolDef's parameter table and the struct its arguments decode into */
#define NAT_TOOL_PARAMS(params_, args_) \
	.params = (params_), .nparams = lengthof(params_), .args_size = sizeof(args_)

typedef struct ToolDef
{
	const char *name;
	const char *title;
	const char *description;
	NatOperation operation;		/* reported in answers, unless the tool says */
	const ToolParam *params;
	int			nparams;
	Size		args_size;		/* sizeof its argument struct */
	bool		read_only;		/* never writes: runs read-only */
	bool		writes;			/* exists to write: hidden in read-only mode */
	bool		destructive;
	bool		idempotent;
	ToolPlanner plan;
	/* an administrator's tool (ai_tool_define), with its own caps */
	bool		custom;
	int			max_rows;		/* rows of an answer; 0: the settings' */
	int			timeout_ms;		/* time of a call; 0: the settings' */
} ToolDef;

extern const ToolDef *nat_find_tool(const char *name);
extern void nat_register_tools(const ToolDef *const *tools, int ntools,
							   ToolPlanner custom_tool_planner);
extern const ToolDef *nat_builtin_tool(const char *name);
extern Jsonb *nat_tool_entry(const ToolDef *tool, const char *format);
extern bool nat_tool_available(const ToolDef *tool);
extern bool nat_tool_has_param(const ToolDef *tool, const char *name);
extern char *nat_available_tool_names(void);
extern Jsonb *nat_tool_catalog(const char *format, bool compact);
extern List *nat_available_tools(void);

/* ---- in registry/name_guess.c: the tool or argument a wrong name meant ---- */

extern const char *nat_tool_meant(const char *name);
extern const char *nat_argument_meant(const ToolDef *tool, const char *key);
extern const char *nat_filter_operator_meant(const char *op, const char *const *operators,
											 int n, const char **negates);

/* ---- in registry/custom_store.c: the table of custom tool definitions ---- */

/* the definitions table, in the extension's schema (sql/) */
#define NAT_DEFINITIONS_TABLE	"ai_tool_definitions"

/* one stored definition, as ai_tool_define() normalized it */
typedef struct CustomToolRow
{
	char	   *name;
	char	   *description;
	char	   *sql;
	Jsonb	   *parameters;		/* [{name, type, json_types, ...}, ...] */
	Jsonb	   *options;		/* {title, max_rows, timeout_ms, ...} */
	bool		read_only;
	NatOperation operation;		/* select, insert, update, delete, execute */
} CustomToolRow;

extern List *nat_custom_tool_rows(const char *name);
extern void nat_custom_tool_store(const CustomToolRow *row);
extern bool nat_custom_tool_delete(const char *name);

/* ---- in registry/custom_tools.c: a stored definition as a tool ---- */

/* a custom tool: the ToolDef first, so that a ToolDef * can be cast back */
typedef struct CustomTool
{
	ToolDef		def;
	const char *sql;
	const char **type_names;	/* of each parameter, schema-qualified */
	JsonbValue **defaults;		/* of each parameter, or NULL */
} CustomTool;

/* the decoded arguments: CommonArgs, then one value a parameter */
#define CUSTOM_ARG_OFFSET(i) (sizeof(CommonArgs) + (i) * sizeof(JsonbValue *))

extern void nat_register_custom_planner(ToolPlanner planner);
extern const ToolDef *nat_custom_tool(const CustomToolRow *row);
extern const ToolDef *nat_find_custom_tool(const char *name);
extern List *nat_custom_tools(void);

/* ---- in registry/args.c: argument validation and access ---- */

extern void *nat_decode_args(const ToolDef *tool, Jsonb *args);
extern Jsonb *nat_normalize_args(const ToolDef *tool, Jsonb *args);
extern const char *nat_json_type_name(JsonbValue *value);
extern char *nat_json_value_text(JsonbValue *value);
extern int	nat_name_distance(const char *a, int alen, const char *b, int blen,
							  int max);
extern const char *nat_closest_word(const char *word, const char *const *candidates,
									int ncandidates);

#endif							/* NAT_REGISTRY_H */
