/*-------------------------------------------------------------------------
 *
 * filter_sql.c
 *		  The where argument given as a SQL condition string.
 *
 * An agent may pass "age > 18 AND status = 'active'" instead of a
 * structured filter.  The text is never pasted into generated SQL.  It goes
 * through four stages (design (a) of notes/pg-internals.md section 4, with
 * our own deparser in place of ruleutils):
 *
 * 1. The core raw parser parses "SELECT " || condition, and the result must
 *	  have the shape of exactly one SELECT of one unnamed expression with no
 *	  other clause.  A second statement, a UNION, a FROM list or a comment
 *	  trick cannot satisfy this shape.
 *
 * 2. The raw expression is walked and everything outside a small grammar
 *	  is refused: subqueries, $n parameters, references to other tables,
 *	  aggregate or window syntax, functions not on the allow-list below,
 *	  operators not on the operator list below, row constructors,
 *	  subscripts.
 *
 * 3. The expression is analysed against the table with the parser's public
 *	  API (transformExpr and friends) while search_path is "pg_catalog,
 *	  pg_temp", so that unqualified operators, functions and types can only
 *	  resolve to built-in ones whatever the caller's search_path is.  The
 *	  analysed tree is walked again: every function it calls (operator
 *	  implementations, casts, type I/O of CoerceViaIO) must live in
 *	  pg_catalog and must not be volatile.  Nothing has been executed so
 *	  far except type input functions turning literals into constants.
 *
 * 4. The analysed tree is printed back as fully parenthesized SQL by the
 *	  deparser below: columns by their catalog names, operators as
 *	  OPERATOR(pg_catalog.op), functions and types schema-qualified, and
 *	  every constant as a bound parameter "$n::type".  Constructs whose
 *	  re-parse would look an operator up by name (IS DISTINCT FROM, NULLIF,
 *	  simple CASE) are spelt out with explicit operators instead.
 *
 * Allowed functions (unqualified or pg_catalog-qualified):
 *	 text:	   lower upper initcap length char_length character_length
 *			   octet_length btrim ltrim rtrim (and TRIM(...)) substring substr
 *			   left right strpos position replace reverse split_part
 *			   starts_with lpad rpad
 *	 numbers:  abs round trunc floor ceil ceiling mod sign sqrt power
 *	 time:	   now date_trunc date_part extract age to_char to_date
 *			   to_timestamp make_date date isfinite timezone (AT TIME ZONE)
 *	 arrays:   array_length cardinality
 *	 jsonb:    jsonb_typeof jsonb_array_length
 * plus the syntax COALESCE, NULLIF, GREATEST, LEAST, CASE, CAST / ::,
 * COLLATE, CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIME and
 * LOCALTIMESTAMP.  like_escape and similar_to_escape are allowed because
 * LIKE ... ESCAPE and SIMILAR TO are written in terms of them.
 *
 * Allowed operators (unqualified or OPERATOR(pg_catalog.op)):
 *	 comparison	 = <> != < <= > >=  (also with ANY / ALL (array))
 *	 arithmetic	 + - * / % ^  (and prefix - and ~)
 *	 text		 || ~~ ~~* !~~ !~~* ~ ~* !~ !~* ^@  (LIKE, ILIKE, SIMILAR TO)
 *	 containment @> <@ &&
 *	 jsonb		 -> ->> #> #>> ? ?| ?&
 * plus AND, OR, NOT, IN, BETWEEN [SYMMETRIC], IS [NOT] DISTINCT FROM,
 * IS [NOT] NULL and IS [NOT] TRUE / FALSE / UNKNOWN.
 *
 * Errors: refusals are invalid_parameters tool errors carrying the JSON
 * path of the argument and a 1-based position in the agent's own text.
 * Errors found by PostgreSQL itself (syntax errors, unknown columns,
 * operators that do not exist, bad literals, a non-boolean condition)
 * propagate as ordinary ERRORs with their own SQLSTATE; an error context
 * callback moves their cursor position from the synthesized
 * "SELECT ..." string back into the agent's text.
 *
 * IDENTIFICATION
 *		  src/sql/filter_sql.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "plan/plan.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_coerce.h"
#include "parser/parse_collate.h"
#include "parser/parse_expr.h"
#include "parser/parse_node.h"
#include "parser/parse_relation.h"
#include "parser/scansup.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

/* what the parser sees in front of the agent's text */
#define CONDITION_PREFIX		"SELECT "
#define CONDITION_PREFIX_LEN	((int) (sizeof(CONDITION_PREFIX) - 1))

/* the search_path in force while the condition is analysed */
#define ANALYSIS_SEARCH_PATH	"pg_catalog, pg_temp"

/* functions an agent may call; see the file header */
static const char *const allowed_functions[] = {
	"lower", "upper", "initcap", "length", "char_length",
	"character_length", "octet_length", "btrim", "ltrim", "rtrim",
	"substring", "substr", "left", "right", "strpos", "position", "replace",
	"reverse", "split_part", "starts_with", "lpad", "rpad",
	"abs", "round", "trunc", "floor", "ceil", "ceiling", "mod", "sign",
	"sqrt", "power",
	"now", "date_trunc", "date_part", "extract", "age", "to_char",
	"to_date", "to_timestamp", "make_date", "date", "isfinite", "timezone",
	"array_length", "cardinality",
	"jsonb_typeof", "jsonb_array_length",
	"like_escape", "similar_to_escape",
};

/* the ones worth telling an agent about */
#define ALLOWED_FUNCTIONS_TEXT \
	"lower, upper, initcap, length, char_length, octet_length, trim, " \
	"btrim, ltrim, rtrim, substring, substr, left, right, strpos, " \
	"position, replace, reverse, split_part, starts_with, lpad, rpad, " \
	"abs, round, trunc, floor, ceil, mod, sign, sqrt, power, now, " \
	"date_trunc, date_part, extract, age, to_char, to_date, to_timestamp, " \
	"make_date, date, isfinite, array_length, cardinality, jsonb_typeof, " \
	"jsonb_array_length, coalesce, nullif, greatest, least"

/* operators an agent may use; "!=" arrives from the lexer as "<>" */
static const char *const allowed_operators[] = {
	"=", "<>", "<", "<=", ">", ">=",
	"+", "-", "*", "/", "%", "^", "~",
	"||", "~~", "~~*", "!~~", "!~~*", "~*", "!~", "!~*", "^@",
	"@>", "<@", "&&",
	"->", "->>", "#>", "#>>", "?", "?|", "?&",
};

