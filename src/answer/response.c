/*-------------------------------------------------------------------------
 *
 * response.c
 *		  The response envelope (README, "Results").
 *
 * Every answer is one jsonb object.  Keys are absent when they do not
 * apply, never null, and the structured error arrays are omitted rather
 * than empty.  (jsonb orders object keys by length and then bytes; the
 * "columns" array keeps the column order of the rows.)
 *
 * Every key of a success answer is written here, from the call, the plan
 * and what running it produced (nat_response_plan), except the rows
 * themselves, which row_sink.c streams in as they come.  The answer of
 * ai_error_info() is written here too, from the same enrichment as a
 * tool's error answer (error_enrich.c, which applies error_patterns.c).
 *
 * IDENTIFICATION
 *		  src/answer/response.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "plan/continuation.h"
#include "answer/formats.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "answer/answer.h"
#include "plan/tool_plan.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/elog.h"

static void nat_response_rows(ToolCall *call, RowResult *result);

/*
 * "12.3ms": time since the call started.
 */
char *
nat_format_elapsed(instr_time start)
{
	instr_time	now;
	int64		tenths;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, start);
	/* rounded to 0.1 ms in integers: printf's %f costs more than the rest */
	tenths = (INSTR_TIME_GET_MICROSEC(now) + 50) / 100;
	return psprintf(INT64_FORMAT ".%dms", tenths / 10, (int) (tenths % 10));
}

/*
 * Start the success answer.
 */
void
nat_response_begin(ToolCall *call)
{
	memset(&call->state, 0, sizeof(call->state));
	nat_jsonb_push(&call->state, WJB_BEGIN_OBJECT, NULL);
}

/*
 * Keys every answer carries about the call itself.
 */
static void
push_call_keys(NatJsonb *state, ToolCall *call)
{
	/* the schema wants a name: an empty one is answered as the function's */
	nat_push_string(state, "tool", call->tool_name[0] != '\0' ? call->tool_name : "ai_tool_call");
	if (call->operation != NAT_OP_NONE)
		nat_push_string(state, "operation", nat_operation_names[call->operation]);
	if (call->table)
		nat_push_string(state, "table", call->table);
	nat_push_string(state, "executionTime", nat_format_elapsed(call->start));
}

/*
 * Close the success answer.
 */
Jsonb *
nat_response_finish(ToolCall *call)
{
	if (call->warnings != NIL)
	{
		StringInfoData buf;
		ListCell   *lc;

		initStringInfo(&buf);
		foreach(lc, call->warnings)
			appendStringInfo(&buf, "%s%s", buf.len > 0 ? " " : "", (char *) lfirst(lc));
		nat_push_string(&call->state, "warning", buf.data);
	}
	/* an empty read's values close to its filter's (empty_hints.c) */
	if (call->did_you_mean)
		nat_push_string(&call->state, "did_you_mean", call->did_you_mean);
	if (call->suggested_actions != NIL)
		nat_push_string_array(&call->state, "suggested_actions",
							  call->suggested_actions);
	if (call->dry_run)
		nat_push_bool(&call->state, "dryRun", true);
	if (call->format != NAT_FORMAT_JSON)
		nat_push_string(&call->state, "format", nat_answer_format_names[call->format]);
	nat_push_bool(&call->state, "success", true);
	nat_push_string(&call->state, "status", "success");
	push_call_keys(&call->state, call);
	return JsonbValueToJsonb(nat_jsonb_push(&call->state, WJB_END_OBJECT, NULL));
}

/*
 * Add a sentence to the answer's "warning".
 */
static void
add_warning(ToolCall *call, const char *warning)
{
	MemoryContext old = MemoryContextSwitchTo(call->cxt);

	call->warnings = lappend(call->warnings, pstrdup(warning));
	MemoryContextSwitchTo(old);
}

/*
 * The planner's warnings (ToolPlan.warnings): they come first in the
 * answer's "warning", before what running the plan adds.
 */
void
nat_response_warnings(ToolCall *call, List *warnings)
{
	ListCell   *lc;

	foreach(lc, warnings)
		add_warning(call, (const char *) lfirst(lc));
}

/*
 * A statement's "columns" (names and types, in the order of its rows),
 * and the opening of its "data": row_sink.c streams the rows in.
 */
