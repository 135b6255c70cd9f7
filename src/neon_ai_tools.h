/*-------------------------------------------------------------------------
 *
 * neon_ai_tools.h
 *		  Shared declarations of the neon_ai_tools extension.
 *
 * One header for the whole module, grouped by the file that defines each
 * declaration (the postgres_fdw convention).  The flow of one call is:
 *
 *	 ai_tool_call()  (core/neon_ai_tools.c, thin entry point)
 *	   -> nat_run_tool_call(): subtransaction, timer,  (core/execute.c,
 *		  read-only GUC nest level, error capture         core/call_timer.c)
 *		 -> registry lookup                              (core/registry.c)
 *		 -> validate and decode the arguments once       (core/args.c)
 *			into the tool's struct
 *		 -> the tool's planner                           (tools/, plan.h)
 *			  resolve names through the catalog          (sql/names.c, sql/writes.c)
 *			  build SQL with bound parameters            (sql/deparse.c, sql/filter.c,
 *														  sql/filter_sql.c, sql/values.c)
 *		 -> run the plan: SPI, binding, caps             (core/execute.c,
 *														  answer/row_sink.c,
 *														  answer/jsonb_out.c)
 *		 -> render: the success answer's keys            (answer/response.c)
 *	   -> or the error envelope                          (answer/response.c,
 *														  answer/errors.c,
 *														  answer/error_enrich.c)
 *
 * Folders: core/ (entry points, settings, call execution, timer, plan
 * cache, guards), sql/ (names, SQL text, filters, values), tools/ (one
 * planner a tool), answer/ (envelope, jsonb, errors), mcp/ (the MCP
 * program, a separate client).
 *
 * IDENTIFICATION
 *		  src/neon_ai_tools.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NEON_AI_TOOLS_H
#define NEON_AI_TOOLS_H

#include "postgres.h"

#include "datatype/timestamp.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "portability/instr_time.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/relcache.h"
#include "utils/snapshot.h"

#include "compat.h"

/* ---- in core/guc.c: settings (see README "Settings") ---- */

typedef enum NatRequireSsl
{
	NAT_REQUIRE_SSL_OFF,
	NAT_REQUIRE_SSL_REMOTE,
	NAT_REQUIRE_SSL_ON
} NatRequireSsl;

typedef enum NatAudit
{
	NAT_AUDIT_OFF,
	NAT_AUDIT_WRITES,
	NAT_AUDIT_ALL
} NatAudit;

extern int	nat_require_ssl;
extern int	nat_audit;
extern bool nat_audit_log_client;
extern char *nat_enabled_tools;
extern bool nat_read_only;
extern int	nat_row_limit;
extern int	nat_max_rows;
extern int	nat_max_response_bytes;
extern int	nat_timeout_ms;
extern int	nat_max_timeout_ms;
extern int	nat_lock_timeout_ms;
extern int	nat_max_affected_rows;
extern char *nat_read_only_allowed_functions;
extern int	nat_max_tool_calls;
extern int	nat_run_timeout_ms;
extern int	nat_call_time_ceiling;	/* in core/execute.c */
extern bool nat_track_stats;
extern int	nat_stats_max;
extern const struct config_enum_entry nat_require_ssl_options[];
extern const struct config_enum_entry nat_audit_options[];

extern void nat_define_settings(void);
extern void nat_define_answer_settings(void);	/* in core/guc_answer.c */

/* neon_ai_tools.empty_result_hints (core/guc_answer.c), the strictest last */
typedef enum NatEmptyHints
{
	NAT_EMPTY_HINTS_QUERY,		/* statistics, else a bounded query */
	NAT_EMPTY_HINTS_STATS,		/* the column's statistics only */
	NAT_EMPTY_HINTS_OFF
} NatEmptyHints;

extern int	nat_empty_hints;
extern const struct config_enum_entry nat_empty_hints_options[];
extern bool nat_tool_enabled(const char *name);

/* ---- in core/call_guard.c: what statements run for a call may do ---- */

extern void nat_guard_install(void);
extern void nat_guard_begin(bool read_only, MemoryContext cxt);
extern void nat_guard_check_end(void);
extern void nat_guard_end(void);
extern bool nat_split_allowed_function(const char *entry, char **schema, char **name);
extern bool nat_function_may_write(Oid funcid);
extern bool nat_guard_active(void);
extern bool nat_guard_read_only(void);

/* ---- in core/setting_guard.c: settings a call may not change or raise ---- */

extern void nat_setting_guard_install(void);

/* citus_calls.c */
extern void nat_citus_call_begin(bool read_only);
extern void nat_citus_call_end(void);
extern bool nat_citus_call_active(void);
extern void nat_citus_call_abort(void);
extern void nat_citus_call_write_limit(int64 limit);
extern void nat_citus_call_check_utility(PlannedStmt *pstmt, const char *queryString);
extern bool nat_citus_own_lock_switch(PlannedStmt *pstmt, const char *queryString);

