/*-------------------------------------------------------------------------
 *
 * shared_params.c
 *		  The checks of the parameters several tools share: "columns"
 *		  (select_query, insert_data's returning, and the write tools
 *		  through tools/params.h) and "order_by".
 *
 * A ToolParam's validate hook (registry/args.c calls it) checks the shape
 * of a value that JSON types alone do not: names are checked as
 * identifiers here, resolved through the catalog when the tool plans.
 *
 * IDENTIFICATION
 *		  src/tools/shared_params.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "tools/tools.h"
#include "utils/builtins.h"

static const char *const direction_values[] = {"asc", "desc", NULL};
static const char *const nulls_values[] = {"first", "last", NULL};

/*
 * columns: a list of non-empty strings, or a non-empty string.
 */
void
nat_validate_columns(JsonbValue *value, const char *path)
{
	int			i;

	if (value->type == jbvString)
	{
		if (value->val.string.len == 0)
			nat_invalid_param(path, psprintf("Omit \"%s\" for all columns.", path + 2),
							  "argument \"%s\" is empty", path + 2);
		return;
	}
	for (i = 0; i < JsonContainerSize(value->val.binary.data); i++)
	{
		JsonbValue *item = getIthJsonbValueFromContainer(value->val.binary.data, i);

		CHECK_FOR_INTERRUPTS();
		if (item->type != jbvString || item->val.string.len == 0)
			nat_invalid_param(psprintf("%s[%d]", path, i), "List column names as strings.",
							  "each column must be a non-empty string");
		nat_check_identifier(item->val.string.val, item->val.string.len,
							 psprintf("%s[%d]", path, i));
		pfree(item);
	}
}

/*
 * order_by: a string, or a list of {column, direction, nulls} objects (or
 * of strings like "id desc").
 */
void
nat_validate_order_by(JsonbValue *value, const char *path)
{
	int			i;

	if (value->type == jbvString)
		return;					/* checked when parsed */
	for (i = 0; i < JsonContainerSize(value->val.binary.data); i++)
	{
		JsonbValue *item = getIthJsonbValueFromContainer(value->val.binary.data, i);
		char	   *itempath = psprintf("%s[%d]", path, i);
		NatJsonbKeys members;
		const char *k;
		int			klen;
		JsonbValue	v;
		bool		has_column = false;

		CHECK_FOR_INTERRUPTS();
		if (item->type == jbvString)
		{
			/* a name, a direction and NULLS FIRST|LAST */
			if (nat_exceeds_chars(item->val.string.val, item->val.string.len,
								  NAT_MAX_SORT_KEY))
				nat_invalid_param(itempath, "Write a sort key as \"column [asc|desc] [nulls first|last]\".",
								  "sort key \"%s\" is longer than the limit of %d characters",
								  nat_clip_len(item->val.string.val, item->val.string.len),
								  NAT_MAX_SORT_KEY);
			continue;
		}
		if (item->type != jbvBinary || !JsonContainerIsObject(item->val.binary.data))
			nat_invalid_param(itempath, "Use {\"column\": \"created_at\", \"direction\": \"desc\"}.",
							  "each order_by item must be an object or a string");
		nat_jsonb_keys_begin(&members, item->val.binary.data);
		while (nat_jsonb_next_key(&members, &k, &klen, &v))
		{
			char	   *key = nat_clip_len(k, klen);
			char	   *keypath = psprintf("%s.%s", itempath, key);
			const char *const *allowed = NULL;

			if (strcmp(key, "column") == 0)
			{
				if (v.type != jbvString)
					nat_invalid_param(keypath, NULL, "\"column\" must be a string");
				nat_check_identifier(v.val.string.val, v.val.string.len, keypath);
				has_column = true;
				continue;
			}
			/* null is absent, as a strict client writes it */
			if (v.type == jbvNull &&
				(strcmp(key, "direction") == 0 || strcmp(key, "nulls") == 0))
				continue;
			if (strcmp(key, "direction") == 0)
				allowed = direction_values;
			else if (strcmp(key, "nulls") == 0)
				allowed = nulls_values;
			else
			{
				static const char *const keys[] = {"column", "direction", "nulls"};
				const char *close = nat_closest_word(key, keys, lengthof(keys));

				nat_invalid_param_offer(keypath, close,
										close ? psprintf("Rename the order_by key \"%s\" to \"%s\".", key, close) : NULL,
										"Use only column, direction and nulls.",
										"unknown order_by key \"%s\"", key);
			}
			if (v.type != jbvString ||
				(pg_strcasecmp(nat_json_value_text(&v), allowed[0]) != 0 &&
				 pg_strcasecmp(nat_json_value_text(&v), allowed[1]) != 0))
				nat_invalid_param(keypath,
								  psprintf("Use \"%s\" or \"%s\".", allowed[0], allowed[1]),
								  "\"%s\" must be \"%s\" or \"%s\"", key, allowed[0], allowed[1]);
		}
		if (!has_column)
			nat_invalid_param(itempath, "Add \"column\": the column to sort by.",
							  "order_by item has no \"column\"");
	}
}
