/*-------------------------------------------------------------------------
 *
 * plan_cache.c
 *		  A per-backend cache of prepared plans for the SQL tools run.
 *
 * Tool calls of the same shape generate the same SQL text with the same
 * parameter types ("SELECT ... WHERE (id OPERATOR(pg_catalog.=) $1) LIMIT
 * $2"), so their plans are prepared once (parallel plans allowed: rows
 * are read to the end or stopped like a LIMIT, see row_sink.c), kept with
 * SPI_keepplan, and reused: repeated calls skip parsing, analysis and
 * planning.  The cache is a bounded LRU keyed by the SQL text and the
 * parameter type OIDs (neon_ai_tools.plan_cache_size entries; 0 disables
 * it); an evicted plan is freed.
 *
 * Correctness across schema changes, search_path changes and role changes
 * is PostgreSQL's plan cache's: a kept plan is revalidated on every use,
 * re-analysed from its source text when a relation, type or function it
 * depends on changed, when the search_path differs from the one it was
 * analysed with, or when row-level security makes it depend on the role;
 * privileges are checked when the plan is executed.  Generated SQL is
 * fully schema-qualified, so re-analysis cannot change what it means.
 *
 * IDENTIFICATION
 *		  src/plan_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "executor/spi.h"
#include "lib/ilist.h"
#include "neon_ai_tools.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

int			nat_plan_cache_size = 256;

typedef struct PlanCacheKey
{
	uint64		hash;			/* of the text and the parameter types */
} PlanCacheKey;

typedef struct PlanCacheEntry
{
	PlanCacheKey key;
	char	   *sql;			/* to tell hash collisions apart */
	int			nargs;
	Oid		   *types;
	SPIPlanPtr	plan;			/* kept: lives in CacheMemoryContext */
	dlist_node	lru;			/* most recently used at the head */
} PlanCacheEntry;

static HTAB *plan_cache = NULL;
static MemoryContext plan_cache_cxt = NULL;
static dlist_head plan_cache_lru = DLIST_STATIC_INIT(plan_cache_lru);
static int	plan_cache_entries = 0;

static uint64
plan_key_hash(const char *sql, int nargs, const Oid *types)
{
	uint64		h = hash_bytes_extended((const unsigned char *) sql, strlen(sql), 0);

	if (nargs > 0)
		h = hash_bytes_extended((const unsigned char *) types,
								nargs * sizeof(Oid), h);
	return h;
}

static void
plan_cache_init(void)
{
	HASHCTL		ctl;

	plan_cache_cxt = AllocSetContextCreate(TopMemoryContext,
										   "neon_ai_tools plan cache",
										   ALLOCSET_SMALL_SIZES);
	ctl.keysize = sizeof(PlanCacheKey);
	ctl.entrysize = sizeof(PlanCacheEntry);
	ctl.hcxt = plan_cache_cxt;
	plan_cache = hash_create("neon_ai_tools plan cache", 64, &ctl,
							 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/*
 * Forget an entry and free its plan.
 */
static void
plan_cache_remove(PlanCacheEntry *entry)
{
	dlist_delete(&entry->lru);
	SPI_freeplan(entry->plan);
	pfree(entry->sql);
	if (entry->types)
		pfree(entry->types);
	hash_search(plan_cache, &entry->key, HASH_REMOVE, NULL);
	plan_cache_entries--;
}

/*
 * A prepared plan for sql with these parameter types: from the cache when
 * it has one, otherwise prepared now (and kept, if the cache is on).  SPI
 * must be connected.  A plan that is not cached belongs to the current SPI
 * procedure and is freed with it.
 */
SPIPlanPtr
nat_prepare_cached(const char *sql, int nargs, Oid *types)
{
	PlanCacheKey key;
	PlanCacheEntry *entry;
	SPIPlanPtr	plan;
	bool		found;
	MemoryContext old;

	if (nat_plan_cache_size <= 0)
		return SPI_prepare_cursor(sql, nargs, types, CURSOR_OPT_PARALLEL_OK);
	if (plan_cache == NULL)
		plan_cache_init();

	key.hash = plan_key_hash(sql, nargs, types);
	entry = hash_search(plan_cache, &key, HASH_FIND, NULL);
	if (entry != NULL)
	{
		if (entry->nargs == nargs && strcmp(entry->sql, sql) == 0 &&
			(nargs == 0 || memcmp(entry->types, types, nargs * sizeof(Oid)) == 0))
		{
			dlist_move_head(&plan_cache_lru, &entry->lru);
			return entry->plan;
		}
		/* a different statement with the same hash: do not cache it */
		return SPI_prepare_cursor(sql, nargs, types, CURSOR_OPT_PARALLEL_OK);
	}

	plan = SPI_prepare_cursor(sql, nargs, types, CURSOR_OPT_PARALLEL_OK);
	if (plan == NULL)
		return NULL;
	if (SPI_keepplan(plan) != 0)
		return plan;

	/* make room (also after the setting shrank), then remember the plan */
	while (plan_cache_entries >= nat_plan_cache_size &&
		   !dlist_is_empty(&plan_cache_lru))
		plan_cache_remove(dlist_tail_element(PlanCacheEntry, lru, &plan_cache_lru));

	entry = hash_search(plan_cache, &key, HASH_ENTER, &found);
	Assert(!found);
	old = MemoryContextSwitchTo(plan_cache_cxt);
	entry->sql = pstrdup(sql);
	entry->nargs = nargs;
	entry->types = nargs > 0 ? palloc(nargs * sizeof(Oid)) : NULL;
	if (nargs > 0)
		memcpy(entry->types, types, nargs * sizeof(Oid));
	MemoryContextSwitchTo(old);
	entry->plan = plan;
	dlist_push_head(&plan_cache_lru, &entry->lru);
	plan_cache_entries++;
	return plan;
}