/* citus_worker.c */
extern void nat_citus_worker_install(void);
extern bool nat_citus_worker_from_coordinator(PlannedStmt *pstmt);
extern void nat_citus_worker_statement_done(void);
extern void nat_citus_worker_coordinator_setting(bool on);
extern bool nat_citus_worker_coordinator_setting_now(void);
extern void nat_citus_worker_check_utility(Node *stmt);

/* call_guard.c, for citus_worker.c */
extern void nat_guard_begin_remote(bool read_only, TimestampTz deadline, MemoryContext cxt);
extern bool nat_guard_remote(void);
extern bool nat_citus_function(Oid funcid);
extern void nat_setting_guard_begin(void);

/* ---- in core/citus_settings.c: the Citus settings a call may change ---- */

extern bool nat_citus_setting(const char *name);
extern bool nat_citus_setting_allowed(const char *name);
extern const char *nat_citus_allowed_settings(void);
extern bool nat_citus_set_local_allowed(VariableSetStmt *vs);
extern void nat_citus_check_set_stmt(VariableSetStmt *vs);
extern void nat_citus_check_set_config(Node *node);
extern void nat_citus_check_proconfig(Oid funcid, HeapTuple proctup);
extern void nat_citus_settings_begin(void);
extern void nat_citus_settings_check(void);
extern void nat_citus_settings_end(void);

/* ---- in core/write_count.c: the rows a call changes, at every level ---- */

struct QueryDesc;
extern void nat_writes_begin(MemoryContext cxt);
extern void nat_writes_end(void);
extern void nat_writes_set_limit(int64 limit);
extern int64 nat_writes_total(void);
extern void nat_writes_pause(void);
extern void nat_writes_resume(void);
extern void nat_writes_finish(QueryDesc *queryDesc);
extern int64 nat_writes_citus_exact(int64 rows);
extern void nat_writes_watch(struct QueryDesc *queryDesc);
extern void nat_writes_check(void);
extern void nat_writes_add(int64 rows);
extern void nat_writes_utility_before(Node *stmt);
extern void nat_writes_utility_after(Node *stmt);
extern void nat_writes_utility_end(Node *stmt);

/* ---- in core/call_memory.c: the memory cap of a call ---- */

extern int	nat_max_call_memory_kb;
extern int	nat_citus_connections_per_worker;
extern void nat_memory_arm(void);
extern void nat_memory_disarm(bool failed);
extern bool nat_memory_exceeded(void);
extern int	nat_memory_cap_kb(void);
extern void nat_memory_check(void);
extern void nat_memory_check_args(Size args_bytes);
extern void nat_memory_limit_worker(int worker_cap_kb);
extern struct ToolError *nat_memory_limit_error(void);
pg_noreturn extern void nat_throw_memory_limit(const char *what) pg_attribute_noreturn();

/* ---- in core/execute.c: the errors of the call's limits ---- */

pg_noreturn extern void nat_throw_write_limit(int64 total, int64 limit) pg_attribute_noreturn();

/* ---- in core/guc_policy.c: the administrator's settings over startup options ---- */

extern void nat_policy_before_define(void);
extern void nat_policy_after_define(void);
extern void nat_policy_check(void);

typedef bool (*NatSettingItemFn) (const char *name, const char *value, void *arg);
extern bool nat_db_role_setting_scan(Relation rel, Snapshot snapshot,
									 Oid databaseid, Oid roleid,
									 NatSettingItemFn fn, void *arg);

/* ---- in core/role_policy.c: the current role's settings under SET ROLE ---- */

extern int	nat_role_policy_begin(void);
extern void nat_role_policy_end(int nest);

/* ---- in core/registry.c: the tools and their parameter tables ---- */

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
#define NAT_ECHO_CHARS			200 /* characters of a value quoted back */
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

typedef struct ToolDef
{
	const char *name;
	const char *title;
	const char *description;
	const char *operation;		/* reported in answers, unless the tool says */
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

/* ---- in core/name_guess.c: the tool or argument a wrong name meant ---- */

extern const char *nat_tool_meant(const char *name);
extern const char *nat_argument_meant(const ToolDef *tool, const char *key);
extern const char *nat_filter_operator_meant(const char *op, const char *const *operators,
											 int n, const char **negates);

/* ---- in core/custom_store.c: the table of custom tool definitions ---- */

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
	char	   *operation;		/* select, insert, update, delete, execute */
} CustomToolRow;

extern List *nat_custom_tool_rows(const char *name);
extern void nat_custom_tool_store(const CustomToolRow *row);
extern bool nat_custom_tool_delete(const char *name);

/* ---- in core/tool_define.c: defining custom tools ---- */