void
nat_response_columns(ToolCall *call, ColumnOutput *cols, int ncols)
{
	NatJsonb   *state = &call->state;
	int			i;

	nat_push_key(state, "columns");
	nat_jsonb_push(state, WJB_BEGIN_ARRAY, NULL);
	for (i = 0; i < ncols; i++)
	{
		nat_jsonb_push(state, WJB_BEGIN_OBJECT, NULL);
		nat_push_string(state, "name", cols[i].key);
		nat_push_string(state, "type", cols[i].type_name);
		nat_jsonb_push(state, WJB_END_OBJECT, NULL);
		CHECK_FOR_INTERRUPTS();
	}
	nat_jsonb_push(state, WJB_END_ARRAY, NULL);

	nat_push_key(state, "data");
	nat_jsonb_push(state, WJB_BEGIN_ARRAY, NULL);
}

/*
 * Close "data"; for a statement that returned no rows at all (no
 * RETURNING, a utility statement: "data" was never opened), an empty one.
 */
void
nat_response_data_end(ToolCall *call, bool opened)
{
	if (!opened)
	{
		nat_push_key(&call->state, "data");
		nat_jsonb_push(&call->state, WJB_BEGIN_ARRAY, NULL);
	}
	nat_jsonb_push(&call->state, WJB_END_ARRAY, NULL);
}

/*
 * affectedRows: every row the statement changed, at every level (triggers,
 * rules, cascades, functions); statementAffectedRows: its own count, where
 * that differs (-1: it does not).
 */
static void
push_affected(ToolCall *call, int64 affected, int64 own_affected)
{
	nat_push_int(&call->state, "affectedRows", affected);
	if (own_affected >= 0 && own_affected != affected)
		nat_push_int(&call->state, "statementAffectedRows", own_affected);
}

/*
 * affectedRows, then the rows a write returned.
 */
static void
nat_response_write(ToolCall *call, int64 affected, int64 own_affected,
				   RowResult *result)
{
	push_affected(call, affected, own_affected);
	nat_response_rows(call, result);
}

/*
 * "truncation": {"reason", "limit"}.
 */
static void
push_truncation(NatJsonb *state, NatTruncation reason, int64 limit)
{
	nat_push_key(state, "truncation");
	nat_jsonb_push(state, WJB_BEGIN_OBJECT, NULL);
	nat_push_string(state, "reason", nat_truncation_names[reason]);
	nat_push_int(state, "limit", limit);
	nat_jsonb_push(state, WJB_END_OBJECT, NULL);
}

/*
 * rowCount and the truncation report of a streamed query.
 */
static void
nat_response_rows(ToolCall *call, RowResult *result)
{
	NatJsonb   *state = &call->state;

	char	   *next = nat_continuation_next(call, result);

	call->answer_rows += result->row_count;
	nat_push_int(state, "rowCount", result->row_count);
	nat_push_bool(state, "truncated", result->truncated);
	if (next)
		nat_push_string(state, "next", next);
	if (result->truncated)
	{
		const char *what;

		if (result->truncation_reason == NAT_TRUNCATION_ROW_LIMIT)
			what = psprintf("the row limit of " INT64_FORMAT " rows was reached",
							result->truncation_limit);
		else if (result->truncation_reason == NAT_TRUNCATION_BYTE_LIMIT)
			what = psprintf("the byte limit of " INT64_FORMAT " bytes was reached",
							result->truncation_limit);
		else

			/*
			 * Narrow rows weigh more in memory than as text, before the
			 * answer is serialized; text formats weigh what they count.
			 */
			what = psprintf("the rows reached the memory an answer may hold while it is built (" INT64_FORMAT " bytes) before the byte limit; format csv carries more narrow rows in one answer",
							result->truncation_limit);
		push_truncation(state, result->truncation_reason, result->truncation_limit);
		add_warning(call,
					psprintf("Result truncated to the first " INT64_FORMAT " rows: %s. More rows match; %s",
							 result->row_count, what,
							 next ? "to continue after the last row, repeat the call with \"next\" set to this answer's next." :
							 !nat_tool_has_param(call->tool, "offset") ?
							 "narrow the query, select fewer columns, or page with ORDER BY ... LIMIT ... OFFSET." :
							 nat_tool_has_param(call->tool, "order_by") ?
							 "narrow the filter, or page with offset and order_by." :
							 "narrow the filter, or page with offset."));
		if (next && call->cont->mode == NAT_CONT_OFFSET)
			add_warning(call, nat_continuation_offset_warning(call));
		if (call->cont && call->cont->note)
			add_warning(call, call->cont->note);
		if (result->oversized_column && result->row_count == 0)
			add_warning(call,
						psprintf("The value of column \"%s\" in the first row alone is larger than the byte limit; it was not read. Select a shorter form of it, for example left(%s, 1000) or length(%s), or leave the column out.",
								 result->oversized_column,
								 quote_identifier(result->oversized_column),
								 quote_identifier(result->oversized_column)));
	}
}

