/*-------------------------------------------------------------------------
 *
 * guc_answer.c
 *		  The settings of the answer's form: format, continuation and
 *		  confirmation (README, "Settings").
 *
 * neon_ai_tools.default_format is user-settable: a format changes how rows
 * are written, never which.
 *
 * IDENTIFICATION
 *		  src/core/guc_answer.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "formats.h"
#include "neon_ai_tools.h"
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
}
