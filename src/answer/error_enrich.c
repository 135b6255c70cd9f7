/*-------------------------------------------------------------------------
 *
 * error_enrich.c
 *		  The seed fields of every error answer (category, error_code,
 *		  affected_resources, dependencies, suggested_actions, suggestion),
 *		  in one place for the tools (response.c) and ai_error_info().
 *
 * nat_enrich_error() merges, in this order:
 *
 *	 1. what a PostgreSQL error names in its ErrorData fields (schema,
 *		table, column, constraint, data type; the dependent objects a
 *		2BP01's DETAIL lists) or what the extension's own error carries;
 *	 2. what the catalog and the statement that failed say about a write
 *		failure (a constraint violation's columns, key, expression and
 *		referencing table: constraint_errors.c; a value past its column's
 *		limit: column_limits.c; the privilege missing:
 *		privilege_errors.c), and core's "Perhaps you meant" hint when it
 *		may be shown;
 *	 3. what the message patterns of error_patterns.c find in the text,
 *		under the same code rules as ai_error_info() (a specific SQLSTATE
 *		wins over a pattern that disagrees; a class-only or unknown one
 *		lets the pattern decide);
 *	 4. for a live call, the closest table, column or function names the
 *		role may use when one does not exist (statement_names.c);
 *	 5. for a live call, when PostgreSQL refused a value (class 22), valid
 *		examples of its type and the value the agent probably meant
 *		(value_advice.c), in place of the pattern's advice and of a hint
 *		to change the datestyle setting.
 *
 * Names are deduplicated: a name a pattern found is left out when an
 * earlier one is the same, or the same qualified ("s.t" covers "t").
 * Patterns capture names, never values, from the masked text; the names
 * are clipped as values are.  ai_error_info() has no ErrorData and no
 * live call, so for the same message and code it gets the fields of
 * layer 3 alone, which are also what a tool answer carries for an error
 * whose ErrorData names nothing (most of core's messages).
 *
 * IDENTIFICATION
 *		  src/answer/error_enrich.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "answer/answer.h"
#include "utils/elog.h"
#include "utils/timestamp.h"

/*
 * Does list already name s, as it is or qualified ("s.t" names "t")?
 */
static bool
names_already(List *list, const char *s)
{
	size_t		len = strlen(s);
	ListCell   *lc;

	foreach(lc, list)
	{
		const char *have = lfirst(lc);
		size_t		hlen = strlen(have);

		if (strcmp(have, s) == 0)
			return true;
		if (hlen > len && have[hlen - len - 1] == '.' &&
			strcmp(have + hlen - len, s) == 0)
			return true;
	}
	return false;
}

/*
 * Append the names of more to *list, clipped, leaving out those it has.
 * A bare name of the call's own table (qualified, as answers show it) is
 * added in that qualified form.
 */
static void
merge_names(List **list, List *more, const char *table)
{
	ListCell   *lc;

	foreach(lc, more)
	{
		char	   *name = nat_clip(lfirst(lc));

		if (name[0] == '\0' || names_already(*list, name))
			continue;
		if (table && names_already(list_make1((char *) table), name))
		{
			if (!names_already(*list, table))
				*list = lappend(*list, pstrdup(table));
			continue;
		}
		*list = lappend(*list, name);
	}
}

/*
 * The names a PostgreSQL error gives in its fields (layer 1).
 */
static void
names_of_edata(ErrorData *edata, ToolCall *call, List **affected)
{
	if (edata->table_name)
		*affected = lappend(*affected,
							edata->schema_name ?
							psprintf("%s.%s", edata->schema_name, edata->table_name) :
							pstrdup(edata->table_name));
	else if (call && call->table &&
			 (edata->sqlerrcode == ERRCODE_INSUFFICIENT_PRIVILEGE ||
			  edata->sqlerrcode == ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST))
		*affected = lappend(*affected, pstrdup(call->table));	/* these name none */
	if (edata->column_name)
		*affected = lappend(*affected, pstrdup(edata->column_name));
	if (edata->constraint_name)
		*affected = lappend(*affected, pstrdup(edata->constraint_name));
	if (edata->datatype_name)
		*affected = lappend(*affected, pstrdup(edata->datatype_name));
}

/* a DETAIL line longer than this is not one of PostgreSQL's object lines */
#define DETAIL_LINE_MAX		1024
/* at most this many dependencies are taken from a DETAIL */
#define DETAIL_DEPENDENCIES_MAX 20

