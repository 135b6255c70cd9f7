/*-------------------------------------------------------------------------
 *
 * text_block.c
 *	  What a tools/call result's text block holds: the envelope as JSON, a
 *	  compact form of it, or a one-line summary (--text-block).
 *
 * From revision 2025-06-18 on, a CallToolResult carries the envelope twice:
 * as structuredContent and as the text of its content block, which the
 * specification asks for so that clients without structured content still
 * get it.  Some clients hand both to the model (n8n's AI Agent), which then
 * reads every answer twice; others forward structuredContent and drop the
 * text of a successful call (Claude Code), or forward only the text
 * (older n8n, LangChain's adapters).  The operator picks what the text
 * holds:
 *
 *	- json: the envelope as the extension wrote it (the default);
 *	- compact: the same JSON without whitespace and without the fields a
 *	  model does not need (status, tool, operation, executionTime,
 *	  error_type, error_code, truncation, affected_resources, truncated
 *	  when false), rows as arrays in the order of columns, which then
 *	  lists the names only.  Exact: values are copied byte for byte, and
 *	  every field that says what to do next (error, errorType, suggestion,
 *	  suggested_actions, did_you_mean, warning, next, confirmation_token,
 *	  details, dependencies) stays;
 *	- summary: one line ("3 rows from public.people (truncated: next page
 *	  available)", "error invalid_column: column ... Did you mean
 *	  \"name\"?"), for clients that give the model structuredContent.
 *
 * Before 2025-06-18 the text block is the only content, so it is always
 * the JSON (mcp.c decides).  Everything is read from the envelope's text,
 * never from a json-c tree: json-c would round numerics.
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/text_block.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

#define LENGTHOF(array) (sizeof(array) / sizeof((array)[0]))

/* fields a compact text block leaves out */
static const char *const DROPPED[] = {
	"status", "tool", "operation", "executionTime", "error_type",
	"error_code", "truncation", "affected_resources"
};

/* a growing text */
typedef struct Buf
{
	char	   *data;
	size_t		len;
	size_t		cap;
} Buf;

/* one member of an object, as written */
typedef struct Member
{
	const char *key;			/* quotes included */
	size_t		key_len;
	const char *value;
	size_t		value_len;
	int			pass;			/* write_compact() writes it in this pass */
} Member;

/* how a compact text block writes columns and data */
typedef struct RowPlan
{
	bool		names_only;		/* columns as a list of names */
	bool		to_arrays;		/* data's objects as arrays */
	long		ncolumns;
	const char **names;			/* each column's name as written (quoted) */
	size_t	   *name_lens;
	long	   *slot;			/* a row's k-th member goes to column slot[k] */
	const char **values;		/* one row's values, in column order */
	size_t	   *value_lens;
} RowPlan;

static McpTextBlock text_block = MCP_TEXT_JSON;

static void write_compact(Buf *b, const char *txt, size_t len, bool top);
static void write_statements(Buf *b, const char *data, size_t len);
static void plan_rows(const char *txt, size_t len, RowPlan *plan);
static bool plan_columns(const char *txt, size_t len, RowPlan *plan);
static bool plan_data(const char *data, size_t data_len, RowPlan *plan);
static void write_names(Buf *b, const RowPlan *plan);
static void write_rows(Buf *b, RowPlan *plan, const char *data, size_t len);
static void free_plan(RowPlan *plan);
static char *render_summary(const char *txt, size_t len);
static void summarize_success(Buf *b, const char *txt, size_t len);
static void summarize_error(Buf *b, const char *txt, size_t len);
static char *member_string(const char *txt, size_t len, const char *key);
static bool member_is(const char *txt, size_t len, const char *key,
					  const char *token);
static bool token_is(const char *token, size_t len, const char *expected);
static void buf_add(Buf *b, const char *s, size_t n);
static void buf_str(Buf *b, const char *s);
static void buf_line(Buf *b, const char *s, size_t max);
static void buf_minified(Buf *b, const char *s, size_t n);

/*
 * The mode called name ("json", "compact" or "summary"), into *mode; false
 * for another name.
 */
bool
mcp_text_block_parse(const char *name, McpTextBlock *mode)
{
	if (strcmp(name, "json") == 0)
		*mode = MCP_TEXT_JSON;
	else if (strcmp(name, "compact") == 0)
		*mode = MCP_TEXT_COMPACT;
	else if (strcmp(name, "summary") == 0)
		*mode = MCP_TEXT_SUMMARY;
	else
		return false;
	return true;
}

