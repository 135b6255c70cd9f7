/*-------------------------------------------------------------------------
 *
 * insert_data.c
 *		  The insert_data tool.
 *
 * Generates one statement for all the rows, so they are inserted
 * atomically:
 *	 INSERT INTO "schema"."table" ("a", "b") VALUES ($1, $2), ($3, DEFAULT)
 *	   [ON CONFLICT [(cols)] DO NOTHING | DO UPDATE SET "b" = EXCLUDED."b"]
 *	   RETURNING <columns>
 * The column list is the union of the rows' keys; a key missing from a row
 * takes the column's default.  When every row has every key, several rows
 * go as one array per column instead:
 *	 INSERT INTO "schema"."table" ("a", "b")
 *	   SELECT pg_catalog.unnest($1), pg_catalog.unnest($2) ...
 * so the statement is the same for any number of rows (one prepared plan
 * per table and columns, not one per row count), and the executor
 * initialises one parameter per column, not one expression per value.
 * Every value is a bound parameter converted by the column type's input
 * function, so "5" lands as integer 5 and ["x", "y"] as {x,y}; a value
 * that cannot be converted is an invalid_input answer naming the row, the
 * column and the type, and nothing is inserted.
 *
 * IDENTIFICATION
 *		  src/tools/insert_data.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "tools/tools.h"
#include "tools/params.h"
#include "plan/tool_plan.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/relcache.h"

/* the protocol's limit on bound parameters in one statement */
#define MAX_BOUND_PARAMS 65535

static void insert_data(ToolCall *call, const void *targs, ToolPlan *plan);

/* the decoded arguments */
typedef struct InsertArgs
{
	CommonArgs	common;			/* table, returning, max_affected, timeout_ms */
	JsonbValue *rows;
	int			on_conflict;	/* ON_CONFLICT_* */
	JsonbValue *conflict_columns;
} InsertArgs;

/* on_conflict, as the indexes of on_conflict_values */
#define ON_CONFLICT_ERROR	0
#define ON_CONFLICT_SKIP	1
#define ON_CONFLICT_UPDATE	2
static void validate_rows(JsonbValue *value, const char *path);

static const char *const on_conflict_values[] = {"error", "skip", "update", NULL};

static const ToolParam insert_params[] = {
	NAT_PARAM_TABLE("to insert into"),
	{
		.name = "rows",
		.decode = NAT_DECODE_JSON,.offset = offsetof(InsertArgs, rows),
		.types = NAT_JSON_OBJECT | NAT_JSON_ARRAY,
		.required = true,
		.description = "One row as an object of column values, or a list of such objects; all are inserted in one atomic operation. Missing columns take their default; values are converted to the column types (\"5\" for an integer, [\"a\", \"b\"] for a text[] column, objects for json/jsonb).",
		.items = NAT_ITEMS_ROW,
		.pairs = true,
		.closed_description = "The rows to insert, each a list of {column, value} pairs; all are inserted in one atomic operation. Missing columns take their default; values are converted to the column types (\"5\" for an integer, \"{a,b}\" or [\"a\", \"b\"] for a text[] column; a string stays a JSON string in a json/jsonb column).",
		.examples_json = "[{\"name\": \"Ada\", \"email\": \"ada@example.com\"}, [{\"sku\": \"A1\", \"qty\": 5}, {\"sku\": \"B2\", \"qty\": 1, \"tags\": [\"new\"]}]]",
		/* the write cap: neon_ai_tools.max_affected_rows, or max_affected */
		.max_items_setting = &nat_max_affected_rows,
		.max_properties = NAT_MAX_SET_COLUMNS,
		.validate = validate_rows,
	},
	{
		.name = "on_conflict",
		.decode = NAT_DECODE_ENUM,.offset = offsetof(InsertArgs, on_conflict),
		.types = NAT_JSON_STRING,
		.description = "What to do when a row violates a unique constraint: error (the default: nothing is inserted), skip (insert the others, report skippedRows), update (upsert: update the existing row with the new values).",
		.enum_values = on_conflict_values,
		.default_json = "\"error\"",
	},
	{
		.name = "conflict_columns",
		.decode = NAT_DECODE_JSON,.offset = offsetof(InsertArgs, conflict_columns),
		.types = NAT_JSON_ARRAY,
		.description = "The columns of the unique constraint that decides a conflict, for skip and update; defaults to the primary key.",
		.items = NAT_ITEMS_COLUMN,
		.max_items = INDEX_MAX_KEYS,
		.examples_json = "[[\"email\"], [\"tenant_id\", \"sku\"]]",
		.validate = nat_validate_columns,
	},
	NAT_PARAM_RETURNING,
	NAT_PARAM_FORMAT("the returned rows"),
	NAT_PARAM_MAX_AFFECTED,
	NAT_PARAM_TIMEOUT_MS,
};

