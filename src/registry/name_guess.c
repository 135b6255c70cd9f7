/*-------------------------------------------------------------------------
 *
 * name_guess.c
 *		  The tool or argument an agent meant by a name that is not one.
 *
 * Agents rarely misspell a tool letter by letter; they name it as another
 * API would ("select", "get_rows", "execute_query", "SelectQuery",
 * "mcp__db__select_query") and name arguments the same way ("filters",
 * "sort_by", "tableName").  Edit distance alone maps some of these to the
 * wrong tool, and the worst wrong tool is one that writes: "select_data" is
 * two edits further from select_query than from delete_data.  So a name is
 * read in three steps:
 *
 *	 1. normalized (case, camelCase, separators, a client's namespace
 *		prefix) and compared whole;
 *	 2. compared with a strict edit distance (a typo of a real name, such as
 *		a custom tool's);
 *	 3. read word by word: a verb or object that names a tool ("delete",
 *		"explain", "tables"), or a synonym that names an argument
 *		("filters" is where);
 *
 * and finally compared with the looser distance nat_closest_word() uses.
 * A tool name with a reading word ("select", "get", "query", ...) and no
 * writing word never gets a tool that may write as its answer, at any step,
 * and one with a writing word and no reading word never a tool that only
 * reads.
 * Only tools available to the caller and arguments of the tool are named.
 *
 * IDENTIFICATION
 *		  src/core/name_guess.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "registry/registry.h"
#include "utils/varlena.h"

/*
 * The edit distance between two names, or more than max when it is past
 * max: Levenshtein's, except that two neighbouring letters swapped
 * ("stauts", "lenght"), the commonest typo, count as one edit.
 */
int
nat_name_distance(const char *a, int alen, const char *b, int blen, int max)
{
	if (alen == blen && alen >= 2)
	{
		int			first = -1;
		int			ndiff = 0;
		int			i;

		for (i = 0; i < alen && ndiff <= 2; i++)
			if (a[i] != b[i] && ndiff++ == 0)
				first = i;
		if (ndiff == 2 && first + 1 < alen &&
			a[first] == b[first + 1] && a[first + 1] == b[first])
			return 1;
	}
	return varstr_levenshtein_less_equal(a, alen, b, blen, 1, 1, 1, max, true);
}

/*
 * The candidate closest to word, if close enough to be a likely misspelling
 * (at most half of its characters differ), else NULL.
 */
const char *
nat_closest_word(const char *word, const char *const *candidates, int ncandidates)
{
	const char *best = NULL;
	int			bestd;
	int			i;
	int			wlen = strlen(word);

	bestd = Max(1, wlen / 2) + 1;
	for (i = 0; i < ncandidates; i++)
	{
		int			d;

		if (wlen > NAMEDATALEN * 4)
			break;
		d = nat_name_distance(word, wlen, candidates[i],
							  strlen(candidates[i]), bestd - 1);
		if (d < bestd)
		{
			bestd = d;
			best = candidates[i];
		}
	}
	return best;
}

/* a word of a name, and the built-in tool (or operator) it stands for */
typedef struct WordMeaning
{
	const char *word;
	const char *tool;
} WordMeaning;

/*
 * Words naming a tool, strongest first: objects and specific verbs, then
 * writing verbs, then SQL words, then reading verbs.  The first word of a
 * name found in the earliest group decides.
 */
