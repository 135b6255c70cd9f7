/*-------------------------------------------------------------------------
 *
 * confirmation.c
 *		  Confirmation tokens for destructive calls (README,
 *		  "Confirmation tokens").
 *
 * With neon_ai_tools.confirmation = token, a destructive call (update or
 * delete of every row, truncate, drop, an execute_sql change of more rows
 * than neon_ai_tools.confirmation_min_rows) first runs as a dry run: the
 * call's work is done in its subtransaction, measured, and rolled back, and
 * the answer is confirmation_required with the exact effect (affectedRows,
 * the objects) and a confirmation_token.  Only the same call, by the same
 * role, with that token runs for real, once, before the token expires
 * (neon_ai_tools.confirmation_timeout), and only if its effect is still
 * the same number of rows.  A flag such as confirm_all_rows can be set by a
 * model on its own; a token can only be copied from an answer, which a
 * client can hold back and turn into a question to its user.
 *
 * The token is signed like "next" (token.c), bound to the tool, the role
 * and the arguments other than confirmation_token, format and timeout_ms;
 * its payload holds its expiry, a random nonce and the row count.  Single
 * use: the nonce goes into the table ai_tool_confirmation_used, in the
 * call's own subtransaction, so it is used up exactly when the change is
 * kept (a failed call leaves it unused), and a second session presenting
 * the same token waits on the unique index and then finds it taken.  The
 * table, like the key, is granted to nobody: the insert runs as its owner.
 *
 * IDENTIFICATION
 *		  src/core/confirmation.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "run/run.h"
#include "plan/token.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#define CONFIRM_PURPOSE "confirm"
#define USED_TABLE "ai_tool_confirmation_used"

int			nat_confirmation = NAT_CONFIRMATION_FLAG;
int			nat_confirmation_timeout_ms = 5 * 60 * 1000;
int			nat_confirmation_min_rows = 100;

/* the arguments a confirmation token is not bound to */
static const char *const binding_ignore[] = {
	"confirmation_token", "format", "timeout_ms", NULL
};

/*
 * Is this call destructive enough to need a token?  affected: the rows it
 * changed (a dry run so far).
 */
static bool
needs_confirmation(ToolCall *call, int64 affected)
{
	const char *tool = call->tool->name;

	if ((strcmp(tool, "update_data") == 0 || strcmp(tool, "delete_data") == 0) &&
		(NAT_COMMON(call)->where == NULL ||
		 call->operation == NAT_OP_TRUNCATE ||
		 call->operation == NAT_OP_DROP))
		return true;

	/*
	 * Rows changed at every level (write_count.c): execute_sql and custom
	 * tools, all of them; insert_data, update_data and delete_data with a
	 * filter change the rows they were asked to freely, and need a token when
	 * their cascades, triggers and rules change more than
	 * confirmation_min_rows besides.
	 */
	if ((strcmp(tool, "insert_data") == 0 || strcmp(tool, "update_data") == 0 ||
		 strcmp(tool, "delete_data") == 0) && call->statement_own > 0)
		affected -= call->statement_own;
	return affected > nat_confirmation_min_rows;
}

/*
 * Use up the token's nonce; false if it was used already.  Runs as the
 * table's owner (see above), removing expired nonces on the way.
 */
static bool
consume_nonce(const char *nonce, TimestampTz expires)
{
	Oid			nspid = nat_extension_schema();
	Oid			relid = OidIsValid(nspid) ? get_relname_relid(USED_TABLE, nspid) : InvalidOid;
	HeapTuple	tup;
	Oid			owner;
	Oid			save_userid;
	int			save_sec_context;
	Oid			types[2] = {TEXTOID, TIMESTAMPTZOID};
	Datum		values[2];
	volatile bool used = false;
	char	   *sql;

	if (!OidIsValid(relid))
		elog(ERROR, "table %s of neon_ai_tools is missing", USED_TABLE);
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);

	sql = psprintf("WITH gone AS (DELETE FROM %s.%s WHERE expires_at OPERATOR(pg_catalog.<) pg_catalog.now()) "
				   "INSERT INTO %s.%s (nonce, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
				   quote_identifier(get_namespace_name(nspid)), USED_TABLE,
				   quote_identifier(get_namespace_name(nspid)), USED_TABLE);
	values[0] = CStringGetTextDatum(nonce);
	values[1] = TimestampTzGetDatum(expires);

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	/* the call's own bookkeeping: not the agent's rows (write_count.c) */
	nat_writes_pause();
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (SPI_execute_with_args(sql, 2, types, values, NULL, false, 0) != SPI_OK_INSERT)
			elog(ERROR, "could not record a used confirmation token");
		used = SPI_processed == 0;
		SPI_finish();
	}
	PG_FINALLY();
	{
		nat_writes_resume();
		SetUserIdAndSecContext(save_userid, save_sec_context);
	}
	PG_END_TRY();
	return !used;
}