extern Jsonb *nat_define_tool(const char *name, const char *description,
							  const char *sql, Jsonb *parameters,
							  Jsonb *options);
extern Jsonb *nat_define_function_tool(Oid funcid, Jsonb *options);
extern void nat_drop_tool(const char *name, bool if_exists);

/* ---- in core/tool_run.c: a model response's tool calls (ai_tool_run) ---- */

extern Jsonb *nat_run_model_response(Jsonb *response, Jsonb *options);

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

/* ---- in core/args.c: argument validation and access ---- */

extern void *nat_decode_args(const ToolDef *tool, Jsonb *args);
extern Jsonb *nat_normalize_args(const ToolDef *tool, Jsonb *args);
extern const char *nat_json_type_name(JsonbValue *value);
extern char *nat_json_value_text(JsonbValue *value);
extern int	nat_name_distance(const char *a, int alen, const char *b, int blen,
							  int max);
extern const char *nat_closest_word(const char *word, const char *const *candidates,
									int ncandidates);

/* ---- in answer/errors.c: tool errors and their categories ---- */

/*
 * The fine error categories (README, "Results"): NAT_ERR_ and the
 * errorType upper-cased.  errors.c's table gives each its name, portable
 * error_type, retryability and default suggestion.
 */
typedef enum NatErrorKind
{
	NAT_ERR_INVALID_TABLE,
	NAT_ERR_INVALID_COLUMN,
	NAT_ERR_SYNTAX_ERROR,
	NAT_ERR_CONSTRAINT_VIOLATION,
	NAT_ERR_DEPENDENT_OBJECTS,
	NAT_ERR_ALREADY_EXISTS,
	NAT_ERR_INVALID_INPUT,
	NAT_ERR_PERMISSION_DENIED,
	NAT_ERR_READ_ONLY_VIOLATION,
	NAT_ERR_TIMEOUT,
	NAT_ERR_CONFLICT,
	NAT_ERR_RESOURCE_EXHAUSTED,
	NAT_ERR_CONNECTION_ERROR,
	NAT_ERR_AUTHENTICATION_ERROR,
	NAT_ERR_INVALID_PARAMETERS,
	NAT_ERR_UNKNOWN_TOOL,
	NAT_ERR_CONFIRMATION_REQUIRED,
	NAT_ERR_LIMIT_EXCEEDED,
	NAT_ERR_TOOL_DISABLED,
	NAT_ERR_RESOURCE_LIMIT,
	NAT_ERR_UNKNOWN_ERROR,
} NatErrorKind;

#define NAT_ERR_KINDS	(NAT_ERR_UNKNOWN_ERROR + 1)

/*
 * A failure found by the extension itself (bad arguments, a refused
 * filter, a cap) rather than by PostgreSQL.  It is raised with
 * nat_throw(), which stores it and raises an ERROR with
 * ERRCODE_NAT_TOOL_ERROR; run_tool_call() turns it into the error envelope.
 */
typedef struct ToolError
{
	NatErrorKind kind;			/* fine category */
	char	   *message;
	char	   *path;			/* JSON path of the argument at fault */
	char	   *suggestion;
	char	   *did_you_mean;	/* the one corrected value, if there is one */
	List	   *suggested_actions;	/* of char * */
	List	   *affected_resources; /* of char * */
	List	   *dependencies;	/* of char * */
	char	   *hint;
	char	   *column;
	int			position;		/* 1-based, in the agent's own text */
	int			sqlerrcode;		/* PostgreSQL's SQLSTATE behind it, or 0 */
	/* confirmation_required with neon_ai_tools.confirmation = token */
	char	   *confirmation_token;
	bool		has_affected;	/* affected is the effect's affectedRows */
	int64		affected;
} ToolError;

/* private SQLSTATE used only to carry a ToolError through an ERROR */
#define ERRCODE_NAT_TOOL_ERROR	MAKE_SQLSTATE('N','A','T','0','1')
/* a Citus worker's part of a call went over the call's write limit */
#define ERRCODE_NAT_WORKER_WRITE_LIMIT	MAKE_SQLSTATE('N','A','T','0','2')

/* the advice for a write on a hot standby (RecoveryInProgress()) */
#define NAT_STANDBY_SUGGESTION \
	"The server is a read-only hot standby (recovery in progress), so nothing can be written here; run the write on the primary server, and use this one for reads."

extern char *nat_format_va(const char *fmt, va_list args) pg_attribute_printf(1, 0);
extern ToolError *nat_error(NatErrorKind kind, const char *fmt,...) pg_attribute_printf(2, 3);
pg_noreturn extern void nat_throw(ToolError *err) pg_attribute_noreturn();
pg_noreturn extern void nat_invalid_param(const char *path, const char *suggestion,
										  const char *fmt,...) pg_attribute_printf(3, 4) pg_attribute_noreturn();
