/*-------------------------------------------------------------------------
 *
 * errors.c
 *		  Tool errors raised by the extension, and error categories.
 *
 * Failures the extension finds itself (bad arguments, refused filters,
 * caps) are described by a ToolError.  nat_throw() keeps the ToolError
 * aside and raises an ordinary ERROR with a private SQLSTATE, so the same
 * subtransaction machinery unwinds both our failures and PostgreSQL's; the
 * catch block in execute.c takes the pending ToolError back.
 *
 * Categories (README, "Results"): SQLSTATE first, then the fine
 * category named by the extension.
 *
 * IDENTIFICATION
 *		  src/answer/errors.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "base/base.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* the ToolError being raised, until execute.c takes it */
static ToolError *pending_error = NULL;

/* where a raised ToolError is kept: the current call's own context */
static MemoryContext error_cxt = NULL;

/*
 * The fine categories, indexed by kind: errorType, the portable error_type,
 * whether retrying the same call may succeed, the advice a tool call's
 * error answer gives when neither the error, the call nor a message pattern
 * says more (NULL: the advice for an error text), and the advice for an
 * error text from any database (ai_error_info(), and the last resort of a
 * tool call; error_patterns.c refines constraint_violation's by SQLSTATE).
 * The timeout's call advice names the call's limit: response.c.
 * constraint_violation's portable name depends on the SQLSTATE and is
 * filled in by nat_classify_sqlstate().
 */
typedef struct ErrorKindInfo
{
	const char *suggestion;		/* a tool call's advice */
	const char *text_suggestion;	/* the advice for an error text */
} ErrorKindInfo;

/* errorType, portable type and retryable of each kind (error_kinds.h) */
static const struct
{
	const char *name;
	const char *portable_type;
	bool		retryable;
}			kind_rows[NAT_ERR_KINDS] = {
#define NAT_ERROR_KIND(id, type, portable, retry) [id] = {type, portable, retry},
#include "base/error_kinds.h"
#undef NAT_ERROR_KIND
};

static const ErrorKindInfo kinds[NAT_ERR_KINDS] = {
	[NAT_ERR_INVALID_TABLE] = {NULL,
	"A table or other object named in the statement does not exist; check the name and list the tables you can use."},
	[NAT_ERR_INVALID_COLUMN] = {"A column named in the statement does not exist, or your role may not read it; check the name against the columns describe_table lists.",
	"A column named in the statement does not exist; check the name and list the table's columns."},
	[NAT_ERR_SYNTAX_ERROR] = {"Fix the SQL syntax and retry.",
	"Fix the SQL syntax and retry."},
	[NAT_ERR_CONSTRAINT_VIOLATION] = {NULL,
	"A value breaks a check constraint; pass values it accepts."},
	[NAT_ERR_DEPENDENT_OBJECTS] = {"Other objects depend on this one (see details.detail); change or drop them first: tools never cascade.",
	"Other objects depend on this one; drop or change them first, then retry."},
	[NAT_ERR_ALREADY_EXISTS] = {NULL,
	"The object already exists; use it, choose another name, or use IF NOT EXISTS."},
	[NAT_ERR_INVALID_INPUT] = {"A value does not fit the column's type; pass it in the type's own format.",
	"A value does not fit the column's type; pass it in the type's own format."},
	[NAT_ERR_PERMISSION_DENIED] = {"The role you run as lacks a privilege; ask the database administrator for it.",
	"The user lacks a privilege for this operation; ask the database administrator for it."},
	[NAT_ERR_READ_ONLY_VIOLATION] = {"This call runs read-only, so nothing may be written; read the data instead, or use a write tool if one is enabled.",
	"The database or transaction is read-only; only reads are allowed."},
	[NAT_ERR_TIMEOUT] = {NULL,
	"The operation ran too long and was stopped; narrow the filter, lower the limit, or raise the timeout."},
	[NAT_ERR_CONFLICT] = {"A concurrent transaction conflicted; retry the whole operation.",
	"A concurrent transaction conflicted; retry the whole transaction."},
	[NAT_ERR_RESOURCE_EXHAUSTED] = {"The server ran short of a resource; retry later with a smaller request.",
	"The server ran short of a resource; retry later with a smaller request."},
	[NAT_ERR_CONNECTION_ERROR] = {NULL,
	"Could not reach the database server; check the host and port and that the server is running, then retry."},
	[NAT_ERR_AUTHENTICATION_ERROR] = {NULL,
	"Authentication failed; check the user name and credentials in the connection settings."},
	[NAT_ERR_INVALID_PARAMETERS] = {"Fix the argument as the tool's JSON Schema describes and retry.",
	NULL},
	[NAT_ERR_UNKNOWN_TOOL] = {NULL,
	NULL},
	[NAT_ERR_CONFIRMATION_REQUIRED] = {NULL,
	NULL},
	[NAT_ERR_LIMIT_EXCEEDED] = {NULL,
	NULL},
	[NAT_ERR_TOOL_DISABLED] = {NULL,
	NULL},
	[NAT_ERR_RESOURCE_LIMIT] = {"The call went over a limit on the memory it may use and was stopped; nothing was changed. Ask for less at once: fewer or smaller values, a narrower filter, fewer joined tables.",
	NULL},
	[NAT_ERR_UNKNOWN_ERROR] = {NULL,
	NULL},
};