/*
 * Set the mode, at start (before any thread runs).
 */
void
mcp_text_block_configure(McpTextBlock mode)
{
	text_block = mode;
}

McpTextBlock
mcp_text_block_mode(void)
{
	return text_block;
}

/*
 * The text block for the envelope (JSON text, as the extension or
 * failure_envelope() wrote it) in mode: a fresh string, or NULL when the
 * envelope's own text is the block (json, or an envelope that is not an
 * object with success).
 */
char *
mcp_text_block_render(McpTextBlock mode, const char *envelope)
{
	size_t		len = strlen(envelope);
	const char *success;
	size_t		success_len;

	if (mode == MCP_TEXT_JSON ||
		!mcp_json_member(envelope, len, "success", &success, &success_len))
		return NULL;
	if (mode == MCP_TEXT_SUMMARY)
		return render_summary(envelope, len);
	else
	{
		Buf			b = {NULL, 0, 0};

		write_compact(&b, envelope, len, true);
		return b.data;
	}
}

/*
 * The compact form: the envelope's members minus DROPPED, without
 * whitespace; rows as arrays when that is exact.  success comes first and
 * the rows last (columns, data, data_text; data not at all when it is the
 * empty array beside a csv or markdown data_text), after what says how the
 * call went: a client that cuts a long text cuts rows, not the warning or
 * next.  In the envelope (top), data that holds execute_sql's statement
 * results has each written the same way.
 */
static void
write_compact(Buf *b, const char *txt, size_t len, bool top)
{
	static const char *const LAST[] = {"columns", "data", "data_text"};
	RowPlan		plan;
	size_t		start = b->len;
	const char *data_text;
	size_t		data_text_len;
	bool		text_rows = member_is(txt, len, "data", "[]") &&
		mcp_json_member(txt, len, "data_text", &data_text, &data_text_len);
	Member	   *members = NULL;
	size_t		n = 0;
	size_t		pos = 0;

	/* the members kept, each with the pass that writes it */
	for (;;)
	{
		Member		m;
		bool		skip;

		if (!mcp_json_next_member(txt, len, &pos, &m.key, &m.key_len,
								  &m.value, &m.value_len))
			break;
		skip = (token_is(m.key, m.key_len, "truncated") &&
				token_is(m.value, m.value_len, "false")) ||
			(text_rows && token_is(m.key, m.key_len, "data"));
		for (size_t i = 0; !skip && i < LENGTHOF(DROPPED); i++)
			skip = token_is(m.key, m.key_len, DROPPED[i]);
		if (skip)
			continue;
		m.pass = token_is(m.key, m.key_len, "success") ? 0 : 1;
		for (int i = 0; i < (int) LENGTHOF(LAST); i++)
			if (token_is(m.key, m.key_len, LAST[i]))
				m.pass = i + 2;
		members = mcp_realloc(members, (n + 1) * sizeof(Member));
		members[n++] = m;
	}

	plan_rows(txt, len, &plan);
	buf_add(b, "{", 1);
	/* pass 0: success; 1: the rest; 2, 3, 4: columns, data, data_text */
	for (int pass = 0; pass <= 4; pass++)
		for (size_t i = 0; i < n; i++)
		{
			const Member *m = &members[i];

			if (m->pass != pass)
				continue;
			if (b->len > start + 1)
				buf_add(b, ",", 1);
			buf_add(b, m->key, m->key_len);
			buf_add(b, ":", 1);
			if (plan.names_only && pass == 2)
				write_names(b, &plan);
			else if (plan.to_arrays && pass == 3)
				write_rows(b, &plan, m->value, m->value_len);
			else if (top && plan.ncolumns == 0 && pass == 3)
				write_statements(b, m->value, m->value_len);
			else
				buf_minified(b, m->value, m->value_len);
		}
	buf_add(b, "}", 1);
	free(members);
	free_plan(&plan);
}

/*
 * data without columns: each element that is a statement result (an
 * object with statement and columns) in the compact form, the rest (such
 * as describe_table's description) without whitespace only.
 */
