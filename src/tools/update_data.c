/*-------------------------------------------------------------------------
 *
 * update_data.c
 *		  The update_data tool.
 *
 * Generates
 *	 UPDATE "schema"."table" SET "a" = $1, "b" = $2 WHERE <filter>
 *	   RETURNING <columns>
 * with every value a bound parameter of its column's type.  Without a
 * where filter it needs confirm_all_rows; more affected rows than the write
 * cap roll the whole call back (limit_exceeded); a dry run reports and
 * keeps nothing (writes.c, execute.c).
 *
 * IDENTIFICATION
 *		  src/tools/update_data.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "tools/tools.h"
#include "tools/params.h"
#include "plan/tool_plan.h"
#include "utils/lsyscache.h"

static void update_data(ToolCall *call, const void *targs, ToolPlan *plan);

/* the decoded arguments */
typedef struct UpdateArgs
{
	CommonArgs	common;			/* table, where, confirm_all_rows, dry_run,
								 * returning, max_affected, timeout_ms */
	JsonbValue *set;
} UpdateArgs;
static void validate_set(JsonbValue *value, const char *path);

static const ToolParam update_params[] = {
	NAT_PARAM_TABLE("to change"),
	{
		.name = "set",
		.decode = NAT_DECODE_JSON,.offset = offsetof(UpdateArgs, set),
		.types = NAT_JSON_OBJECT,
		.required = true,
		.description = "New values by column name, e.g. {\"status\": \"shipped\", \"qty\": 5}; values are converted to the column types, null sets NULL.",
		.examples_json = "[{\"status\": \"shipped\"}, {\"qty\": 5, \"note\": null}]",
		.max_properties = NAT_MAX_SET_COLUMNS,
		.pairs = true,
		.closed_description = "New values, as a list of {column, value} pairs, e.g. [{\"column\": \"status\", \"value\": \"shipped\"}]; values are converted to the column types, null sets NULL.",
		.validate = validate_set,
	},
	NAT_PARAM_WHERE("to change"),
	NAT_PARAM_CONFIRM_ALL_ROWS("update"),
	NAT_PARAM_DRY_RUN,
	NAT_PARAM_RETURNING,
	NAT_PARAM_FORMAT("the returned rows"),
	NAT_PARAM_MAX_AFFECTED,
	NAT_PARAM_CONFIRMATION_TOKEN,
	NAT_PARAM_TIMEOUT_MS,
};

const ToolDef nat_tool_update_data = {
	.name = "update_data",
	.title = "Update rows of a table",
	.description = "Change column values of the rows of one table that match a filter, atomically. "
	"Use it to modify existing rows; the filter is required (pass confirm_all_rows: true to change every row). "
	"Values are bound parameters converted to the column types. If more rows match than max_affected (or the server's limit), nothing is changed and the answer says how many matched. "
	"Use dry_run: true to preview: it reports affectedRows and the changed rows, then rolls back. "
	"The answer has affectedRows and the changed rows in data (columns chosen by returning). "
	"Example: {\"table\": \"orders\", \"set\": {\"status\": \"shipped\"}, \"where\": {\"id\": {\"in\": [7, 9]}}, \"returning\": [\"id\", \"status\"]}",
	.operation = NAT_OP_UPDATE,
	NAT_TOOL_PARAMS(update_params, UpdateArgs),
	NAT_TOOL_WRITES(true, true),
	.plan = update_data,
};

/*
 * set: at least one column.
 */
static void
validate_set(JsonbValue *value, const char *path)
{
	NatJsonbKeys keys;
	const char *key;
	int			keylen;
	JsonbValue	v;

	if (JsonContainerSize(value->val.binary.data) == 0)
		nat_invalid_param(path, "Name at least one column and its new value, e.g. {\"status\": \"shipped\"}.",
						  "argument \"set\" is empty");
	/* column names: refused when too long, before anything copies them */
	nat_jsonb_keys_begin(&keys, value->val.binary.data);
	while (nat_jsonb_next_key(&keys, &key, &keylen, &v))
		nat_check_identifier(key, keylen,
							 psprintf("%s.%s", path, nat_clip_len(key, keylen)));
}

/*
 * Append the SET list: each column = $n, the value converted to the
 * column's type.
 */
static void
deparse_set_list(StringInfo buf, JsonbValue *set, Oid relid, ToolPlan *plan)
{
	NatJsonbKeys keys;
	const char *key;
	int			keylen;
	JsonbValue	v;
	int			n = 0;

	nat_jsonb_keys_begin(&keys, set->val.binary.data);
	while (nat_jsonb_next_key(&keys, &key, &keylen, &v))
	{
		char	   *name = pnstrdup(key, keylen);
		char	   *path = psprintf("$.set.%s", name);
		AttrNumber	attnum;
		Oid			typid;
		int32		typmod;
		Oid			collid;
		bool		isnull;
		Datum		value;

		attnum = nat_resolve_column(relid, name, path);
		get_atttypetypmodcoll(relid, attnum, &typid, &typmod, &collid);
		value = nat_convert_value(&v, typid, typmod, path,
								  get_attname(relid, attnum, false), &isnull);

		if (n++ > 0)
			appendStringInfoString(buf, ", ");
		nat_deparse_column(buf, relid, attnum);
		appendStringInfoString(buf, " = ");
		nat_deparse_param(buf, nat_params_add(&plan->params, typid, value, isnull));
		plan->written_columns = lappend_int(plan->written_columns, attnum);
	}
}

/*
 * update_data(table, set, where, confirm_all_rows, dry_run, returning,
 *			   max_affected, timeout_ms)
 */
static void
update_data(ToolCall *call, const void *targs, ToolPlan *plan)
{
	const UpdateArgs *args = targs;
	Oid			relid = plan->relid = nat_begin_write(call);
	StringInfoData sql;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "UPDATE ");
	appendStringInfoString(&sql, call->table);
	appendStringInfoString(&sql, " SET ");
	deparse_set_list(&sql, args->set, relid, plan);
	nat_deparse_write_filter(&sql, call, plan, relid, NAT_OP_UPDATE);
	nat_deparse_returning(&sql, call, plan, relid);

	plan->run = PLAN_WRITE;
	plan->sql = sql.data;
	plan->max_affected = nat_effective_max_affected(call);
}
