/*-------------------------------------------------------------------------
 *
 * plan.h
 *		  Building a call's statements: names resolved through the catalog,
 *		  values and parameters, SQL text, filters, writes, the guards on an
 *		  agent's SQL, continuation and tokens, the plan builders.  Uses
 *		  registry/ and base/.
 *
 * Each layer's header includes the one below it (Makefile, NAT_LAYERS;
 * README, "Layout"), so a file sees its own layer's declarations and
 * those of the layers under it, never those above.
 *
 * IDENTIFICATION
 *		  src/plan/plan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_PLAN_H
#define NAT_PLAN_H

#include "registry/registry.h"

/* ---- in plan/citus_settings.c: the Citus settings a call may change ---- */

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

/* ---- in plan/values.c: query parameters and JSON to Datum conversion ---- */

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
	char	   *given;			/* the scalar refused, as text; NULL if it was
								 * long or not a scalar */
	Oid			given_type;		/* its type (an array's element type) */
	int32		given_typmod;
	int			element;		/* its index in an array value, or -1 */
} ConversionFailure;

extern bool nat_conversion_failed(ConversionFailure *failure);
extern void nat_conversion_begin(MemoryContext cxt);
extern void nat_conversion_end(void);

/* ---- in plan/names.c: names resolved through the catalog ---- */

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

/* ---- in plan/citus_tables.c: what Citus made of a table ---- */

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

/* ---- in plan/citus.c: Citus's metadata, for the discovery tools ---- */

extern bool nat_citus_installed(void);
extern Oid	nat_citus_shard_parent(Oid relid);
extern Oid	nat_citus_local_shard_parent(Oid relid);
extern void nat_append_not_citus_shard(StringInfo sql, const char *rel);
extern void nat_append_citus_description(StringInfo sql);

/* ---- in plan/table_cache.c: the table names calls resolved ---- */
extern Oid	nat_table_cache_lookup(const char *name, const char **display);
extern void nat_table_cache_store(const char *name, Oid relid, const char *display);

/* ---- in plan/deparse.c: SQL text generation (postgres_fdw style) ---- */

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
extern char *nat_readable_column_list(Oid relid);
extern Oid	nat_lookup_operator(const char *opname, Oid ltype, Oid rtype,
								const char *path);

/* ---- in plan/filter.c and plan/filter_sql.c: the where argument ---- */

extern void nat_validate_where(JsonbValue *value, const char *path);
extern void nat_deparse_where(StringInfo buf, Oid relid, JsonbValue *where,
							  QueryParams *params, const char *path);
extern void nat_deparse_sql_condition(StringInfo buf, Oid relid,
									  const char *condition,
									  QueryParams *params, const char *path);

/* ---- in plan/sql_guard.c: what an agent's own SQL may do ---- */

extern List *nat_parse_statements(const char *sql, const char *path);
extern char *nat_statement_text(const char *sql, RawStmt *rs);
extern const char *nat_statement_tag(RawStmt *rs);
extern void nat_check_statement(RawStmt *rs, bool read_only, const char *path);
extern void nat_check_query_functions(Query *query, bool read_only,
									  const char *path);
extern Query *nat_analyze_statement(RawStmt *rs, const char *sql,
									Oid **types, int *ntypes);

/* ---- in plan/statement_shape.c: what one statement names ---- */

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

/* ---- in plan/statement_limit.c: the row cap written into the agent's query ---- */

extern char *nat_statement_with_limit(const char *sql, Query *query,
									  int64 rows);

/* in plan/sql_guard.c: statements that leave state in the session */
extern const char *nat_session_state_statement(Node *stmt);

/* in plan/citus_settings.c: is a function Citus's? */
extern bool nat_citus_function(Oid funcid);

#endif							/* NAT_PLAN_H */
