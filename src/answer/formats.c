/*-------------------------------------------------------------------------
 *
 * formats.c
 *		  The answer's row formats (README, "Answer formats").
 *
 * A row-returning tool takes "format"; neon_ai_tools.default_format is
 * the default.  Every format keeps the envelope and "columns" (names and
 * types, once); they differ in how "data" holds the rows:
 *
 *	 json		an object a row (keys repeat in every row)
 *	 columnar	an array a row, in the order of "columns": the same exact,
 *				typed values as json, without the keys
 *	 csv		"data" is empty; the rows are text in "data_text" (RFC 4180,
 *				a header line first), and "note" says what text loses
 *	 markdown	likewise, as a GitHub-flavoured table
 *
 * The text formats render each value as the json format does (the same
 * conversion, the same byte checks before a large value is read), then
 * write that value as text.  The byte cap counts the rendered form: for
 * text, each line as it stands escaped in the answer's "data_text".
 *
 * IDENTIFICATION
 *		  src/answer/formats.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "answer/formats.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

/* what a text format loses, in the answer's "note" */
#define CSV_NOTE \
	"csv: the first line names the columns; NULL is an empty unquoted field and an empty string is \"\"; " \
	"values are text, so numbers, booleans, JSON and arrays keep their types only in columns. " \
	"Use format columnar for exact, typed values."
#define MARKDOWN_NOTE \
	"markdown: NULL is shown as NULL, and an empty string or the text NULL in double quotes; " \
	"| is written \\| and line breaks <br>; values are text, so numbers, booleans, JSON and arrays keep " \
	"their types only in columns. Use format columnar for exact, typed values."

/*
 * The call's format: its "format" argument, else the setting, for a tool
 * that takes one; json for the others.
 */
int
nat_call_format(ToolCall *call)
{
	const char *given;
	int			i;

	if (call->tool == NULL || call->targs == NULL ||
		!nat_tool_has_param(call->tool, "format"))
		return NAT_FORMAT_JSON;
	given = NAT_COMMON(call)->format;
	if (given == NULL)
		return nat_default_format;
	for (i = 0; nat_answer_format_names[i]; i++)
		if (strcmp(given, nat_answer_format_names[i]) == 0)
			return i;
	return NAT_FORMAT_JSON;		/* cannot happen: args.c checked it */
}

/*
 * A text format's cell: CSV quotes a field with a separator, a quote or a
 * line break, and an empty string (so that it differs from NULL).
 */
