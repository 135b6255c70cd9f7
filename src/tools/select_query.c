/*-------------------------------------------------------------------------
 *
 * select_query.c
 *		  The select_query tool.
 *
 * Generates
 *	 SELECT <columns> FROM "schema"."table" [WHERE <filter>]
 *	   [ORDER BY <columns>] LIMIT $k [OFFSET $m]
 * where every name comes from the catalog, every value is a bound
 * parameter, and $k is the row cap plus one, so that truncation is known
 * without reading further.  The call runs read-only (execute.c), so a view
 * or function that tries to write fails with read_only_violation.
 *
 * IDENTIFICATION
 *		  src/tools/select_query.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "plan/continuation.h"
#include "miscadmin.h"
#include "tools/tools.h"
#include "tools/params.h"
#include "plan/tool_plan.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

static void select_query(ToolCall *call, const void *targs, ToolPlan *plan);

/* the decoded arguments */
typedef struct SelectArgs
{
	CommonArgs	common;			/* table, where, limit, offset, timeout_ms */
	JsonbValue *columns;
	JsonbValue *order_by;
} SelectArgs;


static const ToolParam select_params[] = {
	NAT_PARAM_TABLE("or view to read"),
	{
		.name = "columns",
		.decode = NAT_DECODE_JSON,.offset = offsetof(SelectArgs, columns),
		.types = NAT_JSON_ARRAY | NAT_JSON_STRING,
		.description = "Columns to return, as a list or a comma-separated string; all columns when omitted.",
		.items = NAT_ITEMS_COLUMN,
		.max_length = NAT_MAX_COLUMN_LIST,
		.max_items = NAT_MAX_COLUMNS,
		.examples_json = "[[\"id\", \"name\"], \"id, name\"]",
		.validate = nat_validate_columns,
	},
	NAT_PARAM_WHERE("to return"),
	{
		.name = "order_by",
		.decode = NAT_DECODE_JSON,.offset = offsetof(SelectArgs, order_by),
		.types = NAT_JSON_ARRAY | NAT_JSON_STRING,
		.description = "Sort order: a list of {column, direction, nulls}, or a string like \"created_at desc, id\".",
		.items = NAT_ITEMS_SORT_KEY,
		.examples_json = "[[{\"column\": \"created_at\", \"direction\": \"desc\"}], \"created_at desc, id\"]",
		.max_length = NAT_MAX_SORT_LIST,
		.max_items = NAT_MAX_COLUMNS,
		.validate = nat_validate_order_by,
	},
	NAT_PARAM_LIMIT("rows"),
	NAT_PARAM_OFFSET("Rows (use with order_by)"),
	NAT_PARAM_FORMAT("the rows"),
	NAT_PARAM_NEXT("The rows after the last one returned: exact when the order is on a unique key (the primary key is added to order_by as a tie-breaker), else by offset."),
	NAT_PARAM_TIMEOUT_MS,
};

const ToolDef nat_tool_select_query = {
	.name = "select_query",
	.title = "Query rows from a table",
	.description = "Read rows from one table or view, with optional column list, filter, sort order and paging. "
	"Use it whenever you need data from a known table; call it again with offset to page. "
	"Runs read-only with your database role's privileges; values in the filter are bound parameters. "
	"The answer has data (rows), columns (names and types), rowCount, and truncated/warning when more rows matched than were returned. "
	"Example: {\"table\": \"orders\", \"columns\": [\"id\", \"total\"], \"where\": {\"status\": \"open\", \"total\": {\"gt\": 100}}, \"order_by\": \"total desc\", \"limit\": 20}",
	.operation = NAT_OP_SELECT,
	NAT_TOOL_PARAMS(select_params, SelectArgs),
	NAT_TOOL_READS,
	.plan = select_query,
};

/*
 * One sort key, column [ASC|DESC] [NULLS FIRST|LAST], added to keys.
 */
static void
add_sort_key(List **keys, Oid relid, const char *column,
			 const char *direction, const char *nulls, const char *path)
{
	NatSortKey *key = palloc0(sizeof(NatSortKey));

	key->attnum = nat_resolve_column(relid, column, path);
	key->desc = direction && pg_strcasecmp(direction, "desc") == 0;
	key->nulls_given = nulls != NULL;
	key->nulls_first = nulls ? pg_strcasecmp(nulls, "first") == 0 : key->desc;
	*keys = lappend(*keys, key);
}

/*
 * Parse "created_at desc nulls last" into a sort key.
 */
static void
parse_sort_string(List **keys, Oid relid, const char *str, const char *path)
{
	const char *p = str;
	bool		quoted;
	char	   *column = nat_read_identifier(&p, &quoted);
	char	   *words[3] = {NULL, NULL, NULL};
	int			nwords = 0;
	const char *direction = NULL;
	const char *nulls = NULL;
	int			i = 0;

	for (;;)
	{
		char	   *word;
		bool		q;

		while (isspace((unsigned char) *p))
			p++;
		if (*p == '\0')
			break;
		word = nat_read_identifier(&p, &q);
		if (word == NULL || nwords == 3)
		{
			nwords = -1;
			break;
		}
		words[nwords++] = word;
	}

	if (i < nwords &&
		(pg_strcasecmp(words[i], "asc") == 0 || pg_strcasecmp(words[i], "desc") == 0))
		direction = words[i++];
	if (i + 1 < nwords && pg_strcasecmp(words[i], "nulls") == 0 &&
		(pg_strcasecmp(words[i + 1], "first") == 0 || pg_strcasecmp(words[i + 1], "last") == 0))
	{
		nulls = words[i + 1];
		i += 2;
	}
	if (column == NULL || nwords < 0 || i != nwords)
		nat_invalid_param(path, "Write sort keys like \"created_at desc, id\" or \"name asc nulls last\".",
						  "invalid sort key \"%s\"", nat_clip(str));
	add_sort_key(keys, relid, column, direction, nulls, path);
}

