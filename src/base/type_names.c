/*-------------------------------------------------------------------------
 *
 * type_names.c
 *		  A per-backend cache of what the answer says of a column's type.
 *
 * Every answer that returns rows describes its columns: the type's name
 * with its modifier ("numeric(10,2)", "timestamp with time zone") and the
 * base type of a domain, which decides how values are rendered.  Both take
 * catalog lookups and string building per column per call, the same for
 * the same types at every call, so they are kept here per (type, typmod).
 *
 * A name is written schema-qualified when the type is not visible in the
 * search path, which depends on the role too ("$user", and only schemas it
 * has USAGE on count), so names are kept per role, and those of one
 * search_path and one setting of quote_all_identifiers: when either
 * differs from the last call's, the cache starts again.  pg_type changes (a type or domain created, altered, renamed or
 * dropped, and its OID reused) empty it through a syscache invalidation
 * callback, and so do pg_namespace changes.
 * It holds at most TYPE_CACHE_MAX entries (typmods are many: varchar(1)
 * to varchar(10485760)) and is emptied when full.  The callback can run
 * in the middle of a call, so callers copy the name they get.
 *
 * IDENTIFICATION
 *		  src/answer/type_names.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "base/base.h"
#include "storage/sinval.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#define TYPE_CACHE_MAX 512

typedef struct TypeKey
{
	Oid			typid;
	int32		typmod;
	Oid			userid;			/* the search path shows what the role may use */
} TypeKey;

typedef struct TypeEntry
{
	TypeKey		key;
	char	   *name;			/* format_type_with_typemod() */
	Oid			basetype;		/* getBaseType() */
} TypeEntry;

static const NatSysCacheId type_cache_syscaches[] = {TYPEOID, NAMESPACEOID};

static NatLocalCache type_cache = {
	.name = "neon_ai_tools type names",
	.keysize = sizeof(TypeKey),
	.entrysize = sizeof(TypeEntry),
	.max_entries = TYPE_CACHE_MAX,
	.syscaches = type_cache_syscaches,
	.nsyscaches = lengthof(type_cache_syscaches),
};

/*
 * The name of the type with its modifier, allocated in the current memory
 * context, and its base type (the type itself unless it is a domain).
 */
char *
nat_type_name(Oid typid, int32 typmod, Oid *basetype)
{
	HTAB	   *hash = nat_local_cache_find(&type_cache);
	TypeKey		key;
	TypeEntry  *entry;
	char	   *name;
	char	   *copy;
	uint64		inval_count;
	bool		found;

	memset(&key, 0, sizeof(key));
	key.typid = typid;
	key.typmod = typmod;
	key.userid = GetUserId();
	if (hash != NULL)
	{
		entry = hash_search(hash, &key, HASH_FIND, NULL);
		if (entry != NULL)
		{
			*basetype = entry->basetype;
			return pstrdup(entry->name);
		}
	}

	/*
	 * The lookups may read invalidations: what they found is kept only if
	 * none arrived (one could have changed the type after it was read).
	 */
	inval_count = SharedInvalidMessageCounter;
	name = format_type_with_typemod(typid, typmod);
	*basetype = getBaseType(typid);
	if (SharedInvalidMessageCounter != inval_count)
		return name;

	hash = nat_local_cache_for_insert(&type_cache);
	copy = MemoryContextStrdup(type_cache.cxt, name);
	entry = hash_search(hash, &key, HASH_ENTER, &found);
	entry->name = copy;
	entry->basetype = *basetype;
	if (!found)
		type_cache.entries++;
	return name;
}
