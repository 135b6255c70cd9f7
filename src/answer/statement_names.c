/*-------------------------------------------------------------------------
 *
 * statement_names.c
 *		  Did-you-mean for the names PostgreSQL could not find in a
 *		  statement: an undefined column (42703), function (42883) or
 *		  table (42P01), whether the agent wrote the statement (execute_sql,
 *		  explain_query, a SQL-string where or order_by) or a tool built it.
 *
 * PostgreSQL's own hint for a column ("Perhaps you meant to reference the
 * column ...") looks at every column of the statement's tables, readable
 * or not, so it is shown only in the cases names.c proves safe, and most
 * agents then get no name at all.  Here the names offered are those the
 * role may use: the readable columns of the tables the statement names
 * (parsed again from its text), the functions it may execute on its
 * search path, the tables it may see (names.c).  An error raised in a
 * function the statement called is looked up in the statement's tables
 * too: what is offered is still only what the role may use.
 *
 * The message is read for the missing name, so a server whose
 * lc_messages is not English gets no suggestion here, only the rest of
 * the answer.
 *
 * IDENTIFICATION
 *		  src/answer/statement_names.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/namespace.h"
#include "catalog/pg_proc.h"
#include "common/keywords.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "answer/answer.h"
#include "nodes/nodeFuncs.h"
#include "parser/parser.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/rel.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"

/* tables of one statement that are looked at, at most */
#define STATEMENT_TABLES_MAX	16

static bool
collect_relations(Node *node, List **relids)
{
	if (node == NULL)
		return false;
	if (IsA(node, RangeVar))
	{
		Oid			relid;

		if (list_length(*relids) >= STATEMENT_TABLES_MAX)
			return false;
		relid = nat_rangevar_relation((RangeVar *) node);
		if (OidIsValid(relid) && !list_member_oid(*relids, relid))
			*relids = lappend_oid(*relids, relid);
		return false;
	}
	return raw_expression_tree_walker(node, collect_relations, relids);
}

/*
 * The tables and views sql names (FROM, JOIN, INSERT INTO, UPDATE, DELETE
 * FROM, subqueries), that exist, in order; NIL if it does not parse.
 */
static List *
statement_relations(const char *sql)
{
	List	   *relids = NIL;
	MemoryContext cxt = CurrentMemoryContext;
	ListCell   *lc;
	List	   *stmts;

	PG_TRY();
	{
		stmts = nat_raw_parser(sql);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		FlushErrorState();
		return NIL;
	}
	PG_END_TRY();
	foreach(lc, stmts)
	{
		Node	   *stmt = lfirst_node(RawStmt, lc)->stmt;

		/* the raw walker knows no utility statement: only their queries */
		if (IsA(stmt, ExplainStmt))
			stmt = ((ExplainStmt *) stmt)->query;
		else if (IsA(stmt, CreateTableAsStmt))
			stmt = ((CreateTableAsStmt *) stmt)->query;
		else if (IsA(stmt, ViewStmt))
			stmt = ((ViewStmt *) stmt)->query;
		if (IsA(stmt, SelectStmt) || IsA(stmt, InsertStmt) ||
			IsA(stmt, UpdateStmt) || IsA(stmt, DeleteStmt) || IsA(stmt, MergeStmt))
			(void) collect_relations(stmt, &relids);
	}
	return relids;
}

/*
 * The name an English message quotes after its first word ("column",
 * "function"): "column "Stauts" does not exist" gives Stauts, "column
 * p.stauts does not exist" gives stauts, "function lenght(text) does not
 * exist" gives lenght.  NULL if the message is not of that shape.
 */
static char *
name_in_message(const char *message, const char *word)
{
	size_t		wlen = strlen(word);
	const char *p;
	const char *end;
	char	   *name;
	char	   *dot;

	if (message == NULL || strncmp(message, word, wlen) != 0 || message[wlen] != ' ')
		return NULL;
	p = message + wlen + 1;
	if (*p == '"')
	{
		end = strchr(p + 1, '"');
		if (end == NULL)
			return NULL;
		/* a whole character: a RAISE can quote a name of any length */
		return pnstrdup(p + 1, pg_mbcliplen(p + 1, end - p - 1, NAMEDATALEN - 1));
	}
	end = p + strcspn(p, " (");
	if (end == p || end - p > NAMEDATALEN * 2)
		return NULL;
	name = pnstrdup(p, end - p);
	dot = strrchr(name, '.');
	name = dot ? dot + 1 : name;
	if (name[0] == '"')
		name++;
	if (name[0] != '\0' && name[strlen(name) - 1] == '"')
		name[strlen(name) - 1] = '\0';
	return name[0] ? name : NULL;
}