static void
write_statements(Buf *b, const char *data, size_t len)
{
	size_t		pos = 0;
	const char *element;
	size_t		element_len;
	const char *columns;
	size_t		columns_len;

	if (data[0] != '[')
	{
		buf_minified(b, data, len);
		return;
	}
	buf_add(b, "[", 1);
	while (mcp_json_next_element(data, len, &pos, &element, &element_len))
	{
		if (b->data[b->len - 1] != '[')
			buf_add(b, ",", 1);
		if (mcp_json_member(element, element_len, "statement", &columns, &columns_len) &&
			mcp_json_member(element, element_len, "columns", &columns, &columns_len))
			write_compact(b, element, element_len, false);
		else
			buf_minified(b, element, element_len);
	}
	buf_add(b, "]", 1);
}

/*
 * Decide how columns and data are written.  Rows become arrays when every
 * row of a json-format answer is an object with exactly the columns'
 * names as keys; columns becomes a list of names when the rows then carry
 * typed values (json and columnar formats; csv and markdown keep the
 * types, which their text loses).
 */
static void
plan_rows(const char *txt, size_t len, RowPlan *plan)
{
	const char *format;
	const char *data;
	size_t		format_len;
	size_t		data_len;
	bool		columnar = false;

	memset(plan, 0, sizeof(*plan));
	if (!plan_columns(txt, len, plan))
		return;
	if (mcp_json_member(txt, len, "format", &format, &format_len))
	{
		columnar = token_is(format, format_len, "\"columnar\"");
		if (!columnar && !token_is(format, format_len, "\"json\""))
			return;
	}
	if (!columnar && mcp_json_member(txt, len, "data", &data, &data_len))
		plan->to_arrays = plan_data(data, data_len, plan);
	plan->names_only = columnar || plan->to_arrays;
}

/*
 * The names of the envelope's columns (objects with a string name), into
 * plan; false when there are none or one has no name.
 */
static bool
plan_columns(const char *txt, size_t len, RowPlan *plan)
{
	const char *columns;
	size_t		columns_len;
	const char **starts;
	size_t	   *lens;
	long		n;

	if (!mcp_json_member(txt, len, "columns", &columns, &columns_len) ||
		(n = mcp_json_elements(columns, columns_len, &starts, &lens)) < 0)
		return false;
	if (n == 0)
	{
		free(starts);
		free(lens);
		return false;
	}
	plan->ncolumns = n;
	plan->names = mcp_malloc(n * sizeof(*plan->names));
	plan->name_lens = mcp_malloc(n * sizeof(*plan->name_lens));
	for (long i = 0; i < n; i++)
		if (!mcp_json_member(starts[i], lens[i], "name", &plan->names[i],
							 &plan->name_lens[i]) ||
			plan->names[i][0] != '"')
			n = -1;
	free(starts);
	free(lens);
	return n > 0;
}

/*
 * Can every row of data become an array?  jsonb writes an object's keys in
 * one order (by length, then bytes), so every row lists the same keys in
 * the same order: the first row maps its k-th key to a column (plan->slot)
 * and the others must repeat its keys.
 */
static bool
plan_data(const char *data, size_t data_len, RowPlan *plan)
{
	const char **first_keys = mcp_malloc(plan->ncolumns * sizeof(*first_keys));
	bool	   *taken = mcp_malloc(plan->ncolumns * sizeof(bool));
	size_t		pos = 0;
	const char *row;
	size_t		row_len;
	bool		ok = data[0] == '[';
	bool		first = true;

	memset(taken, 0, plan->ncolumns * sizeof(bool));
	plan->slot = mcp_malloc(plan->ncolumns * sizeof(*plan->slot));
	while (ok && mcp_json_next_element(data, data_len, &pos, &row, &row_len))
	{
		size_t		mpos = 0;
		const char *key;
		const char *value;
		size_t		key_len;
		size_t		value_len;
		long		k = 0;

		while (ok && mcp_json_next_member(row, row_len, &mpos, &key, &key_len,
										  &value, &value_len))
		{
			if (k == plan->ncolumns)
				ok = false;
			else if (first)
			{
				long		c;

				for (c = 0; c < plan->ncolumns; c++)
					if (!taken[c] && plan->name_lens[c] == key_len &&
						memcmp(plan->names[c], key, key_len) == 0)
						break;
				ok = c < plan->ncolumns;
				if (ok)
				{
					taken[c] = true;
					plan->slot[k] = c;
					first_keys[k] = key;
				}
			}
			else
				ok = plan->name_lens[plan->slot[k]] == key_len &&
					memcmp(first_keys[k], key, key_len) == 0;
			k++;
		}
		ok = ok && row[0] == '{' && k == plan->ncolumns;
		first = false;
	}
	free(first_keys);
	free(taken);
	return ok;
}

/*
 * columns as ["name", ...].
 */
