/*-------------------------------------------------------------------------
 *
 * tool_stats.c
 *		  Per-tool statistics in shared memory: ai_tool_stats(),
 *		  ai_tool_stats_reset().
 *
 * Like pg_stat_statements: when the library is in shared_preload_libraries,
 * the postmaster reserves a hash table of neon_ai_tools.stats_max entries,
 * one per (database, role, tool), and every ai_tool_call() adds its outcome
 * to its entry when it ends (execute.c, one place for answers and one for
 * calls cancelled out of ai_tool_call()).  The hot path is one hash lookup
 * under the table's LWLock in shared mode and the entry's spinlock: the
 * exclusive mode is taken only to add an entry.
 *
 * Past stats_max entries, a new (database, role, tool) is counted in one
 * row of its own, tool "(other)" with no role and no database, which is
 * allocated at startup and so always exists: counts are never lost and no
 * entry is evicted (evicting, as pg_stat_statements does, would make counts
 * drop under a workload with many roles).  ai_tool_stats_reset() empties
 * the table.
 *
 * One role holds at most half of the entries (STATS_ROLE_SHARE), counted
 * in a second table by role: the owner of a database that installed the
 * trusted extension may define any number of custom tools, and calling
 * each once would otherwise fill the table and push every other role's
 * new tools into "(other)", which those roles cannot see.
 *
 * Calls of an unknown tool are counted under the tool "(unknown)": the name
 * is the agent's, and any number of them would fill the table.
 *
 * The counters are not kept across restarts (pg_stat_statements writes a
 * file at shutdown; these are operational counters, and a restart begins a
 * new period, which stats_since shows).  Without shared_preload_libraries
 * nothing is counted, and both functions raise an error that says so.
 *
 * IDENTIFICATION
 *		  src/core/tool_stats.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "commands/dbcommands.h"
#include "base/compat.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "run/run.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"	/* get_database_name() from 19 */
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

/* the longest tool name (tool_define.c), and its terminator */
#define STATS_TOOL_LEN	65

/* the outcome index of a call cancelled out of ai_tool_call() */
#define STATS_CANCELLED		NAT_ERR_KINDS
#define STATS_OUTCOMES		(NAT_ERR_KINDS + 1)

#define STATS_OTHER		"(other)"
/* the share of stats_max one role may hold: a half */
#define STATS_ROLE_SHARE(max)	((max) / 2)
#define STATS_UNKNOWN	"(unknown)"
#define STATS_TRANCHE	"neon_ai_tools stats"

/* compared as bytes: zeroed before it is filled, padding included */
typedef struct StatsKey
{
	Oid			dbid;
	Oid			userid;
	char		tool[STATS_TOOL_LEN];
} StatsKey;

typedef struct StatsCounters
{
	int64		calls;
	int64		errors[STATS_OUTCOMES]; /* by outcome; none for success */
	int64		rows;			/* rows the answers carried */
	int64		affected_rows;	/* rows the calls changed */
	int64		answer_bytes;	/* the answers' size as jsonb */
	double		total_time;		/* ms */
	double		max_time;		/* ms */
} StatsCounters;

typedef struct StatsEntry
{
	StatsKey	key;			/* hash key: first */
	slock_t		mutex;			/* guards since and counters */
	TimestampTz since;
	StatsCounters counters;
} StatsEntry;

/* the entries one role holds (in every database) */
typedef struct StatsRoleCount
{
	Oid			userid;			/* hash key */
	int			entries;
} StatsRoleCount;

typedef struct StatsShared
{
	LWLock	   *lock;			/* the hash table: shared to look up and
								 * count, exclusive to add or remove */
	StatsEntry *other;			/* the "(other)" row */
} StatsShared;

/* set in every process of a server that preloaded the library */
static StatsShared *stats = NULL;
static HTAB *stats_hash = NULL;
static HTAB *stats_roles = NULL;	/* StatsRoleCount by role */

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/*
 * The hash table holds stats_max entries and the "(other)" row.
 */
static Size
stats_memsize(void)
{
	return add_size(add_size(MAXALIGN(sizeof(StatsShared)),
							 hash_estimate_size(nat_stats_max + 1, sizeof(StatsEntry))),
					hash_estimate_size(nat_stats_max, sizeof(StatsRoleCount)));
}