/*
 * The sort keys of order_by (of NatSortKey), NIL if it was not given.
 */
static List *
parse_order_by(JsonbValue *order_by, Oid relid)
{
	List	   *keys = NIL;
	int			n = 0;
	int			i;

	if (order_by == NULL)
		return NIL;
	if (order_by->type == jbvString)
	{
		ListCell   *lc;

		foreach(lc, nat_split_top_level(nat_json_value_text(order_by), ','))
		{
			if (n == NAT_MAX_COLUMNS)
				nat_invalid_param("$.order_by",
								  psprintf("Sort by at most %d keys.", NAT_MAX_COLUMNS),
								  "argument \"order_by\" has more than the limit of %d sort keys",
								  NAT_MAX_COLUMNS);
			n++;
			parse_sort_string(&keys, relid, lfirst(lc), "$.order_by");
		}
		return keys;
	}
	for (i = 0; i < JsonContainerSize(order_by->val.binary.data); i++)
	{
		JsonbValue *item = getIthJsonbValueFromContainer(order_by->val.binary.data, i);
		char	   *path = psprintf("$.order_by[%d]", i);

		if (item->type == jbvString)
			parse_sort_string(&keys, relid, nat_json_value_text(item), path);
		else
		{
			JsonbValue *column = NAT_JSONB_MEMBER(item->val.binary.data, "column");
			JsonbValue *direction = NAT_JSONB_MEMBER(item->val.binary.data, "direction");
			JsonbValue *nulls = NAT_JSONB_MEMBER(item->val.binary.data, "nulls");

			add_sort_key(&keys, relid, nat_json_value_text(column),
						 direction && direction->type == jbvString ?
						 nat_json_value_text(direction) : NULL,
						 nulls && nulls->type == jbvString ?
						 nat_json_value_text(nulls) : NULL,
						 psprintf("%s.column", path));
		}
	}
	return keys;
}

/*
 * " ORDER BY ..." of the sort keys, if any.
 */
static void
deparse_order_by(StringInfo buf, Oid relid, List *keys)
{
	ListCell   *lc;

	foreach(lc, keys)
	{
		NatSortKey *key = lfirst(lc);

		appendStringInfoString(buf, foreach_current_index(lc) == 0 ? " ORDER BY " : ", ");
		nat_deparse_column(buf, relid, key->attnum);
		if (key->desc)
			appendStringInfoString(buf, " DESC");
		if (key->nulls_given)
			appendStringInfoString(buf, key->nulls_first ? " NULLS FIRST" : " NULLS LAST");
	}
}

/*
 * select_query(table, columns, where, order_by, limit, offset, timeout_ms)
 */
static void
select_query(ToolCall *call, const void *targs, ToolPlan *plan)
{
	const SelectArgs *args = targs;
	Oid			relid;
	StringInfoData sql;
	StringInfoData filter;
	QueryParams *params = &plan->params;
	JsonbValue *where;
	List	   *keys;
	char		mode;
	int64		offset = args->common.offset.value;
	int			omitted;
	ListCell   *lc;

	relid = plan->relid = nat_resolve_call_table(call);

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT ");
	plan->columns = nat_deparse_column_list(&sql, relid, args->columns,
											"$.columns", &omitted);

	/*
	 * All columns are those the role may read: say that some were left out,
	 * by count only (their names are not the role's to see).
	 */
	if (omitted > 0)
		nat_plan_add_warning(plan,
							 psprintf("%d of the %d columns of %s %s left out: your role may not read %s. The answer has the other %d.",
									  omitted, omitted + list_length(plan->columns),
									  call->table, omitted == 1 ? "was" : "were",
									  omitted == 1 ? "it" : "them",
									  list_length(plan->columns)));
	initStringInfo(&filter);
	where = args->common.where;
	if (where)
		nat_deparse_where(&filter, relid, where, params, "$.where");
	keys = parse_order_by(args->order_by, relid);

	/*
	 * Continuation (continuation.c): keyset pages carry their sort keys as
	 * hidden columns after the agent's (the row sink leaves them out of the
	 * answer) and, after the first page, start after the token's keys; offset
	 * pages start at the token's offset.
	 */
	mode = nat_continuation_order(call, relid, &keys);
	if (mode == NAT_CONT_KEYSET)
	{
		foreach(lc, keys)
		{
			appendStringInfoString(&sql, ", ");
			nat_deparse_column(&sql, relid, ((NatSortKey *) lfirst(lc))->attnum);
		}
		if (call->cont->given)
		{
			if (filter.len > 0)
				appendStringInfoString(&filter, " AND ");
			nat_continuation_after(&filter, call, params);
			offset = 0;
		}
	}
	else if (mode == NAT_CONT_OFFSET && call->cont->given)
		offset = call->cont->given_offset;
	if (mode == NAT_CONT_OFFSET)
		call->cont->base = offset;

	appendStringInfoString(&sql, " FROM ");
	appendStringInfoString(&sql, call->table);
	if (filter.len > 0)
		appendStringInfo(&sql, " WHERE %s", filter.data);
	deparse_order_by(&sql, relid, keys);

	nat_deparse_limit_offset(&sql, params, plan->caps.max_rows, offset);

	/*
	 * No rows for a filter from the first row on: the answer may name values
	 * close to the filter's that the column holds (empty_hints.c).
	 */
	if (where && offset == 0 && !(call->cont && call->cont->given))
		plan->empty_hints = true;

	plan->run = PLAN_ROWS;
	plan->sql = sql.data;
}