static void
write_names(Buf *b, const RowPlan *plan)
{
	buf_add(b, "[", 1);
	for (long i = 0; i < plan->ncolumns; i++)
	{
		if (i > 0)
			buf_add(b, ",", 1);
		buf_add(b, plan->names[i], plan->name_lens[i]);
	}
	buf_add(b, "]", 1);
}

/*
 * data's rows (objects plan_data() accepted) as arrays in column order.
 */
static void
write_rows(Buf *b, RowPlan *plan, const char *data, size_t len)
{
	size_t		pos = 0;
	const char *row;
	size_t		row_len;
	bool		first = true;

	plan->values = mcp_malloc(plan->ncolumns * sizeof(*plan->values));
	plan->value_lens = mcp_malloc(plan->ncolumns * sizeof(*plan->value_lens));
	buf_add(b, "[", 1);
	while (mcp_json_next_element(data, len, &pos, &row, &row_len))
	{
		size_t		mpos = 0;
		const char *key;
		size_t		key_len;
		long		k = 0;

		while (k < plan->ncolumns &&
			   mcp_json_next_member(row, row_len, &mpos, &key, &key_len,
									&plan->values[plan->slot[k]],
									&plan->value_lens[plan->slot[k]]))
			k++;
		buf_add(b, first ? "[" : ",[", first ? 1 : 2);
		first = false;
		for (long c = 0; c < plan->ncolumns; c++)
		{
			if (c > 0)
				buf_add(b, ",", 1);
			buf_minified(b, plan->values[c], plan->value_lens[c]);
		}
		buf_add(b, "]", 1);
	}
	buf_add(b, "]", 1);
}

static void
free_plan(RowPlan *plan)
{
	free(plan->names);
	free(plan->name_lens);
	free(plan->slot);
	free(plan->values);
	free(plan->value_lens);
}

/*
 * The one-line summary.
 */
static char *
render_summary(const char *txt, size_t len)
{
	Buf			b = {NULL, 0, 0};

	if (member_is(txt, len, "success", "true"))
		summarize_success(&b, txt, len);
	else
		summarize_error(&b, txt, len);
	buf_add(&b, "", 0);
	return b.data;
}

/*
 * "3 rows from public.people (truncated: next page available)", "1 row
 * inserted into public.people", "list_tables: 4 rows".
 */
static void
summarize_success(Buf *b, const char *txt, size_t len)
{
	static const char *const verbs[][3] = {
		{"select", "", "from"},
		{"insert", " inserted", "into"},
		{"update", " updated", "in"},
		{"delete", " deleted", "from"},
	};
	char	   *operation = member_string(txt, len, "operation");
	char	   *table = member_string(txt, len, "table");
	char	   *tool = member_string(txt, len, "tool");
	char	   *warning = member_string(txt, len, "warning");
	char	   *did_you_mean = member_string(txt, len, "did_you_mean");
	const char *count;
	size_t		count_len;
	size_t		verb;
	bool		truncated = member_is(txt, len, "truncated", "true");
	bool		dry_run = member_is(txt, len, "dryRun", "true");

	for (verb = 0; verb < LENGTHOF(verbs); verb++)
		if (operation != NULL && strcmp(operation, verbs[verb][0]) == 0)
			break;
	if (verb == LENGTHOF(verbs))
	{
		buf_line(b, tool != NULL ? tool : "the tool", 200);
		buf_str(b, ": ");
	}
	if (mcp_json_member(txt, len, verb > 0 ? "affectedRows" : "rowCount", &count, &count_len) ||
		mcp_json_member(txt, len, "rowCount", &count, &count_len))
	{
		buf_add(b, count, count_len);
		buf_str(b, token_is(count, count_len, "1") ? " row" : " rows");
	}
	else
		buf_str(b, "done");
	if (verb < LENGTHOF(verbs))
	{
		if (verb > 0 && dry_run)
			buf_str(b, " would be");
		buf_str(b, verbs[verb][1]);
	}
	if (table != NULL)
	{
		buf_str(b, " ");
		buf_str(b, verb < LENGTHOF(verbs) ? verbs[verb][2] : "from");
		buf_str(b, " ");
		buf_line(b, table, 200);
	}
	if (dry_run)
		buf_str(b, " (dry run: nothing was written)");
	if (truncated)
		buf_str(b, mcp_json_member(txt, len, "next", &count, &count_len)
				? " (truncated: next page available)" : " (truncated)");
	else if (warning != NULL)
	{
		const char *stop = strstr(warning, ". ");

		buf_str(b, ". Warning: ");
		buf_line(b, warning, stop != NULL ? (size_t) (stop - warning) + 1 : 300);
	}
	if (did_you_mean != NULL)
	{
		buf_str(b, " Did you mean \"");
		buf_line(b, did_you_mean, 200);
		buf_str(b, "\"?");
	}
	free(operation);
	free(table);
	free(tool);
	free(warning);
	free(did_you_mean);
}