static void
stats_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(stats_memsize());
	RequestNamedLWLockTranche(STATS_TRANCHE, 1);
}

/*
 * A zeroed entry from the hash table (found or added), or NULL when the
 * table is full; the caller holds the lock exclusively.
 */
static StatsEntry *
enter_entry(const StatsKey *key)
{
	StatsEntry *entry;
	bool		found;

	entry = hash_search(stats_hash, key, HASH_ENTER_NULL, &found);
	if (entry != NULL && !found)
	{
		SpinLockInit(&entry->mutex);
		entry->since = GetCurrentTimestamp();
		memset(&entry->counters, 0, sizeof(StatsCounters));
	}
	return entry;
}

/*
 * May a new entry be added for the role?  Not when the table is full, nor
 * when the role holds its share already.  The lock is held, in either mode.
 */
static bool
room_for(Oid userid)
{
	StatsRoleCount *role;

	if (hash_get_num_entries(stats_hash) > nat_stats_max)
		return false;
	role = hash_search(stats_roles, &userid, HASH_FIND, NULL);
	return role == NULL || role->entries < STATS_ROLE_SHARE(nat_stats_max);
}

/*
 * Add the entry of a key that is not in the table, counted in its role's
 * share; NULL when there is no room.  The lock is held exclusively.
 */
static StatsEntry *
add_entry(const StatsKey *key)
{
	StatsRoleCount *role;
	StatsEntry *entry;
	bool		found;

	if (!room_for(key->userid))
		return NULL;
	role = hash_search(stats_roles, &key->userid, HASH_ENTER_NULL, &found);
	if (role == NULL)
		return NULL;
	if (!found)
		role->entries = 0;
	entry = enter_entry(key);
	if (entry != NULL)
		role->entries++;
	else if (role->entries == 0)
		(void) hash_search(stats_roles, &key->userid, HASH_REMOVE, NULL);
	return entry;
}

/* a key, zeroed first: it is compared as bytes */
static void
make_key(StatsKey *key, Oid dbid, Oid userid, const char *tool)
{
	memset(key, 0, sizeof(StatsKey));
	key->dbid = dbid;
	key->userid = userid;
	memcpy(key->tool, tool, Min(strlen(tool), STATS_TOOL_LEN - 1));
}

static void
stats_shmem_startup(void)
{
	HASHCTL		info;
	bool		found;
	StatsKey	key;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	stats = ShmemInitStruct("neon_ai_tools stats", sizeof(StatsShared), &found);
	memset(&info, 0, sizeof(info));
	info.keysize = sizeof(StatsKey);
	info.entrysize = sizeof(StatsEntry);
	stats_hash = nat_shmem_init_hash("neon_ai_tools stats hash",
									 nat_stats_max + 1, &info,
									 HASH_ELEM | HASH_BLOBS);
	memset(&info, 0, sizeof(info));
	info.keysize = sizeof(Oid);
	info.entrysize = sizeof(StatsRoleCount);
	stats_roles = nat_shmem_init_hash("neon_ai_tools stats roles",
									  nat_stats_max, &info,
									  HASH_ELEM | HASH_BLOBS);
	if (!found)
	{
		stats->lock = &(GetNamedLWLockTranche(STATS_TRANCHE))->lock;
		make_key(&key, InvalidOid, InvalidOid, STATS_OTHER);
		stats->other = enter_entry(&key);
	}
	LWLockRelease(AddinShmemInitLock);
}

/*
 * _PG_init(): reserve the shared memory, in the postmaster only.
 */
void
nat_stats_install(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = stats_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = stats_shmem_startup;
}

/*
 * The name a call is counted under: the tool's, "(unknown)" for a name
 * that is no tool's.
 */
static void
call_key(ToolCall *call, StatsKey *key)
{
	make_key(key, MyDatabaseId, GetUserId(),
			 call->stats_tool ? call->stats_tool : STATS_UNKNOWN);
}

/*
 * Count one call that ended: outcome is its error kind, STATS_CANCELLED,
 * or -1 for a success; answer is NULL when there is none.  Rows and
 * changed rows are counted for successes only (an error answer carries no
 * rows, and its changes were rolled back); a dry run changes nothing.
 */