#define ALLOWED_OPERATORS_SUGGESTION \
	"Use comparisons (= <> < <= > >=), arithmetic (+ - * / %), text " \
	"operators (|| LIKE ILIKE ~ ~*), containment (@> <@ &&), jsonb " \
	"operators (-> ->> #> #>> ?), IN, BETWEEN, IS [NOT] NULL and " \
	"AND / OR / NOT; use execute_sql for anything else."

#define SHAPE_SUGGESTION \
	"Pass only a boolean condition over the table's columns, such as " \
	"\"age > 18 AND status = 'active'\", without SELECT, FROM, ORDER BY, " \
	"LIMIT, UNION or a semicolon."

/* state shared by the stages */
typedef struct FilterSqlContext
{
	const char *sql;			/* CONDITION_PREFIX || condition */
	const char *path;			/* JSON path of the where argument */
	Oid			relid;
	QueryParams *params;
	int			location;		/* of the analysed node being checked */
	Node	   *case_arg;		/* what a CaseTestExpr stands for */
} FilterSqlContext;

pg_noreturn static void refuse(FilterSqlContext *ctx, int location, const char *suggestion,
							   const char *fmt,...) pg_attribute_printf(4, 5) pg_attribute_noreturn();
static void position_error_callback(void *arg);
static Node *parse_condition(FilterSqlContext *ctx);
static bool name_in_list(const char *name, const char *const *list, int n);
static bool check_raw_node(Node *node, void *context);
static void check_raw_a_expr(FilterSqlContext *ctx, A_Expr *a);
static void check_raw_func_call(FilterSqlContext *ctx, FuncCall *fc);
static bool datetime_value_function(SQLValueFunctionOp op);
static Node *analyse_condition(FilterSqlContext *ctx, Node *raw);
static bool check_analysed_node(Node *node, void *context);
static void check_operator(FilterSqlContext *ctx, Node *node, Oid opno);
static bool function_not_allowed(Oid funcid, void *context);
static void deparse_node(StringInfo buf, Node *node, FilterSqlContext *ctx);
static void deparse_scalar_array_op(StringInfo buf, ScalarArrayOpExpr *saop,
									FilterSqlContext *ctx);
static void deparse_bool_expr(StringInfo buf, BoolExpr *b,
							  FilterSqlContext *ctx);
static void deparse_null_test(StringInfo buf, NullTest *nt,
							  FilterSqlContext *ctx);
static void deparse_boolean_test(StringInfo buf, BooleanTest *bt,
								 FilterSqlContext *ctx);
static void deparse_relabel(StringInfo buf, RelabelType *r,
							FilterSqlContext *ctx);
static void deparse_min_max_expr(StringInfo buf, MinMaxExpr *mm,
								 FilterSqlContext *ctx);
static void deparse_const(StringInfo buf, Const *c, FilterSqlContext *ctx);
static void deparse_op_expr(StringInfo buf, OpExpr *op, FilterSqlContext *ctx);
static void deparse_distinct_expr(StringInfo buf, OpExpr *op,
								  FilterSqlContext *ctx);
static void deparse_nullif_expr(StringInfo buf, OpExpr *op,
								FilterSqlContext *ctx);
static void deparse_func_expr(StringInfo buf, FuncExpr *fe,
							  FilterSqlContext *ctx);
static void deparse_cast(StringInfo buf, Node *arg, Oid typid, int32 typmod,
						 FilterSqlContext *ctx);
static void deparse_array_expr(StringInfo buf, ArrayExpr *arr, bool cast,
							   FilterSqlContext *ctx);
static void deparse_case_expr(StringInfo buf, CaseExpr *ce,
							  FilterSqlContext *ctx);
static void deparse_expr_list(StringInfo buf, List *args,
							  FilterSqlContext *ctx);
static void deparse_value_function(StringInfo buf, SQLValueFunction *svf);

/*
 * nat_deparse_sql_condition
 *		Append to buf the SQL condition string "condition" over table relid,
 *		validated and re-written with every literal as a bound parameter.
 *
 * 'buf' receives a fully parenthesized boolean expression that can follow
 * WHERE in a statement whose only FROM item is relid.  'params' receives
 * one parameter per literal, numbered after those already in it; the
 * values are allocated in CurrentMemoryContext.  'path' is the JSON path of
 * the argument, used in refusals.
 *
 * Raises an invalid_parameters tool error for anything outside the allowed
 * grammar, and PostgreSQL's own ERRORs for syntax errors, unknown columns,
 * impossible operators, bad literals and non-boolean conditions; the
 * caller runs inside a subtransaction and categorizes both.  Takes
 * AccessShareLock on relid until the end of the transaction.
 */
void
nat_deparse_sql_condition(StringInfo buf, Oid relid, const char *condition,
						  QueryParams *params, const char *path)
{
	FilterSqlContext ctx;
	Node	   *raw;
	Node	   *expr;
	const char *p;

	ctx.path = path;
	ctx.relid = relid;
	ctx.params = params;
	ctx.location = -1;
	ctx.case_arg = NULL;
	ctx.sql = psprintf("%s%s", CONDITION_PREFIX, condition ? condition : "");

	/* "SELECT " alone is a valid statement; an empty condition is not */
	for (p = condition ? condition : ""; *p != '\0'; p++)
	{
		if (!scanner_isspace(*p))
			break;
	}
	if (*p == '\0')
		refuse(&ctx, -1,
			   "Pass a boolean condition such as \"id = 1\", or leave out where.",
			   "the where condition is empty");

	raw = parse_condition(&ctx);
	(void) check_raw_node(raw, &ctx);
	expr = analyse_condition(&ctx, raw);
	(void) check_analysed_node(expr, &ctx);
	deparse_node(buf, expr, &ctx);
}

/*
 * refuse
 *		Raise an invalid_parameters tool error about the where argument.
 *
 * 'location' is a byte offset into ctx->sql (a node's location), or -1; it
 * becomes a 1-based character position in the agent's own text.
 */