/*
 * The size of json text rendered as jsonb renders it: white space outside
 * strings dropped, ": " and ", " as separators.  Strings keep their escapes
 * (EXPLAIN escapes as jsonb does).  One pass, nothing allocated.
 */
static Size
json_rendered_size(const char *s, Size len)
{
	Size		size = 0;
	bool		in_string = false;
	Size		i;

	for (i = 0; i < len; i++)
	{
		char		c = s[i];

		if (in_string)
		{
			size++;
			if (c == '\\' && i + 1 < len)
			{
				size++;
				i++;
			}
			else if (c == '"')
				in_string = false;
		}
		else if (c == '"')
		{
			size++;
			in_string = true;
		}
		else if (c == ',' || c == ':')
			size += 2;
		else if (c != ' ' && c != '\n' && c != '\t' && c != '\r')
			size++;
	}
	return size;
}

/*
 * A plan's one value as "data": a jsonb value as the one element of data,
 * or json text (EXPLAIN's plan) as data itself.  The json text is measured
 * on its own text before anything is built from it: a plan prints its
 * constants (a long literal in a Filter line), so it can be any size, and
 * past the byte budget it is left out.
 */
static void
response_value(ToolCall *call, ToolPlan *plan, Datum value)
{
	NatJsonb   *state = &call->state;
	text	   *plan_text;
	Size		plan_size;
	RowResult	rows;

	memset(&rows, 0, sizeof(rows));
	if (plan->value_shape == PLAN_VALUE_ROW)
	{
		nat_push_key(state, "data");
		nat_jsonb_push(state, WJB_BEGIN_ARRAY, NULL);
		nat_push_jsonb(state, NULL, DatumGetJsonbP(value));
		nat_jsonb_push(state, WJB_END_ARRAY, NULL);
		rows.row_count = 1;
		nat_response_rows(call, &rows);
		return;
	}

	plan_text = DatumGetTextPP(value);
	plan_size = json_rendered_size(VARDATA_ANY(plan_text), VARSIZE_ANY_EXHDR(plan_text));
	if (plan_size > (Size) nat_max_response_bytes)
	{
		nat_push_key(state, "data");
		nat_jsonb_push(state, WJB_BEGIN_ARRAY, NULL);
		nat_jsonb_push(state, WJB_END_ARRAY, NULL);
		nat_push_int(state, "rowCount", 0);
		nat_push_bool(state, "truncated", true);
		push_truncation(state, NAT_TRUNCATION_BYTE_LIMIT, nat_max_response_bytes);
		add_warning(call,
					psprintf("The plan is %zu bytes, past the byte limit of %d bytes, so it was left out. Plans print the statement's constants: explain it with shorter values, or explain its parts one at a time.",
							 plan_size, nat_max_response_bytes));
		return;
	}
	nat_push_jsonb(state, "data",
				   DatumGetJsonbP(DirectFunctionCall1(jsonb_in,
													  CStringGetDatum(text_to_cstring(plan_text)))));
	call->answer_rows += 1;
	nat_push_int(state, "rowCount", 1);
	nat_push_bool(state, "truncated", false);
}

/*
 * The success keys of a plan that has run: its rows or value,
 * affectedRows, and the tool's own keys.  (The agent's statements are
 * rendered one by one as they run, below.)
 */
void
nat_response_plan(ToolCall *call, ToolPlan *plan, PlanResult *result)
{
	MemoryContext old = MemoryContextSwitchTo(call->cxt);
	ListCell   *lc;

	switch (plan->run)
	{
		case PLAN_ROWS:
			nat_response_rows(call, &result->rows);
			break;
		case PLAN_WRITE:
		case PLAN_UTILITY:
			if (result->affected >= 0)
				nat_response_write(call, result->affected, result->own_affected,
								   &result->rows);
			else
				nat_response_rows(call, &result->rows);
			break;
		case PLAN_VALUE:
			response_value(call, plan, result->value);
			break;
		case PLAN_AGENT:
			break;
	}
	foreach(lc, plan->answer_fields)
	{
		AnswerField *field = lfirst(lc);

		nat_push_int(&call->state, field->key,
					 field->kind == ANSWER_INT_LESS_OWN ?
					 field->value - (result->own_affected >= 0 ?
									 result->own_affected : result->affected) :
					 field->value);
	}
	if (plan->note)
		nat_push_string(&call->state, "note", plan->note);
	MemoryContextSwitchTo(old);
}