/*
 * The category of a fine error kind.
 */
ErrorCategory
nat_category_of(NatErrorKind kind)
{
	ErrorCategory c;

	Assert(kind >= 0 && kind < NAT_ERR_KINDS);
	c.kind = kind;
	c.portable_type = kind_rows[kind].portable_type;
	c.retryable = kind_rows[kind].retryable;
	return c;
}

/*
 * The errorType of a kind.
 */
const char *
nat_error_kind_name(NatErrorKind kind)
{
	Assert(kind >= 0 && kind < NAT_ERR_KINDS);
	Assert(kind_rows[kind].name != NULL);	/* every kind has its row */
	return kind_rows[kind].name;
}

/*
 * A tool call's default advice for a kind, or NULL.
 */
const char *
nat_error_kind_suggestion(NatErrorKind kind)
{
	Assert(kind >= 0 && kind < NAT_ERR_KINDS);
	return kinds[kind].suggestion;
}

/*
 * The advice for an error text of a kind, or NULL.
 */
const char *
nat_error_kind_text_suggestion(NatErrorKind kind)
{
	Assert(kind >= 0 && kind < NAT_ERR_KINDS);
	return kinds[kind].text_suggestion;
}

/*
 * The category of a PostgreSQL error, by SQLSTATE.
 */