static void
refuse(FilterSqlContext *ctx, int location, const char *suggestion,
	   const char *fmt,...)
{
	ToolError  *err;
	va_list		args;

	va_start(args, fmt);
	err = nat_error(NAT_ERR_INVALID_PARAMETERS, "%s", nat_format_va(fmt, args));
	va_end(args);
	err->path = ctx->path ? pstrdup(ctx->path) : NULL;
	err->suggestion = suggestion ? pstrdup(suggestion) : NULL;
	if (location >= CONDITION_PREFIX_LEN)
		err->position = pg_mbstrlen_with_len(ctx->sql, location) + 1 -
			CONDITION_PREFIX_LEN;
	nat_throw(err);
}

/*
 * position_error_callback
 *		Error context callback active while PostgreSQL parses and analyses
 *		the condition: move the error's cursor position from the synthesized
 *		"SELECT ..." string into the agent's own text.
 *
 * CONDITION_PREFIX is ASCII, so character positions shift by its length.
 * Our own tool errors already carry positions in the agent's text and are
 * left alone.  An unknown type or collation gets a hint, since analysis
 * looks such names up in pg_catalog only (see analyse_condition).
 */
static void
position_error_callback(void *arg)
{
	int			pos;

	if (geterrcode() == ERRCODE_NAT_TOOL_ERROR)
		return;
	if (geterrcode() == ERRCODE_UNDEFINED_OBJECT)
		errhint("Type and collation names in a where condition are looked up in pg_catalog only; qualify other ones with their schema, as in 'x'::public.my_type.");
	pos = geterrposition();
	if (pos > CONDITION_PREFIX_LEN)
		errposition(pos - CONDITION_PREFIX_LEN);
	else if (pos > 0)
		errposition(0);
}

/*
 * parse_condition
 *		Run the raw parser over ctx->sql and return the one expression, after
 *		checking that the statement has no other part.
 *
 * A syntax error is a refusal of the argument like any other
 * (invalid_parameters), with PostgreSQL's message and its position in the
 * agent's text: a string such as "id = 1) UNION SELECT (1" is an attempt to
 * break out of the condition, not SQL to fix.  The raw parser touches no
 * catalog, lock or buffer, so catching its error needs no subtransaction.
 */
static Node *
parse_condition(FilterSqlContext *ctx)
{
	ErrorContextCallback errcallback;
	List	   *volatile stmts = NIL;
	ErrorData  *volatile edata = NULL;
	MemoryContext oldcxt = CurrentMemoryContext;
	RawStmt    *rs;
	SelectStmt *sel;
	ResTarget  *rt;

	errcallback.callback = position_error_callback;
	errcallback.arg = ctx;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	PG_TRY();
	{
		stmts = nat_raw_parser(ctx->sql);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		FlushErrorState();
	}
	PG_END_TRY();
	error_context_stack = errcallback.previous;

	if (edata)
	{
		ToolError  *err = nat_error(NAT_ERR_INVALID_PARAMETERS,
									"the where condition is not valid SQL: %s",
									nat_clip_quoted(edata->message));

		err->path = ctx->path ? pstrdup(ctx->path) : NULL;
		err->suggestion = pstrdup(SHAPE_SUGGESTION);
		err->position = edata->cursorpos;	/* already re-based */
		nat_throw(err);
	}

	if (list_length(stmts) != 1)
		refuse(ctx, -1, SHAPE_SUGGESTION,
			   "the where condition must be a single expression, not %d statements",
			   list_length(stmts));
	rs = linitial_node(RawStmt, stmts);
	if (!IsA(rs->stmt, SelectStmt))
		refuse(ctx, -1, SHAPE_SUGGESTION,
			   "the where condition must be a single boolean expression");
	sel = (SelectStmt *) rs->stmt;
	if (sel->op != SETOP_NONE)
		refuse(ctx, -1, SHAPE_SUGGESTION,
			   "UNION, INTERSECT and EXCEPT are not allowed in a where condition");
	if (sel->valuesLists != NIL || sel->intoClause != NULL ||
		sel->fromClause != NIL || sel->whereClause != NULL ||
		sel->groupClause != NIL || sel->havingClause != NULL ||
		sel->windowClause != NIL || sel->sortClause != NIL ||
		sel->limitOffset != NULL || sel->limitCount != NULL ||
		sel->lockingClause != NIL || sel->withClause != NULL ||
		sel->distinctClause != NIL)
		refuse(ctx, -1, SHAPE_SUGGESTION,
			   "the where condition must be a single boolean expression, without SELECT clauses such as FROM, WHERE, GROUP BY, ORDER BY or LIMIT");
	if (sel->targetList == NIL)
		refuse(ctx, -1,
			   "Pass a boolean condition such as \"id = 1\", or leave out where.",
			   "the where condition is empty");
	if (list_length(sel->targetList) != 1)
		refuse(ctx, -1, SHAPE_SUGGESTION,
			   "the where condition must be a single boolean expression, not a list of %d expressions",
			   list_length(sel->targetList));
	rt = linitial_node(ResTarget, sel->targetList);
	if (rt->name != NULL || rt->indirection != NIL)
		refuse(ctx, rt->location, SHAPE_SUGGESTION,
			   "the where condition must not name its result (\"AS %s\")",
			   rt->name ? nat_clip(rt->name) : "");
	return rt->val;
}

/*
 * name_in_list
 *		Is 'name' one of the n strings of 'list'?
 */
static bool
name_in_list(const char *name, const char *const *list, int n)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		if (strcmp(name, list[i]) == 0)
			return true;
	}
	return false;
}

/*
 * check_raw_node
 *		raw_expression_tree_walker callback: refuse every raw node outside
 *		the grammar of a where condition.
 *
 * Always returns false (keep walking); refusals raise.
 */
