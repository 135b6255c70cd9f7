/*-------------------------------------------------------------------------
 *
 * jsonb_keys.c
 *		  Walking the members of one jsonb object.
 *
 * Arguments, options and filters are jsonb objects read key by key.  The
 * walk is PostgreSQL's iterator with skipNested: each member comes as its
 * key (pointing into the container, not NUL-terminated, valid as long as
 * the container is) and its value, a nested object or array as one
 * jbvBinary value, never its own tokens.  An array or a scalar has no
 * keys: its walk ends at once.  Keys come in jsonb's order (shorter keys
 * first, then bytewise), not the order they were written in.
 *
 *		NatJsonbKeys keys;
 *		const char *key;
 *		int			keylen;
 *		JsonbValue	v;
 *
 *		nat_jsonb_keys_begin(&keys, container);
 *		while (nat_jsonb_next_key(&keys, &key, &keylen, &v))
 *			if (NAT_KEY_IS(key, keylen, "column")) ...
 *
 * A loop rather than a callback, so that a member's handling stays in the
 * function it belongs to, with its locals, and may stop the walk with
 * break or return (the iterator's remaining state is memory of the
 * current context, freed with it).
 *
 * IDENTIFICATION
 *		  src/base/jsonb_keys.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "base/base.h"

/*
 * Start a walk over the members of object.
 */
void
nat_jsonb_keys_begin(NatJsonbKeys *keys, JsonbContainer *object)
{
	keys->it = JsonbIteratorInit(object);
}

/*
 * The next member: its key in *key and *keylen, its value in *value.
 * False when there is none left.  Objects can be large and come from the
 * agent: each member is a point where the call can be cancelled.
 */
bool
nat_jsonb_next_key(NatJsonbKeys *keys, const char **key, int *keylen,
				   JsonbValue *value)
{
	JsonbIteratorToken tok;

	while ((tok = JsonbIteratorNext(&keys->it, value, true)) != WJB_DONE)
	{
		CHECK_FOR_INTERRUPTS();
		if (tok != WJB_KEY)
			continue;
		*key = value->val.string.val;
		*keylen = value->val.string.len;
		tok = JsonbIteratorNext(&keys->it, value, true);
		Assert(tok == WJB_VALUE);
		return true;
	}
	return false;
}
