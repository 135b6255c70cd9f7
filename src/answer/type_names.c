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

#include "catalog/namespace.h"
#include "miscadmin.h"
#include "neon_ai_tools.h"
#include "storage/sinval.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
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

static MemoryContext type_cache_cxt = NULL;
static HTAB *type_cache = NULL;
static int	type_cache_entries = 0;

/* the search_path and quoting the names were written for */
static char *type_cache_path = NULL;
static bool type_cache_quote_all = false;

/* an invalidation callback: it may run at any time, so it only drops memory */
static void
type_cache_reset(Datum arg, NatSysCacheId cacheid, uint32 hashvalue)
{
	if (type_cache_cxt != NULL)
		MemoryContextReset(type_cache_cxt);
	type_cache = NULL;
	type_cache_entries = 0;
	type_cache_path = NULL;
}

static const char *
current_search_path(void)
{
	return namespace_search_path ? namespace_search_path : "";
}

static void
type_cache_init(void)
{
	HASHCTL		ctl;

	if (type_cache_cxt == NULL)
	{
		type_cache_cxt = AllocSetContextCreate(TopMemoryContext,
											   "neon_ai_tools type names",
											   ALLOCSET_SMALL_SIZES);
		CacheRegisterSyscacheCallback(TYPEOID, type_cache_reset, (Datum) 0);
		CacheRegisterSyscacheCallback(NAMESPACEOID, type_cache_reset, (Datum) 0);
	}
	ctl.keysize = sizeof(TypeKey);
	ctl.entrysize = sizeof(TypeEntry);
	ctl.hcxt = type_cache_cxt;
	type_cache = hash_create("neon_ai_tools type names", 64, &ctl,
							 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	type_cache_path = MemoryContextStrdup(type_cache_cxt, current_search_path());
	type_cache_quote_all = quote_all_identifiers;
}

/*
 * The name of the type with its modifier, allocated in the current memory
 * context, and its base type (the type itself unless it is a domain).
 */
char *
nat_type_name(Oid typid, int32 typmod, Oid *basetype)
{
	TypeKey		key;
	TypeEntry  *entry;
	char	   *name;
	uint64		inval_count;
	bool		found;

	memset(&key, 0, sizeof(key));
	key.typid = typid;
	key.typmod = typmod;
	key.userid = GetUserId();
	if (type_cache != NULL &&
		(type_cache_quote_all != quote_all_identifiers ||
		 strcmp(type_cache_path, current_search_path()) != 0))
		type_cache_reset((Datum) 0, (NatSysCacheId) 0, 0);
	if (type_cache != NULL)
	{
		entry = hash_search(type_cache, &key, HASH_FIND, NULL);
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

	if (type_cache == NULL || type_cache_entries >= TYPE_CACHE_MAX)
	{
		type_cache_reset((Datum) 0, (NatSysCacheId) 0, 0);
		type_cache_init();
	}
	{
		char	   *copy = MemoryContextStrdup(type_cache_cxt, name);

		entry = hash_search(type_cache, &key, HASH_ENTER, &found);
		entry->name = copy;
		entry->basetype = *basetype;
		if (!found)
			type_cache_entries++;
	}
	return name;
}