static bool
check_raw_node(Node *node, void *context)
{
	FilterSqlContext *ctx = (FilterSqlContext *) context;

	if (node == NULL)
		return false;
	check_stack_depth();

	switch (nodeTag(node))
	{
		case T_List:
		case T_A_Const:
		case T_BoolExpr:
		case T_NullTest:
		case T_BooleanTest:
		case T_TypeCast:
		case T_TypeName:
		case T_Integer:			/* array bounds of a TypeName */
		case T_A_ArrayExpr:
		case T_CoalesceExpr:
		case T_MinMaxExpr:
		case T_CaseExpr:
		case T_CaseWhen:
		case T_CollateClause:
			break;

		case T_A_Expr:
			check_raw_a_expr(ctx, (A_Expr *) node);
			break;

		case T_FuncCall:
			check_raw_func_call(ctx, (FuncCall *) node);
			break;

		case T_ColumnRef:
			{
				ColumnRef  *cref = (ColumnRef *) node;
				Node	   *last = llast(cref->fields);

				if (IsA(last, A_Star))
					refuse(ctx, cref->location,
						   "Compare individual columns by name.",
						   "\"*\" is not allowed in a where condition");
				if (list_length(cref->fields) != 1)
					refuse(ctx, cref->location,
						   "Write the column name alone (\"id\", not \"t.id\"); use execute_sql to query other tables.",
						   "column reference \"%s\" is qualified; a where condition may only name the table's own columns",
						   nat_clip(NameListToString(cref->fields)));
				break;
			}

		case T_SQLValueFunction:
			{
				SQLValueFunction *svf = (SQLValueFunction *) node;

				if (!datetime_value_function(svf->op))
					refuse(ctx, svf->location,
						   "Of the SQL value functions only CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIME and LOCALTIMESTAMP are allowed; use execute_sql otherwise.",
						   "this SQL value function is not allowed in a where condition");
				break;
			}

		case T_SubLink:
			refuse(ctx, exprLocation(node),
				   "Filter on the table's own columns; use execute_sql for subqueries.",
				   "subqueries are not allowed in a where condition");
			break;

		case T_ParamRef:
			refuse(ctx, exprLocation(node),
				   "Write values as literals, such as id = 5 or name = 'x'; every literal is bound as a parameter automatically.",
				   "parameter placeholders such as $%d are not allowed in a where condition",
				   ((ParamRef *) node)->number);
			break;

		case T_RowExpr:
			refuse(ctx, exprLocation(node),
				   "Compare one column at a time and combine the comparisons with AND.",
				   "row constructors are not allowed in a where condition");
			break;

		case T_A_Indirection:
			refuse(ctx, exprLocation(((A_Indirection *) node)->arg),
				   "Use the jsonb operators -> and ->>, or array_length and containment operators, instead of subscripts; use execute_sql otherwise.",
				   "subscripts and field selections are not allowed in a where condition");
			break;

		case T_NamedArgExpr:
			refuse(ctx, exprLocation(node),
				   "Pass function arguments by position.",
				   "named function arguments are not allowed in a where condition");
			break;

		default:
			refuse(ctx, exprLocation(node), ALLOWED_OPERATORS_SUGGESTION,
				   "this kind of expression is not allowed in a where condition");
	}

	return raw_expression_tree_walker(node, check_raw_node, context);
}

/*
 * check_raw_a_expr
 *		Refuse operator expressions whose kind or operator is not allowed.
 *
 * IN, LIKE, BETWEEN and the like carry fixed operator names chosen by the
 * grammar; the operator of a plain, ANY or ALL expression must be on the
 * list, unqualified or qualified with pg_catalog.
 */
static void
check_raw_a_expr(FilterSqlContext *ctx, A_Expr *a)
{
	const char *opname;

	switch (a->kind)
	{
		case AEXPR_OP:
		case AEXPR_OP_ANY:
		case AEXPR_OP_ALL:
			break;
		case AEXPR_DISTINCT:
		case AEXPR_NOT_DISTINCT:
		case AEXPR_NULLIF:
		case AEXPR_IN:
		case AEXPR_LIKE:
		case AEXPR_ILIKE:
		case AEXPR_SIMILAR:
		case AEXPR_BETWEEN:
		case AEXPR_NOT_BETWEEN:
		case AEXPR_BETWEEN_SYM:
		case AEXPR_NOT_BETWEEN_SYM:
			return;
		default:
			refuse(ctx, a->location, ALLOWED_OPERATORS_SUGGESTION,
				   "this kind of operator expression is not allowed in a where condition");
	}

	opname = strVal(llast(a->name));
	if (list_length(a->name) > 2 ||
		(list_length(a->name) == 2 &&
		 strcmp(strVal(linitial(a->name)), "pg_catalog") != 0))
		refuse(ctx, a->location,
			   "Use the built-in operators unqualified, such as = or <, or qualified as OPERATOR(pg_catalog.=).",
			   "operator OPERATOR(%s) is not allowed in a where condition",
			   nat_clip(NameListToString(a->name)));
	if (!name_in_list(opname, allowed_operators, lengthof(allowed_operators)))
		refuse(ctx, a->location, ALLOWED_OPERATORS_SUGGESTION,
			   "operator %s is not allowed in a where condition", opname);
}

/*
 * check_raw_func_call
 *		Refuse a function call unless it is a plain call of an allowed
 *		function, unqualified or qualified with pg_catalog.
 */
static void
check_raw_func_call(FilterSqlContext *ctx, FuncCall *fc)
{
	const char *name = strVal(llast(fc->funcname));

	if (list_length(fc->funcname) > 2 ||
		(list_length(fc->funcname) == 2 &&
		 strcmp(strVal(linitial(fc->funcname)), "pg_catalog") != 0))
		refuse(ctx, fc->location,
			   "Only built-in functions may be called: " ALLOWED_FUNCTIONS_TEXT ". Use execute_sql to call other functions.",
			   "function %s() is not allowed in a where condition",
			   nat_clip(NameListToString(fc->funcname)));
	if (!name_in_list(name, allowed_functions, lengthof(allowed_functions)))
		refuse(ctx, fc->location,
			   "Only these functions may be called: " ALLOWED_FUNCTIONS_TEXT ". Use execute_sql to call other functions.",
			   "function %s() is not allowed in a where condition",
			   name);
	if (fc->agg_star || fc->agg_distinct || fc->agg_order != NIL ||
		fc->agg_filter != NULL || fc->over != NULL || fc->agg_within_group)
		refuse(ctx, fc->location,
			   "Filter individual rows with plain expressions; use execute_sql for aggregates and window functions.",
			   "aggregate and window syntax is not allowed in a where condition");
	if (fc->func_variadic)
		refuse(ctx, fc->location,
			   "Pass the arguments one by one.",
			   "VARIADIC is not allowed in a where condition");
}

/*
 * datetime_value_function
 *		Is op one of the date/time SQL value functions we allow?
 */
