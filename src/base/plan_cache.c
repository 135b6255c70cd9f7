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
 * planning.  The cache is an LRU keyed by the SQL text and the parameter
 * type OIDs; an evicted plan is freed.
 *
 * What is kept, and how much.  SQL the extension generated is cached; the
 * agent's own SQL (execute_sql) only up to NAT_PLAN_CACHE_MAX_AGENT_SQL
 * bytes of text, since long texts are one-off and their plans large, and
 * only from its second run on: the first run of an agent's statement is
 * planned once and freed (a one-shot plan, which is never copied: a kept
 * plan's generic plan is copied into its own memory, and a constant folded
 * at planning time, say array_fill(1, ARRAY[10000000]), would be held
 * twice).  The hashes of recently seen agent statements tell a second run.
 * Two limits hold together: neon_ai_tools.plan_cache_size entries and
 * neon_ai_tools.plan_cache_memory bytes, the memory the kept plans hold
 * (their contexts, measured with MemoryContextMemAllocated); the least
 * recently used plans go first, and a plan larger than the memory limit
 * is never kept.  Either limit at 0 disables the cache.  A smaller limit
 * takes effect at the session's next statement.
 *
 * A plan grows after it is kept: its generic plan is built on a later
 * use (after five custom plans), and re-analysis after an invalidation
 * replaces its query trees.  Both happen while the caller runs the plan,
 * after it left this file, so the plan used last is measured again right
 * after it ran (nat_plan_cache_settle()) and the cache trimmed then: the
 * memory limit is exceeded by that one plan's growth only while it runs.
 *
 * Correctness across schema changes, search_path changes and role changes
 * is PostgreSQL's plan cache's: a kept plan is revalidated on every use,
 * re-analysed from its source text when a relation, type or function it
 * depends on changed, when the search_path differs from the one it was
 * analysed with, or when row-level security makes it depend on the role;
 * privileges are checked when the plan is executed.  Generated SQL is
 * fully schema-qualified, so re-analysis cannot change what it means.
 *
 * ai_tool_plan_cache_stats() shows the session's cache: how many plans it
 * keeps and the memory they hold, and how often a kept plan was reused,
 * one had to be prepared, and one was evicted.
 *
 * IDENTIFICATION
 *		  src/core/plan_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "executor/spi_priv.h"
#include "funcapi.h"
#include "lib/ilist.h"
#include "base/base.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/plancache.h"

int			nat_plan_cache_size = 256;
int			nat_plan_cache_memory = 16 * 1024;	/* kB */

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
	Size		size;			/* bytes, as last measured */
	dlist_node	lru;			/* most recently used at the head */
} PlanCacheEntry;

static HTAB *plan_cache = NULL;
static MemoryContext plan_cache_cxt = NULL;
static dlist_head plan_cache_lru = DLIST_STATIC_INIT(plan_cache_lru);
static int	plan_cache_entries = 0;
static Size plan_cache_bytes = 0;

/* the entry handed out last, to measure again (see the file comment) */
static PlanCacheEntry *plan_cache_last = NULL;

/* the session's counters, for ai_tool_plan_cache_stats() */
static int64 plan_cache_hits = 0;	/* a kept plan reused */
static int64 plan_cache_misses = 0; /* looked up, not found: prepared */
static int64 plan_cache_evictions = 0;	/* freed to stay within the limits */

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
 * The memory limit in bytes (the setting is in kB).
 */
static Size
plan_cache_limit(void)
{
	return (Size) Max(nat_plan_cache_memory, 0) * 1024;
}

/*
 * The memory a prepared plan holds: its SPI plan context, and for each
 * statement its CachedPlanSource context (with the query trees) and its
 * generic plan, if one was built.  These contexts are siblings, not
 * nested, so nothing is counted twice (were they nested, the sum would
 * only overstate).  Plus our copies of the key.
 */
static Size
plan_memory(SPIPlanPtr plan, const char *sql, int nargs)
{
	Size		total = strlen(sql) + 1 + nargs * sizeof(Oid);
	ListCell   *lc;

	total += MemoryContextMemAllocated(plan->plancxt, true);
	foreach(lc, plan->plancache_list)
	{
		CachedPlanSource *source = (CachedPlanSource *) lfirst(lc);

		total += MemoryContextMemAllocated(source->context, true);
		if (source->gplan != NULL)
			total += MemoryContextMemAllocated(source->gplan->context, true);
	}
	return total;
}

/*
 * Forget an entry and free its plan.
 */
static void
plan_cache_remove(PlanCacheEntry *entry)
{
	if (entry == plan_cache_last)
		plan_cache_last = NULL;
	dlist_delete(&entry->lru);
	SPI_freeplan(entry->plan);
	pfree(entry->sql);
	if (entry->types)
		pfree(entry->types);
	plan_cache_bytes -= entry->size;
	hash_search(plan_cache, &entry->key, HASH_REMOVE, NULL);
	plan_cache_entries--;
}

/*
 * Evict least recently used entries until at most max_entries remain and
 * they hold at most max_bytes.
 */
static void
plan_cache_trim(int max_entries, Size max_bytes)
{
	while (!dlist_is_empty(&plan_cache_lru) &&
		   (plan_cache_entries > max_entries || plan_cache_bytes > max_bytes))
	{
		plan_cache_remove(dlist_tail_element(PlanCacheEntry, lru, &plan_cache_lru));
		plan_cache_evictions++;
	}
}

/*
 * Account for the growth of the plan used last (its generic plan, built
 * while it ran), and free least recently used plans to stay within the
 * limits.  execute_statement() (execute.c) calls this right after running a plan,
 * so the cache is back within its limits when the call ends.
 */