extern void nat_error_offer(ToolError *err, const char *value, char *action);
pg_noreturn extern void nat_invalid_param_offer(const char *path, const char *close,
												char *action, const char *otherwise,
												const char *fmt,...) pg_attribute_printf(5, 6) pg_attribute_noreturn();
extern void nat_set_error_context(MemoryContext cxt);
extern ToolError *nat_take_pending_error(void);
extern void nat_clear_pending_error(void);
extern char *nat_clip(const char *value);
extern char *nat_clip_len(const char *value, int len);
extern char *nat_clip_quoted(const char *text);
extern char *nat_quoted_names(List *names);
extern char *nat_json_quoted(const char *s);
extern bool nat_exceeds_chars(const char *value, int len, int limit);
extern char *nat_relation_display_name(Oid relid);

typedef struct ErrorCategory
{
	NatErrorKind kind;			/* fine */
	const char *portable_type;	/* portable */
	bool		retryable;
} ErrorCategory;

extern ErrorCategory nat_classify_sqlstate(int sqlerrcode);
extern ErrorCategory nat_category_of(NatErrorKind kind);
extern const char *nat_error_kind_name(NatErrorKind kind);
extern const char *nat_error_kind_text_suggestion(NatErrorKind kind);
extern const char *nat_error_kind_suggestion(NatErrorKind kind);

/* ---- in answer/error_patterns.c: error text from any database (ai_error_info) ---- */

/*
 * What the message patterns make of an error text: the category, the code
 * and the names they found.  Lists are of char *; fields that do not apply
 * are NULL or NIL.
 */
typedef struct ErrorTextInfo
{
	ErrorCategory category;
	bool		known;			/* false: unknown_error, nothing recognized */
	char	   *error_code;		/* the code as given or found, or NULL */
	char	   *sqlstate;		/* the SQLSTATE given, found or implied */
	char	   *suggestion;		/* advice specific to what was found */
	char	   *generic_suggestion; /* the category's advice */
	List	   *suggested_actions;
	List	   *affected_resources;
	List	   *dependencies;
	char	   *constraint;
	char	   *column;
	char	   *hint;			/* a HINT line of the text */
} ErrorTextInfo;

/* bytes of an error text that are read (ai_error_info, message patterns) */
#define NAT_ERROR_TEXT_READ		16384

/*
 * How PostgreSQL's hint for a misspelt name begins ("Perhaps you meant to
 * reference the column ..."): such a hint is the best suggestion there is.
 */
#define NAT_DID_YOU_MEAN		"Perhaps you meant"
#define NAT_IS_DID_YOU_MEAN(hint) \
	(strncmp((hint), NAT_DID_YOU_MEAN, sizeof(NAT_DID_YOU_MEAN) - 1) == 0)

extern void nat_analyze_error_text(const char *message, int64 unread,
								   const char *code, const NatErrorKind *given_kind,
								   ErrorTextInfo *info);
extern char *nat_whole_words(const char *str, int64 unread);
extern char *nat_mask_secrets(const char *text);

/* ---- in answer/error_enrich.c: the seed fields of every error answer ---- */

/*
 * What is known about an error: its text and code, and for a live call
 * PostgreSQL's ErrorData (object names already clipped) or the
 * extension's own error (its category and fields).
 */
typedef struct ErrorFacts
{
	const char *message;		/* NULL: the text says nothing (our timeout) */
	int64		unread;			/* bytes of message left out */
	const char *code;			/* SQLSTATE or other code; NULL: find one */
	ToolError  *err;			/* the extension's own error, or NULL */
	ErrorData  *edata;			/* PostgreSQL's own error, or NULL */
	const char *hint;			/* edata's hint, if it may be shown */
	struct ToolCall *call;		/* the live call; NULL for ai_error_info */
} ErrorFacts;

/*
 * The seed fields: three suggestions by strength (the caller picks the
 * first it has, a live call may put its own advice between them).
 */
typedef struct ErrorEnrichment
{
	ErrorTextInfo text;			/* what the message patterns found: the
								 * category, codes, the pattern's advice */
	char	   *suggestion;		/* from the error's fields or the catalog */
	char	   *did_you_mean;	/* the one corrected name or value, or NULL */
	char	   *hint;			/* in place of the error's hint, or NULL */
	/* the names and steps of the error's fields and of the patterns */
	List	   *suggested_actions;
	List	   *affected_resources;
	List	   *dependencies;
} ErrorEnrichment;

extern void nat_enrich_error(const ErrorFacts *facts, ErrorEnrichment *en);

/* ---- in answer/statement_names.c: did-you-mean for a statement's names ---- */

extern char *nat_readable_column_list(Oid relid);
extern void nat_suggest_statement_name(ErrorData *edata, struct ToolCall *call,
									   const char *missing_table,
									   ErrorEnrichment *en);

