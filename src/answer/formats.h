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

#include "answer/answer.h"

extern int	nat_call_format(ToolCall *call);
extern void nat_format_text_header(int format, ColumnOutput *cols, int ncols,
								   StringInfo out);
extern bool nat_format_text_row(int format, ColumnOutput *cols, int ncols,
								Datum *values, bool *isnull, Size budget,
								StringInfo out, MemoryContext scratch,
								Size *size, const char **oversized);
extern void nat_format_text_end(ToolCall *call, int format, StringInfo out);

#endif							/* NAT_FORMATS_H */