/*
 * "error invalid_column: column "nme" does not exist. Did you mean
 * "name"?": the error, then the suggestion, then the corrected value when
 * the suggestion does not name it.
 */
static void
summarize_error(Buf *b, const char *txt, size_t len)
{
	char	   *type = member_string(txt, len, "errorType");
	char	   *error = member_string(txt, len, "error");
	char	   *suggestion = member_string(txt, len, "suggestion");
	char	   *did_you_mean = member_string(txt, len, "did_you_mean");

	buf_str(b, "error ");
	buf_line(b, type != NULL ? type : "unknown_error", 100);
	buf_str(b, ": ");
	buf_line(b, error != NULL ? error : "unknown error", 2000);
	if (b->len > 0 && strchr(".?!", b->data[b->len - 1]) == NULL)
		buf_str(b, ".");
	if (suggestion != NULL)
	{
		buf_str(b, " ");
		buf_line(b, suggestion, 2000);
	}
	if (did_you_mean != NULL &&
		(suggestion == NULL || strstr(suggestion, did_you_mean) == NULL))
	{
		buf_str(b, " Did you mean \"");
		buf_line(b, did_you_mean, 200);
		buf_str(b, "\"?");
	}
	free(type);
	free(error);
	free(suggestion);
	free(did_you_mean);
}

/*
 * The decoded value of the string member key, or NULL.
 */
static char *
member_string(const char *txt, size_t len, const char *key)
{
	const char *value;
	size_t		value_len;
	json_tokener *tok;
	json_object *decoded;
	char	   *result = NULL;

	if (!mcp_json_member(txt, len, key, &value, &value_len) || value[0] != '"')
		return NULL;
	if ((tok = json_tokener_new()) == NULL)
		return NULL;
	decoded = json_tokener_parse_ex(tok, value, (int) value_len);
	if (decoded != NULL && json_object_is_type(decoded, json_type_string))
		result = mcp_strndup(json_object_get_string(decoded),
							 (size_t) json_object_get_string_len(decoded));
	json_object_put(decoded);
	json_tokener_free(tok);
	return result;
}

/*
 * Is the member key's value written as token?
 */
static bool
member_is(const char *txt, size_t len, const char *key, const char *token)
{
	const char *value;
	size_t		value_len;

	return mcp_json_member(txt, len, key, &value, &value_len) &&
		token_is(value, value_len, token);
}

/*
 * Is token/len exactly expected?  A key is compared with its quotes: "\""
 * is added around expected when token starts with one and expected not.
 */
static bool
token_is(const char *token, size_t len, const char *expected)
{
	size_t		n = strlen(expected);

	if (len > 0 && token[0] == '"' && expected[0] != '"')
		return len == n + 2 && token[len - 1] == '"' &&
			memcmp(token + 1, expected, n) == 0;
	return len == n && memcmp(token, expected, n) == 0;
}

static void
buf_add(Buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
	{
		b->cap = (b->len + n + 1) * 2;
		b->data = mcp_realloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void
buf_str(Buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/*
 * Up to max bytes of s (never cutting a UTF-8 sequence), control
 * characters as spaces: the summary stays one line.
 */
static void
buf_line(Buf *b, const char *s, size_t max)
{
	size_t		n = strlen(s);

	if (n > max)
	{
		n = max;
		while (n > 0 && ((unsigned char) s[n] & 0xC0) == 0x80)
			n--;
	}
	for (size_t i = 0; i < n; i++)
	{
		char		c = ((unsigned char) s[i] < 0x20) ? ' ' : s[i];

		buf_add(b, &c, 1);
	}
}

/*
 * The JSON text s/n without whitespace between tokens.
 */
static void
buf_minified(Buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
	{
		b->cap = (b->len + n + 1) * 2;
		b->data = mcp_realloc(b->data, b->cap);
	}
	b->len += mcp_json_minify(s, n, b->data + b->len);
	b->data[b->len] = '\0';
}