/* ---- in answer/constraint_errors.c, column_limits.c, privilege_errors.c ---- */

/* why a write failed, from the catalog and the statement (README, "Results") */
extern void nat_explain_constraint_error(ErrorData *edata, struct ToolCall *call,
										 ErrorEnrichment *en);
extern void nat_explain_column_limit_error(ErrorData *edata, struct ToolCall *call,
										   ErrorEnrichment *en);
extern void nat_explain_value_limit(ToolError *err, Oid typid, int32 typmod);
extern void nat_explain_privilege_error(ErrorData *edata, struct ToolCall *call,
										ErrorEnrichment *en);

extern char *nat_column_default(Oid relid, AttrNumber attnum);

/* ---- in core/call_timer.c: the private per-call timeout ---- */

extern void nat_timer_arm(int timeout_ms);
extern void nat_timer_disarm(void);
extern bool nat_timer_fired(void);
extern void nat_deadline_check(void);
extern TimestampTz nat_timer_deadline(int *timeout_ms);
extern void nat_timer_adopt(TimestampTz deadline, int timeout_ms);
extern void nat_timer_step_arm(int ms);
extern bool nat_timer_step_end(void);

/* ---- in sql/values.c: query parameters and JSON to Datum conversion ---- */

/*
 * The bound parameters of one generated statement: $1 is index 0.  Nulls
 * use SPI's convention (' ' = not null, 'n' = null).
 */
typedef struct QueryParams
{
	int			count;
	int			capacity;
	Oid		   *types;
	Datum	   *values;
	char	   *nulls;
} QueryParams;

extern void nat_params_init(QueryParams *params);
extern int	nat_params_add(QueryParams *params, Oid type, Datum value, bool isnull);
extern Datum nat_json_to_datum(JsonbValue *value, Oid typid, int32 typmod,
							   bool *isnull);
extern Datum nat_convert_member(JsonbValue *value, Oid typid, int32 typmod,
								const char *path, int index, const char *key,
								const char *column, bool *isnull);
extern Datum nat_convert_value(JsonbValue *value, Oid typid, int32 typmod,
							   const char *path, const char *column,
							   bool *isnull);
extern void nat_conversion_capture(void);

/* a value that did not convert to its type: where, and what was given */
typedef struct ConversionFailure
{
	char	   *path;			/* the argument's JSON path */
	char	   *column;			/* the column, or NULL */
	Oid			typid;			/* the type it was converted to */
	int32		typmod;
	char	   *given;			/* the scalar refused, as text; NULL if it
								 * was long or not a scalar */
	Oid			given_type;		/* its type (an array's element type) */
	int32		given_typmod;
	int			element;		/* its index in an array value, or -1 */
} ConversionFailure;

extern bool nat_conversion_failed(ConversionFailure *failure);
extern void nat_conversion_begin(MemoryContext cxt);
extern void nat_conversion_end(void);

/* ---- in sql/names.c: names resolved through the catalog ---- */

extern Oid	nat_resolve_table(const char *name, const char *path);
extern AttrNumber nat_resolve_column(Oid relid, const char *name, const char *path);
extern List *nat_split_top_level(const char *text, char sep);
extern char *nat_read_identifier(const char **p, bool *quoted);
extern void nat_check_identifier(const char *name, int len, const char *path);
extern bool nat_relation_visible_to_caller(Oid relid, Oid nspid);
extern bool nat_column_privileged(Oid relid, AttrNumber attnum, AclMode mode);
extern bool nat_column_visible(Oid relid, AttrNumber attnum);
extern List *nat_closest_tables(const char *name, TimestampTz stop_at);
extern char *nat_did_you_mean(List *names);
extern List *nat_closest_columns(Oid relid, const char *name);
extern Oid	nat_rangevar_relation(RangeVar *rv);
pg_noreturn extern void nat_throw_no_privilege(Oid relid, const char *path) pg_attribute_noreturn();
extern bool nat_hint_is_shareable(const char *hint, const char *sql);
extern Oid	nat_resolve_call_table(struct ToolCall *call);

/* ---- in sql/citus_tables.c: what Citus made of a table ---- */

typedef enum NatCitusKind
{
	NAT_CITUS_NONE,				/* no Citus, or not a Citus table */
	NAT_CITUS_DISTRIBUTED,		/* rows in shards on several nodes */
	NAT_CITUS_REFERENCE,		/* a copy on every node */
	NAT_CITUS_LOCAL				/* one placement: a Citus local or
								 * single-shard table */
} NatCitusKind;

extern NatCitusKind nat_citus_table_kind(Oid relid);
extern bool nat_citus_catalog_row(const char *catalog, const char *index_name,
								  const char *key_column, RegProcedure cmp, Datum key,
								  const char *const *names, int n,
								  Datum *values, bool *nulls);
extern Oid	nat_citus_relation_unordered(Oid relid);
extern Oid	nat_citus_query_unordered(Query *query);

