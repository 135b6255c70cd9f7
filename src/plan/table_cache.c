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
 * The frame (memory, callbacks, bound, search_path) is local_cache.c's.
 *
 * IDENTIFICATION
 *		  src/sql/table_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "plan/plan.h"
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

static const NatSysCacheId table_cache_syscaches[] = {
	RELOID, RELNAMENSP, NAMESPACEOID, ATTNUM, AUTHMEMROLEMEM, AUTHOID, DATABASEOID
};

static NatLocalCache table_cache = {
	.name = "neon_ai_tools table cache",
	.keysize = sizeof(TableCacheKey),
	.entrysize = sizeof(TableCacheEntry),
	.max_entries = TABLE_CACHE_MAX,
	.syscaches = table_cache_syscaches,
	.nsyscaches = lengthof(table_cache_syscaches),
};

static uint64
table_key_hash(const char *name, Oid userid)
{
	uint64		h = hash_bytes_extended((const unsigned char *) name, strlen(name), 0);

	return hash_bytes_extended((const unsigned char *) &userid, sizeof(userid), h);
}

/*
 * The relation name resolved to for the current role and search_path, and
 * its display name; InvalidOid when the cache does not know.
 */
Oid
nat_table_cache_lookup(const char *name, const char **display)
{
	HTAB	   *hash = nat_local_cache_find(&table_cache);
	Oid			userid = GetUserId();
	TableCacheKey key;
	TableCacheEntry *entry;

	if (hash == NULL)
		return InvalidOid;
	key.hash = table_key_hash(name, userid);
	entry = hash_search(hash, &key, HASH_FIND, NULL);
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
	HTAB	   *hash = nat_local_cache_for_insert(&table_cache);
	Oid			userid = GetUserId();
	TableCacheKey key;
	TableCacheEntry *entry;
	char	   *name_copy;
	char	   *display_copy;
	bool		found;

	/* allocate first: an entry is never left half made */
	name_copy = MemoryContextStrdup(table_cache.cxt, name);
	display_copy = MemoryContextStrdup(table_cache.cxt, display);
	key.hash = table_key_hash(name, userid);
	entry = hash_search(hash, &key, HASH_ENTER, &found);
	if (found)
		return;					/* the same, or a collision: keep the first */
	entry->name = name_copy;
	entry->userid = userid;
	entry->relid = relid;
	entry->display = display_copy;
	table_cache.entries++;
}
