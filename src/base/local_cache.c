/*-------------------------------------------------------------------------
 *
 * local_cache.c
 *		  Per-backend caches of catalog answers, emptied by invalidations.
 *
 * The table-name cache (sql/table_cache.c) and the column type-name cache
 * (answer/type_names.c) keep what catalog lookups answered, per backend.
 * Both need the same frame, kept here: a memory context of their own, a
 * hash table in it, syscache invalidation callbacks that empty it (they
 * may run at any time, so emptying only drops memory, which nothing
 * outside the cache points into), a bound on the entries (a full cache is
 * emptied before a new entry goes in), and the search_path and setting of
 * quote_all_identifiers its answers were worked out under: when either
 * differs, the cache starts again.  Each cache keeps its entries' strings
 * in the cache's context.
 *
 * IDENTIFICATION
 *		  src/core/local_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "base/base.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/memutils.h"

static const char *
current_search_path(void)
{
	return namespace_search_path ? namespace_search_path : "";
}

/*
 * Empty the cache.
 */
void
nat_local_cache_reset(NatLocalCache *cache)
{
	if (cache->cxt != NULL)
		MemoryContextReset(cache->cxt);
	cache->hash = NULL;
	cache->entries = 0;
	cache->search_path = NULL;
}

/* the invalidation callback: arg is the cache */
static void
local_cache_invalidated(Datum arg, NatSysCacheId cacheid, uint32 hashvalue)
{
	nat_local_cache_reset((NatLocalCache *) DatumGetPointer(arg));
}

/*
 * The cache's hash table, if it holds answers worked out under the
 * search_path and quoting in force; NULL (and the cache emptied) if not.
 */
HTAB *
nat_local_cache_find(NatLocalCache *cache)
{
	if (cache->hash == NULL)
		return NULL;
	if (cache->quote_all == quote_all_identifiers &&
		strcmp(cache->search_path, current_search_path()) == 0)
		return cache->hash;
	nat_local_cache_reset(cache);
	return NULL;
}

/*
 * The cache's hash table, ready for one more entry: made (and the callbacks
 * registered) on first use, started again when it was worked out under
 * another search_path or quoting, or when it is full.
 */
HTAB *
nat_local_cache_for_insert(NatLocalCache *cache)
{
	HASHCTL		ctl;
	int			i;

	if (nat_local_cache_find(cache) != NULL && cache->entries < cache->max_entries)
		return cache->hash;
	if (cache->cxt == NULL)
	{
		cache->cxt = AllocSetContextCreate(TopMemoryContext,
										   "neon_ai_tools catalog cache",
										   ALLOCSET_SMALL_SIZES);
		MemoryContextSetIdentifier(cache->cxt, cache->name);
		for (i = 0; i < cache->nsyscaches; i++)
			CacheRegisterSyscacheCallback(cache->syscaches[i],
										  local_cache_invalidated,
										  PointerGetDatum(cache));
	}
	nat_local_cache_reset(cache);
	ctl.keysize = cache->keysize;
	ctl.entrysize = cache->entrysize;
	ctl.hcxt = cache->cxt;
	cache->hash = hash_create(cache->name, 64, &ctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	cache->search_path = MemoryContextStrdup(cache->cxt, current_search_path());
	cache->quote_all = quote_all_identifiers;
	return cache->hash;
}
