/*-------------------------------------------------------------------------
 *
 * formats.h
 *		  The answer's row formats (answer/formats.c).
 *
 * IDENTIFICATION
 *		  src/formats.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_FORMATS_H
#define NAT_FORMATS_H

#include "neon_ai_tools.h"

/* the indexes of nat_answer_format_names */
typedef enum NatAnswerFormat
{
	NAT_FORMAT_JSON,
	NAT_FORMAT_COLUMNAR,
	NAT_FORMAT_CSV,
	NAT_FORMAT_MARKDOWN
} NatAnswerFormat;

#define NAT_FORMAT_IS_TEXT(f) ((f) == NAT_FORMAT_CSV || (f) == NAT_FORMAT_MARKDOWN)

extern const char *const nat_answer_format_names[];
extern int	nat_default_format;

extern int	nat_call_format(ToolCall *call);
extern void nat_format_text_header(int format, ColumnOutput *cols, int ncols,
								   StringInfo out);
extern bool nat_format_text_row(int format, ColumnOutput *cols, int ncols,
								Datum *values, bool *isnull, Size budget,
								StringInfo out, MemoryContext scratch,
								Size *size, const char **oversized);
extern void nat_format_text_end(ToolCall *call, int format, StringInfo out);

#endif							/* NAT_FORMATS_H */
