/*-------------------------------------------------------------------------
 *
 * guc_answer.c
 *		  The settings of the answer's form: format, continuation,
 *		  confirmation and the hints of an empty read (README, "Settings").
 *
 * neon_ai_tools.default_format is user-settable: a format changes how rows
 * are written, never which.  neon_ai_tools.empty_result_hints is
 * superuser-set: its "query" runs a bounded read of its own on the
 * server's time, which an administrator may turn off for a role (the role
 * policy takes the stricter value, off being the strictest).  The
 * confirmation settings are guardrails, superuser-set like the others
 * (guc.c): an agent's role cannot turn its own confirmations off.
 *
 * IDENTIFICATION
 *		  src/core/guc_answer.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "answer/formats.h"
#include "entry/entry.h"
#include "plan/token.h"
#include "utils/guc.h"

static const struct config_enum_entry format_options[] = {
	{"json", NAT_FORMAT_JSON, false},
	{"columnar", NAT_FORMAT_COLUMNAR, false},
	{"csv", NAT_FORMAT_CSV, false},
	{"markdown", NAT_FORMAT_MARKDOWN, false},
	{NULL, 0, false}
};

/*
 * Define the answer's settings; called from nat_define_settings().
 */
void
nat_define_answer_settings(void)
{
	DefineCustomEnumVariable("neon_ai_tools.default_format",
							 "Format of the rows in an answer when a call does not pass \"format\".",
							 "json: an object a row; columnar: columns once, each row an array; csv, markdown: text in data_text.",
							 &nat_default_format,
							 NAT_FORMAT_JSON,
							 format_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomEnumVariable("neon_ai_tools.empty_result_hints",
							 "Where a read that answered no rows finds existing values close to its filter's.",
							 "query: the column's statistics when the role may read them, else a bounded query as the role; stats: the statistics only; off: no hints.",
							 &nat_empty_hints,
							 NAT_EMPTY_HINTS_QUERY,
							 nat_empty_hints_options,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomEnumVariable("neon_ai_tools.confirmation",
							 "How destructive tool calls are confirmed.",
							 "flag: by arguments such as confirm_all_rows; token: also by a single-use confirmation_token that a dry run of the same call answers.",
							 &nat_confirmation,
							 NAT_CONFIRMATION_FLAG,
							 nat_confirmation_options,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.confirmation_timeout",
							"How long a confirmation token stays valid.",
							NULL,
							&nat_confirmation_timeout_ms,
							5 * 60 * 1000, 1000, 24 * 60 * 60 * 1000,
							PGC_SUSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);

	DefineCustomIntVariable("neon_ai_tools.confirmation_min_rows",
							"Rows an execute_sql call may change without a confirmation token.",
							"Only with neon_ai_tools.confirmation = token.",
							&nat_confirmation_min_rows,
							100, 0, INT_MAX,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);
}