static const WordMeaning specific_words[] = {
	{"explain", "explain_query"}, {"plan", "explain_query"},
	{"describe", "describe_table"}, {"columns", "describe_table"},
	{"schema", "describe_table"}, {"structure", "describe_table"},
	{"inspect", "describe_table"}, {"desc", "describe_table"},
	{"tables", "list_tables"}, {"relations", "list_tables"},
	{"schemas", "list_tables"}, {"catalog", "list_tables"},
};
static const WordMeaning write_words[] = {
	{"insert", "insert_data"}, {"create", "insert_data"}, {"add", "insert_data"},
	{"append", "insert_data"}, {"put", "insert_data"}, {"upsert", "insert_data"},
	{"update", "update_data"}, {"modify", "update_data"}, {"edit", "update_data"},
	{"change", "update_data"}, {"patch", "update_data"}, {"set", "update_data"},
	{"delete", "delete_data"}, {"remove", "delete_data"}, {"destroy", "delete_data"},
	{"drop", "delete_data"}, {"truncate", "delete_data"}, {"purge", "delete_data"},
	{"erase", "delete_data"},
};
static const WordMeaning sql_words[] = {
	{"sql", "execute_sql"}, {"execute", "execute_sql"}, {"exec", "execute_sql"},
	{"run", "execute_sql"}, {"statement", "execute_sql"}, {"raw", "execute_sql"},
};
static const WordMeaning read_words[] = {
	{"select", "select_query"}, {"query", "select_query"}, {"read", "select_query"},
	{"get", "select_query"}, {"fetch", "select_query"}, {"find", "select_query"},
	{"search", "select_query"}, {"lookup", "select_query"}, {"show", "select_query"},
	{"view", "select_query"}, {"count", "select_query"}, {"retrieve", "select_query"},
	{"list", "select_query"}, {"browse", "select_query"}, {"scan", "select_query"},
	{"rows", "select_query"}, {"records", "select_query"}, {"data", "select_query"},
};

/* the reading verbs among read_words (not the nouns "rows", "data") */
#define READ_VERBS	15

/*
 * Words that ask to look at a statement without running it, or to only
 * read: with one of them, a name reads whatever else it says
 * ("explain_delete", "preview_update", "dry_run_delete", "readonly_sql").
 */
static const char *const look_only_words[] = {
	"explain", "describe", "plan", "preview", "dry", "simulate", "readonly",
};

/*
 * An argument's other names, as agents and other APIs write them.
 */
typedef struct ArgumentSynonyms
{
	const char *param;
	const char *const synonyms[14];
} ArgumentSynonyms;

static const ArgumentSynonyms argument_synonyms[] = {
	{"where", {"filter", "filters", "condition", "conditions", "criteria",
	"predicate", "where_clause", "match", "query_filter", "wheres", NULL}},
	{"columns", {"fields", "field", "select", "cols", "attributes",
	"projection", "column", "column_names", "properties", NULL}},
	{"order_by", {"sort", "sort_by", "order", "orderby", "sorting",
	"sort_order", "ordering", "order_column", NULL}},
	{"limit", {"max", "max_rows", "top", "count", "n", "page_size",
	"size", "take", "first", "row_limit", "max_results", "limit_rows", NULL}},
	{"offset", {"skip", "start", "page_offset", "from_row", NULL}},
	{"table", {"table_name", "relation", "from", "collection", "entity",
	"resource", "tbl", "model", "object", NULL}},
	{"rows", {"values", "data", "records", "row", "items", "record",
	"objects", "documents", "entries", NULL}},
	{"set", {"values", "changes", "updates", "data", "fields", "update",
	"new_values", "assignments", NULL}},
	{"sql", {"query", "statement", "sql_query", "command", "stmt", "q",
	"text", "query_text", "code", NULL}},
	{"params", {"parameters", "args", "arguments", "bindings", "values",
	"bind", "binds", "param", NULL}},
	{"returning", {"return", "return_columns", "returns", NULL}},
	{"schema", {"namespace", "schema_name", "db_schema", NULL}},
	{"pattern", {"like", "name_pattern", "search", "name", "table_pattern", NULL}},
	{"dry_run", {"dryrun", "preview", "simulate", "test", NULL}},
	{"timeout_ms", {"timeout", "time_limit", "statement_timeout", NULL}},
	{"format", {"output", "output_format", "response_format", NULL}},
};

/*
 * name in lower snake case: "SelectQuery", "select-query" and "select query"
 * become "select_query"; what a client puts before the name
 * ("mcp__db__select_query", "functions.select_query", "db:select_query")
 * is dropped.
 */