/*
 * A column the statement named does not exist: the closest readable
 * column of its tables, else (one table) the columns it has.
 */
static void
suggest_column(const char *message, const char *sql, const char *table,
			   ErrorEnrichment *en)
{
	char	   *missing = name_in_message(message, "column");
	List	   *relids = NIL;
	List	   *close = NIL;
	ListCell   *lc;

	if (missing == NULL)
		return;
	/* the call's own table: a where or order_by is analysed on its own */
	if (table)
	{
		RangeVar   *rv = makeRangeVarFromNameList(nat_qualified_name_list(table));
		Oid			relid = nat_rangevar_relation(rv);

		if (OidIsValid(relid))
			relids = list_make1_oid(relid);
	}
	if (sql)
		relids = list_concat_unique_oid(relids, statement_relations(sql));
	foreach(lc, relids)
	{
		ListCell   *c;

		foreach(c, nat_closest_columns(lfirst_oid(lc), missing))
		{
			if (!list_member(close, makeString(lfirst(c))))
				close = lappend(close, makeString(lfirst(c)));
		}
	}
	if (list_length(close) == 1)
	{
		char	   *column = strVal(linitial(close));

		en->suggestion = psprintf("Did you mean \"%s\"?", column);
		en->did_you_mean = pstrdup(column);
		en->suggested_actions = list_make1(psprintf("Use the column \"%s\" instead of \"%s\".",
													column, nat_clip(missing)));
	}
	else if (close != NIL)
	{
		List	   *names = NIL;

		foreach(lc, close)
			names = lappend(names, strVal(lfirst(lc)));
		en->suggestion = nat_did_you_mean(names);
		foreach(lc, names)
			en->suggested_actions = lappend(en->suggested_actions,
											psprintf("Use the column \"%s\".", (char *) lfirst(lc)));
	}
	else if (list_length(relids) == 1)
	{
		char	   *columns = nat_readable_column_list(linitial_oid(relids));

		if (columns == NULL)
			return;
		en->suggestion = psprintf("The columns of %s you may read are %s.",
								  nat_relation_display_name(linitial_oid(relids)), columns);
		en->suggested_actions = list_make1(psprintf("Use one of the columns %s.", columns));
	}
}

/*
 * Functions the grammar knows by name, which pg_proc does not list.
 */
static const char *const grammar_functions[] = {
	"coalesce", "nullif", "greatest", "least",
};

/*
 * The function names closest to name that the role may execute and its
 * search path finds (pg_catalog included), best first, or NIL.  NIL too
 * if a function of that very name exists: then the arguments were wrong,
 * and core's hint (casts) is the advice.
 */
static List *
closest_functions(const char *name, TimestampTz stop_at)
{
	char	   *target = asc_tolower(name, strlen(name));
	int			maxd = Max(1, (int) strlen(target) / 3);
	List	   *path = fetch_search_path(true);
	List	   *names = NIL;
	int			best = maxd + 1;
	Relation	procrel;
	TableScanDesc scan;
	HeapTuple	tuple;
	int			seen = 0;
	bool		give_none = false;	/* an exact match, or the deadline */

	procrel = table_open(ProcedureRelationId, AccessShareLock);
	scan = table_beginscan_catalog(procrel, 0, NULL);
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		Form_pg_proc form = (Form_pg_proc) GETSTRUCT(tuple);
		const char *cand = NameStr(form->proname);
		int			d;

		/* the error came late: no search past the call's deadline */
		if (++seen % 256 == 0 && stop_at != 0 && GetCurrentTimestamp() >= stop_at)
		{
			give_none = true;	/* past the deadline */
			break;
		}
		if (!list_member_oid(path, form->pronamespace) || cand[0] == '_')
			continue;
		d = nat_name_distance(target, strlen(target), cand, strlen(cand), Min(best, maxd));
		if (d == 0)
		{
			give_none = true;
			break;
		}
		if (d > maxd || d > best ||
			nat_proc_aclcheck(form->oid, GetUserId(), ACL_EXECUTE) != ACLCHECK_OK)
			continue;
		if (d < best)
		{
			names = NIL;
			best = d;
		}
		if (!list_member(names, makeString((char *) cand)) && list_length(names) < 3)
			names = lappend(names, makeString(pstrdup(cand)));
	}
	table_endscan(scan);
	table_close(procrel, AccessShareLock);
	if (give_none)
		return NIL;
	for (seen = 0; seen < lengthof(grammar_functions); seen++)
	{
		const char *cand = grammar_functions[seen];
		int			d = nat_name_distance(target, strlen(target), cand, strlen(cand), maxd);

		if (d > maxd || d > best)
			continue;
		if (d < best)
			names = NIL;
		best = d;
		names = lappend(names, makeString((char *) cand));
	}
	return names;
}

