/*-------------------------------------------------------------------------
 *
 * citus.c
 *		  Citus's metadata, read through the catalog, for the discovery
 *		  tools.
 *
 * On a Citus node (coordinator or worker) a distributed or reference table
 * keeps its rows in shards: ordinary tables named after it with the shard's
 * id appended ("events_102008"), which Citus's metadata lists in
 * pg_dist_shard.  Shards are Citus's internals, not the agent's data: an
 * agent that reads or writes one directly sees a part of the table or
 * bypasses Citus.  So the discovery tools never offer them (list_tables,
 * the did-you-mean of names.c), and describe_table answers a shard's name
 * with its table.  describe_table also says how Citus keeps a table: its
 * type, distribution column and co-location group (pg_dist_partition).
 *
 * Nothing here links to Citus or calls its functions: Citus is detected at
 * run time (its extension in pg_extension) and its catalogs are found by
 * name in pg_catalog, where Citus creates them.  Without Citus every
 * function here does nothing.
 *
 * A relation is a shard, as Citus itself decides (RelationIsAKnownShard),
 * when its name ends with "_<shardid>", pg_dist_shard has that shard, the
 * shard's table is in the same schema, and the name is the one Citus gives
 * that table's shards: the table's name and "_<shardid>", or, when that is
 * longer than a name may be, a prefix of the table's name, "_", eight hex
 * digits (a hash of the name) and "_<shardid>".  So a user's table that
 * merely ends in digits is never taken for a shard.  The test exists twice,
 * in C (nat_citus_shard_parent) and in SQL (nat_append_not_citus_shard),
 * with the same rules.
 *
 * IDENTIFICATION
 *		  src/sql/citus.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "plan/plan.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

/* the longest shard id a name is read for: int8 holds any 18 digits */
#define SHARD_ID_DIGITS 18

/* a long name's shard: "<prefix>_" HASH_DIGITS hex digits "_<shardid>" */
#define HASH_DIGITS 8

/*
 * Is Citus installed in this database?
 */
bool
nat_citus_installed(void)
{
	return OidIsValid(get_extension_oid("citus", true));
}

/*
 * The shard id at the end of relname ("events_102008": 102008), or 0 if it
 * does not end with "_" and digits; *suffix is set to its "_".
 */
static uint64
shard_id_suffix(const char *relname, const char **suffix)
{
	const char *end = relname + strlen(relname);
	const char *p = end;

	while (p > relname && isdigit((unsigned char) p[-1]))
		p--;
	if (p == end || end - p > SHARD_ID_DIGITS || p - 1 <= relname || p[-1] != '_')
		return 0;
	*suffix = p - 1;
	return strtou64(p, NULL, 10);
}

/*
 * The table pg_dist_shard names for shardid, or InvalidOid.  Read through
 * its unique index on shardid when it has one.
 */
static Oid
shard_table(uint64 shardid)
{
	static const char *const names[] = {"logicalrelid"};
	Datum		value;
	bool		isnull;

	if (!nat_citus_catalog_row("pg_dist_shard", "pg_dist_shard_shardid_index",
							   "shardid", F_INT8EQ, Int64GetDatum((int64) shardid),
							   names, 1, &value, &isnull) || isnull)
		return InvalidOid;
	return DatumGetObjectId(value);
}

/*
 * Is relname (whose "_<shardid>" starts at suffix) the name Citus gives
 * table's shards?
 */
static bool
is_shard_name(const char *relname, const char *suffix, const char *table)
{
	size_t		table_len = strlen(table);
	size_t		suffix_len = strlen(suffix);
	const char *hash;
	size_t		prefix_len;
	int			i;

	/* the table's name and the suffix, when that fits */
	if (table_len + suffix_len < NAMEDATALEN)
		return suffix - relname == table_len &&
			strncmp(relname, table, table_len) == 0;

	/* else a prefix of the table's name, "_", the name's hash, the suffix */
	if (suffix - relname < HASH_DIGITS + 2)
		return false;
	hash = suffix - HASH_DIGITS;
	for (i = 0; i < HASH_DIGITS; i++)
	{
		if (!isxdigit((unsigned char) hash[i]) || isupper((unsigned char) hash[i]))
			return false;
	}
	if (hash[-1] != '_')
		return false;
	prefix_len = hash - 1 - relname;
	return prefix_len <= table_len && strncmp(relname, table, prefix_len) == 0;
}