/*
 * execute_sql's mode multiple: "data" holds one object per statement.
 */
void
nat_response_statements_begin(ToolCall *call)
{
	nat_push_key(&call->state, "data");
	nat_jsonb_push(&call->state, WJB_BEGIN_ARRAY, NULL);
}

void
nat_response_statement_begin(ToolCall *call, int index, const char *command)
{
	nat_jsonb_push(&call->state, WJB_BEGIN_OBJECT, NULL);
	nat_push_int(&call->state, "statement", index + 1);
	nat_push_string(&call->state, "command", command);
}

/*
 * The end of one of the agent's statements: its affectedRows if it changes
 * rows, its rows' count and truncation; and, in mode multiple, the end of
 * its object.
 */
void
nat_response_statement_end(ToolCall *call, bool modifies, int64 affected,
						   int64 own_affected, RowResult *rows, bool multiple)
{
	if (modifies)
		push_affected(call, affected, own_affected);
	nat_response_rows(call, rows);
	if (multiple)
		nat_jsonb_push(&call->state, WJB_END_OBJECT, NULL);
}

void
nat_response_statements_end(ToolCall *call, int count, bool truncated)
{
	nat_jsonb_push(&call->state, WJB_END_ARRAY, NULL);
	nat_push_int(&call->state, "rowCount", count);
	nat_push_bool(&call->state, "truncated", truncated);
}

/*
 * One sentence of advice for a category, when nothing more specific is
 * known: the call's own (its timeout, table, operation, read-only mode),
 * else the category's (errors.c).
 */