ErrorCategory
nat_classify_sqlstate(int code)
{
	ErrorCategory c;

	switch (code)
	{
		case ERRCODE_UNDEFINED_TABLE:
		case ERRCODE_INVALID_SCHEMA_NAME:
			return nat_category_of(NAT_ERR_INVALID_TABLE);
		case ERRCODE_UNDEFINED_COLUMN:
			return nat_category_of(NAT_ERR_INVALID_COLUMN);
		case ERRCODE_INSUFFICIENT_PRIVILEGE:
			return nat_category_of(NAT_ERR_PERMISSION_DENIED);
		case ERRCODE_READ_ONLY_SQL_TRANSACTION:
			return nat_category_of(NAT_ERR_READ_ONLY_VIOLATION);
		case ERRCODE_QUERY_CANCELED:
		case ERRCODE_LOCK_NOT_AVAILABLE:
			return nat_category_of(NAT_ERR_TIMEOUT);
		case ERRCODE_T_R_SERIALIZATION_FAILURE:
			return nat_category_of(NAT_ERR_CONFLICT);
		case ERRCODE_T_R_DEADLOCK_DETECTED:
			c = nat_category_of(NAT_ERR_CONFLICT);
			c.portable_type = "deadlock";
			return c;
		case ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST:
			return nat_category_of(NAT_ERR_DEPENDENT_OBJECTS);
		case ERRCODE_DUPLICATE_TABLE:
		case ERRCODE_DUPLICATE_COLUMN:
		case ERRCODE_DUPLICATE_OBJECT:
		case ERRCODE_DUPLICATE_SCHEMA:
		case ERRCODE_DUPLICATE_FUNCTION:
			return nat_category_of(NAT_ERR_ALREADY_EXISTS);
		case ERRCODE_FOREIGN_KEY_VIOLATION:
		case ERRCODE_RESTRICT_VIOLATION:
			c = nat_category_of(NAT_ERR_CONSTRAINT_VIOLATION);
			c.portable_type = "foreign_key_constraint";
			return c;
		case ERRCODE_UNIQUE_VIOLATION:
		case ERRCODE_EXCLUSION_VIOLATION:
			c = nat_category_of(NAT_ERR_CONSTRAINT_VIOLATION);
			c.portable_type = "unique_constraint";
			return c;
		case ERRCODE_NOT_NULL_VIOLATION:
			c = nat_category_of(NAT_ERR_CONSTRAINT_VIOLATION);
			c.portable_type = "not_null_constraint";
			return c;
		case ERRCODE_CHECK_VIOLATION:
			c = nat_category_of(NAT_ERR_CONSTRAINT_VIOLATION);
			c.portable_type = "check_constraint";
			return c;
	}

	switch (ERRCODE_TO_CATEGORY(code))
	{
		case ERRCODE_DATA_EXCEPTION:
			return nat_category_of(NAT_ERR_INVALID_INPUT);
		case ERRCODE_INTEGRITY_CONSTRAINT_VIOLATION:

			/*
			 * other integrity violations (23000, triggers' own): a rule on
			 * the values
			 */
			c = nat_category_of(NAT_ERR_CONSTRAINT_VIOLATION);
			c.portable_type = "check_constraint";
			return c;
		case ERRCODE_SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION:
			return nat_category_of(NAT_ERR_SYNTAX_ERROR);
		case ERRCODE_INSUFFICIENT_RESOURCES:
		case ERRCODE_PROGRAM_LIMIT_EXCEEDED:
			return nat_category_of(NAT_ERR_RESOURCE_EXHAUSTED);
		case ERRCODE_CONNECTION_EXCEPTION:
			return nat_category_of(NAT_ERR_CONNECTION_ERROR);
		case ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION:
			return nat_category_of(NAT_ERR_AUTHENTICATION_ERROR);
		case ERRCODE_TRANSACTION_ROLLBACK:
			return nat_category_of(NAT_ERR_CONFLICT);
	}
	return nat_category_of(NAT_ERR_UNKNOWN_ERROR);
}

/*
 * psprintf() over a va_list.
 */
char *
nat_format_va(const char *fmt, va_list args)
{
	size_t		len = 128;

	for (;;)
	{
		char	   *result = palloc(len);
		va_list		copy;
		size_t		needed;

		va_copy(copy, args);
		needed = pvsnprintf(result, len, fmt, copy);
		va_end(copy);
		if (needed < len)
			return result;
		pfree(result);
		len = needed;
	}
}

/*
 * Make a ToolError of the given fine category, in the current memory
 * context; nat_throw() copies it out of harm's way.
 */
ToolError *
nat_error(NatErrorKind kind, const char *fmt,...)
{
	ToolError  *err = palloc0(sizeof(ToolError));
	va_list		args;

	err->kind = kind;
	va_start(args, fmt);
	err->message = nat_format_va(fmt, args);
	va_end(args);
	return err;
}

/*
 * Set the context that raised ToolErrors are copied into; execute.c sets
 * the call's own context, which outlives the call's subtransaction.
 */
void
nat_set_error_context(MemoryContext cxt)
{
	error_cxt = cxt;
}