const ToolDef nat_tool_insert_data = {
	.name = "insert_data",
	.title = "Insert rows into a table",
	.description = "Insert one or more rows into one table in a single atomic operation: if any row fails, none is inserted. "
	"Use it to add new records; use on_conflict to skip rows that already exist or to update them (upsert). "
	"Values are bound parameters converted to the column types; missing columns take their defaults. "
	"The answer has affectedRows and the inserted rows in data (with generated ids and defaults, or the columns chosen by returning). "
	"Example: {\"table\": \"customers\", \"rows\": [{\"name\": \"Ada\", \"email\": \"ada@example.com\"}], \"on_conflict\": \"skip\", \"conflict_columns\": [\"email\"]}",
	.operation = NAT_OP_INSERT,
	NAT_TOOL_PARAMS(insert_params, InsertArgs),
	NAT_TOOL_WRITES(false, false),
	.plan = insert_data,
};

/* one column of the insert */
typedef struct InsertColumn
{
	char	   *key;			/* as the rows name it */
	int			keylen;
	char	   *name;			/* the column's own name */
	AttrNumber	attnum;
	Oid			typid;
	int32		typmod;
} InsertColumn;

/*
 * rows: an object, or a non-empty list of objects.
 */
static void
validate_rows(JsonbValue *value, const char *path)
{
	int			i;

	if (JsonContainerIsObject(value->val.binary.data))
		return;
	if (JsonContainerSize(value->val.binary.data) == 0)
		nat_invalid_param(path, "Pass at least one row, e.g. [{\"name\": \"Ada\"}].",
						  "argument \"rows\" is empty");
	for (i = 0; i < JsonContainerSize(value->val.binary.data); i++)
	{
		JsonbValue *row = getIthJsonbValueFromContainer(value->val.binary.data, i);

		CHECK_FOR_INTERRUPTS();
		if (row->type != jbvBinary || !JsonContainerIsObject(row->val.binary.data))
			nat_invalid_param(psprintf("%s[%d]", path, i),
							  "Pass each row as an object of column values, e.g. {\"name\": \"Ada\"}.",
							  "each row must be an object");
		if (JsonContainerSize(row->val.binary.data) > NAT_MAX_SET_COLUMNS)
			nat_invalid_param(psprintf("%s[%d]", path, i),
							  psprintf("Pass at most %d columns in a row.", NAT_MAX_SET_COLUMNS),
							  "row has %d members, more than the limit of %d",
							  (int) JsonContainerSize(row->val.binary.data), NAT_MAX_SET_COLUMNS);
		pfree(row);
	}
}

/*
 * The rows as a list of JsonbContainer *.
 */
static List *
row_containers(JsonbValue *rows)
{
	List	   *result = NIL;
	int			i;

	if (JsonContainerIsObject(rows->val.binary.data))
		return list_make1(rows->val.binary.data);
	for (i = 0; i < JsonContainerSize(rows->val.binary.data); i++)
	{
		JsonbValue *row = getIthJsonbValueFromContainer(rows->val.binary.data, i);

		CHECK_FOR_INTERRUPTS();
		result = lappend(result, row->val.binary.data);
	}
	return result;
}

/*
 * The row's path in the arguments: $.rows for a single object.
 */
static char *
row_path(JsonbValue *rows, int i)
{
	if (JsonContainerIsObject(rows->val.binary.data))
		return pstrdup("$.rows");
	return psprintf("$.rows[%d]", i);
}

/*
 * The row's index in $.rows, or -1 for a single object: the path is
 * written out only if a value of the row fails to convert.
 */