static void
stats_count(ToolCall *call, int outcome, Jsonb *answer)
{
	StatsKey	key;
	StatsEntry *entry;
	StatsCounters *c;
	instr_time	elapsed;
	double		ms;

	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, call->start);
	ms = INSTR_TIME_GET_MILLISEC(elapsed);
	call_key(call, &key);

	LWLockAcquire(stats->lock, LW_SHARED);
	entry = hash_search(stats_hash, &key, HASH_FIND, NULL);
	/* no room: "(other)", without the exclusive lock every call */
	if (entry == NULL && !room_for(key.userid))
		entry = stats->other;
	if (entry == NULL)
	{
		/* add it; another backend may have meanwhile */
		LWLockRelease(stats->lock);
		LWLockAcquire(stats->lock, LW_EXCLUSIVE);
		entry = hash_search(stats_hash, &key, HASH_FIND, NULL);
		if (entry == NULL)
			entry = add_entry(&key);
		if (entry == NULL)
			entry = stats->other;
	}

	SpinLockAcquire(&entry->mutex);
	c = &entry->counters;
	c->calls++;
	if (outcome >= 0)
		c->errors[outcome]++;
	else
	{
		c->rows += call->answer_rows;
		if (!call->dry_run && call->affected_rows > 0)
			c->affected_rows += call->affected_rows;
	}
	if (answer != NULL)
		c->answer_bytes += VARSIZE(answer);
	c->total_time += ms;
	if (ms > c->max_time)
		c->max_time = ms;
	SpinLockRelease(&entry->mutex);
	LWLockRelease(stats->lock);
}

/*
 * A call answered (success, dry run or error answer).
 */
void
nat_stats_call_answered(ToolCall *call, Jsonb *answer)
{
	if (stats == NULL || !nat_track_stats)
		return;
	stats_count(call, call->error_type ? (int) call->error_kind : -1, answer);
}

/*
 * A call that an error raised out of ai_tool_call() ended (a cancel that
 * our timer did not cause): cancelled.  Called while that error unwinds,
 * so nothing here may raise another: no allocation, no catalog access.
 */
void
nat_stats_call_escaped(ToolCall *call)
{
	if (stats == NULL || !nat_track_stats)
		return;
	stats_count(call, geterrcode() == ERRCODE_QUERY_CANCELED ?
				STATS_CANCELLED : (int) NAT_ERR_UNKNOWN_ERROR, NULL);
}

/*
 * Both SQL functions need the shared memory.
 */
static void
require_preloaded(void)
{
	if (stats == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("neon_ai_tools statistics are not available"),
				 errdetail("The statistics are kept in shared memory, which only a library listed in \"shared_preload_libraries\" can reserve."),
				 errhint("Add neon_ai_tools to \"shared_preload_libraries\" and restart the server.")));
}

/* an entry's key and counters, copied out of shared memory */
typedef struct StatsRow
{
	StatsKey	key;
	TimestampTz since;
	StatsCounters counters;
} StatsRow;

/*
 * The entries the caller may see, copied under the lock: every entry for
 * members of pg_read_all_stats (superusers included), else the caller's
 * own.  The rows are built afterwards, without the lock held.
 */
static StatsRow *
copy_entries(int *count)
{
	Oid			userid = GetUserId();
	bool		all = has_privs_of_role(userid, ROLE_PG_READ_ALL_STATS);
	HASH_SEQ_STATUS scan;
	StatsEntry *entry;
	StatsRow   *rows;
	int			n = 0;

	LWLockAcquire(stats->lock, LW_SHARED);
	rows = palloc(sizeof(StatsRow) * Max(hash_get_num_entries(stats_hash), 1));
	hash_seq_init(&scan, stats_hash);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		if (!all && entry->key.userid != userid)
			continue;
		rows[n].key = entry->key;
		SpinLockAcquire(&entry->mutex);
		rows[n].since = entry->since;
		rows[n].counters = entry->counters;
		SpinLockRelease(&entry->mutex);
		/* the "(other)" row before anything went there is left out */
		if (rows[n].counters.calls > 0 || entry != stats->other)
			n++;
	}
	LWLockRelease(stats->lock);
	*count = n;
	return rows;
}

/*
 * errors_by_type: {errorType: count} of the outcomes that occurred.
 */