/* ---- in core/local_cache.c: per-backend caches of catalog answers ---- */

typedef struct NatLocalCache
{
	/* set by the cache's owner */
	const char *name;			/* a constant: names its memory and hash table */
	Size		keysize;
	Size		entrysize;
	int			max_entries;
	const NatSysCacheId *syscaches; /* whose invalidations empty it */
	int			nsyscaches;
	/* kept by local_cache.c */
	MemoryContext cxt;			/* the entries' strings go here too */
	HTAB	   *hash;
	int			entries;		/* the owner counts what it adds */
	char	   *search_path;	/* what the answers were worked out under */
	bool		quote_all;
} NatLocalCache;

extern void nat_local_cache_reset(NatLocalCache *cache);
extern HTAB *nat_local_cache_find(NatLocalCache *cache);
extern HTAB *nat_local_cache_for_insert(NatLocalCache *cache);

/* ---- in answer/type_names.c: column types as answers name them ---- */

extern char *nat_type_name(Oid typid, int32 typmod, Oid *basetype);

/* ---- in answer/value_examples.c: valid values of a type ---- */

extern char *nat_value_examples(Oid typid, int32 typmod, bool sql);
extern char *nat_type_example(Oid typid, int32 typmod, bool sql);
extern List *nat_enum_labels(Oid enumtypid, int max, bool *more);

/* ---- in answer/value_near_miss.c: the value probably meant ---- */

/* up to two readings of a refused value, each one its type accepts */
typedef struct NearMiss
{
	int			count;
	char	   *values[2];
	const char *readings[2];	/* with two: what each assumes */
	const char *note;			/* a sentence about the value, or NULL */
	bool		use_null;		/* the text "null": JSON null was meant */
} NearMiss;

extern void nat_value_near_miss(Oid typid, int32 typmod, const char *given,
								NearMiss *nm);
extern bool nat_run_safely(void (*fn) (void *), void *arg);

/* ---- in answer/value_advice.c: answering a refused value ---- */

extern void nat_advise_conversion(ToolError *err, const ConversionFailure *failure);
extern bool nat_advise_value_error(struct ToolCall *call, ErrorData *edata,
								   char **suggestion, char **did_you_mean,
								   List **actions, char **hint);

/* ---- in sql/citus.c: Citus's metadata, for the discovery tools ---- */

extern bool nat_citus_installed(void);
extern Oid	nat_citus_shard_parent(Oid relid);
extern Oid	nat_citus_local_shard_parent(Oid relid);
extern void nat_append_not_citus_shard(StringInfo sql, const char *rel);
extern void nat_append_citus_description(StringInfo sql);

/* ---- in sql/table_cache.c: the table names calls resolved ---- */
extern Oid	nat_table_cache_lookup(const char *name, const char **display);
extern void nat_table_cache_store(const char *name, Oid relid, const char *display);

/* ---- in sql/deparse.c: SQL text generation (postgres_fdw style) ---- */

extern void nat_deparse_column(StringInfo buf, Oid relid, AttrNumber attnum);
extern void nat_deparse_type(StringInfo buf, Oid typid, int32 typmod);
extern void nat_deparse_operator_name(StringInfo buf, Oid opno);
extern void nat_deparse_function_name(StringInfo buf, Oid funcid);
extern void nat_deparse_collation(StringInfo buf, Oid collid);
extern void nat_deparse_param(StringInfo buf, int paramno);
extern void nat_deparse_limit_offset(StringInfo buf, QueryParams *params,
									 int64 max_rows, int64 offset);
extern List *nat_deparse_column_list(StringInfo buf, Oid relid,
									 JsonbValue *columns, const char *path,
									 int *omitted);
extern List *nat_relation_columns(Oid relid);
extern List *nat_readable_columns(Oid relid, int *omitted);
extern Oid	nat_lookup_operator(const char *opname, Oid ltype, Oid rtype,
								const char *path);

/* ---- in sql/filter.c and sql/filter_sql.c: the where argument ---- */

extern void nat_validate_where(JsonbValue *value, const char *path);
extern void nat_deparse_where(StringInfo buf, Oid relid, JsonbValue *where,
							  QueryParams *params, const char *path);
extern void nat_deparse_sql_condition(StringInfo buf, Oid relid,
									  const char *condition,
									  QueryParams *params, const char *path);

/* ---- in answer/jsonb_out.c: building jsonb ---- */

typedef struct ColumnOutput
{
	char	   *key;			/* de-duplicated key in the row object */
	char	   *name;			/* the column's own name */
	Oid			typid;
	int16		typlen;
	char	   *type_name;
	Size		key_size;		/* "key": rendered, and a separator */
	int			category;		/* how the value is converted */
	FmgrInfo	to_jsonb;		/* fallback converter */
	bool		numeric_array;	/* an array of numerics: measured first */
	bool		json;			/* json (not jsonb): \u0000 kept as text */
	MemoryContext scratch;		/* to_jsonb()'s workings, reset after each */
} ColumnOutput;