static int
row_index(JsonbValue *rows, int i)
{
	return JsonContainerIsObject(rows->val.binary.data) ? -1 : i;
}

/*
 * Is the JSON string key the key of column col?
 */
static bool
is_key(InsertColumn *col, const char *key, int keylen)
{
	return col->keylen == keylen && memcmp(col->key, key, keylen) == 0;
}

/*
 * The union of the rows' keys, in order of first appearance, resolved to
 * columns.
 */
static List *
insert_columns(Oid relid, JsonbValue *rows, List *containers)
{
	List	   *columns = NIL;
	ListCell   *lc;

	foreach(lc, containers)
	{
		NatJsonbKeys keys;
		const char *name;
		int			namelen;
		JsonbValue	v;
		int			k = 0;

		nat_jsonb_keys_begin(&keys, (JsonbContainer *) lfirst(lc));
		while (nat_jsonb_next_key(&keys, &name, &namelen, &v))
		{
			char	   *key;
			ListCell   *lc2;
			bool		seen = false;
			InsertColumn *col;
			Oid			collid;

			if (namelen > NAT_MAX_IDENTIFIER)
				nat_check_identifier(name, namelen,
									 psprintf("%s.%s", row_path(rows, foreach_current_index(lc)),
											  nat_clip_len(name, namelen)));

			/*
			 * Rows with the same keys have them in the same order (jsonb's):
			 * try the column in this key's place first.
			 */
			if (k < list_length(columns) &&
				is_key(list_nth(columns, k), name, namelen))
			{
				k++;
				continue;
			}
			k++;
			foreach(lc2, columns)
			{
				if (is_key(lfirst(lc2), name, namelen))
				{
					seen = true;
					break;
				}
			}
			if (seen)
				continue;
			key = pnstrdup(name, namelen);
			col = palloc(sizeof(InsertColumn));
			col->key = key;
			col->keylen = namelen;
			col->attnum = nat_resolve_column(relid, key,
											 psprintf("%s.%s", row_path(rows, foreach_current_index(lc)), key));
			get_atttypetypmodcoll(relid, col->attnum, &col->typid, &col->typmod, &collid);
			col->name = get_attname(relid, col->attnum, false);
			columns = lappend(columns, col);
		}
	}
	return columns;
}

/*
 * VALUES (...), (...): each value a parameter of its column's type, a
 * missing key DEFAULT.
 */
static void
deparse_values(StringInfo buf, Oid relid, JsonbValue *rows, List *containers,
			   List *columns, QueryParams *params)
{
	ListCell   *lc;

	if ((int64) list_length(containers) * list_length(columns) > MAX_BOUND_PARAMS)
		nat_invalid_param("$.rows",
						  psprintf("Split the rows into batches of at most %d.",
								   MAX_BOUND_PARAMS / list_length(columns)),
						  "too many values in one call (%d rows of %d columns)",
						  list_length(containers), list_length(columns));

	appendStringInfoString(buf, " VALUES ");
	foreach(lc, containers)
	{
		JsonbContainer *row = lfirst(lc);
		int			index = row_index(rows, foreach_current_index(lc));
		ListCell   *lc2;

		CHECK_FOR_INTERRUPTS();
		if (foreach_current_index(lc) > 0)
			appendStringInfoString(buf, ", ");
		appendStringInfoChar(buf, '(');
		foreach(lc2, columns)
		{
			InsertColumn *col = lfirst(lc2);
			JsonbValue *value = getKeyJsonValueFromContainer(row, col->key,
															 col->keylen, NULL);

			if (foreach_current_index(lc2) > 0)
				appendStringInfoString(buf, ", ");
			if (value == NULL)
				appendStringInfoString(buf, "DEFAULT");
			else
			{
				bool		isnull;
				Datum		d = nat_convert_member(value, col->typid, col->typmod,
												   "$.rows", index, col->key,
												   col->name, &isnull);

				nat_deparse_param(buf, nat_params_add(params, col->typid, d, isnull));
			}
		}
		appendStringInfoChar(buf, ')');
	}
}

/*
 * May the rows go as one array per column (see the file comment)?  Every
 * row must have every column, and each column's type must make a plain
 * one-dimensional array that unnest() gives back as one column: not an
 * array itself (unnest flattens every dimension) and not a composite (a
 * function in FROM returning one is expanded into its fields).
 */