static Jsonb *
errors_by_type(const StatsCounters *c, int64 *total)
{
	NatJsonb	b;
	int			i;

	memset(&b, 0, sizeof(b));
	*total = 0;
	nat_jsonb_push(&b, WJB_BEGIN_OBJECT, NULL);
	for (i = 0; i < STATS_OUTCOMES; i++)
	{
		if (c->errors[i] == 0)
			continue;
		*total += c->errors[i];
		nat_push_int(&b, i == STATS_CANCELLED ? "cancelled" :
					 nat_error_kind_name((NatErrorKind) i), c->errors[i]);
	}
	return JsonbValueToJsonb(nat_jsonb_push(&b, WJB_END_OBJECT, NULL));
}

#define STATS_COLUMNS 15

/* a name column's value, or null */
static void
put_name(Datum *value, bool *isnull, const char *name)
{
	*isnull = name == NULL;
	*value = name ? DirectFunctionCall1(namein, CStringGetDatum(name)) : (Datum) 0;
}

static void
put_row(ReturnSetInfo *rsinfo, const StatsRow *row)
{
	Datum		values[STATS_COLUMNS];
	bool		nulls[STATS_COLUMNS] = {0};
	const StatsCounters *c = &row->counters;
	int64		errors;
	Jsonb	   *by_type = errors_by_type(c, &errors);

	/* "(other)" has no role and no database; a dropped one has no name */
	nulls[0] = !OidIsValid(row->key.userid);
	values[0] = ObjectIdGetDatum(row->key.userid);
	put_name(&values[1], &nulls[1], nulls[0] ? NULL :
			 GetUserNameFromId(row->key.userid, true));
	nulls[2] = !OidIsValid(row->key.dbid);
	values[2] = ObjectIdGetDatum(row->key.dbid);
	put_name(&values[3], &nulls[3], nulls[2] ? NULL :
			 get_database_name(row->key.dbid));
	values[4] = CStringGetTextDatum(row->key.tool);
	values[5] = Int64GetDatum(c->calls);
	values[6] = Int64GetDatum(errors);
	values[7] = JsonbPGetDatum(by_type);
	values[8] = Int64GetDatum(c->rows);
	values[9] = Int64GetDatum(c->affected_rows);
	values[10] = Int64GetDatum(c->answer_bytes);
	values[11] = Float8GetDatum(c->total_time);
	values[12] = Float8GetDatum(c->calls > 0 ? c->total_time / c->calls : 0.0);
	values[13] = Float8GetDatum(c->max_time);
	values[14] = TimestampTzGetDatum(row->since);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * ai_tool_stats() returns setof record
 *
 * One row per (role, database, tool) that made calls since the counters
 * were last reset or the server started (README, "Statistics").
 */
PG_FUNCTION_INFO_V1(ai_tool_stats);

Datum
ai_tool_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	StatsRow   *rows;
	int			n;
	int			i;

	require_preloaded();
	InitMaterializedSRF(fcinfo, 0);
	rows = copy_entries(&n);
	for (i = 0; i < n; i++)
		put_row(rsinfo, &rows[i]);
	return (Datum) 0;
}

/*
 * ai_tool_stats_reset() returns void
 *
 * Forget every count.  EXECUTE is revoked from PUBLIC.
 */
PG_FUNCTION_INFO_V1(ai_tool_stats_reset);

Datum
ai_tool_stats_reset(PG_FUNCTION_ARGS)
{
	HASH_SEQ_STATUS scan;
	StatsEntry *entry;
	StatsRoleCount *role;
	TimestampTz now = GetCurrentTimestamp();

	require_preloaded();
	LWLockAcquire(stats->lock, LW_EXCLUSIVE);
	hash_seq_init(&scan, stats_hash);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		if (entry == stats->other)
			continue;
		(void) hash_search(stats_hash, &entry->key, HASH_REMOVE, NULL);
	}
	hash_seq_init(&scan, stats_roles);
	while ((role = hash_seq_search(&scan)) != NULL)
		(void) hash_search(stats_roles, &role->userid, HASH_REMOVE, NULL);
	/* the "(other)" row stays where it is, emptied */
	SpinLockAcquire(&stats->other->mutex);
	stats->other->since = now;
	memset(&stats->other->counters, 0, sizeof(StatsCounters));
	SpinLockRelease(&stats->other->mutex);
	LWLockRelease(stats->lock);
	PG_RETURN_VOID();
}