/*
 * The dependent objects of a 2BP01 (DROP without CASCADE), as its DETAIL
 * describes them, one line each: "constraint c on table t depends on
 * table p", "view v depends on table p" give "constraint c on table t"
 * and "view v".  PostgreSQL wrote the DETAIL for the role's own statement
 * and the answer shows it anyway; these are bounded in count (the DETAIL
 * keeps the rest) and clipped by merge_names().  Other lines ("and 3
 * other objects (see server log for list)", DROP ROLE's "owner of ...", a
 * DETAIL in another language) give nothing.
 */
static List *
dependencies_of_detail(const char *detail)
{
	static const char sep[] = " depends on ";
	List	   *names = NIL;
	const char *line = detail;

	while (line != NULL && *line != '\0' &&
		   list_length(names) < DETAIL_DEPENDENCIES_MAX)
	{
		const char *end = strchr(line, '\n');
		size_t		len = end ? (size_t) (end - line) : strlen(line);

		if (len <= DETAIL_LINE_MAX)
		{
			char	   *object = pnstrdup(line, len);
			char	   *at = strstr(object, sep);

			if (at != NULL && at > object && at[sizeof(sep) - 1] != '\0')
			{
				*at = '\0';
				names = lappend(names, object);
			}
		}
		line = end ? end + 1 : NULL;
	}
	return names;
}

/*
 * What the catalog and the statement that failed say of a write failure
 * (layer 2): a constraint violation, a value past its column's limit, a
 * missing privilege.
 */
static void
explain_write_error(ErrorData *edata, ToolCall *call, ErrorEnrichment *en)
{
	switch (edata->sqlerrcode)
	{
		case ERRCODE_STRING_DATA_RIGHT_TRUNCATION:
		case ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE:
			nat_explain_column_limit_error(edata, call, en);
			return;
		case ERRCODE_INSUFFICIENT_PRIVILEGE:
			nat_explain_privilege_error(edata, call, en);
			return;
	}
	if (ERRCODE_TO_CATEGORY(edata->sqlerrcode) == ERRCODE_INTEGRITY_CONSTRAINT_VIOLATION)
		nat_explain_constraint_error(edata, call, en);
}

/*
 * Fill *en from what is known about an error (see the file comment).
 * The extension's own errors (facts->err) keep their category and fields;
 * otherwise facts->code and the text decide the category.
 */
void
nat_enrich_error(const ErrorFacts *facts, ErrorEnrichment *en)
{
	ErrorData  *edata = facts->edata;
	ToolError  *err = facts->err;
	ToolCall   *call = facts->call;
	ErrorTextInfo *info = &en->text;
	bool		core_hint = false;

	memset(en, 0, sizeof(ErrorEnrichment));
	nat_analyze_error_text(facts->message, facts->unread, facts->code,
						   err ? &err->kind : NULL, info);

	/* 1 and 2: the error's own fields, then the catalog */
	if (err)
	{
		en->suggestion = err->suggestion;
		en->did_you_mean = err->did_you_mean;
		en->suggested_actions = list_copy(err->suggested_actions);
		en->affected_resources = list_copy(err->affected_resources);
		en->dependencies = list_copy(err->dependencies);
	}
	else if (edata)
	{
		names_of_edata(edata, call, &en->affected_resources);
		if (edata->sqlerrcode == ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST &&
			edata->detail != NULL)
			merge_names(&en->dependencies,
						dependencies_of_detail(edata->detail), NULL);
		if (call)
			explain_write_error(edata, call, en);
	}
	/* core's "Perhaps you meant ..." hint is the best suggestion */
	if (en->suggestion == NULL && facts->hint &&
		NAT_IS_DID_YOU_MEAN(facts->hint))
	{
		en->suggestion = pstrdup(facts->hint);
		core_hint = true;
	}

	/* 3: the message patterns */
	merge_names(&en->affected_resources, info->affected_resources,
				call ? call->table : NULL);
	merge_names(&en->dependencies, info->dependencies, NULL);
	/* the pattern's steps go with its advice, not with advice from 1 or 2 */
	if (en->suggested_actions == NIL && en->suggestion == NULL)
		en->suggested_actions = info->suggested_actions;

	/*
	 * 4: a live call knows which tables, columns and functions the role may
	 * use instead; for a column, they replace core's hint (which may be
	 * shown, but names no column the role may not read and gives no step).
	 */
	if (call && edata &&
		(en->suggestion == NULL ||
		 (edata->sqlerrcode == ERRCODE_UNDEFINED_COLUMN && core_hint)))
		nat_suggest_statement_name(edata, call,
								   info->affected_resources ?
								   linitial(info->affected_resources) : NULL, en);

	/* 5: a live call knows the values it gave */
	if (call && edata && !err && en->suggestion == NULL)
	{
		List	   *actions = NIL;

		if (nat_advise_value_error(call, edata, &en->suggestion,
								   &en->did_you_mean, &actions, &en->hint))
			en->suggested_actions = actions;
	}
}