/*
 * If relid is a Citus shard (see the file's comment), the table it is a
 * shard of, and *shardid its id; else InvalidOid.  Names without a shard
 * id suffix cost no catalog access.
 */
static Oid
shard_parent(Oid relid, uint64 *shardid)
{
	char	   *relname = get_rel_name(relid);
	const char *suffix;
	Oid			table;
	char	   *table_name;

	if (relname == NULL)
		return InvalidOid;
	*shardid = shard_id_suffix(relname, &suffix);
	if (*shardid == 0 || !nat_citus_installed())
		return InvalidOid;
	table = shard_table(*shardid);
	if (!OidIsValid(table) || table == relid ||
		get_rel_namespace(table) != get_rel_namespace(relid))
		return InvalidOid;
	table_name = get_rel_name(table);
	if (table_name == NULL || !is_shard_name(relname, suffix, table_name))
		return InvalidOid;
	return table;
}

/* the table relid is a shard of (shard_parent()), or InvalidOid */
Oid
nat_citus_shard_parent(Oid relid)
{
	uint64		shardid;

	return shard_parent(relid, &shardid);
}

/*
 * If relid is a shard placed on this node, the table it is a shard of;
 * else InvalidOid.  Citus made such a relation here, so a relation of the
 * same name cannot be another one (a table an agent names like the shard
 * of a placement on another node is not one).
 */
Oid
nat_citus_local_shard_parent(Oid relid)
{
	uint64		shardid;
	Oid			table = shard_parent(relid, &shardid);
	Oid			argtypes[1] = {INT8OID};
	Datum		args[1];
	bool		placed;
	int			rc;

	if (!OidIsValid(table))
		return InvalidOid;
	args[0] = Int64GetDatum((int64) shardid);
	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	rc = SPI_execute_with_args("SELECT FROM pg_catalog.pg_dist_placement p"
							   " JOIN pg_catalog.pg_dist_local_group g"
							   " ON p.groupid OPERATOR(pg_catalog.=) g.groupid"
							   " WHERE p.shardid OPERATOR(pg_catalog.=) $1",
							   1, argtypes, args, NULL, true, 1);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "could not read Citus's shard placements: %s",
			 SPI_result_code_string(rc));
	placed = SPI_processed > 0;
	SPI_finish();
	return placed ? table : InvalidOid;
}

/*
 * Append " AND NOT <the relation rel is a Citus shard>" to a catalog query
 * (rel: the alias of pg_class in it), where Citus is installed: the same
 * rules as nat_citus_shard_parent(), in SQL.  Citus's own planner hides
 * shards from pg_class as well, unless citus.override_table_visibility is
 * off or the application's name is in citus.show_shards_for_app_name_prefixes:
 * this test holds whatever those settings say.
 */
