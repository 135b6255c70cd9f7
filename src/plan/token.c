/*-------------------------------------------------------------------------
 *
 * token.c
 *		  Tokens an agent carries between calls and cannot forge:
 *		  continuation (next) and confirmation tokens (README, "Tokens").
 *
 * A token is base64url(payload) "." base64url(HMAC-SHA-256), and the MAC
 * covers the token's purpose, its binding (the tool, the role, the
 * arguments that decide what the call does) and the payload.  So a token
 * is accepted only by the same call of the same role, in the same
 * database; its payload is readable by the agent (it is not secret, only
 * unforgeable) and never holds more than the agent may see.
 *
 * The key is the database's own: 32 random bytes (gen_random_uuid(),
 * pg_strong_random() underneath) that CREATE EXTENSION stores in the table
 * ai_tool_secret.  Nobody but its owner is granted anything on it; the
 * extension reads it here with a plain heap scan, as the server does for
 * its own catalogs, so an agent's role never needs (and never has) the
 * right to read it.  Re-creating the extension makes a new key: the old
 * tokens stop working.  The HMAC is PostgreSQL's own (common/hmac.h, on
 * OpenSSL or its built-in SHA-256).
 *
 * IDENTIFICATION
 *		  src/core/token.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_extension.h"
#include "commands/extension.h"
#include "common/hmac.h"
#include "common/sha2.h"
#include "miscadmin.h"
#include "plan/plan.h"
#include "plan/token.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#define SECRET_TABLE	"ai_tool_secret"
#define SECRET_BYTES	32

static const char b64url[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/*
 * base64url without padding.
 */
static char *
b64url_encode(const uint8 *data, int len)
{
	StringInfoData out;
	int			i;

	initStringInfo(&out);
	for (i = 0; i < len; i += 3)
	{
		uint32		v = (uint32) data[i] << 16;
		int			n = Min(3, len - i);

		if (n > 1)
			v |= (uint32) data[i + 1] << 8;
		if (n > 2)
			v |= data[i + 2];
		appendStringInfoChar(&out, b64url[(v >> 18) & 63]);
		appendStringInfoChar(&out, b64url[(v >> 12) & 63]);
		if (n > 1)
			appendStringInfoChar(&out, b64url[(v >> 6) & 63]);
		if (n > 2)
			appendStringInfoChar(&out, b64url[v & 63]);
	}
	return out.data;
}

/*
 * Decode base64url without padding; NULL if it is not.
 */
static uint8 *
b64url_decode(const char *s, int len, int *outlen)
{
	uint8	   *out = palloc(len * 3 / 4 + 3);
	uint32		v = 0;
	int			bits = 0;
	int			n = 0;
	int			i;

	for (i = 0; i < len; i++)
	{
		const char *p = s[i] ? strchr(b64url, s[i]) : NULL;

		if (p == NULL)
			return NULL;
		v = (v << 6) | (uint32) (p - b64url);
		bits += 6;
		if (bits >= 8)
		{
			bits -= 8;
			out[n++] = (uint8) ((v >> bits) & 0xFF);
		}
	}
	/* leftover bits must be zero, and one leftover character is no byte */
	if (bits >= 6 || (v & ((1 << bits) - 1)) != 0)
		return NULL;
	*outlen = n;
	return out;
}

/*
 * The OID of the extension's schema, by its pg_extension row.
 */
Oid
nat_extension_schema(void)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	Oid			nspid = InvalidOid;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum("neon_ai_tools"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
		nspid = ((Form_pg_extension) GETSTRUCT(tup))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return nspid;
}

/*
 * The database's key, read past the privileges (see above).  It is missing
 * where the extension is still at 0.1, whose script had no key table: the
 * library of a later version was installed, ALTER EXTENSION ... UPDATE not
 * yet run.
 */
static void
read_secret(uint8 *secret)
{
	Oid			nspid = nat_extension_schema();
	Oid			relid = OidIsValid(nspid) ? get_relname_relid(SECRET_TABLE, nspid) : InvalidOid;
	Relation	rel;
	SysScanDesc scan;
	HeapTuple	tup;
	bool		found = false;

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the neon_ai_tools token key is missing"),
				 errhint("Update the extension: ALTER EXTENSION neon_ai_tools UPDATE; if it is already at its current version, re-create it.")));
	/* a plain heap scan (no index), on the statement's snapshot */
	rel = table_open(relid, AccessShareLock);
	scan = systable_beginscan(rel, InvalidOid, false, GetActiveSnapshot(), 0, NULL);
	while (!found && HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, 1, RelationGetDescr(rel), &isnull);
		bytea	   *b;

		if (isnull)
			continue;
		b = DatumGetByteaPP(d);
		if (VARSIZE_ANY_EXHDR(b) != SECRET_BYTES)
			continue;
		memcpy(secret, VARDATA_ANY(b), SECRET_BYTES);
		found = true;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the neon_ai_tools token key is missing"),
				 errhint("Update the extension: ALTER EXTENSION neon_ai_tools UPDATE; if it is already at its current version, re-create it.")));
}