extern JsonbValue *nat_jsonb_push(NatJsonb *state, JsonbIteratorToken tok, JsonbValue *v);
extern void nat_push_key(NatJsonb *state, const char *key);
extern void nat_push_string(NatJsonb *state, const char *key, const char *value);
extern void nat_push_bool(NatJsonb *state, const char *key, bool value);
extern void nat_push_int(NatJsonb *state, const char *key, int64 value);
extern void nat_push_string_array(NatJsonb *state, const char *key, List *values);
extern void nat_push_jsonb(NatJsonb *state, const char *key, Jsonb *value);
extern ColumnOutput *nat_prepare_columns(TupleDesc tupdesc, MemoryContext cxt);
extern bool nat_column_is_json(const ColumnOutput *col);
extern bool nat_datum_to_jsonb_value(ColumnOutput *col, Datum value,
									 bool isnull, Size budget,
									 JsonbValue *out, Size *size,
									 Size *memory);

/* what palloc adds to each chunk, for memory estimates */
#define NAT_CHUNK_OVERHEAD 16
extern Size nat_json_string_size(const char *s, Size len);

/* ---- in core/execute.c: the execution core ---- */

/* What one call has found so far; filled by the tool, read by response.c */
typedef struct ToolCall
{
	const char *tool_name;		/* as the caller named it */
	const ToolDef *tool;		/* NULL until found */
	Jsonb	   *args;
	void	   *targs;			/* args validated and decoded (NAT_ARGS) */
	MemoryContext cxt;			/* lives until the answer is built */
	instr_time	start;
	int			timeout_ms;		/* effective, after clamping */
	TimestampTz deadline;		/* when the timer fires; 0 until armed */
	bool		read_only;		/* run with transaction_read_only = on */
	bool		timed_out;		/* our timer ended the call */
	bool		dry_run;		/* roll back the call's work at the end */
	bool		plan_only;		/* ai_tool_plan(): render the plan, run
								 * nothing */
	const char *error_type;		/* the error answer's errorType, or NULL */
	NatErrorKind error_kind;	/* ... and its kind */
	const char *stats_tool;		/* the tool's name once found, enabled
								 * or not (tool_stats.c) */
	int64		answer_rows;	/* rowCount of the answer, every statement's */
	int64		affected_rows;	/* rows changed, for the audit log; -1: none */
	int64		statement_changed;	/* the last statement's rows changed, every
									 * level (write_count.c) */
	int64		statement_own;	/* ... and its own count (SPI); -1: a query */

	/* reported in the envelope */
	const char *operation;
	char	   *table;			/* schema-qualified display name */
	char	   *query;			/* generated SQL, with $n placeholders */
	char	   *query_source;	/* the agent's own SQL text, if any */

	List	   *warnings;		/* of char *, joined into "warning" */
	char	   *did_you_mean;	/* an empty read's one close value */
	List	   *suggested_actions;	/* of char *: an empty read's retries */
	struct NatContinuation *cont;	/* "next" (continuation.h), or NULL */
	int			format;			/* NatAnswerFormat of the rows (formats.h) */
	int64		row_bytes;		/* rows in the answer, rendered as text */
	int64		row_memory;		/* estimated memory the rows hold */

	/* the success envelope under construction (in cxt) */
	NatJsonb	state;
} ToolCall;

/* row caps for one query */
typedef struct RowCaps
{
	int64		max_rows;
	int64		max_bytes;
} RowCaps;

/* what a streamed query produced */
typedef struct RowResult
{
	int64		row_count;		/* rows answered */
	int64		received;		/* rows the statement returned, answered or
								 * not (past the caps, or only counted) */
	bool		truncated;
	const char *truncation_reason;	/* "row_limit", "byte_limit" or
									 * "memory_limit" */
	int64		truncation_limit;
	const char *oversized_column;	/* alone past the byte cap, first row */
} RowResult;

extern Jsonb *nat_run_tool_call(const char *name, Jsonb *args,
								bool plan_only);

/* in core/tool_stats.c: per-tool statistics in shared memory */
extern void nat_stats_install(void);
extern void nat_stats_call_answered(ToolCall *call, Jsonb *answer);
extern void nat_stats_call_escaped(ToolCall *call);

/* in answer/row_sink.c */
extern DestReceiver *nat_row_sink_create(ToolCall *call, RowCaps caps,
										 int hidden, RowResult *result);
extern void nat_row_sink_close(DestReceiver *sink);
extern void nat_call_settings_for_workers(void);
extern int	nat_effective_timeout(ToolCall *call);
extern RowCaps nat_effective_row_caps(ToolCall *call);

