/*-------------------------------------------------------------------------
 *
 * answer.h
 *		  The answer: the envelope, rows in every format, and the error
 *		  answers with their hints.  Uses tools/ and below.
 *
 * Each layer's header includes the one below it (Makefile, NAT_LAYERS;
 * README, "Layout"), so a file sees its own layer's declarations and
 * those of the layers under it, never those above.
 *
 * IDENTIFICATION
 *		  src/answer/answer.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_ANSWER_H
#define NAT_ANSWER_H

#include "tools/tools.h"

/* ---- in answer/error_patterns.c: error text from any database (ai_error_info) ---- */

/*
 * What the message patterns make of an error text: the category, the code
 * and the names they found.  Lists are of char *; fields that do not apply
 * are NULL or NIL.
 */
typedef struct ErrorTextInfo
{
	ErrorCategory category;
	bool		known;			/* false: unknown_error, nothing recognized */
	char	   *error_code;		/* the code as given or found, or NULL */
	char	   *sqlstate;		/* the SQLSTATE given, found or implied */
	char	   *suggestion;		/* advice specific to what was found */
	char	   *generic_suggestion; /* the category's advice */
	List	   *suggested_actions;
	List	   *affected_resources;
	List	   *dependencies;
	char	   *constraint;
	char	   *column;
	char	   *hint;			/* a HINT line of the text */
} ErrorTextInfo;

/* bytes of an error text that are read (ai_error_info, message patterns) */
#define NAT_ERROR_TEXT_READ		16384

/*
 * How PostgreSQL's hint for a misspelt name begins ("Perhaps you meant to
 * reference the column ..."): such a hint is the best suggestion there is.
 */
#define NAT_DID_YOU_MEAN		"Perhaps you meant"
#define NAT_IS_DID_YOU_MEAN(hint) \
	(strncmp((hint), NAT_DID_YOU_MEAN, sizeof(NAT_DID_YOU_MEAN) - 1) == 0)

extern void nat_analyze_error_text(const char *message, int64 unread,
								   const char *code, const NatErrorKind *given_kind,
								   ErrorTextInfo *info);
extern char *nat_whole_words(const char *str, int64 unread);
extern char *nat_mask_secrets(const char *text);

/* ---- in answer/error_enrich.c: the seed fields of every error answer ---- */

/*
 * What is known about an error: its text and code, and for a live call
 * PostgreSQL's ErrorData (object names already clipped) or the
 * extension's own error (its category and fields).
 */
typedef struct ErrorFacts
{
	const char *message;		/* NULL: the text says nothing (our timeout) */
	int64		unread;			/* bytes of message left out */
	const char *code;			/* SQLSTATE or other code; NULL: find one */
	ToolError  *err;			/* the extension's own error, or NULL */
	ErrorData  *edata;			/* PostgreSQL's own error, or NULL */
	const char *hint;			/* edata's hint, if it may be shown */
	struct ToolCall *call;		/* the live call; NULL for ai_error_info */
} ErrorFacts;

/*
 * The seed fields: three suggestions by strength (the caller picks the
 * first it has, a live call may put its own advice between them).
 */
typedef struct ErrorEnrichment
{
	ErrorTextInfo text;			/* what the message patterns found: the
								 * category, codes, the pattern's advice */
	char	   *suggestion;		/* from the error's fields or the catalog */
	char	   *did_you_mean;	/* the one corrected name or value, or NULL */
	char	   *hint;			/* in place of the error's hint, or NULL */
	/* the names and steps of the error's fields and of the patterns */
	List	   *suggested_actions;
	List	   *affected_resources;
	List	   *dependencies;
} ErrorEnrichment;

extern void nat_enrich_error(const ErrorFacts *facts, ErrorEnrichment *en);

/* ---- in answer/statement_names.c: did-you-mean for a statement's names ---- */

extern void nat_suggest_statement_name(ErrorData *edata, struct ToolCall *call,
									   const char *missing_table,
									   ErrorEnrichment *en);

/* ---- in answer/constraint_errors.c, column_limits.c, privilege_errors.c ---- */

/* why a write failed, from the catalog and the statement (README, "Results") */
extern void nat_explain_constraint_error(ErrorData *edata, struct ToolCall *call,
										 ErrorEnrichment *en);
extern void nat_explain_column_limit_error(ErrorData *edata, struct ToolCall *call,
										   ErrorEnrichment *en);
extern void nat_explain_value_limit(ToolError *err, Oid typid, int32 typmod);
extern void nat_explain_privilege_error(ErrorData *edata, struct ToolCall *call,
										ErrorEnrichment *en);

extern char *nat_column_default(Oid relid, AttrNumber attnum);

/* ---- in answer/value_examples.c: valid values of a type ---- */

extern char *nat_value_examples(Oid typid, int32 typmod, bool sql);
extern char *nat_type_example(Oid typid, int32 typmod, bool sql);
extern List *nat_enum_labels(Oid enumtypid, int max, bool *more);

/* ---- in answer/value_near_miss.c: the value probably meant ---- */

/* up to two readings of a refused value, each one its type accepts */
typedef struct NearMiss
{
	int			count;
	char	   *values[2];
	const char *readings[2];	/* with two: what each assumes */
	const char *note;			/* a sentence about the value, or NULL */
	bool		use_null;		/* the text "null": JSON null was meant */
} NearMiss;

extern void nat_value_near_miss(Oid typid, int32 typmod, const char *given,
								NearMiss *nm);
extern bool nat_run_safely(void (*fn) (void *), void *arg);

/* ---- in answer/value_advice.c: answering a refused value ---- */

extern void nat_advise_conversion(ToolError *err, const ConversionFailure *failure);
extern bool nat_advise_value_error(struct ToolCall *call, ErrorData *edata,
								   char **suggestion, char **did_you_mean,
								   List **actions, char **hint);

/* in answer/row_sink.c */
extern DestReceiver *nat_row_sink_create(ToolCall *call, RowCaps caps,
										 int hidden, RowResult *result);
extern void nat_row_sink_close(DestReceiver *sink);

/* ---- in answer/response.c: the envelope ---- */
extern Jsonb *nat_error_info(const char *message, int64 unread,
							 const char *code, int64 code_unread);

extern void nat_response_begin(ToolCall *call);
extern Jsonb *nat_response_finish(ToolCall *call);
extern void nat_response_columns(ToolCall *call, ColumnOutput *cols, int ncols);
extern void nat_response_data_end(ToolCall *call, bool opened);
extern Jsonb *nat_error_response(ToolCall *call, ErrorData *edata,
								 ToolError *err);
extern char *nat_format_elapsed(instr_time start);

#endif							/* NAT_ANSWER_H */