/*
 * A function the statement called does not exist by that name.
 */
static void
suggest_function(const char *message, TimestampTz stop_at, ErrorEnrichment *en)
{
	char	   *missing = name_in_message(message, "function");
	List	   *close;
	List	   *names = NIL;
	ListCell   *lc;

	if (missing == NULL)
		return;
	close = closest_functions(missing, stop_at);
	if (close == NIL)
		return;
	foreach(lc, close)
	{
		names = lappend(names, strVal(lfirst(lc)));
		en->suggested_actions = lappend(en->suggested_actions,
										psprintf("Call the function \"%s\" instead of \"%s\".",
												 strVal(lfirst(lc)), nat_clip(missing)));
	}
	en->suggestion = nat_did_you_mean(names);
	if (list_length(names) == 1)
		en->did_you_mean = pstrdup(linitial(names));
}

/*
 * A table the statement named does not exist: the closest the role may
 * use (names.c), as steps too.
 */
static void
suggest_table(const char *missing, TimestampTz stop_at, ErrorEnrichment *en)
{
	List	   *close = nat_closest_tables(missing, stop_at);
	List	   *steps = NIL;
	ListCell   *lc;

	if (close == NIL)
		return;
	en->suggestion = nat_did_you_mean(close);
	if (list_length(close) == 1)
		en->did_you_mean = pstrdup(linitial(close));
	foreach(lc, close)
		steps = lappend(steps, psprintf("Use the table %s instead of \"%s\".",
										(char *) lfirst(lc), nat_clip(missing)));
	/* the retries first, then the pattern's general steps */
	en->suggested_actions = list_concat(steps, en->suggested_actions);
}

/*
 * The SQL keyword closest to word ("selct", "form", "wehre"), or NULL: the
 * keywords are PostgreSQL's own list; words shorter than three letters
 * are left alone (too many keywords are one edit from them).
 */
static const char *
closest_keyword(const char *word)
{
	/* the keywords of most statements, preferred at the same distance */
	static const char *const common[] = {
		"select", "from", "where", "group", "order", "by", "having", "limit",
		"offset", "insert", "into", "values", "update", "set", "delete",
		"returning", "join", "inner", "left", "right", "outer", "on", "and",
		"or", "not", "null", "is", "in", "like", "ilike", "between", "exists",
		"distinct", "union", "with", "as", "case", "when", "then", "else", "end",
		"desc", "asc",
	};
	char	   *target = asc_tolower(word, strlen(word));
	int			len = strlen(target);
	int			maxd = Max(1, len / 3);
	const char *best = NULL;
	int			bestd = maxd + 1;
	int			i;

	if (len < 3 || len >= NAMEDATALEN)
		return NULL;
	for (i = 0; i < lengthof(common) + ScanKeywords.num_keywords; i++)
	{
		const char *kw = i < lengthof(common) ? common[i] :
			GetScanKeyword(i - lengthof(common), &ScanKeywords);
		int			d = nat_name_distance(target, len, kw, strlen(kw), bestd - 1);

		if (d == 0)
			return NULL;		/* a keyword in the wrong place */
		if (d < bestd)
		{
			bestd = d;
			best = kw;
		}
	}
	return best;
}

/*
 * Where in source the token the error names ("near") is: at one of the
 * error's positions (1-based characters; a caller's error callbacks may
 * have moved it to the internal one) if it is there, else its first
 * occurrence as a whole word.  NULL if it is not found.
 */
static const char *
find_near(const char *source, const char *near, int pos1, int pos2)
{
	size_t		len = strlen(near);
	int			positions[2] = {pos1, pos2};
	const char *p;
	int			i;

	if (len == 0)
		return NULL;			/* strstr() would find "" forever below */

	for (i = 0; i < 2; i++)
	{
		int			c;

		if (positions[i] <= 0)
			continue;
		p = source;
		for (c = 1; c < positions[i] && *p; c++)
			p += pg_mblen(p);
		if (pg_strncasecmp(p, near, len) == 0)
			return p;
	}
	for (p = source; (p = strstr(p, near)) != NULL; p += len)
		if ((p == source || !isalnum((unsigned char) p[-1])) &&
			!isalnum((unsigned char) p[len]))
			return p;
	return NULL;
}