/*
 * A new token for this call's effect.
 */
static char *
make_token(ToolCall *call, int64 affected, TimestampTz *expires)
{
	uint8		nonce[16];
	char		hex[33];
	int			i;

	if (!pg_strong_random(nonce, sizeof(nonce)))
		elog(ERROR, "could not generate a random confirmation nonce");
	for (i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", nonce[i]);
	*expires = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
										   nat_confirmation_timeout_ms);
	return nat_token_sign(CONFIRM_PURPOSE, nat_token_binding(call, binding_ignore),
						  psprintf("{\"e\":" INT64_FORMAT ",\"n\":\"%s\",\"a\":" INT64_FORMAT "}",
								   (int64) *expires, hex, affected));
}

/*
 * Check the call's token: NULL if it confirms this call (and is now used
 * up), else why not.
 */
static const char *
check_token(ToolCall *call, const char *token, int64 affected)
{
	char	   *payload = nat_token_verify(CONFIRM_PURPOSE,
										   nat_token_binding(call, binding_ignore),
										   token);
	Jsonb	   *jb;
	JsonbValue *v;
	TimestampTz expires;
	int64		confirmed;

	if (payload == NULL)
		return "it was not made for this call (the same tool, arguments and role)";
	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(payload)));
	v = NAT_JSONB_MEMBER(&jb->root, "e");
	expires = DatumGetInt64(DirectFunctionCall1(numeric_int8, NumericGetDatum(v->val.numeric)));
	v = NAT_JSONB_MEMBER(&jb->root, "a");
	confirmed = DatumGetInt64(DirectFunctionCall1(numeric_int8, NumericGetDatum(v->val.numeric)));
	if (GetCurrentTimestamp() > expires)
		return "it has expired";
	if (confirmed != affected)
		return psprintf("it confirmed " INT64_FORMAT " rows, and the call now affects " INT64_FORMAT,
						confirmed, affected);
	v = NAT_JSONB_MEMBER(&jb->root, "n");
	if (!consume_nonce(pnstrdup(v->val.string.val, v->val.string.len), expires))
		return "it was already used";
	return NULL;
}

/*
 * What the call would do, in words.
 */
static char *
effect_text(ToolCall *call, int64 affected)
{
	NatOperation op = call->operation;

	if (op == NAT_OP_DROP)
		return psprintf("drop would remove %s (" INT64_FORMAT " rows)", call->table, affected);
	if (op == NAT_OP_TRUNCATE)
		return psprintf("truncate would remove every row of %s (" INT64_FORMAT " rows)",
						call->table, affected);
	if (op == NAT_OP_DELETE || op == NAT_OP_UPDATE)
		return psprintf("%s would %s every row of %s (" INT64_FORMAT " rows)",
						nat_operation_names[op],
						op == NAT_OP_DELETE ? "remove" : "change", call->table, affected);
	return psprintf("the statement would change " INT64_FORMAT " rows, more than neon_ai_tools.confirmation_min_rows (%d)",
					affected, nat_confirmation_min_rows);
}

/*
 * At the end of a call that ran (its changes not yet kept): with
 * confirmation = token, a destructive call without a valid token is
 * rolled back and answered confirmation_required, with a new token.
 */
void
nat_confirmation_check(ToolCall *call, int64 affected)
{
	const char *token = NAT_COMMON(call)->confirmation_token;
	const char *refused = NULL;
	ToolError  *err;
	TimestampTz expires;

	if (nat_confirmation != NAT_CONFIRMATION_TOKEN || call->dry_run ||
		call->plan_only || !needs_confirmation(call, Max(affected, 0)))
		return;
	affected = Max(affected, 0);
	if (token != NULL && (refused = check_token(call, token, affected)) == NULL)
		return;

	err = nat_error(NAT_ERR_CONFIRMATION_REQUIRED,
					"%s; nothing was changed: this call needs the confirmation_token of this answer%s%s",
					effect_text(call, affected),
					refused ? " (the confirmation_token given was refused: " : "",
					refused ? psprintf("%s)", refused) : "");
	err->confirmation_token = make_token(call, affected, &expires);
	err->has_affected = true;
	err->affected = affected;
	err->suggestion = psprintf("Show the user what this call would do (affectedRows, affected_resources) and ask them to confirm; only if they do, repeat the same call with \"confirmation_token\" set to this answer's confirmation_token, within %d seconds. It works once.",
							   nat_confirmation_timeout_ms / 1000);
	err->suggested_actions = list_make1(pstrdup(call->operation == NAT_OP_DROP ||
												call->operation == NAT_OP_TRUNCATE ?
												"To remove only some rows, use mode \"delete\" with a where filter." :
												"If not every row should change, narrow the call with a filter."));
	if (call->table)
		err->affected_resources = list_make1(pstrdup(call->table));
	nat_throw(err);
}