static bool
datetime_value_function(SQLValueFunctionOp op)
{
	switch (op)
	{
		case SVFOP_CURRENT_DATE:
		case SVFOP_CURRENT_TIME:
		case SVFOP_CURRENT_TIME_N:
		case SVFOP_CURRENT_TIMESTAMP:
		case SVFOP_CURRENT_TIMESTAMP_N:
		case SVFOP_LOCALTIME:
		case SVFOP_LOCALTIME_N:
		case SVFOP_LOCALTIMESTAMP:
		case SVFOP_LOCALTIMESTAMP_N:
			return true;
		default:
			return false;
	}
}

/*
 * analyse_condition
 *		Turn the raw expression into an analysed boolean expression over
 *		relid, resolving names in pg_catalog only.
 *
 * PostgreSQL's errors (42703 undefined column, 42883 no such operator or
 * function, 22P02 bad literal, 42804 not boolean, ...) propagate with
 * their position re-based into the agent's text.  The search_path setting
 * made here is undone on success; on error the caller's subtransaction
 * abort undoes it.
 */
static Node *
analyse_condition(FilterSqlContext *ctx, Node *raw)
{
	ErrorContextCallback errcallback;
	ParseState *pstate;
	ParseNamespaceItem *nsitem;
	Relation	rel;
	Node	   *expr;
	int			save_nestlevel;

	errcallback.callback = position_error_callback;
	errcallback.arg = ctx;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;

	pstate = make_parsestate(NULL);
	pstate->p_sourcetext = ctx->sql;
	rel = table_open(ctx->relid, AccessShareLock);

	/*
	 * The table is visible for its columns only: a bare table name must not
	 * become a whole-row reference.
	 */
	nsitem = addRangeTableEntryForRelation(pstate, rel, AccessShareLock,
										   NULL, false, true);
	addNSItemToQuery(pstate, nsitem, false, false, true);

	/*
	 * Resolve unqualified operators, functions, types and collations in
	 * pg_catalog only (pg_temp last, and never for functions or operators),
	 * so that a schema earlier in the caller's search_path cannot supply an
	 * "=" of its own.  The price: operators that only exist in other schemas
	 * (extension types such as citext) are not found, and a comparison on
	 * such a type may fall back to a built-in one through an implicit cast.
	 */
	save_nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", ANALYSIS_SEARCH_PATH,
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);

	expr = transformExpr(pstate, raw, EXPR_KIND_WHERE);
	expr = coerce_to_boolean(pstate, expr, "WHERE");
	assign_expr_collations(pstate, expr);

	AtEOXact_GUC(false, save_nestlevel);

	table_close(rel, NoLock);
	free_parsestate(pstate);
	error_context_stack = errcallback.previous;
	return expr;
}

/*
 * check_analysed_node
 *		expression_tree_walker callback: refuse analysed nodes the deparser
 *		does not print, columns that are not plain user columns, and every
 *		function that is volatile or not built in.
 *
 * This is the second line of defence behind the raw check: whatever the
 * parser made of the text, nothing outside this set is ever executed.
 */
static bool
check_analysed_node(Node *node, void *context)
{
	FilterSqlContext *ctx = (FilterSqlContext *) context;

	if (node == NULL)
		return false;
	check_stack_depth();

	switch (nodeTag(node))
	{
		case T_Var:
			{
				Var		   *var = (Var *) node;

				if (var->varlevelsup != 0 || var->varno != 1)
					refuse(ctx, var->location,
						   "Name only the table's own columns.",
						   "a where condition may only refer to the table's own columns");
				if (var->varattno <= 0)
					refuse(ctx, var->location,
						   "Filter on the table's ordinary columns.",
						   "system columns and whole-row references are not allowed in a where condition");
				break;
			}

		case T_OpExpr:
		case T_DistinctExpr:
		case T_NullIfExpr:
			check_operator(ctx, node, ((OpExpr *) node)->opno);
			break;

		case T_ScalarArrayOpExpr:
			check_operator(ctx, node, ((ScalarArrayOpExpr *) node)->opno);
			break;

		case T_SQLValueFunction:
			if (!datetime_value_function(((SQLValueFunction *) node)->op))
				refuse(ctx, exprLocation(node),
					   "Use CURRENT_DATE, CURRENT_TIMESTAMP or LOCALTIMESTAMP.",
					   "this SQL value function is not allowed in a where condition");
			break;

		case T_CoerceToDomain:
			refuse(ctx, exprLocation(node),
				   "Cast to the domain's base type instead.",
				   "casts to the domain type %s are not allowed in a where condition",
				   format_type_be(((CoerceToDomain *) node)->resulttype));
			break;

		case T_List:
		case T_Const:
		case T_FuncExpr:
		case T_BoolExpr:
		case T_NullTest:
		case T_BooleanTest:
		case T_RelabelType:
		case T_CoerceViaIO:
		case T_ArrayCoerceExpr:
		case T_ArrayExpr:
		case T_CoalesceExpr:
		case T_MinMaxExpr:
		case T_CaseExpr:
		case T_CaseWhen:
		case T_CaseTestExpr:
		case T_CollateExpr:
			break;

		default:
			refuse(ctx, exprLocation(node), ALLOWED_OPERATORS_SUGGESTION,
				   "this kind of expression is not allowed in a where condition");
	}

	/* FuncExpr, operators, CoerceViaIO: the functions they call */
	ctx->location = exprLocation(node);
	(void) check_functions_in_node(node, function_not_allowed, ctx);

	return expression_tree_walker(node, check_analysed_node, context);
}

/*
 * check_operator
 *		Refuse an operator that is not built in.
 *
 * Analysis resolves unqualified operators in pg_catalog only and the raw
 * check refuses other qualifications, so this cannot fail today; it keeps
 * the guarantee independent of how names were resolved.
 */
static void
check_operator(FilterSqlContext *ctx, Node *node, Oid opno)
{
	HeapTuple	tuple;
	Oid			nspid;

	tuple = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for operator %u", opno);
	nspid = ((Form_pg_operator) GETSTRUCT(tuple))->oprnamespace;
	ReleaseSysCache(tuple);

	if (nspid != PG_CATALOG_NAMESPACE)
		refuse(ctx, exprLocation(node), ALLOWED_OPERATORS_SUGGESTION,
			   "operator %s is not a built-in operator and is not allowed in a where condition",
			   format_operator(opno));
}

