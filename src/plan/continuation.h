/*-------------------------------------------------------------------------
 *
 * continuation.h
 *		  "next": exact continuation of a truncated answer
 *		  (core/continuation.c).
 *
 * IDENTIFICATION
 *		  src/continuation.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_CONTINUATION_H
#define NAT_CONTINUATION_H

#include "plan/plan.h"

/* one key of a sort order */
typedef struct NatSortKey
{
	AttrNumber	attnum;
	bool		desc;
	bool		nulls_first;	/* resolved: NULLS FIRST is DESC's default */
	bool		nulls_given;	/* written out in ORDER BY */
} NatSortKey;

#define NAT_CONT_NONE	'\0'
#define NAT_CONT_KEYSET 'k'
#define NAT_CONT_OFFSET 'o'

/*
 * A call that can be continued (its tool takes "next"): what its token
 * said, and how this page continues.
 */
typedef struct NatContinuation
{
	/* from the call's "next" token */
	bool		given;
	char		given_mode;
	int64		given_offset;
	int			nvalues;
	char	  **values;			/* keyset: the last row's keys as text, NULL
								 * for a null */

	/* this page, from the planner */
	char		mode;			/* NAT_CONT_*: how its next token continues */
	Oid			relid;
	int			nkeys;			/* keyset: hidden key columns ending each row */
	NatSortKey *keys;
	int64		base;			/* offset: rows before this page */
	int64		skip;			/* rows the row sink discards first */

	const char *note;			/* a sentence for the warning of a truncated
								 * answer: why the order, or why no next */

	/* from the row sink */
	bool		query;			/* a query's rows were streamed */
	bool		have_last;
	Datum	   *last;			/* the last returned row's keys */
	bool	   *last_null;
} NatContinuation;

extern void nat_continuation_begin(ToolCall *call);
extern char nat_continuation_order(ToolCall *call, Oid relid, List **keys);
extern void nat_continuation_statement(ToolCall *call, Query *query);
extern void nat_continuation_after(StringInfo buf, ToolCall *call,
								   QueryParams *params);
extern char *nat_continuation_next(ToolCall *call, RowResult *rows);
extern const char *nat_continuation_offset_warning(ToolCall *call);

#endif							/* NAT_CONTINUATION_H */