void
nat_append_not_citus_shard(StringInfo sql, const char *rel)
{
	if (!nat_citus_installed() ||
		!OidIsValid(get_relname_relid("pg_dist_shard", PG_CATALOG_NAMESPACE)))
		return;
	appendStringInfo(sql,
					 " AND NOT EXISTS (SELECT FROM pg_catalog.pg_dist_shard s"
					 " JOIN pg_catalog.pg_class t ON t.oid OPERATOR(pg_catalog.=) s.logicalrelid::pg_catalog.oid"
					 " WHERE s.shardid OPERATOR(pg_catalog.=)"
					 " pg_catalog.substring(%s.relname::pg_catalog.text, '_([0-9]{1,%d})$')::pg_catalog.int8"
					 " AND t.relnamespace OPERATOR(pg_catalog.=) %s.relnamespace"
					 " AND (%s.relname::pg_catalog.text OPERATOR(pg_catalog.=)"
					 " (t.relname::pg_catalog.text OPERATOR(pg_catalog.||) '_' OPERATOR(pg_catalog.||) s.shardid::pg_catalog.text)"
					 " OR (pg_catalog.octet_length(t.relname::pg_catalog.text) OPERATOR(pg_catalog.+)"
					 " pg_catalog.octet_length(s.shardid::pg_catalog.text)) OPERATOR(pg_catalog.>=) %d"
					 " AND %s.relname::pg_catalog.text OPERATOR(pg_catalog.~)"
					 " ('_[0-9a-f]{%d}_' OPERATOR(pg_catalog.||) s.shardid::pg_catalog.text OPERATOR(pg_catalog.||) '$')"
					 " AND pg_catalog.starts_with(t.relname::pg_catalog.text,"
					 " pg_catalog.substring(%s.relname::pg_catalog.text, '^(.+)_[0-9a-f]{%d}_[0-9]+$'))))",
					 rel, SHARD_ID_DIGITS, rel, rel, NAMEDATALEN - 1, rel,
					 HASH_DIGITS, rel, HASH_DIGITS);
}

/*
 * Append describe_table's "citus" member for the relation c, where Citus is
 * installed: " OPERATOR(pg_catalog.||) <jsonb>", the jsonb being
 * {"citus": {"table_type", "distribution_column"?, "colocation_id"?}} for a
 * table in pg_dist_partition, else {}.
 *
 * table_type, as Citus's citus_tables view tells them apart: "distributed"
 * (a distribution column), "reference" (replicated to every node),
 * "citus_local" (in Citus's metadata, kept on the coordinator, no
 * co-location group) or "single_shard" (distributed without a distribution
 * column, schema-based sharding's tables included).  distribution_column
 * is the column named by pg_dist_partition's partkey (a Var's node text,
 * whose :varattno is read), shown only if the caller may use it, as the
 * columns are; colocation_id is the co-location group (tables of one group
 * keep matching rows on the same node, so joins on the distribution column
 * stay local).  Citus's column_to_column_name() would read the partkey too,
 * but it is volatile, and a read-only call refuses it.
 */
void
nat_append_citus_description(StringInfo sql)
{
	if (!nat_citus_installed() ||
		!OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE)))
		return;
	appendStringInfoString(sql,
						   " OPERATOR(pg_catalog.||) COALESCE((SELECT pg_catalog.jsonb_build_object('citus',"
						   " pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object("
						   "'table_type', CASE WHEN p.partkey IS NOT NULL THEN 'distributed'"
						   " WHEN p.repmodel OPERATOR(pg_catalog.=) 't' THEN 'reference'"
						   " WHEN p.colocationid OPERATOR(pg_catalog.=) 0 THEN 'citus_local'"
						   " ELSE 'single_shard' END,"
						   " 'distribution_column', (SELECT a.attname::pg_catalog.text"
						   " FROM pg_catalog.pg_attribute a"
						   " WHERE a.attrelid OPERATOR(pg_catalog.=) c.oid"
						   " AND a.attnum OPERATOR(pg_catalog.=)"
						   " pg_catalog.substring(p.partkey, ':varattno ([0-9]{1,4}) ')::pg_catalog.int2"
						   " AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped"
						   " AND pg_catalog.has_column_privilege(c.oid, a.attnum, 'SELECT, INSERT, UPDATE')),"
						   " 'colocation_id', CASE WHEN p.colocationid OPERATOR(pg_catalog.<>) 0"
						   " THEN p.colocationid END)))"
						   " FROM pg_catalog.pg_dist_partition p"
						   " WHERE p.logicalrelid::pg_catalog.oid OPERATOR(pg_catalog.=) c.oid), '{}')");
}