/*
 * function_not_allowed
 *		check_functions_in_node callback: refuse a function that is volatile
 *		or does not live in pg_catalog.
 *
 * Raises rather than returning true, so the message can name the
 * function; the position is that of the node calling it.
 */
static bool
function_not_allowed(Oid funcid, void *context)
{
	FilterSqlContext *ctx = (FilterSqlContext *) context;

	if (get_func_namespace(funcid) != PG_CATALOG_NAMESPACE)
		refuse(ctx, ctx->location,
			   "Only built-in functions, operators and casts may be used; use execute_sql to call other functions.",
			   "function %s is not a built-in function and is not allowed in a where condition",
			   format_procedure(funcid));
	if (func_volatile(funcid) == PROVOLATILE_VOLATILE)
		refuse(ctx, ctx->location,
			   "Use only functions whose result does not change between calls; use execute_sql otherwise.",
			   "function %s is volatile and is not allowed in a where condition",
			   format_procedure(funcid));
	return false;
}

/*
 * deparse_node
 *		Append the analysed expression 'node' to buf as SQL text.
 *
 * Every composite expression is parenthesized, so the text means the same
 * wherever it is pasted.  Only nodes accepted by check_analysed_node reach
 * here; anything else is an internal error.
 */
static void
deparse_node(StringInfo buf, Node *node, FilterSqlContext *ctx)
{
	check_stack_depth();

	switch (nodeTag(node))
	{
		case T_Var:
			nat_deparse_column(buf, ctx->relid, ((Var *) node)->varattno);
			break;

		case T_Const:
			deparse_const(buf, (Const *) node, ctx);
			break;

		case T_OpExpr:
			deparse_op_expr(buf, (OpExpr *) node, ctx);
			break;

		case T_DistinctExpr:
			deparse_distinct_expr(buf, (OpExpr *) node, ctx);
			break;

		case T_NullIfExpr:
			deparse_nullif_expr(buf, (OpExpr *) node, ctx);
			break;

		case T_ScalarArrayOpExpr:
			deparse_scalar_array_op(buf, (ScalarArrayOpExpr *) node, ctx);
			break;

		case T_BoolExpr:
			deparse_bool_expr(buf, (BoolExpr *) node, ctx);
			break;

		case T_NullTest:
			deparse_null_test(buf, (NullTest *) node, ctx);
			break;

		case T_BooleanTest:
			deparse_boolean_test(buf, (BooleanTest *) node, ctx);
			break;

		case T_FuncExpr:
			deparse_func_expr(buf, (FuncExpr *) node, ctx);
			break;

		case T_RelabelType:
			deparse_relabel(buf, (RelabelType *) node, ctx);
			break;

		case T_CoerceViaIO:
			{
				CoerceViaIO *c = (CoerceViaIO *) node;

				deparse_cast(buf, (Node *) c->arg, c->resulttype, -1, ctx);
				break;
			}

		case T_ArrayCoerceExpr:
			{
				ArrayCoerceExpr *c = (ArrayCoerceExpr *) node;

				deparse_cast(buf, (Node *) c->arg, c->resulttype,
							 c->resulttypmod, ctx);
				break;
			}

		case T_ArrayExpr:
			deparse_array_expr(buf, (ArrayExpr *) node, true, ctx);
			break;

		case T_CoalesceExpr:
			appendStringInfoString(buf, "COALESCE(");
			deparse_expr_list(buf, ((CoalesceExpr *) node)->args, ctx);
			appendStringInfoChar(buf, ')');
			break;

		case T_MinMaxExpr:
			deparse_min_max_expr(buf, (MinMaxExpr *) node, ctx);
			break;

		case T_CaseExpr:
			deparse_case_expr(buf, (CaseExpr *) node, ctx);
			break;

		case T_CaseTestExpr:
			if (ctx->case_arg == NULL)
				elog(ERROR, "CaseTestExpr outside a CASE expression");
			deparse_node(buf, ctx->case_arg, ctx);
			break;

		case T_CollateExpr:
			{
				CollateExpr *ce = (CollateExpr *) node;

				appendStringInfoChar(buf, '(');
				deparse_node(buf, (Node *) ce->arg, ctx);
				appendStringInfoString(buf, " COLLATE ");
				nat_deparse_collation(buf, ce->collOid);
				appendStringInfoChar(buf, ')');
				break;
			}

		case T_SQLValueFunction:
			deparse_value_function(buf, (SQLValueFunction *) node);
			break;

		default:
			elog(ERROR, "unexpected node type in where condition: %d",
				 (int) nodeTag(node));
	}
}

/*
 * deparse_scalar_array_op
 *		"(a op ANY (array))" or "(a op ALL (array))".
 */
static void
deparse_scalar_array_op(StringInfo buf, ScalarArrayOpExpr *saop,
						FilterSqlContext *ctx)
{
	appendStringInfoChar(buf, '(');
	deparse_node(buf, linitial(saop->args), ctx);
	appendStringInfoChar(buf, ' ');
	nat_deparse_operator_name(buf, saop->opno);
	appendStringInfoString(buf, saop->useOr ? " ANY (" : " ALL (");
	deparse_node(buf, lsecond(saop->args), ctx);
	appendStringInfoString(buf, "))");
}

/*
 * deparse_bool_expr
 *		"(NOT a)", "(a AND b ...)" or "(a OR b ...)".
 */
static void
deparse_bool_expr(StringInfo buf, BoolExpr *b, FilterSqlContext *ctx)
{
	ListCell   *lc;

	if (b->boolop == NOT_EXPR)
	{
		appendStringInfoString(buf, "(NOT ");
		deparse_node(buf, linitial(b->args), ctx);
		appendStringInfoChar(buf, ')');
		return;
	}
	appendStringInfoChar(buf, '(');
	foreach(lc, b->args)
	{
		if (lc != list_head(b->args))
			appendStringInfoString(buf, b->boolop == AND_EXPR ?
								   " AND " : " OR ");
		deparse_node(buf, lfirst(lc), ctx);
	}
	appendStringInfoChar(buf, ')');
}

/*
 * deparse_null_test
 *		"(a IS NULL)" or "(a IS NOT NULL)".
 */
static void
deparse_null_test(StringInfo buf, NullTest *nt, FilterSqlContext *ctx)
{
	/* argisrow follows from the argument's type on re-parse */
	appendStringInfoChar(buf, '(');
	deparse_node(buf, (Node *) nt->arg, ctx);
	appendStringInfoString(buf, nt->nulltesttype == IS_NULL ?
						   " IS NULL)" : " IS NOT NULL)");
}