static char *
normalize_name(const char *name)
{
	const char *start = name;
	const char *p;
	StringInfoData buf;

	for (p = name; *p; p++)
	{
		if (p[0] == '_' && p[1] == '_')
			start = p + 2;
		else if (*p == '.' || *p == ':' || *p == '/')
			start = p + 1;
	}
	initStringInfo(&buf);
	for (p = start; *p && buf.len < NAMEDATALEN * 2; p++)
	{
		char		c = *p;

		if (c >= 'A' && c <= 'Z')
		{
			if (buf.len > 0 && buf.data[buf.len - 1] != '_' &&
				p > start && p[-1] >= 'a' && p[-1] <= 'z')
				appendStringInfoChar(&buf, '_');
			appendStringInfoChar(&buf, c - 'A' + 'a');
		}
		else if (c == '-' || c == ' ')
			appendStringInfoChar(&buf, '_');
		else
			appendStringInfoChar(&buf, c);
	}
	return buf.data;
}

/* the words of a normalized name */
static List *
name_words(const char *normalized)
{
	List	   *words = NIL;
	char	   *copy = pstrdup(normalized);
	char	   *save;
	char	   *word;

	for (word = strtok_r(copy, "_", &save); word; word = strtok_r(NULL, "_", &save))
		words = lappend(words, word);
	return words;
}

static bool
word_member(List *words, const char *word)
{
	ListCell   *lc;

	foreach(lc, words)
	{
		if (strcmp(lfirst(lc), word) == 0)
			return true;
	}
	return false;
}

static bool
word_in(const char *word, const WordMeaning *table, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if (strcmp(word, table[i].word) == 0)
			return true;
	return false;
}

/*
 * The candidate closest to word within maxd edits, or NULL.
 */
static const char *
closest_within(const char *word, const char *const *candidates, int n, int maxd)
{
	const char *best = NULL;
	int			bestd = maxd + 1;
	int			wlen = strlen(word);
	int			i;

	if (wlen > NAMEDATALEN * 4)
		return NULL;
	for (i = 0; i < n; i++)
	{
		int			d = nat_name_distance(word, wlen, candidates[i],
										  strlen(candidates[i]), bestd - 1);

		if (d < bestd)
		{
			bestd = d;
			best = candidates[i];
		}
	}
	return best;
}

/* a typo of a real name: at most one edit in four characters */
static int
strict_distance(const char *word)
{
	return Max(1, (int) strlen(word) / 4);
}

/*
 * The first tool, by the group order above, that a word of the name
 * stands for and that is among candidates.
 */
static const char *
tool_of_words(List *words, const char *const *candidates, int n, bool writes)
{
	static const struct
	{
		const WordMeaning *table;
		int			n;
	}			groups[] = {
		{specific_words, lengthof(specific_words)},
		{write_words, lengthof(write_words)},
		{sql_words, lengthof(sql_words)},
		{read_words, lengthof(read_words)},
	};
	int			g;

	for (g = 0; g < lengthof(groups); g++)
	{
		ListCell   *lc;

		/* a name that writes is not answered with a reading tool */
		if (writes && groups[g].table == read_words)
			break;

		foreach(lc, words)
		{
			int			i;

			for (i = 0; i < groups[g].n; i++)
			{
				int			c;

				if (strcmp(lfirst(lc), groups[g].table[i].word) != 0)
					continue;
				for (c = 0; c < n; c++)
					if (strcmp(candidates[c], groups[g].table[i].tool) == 0)
						return candidates[c];
			}
		}
	}
	return NULL;
}

/*
 * The available tool the caller probably meant by name, or NULL (see the
 * file comment).
 */