static void
append_csv_cell(StringInfo buf, const char *s, Size len, bool isnull)
{
	Size		i;
	bool		quote = !isnull && len == 0;

	for (i = 0; i < len && !quote; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			quote = true;
	if (!quote)
	{
		appendBinaryStringInfo(buf, s, len);
		return;
	}
	appendStringInfoChar(buf, '"');
	for (i = 0; i < len; i++)
	{
		if (s[i] == '"')
			appendStringInfoChar(buf, '"');
		appendStringInfoChar(buf, s[i]);
	}
	appendStringInfoChar(buf, '"');
}

/*
 * A markdown cell: NULL bare, an empty string and the text NULL quoted,
 * pipes escaped, line breaks as <br>.
 */
static void
append_markdown_cell(StringInfo buf, const char *s, Size len, bool isnull)
{
	Size		i;

	appendStringInfoChar(buf, ' ');
	if (isnull)
		appendStringInfoString(buf, "NULL");
	else if (len == 0 || (len == 4 && memcmp(s, "NULL", 4) == 0))
		appendStringInfo(buf, "\"%.*s\"", (int) len, s);
	else
	{
		for (i = 0; i < len; i++)
		{
			if (s[i] == '|')
				appendStringInfoString(buf, "\\|");
			else if (s[i] == '\n')
				appendStringInfoString(buf, "<br>");
			else if (s[i] != '\r')
				appendStringInfoChar(buf, s[i]);
		}
	}
	appendStringInfoString(buf, " |");
}

static void
append_cell(StringInfo buf, int format, int i, const char *s, Size len,
			bool isnull)
{
	if (format == NAT_FORMAT_CSV)
	{
		if (i > 0)
			appendStringInfoChar(buf, ',');
		append_csv_cell(buf, s, len, isnull);
	}
	else
	{
		if (i == 0)
			appendStringInfoChar(buf, '|');
		append_markdown_cell(buf, s, len, isnull);
	}
}

/*
 * The text of a converted value: a string as it is, a number or a boolean
 * as JSON writes it, a container (arrays, records) as its JSON text, and a
 * json or jsonb value (json_text) as its JSON text whatever it holds.
 */
static void
append_value_cell(StringInfo buf, int format, int i, JsonbValue *v,
				  bool json_text)
{
	char	   *s;
	JsonbValue	scalar;

	switch (v->type)
	{
		case jbvNull:
			append_cell(buf, format, i, "", 0, true);
			return;
		case jbvString:
			append_cell(buf, format, i, v->val.string.val, v->val.string.len, false);
			return;
		case jbvNumeric:
			s = DatumGetCString(DirectFunctionCall1(numeric_out,
													NumericGetDatum(v->val.numeric)));
			break;
		case jbvBool:
			s = v->val.boolean ? "true" : "false";
			break;
		case jbvBinary:

			/*
			 * to_jsonb() of a uuid, an enum, an interval, an inet, a bytea
			 * ... is a scalar container, not a string: written as its JSON
			 * text it would keep the JSON quotes ("a0eebc99-..."), so it is
			 * written as the scalar it holds.
			 */
			if (!json_text && JsonContainerIsScalar(v->val.binary.data) &&
				JsonbExtractScalar(v->val.binary.data, &scalar))
			{
				append_value_cell(buf, format, i, &scalar, false);
				return;
			}
			s = JsonbToCString(NULL, v->val.binary.data, v->val.binary.len);
			break;
		default:
			elog(ERROR, "unexpected jsonb value type %d", (int) v->type);
	}
	append_cell(buf, format, i, s, strlen(s), false);
}

/*
 * The header of a text format: the column names (and markdown's rule).
 */
void
nat_format_text_header(int format, ColumnOutput *cols, int ncols,
					   StringInfo out)
{
	int			i;

	for (i = 0; i < ncols; i++)
		append_cell(out, format, i, cols[i].key, strlen(cols[i].key), false);
	appendStringInfoChar(out, '\n');
	if (format == NAT_FORMAT_MARKDOWN && ncols > 0)
	{
		appendStringInfoChar(out, '|');
		for (i = 0; i < ncols; i++)
			appendStringInfoString(out, " --- |");
		appendStringInfoChar(out, '\n');
	}
}

/*
 * Render one row as a line of text at the end of "text", if it fits in
 * budget bytes as escaped in the answer; *size is what it adds.  On false
 * nothing is added, and *oversized names the column whose value did not
 * fit (or NULL: the line as a whole did not).  Works in scratch, reset here.
 */
bool
nat_format_text_row(int format, ColumnOutput *cols, int ncols,
					Datum *values, bool *isnull, Size budget,
					StringInfo out, MemoryContext scratch, Size *size,
					const char **oversized)
{
	MemoryContext old = MemoryContextSwitchTo(scratch);
	StringInfoData line;
	int			i;

	*oversized = NULL;
	initStringInfo(&line);
	for (i = 0; i < ncols; i++)
	{
		JsonbValue	v;
		Size		vsize;
		Size		memory;
		Size		left = budget > (Size) line.len ? budget - line.len : 0;

		/* the json size of a value bounds the text's, escapes aside */
		if (!nat_datum_to_jsonb_value(&cols[i], values[i], isnull[i],
									  left + cols[i].key_size, &v,
									  &vsize, &memory))
		{
			*oversized = cols[i].name;
			MemoryContextSwitchTo(old);
			MemoryContextReset(scratch);
			return false;
		}
		append_value_cell(&line, format, i, &v, nat_column_is_json(&cols[i]));
	}
	appendStringInfoChar(&line, '\n');
	*size = nat_json_string_size(line.data, line.len) - 2;	/* no quotes */
	if (*size <= budget)
	{
		MemoryContextSwitchTo(old);
		appendBinaryStringInfo(out, line.data, line.len);
	}
	else
		MemoryContextSwitchTo(old);
	MemoryContextReset(scratch);
	return *size <= budget;
}

/*
 * Close a statement's rows in a text format: "data" stays empty, the text
 * goes in "data_text" and what it loses in "note".
 */
void
nat_format_text_end(ToolCall *call, int format, StringInfo out)
{
	nat_push_string(&call->state, "data_text", out ? out->data : "");
	nat_push_string(&call->state, "note",
					format == NAT_FORMAT_CSV ? CSV_NOTE : MARKDOWN_NOTE);
}
