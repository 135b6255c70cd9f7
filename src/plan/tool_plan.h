/*-------------------------------------------------------------------------
 *
 * plan.h
 *		  What a tool asks the core to run, and what the run produced.
 *
 * A call goes only forward:
 *
 *	 core/args.c       validate the arguments and decode them into the
 *					   tool's struct (nat_decode_args)
 *	 tools/            plan: resolve names, build the SQL text and its bound
 *					   values, choose how it runs (the tool's ToolDef.plan)
 *	 core/execute.c    run the plan: the one place that calls SPI, binds
 *					   JSON values to inferred types, applies the row and
 *					   write caps (nat_run_plan)
 *	 answer/response.c render: every success key through one sink
 *					   (nat_response_plan; rows stream in through
 *					   answer/row_sink.c)
 *
 * A tool never runs SQL itself nor writes answer keys: it fills a ToolPlan.
 * ai_tool_plan() stops after the plan and renders it instead of running it
 * (answer/plan_description.c).
 *
 * IDENTIFICATION
 *		  src/plan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_TOOL_PLAN_H
#define NAT_TOOL_PLAN_H

#include "plan/plan.h"

/* how a plan runs */
typedef enum PlanRun
{
	PLAN_ROWS,					/* a query: rows streamed under the row caps */
	PLAN_WRITE,					/* a data-modifying statement under the write
								 * cap: affectedRows and its RETURNING rows */
	PLAN_UTILITY,				/* a utility statement (TRUNCATE, DROP): no
								 * rows; affectedRows as affected_from says */
	PLAN_VALUE,					/* one value of one row, the answer's data */
	PLAN_AGENT					/* the agent's statements (execute_sql): each
								 * analysed, bound and run in turn */
} PlanRun;

/* where a utility statement's affectedRows come from */
typedef enum PlanAffected
{
	PLAN_AFFECTED_NONE,			/* not reported */
	PLAN_AFFECTED_CONSTANT,		/* affected_constant */
	PLAN_AFFECTED_COUNT			/* count_sql, run right before the statement */
} PlanAffected;

/* how a PLAN_VALUE's value becomes "data" */
typedef enum PlanValueShape
{
	PLAN_VALUE_ROW,				/* a jsonb value: data is [value] */
	PLAN_VALUE_JSON_TEXT		/* json text (EXPLAIN): data is the value
								 * itself, left out past the byte budget */
} PlanValueShape;

/* a key of the tool's own in the success answer */
typedef enum AnswerFieldKind
{
	ANSWER_INT,					/* value */
	ANSWER_INT_LESS_OWN			/* value minus the rows the statement itself
								 * changed */
} AnswerFieldKind;

typedef struct AnswerField
{
	const char *key;
	AnswerFieldKind kind;
	int64		value;
} AnswerField;

typedef struct ToolPlan
{
	PlanRun		run;
	Oid			relid;			/* the resolved relation, or InvalidOid */

	/*
	 * relid's columns, resolved through the catalog (attribute numbers, int):
	 * those the answer's rows carry (the select list or RETURNING, in order;
	 * "*" expanded), and those the statement writes (INSERT's column list,
	 * UPDATE's SET list).
	 */
	List	   *columns;
	List	   *written_columns;

	const char *sql;			/* the statement, $n for the bound values */
	QueryParams params;			/* its bound values and their types */
	RowCaps		caps;			/* rows and bytes of the answer */
	int64		max_affected;	/* PLAN_WRITE, PLAN_AGENT: write cap; -1 none */

	/*
	 * PLAN_WRITE: the statement's own count is the rows its RETURNING
	 * returned (see execute.c), of which the last hidden_columns columns are
	 * not answered (a column only there to count the rows).
	 */
	bool		count_returned;
	int			hidden_columns;

	/* PLAN_UTILITY */
	PlanAffected affected_from;
	int64		affected_constant;
	char	   *count_sql;

	/* PLAN_VALUE */
	PlanValueShape value_shape;
	bool		utility;		/* a utility statement (EXPLAIN): SPI's
								 * read-only mode would refuse it */

	/*
	 * The agent's statements (PLAN_AGENT): parsed, but analysed only when
	 * they run, since a statement sees what an earlier one created; then
	 * json_params are bound to the types inferred for $1, $2, ...
	 */
	const char *source;			/* the text the statements point into */
	List	   *statements;		/* of RawStmt */
	JsonbValue *json_params;
	bool		multiple;		/* one result per statement in data */

	/*
	 * PLAN_ROWS: when the query answers no rows, look for values close to the
	 * filter's before the answer is rendered (select_query; run/ execute.c
	 * calls answer/empty_hints.c).  A flag, not a function the planner picks:
	 * planners sit below the answer and do not name it.
	 */
	bool		empty_hints;

	List	   *answer_fields;	/* of AnswerField, the tool's own keys */
	List	   *warnings;		/* of char *, the planner's sentences for the
								 * answer's "warning" */
	char	   *note;			/* the answer's "note" (what the planner did
								 * with the arguments), or NULL */
} ToolPlan;

/* what running a plan produced, for the answer */
typedef struct PlanResult
{
	int64		affected;		/* affectedRows; -1: none */
	int64		own_affected;	/* the statement's own count where it differs
								 * from affected (statementAffectedRows); -1:
								 * the same */
	RowResult	rows;
	Datum		value;			/* PLAN_VALUE, in the call's memory */
} PlanResult;

/* in plan/plan_build.c */
extern RowCaps nat_effective_row_caps(ToolCall *call);
extern void nat_plan_init(ToolCall *call, ToolPlan *plan);
extern void nat_plan_add_field(ToolPlan *plan, const char *key,
							   AnswerFieldKind kind, int64 value);
extern void nat_plan_add_warning(ToolPlan *plan, const char *warning);

/* in sql/sql_guard.c: analyse an agent's statement and bind its params */
extern Query *nat_analyze_and_bind(ToolCall *call, RawStmt *rs,
								   const char *source, JsonbValue *json_params,
								   QueryParams *bound, const char *what);

/* in sql/writes.c: rules shared by the planners that change rows */
extern Oid	nat_begin_write(ToolCall *call);
extern void nat_deparse_write_filter(StringInfo buf, ToolCall *call,
									 ToolPlan *plan, Oid relid,
									 NatOperation op);
extern int64 nat_effective_max_affected(ToolCall *call);
extern void nat_deparse_returning(StringInfo buf, ToolCall *call,
								  ToolPlan *plan, Oid relid);

/* in response.c: the success answer's sink */
extern void nat_response_warnings(ToolCall *call, List *warnings);
extern void nat_response_plan(ToolCall *call, ToolPlan *plan,
							  PlanResult *result);
extern void nat_response_statements_begin(ToolCall *call);
extern void nat_response_statement_begin(ToolCall *call, int index,
										 const char *command);
extern void nat_response_statement_end(ToolCall *call, bool modifies,
									   int64 affected, int64 own_affected,
									   RowResult *rows,
									   bool multiple);
extern void nat_response_statements_end(ToolCall *call, int count,
										bool truncated);

/* in empty_hints.c: an empty read's values close to its filter's */
extern void nat_empty_result_hints(ToolCall *call, ToolPlan *plan);

/* in plan_description.c: ai_tool_plan()'s answer */
extern void nat_response_plan_description(ToolCall *call, ToolPlan *plan);

#endif							/* NAT_TOOL_PLAN_H */