static bool
rows_as_arrays(List *containers, List *columns)
{
	ListCell   *lc;

	if (list_length(containers) < 2 || columns == NIL)
		return false;
	foreach(lc, containers)
	{
		/* keys are unique in jsonb: as many as the union means all of them */
		if (JsonContainerSize((JsonbContainer *) lfirst(lc)) != list_length(columns))
			return false;
	}
	foreach(lc, columns)
	{
		InsertColumn *col = lfirst(lc);
		Oid			base = getBaseType(col->typid);

		if (type_is_array(base) || get_typtype(base) == TYPTYPE_COMPOSITE ||
			base == RECORDOID || !OidIsValid(get_array_type(col->typid)))
			return false;
	}
	return true;
}

/*
 * SELECT pg_catalog.unnest($1), pg_catalog.unnest($2), ...: each parameter
 * an array of one column's values, converted row by row (so the first bad
 * value reported is the same as with VALUES).  Set-returning functions in
 * the target list run in step, one row at a time (the arrays have the same
 * length); in FROM (ROWS FROM) each function's result would first be
 * stored in a tuplestore and read back.
 */
static void
deparse_unnest(StringInfo buf, JsonbValue *rows, List *containers,
			   List *columns, QueryParams *params)
{
	int			nrows = list_length(containers);
	int			ncols = list_length(columns);
	Datum	  **values = palloc(ncols * sizeof(Datum *));
	bool	  **nulls = palloc(ncols * sizeof(bool *));
	ListCell   *lc;
	int			c;

	for (c = 0; c < ncols; c++)
	{
		values[c] = palloc(nrows * sizeof(Datum));
		nulls[c] = palloc(nrows * sizeof(bool));
	}
	foreach(lc, containers)
	{
		JsonbContainer *row = lfirst(lc);
		int			r = foreach_current_index(lc);
		int			index = row_index(rows, r);
		ListCell   *lc2;

		CHECK_FOR_INTERRUPTS();
		foreach(lc2, columns)
		{
			InsertColumn *col = lfirst(lc2);
			JsonbValue *value = getKeyJsonValueFromContainer(row, col->key,
															 col->keylen, NULL);

			c = foreach_current_index(lc2);
			values[c][r] = nat_convert_member(value, col->typid, col->typmod,
											  "$.rows", index, col->key,
											  col->name, &nulls[c][r]);
		}
	}

	appendStringInfoString(buf, " SELECT ");
	foreach(lc, columns)
	{
		InsertColumn *col = lfirst(lc);
		int			dims[1] = {nrows};
		int			lbs[1] = {1};
		int16		typlen;
		bool		typbyval;
		char		typalign;
		ArrayType  *array;

		c = foreach_current_index(lc);
		get_typlenbyvalalign(col->typid, &typlen, &typbyval, &typalign);
		array = construct_md_array(values[c], nulls[c], 1, dims, lbs,
								   col->typid, typlen, typbyval, typalign);
		if (c > 0)
			appendStringInfoString(buf, ", ");
		appendStringInfoString(buf, "pg_catalog.unnest(");
		nat_deparse_param(buf, nat_params_add(params, get_array_type(col->typid),
											  PointerGetDatum(array), false));
		appendStringInfoChar(buf, ')');
	}
}

/*
 * The primary key columns of relid, for a conflict target.
 */
static List *
primary_key_columns(Oid relid)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	Oid			pkoid = nat_primary_key_index(rel);
	List	   *attnums = NIL;

	if (OidIsValid(pkoid))
	{
		Relation	index = index_open(pkoid, AccessShareLock);
		int			i;

		for (i = 0; i < index->rd_index->indnkeyatts; i++)
			attnums = lappend_int(attnums, index->rd_index->indkey.values[i]);
		index_close(index, AccessShareLock);
	}
	relation_close(rel, AccessShareLock);
	return attnums;
}

/*
 * Is there a unique index (or primary key) on exactly these columns?  If
 * not, refuse, listing the column sets that would do.
 */