/*
 * A value from the arguments as error answers quote it: its first
 * NAT_ECHO_CHARS characters, and an ellipsis if there were more.  len is
 * its length in bytes (it need not be terminated).  Only the prefix is
 * read, so clipping a huge value costs little.
 */
char *
nat_clip_len(const char *value, int len)
{
	int			bytes = 0;
	int			chars = 0;

	if (value == NULL)
		return NULL;
	if (len <= NAT_ECHO_CHARS)
		return pnstrdup(value, len);
	while (bytes < len && chars < NAT_ECHO_CHARS)
	{
		bytes += pg_mblen(value + bytes);
		chars++;
	}
	if (bytes >= len)
		return pnstrdup(value, len);
	return psprintf("%.*s%s", bytes, value,
					GetDatabaseEncoding() == PG_UTF8 ? "\xe2\x80\xa6" : "...");
}

/*
 * A message from PostgreSQL with each double-quoted part clipped as
 * nat_clip_len() clips a value: core quotes the values it refuses
 * ('invalid input syntax for type integer: "..."', 'syntax error at or
 * near "..."'), and those come from the arguments.  Names are shorter than
 * the clip and stay whole.
 */
char *
nat_clip_quoted(const char *str)
{
	StringInfoData buf;
	const char *p = str;

	if (str == NULL)
		return NULL;
	initStringInfo(&buf);
	for (;;)
	{
		const char *open = strchr(p, '"');
		const char *close = open ? strchr(open + 1, '"') : NULL;

		if (close == NULL)
		{
			appendStringInfoString(&buf, p);
			break;
		}
		appendBinaryStringInfo(&buf, p, open + 1 - p);
		appendStringInfoString(&buf, nat_clip_len(open + 1, close - open - 1));
		appendStringInfoChar(&buf, '"');
		p = close + 1;
	}
	return buf.data;
}

/*
 * nat_clip_len() of a terminated string.
 */
char *
nat_clip(const char *value)
{
	return value ? nat_clip_len(value, strnlen(value, MaxAllocSize)) : NULL;
}

/*
 * "schema.table", each part quoted only if needed: how answers and
 * messages name a relation.  (Here rather than in names.c, whose lookups
 * raise tool errors: errors.c depends on no other module.)
 */
char *
nat_relation_display_name(Oid relid)
{
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
									  get_rel_name(relid));
}

/*
 * Has value (len bytes) more than limit characters?  The byte length
 * settles most cases without counting.
 */
bool
nat_exceeds_chars(const char *value, int len, int limit)
{
	int			bytes = 0;
	int			chars = 0;

	if (len <= limit)
		return false;
	if (pg_database_encoding_max_length() == 1)
		return true;
	while (bytes < len)
	{
		if (++chars > limit)
			return true;
		bytes += pg_mblen(value + bytes);
	}
	return false;
}

/*
 * The longest text a field of an error answer may hold.  Values from the
 * arguments are clipped where they are quoted (nat_clip()); this is a
 * last guard that keeps any answer small whatever a message contains.
 */
#define MAX_ERROR_FIELD 8192

static char *
copy_string(const char *s)
{
	size_t		len;

	if (s == NULL)
		return NULL;
	len = strnlen(s, MAX_ERROR_FIELD + 1);
	if (len <= MAX_ERROR_FIELD)
		return pstrdup(s);
	len = pg_mbcliplen(s, len, MAX_ERROR_FIELD);
	return psprintf("%.*s%s", (int) len, s,
					GetDatabaseEncoding() == PG_UTF8 ? "\xe2\x80\xa6" : "...");
}

static List *
copy_string_list(List *list)
{
	List	   *copy = NIL;
	ListCell   *lc;

	foreach(lc, list)
		copy = lappend(copy, copy_string((const char *) lfirst(lc)));
	return copy;
}

/*
 * Raise a ToolError.  The ERROR unwinds the call's subtransaction, which
 * frees the memory the error was built in, so it is copied first.
 */