/*
 * deparse_boolean_test
 *		"(a IS TRUE)", "(a IS NOT UNKNOWN)", ...
 */
static void
deparse_boolean_test(StringInfo buf, BooleanTest *bt, FilterSqlContext *ctx)
{
	const char *test = NULL;

	switch (bt->booltesttype)
	{
		case IS_TRUE:
			test = " IS TRUE)";
			break;
		case IS_NOT_TRUE:
			test = " IS NOT TRUE)";
			break;
		case IS_FALSE:
			test = " IS FALSE)";
			break;
		case IS_NOT_FALSE:
			test = " IS NOT FALSE)";
			break;
		case IS_UNKNOWN:
			test = " IS UNKNOWN)";
			break;
		case IS_NOT_UNKNOWN:
			test = " IS NOT UNKNOWN)";
			break;
	}
	if (test == NULL)
		elog(ERROR, "unrecognized booltesttype: %d",
			 (int) bt->booltesttype);
	appendStringInfoChar(buf, '(');
	deparse_node(buf, (Node *) bt->arg, ctx);
	appendStringInfoString(buf, test);
}

/*
 * deparse_relabel
 *		A binary-compatible cast, written as a cast to its result type.
 */
static void
deparse_relabel(StringInfo buf, RelabelType *r, FilterSqlContext *ctx)
{
	/* a polymorphic pseudo-type cannot be cast to */
	if (get_typtype(r->resulttype) == TYPTYPE_PSEUDO)
		deparse_node(buf, (Node *) r->arg, ctx);
	else
		deparse_cast(buf, (Node *) r->arg, r->resulttype,
					 r->resulttypmod, ctx);
}

/*
 * deparse_min_max_expr
 *		"GREATEST(a, ...)" or "LEAST(a, ...)".
 */
static void
deparse_min_max_expr(StringInfo buf, MinMaxExpr *mm, FilterSqlContext *ctx)
{
	appendStringInfoString(buf, mm->op == IS_GREATEST ?
						   "GREATEST(" : "LEAST(");
	deparse_expr_list(buf, mm->args, ctx);
	appendStringInfoChar(buf, ')');
}

/*
 * deparse_const
 *		A constant becomes "$n::type", its value bound as parameter n, or
 *		"NULL::type".
 *
 * The value is copied into CurrentMemoryContext.  Untyped literals left
 * unknown by analysis (as in 'x' IS NULL) are bound as text.
 */
static void
deparse_const(StringInfo buf, Const *c, FilterSqlContext *ctx)
{
	Oid			typid = c->consttype;
	int32		typmod = c->consttypmod;
	Datum		value;
	int			paramno;

	if (typid == UNKNOWNOID)
	{
		typid = TEXTOID;
		typmod = -1;
	}

	if (c->constisnull)
	{
		appendStringInfoString(buf, "NULL::");
		nat_deparse_type(buf, typid, typmod);
		return;
	}

	if (c->consttype == UNKNOWNOID)
		value = CStringGetTextDatum(DatumGetCString(c->constvalue));
	else
		value = datumCopy(c->constvalue, c->constbyval, c->constlen);

	paramno = nat_params_add(ctx->params, typid, value, false);
	nat_deparse_param(buf, paramno);
	appendStringInfoString(buf, "::");
	nat_deparse_type(buf, typid, typmod);
}

/*
 * deparse_op_expr
 *		"(left OPERATOR(schema.op) right)" or "(OPERATOR(schema.op) arg)".
 */
static void
deparse_op_expr(StringInfo buf, OpExpr *op, FilterSqlContext *ctx)
{
	appendStringInfoChar(buf, '(');
	if (list_length(op->args) == 2)
	{
		deparse_node(buf, linitial(op->args), ctx);
		appendStringInfoChar(buf, ' ');
		nat_deparse_operator_name(buf, op->opno);
		appendStringInfoChar(buf, ' ');
		deparse_node(buf, lsecond(op->args), ctx);
	}
	else
	{
		nat_deparse_operator_name(buf, op->opno);
		appendStringInfoChar(buf, ' ');
		deparse_node(buf, llast(op->args), ctx);
	}
	appendStringInfoChar(buf, ')');
}

/*
 * deparse_distinct_expr
 *		"a IS DISTINCT FROM b" spelt with its resolved equality operator.
 *
 * Written as "((a = b) IS NOT TRUE AND NOT (a IS NULL AND b IS NULL))",
 * because IS DISTINCT FROM would look "=" up through the search_path
 * when the generated statement is parsed.
 */
static void
deparse_distinct_expr(StringInfo buf, OpExpr *op, FilterSqlContext *ctx)
{
	Node	   *a = linitial(op->args);
	Node	   *b = lsecond(op->args);

	appendStringInfoString(buf, "(((");
	deparse_node(buf, a, ctx);
	appendStringInfoChar(buf, ' ');
	nat_deparse_operator_name(buf, op->opno);
	appendStringInfoChar(buf, ' ');
	deparse_node(buf, b, ctx);
	appendStringInfoString(buf, ") IS NOT TRUE) AND (NOT ((");
	deparse_node(buf, a, ctx);
	appendStringInfoString(buf, " IS NULL) AND (");
	deparse_node(buf, b, ctx);
	appendStringInfoString(buf, " IS NULL))))");
}

/*
 * deparse_nullif_expr
 *		"NULLIF(a, b)" spelt with its resolved equality operator:
 *		"(CASE WHEN (a = b) THEN NULL::type ELSE a END)".
 */
static void
deparse_nullif_expr(StringInfo buf, OpExpr *op, FilterSqlContext *ctx)
{
	Node	   *a = linitial(op->args);
	Node	   *b = lsecond(op->args);

	appendStringInfoString(buf, "(CASE WHEN (");
	deparse_node(buf, a, ctx);
	appendStringInfoChar(buf, ' ');
	nat_deparse_operator_name(buf, op->opno);
	appendStringInfoChar(buf, ' ');
	deparse_node(buf, b, ctx);
	appendStringInfoString(buf, ") THEN NULL::");
	nat_deparse_type(buf, exprType((Node *) op), exprTypmod((Node *) op));
	appendStringInfoString(buf, " ELSE ");
	deparse_node(buf, a, ctx);
	appendStringInfoString(buf, " END)");
}