const char *
nat_tool_meant(const char *name)
{
	char	   *normalized = normalize_name(name);
	List	   *words = name_words(normalized);
	List	   *tools = nat_available_tools();
	const char **candidates = palloc(sizeof(char *) * (list_length(tools) + 1));
	bool		reads = false;
	bool		writes = false;
	int			n = 0;
	const char *meant;
	ListCell   *lc;

	foreach(lc, words)
	{
		if (word_in(lfirst(lc), read_words, READ_VERBS))
			reads = true;
		if (word_in(lfirst(lc), write_words, lengthof(write_words)))
			writes = true;
	}
	foreach(lc, words)
	{
		int			i;

		for (i = 0; i < lengthof(look_only_words); i++)
		{
			if (strcmp(lfirst(lc), look_only_words[i]) == 0)
			{
				reads = true;
				writes = false;
			}
		}
	}

	/*
	 * A name that only reads is offered only tools that only read; one that
	 * only writes, only tools that may write.
	 */
	foreach(lc, tools)
	{
		const ToolDef *tool = lfirst(lc);

		if (reads && !writes && !tool->read_only)
			continue;
		if (writes && !reads && tool->read_only)
			continue;
		candidates[n++] = tool->name;
	}
	meant = closest_within(normalized, candidates, n, 0);
	if (meant == NULL)
		meant = closest_within(normalized, candidates, n, strict_distance(normalized));
	if (meant == NULL)
		meant = tool_of_words(words, candidates, n, writes);
	if (meant == NULL)
		meant = nat_closest_word(normalized, candidates, n);
	return meant;
}

/*
 * The one candidate whose words include all of name's, or all of whose
 * words name has ("city" and "city_name", "customer_id" and "id" ... when
 * only one argument ends in "id"); NULL if none or several do.
 */
static const char *
sharing_words(const char *name, const char *const *candidates, int n)
{
	List	   *words = name_words(name);
	const char *found = NULL;
	int			i;

	for (i = 0; i < n; i++)
	{
		List	   *cwords = name_words(candidates[i]);
		bool		name_in_cand = true;
		bool		cand_in_name = true;
		ListCell   *lc;

		foreach(lc, words)
		{
			if (!word_member(cwords, lfirst(lc)))
				name_in_cand = false;
		}
		foreach(lc, cwords)
		{
			if (!word_member(words, lfirst(lc)))
				cand_in_name = false;
		}
		if (!name_in_cand && !cand_in_name)
			continue;
		if (found)
			return NULL;
		found = candidates[i];
	}
	return found;
}

/*
 * The argument of tool the caller probably meant by key, or NULL (see the
 * file comment).
 */
const char *
nat_argument_meant(const ToolDef *tool, const char *key)
{
	char	   *normalized = normalize_name(key);
	const char **names = palloc(sizeof(char *) * (tool->nparams + 1));
	const char *meant;
	int			i;

	for (i = 0; i < tool->nparams; i++)
		names[i] = tool->params[i].name;
	meant = closest_within(normalized, names, tool->nparams, 0);
	if (meant == NULL)
		meant = closest_within(normalized, names, tool->nparams,
							   strict_distance(normalized));
	for (i = 0; meant == NULL && i < lengthof(argument_synonyms); i++)
	{
		const ArgumentSynonyms *syn = &argument_synonyms[i];
		int			s;

		if (!nat_tool_has_param(tool, syn->param))
			continue;
		for (s = 0; syn->synonyms[s] != NULL; s++)
			if (strcmp(normalized, syn->synonyms[s]) == 0)
				meant = syn->param;
	}
	if (meant == NULL)
		meant = sharing_words(normalized, names, tool->nparams);
	if (meant == NULL)
		meant = nat_closest_word(normalized, names, tool->nparams);
	/* the name as the agent wrote it is never its own correction */
	if (meant != NULL && strcmp(meant, key) == 0)
		return NULL;
	return meant;
}

/*
 * A filter operator's other names: SQL's symbols, MongoDB's and ORMs'
 * spellings.
 */
