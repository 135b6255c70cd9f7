/*-------------------------------------------------------------------------
 *
 * table_cache.c
 *		  A per-backend cache of the table names calls resolved.
 *
 * Resolving a call's "table" argument (names.c) parses the name, walks the
 * search path (skipping temporary schemas), checks that the caller has a
 * right on the relation, checks its kind and renders its display name: a
 * tenth of a small call, the same work for the same name at every call.
 * A successful resolution is kept here, keyed by the name as written and
 * the role that resolved it, with the relation's OID and display name.
 * The cache holds the resolutions of one search_path and one setting of
 * quote_all_identifiers (the display name's quoting): it starts again when
 * either differs from the one it was filled under.
 *
 * Kept only while nothing it depends on can have changed: any change to
 * pg_class (a relation created, dropped or renamed, its privileges or
 * owner), pg_namespace (a schema created, dropped or renamed), pg_attribute
 * (column privileges), pg_auth_members (role membership, which decides
 * ownership rights) or pg_authid (a role losing superuser) empties the cache, through syscache invalidation
 * callbacks.  Those run when invalidation messages are read: at the start
 * of every transaction, and when a lock is taken.  names.c takes the
 * relation's lock after a hit and resolves the name from scratch if any
 * invalidation arrived meanwhile, as it does without the cache.
 *
 * The cache holds at most TABLE_CACHE_MAX entries, each bounded by the
 * name's length (identifiers are limited before lookup), and one copy of
 * the search_path: a full cache is emptied before a new entry goes in.
 *
 * IDENTIFICATION
 *		  src/sql/table_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "neon_ai_tools.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#define TABLE_CACHE_MAX 256

typedef struct TableCacheKey
{
	uint64		hash;			/* of the name and the role */
} TableCacheKey;

typedef struct TableCacheEntry
{
	TableCacheKey key;
	char	   *name;			/* to tell hash collisions apart */
	Oid			userid;
	Oid			relid;
	char	   *display;		/* schema-qualified, quoted */
} TableCacheEntry;

static MemoryContext table_cache_cxt = NULL;
static HTAB *table_cache = NULL;
static int	table_cache_entries = 0;

/* what every entry was resolved under */
static char *table_cache_path = NULL;
static bool table_cache_quote_all = false;

static const char *
current_search_path(void)
{
	return namespace_search_path ? namespace_search_path : "";
}

/*
 * Empty the cache (an invalidation callback: it may run at any time, so it
 * only drops the memory, which nothing outside this file points into).
 */
static void
table_cache_reset(Datum arg, NatSysCacheId cacheid, uint32 hashvalue)
{
	if (table_cache_cxt != NULL)
		MemoryContextReset(table_cache_cxt);
	table_cache = NULL;
	table_cache_entries = 0;
	table_cache_path = NULL;
}

static void
table_cache_init(void)
{
	HASHCTL		ctl;

	if (table_cache_cxt == NULL)
	{
		table_cache_cxt = AllocSetContextCreate(TopMemoryContext,
												"neon_ai_tools table cache",
												ALLOCSET_SMALL_SIZES);
		CacheRegisterSyscacheCallback(RELOID, table_cache_reset, (Datum) 0);
		CacheRegisterSyscacheCallback(RELNAMENSP, table_cache_reset, (Datum) 0);
		CacheRegisterSyscacheCallback(NAMESPACEOID, table_cache_reset, (Datum) 0);
		CacheRegisterSyscacheCallback(ATTNUM, table_cache_reset, (Datum) 0);
		CacheRegisterSyscacheCallback(AUTHMEMROLEMEM, table_cache_reset, (Datum) 0);
		CacheRegisterSyscacheCallback(AUTHOID, table_cache_reset, (Datum) 0);
		CacheRegisterSyscacheCallback(DATABASEOID, table_cache_reset, (Datum) 0);
	}
	ctl.keysize = sizeof(TableCacheKey);
	ctl.entrysize = sizeof(TableCacheEntry);
	ctl.hcxt = table_cache_cxt;
	table_cache = hash_create("neon_ai_tools table cache", 64, &ctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	table_cache_path = MemoryContextStrdup(table_cache_cxt, current_search_path());
	table_cache_quote_all = quote_all_identifiers;
}

static uint64
table_key_hash(const char *name, Oid userid)
{
	uint64		h = hash_bytes_extended((const unsigned char *) name, strlen(name), 0);

	return hash_bytes_extended((const unsigned char *) &userid, sizeof(userid), h);
}

/*
 * Is the cache filled under the search_path and quoting in force?  If not,
 * empty it.
 */
static bool
table_cache_current(void)
{
	if (table_cache == NULL)
		return false;
	if (table_cache_quote_all == quote_all_identifiers &&
		strcmp(table_cache_path, current_search_path()) == 0)
		return true;
	table_cache_reset((Datum) 0, (NatSysCacheId) 0, 0);
	return false;
}

/*
 * The relation name resolved to for the current role and search_path, and
 * its display name; InvalidOid when the cache does not know.
 */
Oid
nat_table_cache_lookup(const char *name, const char **display)
{
	Oid			userid = GetUserId();
	TableCacheKey key;
	TableCacheEntry *entry;

	if (!table_cache_current())
		return InvalidOid;
	key.hash = table_key_hash(name, userid);
	entry = hash_search(table_cache, &key, HASH_FIND, NULL);
	if (entry == NULL || entry->userid != userid || strcmp(entry->name, name) != 0)
		return InvalidOid;
	*display = entry->display;
	return entry->relid;
}

/*
 * Remember that name resolved to relid (display) for the current role and
 * search_path.
 */
void
nat_table_cache_store(const char *name, Oid relid, const char *display)
{
	Oid			userid = GetUserId();
	TableCacheKey key;
	TableCacheEntry *entry;
	char	   *name_copy;
	char	   *display_copy;
	bool		found;

	if (!table_cache_current() || table_cache_entries >= TABLE_CACHE_MAX)
	{
		table_cache_reset((Datum) 0, (NatSysCacheId) 0, 0);
		table_cache_init();
	}
	/* allocate first: an entry is never left half made */
	name_copy = MemoryContextStrdup(table_cache_cxt, name);
	display_copy = MemoryContextStrdup(table_cache_cxt, display);
	key.hash = table_key_hash(name, userid);
	entry = hash_search(table_cache, &key, HASH_ENTER, &found);
	if (found)
		return;					/* the same, or a collision: keep the first */
	entry->name = name_copy;
	entry->userid = userid;
	entry->relid = relid;
	entry->display = display_copy;
	table_cache_entries++;
}
