/*-------------------------------------------------------------------------
 *
 * base.h
 *		  The bottom layer: settings' variables, errors and their categories,
 *		  the jsonb builder, per-backend caches, type names, the call's clock
 *		  and memory meter, the plan cache.  Uses PostgreSQL only.
 *
 * Each layer's header includes the one below it (Makefile, NAT_LAYERS;
 * README, "Layout"), so a file sees its own layer's declarations and
 * those of the layers under it, never those above.
 *
 * IDENTIFICATION
 *		  src/base/base.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_BASE_H
#define NAT_BASE_H

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

#include "base/compat.h"



/* ---- in base/call_memory.c: the memory cap of a call ---- */

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

/* ---- in base/errors.c: tool errors and their categories ---- */

/*
 * The fine error categories (README, "Results"): NAT_ERR_ and the
 * errorType upper-cased.  errors.c's table gives each its name, portable
 * error_type, retryability and default suggestion.
 */
typedef enum NatErrorKind
{
#define NAT_ERROR_KIND(id, type, portable, retryable) id,
#include "base/error_kinds.h"
#undef NAT_ERROR_KIND
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

/* ---- in base/call_timer.c: the private per-call timeout ---- */

extern void nat_timer_arm(int timeout_ms);
extern void nat_timer_disarm(void);
extern bool nat_timer_fired(void);
extern void nat_deadline_check(void);
extern TimestampTz nat_timer_deadline(int *timeout_ms);
extern void nat_timer_adopt(TimestampTz deadline, int timeout_ms);
extern void nat_timer_step_arm(int ms);
extern bool nat_timer_step_end(void);

/* ---- in base/local_cache.c: per-backend caches of catalog answers ---- */

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

/* ---- in base/type_names.c: column types as answers name them ---- */

extern char *nat_type_name(Oid typid, int32 typmod, Oid *basetype);

/* ---- in base/jsonb_out.c: building jsonb ---- */

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
extern void nat_push_key_len(NatJsonb *state, const char *key, int len);
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

/* ---- in base/jsonb_keys.c: walking a jsonb object's members ---- */

typedef struct NatJsonbKeys
{
	JsonbIterator *it;
} NatJsonbKeys;

extern void nat_jsonb_keys_begin(NatJsonbKeys *keys, JsonbContainer *object);
extern bool nat_jsonb_next_key(NatJsonbKeys *keys, const char **key,
							   int *keylen, JsonbValue *value);

/*
 * Is a key (not NUL-terminated) the string literal lit?  Its length is the
 * literal's own, never counted by hand; "" lit refuses anything else.
 */
#define NAT_KEY_IS(key, keylen, lit) \
	((keylen) == sizeof("" lit) - 1 && memcmp((key), lit, sizeof(lit) - 1) == 0)

/* the member of a jsonb object named by the string literal lit, or NULL */
#define NAT_JSONB_MEMBER(container, lit) \
	getKeyJsonValueFromContainer((container), "" lit, sizeof(lit) - 1, NULL)

/* ---- in base/plan_cache.c ---- */

/* whose SQL text a plan is for: only short agent texts are cached */
typedef enum NatSqlOrigin
{
	NAT_SQL_GENERATED,			/* built by a tool from its arguments */
	NAT_SQL_AGENT,				/* the agent's own text (execute_sql) */
	NAT_SQL_AGENT_LONG			/* ... longer than the limit below: not cached */
} NatSqlOrigin;

/* longest agent SQL text (bytes) whose plan is cached */
#define NAT_PLAN_CACHE_MAX_AGENT_SQL 8192

extern int	nat_plan_cache_size;
extern int	nat_plan_cache_memory;
extern void nat_plan_cache_settle(void);
extern SPIPlanPtr nat_prepare_cached(const char *sql, int nargs, Oid *types,
									 NatSqlOrigin origin);

/* ---- in base/settings.c: the answer's formats and neon_ai_tools.confirmation's values ---- */

/* the indexes of nat_answer_format_names */
typedef enum NatAnswerFormat
{
	NAT_FORMAT_JSON,
	NAT_FORMAT_COLUMNAR,
	NAT_FORMAT_CSV,
	NAT_FORMAT_MARKDOWN
} NatAnswerFormat;

#define NAT_FORMAT_IS_TEXT(f) ((f) == NAT_FORMAT_CSV || (f) == NAT_FORMAT_MARKDOWN)

extern const char *const nat_answer_format_names[];
extern int	nat_default_format;

typedef enum NatConfirmation
{
	NAT_CONFIRMATION_FLAG,
	NAT_CONFIRMATION_TOKEN
} NatConfirmation;

extern const struct config_enum_entry nat_confirmation_options[];

/* ---- in base/settings.c: the settings' variables (README, "Settings") ---- */

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
extern bool nat_track_stats;
extern int	nat_stats_max;
extern const struct config_enum_entry nat_require_ssl_options[];
extern const struct config_enum_entry nat_audit_options[];


/* neon_ai_tools.empty_result_hints, the strictest last */
typedef enum NatEmptyHints
{
	NAT_EMPTY_HINTS_QUERY,		/* statistics, else a bounded query */
	NAT_EMPTY_HINTS_STATS,		/* the column's statistics only */
	NAT_EMPTY_HINTS_OFF
} NatEmptyHints;

extern int	nat_empty_hints;
extern const struct config_enum_entry nat_empty_hints_options[];
extern bool nat_tool_enabled(const char *name);

/* characters of a value quoted back in an error, at most */
#define NAT_ECHO_CHARS			200

/* ---- in base/call_names.c: what a call does, and why its rows stopped ---- */

/* a call's operation: its answer's "operation", its audit line's */
typedef enum NatOperation
{
	NAT_OP_NONE,				/* not known (no tool found): not reported */
	NAT_OP_SELECT,
	NAT_OP_INSERT,
	NAT_OP_UPDATE,
	NAT_OP_DELETE,
	NAT_OP_EXECUTE,
	NAT_OP_EXPLAIN,
	NAT_OP_LIST,
	NAT_OP_DESCRIBE,
	NAT_OP_TRUNCATE,
	NAT_OP_DROP
} NatOperation;

/* why a streamed query's rows were cut: its answer's "truncation.reason" */
typedef enum NatTruncation
{
	NAT_TRUNCATION_NONE,
	NAT_TRUNCATION_ROW_LIMIT,
	NAT_TRUNCATION_BYTE_LIMIT,
	NAT_TRUNCATION_MEMORY_LIMIT
} NatTruncation;

/* the names, by enum value; NULL for none */
extern const char *const nat_operation_names[];
extern const char *const nat_truncation_names[];
extern NatOperation nat_operation_from_name(const char *name);

/* ---- the call: what every layer passes on ---- */

/* What one call has found so far; filled by the tool, read by response.c */
typedef struct ToolCall
{
	const char *tool_name;		/* as the caller named it */
	const struct ToolDef *tool; /* NULL until found */
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
	const char *stats_tool;		/* the tool's name once found, enabled or not
								 * (tool_stats.c) */
	int64		answer_rows;	/* rowCount of the answer, every statement's */
	int64		affected_rows;	/* rows changed, for the audit log; -1: none */
	int64		statement_changed;	/* the last statement's rows changed,
									 * every level (write_count.c) */
	int64		statement_own;	/* ... and its own count (SPI); -1: a query */

	/* reported in the envelope */
	NatOperation operation;
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
	NatTruncation truncation_reason;
	int64		truncation_limit;
	const char *oversized_column;	/* alone past the byte cap, first row */
} RowResult;

#endif							/* NAT_BASE_H */