/*
 * deparse_func_expr
 *		A function call as "schema.name(args)", a cast as
 *		"CAST(arg AS type)".
 *
 * Calls written in SQL syntax (EXTRACT, TRIM, SUBSTRING ... FROM, AT TIME
 * ZONE, LIKE ... ESCAPE) are printed as plain calls of the function they
 * resolved to, which means the same thing.
 */
static void
deparse_func_expr(StringInfo buf, FuncExpr *fe, FilterSqlContext *ctx)
{
	ListCell   *lc;

	if (fe->funcformat == COERCE_EXPLICIT_CAST ||
		fe->funcformat == COERCE_IMPLICIT_CAST)
	{
		/* length coercions carry the typmod in their second argument */
		deparse_cast(buf, linitial(fe->args), fe->funcresulttype,
					 exprTypmod((Node *) fe), ctx);
		return;
	}

	nat_deparse_function_name(buf, fe->funcid);
	appendStringInfoChar(buf, '(');
	foreach(lc, fe->args)
	{
		if (lc != list_head(fe->args))
			appendStringInfoString(buf, ", ");
		if (fe->funcvariadic && lnext(fe->args, lc) == NULL)
			appendStringInfoString(buf, "VARIADIC ");
		deparse_node(buf, lfirst(lc), ctx);
	}
	appendStringInfoChar(buf, ')');
}

/*
 * deparse_cast
 *		"(CAST(arg AS type))".
 *
 * Casts are found through pg_cast by source and target type, which the
 * search_path does not affect.
 */
static void
deparse_cast(StringInfo buf, Node *arg, Oid typid, int32 typmod,
			 FilterSqlContext *ctx)
{
	appendStringInfoString(buf, "(CAST(");
	deparse_node(buf, arg, ctx);
	appendStringInfoString(buf, " AS ");
	nat_deparse_type(buf, typid, typmod);
	appendStringInfoString(buf, "))");
}

/*
 * deparse_array_expr
 *		"(ARRAY[a, b]::type)"; the sub-arrays of a multi-dimensional array
 *		are printed without a cast.
 */
static void
deparse_array_expr(StringInfo buf, ArrayExpr *arr, bool cast,
				   FilterSqlContext *ctx)
{
	ListCell   *lc;

	if (cast)
		appendStringInfoChar(buf, '(');
	appendStringInfoString(buf, "ARRAY[");
	foreach(lc, arr->elements)
	{
		Node	   *elem = lfirst(lc);

		if (lc != list_head(arr->elements))
			appendStringInfoString(buf, ", ");
		if (arr->multidims && IsA(elem, ArrayExpr))
			deparse_array_expr(buf, (ArrayExpr *) elem, false, ctx);
		else
			deparse_node(buf, elem, ctx);
	}
	appendStringInfoChar(buf, ']');
	if (cast)
	{
		appendStringInfoString(buf, "::");
		nat_deparse_type(buf, arr->array_typeid, -1);
		appendStringInfoChar(buf, ')');
	}
}

/*
 * deparse_case_expr
 *		"(CASE WHEN c THEN r ... ELSE d END)".
 *
 * A simple CASE ("CASE x WHEN 1 ...") is printed as a searched CASE with
 * x in place of each CaseTestExpr, so its comparisons keep the operators
 * they resolved to.  x is non-volatile (checked), so evaluating it once
 * per WHEN changes nothing.
 */
static void
deparse_case_expr(StringInfo buf, CaseExpr *ce, FilterSqlContext *ctx)
{
	Node	   *save_case_arg = ctx->case_arg;
	ListCell   *lc;

	appendStringInfoString(buf, "(CASE");
	foreach(lc, ce->args)
	{
		CaseWhen   *w = lfirst_node(CaseWhen, lc);

		appendStringInfoString(buf, " WHEN ");
		ctx->case_arg = (Node *) ce->arg;
		deparse_node(buf, (Node *) w->expr, ctx);
		ctx->case_arg = save_case_arg;
		appendStringInfoString(buf, " THEN ");
		deparse_node(buf, (Node *) w->result, ctx);
	}
	if (ce->defresult != NULL)
	{
		appendStringInfoString(buf, " ELSE ");
		deparse_node(buf, (Node *) ce->defresult, ctx);
	}
	appendStringInfoString(buf, " END)");
}

/*
 * deparse_expr_list
 *		"a, b, c".
 */
static void
deparse_expr_list(StringInfo buf, List *args, FilterSqlContext *ctx)
{
	ListCell   *lc;

	foreach(lc, args)
	{
		if (lc != list_head(args))
			appendStringInfoString(buf, ", ");
		deparse_node(buf, lfirst(lc), ctx);
	}
}

/*
 * deparse_value_function
 *		CURRENT_DATE and its kin, with their precision when one was given.
 */
static void
deparse_value_function(StringInfo buf, SQLValueFunction *svf)
{
	switch (svf->op)
	{
		case SVFOP_CURRENT_DATE:
			appendStringInfoString(buf, "CURRENT_DATE");
			break;
		case SVFOP_CURRENT_TIME:
			appendStringInfoString(buf, "CURRENT_TIME");
			break;
		case SVFOP_CURRENT_TIME_N:
			appendStringInfo(buf, "CURRENT_TIME(%d)", svf->typmod);
			break;
		case SVFOP_CURRENT_TIMESTAMP:
			appendStringInfoString(buf, "CURRENT_TIMESTAMP");
			break;
		case SVFOP_CURRENT_TIMESTAMP_N:
			appendStringInfo(buf, "CURRENT_TIMESTAMP(%d)", svf->typmod);
			break;
		case SVFOP_LOCALTIME:
			appendStringInfoString(buf, "LOCALTIME");
			break;
		case SVFOP_LOCALTIME_N:
			appendStringInfo(buf, "LOCALTIME(%d)", svf->typmod);
			break;
		case SVFOP_LOCALTIMESTAMP:
			appendStringInfoString(buf, "LOCALTIMESTAMP");
			break;
		case SVFOP_LOCALTIMESTAMP_N:
			appendStringInfo(buf, "LOCALTIMESTAMP(%d)", svf->typmod);
			break;
		default:
			elog(ERROR, "unexpected SQL value function %d", (int) svf->op);
	}
}