static void
check_conflict_target(Oid relid, List *attnums)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;
	StringInfoData choices;

	initStringInfo(&choices);
	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessShareLock);
		Form_pg_index form = index->rd_index;

		/* a plain unique index: no expressions, no predicate */
		bool		plain = form->indisunique &&
			heap_attisnull(index->rd_indextuple, Anum_pg_index_indexprs, NULL) &&
			heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL);
		bool		match = plain && form->indnkeyatts == list_length(attnums);
		StringInfoData cols;
		int			i;

		initStringInfo(&cols);
		for (i = 0; i < form->indnkeyatts; i++)
		{
			AttrNumber	att = form->indkey.values[i];

			if (!list_member_int(attnums, att))
				match = false;
			if (att > 0)
				appendStringInfo(&cols, "%s\"%s\"", i > 0 ? ", " : "",
								 get_attname(relid, att, false));
		}
		if (plain)
			appendStringInfo(&choices, "%s[%s]", choices.len > 0 ? " or " : "", cols.data);
		index_close(index, AccessShareLock);
		if (match)
		{
			relation_close(rel, AccessShareLock);
			return;
		}
	}
	relation_close(rel, AccessShareLock);
	nat_invalid_param("$.conflict_columns",
					  choices.len > 0 ? psprintf("Use the columns of a unique constraint: %s.", choices.data) :
					  "The table has no unique constraint; use on_conflict \"error\".",
					  "conflict_columns must be exactly the columns of a unique constraint or the primary key");
}

/*
 * ON CONFLICT for on_conflict skip / update: skip without conflict_columns
 * is a bare DO NOTHING (any unique constraint); update targets
 * conflict_columns or the primary key and sets every other inserted column
 * from EXCLUDED.
 */
static void
deparse_on_conflict(StringInfo buf, ToolCall *call, const InsertArgs *args,
					Oid relid, List *columns)
{
	int			mode = args->on_conflict;
	JsonbValue *target = args->conflict_columns;
	List	   *attnums = NIL;
	ListCell   *lc;
	int			nset = 0;

	if (mode == ON_CONFLICT_ERROR)
	{
		if (target)
			nat_invalid_param("$.conflict_columns",
							  "Pass \"on_conflict\": \"skip\" or \"update\" with conflict_columns, or leave them out.",
							  "conflict_columns needs on_conflict \"skip\" or \"update\"");
		return;
	}

	if (target)
	{
		int			i;

		for (i = 0; i < JsonContainerSize(target->val.binary.data); i++)
		{
			JsonbValue *item = getIthJsonbValueFromContainer(target->val.binary.data, i);

			attnums = lappend_int(attnums,
								  nat_resolve_column(relid, nat_json_value_text(item),
													 psprintf("$.conflict_columns[%d]", i)));
		}
	}
	else if (mode == ON_CONFLICT_UPDATE)
	{
		attnums = primary_key_columns(relid);
		if (attnums == NIL)
			nat_invalid_param("$.conflict_columns",
							  "Name the columns of a unique constraint, e.g. \"conflict_columns\": [\"email\"].",
							  "table %s has no primary key: on_conflict \"update\" needs conflict_columns",
							  call->table);
	}

	appendStringInfoString(buf, " ON CONFLICT");
	if (attnums != NIL)
	{
		check_conflict_target(relid, attnums);
		appendStringInfoString(buf, " (");
		foreach(lc, attnums)
		{
			if (foreach_current_index(lc) > 0)
				appendStringInfoString(buf, ", ");
			nat_deparse_column(buf, relid, lfirst_int(lc));
		}
		appendStringInfoChar(buf, ')');
	}

	if (mode == ON_CONFLICT_SKIP)
	{
		appendStringInfoString(buf, " DO NOTHING");
		return;
	}

	/* update every inserted column that is not part of the conflict target */
	foreach(lc, columns)
	{
		InsertColumn *col = lfirst(lc);

		if (list_member_int(attnums, col->attnum))
			continue;
		appendStringInfoString(buf, nset++ == 0 ? " DO UPDATE SET " : ", ");
		nat_deparse_column(buf, relid, col->attnum);
		appendStringInfoString(buf, " = EXCLUDED.");
		nat_deparse_column(buf, relid, col->attnum);
	}
	if (nset == 0)
		appendStringInfoString(buf, " DO NOTHING");
}