static char *
default_suggestion(ToolCall *call, NatErrorKind kind,
				   const char *edata_message, int sqlerrcode)
{
	if (sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
		return psprintf("Another transaction held a lock this call needed for longer than the lock timeout (%d ms); retry shortly, or ask which long transaction holds it.",
						nat_lock_timeout_ms);
	if (kind == NAT_ERR_TIMEOUT)
		return psprintf("The call was stopped after %d ms. Narrow the filter, lower the limit, or raise timeout_ms (at most %d ms).",
						call->timeout_ms, nat_max_timeout_ms);
	if (kind == NAT_ERR_PERMISSION_DENIED && edata_message &&
		strstr(edata_message, "row-level security") != NULL)
		return call->table ?
			psprintf("A row-level security policy on %s does not allow this row for your role; write only rows the policy allows.", call->table) :
			pstrdup("A row-level security policy does not allow this row for your role.");
	if (kind == NAT_ERR_PERMISSION_DENIED && call->table &&
		(call->operation == NAT_OP_SELECT || call->operation == NAT_OP_INSERT ||
		 call->operation == NAT_OP_UPDATE || call->operation == NAT_OP_DELETE))
	{
		const char *op = nat_operation_names[call->operation];
		char	   *privilege = asc_toupper(op, strlen(op));

		return psprintf("Your role may not %s %s%s: it lacks the %s privilege on it (or on the columns used). Ask the database administrator for GRANT %s ON %s, or use another table.",
						op,
						call->operation == NAT_OP_SELECT ? "from " :
						call->operation == NAT_OP_INSERT ? "into " :
						call->operation == NAT_OP_DELETE ? "from " : "",
						call->table, privilege, privilege, call->table);
	}
	if (kind == NAT_ERR_PERMISSION_DENIED && call->table)
		return psprintf("The role you run as lacks a privilege on %s; ask the database administrator for it, or use another table.", call->table);
	if (kind == NAT_ERR_DEPENDENT_OBJECTS && call->table)
		return psprintf("Other objects depend on %s (see details.detail); change or drop them first: tools never cascade.", call->table);

	/*
	 * 25006 on a standby is the server's, unless the call runs read-only (the
	 * tool, the role or read_only): then the call refused it, as on a
	 * primary, and may well be allowed without read_only (a volatile function
	 * that only reads).
	 */
	if (kind == NAT_ERR_READ_ONLY_VIOLATION && RecoveryInProgress() &&
		!nat_read_only && !call->read_only)
		return pstrdup(NAT_STANDBY_SUGGESTION);
	/* the category's own advice (errors.c) */
	return nat_error_kind_suggestion(kind) ?
		pstrdup(nat_error_kind_suggestion(kind)) : NULL;
}

/*
 * Does the call know better advice than the message pattern: its own
 * timeout, the lock timeout, its read-only mode, the table and operation
 * it was called for (and the tools that describe that table)?
 */
static bool
call_advice_first(ToolCall *call, NatErrorKind kind, int sqlerrcode)
{
	if (sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE || call->timed_out)
		return true;
	if (kind == NAT_ERR_READ_ONLY_VIOLATION)
		return true;
	return call->table != NULL &&
		(kind == NAT_ERR_PERMISSION_DENIED ||
		 kind == NAT_ERR_DEPENDENT_OBJECTS ||
		 kind == NAT_ERR_INVALID_COLUMN);
}

/*
 * Texts copied from an error into an answer are cut at this many bytes: a
 * message can be as long as the value it quotes, and an answer too big for
 * jsonb would fail while the error is being answered.
 */
#define ERROR_TEXT_MAX 8192

static const char *
clip_text(const char *str)
{
	size_t		len;
	int			keep;

	if (str == NULL || (len = strlen(str)) <= ERROR_TEXT_MAX)
		return str;
	keep = pg_mbcliplen(str, (int) len, ERROR_TEXT_MAX);

	/*
	 * End at a whole word: a URI cut before its "@" would no longer look like
	 * one, and its password would escape nat_mask_secrets().
	 */
	while (keep > 0 && !isspace((unsigned char) str[keep - 1]))
		keep--;
	return psprintf("%.*s... (%zu more bytes)", keep, str, len - keep);
}

/*
 * s, or NULL when it is empty.
 */
static char *
nonempty(char *s)
{
	return s && s[0] != '\0' ? s : NULL;
}

/*
 * The error's object names clipped as values are clipped: they are echoed
 * in several fields, and RAISE ... USING COLUMN = can make them any length
 * (real names, at most 63 bytes, stay whole).  Empty fields (RAISE ...
 * USING MESSAGE = '' and the like) become NULL: keys are never empty.
 */
static ErrorData *
clip_error_fields(ErrorData *edata, ErrorData *clipped)
{
	*clipped = *edata;
	clipped->schema_name = nonempty(nat_clip(edata->schema_name));
	clipped->table_name = nonempty(nat_clip(edata->table_name));
	clipped->column_name = nonempty(nat_clip(edata->column_name));
	clipped->datatype_name = nonempty(nat_clip(edata->datatype_name));
	clipped->constraint_name = nonempty(nat_clip(edata->constraint_name));
	clipped->message = nonempty(edata->message);
	clipped->detail = nonempty(edata->detail);
	clipped->hint = nonempty(edata->hint);
	return clipped;
}

/*
 * The error answer's "details": only what is known (edata NULL for the
 * extension's own errors).
 */
static void
push_error_details(NatJsonb *state, ToolCall *call, ErrorData *edata,
				   const char *hint, const char *column, const char *path,
				   int position)
{
	/* keys are absent rather than empty (an empty sql argument) */
	bool		has_query = call->query && call->query[0] != '\0';

	if (!((edata && (edata->detail || edata->constraint_name)) || hint ||
		  column || path || position > 0 || has_query))
		return;
	nat_push_key(state, "details");
	nat_jsonb_push(state, WJB_BEGIN_OBJECT, NULL);
	if (edata && edata->detail)
		nat_push_string(state, "detail",
						nat_clip_quoted(nat_mask_secrets(clip_text(edata->detail))));
	if (hint)
		nat_push_string(state, "hint", hint);
	if (edata && edata->constraint_name)
		nat_push_string(state, "constraint", edata->constraint_name);
	if (column)
		nat_push_string(state, "column", column);
	if (path)
		nat_push_string(state, "path", path);
	if (position > 0)
		nat_push_int(state, "position", position);
	if (has_query)
		nat_push_string(state, "query", clip_text(call->query));
	nat_jsonb_push(state, WJB_END_OBJECT, NULL);
}

/*
 * Build the error answer from a PostgreSQL error (edata) or, when err is
 * set, from a failure the extension found itself.
 */
Jsonb *
nat_error_response(ToolCall *call, ErrorData *edata, ToolError *err)
{
	NatJsonb	state = {0};
	ErrorCategory cat;
	const char *message;
	char	   *suggestion;
	List	   *actions;
	List	   *affected;
	List	   *dependencies;
	ErrorFacts	facts = {0};
	ErrorEnrichment en;
	const char *hint = NULL;
	const char *column = NULL;
	const char *path = NULL;
	int			position = 0;
	int			sqlerrcode = err ? err->sqlerrcode : edata->sqlerrcode;
	ErrorData	clipped;

	/*
	 * The object names of an error are echoed in several fields, and RAISE
	 * ... USING COLUMN = can make them any length: clip them as values are
	 * clipped (real names, at most 63 bytes, stay whole).
	 */
	if (edata)
		edata = clip_error_fields(edata, &clipped);

	facts.call = call;
	if (err)
	{
		facts.err = err;
		facts.message = err->message;
		if (err->sqlerrcode != 0)
			facts.code = unpack_sql_state(err->sqlerrcode);
		message = err->message;
		hint = err->hint;
		column = err->column;
		path = err->path;
		position = err->position;
	}
	else
	{
		/* a message may echo a connection string (dblink, postgres_fdw) */
		message = edata->message ?
			nat_clip_quoted(nat_mask_secrets(clip_text(edata->message))) :
			psprintf("error %s, with no message", unpack_sql_state(edata->sqlerrcode));
		/* never a hint naming a column the role may not read */
		hint = nat_hint_is_shareable(edata->hint,
									 call->query_source ? call->query_source : call->query) ?
			clip_text(edata->hint) : NULL;
		column = edata->column_name;
		facts.edata = edata;
		facts.hint = hint;

		/*
		 * The patterns read the message as answered (secrets masked, quoted
		 * parts clipped), so what they name is what "error" shows; our
		 * timer's cancel says nothing more than its category.
		 */
		facts.message = call->timed_out || edata->message == NULL ? NULL : message;

		/*
		 * A cancel that reaches an answer without our timer was raised by the
		 * agent's own code (execute.c re-throws real cancels): it is the
		 * statement's error, not a timeout, unless its text says more.
		 */
		if (edata->sqlerrcode != ERRCODE_QUERY_CANCELED || call->timed_out)
			facts.code = unpack_sql_state(edata->sqlerrcode);
		if (call->timed_out)
			message = psprintf("the tool call exceeded its time limit of %d ms",
							   call->timeout_ms);
		/* positions are meaningful in the agent's own SQL only */
		if (call->query_source)
			position = edata->cursorpos > 0 ? edata->cursorpos : edata->internalpos;
	}

	/*
	 * The seed fields, by the path ai_error_info() takes too
	 * (error_enrich.c).  Advice: what the error itself gave, then what the
	 * call knows better (its timeout, table, read-only mode), then the
	 * message pattern's, then the category's.
	 */
	nat_enrich_error(&facts, &en);
	if (en.hint)
		hint = en.hint;
	cat = en.text.category;
	suggestion = en.suggestion;
	if (suggestion == NULL && call_advice_first(call, cat.kind, sqlerrcode))
		suggestion = default_suggestion(call, cat.kind,
										err ? NULL : edata->message,
										err ? 0 : edata->sqlerrcode);
	if (suggestion == NULL)
		suggestion = en.text.suggestion;
	if (suggestion == NULL)
		suggestion = default_suggestion(call, cat.kind,
										err ? NULL : edata->message,
										err ? 0 : edata->sqlerrcode);
	if (suggestion == NULL)
		suggestion = en.text.generic_suggestion;
	actions = en.suggested_actions;
	affected = en.affected_resources;
	dependencies = en.dependencies;

	call->error_type = nat_error_kind_name(cat.kind);	/* the audit's outcome */
	call->error_kind = cat.kind;	/* the statistics' */
	nat_jsonb_push(&state, WJB_BEGIN_OBJECT, NULL);
	nat_push_bool(&state, "success", false);
	nat_push_string(&state, "status", "error");
	push_call_keys(&state, call);
	nat_push_string(&state, "error", message);
	nat_push_string(&state, "errorType", nat_error_kind_name(cat.kind));
	nat_push_string(&state, "error_type", cat.portable_type);
	if (sqlerrcode != 0)
	{
		const char *code = unpack_sql_state(sqlerrcode);

		nat_push_string(&state, "error_code", code);
		nat_push_string(&state, "sqlState", code);
	}
	nat_push_bool(&state, "retryable", cat.retryable);
	if (suggestion)
		nat_push_string(&state, "suggestion", suggestion);
	if (en.did_you_mean)
		nat_push_string(&state, "did_you_mean", en.did_you_mean);
	if (actions != NIL)
		nat_push_string_array(&state, "suggested_actions", actions);
	if (affected != NIL)
		nat_push_string_array(&state, "affected_resources", affected);
	if (dependencies != NIL)
		nat_push_string_array(&state, "dependencies", dependencies);
	if (err && err->has_affected)
		nat_push_int(&state, "affectedRows", err->affected);
	if (err && err->confirmation_token)
		nat_push_string(&state, "confirmation_token", err->confirmation_token);

	push_error_details(&state, call, err ? NULL : edata, hint, column, path, position);
	return JsonbValueToJsonb(nat_jsonb_push(&state, WJB_END_OBJECT, NULL));
}

/*
 * The answer of ai_error_info(message, code): the error envelope
 * without what only a live call has (operation,
 * table, executionTime, query).  Keys that do not apply are absent; when
 * nothing is recognized, only success, status, tool, error, errorType
 * and error_type are there (with error_code and sqlState if a code was
 * given).  message is the start of the text, unread the bytes left out
 * (code likewise): the answer says how much was not read.  The fields come
 * from nat_enrich_error(), as a tool's error answer does.
 */
Jsonb *
nat_error_info(const char *message, int64 unread, const char *code,
			   int64 code_unread)
{
	NatJsonb	state = {0};
	char	   *start = nat_whole_words(message, unread);
	char	   *masked = nat_mask_secrets(start);
	ErrorFacts	facts = {0};
	ErrorEnrichment en;

	if (code != NULL && code_unread > 0)
		code = psprintf("%s%s", nat_whole_words(code, code_unread),
						GetDatabaseEncoding() == PG_UTF8 ? "\xe2\x80\xa6" : "...");
	facts.message = message;
	facts.unread = unread;
	facts.code = code;
	nat_enrich_error(&facts, &en);
	/* the error as it was read, and how much was not */
	unread += strlen(message) - strlen(start);
	if (unread > 0)
		masked = psprintf("%s... (" INT64_FORMAT " more bytes)", masked, unread);
	if (masked[0] == '\0')
		masked = "(no message)";	/* "error" is never empty */

	nat_jsonb_push(&state, WJB_BEGIN_OBJECT, NULL);
	nat_push_bool(&state, "success", false);
	nat_push_string(&state, "status", "error");
	nat_push_string(&state, "tool", "ai_error_info");
	nat_push_string(&state, "error", masked);
	nat_push_string(&state, "errorType", nat_error_kind_name(en.text.category.kind));
	nat_push_string(&state, "error_type", en.text.category.portable_type);
	if (en.text.error_code)
		nat_push_string(&state, "error_code", en.text.error_code);
	if (en.text.sqlstate)
		nat_push_string(&state, "sqlState", en.text.sqlstate);
	if (en.text.known)
	{
		char	   *suggestion = en.suggestion ? en.suggestion :
			en.text.suggestion ? en.text.suggestion : en.text.generic_suggestion;

		nat_push_bool(&state, "retryable", en.text.category.retryable);
		if (suggestion)
			nat_push_string(&state, "suggestion", suggestion);
		if (en.suggested_actions != NIL)
			nat_push_string_array(&state, "suggested_actions", en.suggested_actions);
		if (en.affected_resources != NIL)
			nat_push_string_array(&state, "affected_resources", en.affected_resources);
		if (en.dependencies != NIL)
			nat_push_string_array(&state, "dependencies", en.dependencies);
		if (en.text.constraint || en.text.column || en.text.hint)
		{
			nat_push_key(&state, "details");
			nat_jsonb_push(&state, WJB_BEGIN_OBJECT, NULL);
			if (en.text.hint)
				nat_push_string(&state, "hint", en.text.hint);
			if (en.text.constraint)
				nat_push_string(&state, "constraint", en.text.constraint);
			if (en.text.column)
				nat_push_string(&state, "column", en.text.column);
			nat_jsonb_push(&state, WJB_END_OBJECT, NULL);
		}
	}
	return JsonbValueToJsonb(nat_jsonb_push(&state, WJB_END_OBJECT, NULL));
}