/*
 * HMAC-SHA-256 of purpose, binding and payload, each followed by a zero
 * byte, so that no two triples share an input.
 */
static void
compute_mac(const char *purpose, const char *binding, const char *payload,
			int payload_len, uint8 *mac)
{
	uint8		secret[SECRET_BYTES];
	pg_hmac_ctx *ctx;
	static const uint8 zero = 0;

	read_secret(secret);
	ctx = pg_hmac_create(PG_SHA256);
	if (ctx == NULL ||
		pg_hmac_init(ctx, secret, SECRET_BYTES) < 0 ||
		pg_hmac_update(ctx, (const uint8 *) purpose, strlen(purpose)) < 0 ||
		pg_hmac_update(ctx, &zero, 1) < 0 ||
		pg_hmac_update(ctx, (const uint8 *) binding, strlen(binding)) < 0 ||
		pg_hmac_update(ctx, &zero, 1) < 0 ||
		pg_hmac_update(ctx, (const uint8 *) payload, payload_len) < 0 ||
		pg_hmac_final(ctx, mac, PG_SHA256_DIGEST_LENGTH) < 0)
	{
		explicit_bzero(secret, sizeof(secret));
		if (ctx)
			pg_hmac_free(ctx);
		elog(ERROR, "could not compute a token's HMAC");
	}
	pg_hmac_free(ctx);
	explicit_bzero(secret, sizeof(secret));
}

/*
 * The token for payload, bound to purpose and binding.
 */
char *
nat_token_sign(const char *purpose, const char *binding, const char *payload)
{
	uint8		mac[PG_SHA256_DIGEST_LENGTH];

	compute_mac(purpose, binding, payload, strlen(payload), mac);
	return psprintf("%s.%s",
					b64url_encode((const uint8 *) payload, strlen(payload)),
					b64url_encode(mac, sizeof(mac)));
}

/*
 * The payload of a token made by nat_token_sign() for the same purpose and
 * binding, or NULL for anything else (forged, altered, another call's).
 * The MACs are compared in constant time.
 */
char *
nat_token_verify(const char *purpose, const char *binding, const char *token)
{
	const char *dot = strchr(token, '.');
	uint8	   *payload;
	uint8	   *given;
	int			payload_len;
	int			given_len;
	uint8		mac[PG_SHA256_DIGEST_LENGTH];
	uint8		diff = 0;
	int			i;

	if (dot == NULL ||
		(payload = b64url_decode(token, dot - token, &payload_len)) == NULL ||
		(given = b64url_decode(dot + 1, strlen(dot + 1), &given_len)) == NULL ||
		given_len != PG_SHA256_DIGEST_LENGTH ||
		memchr(payload, '\0', payload_len) != NULL)
		return NULL;
	compute_mac(purpose, binding, (const char *) payload, payload_len, mac);
	for (i = 0; i < PG_SHA256_DIGEST_LENGTH; i++)
		diff |= mac[i] ^ given[i];
	if (diff != 0)
		return NULL;
	return pnstrdup((const char *) payload, payload_len);
}

/*
 * What a token of this call is bound to: the tool, the current role, and
 * the call's normalized arguments without the keys in ignore (the token's
 * own argument, and those that change only how the answer is written).
 * jsonb keeps object keys in one order, so equal arguments give equal text.
 */
char *
nat_token_binding(ToolCall *call, const char *const *ignore)
{
	NatJsonb	state = {0};
	NatJsonbKeys keys;
	const char *key;
	int			keylen;
	JsonbValue	v;
	JsonbValue *result;
	Jsonb	   *kept;

	/* the arguments are an object: keys and values, nested ones whole */
	nat_jsonb_push(&state, WJB_BEGIN_OBJECT, NULL);
	nat_jsonb_keys_begin(&keys, &call->args->root);
	while (nat_jsonb_next_key(&keys, &key, &keylen, &v))
	{
		bool		skip = false;
		int			i;

		for (i = 0; ignore[i]; i++)
			if (keylen == strlen(ignore[i]) &&
				strncmp(key, ignore[i], keylen) == 0)
				skip = true;
		if (skip)
			continue;
		nat_push_key_len(&state, key, keylen);
		nat_jsonb_push(&state, WJB_VALUE, &v);
	}
	result = nat_jsonb_push(&state, WJB_END_OBJECT, NULL);
	kept = JsonbValueToJsonb(result);
	return psprintf("%s\n%u\n%s", call->tool->name, GetUserId(),
					JsonbToCString(NULL, &kept->root, VARSIZE(kept)));
}