/*
 * Inserts obey the write cap (neon_ai_tools.max_affected_rows, lowered by
 * max_affected): more rows than the cap are refused before any row is
 * looked at, so nothing is converted or inserted.  Validation already
 * refused more rows than the setting allows; this adds max_affected.
 */
static void
check_insert_cap(ToolCall *call, JsonbValue *rows)
{
	int64		nrows = JsonContainerIsObject(rows->val.binary.data) ? 1 :
		JsonContainerSize(rows->val.binary.data);
	int64		cap = nat_effective_max_affected(call);
	ToolError  *err;

	if (nrows <= cap)
		return;
	err = nat_error(NAT_ERR_LIMIT_EXCEEDED,
					"this insert would add " INT64_FORMAT " rows, more than the limit of " INT64_FORMAT "; nothing was inserted",
					nrows, cap);
	err->path = pstrdup("$.rows");
	err->suggestion = psprintf("Insert at most " INT64_FORMAT " rows per call, or raise max_affected if the server's limit allows.",
							   cap);
	err->suggested_actions = list_make1(pstrdup("Split the rows into smaller batches."));
	nat_throw(err);
}

/*
 * insert_data(table, rows, on_conflict, conflict_columns, returning,
 *			   max_affected, timeout_ms)
 */
static void
insert_data(ToolCall *call, const void *targs, ToolPlan *plan)
{
	const InsertArgs *args = targs;
	JsonbValue *rows = args->rows;
	Oid			relid;
	List	   *containers;
	List	   *columns;
	StringInfoData sql;
	QueryParams *params = &plan->params;
	ListCell   *lc;
	int			before_returning;

	check_insert_cap(call, rows);
	relid = plan->relid = nat_begin_write(call);
	containers = row_containers(rows);
	columns = insert_columns(relid, rows, containers);

	initStringInfo(&sql);
	appendStringInfoString(&sql, "INSERT INTO ");
	appendStringInfoString(&sql, call->table);

	if (columns == NIL && list_length(containers) == 1)
		appendStringInfoString(&sql, " DEFAULT VALUES");
	else if (columns == NIL)
	{
		/* rows of nothing but defaults */
		appendStringInfoString(&sql, " SELECT FROM pg_catalog.generate_series(1, ");
		nat_deparse_param(&sql, nat_params_add(params, INT4OID,
											   Int32GetDatum(list_length(containers)), false));
		appendStringInfoChar(&sql, ')');
	}
	else
	{
		appendStringInfoString(&sql, " (");
		foreach(lc, columns)
		{
			if (foreach_current_index(lc) > 0)
				appendStringInfoString(&sql, ", ");
			nat_deparse_column(&sql, relid, ((InsertColumn *) lfirst(lc))->attnum);
			plan->written_columns = lappend_int(plan->written_columns,
												((InsertColumn *) lfirst(lc))->attnum);
		}
		appendStringInfoChar(&sql, ')');
		if (rows_as_arrays(containers, columns))
			deparse_unnest(&sql, rows, containers, columns, params);
		else
			deparse_values(&sql, relid, rows, containers, columns, params);
	}
	deparse_on_conflict(&sql, call, args, relid, columns);
	before_returning = sql.len;
	nat_deparse_returning(&sql, call, plan, relid);

	/*
	 * The rows inserted (or updated) are counted as RETURNING returns them
	 * (execute.c: Citus's own count is that of the rows given); when a row
	 * may be skipped and nothing is returned, a constant is, only to be
	 * counted (it needs no privilege, and no row-level security policy for
	 * reading applies to it).
	 */
	if (sql.len == before_returning && args->on_conflict != ON_CONFLICT_ERROR)
	{
		appendStringInfoString(&sql, " RETURNING true");
		plan->hidden_columns = 1;
	}
	plan->count_returned = sql.len > before_returning;

	/* at most one row changes per row given: the cap is already checked */
	plan->run = PLAN_WRITE;
	plan->sql = sql.data;
	if (args->on_conflict == ON_CONFLICT_SKIP)
		nat_plan_add_field(plan, "skippedRows", ANSWER_INT_LESS_OWN,
						   list_length(containers));
}