/*
 * The word of source that ends just before at, or NULL: "wehre" is read
 * as an alias, and the error names the word after it.
 */
static char *
word_before(const char *source, const char *at)
{
	const char *end = at;
	const char *start;

	while (end > source && isspace((unsigned char) end[-1]))
		end--;
	start = end;
	while (start > source && (isalpha((unsigned char) start[-1]) || start[-1] == '_'))
		start--;
	return end > start ? pnstrdup(start, end - start) : NULL;
}

/*
 * Is sql written with another API's placeholders ("?", ":name", "%s")
 * and none of PostgreSQL's $n?  Quoted text is skipped.
 */
static bool
other_placeholders(const char *sql)
{
	bool		other = false;
	const char *p;

	for (p = sql; *p; p++)
	{
		if (*p == '\'' || *p == '"')
		{
			const char *end = strchr(p + 1, *p);

			if (end == NULL)
				break;
			p = end;
		}
		else if (*p == '$' && isdigit((unsigned char) p[1]))
			return false;
		else if (*p == '?' || (*p == '%' && p[1] == 's') ||
				 (*p == ':' && p[1] != ':' && (p == sql || p[-1] != ':') &&
				  (isalpha((unsigned char) p[1]) || p[1] == '_')))
			other = true;
	}
	return other;
}

/*
 * A syntax error (42601): another API's placeholders, or a misspelt
 * keyword at the place the error names.
 */
static void
suggest_syntax(const char *message, const char *source, int pos1, int pos2,
			   ErrorEnrichment *en)
{
	static const char near[] = "syntax error at or near \"";
	char	   *word;
	const char *keyword;

	if (source && other_placeholders(source))
	{
		en->suggestion = pstrdup("Write the statement's values as $1, $2, ... and pass them in params: PostgreSQL does not take ?, :name or %s placeholders.");
		en->suggested_actions = list_make1(pstrdup("Replace each placeholder with $1, $2, ... in the order of params."));
		return;
	}
	if (message == NULL || strncmp(message, near, sizeof(near) - 1) != 0)
		return;
	word = pstrdup(message + sizeof(near) - 1);
	if (strchr(word, '"') == NULL)
		return;
	*strchr(word, '"') = '\0';
	keyword = closest_keyword(word);
	if (keyword == NULL && source)
	{
		const char *at = find_near(source, word, pos1, pos2);

		if (at && (word = word_before(source, at)) != NULL)
			keyword = closest_keyword(word);
	}
	if (keyword == NULL)
		return;
	en->suggestion = psprintf("Did you mean %s?", asc_toupper(keyword, strlen(keyword)));
	en->did_you_mean = asc_toupper(keyword, strlen(keyword));
	en->suggested_actions = lcons(psprintf("Write \"%s\" instead of \"%s\".",
										   en->did_you_mean, nat_clip(word)),
								  en->suggested_actions);
}

/*
 * Fill the suggestion, did_you_mean and steps of en for an undefined
 * column, function or table of the call's statement, when nothing better
 * (a shareable hint of core's) was found.  missing_table is the table name
 * the message patterns found, if any.
 */
void
nat_suggest_statement_name(ErrorData *edata, ToolCall *call,
						   const char *missing_table, ErrorEnrichment *en)
{
	const char *sql = call->query_source ? call->query_source : call->query;

	/* the error came late: it is answered without a search */
	if (call->deadline == 0 || GetCurrentTimestamp() >= call->deadline)
		return;
	switch (edata->sqlerrcode)
	{
		case ERRCODE_UNDEFINED_COLUMN:
			suggest_column(edata->message, sql, call->table, en);
			break;
		case ERRCODE_UNDEFINED_FUNCTION:
			suggest_function(edata->message, call->deadline, en);
			break;
		case ERRCODE_UNDEFINED_TABLE:
			if (missing_table)
				suggest_table(missing_table, call->deadline, en);
			break;
		case ERRCODE_SYNTAX_ERROR:
			suggest_syntax(edata->message, call->query_source,
						   edata->cursorpos, edata->internalpos, en);
			break;
		default:
			break;
	}
}
