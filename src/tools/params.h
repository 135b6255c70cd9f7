/*-------------------------------------------------------------------------
 *
 * params.h
 *		  Parameter rows shared by several tools.
 *
 * A parameter that means the same thing in several tools (table, where,
 * timeout_ms, ...) is written once here and used in each tool's static
 * ToolParam table, so its schema, description and checks cannot drift
 * apart between tools.  Their values are decoded into the CommonArgs
 * every tool's argument struct begins with.
 *
 * IDENTIFICATION
 *		  src/params.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_PARAMS_H
#define NAT_PARAMS_H

#include "tools/tools.h"

#define NAT_PARAM_TABLE(what) \
	{ \
		.name = "table", \
		.decode = NAT_DECODE_TEXT, .offset = offsetof(CommonArgs, table), \
		.types = NAT_JSON_STRING, \
		.required = true, \
		.description = "The table " what ": \"orders\" or \"schema.orders\".", \
		.examples_json = "[\"orders\", \"sales.customers\"]", \
		.max_length = NAT_MAX_TABLE_NAME, \
	}

#define NAT_PARAM_WHERE(what) \
	{ \
		.name = "where", \
		.decode = NAT_DECODE_JSON, .offset = offsetof(CommonArgs, where), \
		.types = NAT_JSON_OBJECT | NAT_JSON_STRING, \
		.description = "Which rows " what ". Recommended: an object, e.g. {\"status\": \"active\", \"age\": {\"gt\": 18}}, with operators eq, neq, gt, gte, lt, lte, in, not_in, like, ilike, is_null, between, contains and nested and/or/not lists (at most 32 levels deep, at most 10000 values in one in/not_in list, at most 10000 conditions and list values in all). Or a SQL condition string over the table's columns, e.g. \"age > 18 AND status = 'active'\" (comparisons, LIKE, IN, BETWEEN, IS NULL, AND/OR/NOT and a few built-in functions; no subqueries).", \
		.examples_json = "[{\"status\": \"active\", \"age\": {\"gte\": 18}}, {\"or\": [{\"role\": \"admin\"}, {\"id\": {\"in\": [1, 2]}}]}, \"age > 18 AND status = 'active'\"]", \
		.closed_description = "Which rows " what ", as a SQL condition over the table's columns, e.g. \"age > 18 AND status = 'active'\" (comparisons, LIKE, IN, BETWEEN, IS NULL, AND/OR/NOT and a few built-in functions; no subqueries).", \
		.max_length = NAT_MAX_WHERE_SQL, \
		.validate = nat_validate_where, \
	}

#define NAT_PARAM_LIMIT(what) \
	{ \
		.name = "limit", \
		.decode = NAT_DECODE_INT, .offset = offsetof(CommonArgs, limit), \
		.types = NAT_JSON_INTEGER, \
		.description = "Maximum number of " what " to return; the answer says when more were available (truncated).", \
		.has_minimum = true, \
		.minimum = 1, \
		.maximum_setting = &nat_max_rows, \
		.default_setting = &nat_row_limit, \
	}

#define NAT_PARAM_OFFSET(what) \
	{ \
		.name = "offset", \
		.decode = NAT_DECODE_INT, .offset = offsetof(CommonArgs, offset), \
		.types = NAT_JSON_INTEGER, \
		.description = what " to skip before returning any, for paging.", \
		.has_minimum = true, \
		.minimum = 0, \
		.default_json = "0", \
	}

#define NAT_PARAM_TIMEOUT_MS \
	{ \
		.name = "timeout_ms", \
		.decode = NAT_DECODE_INT, .offset = offsetof(CommonArgs, timeout_ms), \
		.types = NAT_JSON_INTEGER, \
		.description = "Time limit for this call in milliseconds.", \
		.has_minimum = true, \
		.minimum = 1, \
		.maximum_setting = &nat_max_timeout_ms, \
		.default_setting = &nat_timeout_ms, \
	}

#define NAT_PARAM_RETURNING \
	{ \
		.name = "returning", \
		.decode = NAT_DECODE_JSON, .offset = offsetof(CommonArgs, returning), \
		.types = NAT_JSON_ARRAY | NAT_JSON_STRING, \
		.description = "Columns of the changed rows to return, as a list or a comma-separated string; all columns by default (so generated ids and defaults come back), [] for none.", \
		.items = NAT_ITEMS_COLUMN, \
		.examples_json = "[[\"id\"], \"id, status\", []]", \
		.max_length = NAT_MAX_COLUMN_LIST, \
		.max_items = NAT_MAX_COLUMNS, \
		.validate = nat_validate_columns, \
	}

#define NAT_PARAM_CONFIRM_ALL_ROWS(verb) \
	{ \
		.name = "confirm_all_rows", \
		.decode = NAT_DECODE_BOOL, .offset = offsetof(CommonArgs, confirm_all_rows), \
		.types = NAT_JSON_BOOLEAN, \
		.description = "Must be true to " verb " every row of the table when there is no where filter; refused otherwise.", \
		.default_json = "false", \
	}

#define NAT_PARAM_DRY_RUN \
	{ \
		.name = "dry_run", \
		.decode = NAT_DECODE_BOOL, .offset = offsetof(CommonArgs, dry_run), \
		.types = NAT_JSON_BOOLEAN, \
		.description = "Run the change, report affectedRows and the changed rows, then roll it back: nothing is kept.", \
		.default_json = "false", \
	}

#define NAT_PARAM_MAX_AFFECTED \
	{ \
		.name = "max_affected", \
		.decode = NAT_DECODE_INT, .offset = offsetof(CommonArgs, max_affected), \
		.types = NAT_JSON_INTEGER, \
		.description = "Refuse, changing nothing, if more rows than this would change. Can only lower the server's limit.", \
		.has_minimum = true, \
		.minimum = 0, \
		.maximum_setting = &nat_max_affected_rows, \
	}

#define NAT_PARAM_FORMAT(what) \
	{ \
		.name = "format", \
		.decode = NAT_DECODE_TEXT, .offset = offsetof(CommonArgs, format), \
		.types = NAT_JSON_STRING, \
		.description = "How " what " are written: json (an object a row), columnar (columns once, each row an array: exact, typed, about half the size), csv or markdown (text in data_text; note says what text loses).", \
		.enum_values = nat_answer_format_names, \
		.default_enum_setting = &nat_default_format, \
	}

#define NAT_PARAM_NEXT(how) \
	{ \
		.name = "next", \
		.decode = NAT_DECODE_TEXT, .offset = offsetof(CommonArgs, next), \
		.types = NAT_JSON_STRING, \
		.description = "To continue a truncated answer: its \"next\" value, unchanged, with the same other arguments (limit and format may change). " how, \
		.max_length = 65536, \
	}

#define NAT_PARAM_CONFIRMATION_TOKEN \
	{ \
		.name = "confirmation_token", \
		.decode = NAT_DECODE_TEXT, .offset = offsetof(CommonArgs, confirmation_token), \
		.types = NAT_JSON_STRING, \
		.description = "When the server asks for confirmation (confirmation_required): the confirmation_token of that answer, passed only after the user has confirmed, with the same other arguments. Single use.", \
		.max_length = 1024, \
	}

/* an agent's statement: its text, with $1, $2, ... for values */
#define NAT_PARAM_SQL(args_, what, examples) \
	{ \
		.name = "sql", \
		.decode = NAT_DECODE_TEXT, .offset = offsetof(args_, sql), \
		.types = NAT_JSON_STRING, \
		.required = true, \
		.description = what, \
		.examples_json = examples, \
		.max_length = NAT_MAX_SQL, \
	}

/* the values of an agent's statement's $1, $2, ... */
#define NAT_PARAM_SQL_VALUES(args_, what, examples) \
	{ \
		.name = "params", \
		.decode = NAT_DECODE_JSON, .offset = offsetof(args_, params), \
		.types = NAT_JSON_ARRAY, \
		.description = what, \
		.examples_json = examples, \
		.items = NAT_ITEMS_VALUE, \
		.max_items = NAT_MAX_PARAMS, \
	}

/* a boolean switch, off unless given */
#define NAT_PARAM_SWITCH(name_, offset_, what) \
	{ \
		.name = name_, \
		.decode = NAT_DECODE_BOOL, .offset = offset_, \
		.types = NAT_JSON_BOOLEAN, \
		.description = what, \
		.default_json = "false", \
	}

#endif							/* NAT_PARAMS_H */