void
nat_plan_cache_settle(void)
{
	Size		size;

	if (plan_cache_last != NULL)
	{
		size = plan_memory(plan_cache_last->plan, plan_cache_last->sql,
						   plan_cache_last->nargs);
		plan_cache_bytes += size - plan_cache_last->size;
		plan_cache_last->size = size;
		plan_cache_last = NULL;
	}
	if (plan_cache != NULL)
		plan_cache_trim(Max(nat_plan_cache_size, 0), plan_cache_limit());
}

static SPIPlanPtr
prepare(const char *sql, int nargs, Oid *types)
{
	return SPI_prepare_cursor(sql, nargs, types, CURSOR_OPT_PARALLEL_OK);
}

/* hashes of the agent statements seen last, to keep only repeated ones */
#define SEEN_AGENT_SQL 64
static uint64 seen_agent_sql[SEEN_AGENT_SQL];
static int	seen_agent_sql_next = 0;

/*
 * Has this agent statement run before (recently)?  Remembers it if not.
 */
static bool
agent_sql_seen(uint64 hash)
{
	int			i;

	for (i = 0; i < SEEN_AGENT_SQL; i++)
		if (seen_agent_sql[i] == hash)
			return true;
	seen_agent_sql[seen_agent_sql_next] = hash;
	seen_agent_sql_next = (seen_agent_sql_next + 1) % SEEN_AGENT_SQL;
	return false;
}

/*
 * A prepared plan for sql with these parameter types: from the cache when
 * it has one, otherwise prepared now and kept.  origin says whose text it
 * is.  NULL when the statement is not to be kept (see the file comment):
 * the caller runs it once, with a one-shot plan.  A plan returned but not
 * kept (too large for the cache) belongs to the current SPI procedure and
 * is freed with it.  SPI must be connected.
 */
SPIPlanPtr
nat_prepare_cached(const char *sql, int nargs, Oid *types, NatSqlOrigin origin)
{
	Size		limit = plan_cache_limit();
	PlanCacheKey key;
	PlanCacheEntry *entry;
	SPIPlanPtr	plan;
	Size		size;
	char	   *sql_copy;
	Oid		   *types_copy = NULL;
	bool		found;

	/* within the limits in force (a lowered or zero limit frees plans) */
	nat_plan_cache_settle();
	if (nat_plan_cache_size <= 0 || limit == 0)
		return NULL;

	if (origin == NAT_SQL_AGENT_LONG)
		return NULL;

	if (plan_cache == NULL)
		plan_cache_init();

	key.hash = plan_key_hash(sql, nargs, types);
	entry = hash_search(plan_cache, &key, HASH_FIND, NULL);
	if (entry != NULL && entry->nargs == nargs && strcmp(entry->sql, sql) == 0 &&
		(nargs == 0 || memcmp(entry->types, types, nargs * sizeof(Oid)) == 0))
	{
		dlist_move_head(&plan_cache_lru, &entry->lru);
		plan_cache_last = entry;
		plan_cache_hits++;
		return entry->plan;
	}
	plan_cache_misses++;
	if (entry == NULL && origin == NAT_SQL_AGENT && !agent_sql_seen(key.hash))
		return NULL;
	/* a different statement with the same hash: do not cache it */
	if (entry != NULL)
		return NULL;

	plan = prepare(sql, nargs, types);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));

	/* a plan that alone exceeds the limit is used once, not kept */
	size = plan_memory(plan, sql, nargs);
	if (size > limit)
		return plan;

	/*
	 * Allocate first: should that fail, the plan is still the SPI procedure's
	 * and goes with it.  SPI_keepplan() cannot fail.
	 */
	sql_copy = MemoryContextStrdup(plan_cache_cxt, sql);
	if (nargs > 0)
	{
		types_copy = MemoryContextAlloc(plan_cache_cxt, nargs * sizeof(Oid));
		memcpy(types_copy, types, nargs * sizeof(Oid));
	}
	plan_cache_trim(nat_plan_cache_size - 1, limit - size);
	entry = hash_search(plan_cache, &key, HASH_ENTER, &found);
	Assert(!found);
	if (SPI_keepplan(plan) != 0)
	{
		hash_search(plan_cache, &key, HASH_REMOVE, NULL);
		pfree(sql_copy);
		if (types_copy)
			pfree(types_copy);
		return plan;
	}
	entry->sql = sql_copy;
	entry->nargs = nargs;
	entry->types = types_copy;
	entry->plan = plan;
	entry->size = size;
	dlist_push_head(&plan_cache_lru, &entry->lru);
	plan_cache_entries++;
	plan_cache_bytes += size;
	plan_cache_last = entry;
	return plan;
}

/*
 * ai_tool_plan_cache_stats(OUT plans int4, OUT bytes int8, OUT hits int8,
 *							OUT misses int8, OUT evictions int8) returns record
 *
 * The session's plan cache: the plans it keeps and the memory they hold
 * (as last measured), and since the session began, the lookups that
 * reused a kept plan (hits), those that found none and prepared one
 * (misses: kept or not, a first run of an agent's statement included),
 * and the plans freed to stay within the limits (evictions).
 */
PG_FUNCTION_INFO_V1(ai_tool_plan_cache_stats);

Datum
ai_tool_plan_cache_stats(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = Int32GetDatum(plan_cache_entries);
	values[1] = Int64GetDatum((int64) plan_cache_bytes);
	values[2] = Int64GetDatum(plan_cache_hits);
	values[3] = Int64GetDatum(plan_cache_misses);
	values[4] = Int64GetDatum(plan_cache_evictions);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