/* ---- in answer/response.c: the envelope ---- */
extern Jsonb *nat_error_info(const char *message, int64 unread,
							 const char *code, int64 code_unread);

extern void nat_response_begin(ToolCall *call);
extern Jsonb *nat_response_finish(ToolCall *call);
extern void nat_response_columns(ToolCall *call, ColumnOutput *cols, int ncols);
extern void nat_response_data_end(ToolCall *call, bool opened);
extern Jsonb *nat_error_response(ToolCall *call, ErrorData *edata,
								 ToolError *err);
extern char *nat_format_elapsed(instr_time start);

/* ---- in sql/sql_guard.c: what an agent's own SQL may do ---- */

extern List *nat_parse_statements(const char *sql, const char *path);
extern char *nat_statement_text(const char *sql, RawStmt *rs);
extern const char *nat_statement_tag(RawStmt *rs);
extern void nat_check_statement(RawStmt *rs, bool read_only, const char *path);
extern void nat_check_query_functions(Query *query, bool read_only,
									  const char *path);
extern Query *nat_analyze_statement(RawStmt *rs, const char *sql,
									Oid **types, int *ntypes);

/* ---- in sql/statement_shape.c: what one statement names ---- */

/*
 * One statement as the raw parser reads it: the relation it writes, the
 * columns it gives values, the names it refers to.  Lists are of char *
 * (RangeVar * for relations).
 */
typedef struct StatementShape
{
	NodeTag		command;		/* T_InsertStmt, T_UpdateStmt, ...; T_Invalid */
	RangeVar   *target;			/* the relation written, or NULL */
	List	   *written;		/* columns given values (INSERT's list, SET) */
	bool		all_written;	/* an INSERT without a column list ... */
	int			written_count;	/* ... giving this many columns, the first
								 * ones; -1: all */
	List	   *conflict_updated;	/* ON CONFLICT DO UPDATE SET columns */
	List	   *referenced;		/* column names referred to anywhere */
	bool		star;			/* a * (SELECT *, RETURNING *, t.*) */
	List	   *relations;		/* every relation named, target included */
} StatementShape;

extern bool nat_statement_shape(const char *sql, StatementShape *shape);
extern Oid	nat_statement_target(StatementShape *shape);
extern Oid	nat_statement_relation(StatementShape *shape, const char *relname);
extern bool nat_name_listed(List *list, const char *name);

/* ---- in sql/statement_limit.c: the row cap written into the agent's query ---- */

extern char *nat_statement_with_limit(const char *sql, Query *query,
									  int64 rows);

/* ---- in core/plan_cache.c ---- */

/* whose SQL text a plan is for: only short agent texts are cached */
typedef enum NatSqlOrigin
{
	NAT_SQL_GENERATED,			/* built by a tool from its arguments */
	NAT_SQL_AGENT,				/* the agent's own text (execute_sql) */
	NAT_SQL_AGENT_LONG			/* ... longer than the limit below: not
								 * cached */
} NatSqlOrigin;

/* longest agent SQL text (bytes) whose plan is cached */
#define NAT_PLAN_CACHE_MAX_AGENT_SQL 8192

extern int	nat_plan_cache_size;
extern int	nat_plan_cache_memory;
extern void nat_plan_cache_settle(void);
extern SPIPlanPtr nat_prepare_cached(const char *sql, int nargs, Oid *types,
									 NatSqlOrigin origin);

/* ---- in core/connection_rules.c and core/audit.c ---- */

extern void nat_check_connection(void);
extern void nat_audit_call(ToolCall *call, const char *outcome);
extern char *nat_mask_literals(const char *sql);

/* ---- the tools ---- */

/* in tools/select_query.c, insert_data.c, update_data.c, delete_data.c */
extern const ToolDef nat_tool_select_query;
extern const ToolDef nat_tool_insert_data;
extern const ToolDef nat_tool_update_data;
extern const ToolDef nat_tool_delete_data;

/* in tools/execute_sql.c, explain_query.c */
extern const ToolDef nat_tool_execute_sql;
extern const ToolDef nat_tool_explain_query;

/* in tools/list_tables.c, describe_table.c */
extern const ToolDef nat_tool_list_tables;
extern const ToolDef nat_tool_describe_table;
extern void nat_append_estimated_rows(StringInfo sql);
extern void nat_validate_columns(JsonbValue *value, const char *path);
extern void nat_validate_order_by(JsonbValue *value, const char *path);

/* in tools/tool_list.c: the built-in tools, in catalog order */
extern const ToolDef *const nat_builtin_tools[];
extern const int nat_builtin_tool_count;

/* in tools/custom_tool.c: the planner of every custom tool */
extern void nat_plan_custom_tool(struct ToolCall *call, const void *targs,
								 struct ToolPlan *plan);

#endif							/* NEON_AI_TOOLS_H */