static const WordMeaning operator_synonyms[] = {
	{"=", "eq"}, {"==", "eq"}, {"equals", "eq"}, {"equal", "eq"}, {"is", "eq"},
	{"!=", "neq"}, {"<>", "neq"}, {"ne", "neq"}, {"not_equal", "neq"},
	{"not_equals", "neq"}, {"not", "neq"},
	{">", "gt"}, {"greater_than", "gt"}, {"greater", "gt"}, {"after", "gt"},
	{">=", "gte"}, {"ge", "gte"}, {"greater_than_or_equal", "gte"},
	{"greater_or_equal", "gte"}, {"min", "gte"}, {"from", "gte"}, {"since", "gte"},
	{"<", "lt"}, {"less_than", "lt"}, {"less", "lt"}, {"before", "lt"},
	{"<=", "lte"}, {"le", "lte"}, {"less_than_or_equal", "lte"},
	{"less_or_equal", "lte"}, {"max", "lte"}, {"to", "lte"}, {"until", "lte"},
	{"one_of", "in"}, {"any", "in"}, {"any_of", "in"}, {"within", "in"},
	{"nin", "not_in"}, {"none_of", "not_in"}, {"notin", "not_in"},
	{"matches", "like"}, {"starts_with", "like"}, {"startswith", "like"},
	{"ends_with", "like"}, {"endswith", "like"}, {"pattern", "like"},
	{"icontains", "ilike"}, {"iequals", "ilike"}, {"case_insensitive", "ilike"},
	{"null", "is_null"}, {"isnull", "is_null"},
	{"range", "between"}, {"has", "contains"}, {"includes", "contains"},
};

/* how a name says "not" before an operator: "not_like", "nlike", "notnull" */
static const char *const negation_prefixes[] = {"is_not_", "not_", "not", "n"};

/*
 * The operator that a negated name ("not_like", "nbetween", "not_null",
 * "$exists") negates, when it is one; NULL for any other name.
 */
static const char *
negated_operator(const char *normalized, const char *const *operators, int n)
{
	int			p;

	if (strcmp(normalized, "exists") == 0)
		return "is_null";		/* MongoDB's $exists: true is "not null" */
	for (p = 0; p < lengthof(negation_prefixes); p++)
	{
		const char *prefix = negation_prefixes[p];
		const char *rest = normalized + strlen(prefix);
		int			i;

		if (strncmp(normalized, prefix, strlen(prefix)) != 0 || *rest == '\0')
			continue;
		if (closest_within(rest, operators, n, 0))
			return closest_within(rest, operators, n, 0);
		for (i = 0; i < lengthof(operator_synonyms); i++)
			if (strcmp(rest, operator_synonyms[i].word) == 0)
				return operator_synonyms[i].tool;
	}
	return NULL;
}

/*
 * The filter operator (of operators, n of them) the caller probably meant
 * by op, or NULL: a synonym ("greater_than", ">=", "$gte", "nin"), the
 * same name in another case or style, or the closest by edits.  A negated
 * name is never answered with the operator it negates (that filter selects
 * the other rows): "not_in" and "neq" stand for "nin" and "not_eq"; for
 * the others, *negates is set to the operator negated and NULL returned,
 * and the caller says how to write the negation.
 */
const char *
nat_filter_operator_meant(const char *op, const char *const *operators, int n,
						  const char **negates)
{
	const char *name = op[0] == '$' ? op + 1 : op;	/* MongoDB's "$gt" */
	char	   *normalized = normalize_name(name);
	const char *meant;
	const char *positive;
	int			i;

	*negates = NULL;
	meant = closest_within(normalized, operators, n, 0);
	if (meant == NULL && (positive = negated_operator(normalized, operators, n)) != NULL)
	{
		if (strcmp(positive, "in") == 0)
			return "not_in";
		if (strcmp(positive, "eq") == 0)
			return "neq";
		if (strcmp(positive, "neq") == 0)
			return "eq";
		*negates = positive;
		return NULL;
	}
	for (i = 0; meant == NULL && i < lengthof(operator_synonyms); i++)
		if (strcmp(normalized, operator_synonyms[i].word) == 0)
			meant = operator_synonyms[i].tool;
	if (meant == NULL)
		meant = nat_closest_word(normalized, operators, n);
	if (meant != NULL && strcmp(meant, op) == 0)
		return NULL;
	return meant;
}
