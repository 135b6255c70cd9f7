/*-------------------------------------------------------------------------
 *
 * audit.c
 *		  One server-log line per audited tool call, in the manner of pgaudit.
 *
 * neon_ai_tools.audit = off | writes (default) | all.  "writes" audits the
 * calls that may change data: the write tools, and execute_sql when it is
 * not read-only.  The line is
 *
 *	 NEON_AI_TOOLS AUDIT: role,database,tool,table,operation,outcome,
 *						  affected_rows,duration_ms,statement
 *
 * as CSV (fields with commas, quotes or line breaks are double-quoted),
 * where outcome is success, dry_run or error:<errorType>, and statement is
 * the SQL that ran with every literal replaced by "?" (generated SQL has
 * only $n placeholders; the agent's own SQL is masked with PostgreSQL's
 * scanner), so no value an agent supplied reaches the log.  Time, process
 * and session come from log_line_prefix, as with pgaudit.
 *
 * Like pgaudit, this is best effort and not transactional: the line is
 * written when the call ends, whether or not the caller's transaction
 * later commits.  It goes to the server log only (LOG_SERVER_ONLY), unless
 * neon_ai_tools.audit_log_client sends it to the client as a NOTICE too.
 *
 * IDENTIFICATION
 *		  src/core/audit.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/dbcommands.h"
#include "miscadmin.h"
#include "run/run.h"
#include "parser/scanner.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/*
 * Does the token the core scanner found at sql + loc start a constant?
 *
 * Token numbers come from parser/gram.h, which is not installed from 16 on,
 * so constants are told by their first characters instead.  Each test
 * below can only match the token the scanner chose, because the scanner
 * takes the longest match: "e'x'" is one string, never "e" then "'x'".
 *   digits, or a dot and a digit      numbers (ICONST, FCONST)
 *   'text'                            SCONST
 *   $$text$$ or $tag$text$tag$        SCONST (dollar-quoted; $1 is a parameter)
 *   E'..', B'..', X'..'               SCONST, BCONST, XCONST
 *   U&'..'                            USCONST (U&"..." is an identifier)
 * N'..' is scanned as the keyword NCHAR followed by a plain 'text' token,
 * which the rule for quotes then masks.
 */
static bool
starts_constant(const char *sql, int loc)
{
	const char *p = sql + loc;

	if (isdigit((unsigned char) p[0]) ||
		(p[0] == '.' && isdigit((unsigned char) p[1])))
		return true;
	if (p[0] == '\'')
		return true;
	if (p[0] == '$')
		return !isdigit((unsigned char) p[1]);
	if (strchr("eEbBxX", p[0]) != NULL && p[0] != '\0' && p[1] == '\'')
		return true;
	return (p[0] == 'u' || p[0] == 'U') && p[1] == '&' && p[2] == '\'';
}

/*
 * The SQL text with every constant (strings, numbers, bit strings)
 * replaced by "?", and what lies between tokens (white space and comments,
 * which can hold anything, a password in a comment) reduced to one
 * space.  Text the scanner cannot read is not logged at all.
 */
char *
nat_mask_literals(const char *sql)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	StringInfoData buf;
	volatile bool ok = true;

	initStringInfo(&buf);
	PG_TRY();
	{
		core_yy_extra_type yyextra;
		core_yyscan_t yyscanner;
		core_YYSTYPE yylval;
		YYLTYPE		yylloc;
		int			copied = 0;

		yyscanner = scanner_init(sql, &yyextra, &ScanKeywords, ScanKeywordTokens);
		for (;;)
		{
			int			tok = core_yylex(&yylval, &yylloc, yyscanner);

			int			len;

			if (tok == 0)
				break;
			/* the scanner leaves the token's text terminated in scanbuf */
			len = strlen(yyextra.scanbuf + yylloc);
			if (yylloc > copied && buf.len > 0)
				appendStringInfoChar(&buf, ' ');
			if (starts_constant(sql, yylloc))
				appendStringInfoChar(&buf, '?');
			else
				appendBinaryStringInfo(&buf, sql + yylloc, len);
			copied = yylloc + len;
		}
		scanner_finish(yyscanner);
	}
	PG_CATCH();
	{
		/* the scanner touches no shared state: flushing the error is safe */
		MemoryContextSwitchTo(oldcxt);
		FlushErrorState();
		ok = false;
	}
	PG_END_TRY();

	if (!ok)
		return pstrdup("<statement not logged: it could not be scanned>");
	return buf.data;
}

/*
 * Append a CSV field: quoted if it contains a comma or a quote; quotes
 * doubled.  A control character (a line break, a tab, an escape) becomes
 * a space: whatever a name or a statement holds, the line stays one line
 * and cannot forge another.
 */
static void
append_csv(StringInfo buf, const char *value)
{
	const char *p;
	bool		quote;

	if (buf->len > 0)
		appendStringInfoChar(buf, ',');
	if (value == NULL)
		return;
	quote = strpbrk(value, ",\"") != NULL;
	if (quote)
		appendStringInfoChar(buf, '"');
	for (p = value; *p; p++)
	{
		unsigned char c = (unsigned char) *p;

		if (c == '"')
			appendStringInfoChar(buf, '"');
		appendStringInfoChar(buf, (c < ' ' || c == 0x7f) ? ' ' : c);
	}
	if (quote)
		appendStringInfoChar(buf, '"');
}

/*
 * Is this call audited under the current setting?
 */
static bool
call_is_audited(ToolCall *call)
{
	if (nat_audit == NAT_AUDIT_ALL)
		return true;
	if (nat_audit == NAT_AUDIT_OFF || call->tool == NULL)
		return false;
	return call->tool->writes || !call->read_only;
}

/*
 * Write the audit line of a finished call; outcome is "success",
 * "dry_run" or "error:<errorType>".
 */
void
nat_audit_call(ToolCall *call, const char *outcome)
{
	StringInfoData line;
	char	   *role;
	char	   *database;

	if (!call_is_audited(call))
		return;

	role = GetUserNameFromId(GetUserId(), true);
	database = get_database_name(MyDatabaseId);

	initStringInfo(&line);
	append_csv(&line, role ? role : "?");
	append_csv(&line, database ? database : "?");
	append_csv(&line, call->tool_name);
	append_csv(&line, call->table);
	append_csv(&line, nat_operation_names[call->operation]);
	append_csv(&line, outcome);
	append_csv(&line, call->affected_rows >= 0 ?
			   psprintf(INT64_FORMAT, call->affected_rows) : NULL);
	append_csv(&line, nat_format_elapsed(call->start));
	/* generated SQL carries values only as $n; the agent's own SQL is masked */
	append_csv(&line, call->query == NULL ? NULL :
			   call->query_source ? nat_mask_literals(call->query) : call->query);

	ereport(nat_audit_log_client ? NOTICE : LOG_SERVER_ONLY,
			(errmsg("NEON_AI_TOOLS AUDIT: %s", line.data),
			 errhidestmt(true),
			 errhidecontext(true)));
}