void
nat_throw(ToolError *err)
{
	MemoryContext old = MemoryContextSwitchTo(error_cxt ? error_cxt : ErrorContext);
	ToolError  *copy = palloc0(sizeof(ToolError));

	copy->kind = err->kind;
	copy->message = copy_string(err->message);
	copy->path = copy_string(err->path);
	copy->suggestion = copy_string(err->suggestion);
	copy->did_you_mean = copy_string(err->did_you_mean);
	copy->suggested_actions = copy_string_list(err->suggested_actions);
	copy->affected_resources = copy_string_list(err->affected_resources);
	copy->dependencies = copy_string_list(err->dependencies);
	copy->hint = copy_string(err->hint);
	copy->column = copy_string(err->column);
	copy->position = err->position;
	copy->sqlerrcode = err->sqlerrcode;
	copy->confirmation_token = copy_string(err->confirmation_token);
	copy->has_affected = err->has_affected;
	copy->affected = err->affected;
	MemoryContextSwitchTo(old);

	pending_error = copy;
	ereport(ERROR,
			(errcode(ERRCODE_NAT_TOOL_ERROR),
			 errmsg_internal("%s", copy->message)));
	pg_unreachable();
}

/*
 * names as answers quote them: "a", "b".
 */
char *
nat_quoted_names(List *names)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, names)
		appendStringInfo(&buf, "%s\"%s\"", buf.len > 0 ? ", " : "",
						 (char *) lfirst(lc));
	return buf.data;
}

/*
 * s as a JSON string, as answers quote a value in their advice.
 */
char *
nat_json_quoted(const char *s)
{
	StringInfoData buf;

	initStringInfo(&buf);
	escape_json(&buf, s);
	return buf.data;
}

/*
 * An invalid_parameters error about the argument at JSON path "path".
 */
static ToolError *invalid_param_error(const char *path, const char *fmt, va_list args)
			pg_attribute_printf(2, 0);

static ToolError *
invalid_param_error(const char *path, const char *fmt, va_list args)
{
	ToolError  *err = palloc0(sizeof(ToolError));

	err->kind = NAT_ERR_INVALID_PARAMETERS;
	err->message = nat_format_va(fmt, args);
	err->path = path ? pstrdup(path) : NULL;
	return err;
}

/*
 * Raise an invalid_parameters error about the argument at JSON path "path".
 */
void
nat_invalid_param(const char *path, const char *suggestion, const char *fmt,...)
{
	ToolError  *err;
	va_list		args;

	va_start(args, fmt);
	err = invalid_param_error(path, fmt, args);
	va_end(args);
	err->suggestion = suggestion ? pstrdup(suggestion) : NULL;
	nat_throw(err);
}

/*
 * Offer the one value the agent probably meant: "Did you mean "v"?" as
 * the suggestion, the value itself in did_you_mean (for a program to take),
 * and action, the call's step with it, first among suggested_actions.
 */
void
nat_error_offer(ToolError *err, const char *value, char *action)
{
	err->suggestion = psprintf("Did you mean \"%s\"?", value);
	err->did_you_mean = pstrdup(value);
	if (action)
		err->suggested_actions = lcons(action, err->suggested_actions);
}

/*
 * nat_invalid_param() for an argument whose value (or name) is close to
 * one valid value: that value is offered (nat_error_offer()); with none,
 * otherwise is the suggestion.
 */
void
nat_invalid_param_offer(const char *path, const char *close, char *action,
						const char *otherwise, const char *fmt,...)
{
	ToolError  *err;
	va_list		args;

	va_start(args, fmt);
	err = invalid_param_error(path, fmt, args);
	va_end(args);
	if (close)
		nat_error_offer(err, close, action);
	else
		err->suggestion = otherwise ? pstrdup(otherwise) : NULL;
	nat_throw(err);
}

/*
 * Take the ToolError being raised, if the ERROR came from nat_throw().
 */
ToolError *
nat_take_pending_error(void)
{
	ToolError  *err = pending_error;

	pending_error = NULL;
	return err;
}

void
nat_clear_pending_error(void)
{
	pending_error = NULL;
}
